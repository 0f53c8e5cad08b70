"""The times of a match: when it began and ended, and when each of its hands began and ended.

The reducer is pure and knows no clock (the same events always give the same
state), so times are not in the state: they are in the record, each line's
``ts``, which the reading driver hands to a visitor whose ``raw_lines`` is
set (:meth:`ginlog.match.visitors.Visitor.raw`: the bytes of the lines whose
events come next). :class:`Dated` is the
:class:`~ginlog.match.visitors.FinalState` reading plus those times, as a
:class:`DatedReport`; :class:`DatedSteps` is the same for the
:class:`~ginlog.match.visitors.Steps` reading (the site's pages);
:func:`read_dated` is :func:`~ginlog.match.reading.read_match` with them: the one
function that reads a match with its times (``score``, ``stats``, ``export``
read through it, with the app's :data:`~ginlog.match.policy.POLICY`).

A match's ``start`` is its first line's time, its ``end`` the last line's
read (in a valid file, the last applied). A hand has two times, and the
commands differ on which is *the* hand's date; each keeps its meaning:

- its **begin** (:attr:`DatedReport.hand_begins`: ``stats``, ``export``'s
  ``date`` column): its first line, ``hand_dealt`` or, for a hand kept on a
  score pad, ``hand_result``. Found by the event's type alone (a correction
  that undoes one takes it back), so the fold is asked nothing; hand ``i`` of
  the score sheet is start ``i``, because every start but the last ends in a
  finished hand. Exact for a valid file (an illegal deal would still count);
  the statistics and the export use valid files only.
- its **end** (:attr:`DatedReport.hand_ends`: ``ginlog score``'s date
  column): the line after which the score sheet grew to hold it (a
  correction that takes the hand back takes its end back). A fast-path run
  is applied in segments cut at each start and correction, the few lines
  the begins look at anyway; a segment holds one hand's last lines, which in
  a valid file end on the line that finished it, followed only by notes (or
  the match's abandonment), so that line is found without applying events
  one by one. In a file that breaks the rules it is the segment's last line
  that could have finished a hand (the score sheet reads valid files only).

>>> import io
>>> from ginlog.game.rules import preset
>>> from ginlog.log.events import SCHEMA_VERSION, event_fields, event_type
>>> from ginlog.log.format import digest, encode
>>> from ginlog.play.simulate import simulate_match
>>> lines, prev = [], None
>>> for seq, ev in enumerate(simulate_match(preset("standard"), seed=1, max_hands=2), start=1):
...     ts = "2026-11-29T19:%02d:%02d.000Z" % divmod(seq, 60)
...     raw = encode(seq, ts, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
...     lines.append(raw + b"\\n")
...     prev = digest(raw)
>>> r = read_dated(io.BytesIO(b"".join(lines)))
>>> r.start, len(r.hand_begins) == len(r.hand_ends) == len(r.report.state.hands) == 2
('2026-11-29T19:00:01.000Z', True)
>>> r.end == r.hand_ends[-1] == "2026-11-29T19:%02d:%02d.000Z" % divmod(len(lines), 60)
True
>>> all(b < e for b, e in zip(r.hand_begins, r.hand_ends))
True
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Final, Never

import attrs

from ginlog.caveats import Caveat
from ginlog.errors import GinlogError
from ginlog.log.events import BEGINS_HAND, MAY_FOLLOW_END, TAKES_BACK, Correction, Event, MatchStarted
from ginlog.log.known import KnownBodies
from ginlog.log.reader import BLOCK, Source
from ginlog.match.policy import Policy
from ginlog.match.reading import SHARED, read
from ginlog.match.seals import Seals
from ginlog.match.visitors import FinalState, MatchReport, Step, Steps, Visitor

__all__ = ["ts_of", "DatedReport", "Dated", "DatedSteps", "read_dated"]

_TS: Final = b'"ts":"'
#: The events that begin a hand, or may take one back: where a run is cut (from the registry's traits).
_STARTS: Final = BEGINS_HAND | TAKES_BACK
#: The events that never finish a hand (nor begin one): what may follow the line that finished it.
_AFTER_END: Final = MAY_FOLLOW_END


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
    """A :class:`~ginlog.match.visitors.MatchReport` with its times (``ts`` strings, UTC) and the first line's digest.

    ``hand_begins[i]`` and ``hand_ends[i]`` are hand ``i + 1`` of the score
    sheet's (None when not known); see the module's docstring for which
    command uses which.
    """

    report: MatchReport
    start: str | None  # the first line's time
    end: str | None  # the last line's time (in a valid file, the last applied)
    first_digest: str | None  # the SHA-256 of the first line
    hand_begins: tuple[str | None, ...] = ()  # when each hand of the score sheet began, in order
    hand_ends: tuple[str | None, ...] = ()  # when each ended (the line that finished it); () if not asked for
    match_id: str | None = None  # match_started's, if it has one

    @property
    def ok(self) -> bool:
        return self.report.ok

    @property
    def identity(self) -> str | None:
        """Which match this is, whatever file holds it: its ``match_id`` (32 hex digits), or for a file written
        before there were ids its first line's SHA-256 (16 hex digits). What standings count a match once by.

        >>> DatedReport(None, None, None, "ab" * 32).identity, DatedReport(None, None, None, "ab" * 32, match_id="c" * 32).identity
        ('abababababababab', 'cccccccccccccccccccccccccccccccc')
        """
        if self.match_id is not None:
            return self.match_id
        return None if self.first_digest is None else self.first_digest[:16]


class _Times:
    """What both dated visitors keep: the block of raw lines at hand, and the times found in it."""

    __slots__ = ("raws", "at", "start", "first_digest", "match_id", "starts", "ends", "last_raw")

    def __init__(self) -> None:
        self.raws: Sequence[bytes] = ()
        self.at = 1  # the line number of raws[0]
        self.start: str | None = None
        self.first_digest: str | None = None
        self.match_id: str | None = None
        self.starts: list[tuple[int, str | None]] = []  # (seq, ts) of each hand's first line, corrections taken back
        self.ends: list[str | None] = []  # ends[i]: the ts of the line that finished hand i + 1 of the sheet
        self.last_raw: bytes | None = None  # the last line handed over (in a valid file, the last applied)

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.raws, self.at = raws, lineno
        if raws:
            self.last_raw = raws[-1]
            if lineno == 1:
                self.start = ts_of(raws[0])

    def first(self, digest: str, event: Event) -> None:
        """The first line: its digest, and the match's id if it has one."""
        self.first_digest = digest
        if isinstance(event, MatchStarted):
            self.match_id = event.match_id

    def ts(self, lineno: int) -> str | None:
        """The time of line ``lineno``, if it is among the raw lines at hand."""
        i = lineno - self.at
        raws = self.raws
        return ts_of(raws[i]) if 0 <= i < len(raws) else None

    def began(self, seq: int, event: Event, lineno: int) -> None:
        """One event: a hand's start, or a correction that takes one back (anything else: nothing)."""
        if isinstance(event, Correction):
            starts = self.starts
            if starts and starts[-1][0] == event.undoes:
                starts.pop()
        elif type(event) in BEGINS_HAND:
            self.starts.append((seq, self.ts(lineno)))

    def sheet(self, hands: int, lineno: int) -> None:
        """The score sheet holds ``hands`` hands after line ``lineno``: ends taken back, or that line's time added."""
        ends = self.ends
        if hands < len(ends):
            del ends[hands:]  # a correction took hands back
        elif hands > len(ends):
            ends.extend([self.ts(lineno)] * (hands - len(ends)))

    @property
    def end(self) -> str | None:
        return None if self.last_raw is None else ts_of(self.last_raw)

    def dated(self, report: MatchReport, ends: bool = True) -> DatedReport:
        hands = 0 if report.state is None else len(report.state.hands)
        begins = tuple(ts for _seq, ts in self.starts[:hands])
        begins += (None,) * (hands - len(begins))
        ended = tuple(self.ends[:hands]) + (None,) * (hands - len(self.ends)) if ends else ()
        return DatedReport(report, self.start, self.end, self.first_digest, begins, ended, self.match_id)


