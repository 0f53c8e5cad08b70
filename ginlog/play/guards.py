"""The checks every rule of play starts with: is there a hand, whose turn is it, is the match ready.

Shared by the rules in :mod:`ginlog.play.setup`, :mod:`ginlog.play.turns` and
:mod:`ginlog.play.endings`. Each raises :class:`~ginlog.errors.IllegalMove`
naming the rule; the names in its words are the players' (events carry
names; the working copy holds seats, and ``players[seat]`` names one).

The door, where an event's name becomes a seat, once per event: for a
move, :func:`turn_hand` (inlined in the hot draw and discard) checks the
name against the name of the seat whose turn it is, so once it passes the
acting seat is ``hand.turn``, found without a lookup; any other name (the
first dealer, a dealt hand's owner, a score pad's ``out``) goes through
:func:`~ginlog.game.seats.seat_of`. Either way a name that is not a player
is the ``unknown-player`` error.
"""

from __future__ import annotations

from typing import Final, NoReturn

from ginlog.errors import IllegalMove
from ginlog.game.seats import seat_of
from ginlog.play.working import WorkingHand, WorkingMatch

__all__ = ["illegal", "require_ready", "turn_hand", "refuse_turn", "HAND_SIZE"]

HAND_SIZE: Final = 10


def illegal(message: str, rule: str) -> IllegalMove:
    return IllegalMove(message, rule=rule)


def require_ready(state: WorkingMatch, what: str) -> None:
    """Raise unless the match is between hands (the first dealer chosen, not over)."""
    if state.phase == "ready":
        return
    if state.phase == "setup":
        raise illegal(f"{what}: choose the first dealer first", "first-dealer")
    if state.phase == "hand":
        raise illegal(f"{what}: hand {state.hand.number if state.hand else '?'} is still being played", "hand-in-progress")
    if state.phase == "over":
        raise illegal(f"{what}: the match is over", "match-over")
    if state.phase == "abandoned":
        raise illegal(f"{what}: the match was abandoned", "match-over")


def turn_hand(state: WorkingMatch, player: str, what: str) -> WorkingHand:
    """The hand being played, when it is ``player``'s turn (then ``hand.turn`` is their seat)."""
    hand = state.hand
    if hand is None or player != state.players[hand.turn]:
        refuse_turn(state, player, what)
    return hand


def refuse_turn(state: WorkingMatch, player: str, what: str) -> NoReturn:
    """Raise why ``player`` may not ``what`` now: no hand, the match over, not a player, not their turn."""
    hand = state.hand
    if hand is None:
        if state.phase in ("over", "abandoned"):
            raise illegal(f"{what}: the match is over", "match-over")
        raise illegal(f"{what}: no hand is being played (deal one first)", "no-hand")
    seat_of(state.players, player)  # unknown-player
    raise illegal(f"it is {state.players[hand.turn]}'s turn, not {player}'s", "turn-order")
