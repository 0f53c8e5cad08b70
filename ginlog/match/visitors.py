"""The visitors of :func:`ginlog.match.reading.read`: the protocol's base class and the three readings ginlog makes.

:class:`Visitor` is the protocol (its hooks are described in
:mod:`ginlog.match.reading`); :class:`FinalState`, :class:`Steps` and
:class:`Chain` are the final state, the state after every event, and the
record alone; :class:`Step`, :class:`MatchReport` and :class:`ChainReport` are
what they make.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Never, TypeVar

import attrs

from ginlog.caveats import Caveat
from ginlog.errors import EventError, GinlogError, IllegalMove, StoreError
from ginlog.log.events import Event, MatchStarted, Seal, event_type
from ginlog.match.anchor import Anchor
from ginlog.match.policy import Policy
from ginlog.match.seals import Keyring, Require, SealCheck, Seals
from ginlog.match.unverified import Unverified
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
    #: What rebuilds the reducer's timeline at the end (:meth:`~ginlog.play.fold.Fold.rewind`), called only when
    #: :attr:`timeline` is asked for: an audit never asks, and making it was a few µs of every file.
    rewinder: Callable[[], Rewind] | None = attrs.field(default=None, eq=False, repr=False)
    #: Every problem found, kept or not (``errors`` holds at most the visitor's ``keep``), and by rule.
    errors_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.errors), takes_self=True))
    errors_by_rule: dict[str, int] = attrs.field(factory=dict)
    #: What the record does not let ginlog verify (collected only when asked), at most ``keep`` of them.
    warnings: tuple[Caveat, ...] = ()
    warnings_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.warnings), takes_self=True))
    warnings_by_rule: dict[str, int] = attrs.field(factory=dict)
    #: Every seal of the file, as checked (:mod:`ginlog.match.seals`).
    seals: tuple[SealCheck, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors_total

    @property
    def timeline(self) -> Timeline | None:
        """The reducer's timeline at the end, which corrections appended later go back through.

        Rebuilt on each access from the last few dozen events (a millisecond
        or so), so a reader that only wants the state never pays for it.
        """
        return self.rewinder().timeline() if self.rewinder is not None else None


@attrs.frozen
class ChainReport:
    """What the hash chain and the seqs say of a file, no rule of play consulted."""

    path: str
    errors: tuple[GinlogError, ...]
    lines: int  # the last line read that continues the chain
    head: str | None  # its digest
    errors_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.errors), takes_self=True))
    errors_by_rule: dict[str, int] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors_total


# --------------------------------------------------------------------------- the protocol


class Visitor(Generic[T, R]):
    """The base visitor: every hook does nothing, every problem is raised or kept.

    The protocol is described in :mod:`ginlog.match.reading`. ``T`` is what
    :meth:`event` hands out (through :func:`~ginlog.match.reading.walk`), ``R``
    what :meth:`end` makes. The error policy is the visitor's: ``errors=None``
    raises the first problem; a list collects them and reading goes on
    (``limit``: stop once that many are kept; ``keep``: keep at most that many
    and read on, counting the rest in :attr:`errors_total` and
    :attr:`errors_by_rule`). Override :meth:`error` for another policy.

    A break in the record (a line that is not one, a broken link or seq, an
    event that cannot be made) leaves the rules a gap: every event after a
    deleted draw is then illegal. So a rule broken after a break
    (:meth:`illegal`) is one of a *cascade*, and a cascade is one error: the
    first illegal event, its message saying how many more followed, and up to
    which line.

    ``warnings``, a list, collects what the record does not let ginlog
    verify (:class:`~ginlog.caveats.Caveat`, through :meth:`warning`; also at
    most ``keep``, all counted); None, the default, collects none (and the
    reader does not look for them). Those a match reading finds are found by
    one component, :attr:`unverified` (:class:`~ginlog.match.unverified.Unverified`),
    None when no warning is collected.

    ``policy`` (:class:`~ginlog.match.policy.Policy`; the app's is
    :data:`~ginlog.match.policy.POLICY`) stands for the three: a list for
    the errors, ``keep``, and a list for the warnings if it warns.
    """

    #: Whether the driver makes each line's event (False: :meth:`line` instead, the chain alone).
    decodes: ClassVar[bool] = True
    #: Whether the driver hands the lines' bytes to :meth:`raw` first (for the envelope's time).
    raw_lines: ClassVar[bool] = False

    def __init__(
        self,
        errors: list[GinlogError] | None = None,
        *,
        limit: int | None = None,
        keep: int | None = None,
        warnings: list[Caveat] | None = None,
        policy: Policy | None = None,
        keyring: Keyring | None = None,
        require: Require | None = None,
    ) -> None:
        if policy is not None:
            errors, keep = [] if errors is None else errors, policy.keep
            warnings = ([] if warnings is None else warnings) if policy.warnings else None
            keyring, require = policy.keyring, policy.require
        self.errors = errors
        self.limit = limit
        self.keep = keep
        self.warnings = warnings
        # The components call the visitor back through a weak reference (_Back): a reading then leaves no
        # reference cycle, so a visitor, its fold and its working copy are freed by reference counting once read,
        # not by the cyclic collector, which ran every few files of an audit to free some 40 objects a file.
        back = _Back(self)
        self.unverified = None if warnings is None else Unverified(back.warning)
        #: The seals, checked as they come (:mod:`ginlog.match.seals`); a visitor that makes events tells it each line.
        self.seals = Seals(back.error, back.warning, keyring, require)
        self.label = "<stdin>"
        self.errors_total = 0
        self.errors_by_rule: dict[str, int] = {}
        self.warnings_total = 0
        self.warnings_by_rule: dict[str, int] = {}
        self._broken: int | None = None  # the line of the last break in the record
        self._cascade: tuple[GinlogError, int, int | None] | None = None  # its first error, how many, the last line

    def begin(self, label: str) -> None:
        """Reading starts; ``label`` is what errors call the file."""
        self.label = label
        self.seals.label = label
        if self.unverified is not None:
            self.unverified.label = label

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

        Called before :meth:`run` or :meth:`event` for those lines (a run's
        lines, or one line), with the lines as written (no newline); what
        the envelope holds beyond the chain and the event, such as the
        ``ts``, is read from here, and only by a visitor that wants it
        (:mod:`ginlog.match.dated`). The one hook for more of a line than
        its event: the driver's cost for a visitor without it is one test
        per run or line.
        """

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        """Line ``lineno``'s event could not be made (``err`` says why): :meth:`error`."""
        self.error(err)

    def line(self, lineno: int, seq: int, digest: str) -> None:
        """(Only when ``decodes`` is False.) Line ``lineno``, holding event ``seq``, continues the chain."""

    def error(self, err: GinlogError) -> None:
        """A problem, its place filled in: raise it, or count it, keep it and read on (:class:`Stop` at the limit).

        A problem with the record itself (:class:`~ginlog.errors.StoreError`,
        :class:`~ginlog.errors.EventError`) is a break: what :meth:`illegal`
        gets after it is a cascade.
        """
        errors = self.errors
        if errors is None:
            raise err from None
        if isinstance(err, (StoreError, EventError)):
            self._end_cascade()
            self._broken = err.line if err.line is not None else 0
        self._count(errors, err)

    def illegal(self, err: GinlogError) -> None:
        """An event that breaks a rule of play (the visitor's fold says so): :meth:`error`, unless a cascade."""
        if self._broken is None or self.errors is None:
            self.error(err)
            return
        cascade = self._cascade
        if cascade is None:
            self._cascade = (err, 1, err.line)
        else:
            self._cascade = (cascade[0], cascade[1] + 1, err.line)

    def warning(self, caveat: Caveat) -> None:
        """Something the record does not let ginlog verify, its place filled in: counted, and kept if collecting."""
        warnings = self.warnings
        if warnings is None:
            return
        self.warnings_total += 1
        by_rule = self.warnings_by_rule
        by_rule[caveat.rule] = by_rule.get(caveat.rule, 0) + 1
        if self.keep is None or len(warnings) < self.keep:
            warnings.append(caveat)

    def end(self) -> R:
        """Reading is over (to the end, to ``upto``, or stopped): the result."""
        raise NotImplementedError

    def _count(self, errors: list[GinlogError], err: GinlogError) -> None:
        limit = self.limit
        if limit is not None and len(errors) >= limit:
            raise Stop  # (a problem found in end(), past the limit: not kept)
        self.errors_total += 1
        by_rule = self.errors_by_rule
        by_rule[err.rule] = by_rule.get(err.rule, 0) + 1
        if self.keep is None or len(errors) < self.keep:
            errors.append(err)
        if limit is not None and len(errors) >= limit:
            raise Stop

    def _end_cascade(self) -> None:
        """The cascade since the last break, if any, as its one error."""
        cascade = self._cascade
        if cascade is None or self.errors is None:
            return
        self._cascade = None
        first, n, last = cascade
        note = f"after the break in the record at line {self._broken}"
        if n > 1:
            note += f"; {n - 1} more events up to line {last} break the rules too: lines are missing or changed"
        out = copy.copy(first)
        out.message = f"{first.message} ({note})"
        self._count(self.errors, out)

    def _last_error(self, err: GinlogError | None = None) -> None:
        """For ``end()``: the cascade still open, then ``err``; the reading is over, there is nothing to stop."""
        try:
            self._end_cascade()
            if err is not None:
                self.error(err)
        except Stop:
            pass

    def _seals_end(self) -> None:
        """For ``end()``: what the seal policy says of the whole file (:meth:`Seals.ended`)."""
        try:
            self.seals.ended()
        except Stop:
            pass


