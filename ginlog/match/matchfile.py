"""Match files: start one, or append checked events to one (reading is :mod:`ginlog.match.reading`).

>>> import tempfile, os
>>> from ginlog.game.rules import preset
>>> from ginlog.match.reading import read_match
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> _ = new_match(path, ("Ann", "Bob"), preset("standard"))
>>> from ginlog.log.events import FirstDealer
>>> r = append_event(path, FirstDealer(dealer="Ann", how="agreed"))
>>> report = read_match(path)
>>> report.ok, report.state.phase, report.lines
(True, 'ready', 2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ginlog.errors import GinlogError
from ginlog.game.rules import Rules
from ginlog.log import writer
from ginlog.log.events import SCHEMA_VERSION, Event, MatchStarted, event_fields, event_type
from ginlog.log.format import Line
from ginlog.match.reading import read_match
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline

__all__ = ["new_match", "append_event", "append_events"]


def new_match(
    path: str | os.PathLike[str], players: tuple[str, str], rules: Rules, *, title: str | None = None
) -> Timeline:
    """Create a match file (refusing to overwrite) and return its first timeline."""
    event = MatchStarted(players=players, rules=rules, title=title)
    writer.create(path, "match_started", SCHEMA_VERSION, event_fields(event))
    return start(event, 1)


def append_events(
    path: str | os.PathLike[str],
    events: Iterable[Event | Callable[[Timeline], Sequence[Event]]],
) -> tuple[Timeline, list[Line]]:
    """Check ``events`` in turn against the file's current state; write them only if all are legal.

    An item may also be a function of the timeline so far that returns events
    (how the CLI turns typed entries into events: ``discard 7h`` needs to know
    whose turn it is after the entries before it). The file is read (and
    checked) first; a file with any problem is not appended to. Nothing is
    written unless every event is legal, and the write states the event it
    expects to follow, so a concurrent writer gets a
    :class:`~ginlog.errors.Conflict` instead of a fork.
    """
    label = os.fsdecode(path)
    report = read_match(path)
    tl = report.timeline
    assert tl is not None
    seq = report.lines
    items: list[tuple[str, int, dict[str, Any]]] = []
    for item in events:
        try:
            batch = item(tl) if callable(item) else (item,)
        except GinlogError as exc:
            raise exc.at(path=label) from None
        for event in batch:
            seq += 1
            try:
                tl = apply(tl, event, seq)
            except GinlogError as exc:
                raise exc.at(path=label, line=seq, seq=seq) from None
            items.append((event_type(event), SCHEMA_VERSION, event_fields(event)))
    lines = writer.append_many(path, items, expect=report.lines)
    return tl, lines


def append_event(path: str | os.PathLike[str], event: Event) -> Timeline:
    """Append one event after checking it; return the new timeline."""
    return append_events(path, [event])[0]
