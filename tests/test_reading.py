"""Tests for ginlog.match.reading: the one driver, read(source, visitor), and its visitors.

The driver reads; a visitor decides what the reading makes and what a problem
does. These tests go through the public API only: a visitor of one's own,
raise against collect, a cap on the problems kept, the chain-only visitor
against read_match, steps against the final state, and every result the same
with the fast path (known bodies) on and off.
"""

from __future__ import annotations

import gc
import io
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ginlog.errors import GinlogError, IllegalMove, StoreError
from ginlog.game.rules import preset
from ginlog.log.events import SCHEMA_VERSION, CardDiscarded, Event, event_fields, event_type
from ginlog.log.format import digest, encode
from ginlog.log.known import KnownBodies
from ginlog.match.policy import POLICY
from ginlog.match.reading import (
    Chain,
    ChainReport,
    FinalState,
    MatchReport,
    Step,
    Steps,
    Stop,
    Visitor,
    iter_steps,
    read,
    read_match,
    walk,
)
from ginlog.play.simulate import simulate_match

TS = "2026-11-29T19:56:25.123Z"
EVENTS = simulate_match(preset("standard"), seed=7, mode="full", max_hands=3)


def encode_all(events: Sequence[Event]) -> list[bytes]:
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        raw = encode(seq, TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = digest(raw)
        out.append(raw)
    return out


def join(raws: Sequence[bytes]) -> bytes:
    return b"".join(r + b"\n" for r in raws)


RAWS = encode_all(EVENTS)
DATA = join(RAWS)


def tampered() -> dict[str, bytes]:
    """Files with the record damaged after the first line (so read_match reads them to the end)."""
    raws = list(RAWS)
    edited = list(raws)
    edited[5] = edited[5].replace(b'"player":"', b'"player":"X', 1)
    deleted = raws[:7] + raws[8:]
    swapped = list(raws)
    swapped[9], swapped[10] = swapped[10], swapped[9]
    return {
        "edited": join(edited),
        "deleted": join(deleted),
        "swapped": join(swapped),
        "repeated": join(raws[:12] + raws[11:]),
        "malformed": join(raws[:4] + [b'{"seq":5,"ts":'] + raws[5:]),
        "torn": DATA + raws[0][:30],
        "illegal": join(encode_all([*EVENTS[:3], EVENTS[40], *EVENTS[3:]])),  # the record intact, a rule broken
        "blank": join(raws[:20] + [b""] + raws[20:]),
    }


class Count(Visitor[None, dict[str, int]]):
    """A visitor of one's own: how many events of each type."""

    def __init__(self, errors: list[GinlogError] | None = None) -> None:
        super().__init__(errors)
        self.counts: dict[str, int] = {}
        self.began: str | None = None

    def begin(self, label: str) -> None:
        super().begin(label)
        self.began = label

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        self.counts[event_type(event)] = self.counts.get(event_type(event), 0) + 1

    def end(self) -> dict[str, int]:
        return self.counts


def expected_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for ev in EVENTS:
        counts[event_type(ev)] = counts.get(event_type(ev), 0) + 1
    return counts


# ----------------------------------------------------------------------------- a visitor of one's own


@pytest.mark.parametrize("fast", (True, False))
def test_a_visitor_of_ones_own_sees_every_event_once(fast: bool) -> None:
    known = KnownBodies() if fast else None
    if known is not None:
        read_match(io.BytesIO(DATA), known=known)  # primed: most lines now come as runs
    visitor = Count()
    assert read(io.BytesIO(DATA), visitor, known=known, name="m.jsonl") == expected_counts()
    assert visitor.began == "m.jsonl"


def test_a_visitor_may_stop_the_reading_and_still_ends() -> None:
    class FirstDiscard(Visitor[None, int | None]):
        found: int | None = None

        def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
            if isinstance(event, CardDiscarded):
                self.found = seq
                raise Stop

        def end(self) -> int | None:
            return self.found

    first = next(i for i, ev in enumerate(EVENTS, start=1) if isinstance(ev, CardDiscarded))
    assert read(io.BytesIO(DATA), FirstDiscard()) == first
    # Stopped before the torn tail: nothing reported.
    assert read(io.BytesIO(DATA + b'{"seq'), FirstDiscard()) == first


def test_walk_hands_out_what_the_visitor_makes_and_returns_its_end(tmp_path: Path) -> None:
    steps = walk(tmp_path / "missing.jsonl", Steps())  # nothing is read until iteration starts
    with pytest.raises(StoreError):
        next(steps)
    gen = walk(io.BytesIO(DATA), Steps())
    made = []
    with pytest.raises(StopIteration) as done:
        while True:
            made.append(next(gen))
    assert len(made) == len(EVENTS) and done.value.value == made[-1]


# ----------------------------------------------------------------------------- raise or collect


@pytest.mark.parametrize("case", sorted(tampered()))
def test_raise_by_default_collect_on_request(case: str) -> None:
    data = tampered()[case]
    errors: list[GinlogError] = []
    report = read(io.BytesIO(data), FinalState(errors), name="m.jsonl")
    assert isinstance(report, MatchReport) and report.errors == tuple(errors) and errors
    again = read_match(io.BytesIO(data), name="m.jsonl", collect=True)
    assert (report.state, report.lines, report.head) == (again.state, again.lines, again.head)
    assert [e.one_line() for e in report.errors] == [e.one_line() for e in again.errors]
    with pytest.raises(GinlogError) as info:
        read(io.BytesIO(data), FinalState(), name="m.jsonl")
    assert info.value.one_line() == errors[0].one_line()
    # A visitor of one's own raises too, unless it collects (it applies no rules: it sees fewer problems).
    kept: list[GinlogError] = []
    read(io.BytesIO(data), Count(kept), name="m.jsonl")
    assert {e.one_line() for e in kept} <= {e.one_line() for e in errors} and (case == "illegal") == (not kept)
    if kept:
        with pytest.raises(GinlogError) as base:
            read(io.BytesIO(data), Count(), name="m.jsonl")
        assert base.value.one_line() == kept[0].one_line()


def test_a_cap_on_the_problems_kept_stops_the_reading() -> None:
    raws = list(RAWS)
    for i in (5, 9, 13, 17):
        raws[i] = b"not json"
    data = join(raws)
    every = read_match(io.BytesIO(data), collect=True).errors
    assert len(every) > 3
    errors: list[GinlogError] = []
    report = read(io.BytesIO(data), FinalState(errors, limit=3))
    assert [e.one_line() for e in report.errors] == [e.one_line() for e in every[:3]]
    assert report.errors == tuple(errors)
    third = every[2].line
    assert third is not None and report.lines < third  # the reading stopped at the third problem


def test_a_file_that_cannot_be_opened_is_kept_by_read_match_and_raised_by_iter_steps(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    report = read_match(missing, collect=True)
    assert report.state is None and [(type(e), e.rule) for e in report.errors] == [(StoreError, "file")]
    assert [e.one_line() for e in read(missing, Chain([])).errors] == [e.one_line() for e in report.errors]
    with pytest.raises(StoreError):
        list(iter_steps(missing, errors=[]))


# ----------------------------------------------------------------------------- the chain alone


@pytest.mark.parametrize("fast", (True, False))
@pytest.mark.parametrize("case", sorted(tampered()))
def test_the_chain_visitor_finds_the_chain_errors_read_match_finds(case: str, fast: bool) -> None:
    data = tampered()[case]
    known = KnownBodies() if fast else None
    if known is not None:
        read_match(io.BytesIO(DATA), known=known)
    report = read_match(io.BytesIO(data), name="m.jsonl", collect=True, known=None)
    chain = read(io.BytesIO(data), Chain([]), name="m.jsonl", known=known)
    assert isinstance(chain, ChainReport)
    ours = [e.one_line() for e in chain.errors]
    assert ours == [e.one_line() for e in report.errors if isinstance(e, StoreError)]
    assert bool(ours) == (case != "illegal")  # the record is intact there: only the rules see that one


def test_the_chain_visitor_reads_what_the_rules_cannot() -> None:
    raws = list(RAWS[:3])
    raws.append(encode(4, TS, "teleported", SCHEMA_VERSION, digest(raws[-1]), {"to": "the moon"}))
    data = join(raws)
    chain = read(io.BytesIO(data), Chain([]))
    assert chain.ok and chain.lines == 4 and chain.head == digest(raws[-1])
    report = read_match(io.BytesIO(data), collect=True)
    assert [e.rule for e in report.errors] == ["unknown-event"] and report.lines == 3


def test_the_chain_visitor_agrees_with_read_match_on_an_intact_file_and_its_anchor() -> None:
    report = read_match(io.BytesIO(DATA))
    chain = read(io.BytesIO(DATA), Chain())
    assert chain.ok and (chain.lines, chain.head) == (report.lines, report.head) == (len(RAWS), digest(RAWS[-1]))
    assert read(io.BytesIO(DATA), Chain([], anchor=digest(RAWS[10]))).ok
    cut = read(io.BytesIO(join(RAWS[:-1])), Chain([], anchor=digest(RAWS[-1])))
    assert [e.rule for e in cut.errors] == ["anchor"]
    assert [e.rule for e in read_match(io.BytesIO(join(RAWS[:-1])), collect=True, anchor=digest(RAWS[-1])).errors] == ["anchor"]


# ----------------------------------------------------------------------------- steps


def test_steps_through_read_give_the_last_step_and_agree_with_the_final_state() -> None:
    last = read(io.BytesIO(DATA), Steps())
    assert isinstance(last, Step) and last.line == len(RAWS)
    report = read_match(io.BytesIO(DATA))
    assert last.state == report.state and last.timeline == report.timeline
    at = read(io.BytesIO(DATA), Steps(), upto=12)
    assert at is not None and at.line == 12 and at.state == read_match(io.BytesIO(DATA), upto=12).state


def test_an_illegal_event_is_skipped_by_both_visitors_alike() -> None:
    data = tampered()["illegal"]
    errors: list[GinlogError] = []
    steps = list(iter_steps(io.BytesIO(data), errors=errors))
    report = read_match(io.BytesIO(data), collect=True)
    assert [e.one_line() for e in errors] == [e.one_line() for e in report.errors]
    assert isinstance(errors[0], IllegalMove) and errors[0].line == 4
    assert len(steps) == len(RAWS) and steps[-1].state == report.state


# ----------------------------------------------------------------------------- the fast path on and off


def outcome(data: bytes, known: KnownBodies | None, upto: int | None) -> tuple[Any, ...]:
    report = read_match(io.BytesIO(data), collect=True, known=known, upto=upto, block=301)
    errors: list[GinlogError] = []
    steps = [(s.line, s.event) for s in iter_steps(io.BytesIO(data), errors=errors, known=known, upto=upto, block=301)]
    chain = read(io.BytesIO(data), Chain([]), known=known, upto=upto, block=301)
    return (
        [e.one_line() for e in report.errors], report.state, report.lines, report.head,
        steps, [e.one_line() for e in errors], chain.lines, chain.head, [e.one_line() for e in chain.errors],
    )


@pytest.mark.parametrize("case", ["intact", *sorted(tampered())])
def test_reading_up_to_any_line_is_the_same_with_and_without_the_fast_path(case: str) -> None:
    data = DATA if case == "intact" else tampered()[case]
    known = KnownBodies()
    read_match(io.BytesIO(DATA), known=known)
    for upto in (*range(1, 30), 60, 61, 62, None):
        assert outcome(data, known, upto) == outcome(data, None, upto), upto


def test_the_fast_path_is_a_parameter_not_a_switch() -> None:
    """Reading with one KnownBodies teaches it; another, or none, is untouched."""
    mine, other = KnownBodies(), KnownBodies()
    read_match(io.BytesIO(DATA), known=mine)
    assert len(mine) > 0 and len(other) == 0
    read_match(io.BytesIO(DATA), known=None)
    assert len(other) == 0
    small = KnownBodies(size=5)
    read_match(io.BytesIO(DATA), known=small)
    assert 0 < len(small) <= 5


# ----------------------------------------------------------------------------- what a reading leaves behind


@pytest.mark.parametrize("case", ["intact", "edited", "illegal"])
def test_a_reading_leaves_no_reference_cycle_behind(case: str) -> None:
    """The visitors' components call them back through a weak reference: once read, a visitor (with its fold
    and its working copy) is freed by reference counting, with the cyclic collector off, and nothing waits for
    it (an audit ran the collector every few files to free them)."""
    data = DATA if case == "intact" else tampered()[case]
    enabled = gc.isenabled()
    gc.disable()
    try:
        for make in (lambda: FinalState(policy=POLICY), lambda: Steps(policy=POLICY), lambda: Chain([])):
            visitor: Visitor[Any, Any] = make()
            gone = weakref.ref(visitor)
            report = read(io.BytesIO(data), visitor)
            del visitor
            assert gone() is None, f"a {type(report).__name__} reading left its visitor in a cycle"
    finally:
        if enabled:
            gc.enable()
