"""Match files: read one into states (collecting every problem); writing is :mod:`ginlog.match.session`'s.

This is the seam between the log store (bytes, lines, the hash chain) and the
pure core (events, the reducer). Reading drives the reducer line by line and,
like python-chess's PGN reader, can *collect* problems instead of dying on the
first: a malformed line, a broken link or an illegal move is recorded with its
file, line and event number, the bad event is skipped, and reading goes on.

>>> import tempfile, os
>>> from ginlog.game.rules import preset
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> from ginlog.match.session import MatchSession
>>> from ginlog.log.events import FirstDealer
>>> _ = MatchSession.create(path, ("Ann", "Bob"), preset("standard")).append([FirstDealer(dealer="Ann", how="agreed")])
>>> report = read_match(path)
>>> report.ok, report.state.phase, report.lines
(True, 'ready', 2)
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from typing import BinaryIO, Final

import attrs

from ginlog.log import store
from ginlog.errors import EventError, GinlogError, IllegalMove, IntegrityError
from ginlog.log.events import (
    Correction,
    Event,
    MatchStarted,
    event_from_body,
    event_from_line,
    event_type,
)
from ginlog.play.reducer import Fold, Rewind, apply, start
from ginlog.play.state import MatchState, Timeline

__all__ = ["Step", "MatchReport", "iter_steps", "read_match"]

Source = str | os.PathLike[str] | BinaryIO


@attrs.frozen
class Step:
    """One line of a match file, its event, and the state after it."""

    line: int
    seq: int
    event: Event
    timeline: Timeline
    digest: str

    @property
    def state(self) -> MatchState:
        return self.timeline.state


@attrs.frozen
class MatchReport:
    """Everything a reader learned from a match file."""

    path: str
    state: MatchState | None  # after the last event that could be applied; None without a first line
    errors: tuple[GinlogError, ...]
    lines: int  # lines read (the last seq seen)
    head: str | None  # digest of the last line (the head hash to keep)
    rewind: Rewind | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def timeline(self) -> Timeline | None:
        """The reducer's timeline at the end, which corrections appended later go back through.

        Rebuilt on each access from the last few dozen events (a millisecond
        or so), so a reader that only wants the state never pays for it.
        """
        return self.rewind.timeline() if self.rewind is not None else None


def _label(source: Source, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(source, (str, os.PathLike)):
        return os.fsdecode(source)
    return "<stdin>"


def iter_steps(
    source: Source,
    *,
    errors: list[GinlogError] | None = None,
    name: str | None = None,
    upto: int | None = None,
) -> Iterator[Step]:
    """Stream the steps of a match: (line, event, state after it).

    With ``errors=None`` the first problem is raised, with its place. With a
    list, problems are appended and reading goes on where that makes sense:
    a line that cannot be read or an illegal event is skipped (the state stays
    as it was), so one bad line does not hide the rest. ``upto`` stops after
    that many lines (replay to event N).
    """
    tl: Timeline | None = None
    collect = errors is not None
    label = _label(source, name)
    for lineno, _raw, seq, data, digest, body in store.read_bodies(source, _KNOWN, errors=errors, name=label, decode=_decode):
        if upto is not None and lineno > upto:
            return
        if seq is None:
            continue  # the store has already reported the missing or bad seq
        try:
            event = _event(data, body)
            if tl is None:
                tl = start(_first(event), seq)
            else:
                tl = apply(tl, event, seq)
        except GinlogError as exc:
            err = exc.at(path=label, line=lineno, seq=seq)
            if not collect:
                raise err from None
            assert errors is not None
            errors.append(err)
            if tl is None:
                return  # without the first line there is nothing to check the rest against
            continue
        yield Step(lineno, seq, event, tl, digest)


def _first(event: Event) -> MatchStarted:
    if not isinstance(event, MatchStarted):
        raise IllegalMove(f"a match file begins with match_started, not {event_type(event)}", rule="first-event")
    return event


#: How many line bodies (``Ann`` draws from the stock...) :data:`_KNOWN` holds at most.
KNOWN_SIZE: Final = 4096
#: Line bodies already structured, and their events (see :func:`ginlog.log.store.read_bodies`).
#: Events are values and depend on nothing but the body, so any file may reuse them.
_KNOWN: dict[store.BodyKey, Event] = {}


#: Reads the body of a line whose body is not known straight off its bytes (see
#: :func:`ginlog.log.events.event_from_body`); tests switch it off to compare.
_decode: Callable[[store.BodyKey], Event | None] | None = event_from_body


def _remember(key: store.BodyKey, event: Event) -> None:
    if len(_KNOWN) >= KNOWN_SIZE:
        _KNOWN.clear()
    _KNOWN[key] = event


def _event(data: dict[str, object] | None, body: object) -> Event:
    """The event of a row of :func:`ginlog.log.store.read_bodies` (remembering a new body's)."""
    if data is None:
        return body  # type: ignore[return-value]
    event = event_from_line(data)
    if body is not None:
        _remember(body, event)  # type: ignore[arg-type]
    return event


def read_match(
    source: Source,
    *,
    collect: bool = False,
    name: str | None = None,
    upto: int | None = None,
    anchor: str | None = None,
) -> MatchReport:
    """Read a whole match file into its final state.

    ``collect=True`` gathers every problem into the report instead of raising.
    ``anchor`` is a head hash the user kept: the file must still end there
    (or continue from it), which catches lines cut off the end.

    CPython's cyclic garbage collector is paused while the file is read: a
    replay makes many small objects that form no cycles (reference counting
    frees them) and some that live long (the score sheet), and the collector
    kept rescanning those, about a sixth of a long replay's time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_match(source, collect, _label(source, name), upto, anchor)
    finally:
        if enabled:
            gc.enable()


def _read_match(source: Source, collect: bool, label: str, upto: int | None, anchor: str | None) -> MatchReport:
    """:func:`read_match`'s loop."""
    errors: list[GinlogError] = []
    collect_into = errors if collect else None
    fold: Fold | None = None
    lines = 0
    head: str | None = None
    seen_anchor = anchor is None
    try:
        for item in store.read_runs(source, _KNOWN, errors=collect_into, name=label, decode=_decode):
            if type(item) is store.KnownRun and fold is not None:
                lineno, seq, events, digests, _raws = item
                if upto is not None:
                    if lineno > upto:
                        break
                    events = events[: upto + 1 - lineno]
                done = 0
                while done < len(events):
                    k, exc = fold.apply_run(events, seq, done)
                    if k > done:
                        lines, head = lineno + k - 1, digests[k - 1]
                        seen_anchor = seen_anchor or anchor in digests[done:k]
                    if exc is None:
                        break
                    err = exc.at(path=label, line=lineno + k, seq=seq + k)
                    if not collect:
                        raise err from None
                    errors.append(err)
                    done = k + 1
                continue
            for lineno, _raw, seq, data, digest, body in store.rows(item):
                if upto is not None and lineno > upto:
                    break
                if seq is None:
                    continue  # the store has already reported the missing or bad seq
                try:
                    event = _event(data, body)
                    if fold is None:
                        fold = Fold(_first(event), seq)
                    else:
                        fold.apply(event, seq)
                except GinlogError as exc:
                    err = exc.at(path=label, line=lineno, seq=seq)
                    if not collect:
                        raise err from None
                    errors.append(err)
                    if fold is None:
                        break  # without the first line there is nothing to check the rest against
                    continue
                lines = lineno
                head = digest
                if not seen_anchor and digest == anchor:
                    seen_anchor = True
            else:
                continue  # every row read: on to the next item
            break  # past upto, or no first line to check the rest against
    except GinlogError as exc:
        if not collect:
            raise
        errors.append(exc if exc.path else exc.at(path=label))
    if not seen_anchor:
        err = IntegrityError(
            f"the file does not contain the kept head {anchor[:12]}...: lines were removed or changed",
            rule="anchor",
            path=label,
        )
        if not collect:
            raise err
        errors.append(err)
    if fold is None and not errors:
        err = EventError("the file is empty: a match file begins with match_started", rule="first-event", path=label)
        if not collect:
            raise err
        errors.append(err)
    if fold is None:
        return MatchReport(label, None, tuple(errors), lines, head)
    return MatchReport(label, fold.state, tuple(errors), lines, head, fold.rewind())
