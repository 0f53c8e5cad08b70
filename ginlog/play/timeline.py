"""One event at a time: ``apply(timeline, event) -> timeline``, corrections included.

The public face is :mod:`ginlog.play.reducer`; this is its core, below
:mod:`ginlog.play.fold` (which replays a whole log the same way, faster).
"""

from __future__ import annotations

from typing import Final

from ginlog.errors import IllegalMove
from ginlog.game.scoring import Tally
from ginlog.log.events import CHANGES_NOTHING, NEVER_UNDONE, Correction, Event, MatchStarted
from ginlog.play.guards import illegal
from ginlog.play.rulebook import RULES, Rule
from ginlog.play.state import MatchState, Timeline
from ginlog.play.working import thaw

__all__ = ["start", "first_state", "apply", "step", "rule_of", "check_correction", "UNDO_DEPTH"]

#: How many effective events a run of corrections can undo.
UNDO_DEPTH: Final = 64


def start(event: Event, seq: int = 1) -> Timeline:
    """The timeline after the first line of a match file (which must be ``match_started``)."""
    return Timeline(first_state(event), seq)


def first_state(event: Event) -> MatchState:
    """The match state after the first line of a match file (which must be ``match_started``)."""
    if not isinstance(event, MatchStarted):
        raise illegal(f"a match file must begin with match_started, not {type(event).__name__}", "first-event")
    return MatchState(players=event.players, rules=event.rules, tally=Tally(), title=event.title, tool=event.tool)


def apply(tl: Timeline, event: Event, seq: int | None = None) -> Timeline:
    """The timeline after ``event``; raise :class:`IllegalMove` if it breaks a rule.

    ``seq`` is the event's line number in the match file; it is what a later
    correction names in ``undoes``. Left out, it is taken as one more than the
    last effective event, which is right only for a log without corrections. A :class:`Correction` goes back
    to the state before the last effective event; anything else goes through
    :func:`step`.
    """
    if type(event) in NEVER_UNDONE:
        # Nothing undoes a seal (issue 24; the trait ``undoable``, ginlog.log.registry.Traits): it is kept out of
        # the undo history, so a correction after one takes back the move before it, and the correction itself
        # is unsealed. (A note, which changes nothing too, can be undone.)
        return tl
    if seq is None:
        seq = tl.seq + 1
    if isinstance(event, Correction):
        check_correction(event, tl.seq, len(tl.back))
        back_seq, previous = tl.back[-1]
        return Timeline(previous, back_seq, tl.back[:-1])
    state = tl.state
    new = state if type(event) in CHANGES_NOTHING else step(state, event)
    back = tl.back
    if len(back) >= UNDO_DEPTH:
        back = back[1:]
    return Timeline(new, seq, back + ((tl.seq, state),))


def step(state: MatchState, event: Event) -> MatchState:
    """The pure rules: the match state after one (non-correction) event."""
    work = thaw(state)
    rule_of(event)(work, event)
    return work.freeze()


def rule_of(event: object) -> Rule:
    """The rule for ``event``, or the ``unknown-event`` error (a correction, a note, or not an event)."""
    rule = RULES.get(type(event))
    if rule is None:
        raise illegal(f"{type(event).__name__} is not an event the reducer knows", "unknown-event")
    return rule


def check_correction(ev: Correction, last: int, depth: int) -> None:
    """Raise unless ``ev`` undoes ``last``, the last effective event, with ``depth`` events still undoable."""
    if not depth:
        raise illegal(
            "there is nothing left to undo" if last <= 1 else f"corrections go back at most {UNDO_DEPTH} events",
            "correction",
        )
    if ev.undoes != last:
        raise IllegalMove(
            f"a correction undoes the last effective event, which is event {last}, not {ev.undoes}",
            rule="correction",
        )
