"""Fold a whole log event by event, as :func:`~ginlog.play.reducer.apply` would, without a frozen state per event.

This is the replay's engine (the match-file reader drives it): one working
copy edited in place, frozen snapshots now and then so that corrections can
still go back, and the same states and errors as applying the events one by
one (a property test holds the two together).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from ginlog.errors import GinlogError
from ginlog.log.events import CHANGES_NOTHING, NEVER_UNDONE, Correction, Event, MatchStarted
from ginlog.play.rulebook import RULES
from ginlog.play.state import MatchState, Timeline
from ginlog.play.timeline import UNDO_DEPTH, apply, check_correction, first_state, rule_of
from ginlog.play.working import thaw

__all__ = ["Fold", "Rewind", "SNAPSHOT_EVERY", "REBUILD_SNAPSHOT_EVERY"]

#: How often (in effective events) a :class:`Fold` keeps a frozen snapshot.
SNAPSHOT_EVERY: Final = 128
#: While a correction rebuilds the working copy, a snapshot every this many
#: events replayed (and one where it ends), so that the next correction, a
#: nested undo or the same slip made again, replays at most this many.
REBUILD_SNAPSHOT_EVERY: Final = 16


@attrs.frozen
class Rewind:
    """The end of a folded log, enough to rebuild its exact :class:`Timeline`.

    ``base`` is a state at least as far back as corrections can reach,
    ``events`` the effective ``(seq, event)`` pairs since, and ``depth`` how
    many of them a correction may still undo.
    """

    base: MatchState
    base_seq: int
    events: tuple[tuple[int, Event], ...]
    depth: int

    def timeline(self) -> Timeline:
        """Re-apply :attr:`events` from :attr:`base` (at most a few hundred events)."""
        tl = Timeline(self.base, self.base_seq)
        for seq, ev in self.events:
            tl = apply(tl, ev, seq)
        back = tl.back[len(tl.back) - self.depth:] if self.depth else ()
        return Timeline(tl.state, tl.seq, back)


class Fold:
    """Fold a log event by event, as :func:`apply` would, without a frozen state per event.

    The rules edit one working copy (:mod:`ginlog.play.working`) in place. So
    that a correction can still go back :data:`UNDO_DEPTH` events, the fold
    keeps a frozen snapshot every :data:`SNAPSHOT_EVERY` effective events and
    the effective events since the oldest snapshot it may need; a correction,
    or an illegal event that may have left the copy half-edited, rebuilds the
    copy from the nearest snapshot. Seen from outside it is the same pure
    function of the events as :func:`apply` (a property test holds the two to
    the same states and the same errors).

    >>> from ginlog.log.events import *
    >>> from ginlog.game.rules import preset
    >>> f = Fold(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    >>> f.apply(FirstDealer(dealer="Ann", how="agreed"), 2)
    >>> f.apply(Correction(undoes=2), 3)
    >>> f.state.phase, f.rewind().timeline().seq
    ('setup', 1)
    """

    __slots__ = ("_work", "_n", "_seq", "_depth", "_snaps", "_events", "_seqs", "_next_snapshot", "reopened")

    def __init__(self, first: MatchStarted, seq: int = 1) -> None:
        state = first_state(first)
        self._work = thaw(state)
        self._n = 0  # effective events applied
        self._seq = seq  # the last effective event's seq
        self._depth = 0  # how many of them a correction may undo (Timeline.back's length)
        # (n, seq, state, k) after the n-th effective event, oldest first. The
        # state is frozen without its score sheet (copying that would grow with
        # the match); k is the sheet's length then: the working copy's list of
        # finished hands only grows, so its first k entries are that sheet.
        # _events holds the effective events after the oldest snapshot, _seqs their seqs (two lists, not one of
        # pairs: a run is booked by extending both, with no pair made per event).
        self._snaps: list[tuple[int, int, MatchState, int]] = [(0, seq, state, 0)]
        self._events: list[Event] = []
        self._seqs: list[int] = []
        self._next_snapshot = SNAPSHOT_EVERY  # the n at which to take the next snapshot
        #: The seqs of the corrections applied after the match had ended (or was abandoned): a
        #: result changed afterwards, which a reader warns of (they are rare: a list costs nothing).
        self.reopened: list[int] = []

    @property
    def state(self) -> MatchState:
        return self._work.freeze()

    @property
    def seq(self) -> int:
        return self._seq

    @property
    def hands(self) -> int:
        """How many hands the score sheet holds now (cheap: no frozen state is made)."""
        return len(self._work.hands)

    def apply(self, event: Event, seq: int) -> None:
        """Apply one event; on :class:`IllegalMove` the fold is as it was before it."""
        if type(event) in NEVER_UNDONE:
            return  # nothing undoes a seal: it is no event of the undo history (ginlog.play.timeline.apply)
        handler = RULES.get(type(event))
        if handler is None:  # a correction, a note, or not an event
            if isinstance(event, Correction):
                ended = self._work.finished
                self._correct(event)
                if ended:
                    self.reopened.append(seq)
                return
            if type(event) not in CHANGES_NOTHING:
                rule_of(event)  # raises
        else:
            try:
                handler(self._work, event)
            except BaseException:
                self._recover()
                raise
        self._n = n = self._n + 1
        self._seq = seq
        self._events.append(event)
        self._seqs.append(seq)
        if self._depth < UNDO_DEPTH:
            self._depth += 1
        if n >= self._next_snapshot:
            self._snapshot()

    def apply_run(
        self, events: Sequence[Event], seq: int, start: int = 0
    ) -> tuple[int, GinlogError | None]:
        """Apply ``events[start:]`` in turn, ``events[i]`` being event ``seq + i``; stop at the first illegal one.

        Returns how far it got and that event's error, or ``(len(events), None)``;
        the fold is then as after the events before it. The same as
        :meth:`apply` on each event, with the bookkeeping done once per stretch
        between snapshots instead of once per event: this is the replay's
        inner loop (see :class:`ginlog.log.reader.Run`).
        """
        i, end = start, len(events)
        while i < end:
            stop = min(end, i + max(1, self._next_snapshot - self._n))
            work = self._work
            j = i
            rule = RULES.get
            try:
                for j in range(i, stop):  # (a for over a range: the cheapest loop there is)
                    handler = rule(type(events[j]))
                    if handler is None:
                        break  # a correction, a note or not an event: apply() below
                    handler(work, events[j])
                else:
                    j = stop
            except BaseException as exc:
                self._applied(events, seq, i, j)
                self._recover()
                if isinstance(exc, GinlogError):
                    # (handed back, not raised: without its traceback, whose frames would hold the caller's)
                    return j, exc.with_traceback(None)
                raise
            self._applied(events, seq, i, j)
            if j < stop:
                try:
                    self.apply(events[j], seq + j)
                except GinlogError as exc:
                    return j, exc.with_traceback(None)
                j += 1
            elif self._n >= self._next_snapshot:
                self._snapshot()
            i = j
        return end, None

    def _applied(self, events: Sequence[Event], seq: int, i: int, j: int) -> None:
        """Book ``events[i:j]``, already applied to the working copy, as :meth:`apply` books each."""
        if j > i:
            self._n += j - i
            self._seq = seq + j - 1
            self._events += events[i:j]
            self._seqs += range(seq + i, seq + j)
            self._depth = min(UNDO_DEPTH, self._depth + j - i)

    def _recover(self) -> None:
        """After an event failed half-way: the working copy as before it, from the nearest snapshot."""
        self._rebuild()
        if self._snaps[-1][0] != self._n:
            self._snapshot()  # so that a run of bad lines rebuilds from here, not from far back

    def _snapshot(self) -> None:
        snaps = self._snaps
        work = self._work
        snaps.append((self._n, self._seq, work.freeze(sheet=False), len(work.hands)))
        self._next_snapshot = self._n + SNAPSHOT_EVERY
        # Keep the newest snapshot at least UNDO_DEPTH events back, and all after it.
        while len(snaps) > 1 and snaps[1][0] <= self._n - UNDO_DEPTH:
            del self._events[: snaps[1][0] - snaps[0][0]], self._seqs[: snaps[1][0] - snaps[0][0]]
            del snaps[0]

    def _correct(self, ev: Correction) -> None:
        """Undo the last effective event, at a cost that does not depend on where it falls.

        A correction's cost used to be a rebuild from the newest snapshot at or
        before the point it goes back to: up to ``SNAPSHOT_EVERY - 1`` events
        replayed, and, for an event that had just taken a snapshot, that snapshot
        thrown away, so the same slip and its correction made again and again
        just before a boundary cost the whole replay each time (a file ten times
        slower to read than one a single event later). Now:

        - a note changes nothing, so undoing one needs no rebuild, and a snapshot
          taken just after it is a snapshot of the state before it: it is kept,
          relabelled one event earlier;
        - any other correction rebuilds from the newest snapshot as before, and
          snapshots as it replays (every :data:`REBUILD_SNAPSHOT_EVERY` events
          and where it ends), so the next correction near here replays at most
          that many events. The snapshots kept stay bounded (:meth:`_snapshot`
          drops all but one older than ``UNDO_DEPTH`` events back).
        """
        check_correction(ev, self._seq, self._depth)
        undone_n = self._n
        self._n = n = undone_n - 1
        self._depth -= 1
        undone = self._events.pop()
        self._seqs.pop()
        snaps = self._snaps
        # The oldest snapshot is at least `depth` events back (see rewind), so the
        # one at undone_n, if any, is never the only one.
        self._seq = self._seqs[-1] if self._seqs else snaps[0][1]
        if type(undone) in CHANGES_NOTHING:
            if snaps[-1][0] == undone_n:
                _n, _s, state, k = snaps.pop()
                if snaps[-1][0] != n:
                    snaps.append((n, self._seq, state, k))
            self._next_snapshot = snaps[-1][0] + SNAPSHOT_EVERY
            return
        while snaps[-1][0] > n:
            del snaps[-1]
        self._next_snapshot = snaps[-1][0] + SNAPSHOT_EVERY
        self._rebuild(REBUILD_SNAPSHOT_EVERY)
        if snaps[-1][0] != n:
            self._snapshot()

    def _rebuild(self, every: int = 0) -> None:
        """Make the working copy again from the newest snapshot and the events since.

        With ``every``, keep a snapshot after each ``every`` events replayed
        (short of the end: the caller decides about that one).
        """
        snaps = self._snaps
        n, _seq, state, k = snaps[-1]
        sheet = self._work.hands
        del sheet[k:]
        work = thaw(state)
        work.hands = sheet
        replay = list(zip(self._seqs[n - snaps[0][0]:], self._events[n - snaps[0][0]:]))
        if not every or len(replay) <= every:
            for _s, ev in replay:
                if type(ev) not in CHANGES_NOTHING:
                    RULES[type(ev)](work, ev)
        else:
            for i, (s, ev) in enumerate(replay, 1):
                if type(ev) not in CHANGES_NOTHING:
                    RULES[type(ev)](work, ev)
                if i % every == 0 and i < len(replay):
                    snaps.append((n + i, s, work.freeze(sheet=False), len(work.hands)))
        self._work = work

    def rewind(self) -> Rewind:
        """What it takes to rebuild this log's exact :class:`Timeline` (see :class:`Rewind`)."""
        snaps = self._snaps
        base_n, base_seq, base, k = next(s for s in reversed(snaps) if s[0] <= self._n - self._depth)
        hands = tuple(self._work.hands[:k])
        if hands != base.hands:  # (a snapshot holds no sheet: only the first, of an empty one, needs none)
            base = attrs.evolve(base, hands=hands)
        k = base_n - snaps[0][0]
        return Rewind(base, base_seq, tuple(zip(self._seqs[k:], self._events[k:])), self._depth)