class Dated(Visitor[Never, DatedReport]):
    """The :class:`~ginlog.match.visitors.FinalState` reading that also keeps the times, as a :class:`DatedReport`.

    A :class:`FinalState` does the reading (the same errors, the same
    policy, the same fold). The cost on top: one look at each run's event
    types (in C: ``map(type, ...)``) and a slice of the bytes of each hand's
    first line. With ``ends`` (the score sheet), also each hand's end: the
    run is then applied in as many segments as it holds hands (about 5% of
    a long replay), so a reading that needs no end (stats, export) leaves
    them out and ``hand_ends`` is empty.
    """

    raw_lines = True

    def __init__(
        self,
        errors: list[GinlogError] | None = None,
        *,
        limit: int | None = None,
        keep: int | None = None,
        warnings: list[Caveat] | None = None,
        anchor: str | None = None,
        ends: bool = True,
        policy: Policy | None = None,
    ) -> None:
        super().__init__(errors, limit=limit, keep=keep, warnings=warnings, policy=policy)
        # the inner reading shares the lists, and finds the warnings (its Unverified): this one only passes them on
        self.inner = FinalState(self.errors, limit=limit, keep=self.keep, warnings=self.warnings, anchor=anchor)
        self.inner.seals = Seals(self.inner.error, self.inner.warning, self.seals.keyring, self.seals.require)
        self.unverified = None
        self.times = _Times()
        self.ends = ends

    def begin(self, label: str) -> None:
        super().begin(label)
        self.inner.begin(label)

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.times.raw(lineno, raws)

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        times = self.times
        if lineno == 1:
            times.first(digest, event)
        times.began(seq, event, lineno)
        inner = self.inner
        inner.event(lineno, seq, event, digest)
        fold = inner.fold
        if fold is not None and self.ends:
            times.sheet(fold.hands, lineno)

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[Never]:
        times = self.times
        if lineno == 1:
            times.first(digests[0], events[0])
        starts = itertools.compress(range(len(events)), map(_STARTS.__contains__, map(type, events)))
        if not self.ends:
            for m in starts:
                times.began(seq + m, events[m], lineno + m)
            return self.inner.run(lineno, seq, events, digests)
        a = 0
        for m in starts:
            if m > a:
                self._segment(lineno, seq, events, digests, a, m)
            ev = events[m]
            times.began(seq + m, ev, lineno + m)
            a = m
            if type(ev) in TAKES_BACK:  # alone: it may take a hand (and its end) back
                self._segment(lineno, seq, events, digests, m, m + 1)
                a = m + 1
        if a < len(events):
            self._segment(lineno, seq, events, digests, a, len(events))
        return ()

    def _segment(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str], a: int, b: int) -> None:
        """Apply ``events[a:b]`` (no start or correction after ``a``); a hand it finished ended on its last line that could."""
        e = b - 1
        while e > a and type(events[e]) in _AFTER_END:
            e -= 1
        inner = self.inner
        inner.run(lineno + a, seq + a, events[a:b], digests[a:b])
        fold = inner.fold
        if fold is not None:
            self.times.sheet(fold.hands, lineno + e)

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        self.inner.unreadable(lineno, seq, err)

    def error(self, err: GinlogError) -> None:
        self.inner.error(err)

    def warning(self, caveat: Caveat) -> None:
        self.inner.warning(caveat)

    def end(self) -> DatedReport:
        return self.times.dated(self.inner.end(), self.ends)


