"""Seats: who is who inside ginlog. A player is seat 0 or seat 1, named only at the edges.

A match's two players sit in the order ``match_started`` lists them. Every
value that says *who* (the dealer, whose turn it is, who went out, who won a
hand, the match winner, each side of the tally) holds a seat, never a name:
the events carry names (the file format says so), the reducer turns each
event's name into a seat once, at the door (:func:`seat_of`), and the views
turn seats back into names with ``players[seat]``. A name therefore cannot
leak into a score sheet beside another spelling of the same player, and per
player data (``known[seat]``, ``points[seat]``) is indexed by the same value
that says who.

Why ``Literal[0, 1]`` and not ``int``: the type checker then refuses a name
*and* any other number (a hand number, points) where a seat belongs, and
proves ``OTHER[seat]`` is a seat. The price is that a plain ``int`` (from
``enumerate``, say) must come from :data:`SEATS` or :func:`seat_of` instead.

>>> seat_of(("Ann", "Bob"), "Bob"), OTHER[0]
(1, 1)
>>> seat_of(("Ann", "Bob"), "Anne")
Traceback (most recent call last):
...
ginlog.errors.IllegalMove: 'Anne' is not a player in this match (Ann and Bob) [unknown-player]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NoReturn, TypeAlias

from ginlog.errors import IllegalMove

__all__ = ["Seat", "SEATS", "OTHER", "seat_of", "not_a_player"]

Seat: TypeAlias = Literal[0, 1]
#: Both seats, in order: ``for seat, name in zip(SEATS, players)``.
SEATS: Final[tuple[Seat, Seat]] = (0, 1)
#: The other seat: ``OTHER[seat]``.
OTHER: Final[tuple[Seat, Seat]] = (1, 0)


def seat_of(players: Sequence[str], name: str) -> Seat:
    """The seat of the player called ``name`` (exactly as ``match_started`` spells it).

    Raises :class:`~ginlog.errors.IllegalMove` (``unknown-player``) for anyone else.
    """
    if name == players[0]:
        return 0
    if name == players[1]:
        return 1
    not_a_player(players, name)


def not_a_player(players: Sequence[str], name: str) -> NoReturn:
    """Raise the ``unknown-player`` error for ``name``."""
    raise IllegalMove(f"{name!r} is not a player in this match ({' and '.join(players)})", rule="unknown-player")
