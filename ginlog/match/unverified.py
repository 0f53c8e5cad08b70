"""What a match reading warns of (beside the times, which the reader sees): score-pad hands, unusual rules.

Each is a :class:`~ginlog.caveats.Caveat` for
:class:`~ginlog.match.visitors.FinalState` to hand to its ``warning`` hook:
the fold reports the corrections after the end itself
(:attr:`ginlog.play.fold.Fold.reopened`).
"""

from __future__ import annotations

from ginlog.caveats import Caveat
from ginlog.game.rules import Rules
from ginlog.game.usual import unusual_knobs
from ginlog.play.state import MatchState

__all__ = ["unusual_rules", "score_pad"]


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
    shown = ", ".join(map(str, pad[:10])) + (", ..." if len(pad) > 10 else "")
    return Caveat(
        "score-pad",
        f"{len(pad)} of {len(state.hands)} hands are recorded as results only (hand {shown}):"
        " their arithmetic is checked, their play is not",
    )