class DatedSteps(Steps):
    """:class:`~ginlog.match.visitors.Steps` that also keeps the times: :meth:`dated` once the steps are read."""

    raw_lines = True

    def __init__(
        self,
        errors: list[GinlogError] | None = None,
        *,
        limit: int | None = None,
        keep: int | None = None,
        warnings: list[Caveat] | None = None,
        policy: Policy | None = None,
    ) -> None:
        super().__init__(errors, limit=limit, keep=keep, warnings=warnings, policy=policy)
        self.times = _Times()

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        self.times.raw(lineno, raws)

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> Step | None:
        times = self.times
        times.began(seq, event, lineno)
        step = super().event(lineno, seq, event, digest)
        if step is not None:
            if times.first_digest is None:
                times.first(step.digest, event)  # the first step's line: the match's identity
            times.sheet(len(step.state.hands), lineno)
        return step

    def dated(self, report: MatchReport) -> DatedReport:
        """``report`` (made of the steps) with the times read along with them."""
        return self.times.dated(report)


def read_dated(
    source: Source,
    policy: Policy | None = None,
    *,
    ends: bool = True,
    name: str | None = None,
    upto: int | None = None,
    anchor: str | None = None,
    known: KnownBodies | None = SHARED,
    block: int = BLOCK,
) -> DatedReport:
    """:func:`~ginlog.match.reading.read_match` with the times: read under ``policy`` (None: the first problem
    raised), every hand's begin, and its end unless ``ends`` is False (``stats`` and ``export`` need none).

    ``hand_ends`` line up with ``report.state.hands``: pass them to
    :func:`ginlog.app.views.match_json.score_json`. A file that cannot be opened
    raises, whatever the policy (there is nothing to give a verdict on).
    """
    visitor = Dated(anchor=anchor, ends=ends, policy=policy)
    return read(source, visitor, known=known, name=name, upto=upto, block=block)
