"""The visitors of :func:`ginlog.match.reading.read`: the protocol's base class and the three readings ginlog makes.

:class:`Visitor` is the protocol (its hooks are described in
:mod:`ginlog.match.reading`); :class:`FinalState`, :class:`Steps` and
:class:`Chain` are the final state, the state after every event, and the
record alone; :class:`Step`, :class:`MatchReport` and :class:`ChainReport` are
what they make.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Generic, Never, TypeVar

import attrs

from ginlog.errors import EventError, GinlogError, IllegalMove, IntegrityError, StoreError
from ginlog.log.events import Event, MatchStarted, event_type
from ginlog.log.reader import Line, Run
from ginlog.play.reducer import Fold, Rewind, apply, start
from ginlog.play.state import MatchState, Timeline

__all__ = ["Stop", "Visitor", "FinalState", "Steps", "Chain", "Step", "MatchReport", "ChainReport"]

T = TypeVar("T")
R = TypeVar("R")


class Stop(Exception):
    """Raised by a visitor's hook to end the reading early; the driver then calls ``end()``."""


# --------------------------------------------------------------------------- results


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
    lines: int  # the line of the last event applied
    head: str | None  # digest of that line (the head hash to keep)
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


@attrs.frozen
class ChainReport:
    """What the hash chain and the seqs say of a file, no rule of play consulted."""

    path: str
    errors: tuple[GinlogError, ...]
    lines: int  # the last line read that continues the chain
    head: str | None  # its digest

    @property
    def ok(self) -> bool:
        return not self.errors


# --------------------------------------------------------------------------- the protocol


class Visitor(Generic[T, R]):
    """The base visitor: every hook does nothing, every problem is raised or kept.

    The protocol is described in :mod:`ginlog.match.reading`. ``T`` is what
    :meth:`event` hands out (through :func:`~ginlog.match.reading.walk`), ``R``
    what :meth:`end` makes. The error policy is the visitor's: ``errors=None``
    raises the first problem; a list collects them and reading goes on
    (``limit``: stop once that many are kept). Override :meth:`error` for
    another policy.
    """

    #: Whether the driver makes each line's event (False: :meth:`line` instead, the chain alone).
    decodes: ClassVar[bool] = True
    #: Whether the driver hands the lines' bytes to :meth:`raw` first (for the envelope's time).
    raw_lines: ClassVar[bool] = False

    def __init__(self, errors: list[GinlogError] | None = None, *, limit: int | None = None) -> None:
        self.errors = errors
        self.limit = limit
        self.label = "<stdin>"

    def begin(self, label: str) -> None:
        """Reading starts; ``label`` is what errors call the file."""
        self.label = label

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> T | None:
        """Line ``lineno`` holds event ``seq`` (SHA-256 ``digest``); a value returned is handed out."""
        return None

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[T]:
        """Consecutive events, ``events[i]`` being event ``seq + i`` on line ``lineno + i``: :meth:`event` for each."""
        event = self.event
        for i, ev in enumerate(events):
            out = event(lineno + i, seq + i, ev, digests[i])
            if out is not None:
                yield out

    def raw(self, lineno: int, raws: Sequence[bytes]) -> None:
        """(Only when ``raw_lines`` is True.) The bytes of lines ``lineno``, ``lineno + 1``... whose events come next.

        Called before :meth:`run` or :meth:`event` for those lines; what the
        envelope holds beyond the chain (the ``ts``) is read from here, and
        only by a visitor that wants it.
        """

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        """Line ``lineno``'s event could not be made (``err`` says why): :meth:`error`."""
        self.error(err)

    def item(self, item: Line | Run) -> None:
        """(Only when overridden.) The reader's next line, or run of known lines, before its events are handed out.

        For a visitor that wants more of the record than its events, such as
        each line's ``ts`` (:mod:`ginlog.match.dated`); the driver skips the
        call for a visitor that does not override it.
        """

    def line(self, lineno: int, seq: int, digest: str) -> None:
        """(Only when ``decodes`` is False.) Line ``lineno``, holding event ``seq``, continues the chain."""

    def error(self, err: GinlogError) -> None:
        """A problem, its place filled in: raise it, or keep it and read on (:class:`Stop` at the limit)."""
        errors = self.errors
        if errors is None:
            raise err from None
        limit = self.limit
        if limit is not None and len(errors) >= limit:
            raise Stop  # (a problem found in end(), past the limit: not kept)
        errors.append(err)
        if limit is not None and len(errors) >= limit:
            raise Stop

    def end(self) -> R:
        """Reading is over (to the end, to ``upto``, or stopped): the result."""
        raise NotImplementedError

    def _last_error(self, err: GinlogError) -> None:
        """:meth:`error` for a problem found in ``end()``: the reading is over, there is nothing to stop."""
        try:
            self.error(err)
        except Stop:
            pass


# --------------------------------------------------------------------------- visitors


def _first(event: Event) -> MatchStarted:
    if not isinstance(event, MatchStarted):
        raise IllegalMove(f"a match file begins with match_started, not {event_type(event)}", rule="first-event")
    return event


