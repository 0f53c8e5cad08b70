"""The score sheet that tells the story: each hand's date (read from the record), and the terminal sheet."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ginlog.app.views.sheet import BLOCKS, score_sheet, sparkline, totals_chart
from ginlog.app.views.match_json import SCORE_JSON_KEYS, score_json
from ginlog.game.rules import preset
from ginlog.log.events import SCHEMA_VERSION, Correction, Event, FirstDealer, HandResultOnly, MatchStarted, event_fields, event_type
from ginlog.log.format import digest, encode
from ginlog.log.known import KnownBodies
from ginlog.match.dated import Dated, read_dated, ts_of as raw_ts
from ginlog.match.reading import MatchReport, iter_steps, read, read_match
from ginlog.play.state import MatchState
from ginlog.play.simulate import simulate_match

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def state_of(report: MatchReport) -> MatchState:
    """The state a clean reading ends with."""
    assert report.state is not None, report.errors
    return report.state


def ts_of(seq: int) -> str:
    """A distinct time for each line: 2026-11-29 plus seq minutes (seconds = seq % 60)."""
    return f"2026-11-{1 + seq // 1440:02}T{seq // 60 % 24:02}:{seq % 60:02}:{seq % 60:02}.{seq % 1000:03}Z"


def file_bytes(events: list[Event]) -> bytes:
    lines, prev = [], None
    for seq, ev in enumerate(events, start=1):
        raw = encode(seq, ts_of(seq), event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        lines.append(raw + b"\n")
        prev = digest(raw)
    return b"".join(lines)


def hand_end_times(data: bytes) -> list[str]:
    """Independently: replay step by step and take the ts of each line after which the sheet grew."""
    ts = [json.loads(line)["ts"] for line in data.splitlines()]
    out: list[str] = []
    for step in iter_steps(io.BytesIO(data), known=None):
        n = len(step.state.hands)
        del out[n:]
        while len(out) < n:
            out.append(ts[step.line - 1])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rules", ["standard", "hollywood"])
def test_each_hand_is_dated_by_the_line_that_finished_it(seed: int, rules: str) -> None:
    data = file_bytes(simulate_match(preset(rules), seed=seed))
    want = hand_end_times(data)
    known = KnownBodies()
    first = read_dated(io.BytesIO(data), known=known)  # every line parsed, and learned
    report, dates = first.report, first.hand_ends
    assert list(dates) == want and len(dates) == len(state_of(report).hands)
    again = read_dated(io.BytesIO(data), known=known)  # now the known lines come as runs
    assert list(again.hand_ends) == want
    plain = read_dated(io.BytesIO(data), known=None)
    assert list(plain.hand_ends) == want
    assert again.report.state == read_match(io.BytesIO(data), known=None).state


def test_the_fast_path_is_taken_and_read_right() -> None:
    data = file_bytes(simulate_match(preset("standard"), seed=4))
    known = KnownBodies()
    read_dated(io.BytesIO(data), known=known)
    seen: list[tuple[int, list[bytes]]] = []
    runs: list[int] = []

    class Spy(Dated):
        def raw(self, lineno: int, raws: Any) -> None:
            seen.append((lineno, list(raws)))
            super().raw(lineno, raws)

        def run(self, lineno: int, seq: int, events: Any, digests: Any) -> Any:
            runs.append(len(events))
            return super().run(lineno, seq, events, digests)

    dated = read(io.BytesIO(data), Spy(), known=known)
    assert any(n > 1 for n in runs)
    assert list(dated.hand_ends) == hand_end_times(data)
    lineno, raws = next((n, r) for n, r in seen if len(r) > 1)
    assert raw_ts(raws[-1]) == ts_of(lineno + len(raws) - 1)


def test_a_correction_that_takes_a_hand_back_takes_its_date_back() -> None:
    events: list[Event] = [
        MatchStarted(players=("Ann", "Bob"), rules=preset("standard")),
        FirstDealer(dealer="Ann", how="agreed"),
        HandResultOnly(how="knock", out="Ann", knocker_deadwood=2, defender_deadwood=20),  # line 3
        HandResultOnly(how="knock", out="Bob", knocker_deadwood=2, defender_deadwood=20),  # line 4
        Correction(undoes=4),                                                              # line 5
        HandResultOnly(how="gin", out="Bob", defender_deadwood=20),                        # line 6
    ]
    data = file_bytes(events)
    dated = read_dated(io.BytesIO(data))
    report, dates = dated.report, dated.hand_ends
    assert len(state_of(report).hands) == 2
    assert list(dates) == [ts_of(3), ts_of(6)]
    sheet = score_json(state_of(report), report.head, dates)
    assert [h["date"] for h in sheet["hands"]] == [ts_of(3), ts_of(6)]


def test_the_score_json_keys_stay_and_grow() -> None:
    dated = read_dated(SAMPLES / "standard-match.jsonl")
    report, dates = dated.report, dated.hand_ends
    data = score_json(state_of(report), report.head, dates)
    assert list(data) == list(SCORE_JSON_KEYS)
    old = {"number", "dealer", "outcome", "out", "winner", "points", "net", "deadwood", "recorded", "totals", "void_reason"}
    for h in data["hands"]:
        assert old <= set(h) and {"date", "in_games", "game_totals"} <= set(h)
        assert h["date"] is not None and h["date"].startswith("2026-03-06T")
    assert score_json(state_of(report), report.head)["hands"][0]["date"] is None  # dates not given


# ---------------------------------------------------------------------------
# The terminal sheet


def render(renderable: Any, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def sheet_text(path: Path, width: int = 100) -> str:
    dated = read_dated(path)
    report, dates = dated.report, dated.hand_ends
    return render(score_sheet(state_of(report), score_json(state_of(report), report.head, dates), str(path), width), width)


def test_the_sheet_tells_a_hollywood_match() -> None:
    path = SAMPLES / "hollywood-match.jsonl"
    dated = read_dated(path)
    report, dates = dated.report, dated.hand_ends
    text = sheet_text(path, 120)
    data = score_json(state_of(report), report.head, dates)
    assert report.head is not None and text.count(report.head) == 1
    flat = " ".join(text.split())
    assert f"ginlog audit {path} --anchor HASH proves no line was cut off the end" in flat
    assert "every hand ended on 2026-03-10; times are UTC" in text
    assert "Hollywood: three games, each to 100" in text
    for g in data["games"]:  # each game's winner and the hand that closed it
        assert f"{g['winner']} (hand {g['closed_at']})" in text
    assert "Jack game 3" in text and "Running totals" in text
    assert "undercut Jack +10 in game 2" in text  # hand 8: Jack's first win ...
    assert "gin Jack +39 in games 2, 3" in text  # (issue 21: a hand says where its points went)
    row = next(line for line in text.splitlines() if line.startswith("│    8 "))
    assert " 0  10   0" in row  # ... went into game 2 alone (Jack was shut out of game 1)
    assert "Winner: Iris" in text


def test_the_sheet_shows_both_deadwoods_and_dates() -> None:
    text = sheet_text(SAMPLES / "standard-match.jsonl")
    dated = read_dated(SAMPLES / "standard-match.jsonl")
    report, dates = dated.report, dated.hand_ends
    for h in score_json(state_of(report), report.head, dates)["hands"]:
        if h["deadwood"]:
            assert f"{h['deadwood']['Ann']:>2} · {h['deadwood']['Bob']:>2}" in text
    assert "Deadwood" in text and "Ann · Bob" in text
    assert "Dealer" in text  # room for it at 100 columns
    assert "Dealer" not in sheet_text(SAMPLES / "hollywood-match.jsonl", 80)


def test_names_are_never_markup_and_always_visible() -> None:
    players = ("[bold red]Zed", "[/]Ann")  # markup (a name holds only printable characters)
    events: list[Event] = [
        MatchStarted(players=players, rules=preset("hollywood"), title="[link=x]t\u202e\x1b[2J"),
        FirstDealer(dealer=players[0], how="agreed"),
        HandResultOnly(how="knock", out=players[0], knocker_deadwood=2, defender_deadwood=20),
    ]
    data = file_bytes(events)
    dated = read_dated(io.BytesIO(data))
    report, dates = dated.report, dated.hand_ends
    text = render(score_sheet(state_of(report), score_json(state_of(report), report.head, dates)), 140)
    assert "[bold red]Zed" in text and "[/]Ann" in text and "[link=x]t" in text
    assert "\u202e" not in text and "\x1b" not in text and "t<U+202E>␛[2J" in text


def test_sparkline() -> None:
    assert sparkline([], 100) == ""
    assert sparkline([0, 100], 100) == BLOCKS[0] + BLOCKS[-1]
    assert sparkline([1], 100) == BLOCKS[1]  # any points at all show
    assert sparkline([150], 100) == BLOCKS[-1]  # past the top: full
    assert sparkline(list(range(100)), 99, width=10)[-1] == BLOCKS[-1]  # a shared column ends where its last hand does


def test_the_chart_shares_one_scale() -> None:
    report = read_match(SAMPLES / "standard-match.jsonl")
    chart = totals_chart(state_of(report), score_json(state_of(report), None))
    assert chart is not None
    lines = chart.plain.splitlines()
    assert lines[0].startswith("Running totals") and len(lines) == 3
    ann, bob = lines[1], lines[2]
    assert ann.endswith("115") and bob.endswith("29") and BLOCKS[-1] in ann and BLOCKS[-1] not in bob


def test_every_view_tells_the_three_games_of_a_hollywood_match() -> None:
    """Issue 21: the status line, ``table``/``show``, ``show --json``, ``replay`` and the recorder's final sheet
    show Hollywood's three games (score, closed or open, bonuses), never one sum "(to 100)"; a hand's words say
    which games it scored in and when one closed (not "Dev scores 28. Score: ... Dev 62")."""
    from test_cli import invoke

    from ginlog.app.cli import command
    from ginlog.app.record.status import status_line
    from ginlog.app.views.match import final_sheet, table_text
    from ginlog.app.views.match_json import table_json

    path = SAMPLES / "hollywood-match.jsonl"
    steps = list(iter_steps(str(path)))
    mid = next(s.state for s in steps if len(s.state.hands) == 9 and s.state.hand is not None)  # game 1 closed
    line = status_line(mid)
    assert "(to 100)" not in line and line.endswith("(each game to 100)")
    assert ("game 1 Iris 104, Jack 0 (closed: Iris won, bonuses Iris 340) · game 2 Iris 87, Jack 49 (open) · "
            "game 3 Iris 69, Jack 39 (open)") in line
    table = table_text(mid)
    assert "Score: Hollywood, three games (each game to 100)" in table
    assert "game 1: Iris 104, Jack 0, closed: Iris won it (game bonus Iris 100; boxes Iris 140; shutout Iris 100): Iris 444, Jack 0" in table
    assert "game 2: Iris 87, Jack 49, open" in table
    shown = table_json(mid)
    assert [(g["number"], g["totals"], g["winner"], g["closed_at"]) for g in shown["games"]] == [
        (1, {"Iris": 104, "Jack": 0}, "Iris", 7), (2, {"Iris": 87, "Jack": 49}, None, None), (3, {"Iris": 69, "Jack": 39}, None, None)]
    assert table_json(steps[-1].state)["games"] == score_json(steps[-1].state, None)["games"]
    sheet = final_sheet(steps[-1].state)
    assert "Hand  Dealer    Result     Winner    Points  Games" in sheet
    assert "undercut" in sheet and "big_gin" not in sheet
    assert "game 3: Iris 92, Jack 100, closed: Jack won it" in sheet and "Totals: Iris 1076, Jack 409" in sheet
    out = invoke(command(), ["replay", str(path)]).output
    assert "Iris scores 22 in games 1, 2 and 3; game 1 closes, won by Iris 104-0." in out
    assert "Jack scores 10 in game 2." in out
    assert "Score: game 1 Iris 104, Jack 0 (closed: Iris won, bonuses Iris 340) · game 2 Iris 87, Jack 10 (open)" in out
    assert "all three games are closed" in out and "over the three, bonuses included: Iris 1076, Jack 409" in out
