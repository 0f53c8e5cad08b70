"""The live recorder's core, driven directly (piped standard input or an injected ``read_line``): Ctrl-C stops
cleanly and keeps what was written, a conflict is read again, questions re-ask, a whole turn is reported line by
line, and after the end the recorder stays open (undo, rematch)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.app.record.recorder import run_recorder
from ginlog.game.rules import preset
from ginlog.log.events import Note

from recording import SHOWS, TO_DISCARD, match, record


class Keys(io.StringIO):
    """Standard input that gives some entries and then a Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    out, err = io.StringIO(), io.StringIO()
    code = run_recorder(str(path), Keys("dealer Ann\nupcard 7h\n"), out, err)
    assert code == 0
    assert out.getvalue().rstrip().endswith(f"Stopped at event 3; 'ginlog record {path}' resumes.")
    assert "Traceback" not in out.getvalue() + err.getvalue()
    report = read_match(path)
    assert report.ok and report.lines == 3 and report.state is not None and report.state.hand is not None


class OtherWriterFirst(io.StringIO):
    """Standard input whose second entry is typed just after another writer appended a note."""

    def __init__(self, text: str, path: Path) -> None:
        super().__init__(text)
        self.path = path
        self.reads = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.reads += 1
        if self.reads == 2:
            MatchSession.open(self.path).append([Note(text="from the other writer")])
        return super().readline()


def test_a_conflict_is_refused_and_the_file_read_again(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    out, err = io.StringIO(), io.StringIO()
    code = run_recorder(str(path), OtherWriterFirst("dealer Ann\nupcard 7h\nupcard 7h\n", path), out, err)
    text = out.getvalue()
    assert code == 1  # piped input with a refused entry: a script notices
    assert "ok 2: " in text and "; re-reading the file" in text and "[conflict]" in text
    assert "ok 4: " in text  # the same entry again, after the other writer's line 3
    assert text.rstrip().endswith(f"Stopped at event 4; 'ginlog record {path}' resumes.")
    assert err.getvalue() == ""
    report = read_match(path)
    assert report.ok and report.lines == 4


def test_the_question_re_asks_on_junk_and_takes_an_entry_as_the_replacement(tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc"])
    code, out, script = record(path, [SHOWS[0], "maybe", "", "quit"])
    assert "Accept Bob's hand as arranged (event 8)? [Y/n] (Enter = yes) " in script.prompts
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
    assert "refused: the match is over: 'undo', 'rematch NEW.jsonl', 'seal' or 'quit' (nothing written)" in out
    assert "The match is over (Bob won 61-0). Undo event 9, Ann shows 4♣ 9♣ J♣ 9♦ 10♦ K♦ 5♥ 6♥ 8♥ Q♥, and reopen it?" \
        " [y/N] " in script.prompts
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



def test_the_recorder_offers_seal_when_the_match_ends(tmp_path: Path) -> None:
    """After the end ``seal`` says the command each player runs (the recorder holds no key); help names it."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", SHOWS[0]], target=50)
    code, out, _script = record(path, [SHOWS[1], "y", "seal", "help", "quit"])
    assert code == 0 and "Winner: Bob" in out
    assert f"To seal the record, each player in a shell: ginlog seal {path} --key KEY --as NAME" in out
    assert "  seal                 how each player seals" in out
    assert "refused" not in out and path.read_text().count('"type":"seal"') == 0  # nothing written


def test_the_defenders_melds_are_shown_before_the_question(tmp_path: Path) -> None:
    """Issue 21: only the hand's sum was shown before 'Accept?'; now the defender's melds and lay-offs too."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", SHOWS[0]])
    code, out, script = record(path, ["5h6h8h jc qh kd 9d9c4ctd", "", "quit"])
    assert code == 0
    assert "ginlog arranges Ann's hand: (no melds) lays off 5♥ 6♥ 8♥, deadwood 4♣ 9♣ J♣ 9♦ 10♦ K♦ Q♥ = 62" in out, out
    assert "Accept Ann's hand as arranged (event 9)? [Y/n] (Enter = yes) " in script.prompts
    assert "ok 9: Ann shows" in out


@pytest.mark.parametrize(("entry", "question"), [
    ("undo", "Undo event 7, Bob discards Q♣? [y/N] "),
    ("void misdeal", "Void hand 1 (misdeal): it is dealt again? [y/N] "),
    ("abandon rain", "Abandon the match here (rain): no more hands? [y/N] "),
])
def test_an_entry_that_takes_back_or_ends_asks_first_naming_what(tmp_path: Path, entry: str, question: str) -> None:
    """Issue 21: Up then Enter re-ran 'undo' and undid a show. At a terminal each such entry asks (Enter: no)."""
    path = match(tmp_path, TO_DISCARD)
    before = path.read_bytes()
    code, out, script = record(path, [entry, "", "quit"])
    assert question in script.prompts and "Not written." in out and path.read_bytes() == before
    code, out, script = record(path, [entry, "y", "quit"])
    assert question in script.prompts and "ok 8: " in out
    code, out, _ = record(match(tmp_path, TO_DISCARD, name="piped.jsonl"), [entry], interactive=False)
    assert "ok 8: " in out  # piped entries are a script's: nobody to ask
