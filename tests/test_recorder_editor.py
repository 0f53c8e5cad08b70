"""The recorder's core without a terminal (an injected ``read_line``), completion, the status line,
``ginlog undo`` and ``ginlog new --rematch``."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.record.completion import AFTER_WORDS, choices
from ginlog.app.record.entry import parse_entry
from ginlog.app.record.prompt import history_path, yes_no
from ginlog.app.record.recorder import run_recorder
from ginlog.app.record.status import status_line
from ginlog.game.cards import parse_cards
from ginlog.game.rules import preset, with_knobs
from ginlog.log import events as E
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.play.reducer import apply, start

from test_cli import app, run  # noqa: F401 - app: a fixture

TO_DISCARD = ["dealer Ann", "upcard 7h", "pass", "pass", "stock", "discard qc"]
SHOWS = ["show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad", "show 5h 6h 8h jc qh kd 9d 9c 4c td"]


class Script:
    """A ``read_line`` that types the given lines, remembering each prompt; None once they run out."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else None


def match(tmp_path: Path, entries: list[str], name: str = "m.jsonl", target: int = 100) -> Path:
    path = tmp_path / name
    s = MatchSession.create(path, ("Ann", "Bob"), with_knobs(preset("standard"), game_target=str(target)))
    s.append([partial(parse_entry, e) for e in entries])
    return path


def record(path: Path, lines: list[str], *, interactive: bool = True) -> tuple[int, str, Script]:
    out, err = io.StringIO(), io.StringIO()
    script = Script(lines)
    code = run_recorder(str(path), io.StringIO(), out, err, read_line=script, interactive=interactive)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), script


def test_yes_no() -> None:
    assert [yes_no(a) for a in ("y", "YES", " n ", "No", "", "yep", "show 7h")] == [True, True, False, False, True, None, None]
    assert yes_no("", default=False) is False


