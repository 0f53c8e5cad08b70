"""What a match reading warns of (beside the times, which the reader sees): score-pad hands, unusual rules,
corrections after the end.

Each is a :class:`~ginlog.caveats.Caveat`. :class:`Unverified` is the one
place they are found: every visitor that warns holds one (the base
:class:`~ginlog.match.visitors.Visitor` makes it when warnings are
collected) and tells it what it saw: the first event's rules, a correction
applied once the match had ended (the fold notes those itself on its fast
path, :attr:`ginlog.play.fold.Fold.reopened`; a visitor that applies events
one by one asks :meth:`Unverified.event`), the state at the end. So the
audit (:class:`~ginlog.match.visitors.FinalState`), ``score`` and ``stats``
(:class:`~ginlog.match.dated.Dated`) and a page
(:class:`~ginlog.match.visitors.Steps`) say the same.

>>> from ginlog.game.rules import preset
>>> said = []
>>> u = Unverified(said.append)
>>> u.label = "m.jsonl"
>>> u.started(preset("standard"), 1, 1); u.reopened(9, 9)
>>> [(c.rule, c.path, c.line) for c in said]
[('reopened', 'm.jsonl', 9)]
"""

from __future__ import annotations

from collections.abc import Callable

from ginlog.caveats import Caveat
from ginlog.game.rules import Rules
from ginlog.game.usual import unusual_knobs
from ginlog.log.events import Correction, Event
from ginlog.play.state import MatchState

__all__ = ["Unverified", "unusual_rules", "score_pad", "reopened"]


class Unverified:
    """The warnings of one reading, each handed to ``warning`` with the file's name (:attr:`label`) filled in.

    A component, not a visitor: the visitor says what happened, this says
    what that leaves unverified, so no visitor has a list of its own.
    """

    __slots__ = ("_warning", "label")

    def __init__(self, warning: Callable[[Caveat], None]) -> None:
        self._warning = warning
        self.label: str | None = None

    def started(self, rules: Rules, lineno: int, seq: int) -> None:
        """The match began on line ``lineno`` (event ``seq``) with ``rules``: a warning per unusual knob."""
        for caveat in unusual_rules(rules, lineno, seq):
            self._warning(caveat.at(path=self.label))

    def reopened(self, lineno: int, seq: int) -> None:
        """Event ``seq`` (line ``lineno``) was a correction applied once the match had ended."""
        self._warning(reopened(lineno, seq).at(path=self.label))

    def event(self, event: Event, finished: bool, lineno: int, seq: int) -> None:
        """Event ``seq`` was applied to a match that was ``finished`` before it (a reading event by event)."""
        if finished and isinstance(event, Correction):
            self.reopened(lineno, seq)

    def ended(self, state: MatchState | None) -> None:
        """The reading is over and ``state`` is the match at the end: the score-pad hands, if any."""
        if state is not None:
            pad = score_pad(state)
            if pad is not None:
                self._warning(pad.at(path=self.label))


def unusual_rules(rules: Rules, lineno: int, seq: int) -> list[Caveat]:
    """A warning for each knob of ``rules`` (a ``match_started`` on line ``lineno``) outside what tables play."""
    return [
        Caveat(
            "unusual-rules",
            f"{knob} is {value}, outside what tables commonly play ({low} to {high}): the scores follow the file's rules",
            line=lineno,
            seq=seq,
        )
        for knob, value, (low, high) in unusual_knobs(rules)
    ]


def score_pad(state: MatchState) -> Caveat | None:
    """One warning for the hands of ``state`` recorded as results only, if any (one per file, not per hand)."""
    pad = [h.number for h in state.hands if h.recorded == "result"]
    if not pad:
        return None
    bare = [h.number for h in state.hands if h.recorded == "result" and h.result.how == "points"]
    tail = (
        f"; {len(bare)} of them give points only (hand {_numbers(bare)}): not even their deadwood is known,"
        " only that each is a hand's worth of points and that the totals add them up"
        if bare
        else ""
    )
    return Caveat(
        "score-pad",
        f"{len(pad)} of {len(state.hands)} hands are recorded as results only (hand {_numbers(pad)}):"
        " their arithmetic is checked, their play is not" + tail,
    )


def reopened(lineno: int, seq: int) -> Caveat:
    """The warning for event ``seq`` (line ``lineno``), a correction made once the match had ended."""
    return Caveat(
        "reopened",
        "a correction after the match had ended (or was abandoned): its result was changed afterwards",
        line=lineno,
        seq=seq,
    )


def _numbers(hands: list[int]) -> str:
    """``1, 2, 3``: the first ten hand numbers, then ``...``."""
    return ", ".join(map(str, hands[:10])) + (", ..." if len(hands) > 10 else "")