class _Back:
    """A visitor's :meth:`~Visitor.error` and :meth:`~Visitor.warning` (its own, overridden or not), for its
    components, through a weak reference: the components are the visitor's, and live no longer than it."""

    __slots__ = ("_visitor",)

    def __init__(self, visitor: Visitor[Any, Any]) -> None:
        self._visitor = weakref.ref(visitor)

    def error(self, err: GinlogError) -> None:
        visitor = self._visitor()
        assert visitor is not None  # (a component is called only while its visitor reads)
        visitor.error(err)

    def warning(self, caveat: Caveat) -> None:
        visitor = self._visitor()
        assert visitor is not None
        visitor.warning(caveat)


# --------------------------------------------------------------------------- visitors


def _first(event: Event) -> MatchStarted:
    if not isinstance(event, MatchStarted):
        raise IllegalMove(f"a match file begins with match_started, not {event_type(event)}", rule="first-event")
    return event


class FinalState(Visitor[Never, MatchReport]):
    """The state at the end of the file, folded once (:class:`~ginlog.play.reducer.Fold`), as a :class:`MatchReport`.

    An illegal event is reported and skipped (the state stays as it was); a
    file whose first line is not a match's beginning is read no further.
    ``anchor`` is a head hash the user kept, or its first 12 hex digits or
    more: the file must still hold it (exactly one line), which catches
    lines cut off the end. With ``warnings``, it warns of score-pad hands,
    corrections after the end, and unusual rules (and the reader of times
    that go back).
    """

    def __init__(
        self,
        errors: list[GinlogError] | None = None,
        *,
        limit: int | None = None,
        keep: int | None = None,
        warnings: list[Caveat] | None = None,
        anchor: str | None = None,
        policy: Policy | None = None,
    ) -> None:
        super().__init__(errors, limit=limit, keep=keep, warnings=warnings, policy=policy)
        self.anchor = anchor
        self._fold: Fold | None = None
        self._lines = 0
        self._head: str | None = None
        self._anchor = None if anchor is None else Anchor(anchor)
        self._reopened = 0  # the fold's corrections after the end already warned of

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> None:
        fold = self._fold
        if type(event) is Seal:
            self.seals.seal(lineno, seq, event, None if fold is None else fold.state)
        else:
            self.seals.see(lineno, (digest,))
        try:
            if fold is None:
                first = _first(event)
                self._fold = Fold(first, seq)
                if self.unverified is not None:
                    self.unverified.started(first.rules, lineno, seq)
            else:
                fold.apply(event, seq)
                if len(fold.reopened) != self._reopened:
                    self._warn_reopened(fold, lineno, seq)
        except GinlogError as exc:
            if self._fold is None:
                self.error(exc.at(path=self.label, line=lineno, seq=seq))
                raise Stop from None  # without the first line there is nothing to check the rest against
            self.illegal(exc.at(path=self.label, line=lineno, seq=seq))
            return
        self._lines = lineno
        self._head = digest
        if self._anchor is not None:
            self._anchor.see(lineno, (digest,))

    def run(self, lineno: int, seq: int, events: Sequence[Event], digests: Sequence[str]) -> Iterable[Never]:
        done = 0
        if self._fold is None:
            self.event(lineno, seq, events[0], digests[0])  # the fold begins, or the reading stops
            done = 1
        # (after the first event, which tells the seals of its own line: the whole run, a seal in none of it,
        # as ginlog.log.known never learns one)
        self.seals.see(lineno, digests)
        fold = self._fold
        assert fold is not None
        anchor = self._anchor
        while done < len(events):
            k, exc = fold.apply_run(events, seq, done)
            if k > done:
                self._lines, self._head = lineno + k - 1, digests[k - 1]
                if anchor is not None:
                    anchor.see(lineno + done, digests[done:k])
            if len(fold.reopened) != self._reopened:
                self._warn_reopened(fold, lineno, seq)
            if exc is None:
                break
            self.illegal(exc.at(path=self.label, line=lineno + k, seq=seq + k))
            done = k + 1
        return ()

    @property
    def fold(self) -> Fold | None:
        """The fold so far (None before the first line): for a visitor built on this one, such as one that dates hands."""
        return self._fold

    def unreadable(self, lineno: int, seq: int, err: GinlogError) -> None:
        self.error(err)
        if self._fold is None:
            raise Stop

    def _warn_reopened(self, fold: Fold, lineno: int, seq: int) -> None:
        """The fold applied corrections after the end, the last of them among events ``seq``... on lines ``lineno``..."""
        if self.unverified is not None:
            for s in fold.reopened[self._reopened:]:
                self.unverified.reopened(lineno + s - seq, s)
        self._reopened = len(fold.reopened)

    def end(self) -> MatchReport:
        label = self.label
        if self._cascade is not None:
            self._last_error()
        if self._anchor is not None:
            wrong = self._anchor.error(label)
            if wrong is not None:
                self._last_error(wrong)
        fold = self._fold
        if fold is None and not self.errors_total:
            self._last_error(
                EventError("the file is empty: a match file begins with match_started", rule="first-event", path=label)
            )
        state = None if fold is None else fold.state
        self._seals_end()
        if self.unverified is not None:
            self.unverified.ended(state)
        return MatchReport(
            label,
            state,
            tuple(self.errors or ()),
            self._lines,
            self._head,
            None if fold is None else fold.rewind,
            errors_total=self.errors_total,
            errors_by_rule=_sorted(self.errors_by_rule),
            warnings=tuple(self.warnings or ()),
            warnings_total=self.warnings_total,
            warnings_by_rule=_sorted(self.warnings_by_rule),
            seals=tuple(self.seals.checks),
        )