def test_the_question_re_asks_on_junk_and_takes_an_entry_as_the_replacement(tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc"])
    code, out, script = record(path, [SHOWS[0], "maybe", "", "quit"])
    assert "Accept? [Y/n] (Enter = yes) " in script.prompts
    assert "Answer y or n (Enter = yes), or type the entry to record instead." in out
    assert "ok 8: Bob shows" in out  # Enter after the junk: yes
    path2 = match(tmp_path, [*TO_DISCARD[:5], "knock qc"], name="m2.jsonl")
    code, out, _ = record(path2, [SHOWS[0], "show [2h 3h 4h] [8c 8d 8s] [5s 6s 7s] ad", "quit"])
    assert "taken as your entry instead: show [2h 3h 4h] [8c 8d 8s] [5s 6s 7s] ad" in out
    last = json.loads(path2.read_bytes().splitlines()[-1])
    assert last["melds"] == [["2H", "3H", "4H"], ["8C", "8D", "8S"], ["5S", "6S", "7S"]]
    path3 = match(tmp_path, [*TO_DISCARD[:5], "knock qc"], name="m3.jsonl")
    code, out, _ = record(path3, [SHOWS[0], "no", "quit"])
    assert "Not written." in out and read_match(str(path3)).lines == 7


def test_undo_in_the_recorder_names_the_move(tmp_path: Path) -> None:
    path = match(tmp_path, TO_DISCARD)
    code, out, _ = record(path, ["undo", "undo", "quit"], interactive=False)
    assert code == 0
    assert "ok 8: Correction: event 7 undone\nundone: event 7, Bob discards Q♣\n" in out
    assert "undone: event 6, Bob draws from the stock" in out


def test_a_whole_turn_reports_each_line_it_wrote(tmp_path: Path) -> None:
    """One entry, two lines: 'ok 6' then 'ok 7', each told against the state before it (not 'ok 7' twice)."""
    path = match(tmp_path, TO_DISCARD[:4])
    code, out, _ = record(path, ["s d qc", "quit"], interactive=False)
    assert code == 0
    assert "ok 6: Bob draws from the stock\nok 7: Bob discards Q♣\n" in out


def test_the_recorder_stays_open_after_the_end(tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", SHOWS[0]], target=50)
    new = tmp_path / "next.jsonl"
    code, out, script = record(path, [SHOWS[1], "y", "stock", "undo", "n", "undo", "y", SHOWS[1], "y",
                                      f"rematch {new}", "dealer Bob", "quit"])
    assert code == 0
    assert out.count("Winner: Bob") == 2
    assert "refused: the match is over: 'undo', 'rematch NEW.jsonl' or 'quit' (nothing written)" in out
    assert "The match is over (Bob won 61-0). Undo reopens it. Undo? [y/N] " in script.prompts
    assert "Not undone." in out and "undone: event 9, Ann shows" in out
    assert f"{new}: new match, Ann v Bob, a rematch of {path}" in out
    assert out.rstrip().endswith(f"Stopped at event 2; 'ginlog record {new}' resumes.")
    assert script.prompts.count("over> ") >= 3
    state = read_match(str(new)).state
    assert state is not None and state.rules.game_target == 50 and state.phase == "ready"


def test_piped_input_after_the_end(tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS], target=50)
    before = path.read_bytes()
    code, out, _ = record(path, [], interactive=False)  # ends there: exit 0 as before
    assert code == 0 and out.rstrip().endswith("Winner: Bob")
    code, out, _ = record(path, ["undo"], interactive=False)  # no one to ask: refused, nothing written
    assert code == 1 and f"'ginlog undo {path} --reopen'" in out
    assert path.read_bytes() == before


def test_history_lives_beside_the_match() -> None:
    assert history_path("friday.jsonl") == ".friday.jsonl.history"


def _at(entries: list[str], *, full: bool = False) -> Any:
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Mary Lou"), rules=rules), 1)
    for e in entries:
        for ev in parse_entry(e, tl):
            tl = apply(tl, ev)
    return tl.state


def test_completion_offers_words_names_and_the_cards_that_can_be_named() -> None:
    st = _at([])
    assert [c.text for c in choices("", st)][:3] == ["dealer", "cut", "upcard"]
    assert [c.text for c in choices("d", st)] == ["dealer", "discard"]
    assert [c.text for c in choices("dealer ", st)] == ["Ann", "'Mary Lou'"]
    assert [c.text for c in choices("cut 'mary", st)] == ["'Mary Lou'"]
    assert [c.text for c in choices("result ", st)] == ["knock", "gin", "biggin", "void"]
    assert [c.text for c in choices("result gin A", st)] == ["Ann"]
    st = _at(["dealer Ann", "upcard 7h", "pass", "pass"])
    stock = [c.text for c in choices("stock ", st)]
    assert len(stock) == 51 and "7h" not in stock  # every card not yet seen: the upcard is seen
    assert [(c.text, c.shown) for c in choices("take ", st)] == [("7h", "7♥")]
    assert [c.text for c in choices("upcard T", st)] == ["10S", "10C", "10D", "10H"]
    st = _at(["dealer Ann", "upcard 7h", "pass", "take"])
    assert "7h" in [c.text for c in choices("discard 7", st)]  # known in Mary Lou's hand
    assert [c.text for c in choices("over", st, words=AFTER_WORDS)] == []
    assert [c.text for c in choices("re", st, words=AFTER_WORDS)] == ["rematch"]


def test_completion_offers_the_hand_itself_in_a_full_information_record() -> None:
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    tl = apply(tl, E.CardDrawn(player="Bob", source="pile", card=parse_cards("7h")[0]))
    offered = [c.text for c in choices("discard ", tl.state)]
    assert sorted(offered) == sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad", "7h"])
    assert len(offered) == 11 and "7h" in offered and "5h" not in offered


def test_completion_ends_a_whole_turn_from_the_hand_after_the_draw() -> None:
    """``t d``/``s d``/``s 5c d`` (a whole turn in one entry): the cards that may end it, the drawn one included."""
    rules = preset("standard")
    tl = start(E.MatchStarted(players=("Ann", "Bob"), rules=rules), 1)
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    hands = (parse_cards("2h 3h 4h 8c 8d 8s 5s 6s 7s ad"), parse_cards("5h 6h 8h jc qh kd 9d 9c 4c td"))
    tl = apply(tl, E.HandDealt(dealer="Ann", upcard=parse_cards("7h")[0], hands={"Ann": hands[1], "Bob": hands[0]}))
    hand = sorted(["2h", "3h", "4h", "8c", "8d", "8s", "5s", "6s", "7s", "ad"])
    assert sorted(c.text for c in choices("t d ", tl.state)) == sorted([*hand, "7h"])
    assert sorted(c.text for c in choices("take k ", tl.state)) == sorted([*hand, "7h"])
    assert [c.text for c in choices("s d 8", tl.state)] == ["8s", "8c", "8d"]
    assert sorted(c.text for c in choices("s qc d q", tl.state)) == ["qc"]
    assert choices("s xx d ", tl.state) == []
    shown_already = [c.text for c in choices("show 2h 3h ", tl.state)]
    assert "2h" not in shown_already and "4h" in shown_already


def test_status_line() -> None:
    st = _at(["dealer Ann", "upcard 7h"])
    assert status_line(st) == "Hand 1 · Mary Lou to take or pass the upcard · stock 31 · pile 7♥ · Ann 0, Mary Lou 0 (to 100)"
    assert status_line(_at(["dealer Ann"])) == "Hand 1: Ann deals (upcard CARD) · Ann 0, Mary Lou 0 (to 100)"


# ---------------------------------------------------------------------------
# ginlog undo, ginlog new --rematch


def test_ginlog_undo_says_what_it_undoes(app: Any, tmp_path: Path) -> None:
    path = match(tmp_path, TO_DISCARD)
    r = run(app, "undo", path)
    assert r.exit_code == 0
    assert r.stdout == f"{path}: 1 event(s) appended, now at event 8\nundone: event 7, Bob discards Q♣\n"


def test_ginlog_undo_of_a_finished_match_needs_reopen_without_a_terminal(app: Any, tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS], target=50)
    before = path.read_bytes()
    r = run(app, "undo", path)
    assert r.exit_code == 1 and path.read_bytes() == before
    assert len(r.stderr.strip().splitlines()) == 1 and "give --reopen" in r.stderr and "[reopen]" in r.stderr
    r = run(app, "undo", path, "--reopen")
    assert r.exit_code == 0 and "undone: event 9, Ann shows" in r.stdout
    state = read_match(str(path)).state
    assert state is not None and not state.finished
    assert run(app, "undo", path, "--yes").exit_code == 0  # not finished any more: no question either way


