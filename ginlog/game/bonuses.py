"""End-of-game bonuses: the game bonus, boxes and the shutout, for one game's score.

One function, :func:`game_bonuses`, prices them from a game's facts (hand
points, hands won, the winner), so a plain match (:class:`ginlog.game.scoring.Tally`)
and each of Hollywood's three games (:mod:`ginlog.game.hollywood`) get them
the same way.

>>> from ginlog.game.rules import preset
>>> b = game_bonuses(preset("classic"), (104, 0), (3, 0), 0)
>>> b.game, b.boxes, b.shutout, b.total(0)
((100, None), (60, None), (100, None), 260)
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from ginlog.game.rules import Rules
from ginlog.game.seats import OTHER, Seat

__all__ = ["Award", "FinalBonuses", "game_bonuses"]

#: Per seat, a bonus awarded (possibly 0 under odd knobs) or None where none was.
Award: TypeAlias = tuple[int | None, int | None]
_NONE: Final[Award] = (None, None)


@attrs.frozen
class FinalBonuses:
    """End-of-game bonuses, per seat (None: not awarded, as opposed to an award of 0)."""

    game: Award = _NONE
    boxes: Award = _NONE
    shutout: Award = _NONE

    def total(self, seat: Seat) -> int:
        return (self.game[seat] or 0) + (self.boxes[seat] or 0) + (self.shutout[seat] or 0)

    def __add__(self, other: FinalBonuses) -> FinalBonuses:
        """Two games' bonuses together (Hollywood's match): an award where either has one."""
        return FinalBonuses(_plus(self.game, other.game), _plus(self.boxes, other.boxes),
                            _plus(self.shutout, other.shutout))


def _plus(a: Award, b: Award) -> Award:
    def one(x: int | None, y: int | None) -> int | None:
        return x if y is None else y if x is None else x + y

    return (one(a[0], b[0]), one(a[1], b[1]))


def _award(seat: Seat, value: int) -> Award:
    return (value, None) if seat == 0 else (None, value)


def game_bonuses(
    rules: Rules, points: tuple[int, int], hands_won: tuple[int, int], winner: Seat | None
) -> FinalBonuses:
    """The bonuses of a game won by ``winner`` (none while it has no winner).

    ``points`` are the game's totals by seat (with boxes when ``box_timing`` is
    ``"hand"``), ``hands_won`` the hands each seat won in it. The shutout
    doubles the winner's total with the game bonus and boxes, or adds a flat
    bonus, when the loser scored nothing.
    """
    w = winner
    if w is None:
        return FinalBonuses()
    game = _award(w, rules.game_bonus) if rules.game_bonus else _NONE
    boxes = _NONE
    if rules.box_bonus and rules.box_timing == "end":
        a, b = hands_won
        boxes = (rules.box_bonus * a if a else None, rules.box_bonus * b if b else None)
    shutout = _NONE
    if points[OTHER[w]] == 0 and rules.shutout != "none":
        if rules.shutout == "flat":
            shutout = _award(w, rules.shutout_bonus)
        else:  # double the winner's total, bonuses included
            shutout = _award(w, points[w] + (game[w] or 0) + (boxes[w] or 0))
    return FinalBonuses(game, boxes, shutout)
