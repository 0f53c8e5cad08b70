"""The one "dated" module: a match's start and end, each hand's begin and end, against a recount by stepping.

The recount shares nothing with :mod:`ginlog.match.dated` but the reducer's
steps: it parses every line's ``ts`` with :mod:`json`, replays the file
step by step (no fast path), and takes a hand's begin from the line of its
``hand_dealt`` / ``hand_result`` (a correction that undoes it takes it back)
and its end from the line after which the score sheet grew to hold it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
import json
import random

import pytest

from ginlog.game.rules import preset
from ginlog.log.events import Correction, Event, HandDealt, HandResultOnly, MatchAbandoned, Note
from ginlog.log.known import KnownBodies
from ginlog.match.dated import Dated, DatedReport, DatedSteps, read_dated
from ginlog.match.reading import iter_steps, read, walk
from ginlog.match.visitors import MatchReport
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, encode_match, score_pad


def recount(data: bytes) -> tuple[list[str], list[str], str, str]:
    """(begins, ends, start, end) by stepping through the file, every line parsed."""
    ts = [json.loads(line)["ts"] for line in data.splitlines()]
    begins: list[tuple[int, str]] = []
    ends: list[str] = []
    for step in iter_steps(io.BytesIO(data), known=None):
        ev = step.event
        if isinstance(ev, Correction) and begins and begins[-1][0] == ev.undoes:
            begins.pop()
        elif isinstance(ev, (HandDealt, HandResultOnly)):
            begins.append((step.seq, ts[step.line - 1]))
        n = len(step.state.hands)
        del ends[n:]
        while len(ends) < n:
            ends.append(ts[step.line - 1])
    return [t for _s, t in begins[: len(ends)]], ends, ts[0], ts[-1]


def shaken(events: list[Event], seed: int) -> list[Event]:
    """The match with notes here and there, and slips corrected (an event undone and made again), some at a hand's end."""
    rng = random.Random(seed)
    out: list[Event] = []
    for i, e in enumerate(events):
        out.append(e)
        if i == 0:
            continue
        r = rng.random()
        if r < 0.08:
            out.append(Note(text=f"note {i}"))
        elif r < 0.16 or (i + 1 < len(events) and isinstance(events[i + 1], (HandDealt, HandResultOnly)) and r < 0.5):
            out.append(Correction(undoes=len(out), reason="slip"))
            if rng.random() < 0.3:
                out.append(Note(text="again"))
            out.append(e)
        if rng.random() < 0.05:
            out.append(Note(text="after"))
    return out


CASES: dict[str, Callable[[int], list[Event]]] = {
    "standard": lambda s: simulate_match(preset("standard"), seed=s, max_hands=6),
    "hollywood": lambda s: simulate_match(preset("hollywood"), seed=s, max_hands=6),
    "openspiel": lambda s: simulate_match(preset("openspiel"), seed=s, max_hands=4),
    "pad": lambda s: score_pad(s, ("Ann", "Bob"), 10),
    "shaken": lambda s: shaken(simulate_match(preset("standard"), seed=s, max_hands=6), s),
    "shaken-pad": lambda s: shaken(score_pad(s, ("Ann", "Bob"), 10), s),
    "abandoned": lambda s: [*simulate_match(preset("standard"), seed=s, max_hands=2), Note(text="rain"),
                            MatchAbandoned(reason="rain"), Note(text="home")],
}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_times_match_a_recount_on_every_path(case: str, seed: int) -> None:
    data = encode_match(CASES[case](seed), EPOCH)
    begins, ends, start, end = recount(data)
    assert ends  # every case finishes hands
    known = KnownBodies()
    readings = [read_dated(io.BytesIO(data), known=None), read_dated(io.BytesIO(data), known=known)]
    for block in (256, 1024, 1 << 16):  # the fast path's runs cut in different places
        readings.append(read(io.BytesIO(data), Dated([]), known=known, block=block))
    begun = read(io.BytesIO(data), Dated([], ends=False), known=known, block=1024)  # as stats and export read
    assert begun.hand_ends == () and list(begun.hand_begins) == begins and (begun.start, begun.end) == (start, end)
    visitor = DatedSteps([])
    steps = list(walk(io.BytesIO(data), visitor, known=known, block=512))
    last = steps[-1]
    readings.append(visitor.dated(MatchReport("m", last.state, (), last.line, last.digest)))
    for r in readings:
        assert r.ok and r.report.state is not None and len(r.report.state.hands) == len(ends)
        assert list(r.hand_ends) == ends, case
        assert list(r.hand_begins) == begins, case
        assert (r.start, r.end) == (start, end)
        assert r.first_digest == steps[0].digest


def test_a_hand_ends_on_its_last_move_not_on_the_notes_after_it() -> None:
    events = simulate_match(preset("standard"), seed=5, max_hands=2)
    second = [i for i, e in enumerate(events) if isinstance(e, HandDealt)][1]
    events = [*events[:second], Note(text="a"), Note(text="b"), *events[second:], Note(text="c")]
    data = encode_match(events, EPOCH)
    known = KnownBodies()
    read_dated(io.BytesIO(data), known=known)
    r = read_dated(io.BytesIO(data), known=known)  # as runs
    ts = [json.loads(line)["ts"] for line in data.splitlines()]
    assert r.hand_ends[0] == ts[second - 1] and r.hand_ends[1] == ts[-2]
    assert r.hand_begins[1] == ts[second + 2] and r.end == ts[-1]


def test_a_correction_that_takes_a_finished_hand_back_takes_its_end_back() -> None:
    events = simulate_match(preset("standard"), seed=6, max_hands=1)
    last = len(events)  # its line finished the hand
    events = [*events, Correction(undoes=last, reason="not yet"), Note(text="x"), events[-1]]
    data = encode_match(events, EPOCH)
    ts = [json.loads(line)["ts"] for line in data.splitlines()]
    known = KnownBodies()
    read_dated(io.BytesIO(data), known=known)
    for k in (None, known):
        r = read_dated(io.BytesIO(data), known=k)
        assert r.hand_ends == (ts[-1],) and ts[-1] != ts[last - 1]


def test_a_report_without_hands_has_no_hand_times() -> None:
    r = DatedReport(MatchReport("m", None, (), 0, None), None, None, None)
    assert r.hand_begins == r.hand_ends == () and r.ok