def test_play_undo_of_a_finished_match_needs_reopen(app: Any, tmp_path: Path) -> None:
    """``ginlog play M undo`` (the script path, fast or through Typer) asks for --reopen as ``ginlog undo`` does."""
    import subprocess
    import sys

    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS], target=50)
    before = path.read_bytes()
    for args in (["play", path, "undo"], ["play", path, "note gg", "undo", "undo"]):
        r = run(app, *args)
        assert r.exit_code == 1 and path.read_bytes() == before, r.output
        assert "[reopen]" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    exe = Path(sys.executable).with_name("ginlog")
    p = subprocess.run([str(exe), "play", str(path), "undo"], capture_output=True, text=True, check=False)
    assert p.returncode == 1 and "give --reopen" in p.stderr and path.read_bytes() == before  # the fast path too
    assert run(app, "play", path, "note gg", "undo").exit_code == 0  # undoing a note after the end reopens nothing
    assert run(app, "play", path, "undo").exit_code == 1
    r = run(app, "play", path, "--reopen", "undo")
    assert r.exit_code == 0, r.output
    state = read_match(str(path)).state
    assert state is not None and not state.finished


def test_undoing_a_note_after_the_end_reopens_nothing_so_nothing_is_asked(app: Any, tmp_path: Path) -> None:
    """``ginlog undo`` and the recorder ask (or need --reopen) only when the undo would reopen the match."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS, "note gg", "note gg"], target=50)
    r = run(app, "undo", path)  # no terminal, no --reopen: fine, it takes back a note
    assert r.exit_code == 0 and "undone: event 11, Note: gg" in r.stdout, r.output
    code, out, script = record(path, ["undo", "quit"])
    assert code == 0 and "undone: event 10, Note: gg" in out and not any("Undo?" in p for p in script.prompts)
    state = read_match(str(path)).state
    assert state is not None and state.finished
    assert run(app, "undo", path).exit_code == 1  # now it would reopen the match


def test_new_rematch(app: Any, tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    MatchSession.create(old, ("Ann", "Bob"), with_knobs(preset("modern"), knock_limit="9"), title="Friday")
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{tmp_path / 'new.jsonl'}: new match, Ann v Bob, a rematch of {old} (the same rules)\n"
    a, b = (read_match(str(p)).state for p in (old, tmp_path / "new.jsonl"))
    assert a is not None and b is not None
    assert b.players == a.players and b.rules == a.rules and b.title == "Friday (rematch)" and b.phase == "setup"
    assert len((tmp_path / "new.jsonl").read_bytes().splitlines()) == 1  # match_started alone


@pytest.mark.parametrize("extra", [["--player", "Cy"], ["--rules", "modern"], ["--set", "knock_limit=9"]])
def test_new_rematch_conflicts_are_usage_errors(app: Any, tmp_path: Path, extra: list[str]) -> None:
    old = match(tmp_path, [])
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old, *extra)
    assert r.exit_code == 2 and not (tmp_path / "new.jsonl").exists()


def test_new_rematch_of_a_title_at_the_length_limit(app: Any, tmp_path: Path) -> None:
    """A legal old title of up to 2000 characters still makes a rematch: ' (rematch)' is kept within the limit
    (found by the hostile campaign's rematch class: 'title is longer than 2000 characters', no file named)."""
    old = tmp_path / "old.jsonl"
    MatchSession.create(old, ("Ann", "Bob"), preset("standard"), title="t" * 1995)
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
    assert r.exit_code == 0, r.output
    b = read_match(str(tmp_path / "new.jsonl")).state
    assert b is not None and b.title is not None and len(b.title) == 2000 and b.title.endswith(" (rematch)")


def test_new_rematch_of_a_bad_file_is_one_line_exit_1(app: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for old in (bad, tmp_path / "missing.jsonl"):
        r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
        assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "new.jsonl").exists()
