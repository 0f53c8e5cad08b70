"""The one writer, through its public API: check, append, conflicts, reload, the clock, create, repair."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from ginlog.app.record.entry import parse_entry
from ginlog.errors import Conflict, GinlogError
from ginlog.game.rules import preset
from ginlog.log.events import CardDrawn, FirstDealer, HandDealt, MatchStarted, Note, UpcardPassed
from ginlog.match.reading import iter_steps, read_match
from ginlog.match.session import MatchSession
from ginlog.play.reducer import fold
from ginlog.play.simulate import simulate_match

PLAYERS = ("Ann", "Bob")


def stamps(n: int) -> list[str]:
    return [f"2026-03-06T19:00:{s:02d}.000Z" for s in range(n)]


def ts_of(path: Path) -> list[str]:
    return [json.loads(line)["ts"] for line in path.read_bytes().splitlines()]


@pytest.fixture
def ready(tmp_path: Path) -> MatchSession:
    """A new match with its first dealer: ``upcard 7h`` is the next legal entry."""
    s = MatchSession.create(tmp_path / "m.jsonl", PLAYERS, preset("standard"))
    s.append([FirstDealer(dealer="Ann", how="agreed")])
    return s


def test_create_then_open_agree(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    s = MatchSession.create(path, PLAYERS, preset("modern"), title="Friday")
    assert (s.seq, s.state.phase, s.state.title, s.path) == (1, "setup", "Friday", str(path))
    again = MatchSession.open(path)
    assert (again.seq, again.head, again.state) == (1, s.head, s.state)


def test_create_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, PLAYERS, preset("standard"))
    before = path.read_bytes()
    with pytest.raises(GinlogError) as info:
        MatchSession.create(path, ("Cleo", "Dev"), preset("modern"))
    assert info.value.rule == "exists"
    assert path.read_bytes() == before


def test_check_writes_nothing(ready: MatchSession) -> None:
    path = Path(ready.path)
    before = path.read_bytes()
    tl = ready.check([partial(parse_entry, "upcard 7h"), UpcardPassed(player="Bob")])
    assert tl.seq == 4 and tl.state.hand is not None and tl.state.hand.phase == "offer"  # Bob passed: Ann's offer
    assert path.read_bytes() == before
    assert ready.seq == 2 and ready.state.phase == "ready"  # the session did not move either
    with pytest.raises(GinlogError) as info:
        ready.check([partial(parse_entry, "upcard 7h"), UpcardPassed(player="Ann")])  # Bob's offer, not Ann's
    assert (info.value.rule, info.value.line, info.value.seq, info.value.path) == ("turn-order", 4, 4, ready.path)
    assert path.read_bytes() == before


def test_append_is_all_or_nothing(ready: MatchSession) -> None:
    path = Path(ready.path)
    before = path.read_bytes()
    with pytest.raises(GinlogError):
        ready.append([partial(parse_entry, "upcard 7h"), UpcardPassed(player="Ann")])
    assert path.read_bytes() == before and ready.seq == 2
    steps = ready.append([partial(parse_entry, "upcard 7h"), UpcardPassed(player="Bob")])
    assert [(s.line, s.seq) for s in steps] == [(3, 3), (4, 4)]
    assert isinstance(steps[0].event, HandDealt) and steps[-1].state == ready.state
    assert ready.seq == 4 and ready.head == steps[-1].digest == read_match(path).head
    read = list(iter_steps(path))
    assert [s.digest for s in read[2:]] == [s.digest for s in steps]
    assert read[-1].state == ready.state


def test_a_stale_session_gets_conflict_and_writes_nothing(ready: MatchSession) -> None:
    path = Path(ready.path)
    other = MatchSession.open(path)
    other.append([Note(text="the other writer first")])
    after_other = path.read_bytes()
    with pytest.raises(Conflict) as info:
        ready.append([Note(text="mine")])
    assert info.value.rule == "conflict"
    assert path.read_bytes() == after_other
    assert ready.seq == 2  # still the file as it was read


def test_reload_after_a_conflict_catches_up(ready: MatchSession) -> None:
    path = Path(ready.path)
    other = MatchSession.open(path)
    other.append([partial(parse_entry, "upcard 7h")])
    with pytest.raises(Conflict):
        ready.append([partial(parse_entry, "upcard 8h")])
    ready.reload()
    assert (ready.seq, ready.head, ready.state) == (other.seq, other.head, other.state)
    ready.append([UpcardPassed(player="Bob")])
    report = read_match(path)
    assert report.ok and report.lines == 4 and report.state == ready.state


def test_the_clock_gives_every_timestamp(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    ts = stamps(3)
    clock = iter(ts)
    s = MatchSession.create(path, PLAYERS, preset("standard"), clock=lambda: next(clock))
    s.append([FirstDealer(dealer="Ann", how="agreed")])
    s.append([Note(text="one"), Note(text="two")])  # one write, one tick
    assert ts_of(path) == [ts[0], ts[1], ts[2], ts[2]]
    clock2 = iter(["2026-03-07T10:00:00.000Z"])
    MatchSession.open(path, clock=lambda: next(clock2)).append([Note(text="three")])
    assert ts_of(path)[-1] == "2026-03-07T10:00:00.000Z"


def test_write_checks_every_event_before_making_the_file(tmp_path: Path) -> None:
    events = simulate_match(preset("standard"), seed=3, mode="full")
    path = tmp_path / "whole.jsonl"
    s = MatchSession.write(path, events, clock=lambda: "2026-03-06T19:00:00.000Z")
    assert s.seq == len(events) and s.state == fold(events).state
    assert read_match(path).ok and read_match(path).lines == len(events)
    bad = tmp_path / "bad.jsonl"
    with pytest.raises(GinlogError) as info:
        MatchSession.write(bad, [*events[:3], CardDrawn(player="Ann", source="stock")])
    assert info.value.line == 4 and not bad.exists()
    with pytest.raises(GinlogError) as info:
        MatchSession.write(bad, [FirstDealer(dealer="Ann", how="agreed")])
    assert info.value.rule == "first-event" and not bad.exists()
    assert isinstance(events[0], MatchStarted)


def test_repair_moves_a_torn_tail(ready: MatchSession) -> None:
    path = Path(ready.path)
    whole = path.read_bytes()
    torn = b'{"seq":3,"ts":"2026-03-0'
    with open(path, "ab") as f:
        f.write(torn)
    with pytest.raises(GinlogError) as info:
        ready.append([Note(text="refused")])
    assert info.value.rule == "torn-tail" and path.read_bytes() == whole + torn
    with pytest.raises(GinlogError) as info:
        MatchSession.open(path)
    assert info.value.rule == "torn-tail"
    rep = MatchSession.repair(path)
    assert rep.torn == torn and rep.side_file is not None and rep.side_file.read_bytes() == torn
    assert path.read_bytes() == whole
    ready.append([Note(text="after repair")])  # the session's view was right all along
    assert read_match(path).ok and read_match(path).lines == 3
    assert MatchSession.repair(path).side_file is None  # nothing torn: nothing done


def test_open_raises_the_files_first_problem(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, PLAYERS, preset("standard"))
    path.write_bytes(path.read_bytes() + b"not json\n")
    with pytest.raises(GinlogError) as info:
        MatchSession.open(path)
    assert info.value.line == 2