def _sorted(counts: dict[str, int]) -> dict[str, int]:
    """A copy of ``counts`` in the order of its keys (most are empty: no sort then)."""
    return dict(sorted(counts.items())) if counts else {}


class Steps(Visitor[Step, "Step | None"]):
    """Every event with the state after it, as :class:`Step`\\ s (through the pure :func:`~ginlog.play.reducer.apply`).

    An illegal event is reported and skipped; a file whose first line is not
    a match's beginning is read no further. A file that cannot be opened or
    read is raised even when collecting (a stream of steps cannot begin).
    ``end()`` gives the last step. With a ``warnings`` list it collects the
    same warnings as :class:`FinalState` (:mod:`ginlog.match.unverified`), so
    a page states what the audit does.
    """

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
        self._tl: Timeline | None = None
        self._last: Step | None = None

    def event(self, lineno: int, seq: int, event: Event, digest: str) -> Step | None:
        tl = self._tl
        if type(event) is Seal:
            self.seals.seal(lineno, seq, event, None if tl is None else tl.state)
        else:
            self.seals.see(lineno, (digest,))
        try:
            before = tl
            tl = start(_first(event), seq) if before is None else apply(before, event, seq)
            unverified = self.unverified
            if unverified is not None:
                if before is None:
                    unverified.started(tl.state.rules, lineno, seq)
                else:
                    unverified.event(event, before.state.finished, lineno, seq)
        except GinlogError as exc:
            if self._tl is None:
                self.error(exc.at(path=self.label, line=lineno, seq=seq))
                raise Stop from None  # without the first line there is nothing to check the rest against
            self.illegal(exc.at(path=self.label, line=lineno, seq=seq))
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
        self._last_error()
        self._seals_end()
        if self.unverified is not None:
            self.unverified.ended(None if self._last is None else self._last.state)
        return self._last

    def report(self) -> MatchReport:
        """Once :meth:`end` is called: what was read, as the :class:`MatchReport` a :class:`FinalState` makes
        (the last step's state, line and digest; every problem and warning counted), so a page and the audit
        give the file the same verdict."""
        last = self._last
        return MatchReport(
            self.label,
            None if last is None else last.state,
            tuple(self.errors or ()),
            0 if last is None else last.line,
            None if last is None else last.digest,
            errors_total=self.errors_total,
            errors_by_rule=dict(sorted(self.errors_by_rule.items())),
            warnings=tuple(self.warnings or ()),
            warnings_total=self.warnings_total,
            warnings_by_rule=dict(sorted(self.warnings_by_rule.items())),
            seals=tuple(self.seals.checks),
        )


