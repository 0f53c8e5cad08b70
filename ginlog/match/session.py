"""The one writer of match files: every line is checked by the reducer before it is written.

A :class:`MatchSession` holds what a writer knows about one match file: the
reducer's timeline after its last line, that line's ``seq`` and its digest
(the head). It checks candidate events against that timeline without writing
(:meth:`MatchSession.check`), appends them only if every one is legal, stating
the ``seq`` it expects to follow so that a concurrent writer gets a
:class:`~ginlog.errors.Conflict` instead of a fork (:meth:`MatchSession.append`),
and reads the file again when told to (:meth:`MatchSession.reload`). It is also
the one place that creates a match file and repairs a torn one, and the one
module that calls the log store's writer, so the rest of ginlog writes through
it and nothing else.

The clock is injectable: a function returning the envelope's ``ts`` text,
called once per write (:func:`ginlog.log.format.now_ts` by default), so a
generator of test data gets byte-stable files without patching anything.

>>> import os, tempfile
>>> from ginlog.game.rules import preset
>>> from ginlog.log.events import FirstDealer
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> ticks = iter(["2026-03-06T19:00:00.000Z", "2026-03-06T19:00:23.000Z"])
>>> s = MatchSession.create(path, ("Ann", "Bob"), preset("standard"), clock=lambda: next(ticks))
>>> s.check([FirstDealer(dealer="Ann", how="agreed")]).state.phase  # checked, nothing written
'ready'
>>> s.seq, s.state.phase
(1, 'setup')
>>> [(step.line, step.state.phase) for step in s.append([FirstDealer(dealer="Ann", how="agreed")])]
[(2, 'ready')]
>>> again = MatchSession.open(path)
>>> again.seq, again.head == s.head, again.state.phase
(2, True, 'ready')
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Sequence

from ginlog.errors import GinlogError, IllegalMove
from ginlog.game.rules import Rules
from ginlog.log import format, writer
from ginlog.log.events import Event, MatchStarted, event_item, event_type
from ginlog.match.reading import Step, read_match
from ginlog.play.reducer import apply, start
from ginlog.play.state import MatchState, Timeline
from ginlog.text import check_players

__all__ = ["MatchSession", "Item", "Clock"]

#: A candidate for appending: an event, or a function of the timeline so far that
#: returns events (how typed entries become events: ``discard 7h`` needs to know
#: whose turn it is after the entries before it).
Item = Event | Callable[[Timeline], Sequence[Event]]

#: Where a write's ``ts`` comes from: the envelope's time text, e.g. ``'2026-11-29T19:56:25.123Z'``.
Clock = Callable[[], str]

_Planned = list[tuple[Event, Timeline]]


class MatchSession:
    """A writer's view of one match file: its timeline, last ``seq`` and head, and the clock.

    Made by :meth:`create`, :meth:`write` or :meth:`open`, not directly. After
    a :class:`~ginlog.errors.Conflict` the session still describes the file
    as it was; :meth:`reload` reads it again (a conflict is the caller's to
    report, as the recorder does, so it propagates).

    A handle on a file rather than a value, so a plain class: with attrs it
    would cost every ``ginlog play`` half a millisecond more to start.
    """

    __slots__ = ("_path", "_timeline", "_seq", "_head", "_clock")

    def __init__(
        self, path: str | os.PathLike[str], timeline: Timeline, seq: int, head: str | None, clock: Clock
    ) -> None:
        self._path = path
        self._timeline = timeline
        self._seq = seq
        self._head = head
        self._clock = clock

    def __repr__(self) -> str:
        return f"MatchSession({self.path!r}, seq={self._seq})"

    # ------------------------------------------------------------------ making one

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        players: tuple[str, str],
        rules: Rules,
        *,
        title: str | None = None,
        clock: Clock | None = None,
        match_id: str | None = None,
    ) -> MatchSession:
        """Create a match file with its ``match_started`` line (refusing an existing path, rule ``exists``).

        The match gets a random ``match_id`` (128 bits) unless one is given (the
        sample generator's, to stay byte-stable): what tells this match from
        another begun by the same players at the same millisecond, and what the
        standings count it once by, whatever its copies are called.

        The names go through :func:`ginlog.text.check_players` first: kept
        cleaned (NFC, trimmed), refused if invisible, blank or too long (rule
        ``name``) or if the two could be taken for each other (``name-clash``).
        """
        a, b = check_players(players)
        if match_id is None:
            match_id = secrets.token_hex(16)
        return cls.write(path, [MatchStarted(players=(a, b), rules=rules, title=title, match_id=match_id)], clock=clock)

    @classmethod
    def write(
        cls, path: str | os.PathLike[str], events: Sequence[Event], *, clock: Clock | None = None
    ) -> MatchSession:
        """Create a match file holding ``events``, the first a ``match_started``.

        Every event is checked before the file is made, so an illegal one
        leaves no file behind. The first line is written alone (the store's
        ``create``: the file appears whole or not at all), the rest in one
        append. An importer writes a whole match this way.
        """
        label = os.fsdecode(path)
        if not events:
            raise IllegalMove("a match file begins with match_started", rule="first-event", path=label)
        first, rest = events[0], events[1:]
        if not isinstance(first, MatchStarted):
            raise IllegalMove(
                f"a match file begins with match_started, not {event_type(first)}",
                rule="first-event",
                path=label,
                line=1,
                seq=1,
            )
        tick = clock if clock is not None else format.now_ts
        timeline = start(first, 1)
        planned = _plan(label, timeline, 1, rest)
        line = writer.create(path, *event_item(first), ts=tick())
        session = cls(path, timeline, 1, line.digest, tick)
        if planned:
            session._write(planned)
        return session

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, clock: Clock | None = None) -> MatchSession:
        """Read a match file (raising its first problem) and hold its end for appending."""
        timeline, seq, head = _read(path)
        return cls(path, timeline, seq, head, clock if clock is not None else format.now_ts)

    # ------------------------------------------------------------------ what it knows

    @property
    def path(self) -> str:
        """The file's name as errors give it."""
        return os.fsdecode(self._path)

    @property
    def timeline(self) -> Timeline:
        """The reducer's timeline after the last line (what corrections go back through)."""
        return self._timeline

    @property
    def state(self) -> MatchState:
        """The match state after the last line."""
        return self._timeline.state

    @property
    def seq(self) -> int:
        """The ``seq`` of the file's last line (the next append expects to follow it)."""
        return self._seq

    @property
    def head(self) -> str | None:
        """The digest of the last line: the head hash a user keeps."""
        return self._head

    # ------------------------------------------------------------------ writing

    def check(self, items: Iterable[Item]) -> Timeline:
        """The timeline after ``items``, each checked in turn; raise the first illegal one. Nothing is written."""
        planned = _plan(self.path, self._timeline, self._seq, items)
        return planned[-1][1] if planned else self._timeline

    def append(self, items: Iterable[Item]) -> tuple[Step, ...]:
        """Check ``items`` and append them all, or nothing; return one :class:`Step` per line written.

        The write expects to follow :attr:`seq`: if another writer got there
        first the store refuses with :class:`~ginlog.errors.Conflict`, nothing
        is written and the session is left as it was (see :meth:`reload`). A
        torn last line refuses with :class:`~ginlog.errors.TornTail` until
        :meth:`repair`. The clock is read once, whatever the number of lines.
        """
        return self._write(_plan(self.path, self._timeline, self._seq, items))

    def reload(self) -> None:
        """Read the file again (after a :class:`~ginlog.errors.Conflict`, say); raise its first problem."""
        self._timeline, self._seq, self._head = _read(self._path)

    @staticmethod
    def repair(path: str | os.PathLike[str]) -> writer.RepairReport:
        """Move a torn last line to a side file next to the match; ``side_file`` is None if nothing was torn.

        A static method because a torn file cannot be opened: reading it stops at the torn line.
        """
        return writer.repair(path)

    def _write(self, planned: _Planned) -> tuple[Step, ...]:
        lines = writer.append_many(self._path, [event_item(e) for e, _ in planned], expect=self._seq, ts=self._clock())
        steps = tuple(
            Step(line.lineno, line.lineno, event, timeline, line.digest)
            for line, (event, timeline) in zip(lines, planned)
        )
        if steps:
            last = steps[-1]
            self._timeline, self._seq, self._head = last.timeline, last.seq, last.digest
        return steps


def _plan(label: str, timeline: Timeline, seq: int, items: Iterable[Item]) -> _Planned:
    """Each item's events and the timeline after each, numbered from ``seq + 1``; raise the first illegal one."""
    planned: _Planned = []
    for item in items:
        try:
            batch = item(timeline) if callable(item) else (item,)
        except GinlogError as exc:
            raise exc.at(path=label) from None
        for event in batch:
            seq += 1
            try:
                timeline = apply(timeline, event, seq)
            except GinlogError as exc:
                raise exc.at(path=label, line=seq, seq=seq) from None
            planned.append((event, timeline))
    return planned


def _read(path: str | os.PathLike[str]) -> tuple[Timeline, int, str | None]:
    report = read_match(path)
    timeline = report.timeline
    assert timeline is not None  # read_match raises rather than return a file without a first line
    return timeline, report.lines, report.head
