"""What a match reading warns of (beside the times, which the reader sees): score-pad hands, unusual rules,
corrections after the end.

Each is a :class:`~ginlog.caveats.Caveat` for a visitor to hand to its
``warning`` hook: :class:`~ginlog.match.visitors.FinalState` (the audit; the
fold notes the corrections after the end itself,
:attr:`ginlog.play.fold.Fold.reopened`) and
:class:`~ginlog.match.visitors.Steps` (a page), so both say the same.
"""

from __future__ import annotations

from ginlog.caveats import Caveat
from ginlog.game.rules import Rules
from ginlog.game.usual import unusual_knobs
from ginlog.play.state import MatchState

__all__ = ["unusual_rules", "score_pad", "reopened"]


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