class Chain(Visitor[Never, ChainReport]):
    """The hash chain and the seqs alone: every line checked as a record, no event made, no rule consulted.

    Fast on any file (with the fast path, a known line is checked by its
    bytes), and it reads files whose events this ginlog could not: a newer
    schema, an unknown event type.
    """

    decodes = False

    def __init__(
        self,
        errors: list[GinlogError] | None = None,
        *,
        limit: int | None = None,
        keep: int | None = None,
        anchor: str | None = None,
    ) -> None:
        super().__init__(errors, limit=limit, keep=keep)
        self.anchor = anchor
        self._lines = 0
        self._head: str | None = None
        self._anchor = None if anchor is None else Anchor(anchor)

    def line(self, lineno: int, seq: int, digest: str) -> None:
        self._lines = lineno
        self._head = digest
        if self._anchor is not None:
            self._anchor.see(lineno, (digest,))

    def end(self) -> ChainReport:
        if self._anchor is not None:
            wrong = self._anchor.error(self.label)
            if wrong is not None:
                self._last_error(wrong)
        return ChainReport(
            self.label,
            tuple(self.errors or ()),
            self._lines,
            self._head,
            errors_total=self.errors_total,
            errors_by_rule=dict(sorted(self.errors_by_rule.items())),
        )