def _anchor_error(anchor: str, label: str) -> IntegrityError:
    return IntegrityError(
        f"the file does not contain the kept head {anchor[:12]}...: lines were removed or changed",
        rule="anchor",
        path=label,
    )


class FinalState(Visitor[Never, MatchReport]):
    """The state at the end of the file, folded once (:class:`~ginlog.play.reducer.Fold`), as a :class:`MatchReport`.

    An illegal event is reported and skipped (the state stays as it was); a
    file whose first line is not a match's beginning is read no further.
    ``anchor`` is a head hash the user kept: the file must still hold it,
    which catches lines cut off the end.
    """

    def __init__(
        self, errors: list[GinlogError] | None = None, *, limit: int | None = None, anchor: str | None = None
    ) -> None:
        super().__init__(errors, limit=limit)
        self.anchor = anchor
        self._fold: Fold | None = None
        self._lines = 0
        self._head: str | None = None
        self._anchored = anchor is None

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        fold = self._fold
        try:
            if fold is None:
                self._fold = Fold(_first(event), seq)
            else:
                fold.apply(event, seq)
        except GinlogError as exc:
            self.error(exc.at(path=self.label, line=lineno, seq=seq))
            if self._fold is None:
                raise Stop from None  # without the first line there is nothing to check the rest against
            return
        self._lines = lineno
        self._head = digest
        if not self._anchored and digest == self.anchor:
            self._anchored = True

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[Never]:
        done = 0
        if self._fold is None:
            self.event(lineno, seq, events[0], digests[0])  # the fold begins, or the reading stops
            done = 1
        fold = self._fold
        assert fold is not None
        while done < len(events):
            k, exc = fold.apply_run(events, seq, done)
            if k > done:
                self._lines, self._head = lineno + k - 1, digests[k - 1]
                if not self._anchored:
                    self._anchored = self.anchor in digests[done:k]
            if exc is None:
                break
            self.error(exc.at(path=self.label, line=lineno + k, seq=seq + k))
            done = k + 1
        return ()

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        self.error(err)
        if self._fold is None:
            raise Stop

    def end(self) -> MatchReport:
        label = self.label
        if not self._anchored:
            assert self.anchor is not None
            self._last_error(_anchor_error(self.anchor, label))
        fold = self._fold
        if fold is None and not self.errors:
            self._last_error(
                EventError("the file is empty: a match file begins with match_started", rule="first-event", path=label)
            )
        errors = tuple(self.errors or ())
        if fold is None:
            return MatchReport(label, None, errors, self._lines, self._head)
        return MatchReport(label, fold.state, errors, self._lines, self._head, fold.rewind())


class Steps(Visitor[Step, "Step | None"]):
    """Every event with the state after it, as :class:`Step`\\ s (through the pure :func:`~ginlog.play.reducer.apply`).

    An illegal event is reported and skipped; a file whose first line is not
    a match's beginning is read no further. A file that cannot be opened or
    read is raised even when collecting (a stream of steps cannot begin).
    ``end()`` gives the last step.
    """

    def __init__(self, errors: list[GinlogError] | None = None, *, limit: int | None = None) -> None:
        super().__init__(errors, limit=limit)
        self._tl: Timeline | None = None
        self._last: Step | None = None

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> Step | None:
        tl = self._tl
        try:
            tl = start(_first(event), seq) if tl is None else apply(tl, event, seq)
        except GinlogError as exc:
            self.error(exc.at(path=self.label, line=lineno, seq=seq))
            if self._tl is None:
                raise Stop from None  # without the first line there is nothing to check the rest against
            return None
        self._tl = tl
        self._last = step = Step(lineno, seq, event, tl, digest)
        return step

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        self.error(err)
        if self._tl is None:
            raise Stop

    def error(self, err: GinlogError) -> None:
        if type(err) is StoreError:
            raise err from None  # the file itself cannot be read: raised even when collecting, as by read_lines
        super().error(err)

    def end(self) -> Step | None:
        return self._last


class Chain(Visitor[Never, ChainReport]):
    """The hash chain and the seqs alone: every line checked as a record, no event made, no rule consulted.

    Fast on any file (with the fast path, a known line is checked by its
    bytes), and it reads files whose events this ginlog could not: a newer
    schema, an unknown event type.
    """

    decodes = False

    def __init__(
        self, errors: list[GinlogError] | None = None, *, limit: int | None = None, anchor: str | None = None
    ) -> None:
        super().__init__(errors, limit=limit)
        self.anchor = anchor
        self._lines = 0
        self._head: str | None = None
        self._anchored = anchor is None

    def line(self, lineno: int, seq: int, digest: str) -> None:
        self._lines = lineno
        self._head = digest
        if not self._anchored and digest == self.anchor:
            self._anchored = True

    def end(self) -> ChainReport:
        if not self._anchored:
            assert self.anchor is not None
            self._last_error(_anchor_error(self.anchor, self.label))
        return ChainReport(self.label, tuple(self.errors or ()), self._lines, self._head)
