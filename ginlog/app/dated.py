"""Readings that also keep the times: when a match began and ended, and when each hand began.

The reducer is pure and knows no time; a line's time is in its envelope
(``ts``), which the reading pipeline hands to a visitor whose ``raw_lines`` is
set (:meth:`ginlog.match.visitors.Visitor.raw`). :class:`Dated` is the
:class:`~ginlog.match.visitors.FinalState` reading plus those times, as a
:class:`DatedReport`; :class:`DatedSteps` is the same for the
:class:`~ginlog.match.visitors.Steps` reading (the site's pages).

A hand's date is when it began: its ``hand_dealt`` line, or for a hand kept
on a score pad its ``hand_result`` line. Those are found by the event's type
alone (a correction that undoes one takes it back), so the fast path's runs
are not split and the fold is asked nothing; hand ``i`` of the score sheet
is start ``i``, because every start but the last ends in a finished hand.
Times are exact only for a valid file (an illegal deal would still be
counted); the statistics and the export use valid files only.

>>> import io
>>> from ginlog.game.rules import preset
>>> from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
>>> from ginlog.log.format import digest, encode
>>> from ginlog.match.reading import read
>>> from ginlog.play.simulate import simulate_match
>>> lines, prev = [], None
>>> for seq, ev in enumerate(simulate_match(preset("standard"), seed=1, max_hands=2), start=1):
...     ts = "2026-11-29T19:%02d:%02d.000Z" % divmod(seq, 60)
...     raw = encode(seq, ts, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
...     lines.append(raw + b"\\n")
...     prev = digest(raw)
>>> r = read(io.BytesIO(b"".join(lines)), Dated([]))
>>> r.start, r.hand_dates == tuple(s for s in r.hand_dates if s), len(r.hand_dates) == len(r.report.state.hands)
('2026-11-29T19:00:01.000Z', True, True)
>>> r.end == "2026-11-29T19:%02d:%02d.000Z" % divmod(r.report.lines, 60)
True
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Final, Never

import attrs

from ginlog.errors import GinlogError
from ginlog.log.events import Correction, Event, HandDealt, HandResultOnly
from ginlog.match.visitors import FinalState, MatchReport, Steps, Visitor

__all__ = ["ts_of", "DatedReport", "Dated", "DatedSteps"]

_TS: Final = b'"ts":"'
_STARTS: Final = frozenset((HandDealt, HandResultOnly, Correction))


def ts_of(raw: bytes) -> str | None:
    """The ``ts`` of a line's bytes: read in place for a line as ginlog writes it, else parsed; None if it has none.

    >>> ts_of(b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"hi"}')
    '2026-11-29T19:56:25.123Z'
    >>> ts_of(b'{"seq": 1, "type": "note", "ts": "2026-11-29T19:56:25.123Z"}'), ts_of(b'{"seq": 1}')
    ('2026-11-29T19:56:25.123Z', None)
    """
    i = raw.find(_TS, 0, 40)
    if i >= 0 and raw[i + 30 : i + 31] == b'"':
        return raw[i + 6 : i + 30].decode("ascii", "replace")
    try:
        ts = json.loads(raw).get("ts")
    except (ValueError, AttributeError):
        return None
    return ts if isinstance(ts, str) else None


@attrs.frozen
class DatedReport:
    """A :class:`~ginlog.match.visitors.MatchReport` with its times (``ts`` strings, UTC) and the first line's digest."""

    report: MatchReport
    start: str | None  # the first line's time
    end: str | None  # the last applied line's time
    hand_dates: tuple[str | None, ...]  # when each hand of the score sheet began, in order
    first_digest: str | None  # the SHA-256 of the first line: the match's identity

    @property
    def ok(self) -> bool:
        return self.report.ok


class _Times:
    """What both dated visitors keep: the block of raw lines at hand, and the times found in it."""

    def __init__(self) -> None:
        self.raws: Sequence[bytes] = ()
        self.at = 1  # the line number of raws[0]
        self.start: str | None = None
        self.first_digest: str | None = None
        self.starts: list[tuple[int, str | None]] = []  # (seq, ts) of each hand's first line, corrections taken back
        self.last_raw: bytes | None = None  # the last line handed over (in a valid file, the last applied)

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.raws, self.at = raws, lineno
        if raws:
            self.last_raw = raws[-1]
            if lineno == 1:
                self.start = ts_of(raws[0])

    def seen(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        """One event: a hand's start, or a correction that takes one back."""
        if lineno == 1:
            self.first_digest = digest
        if isinstance(event, Correction):
            starts = self.starts
            if starts and starts[-1][0] == event.undoes:
                starts.pop()
        elif isinstance(event, (HandDealt, HandResultOnly)):
            i = lineno - self.at
            raws = self.raws
            self.starts.append((seq, ts_of(raws[i]) if 0 <= i < len(raws) else None))

    def seen_run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> None:
        """A run's events: only the few that start a hand (or correct) are looked at."""
        if lineno == 1:
            self.first_digest = digests[0]
        for i in itertools.compress(range(len(events)), map(_STARTS.__contains__, map(type, events))):
            self.seen(lineno + i, seq + i, events[i], digests[i])

    @property
    def end(self) -> str | None:
        return None if self.last_raw is None else ts_of(self.last_raw)

    def dated(self, report: MatchReport) -> DatedReport:
        hands = 0 if report.state is None else len(report.state.hands)
        dates = tuple(ts for _seq, ts in self.starts[:hands])
        return DatedReport(report, self.start, self.end, dates + (None,) * (hands - len(dates)), self.first_digest)


class Dated(Visitor[Never, DatedReport]):
    """The :class:`~ginlog.match.visitors.FinalState` reading that also keeps the times, as a :class:`DatedReport`.

    A :class:`FinalState` does the reading (same errors, same policy); the
    cost on top: one look at each run's event types (in C: ``map(type,
    ...)``) and a slice of the bytes of each hand's first line.
    """

    raw_lines = True

    def __init__(
        self, errors: list[GinlogError] | None = None, *, limit: int | None = None, anchor: str | None = None
    ) -> None:
        super().__init__(errors, limit=limit)
        self.inner = FinalState(errors, limit=limit, anchor=anchor)
        self.times = _Times()

    def begin(self, label: str) -> None:
        super().begin(label)
        self.inner.begin(label)

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.times.raw(lineno, raws)

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        self.times.seen(lineno, seq, event, digest)
        self.inner.event(lineno, seq, event, digest)

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[Never]:
        self.times.seen_run(lineno, seq, events, digests)
        return self.inner.run(lineno, seq, events, digests)

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        self.inner.unreadable(lineno, seq, err)

    def error(self, err: GinlogError) -> None:
        self.inner.error(err)

    def end(self) -> DatedReport:
        return self.times.dated(self.inner.end())


class DatedSteps(Steps):
    """:class:`~ginlog.match.visitors.Steps` that also keeps the times (:attr:`times`: ``start``, ``end``)."""

    raw_lines = True

    def __init__(self, errors: list[GinlogError] | None = None, *, limit: int | None = None) -> None:
        super().__init__(errors, limit=limit)
        self.times = _Times()

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.times.raw(lineno, raws)
