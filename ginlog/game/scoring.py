"""Pricing: a hand result records facts; the rules turn them into points.

A :class:`HandResult` says only what happened (who went out, how, each side's
deadwood after lay-offs). :func:`price_hand` applies the rules to it, and
:class:`Tally` folds priced hands into a match: running totals, the winner at
the target, who deals next, boxes, the game bonus and the shutout. Keeping
facts and prices apart means a record never stores a number the rules could
get wrong, and an audit can re-price any record under its own rules.

>>> from ginlog.game.rules import preset
>>> r = preset("standard")
>>> price_hand(r, HandResult("knock", 0, 6, 14)).points     # seat 0 knocks, lower
8
>>> s = price_hand(r, HandResult("knock", 0, 8, 5))         # undercut: seat 1 scores
>>> s.outcome, s.winner, s.winner_side, s.points
('undercut', 1, 'defender', 13)
>>> price_hand(r, HandResult("gin", 0, 0, 30)).points
50

Who is who is a :data:`~ginlog.game.seats.Seat` (0 or 1) throughout: the
players' names never enter a result, a score or the tally.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import attrs

from ginlog.game.cards import Card
from ginlog.errors import IllegalMove
from ginlog.game.rules import Rules
from ginlog.game.seats import OTHER, Seat

__all__ = ["HandResult", "HandScore", "price_hand", "Tally", "FinalBonuses"]

How = Literal["knock", "gin", "big_gin", "void"]
Outcome = Literal["knock", "undercut", "gin", "big_gin", "void"]
OUTCOMES: Final = ("knock", "undercut", "gin", "big_gin", "void")


@attrs.frozen
class HandResult:
    """The facts of a finished hand.

    ``how`` is how it ended; ``out`` the seat that knocked or went gin (None
    for a void); deadwood is what each side declared, the defender's after
    lay-offs. ``upcard`` is the hand's first upcard when known (Oklahoma).
    """

    how: How
    out: Seat | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    upcard: Card | None = None


@attrs.frozen
class HandScore:
    """A priced hand: who scored and how much (``winner``, a seat, None when nobody did)."""

    outcome: Outcome
    winner: Seat | None
    points: int
    winner_side: Literal["knocker", "defender"] | None = None


def price_hand(rules: Rules, result: HandResult) -> HandScore:
    """Price one hand under ``rules``.

    An undercut gives the points to the other seat. A knock with no deadwood
    is priced as gin; gin cannot be undercut. Oklahoma's spade upcard doubles
    the hand.
    """
    how = result.how
    if how == "void":
        return HandScore("void", None, 0)
    k, d = result.knocker_deadwood, result.defender_deadwood
    mult = rules.multiplier_for(result.upcard) if result.upcard is not None else 1
    if how == "big_gin":
        if rules.big_gin_bonus is None:
            raise IllegalMove("big gin is not played under these rules", rule="big-gin-off")
        return HandScore("big_gin", result.out, (rules.big_gin_bonus + d) * mult, "knocker")
    if how == "gin" or k == 0:
        return HandScore("gin", result.out, (rules.gin_bonus + d) * mult, "knocker")
    if k < d:
        return HandScore("knock", result.out, (d - k) * mult, "knocker")
    if k == d and not rules.undercut_on_tie:
        return HandScore("knock", None, 0)
    if result.out is None:
        raise ValueError("a knock needs the seat that knocked ('out') to be priced")
    return HandScore("undercut", OTHER[result.out], (k - d + rules.undercut_bonus) * mult, "defender")


#: Per seat, a bonus awarded (possibly 0 under odd knobs) or None where none was.
Award: TypeAlias = tuple[int | None, int | None]
_NONE: Final[Award] = (None, None)


@attrs.frozen
class FinalBonuses:
    """End-of-match bonuses, per seat (None: not awarded, as opposed to an award of 0)."""

    game: Award = _NONE
    boxes: Award = _NONE
    shutout: Award = _NONE

    def total(self, seat: Seat) -> int:
        return (self.game[seat] or 0) + (self.boxes[seat] or 0) + (self.shutout[seat] or 0)


def _award(seat: Seat, value: int) -> Award:
    return (value, None) if seat == 0 else (None, value)


@attrs.frozen
class Tally:
    """Running score of a match, folded hand by hand, per seat.

    ``points`` counts hand points (plus boxes when ``box_timing`` is
    ``"hand"``); ``hands_won`` counts boxes. ``winner`` (a seat) is set once a
    total reaches the target; after that nothing more may be added.

    >>> from ginlog.game.rules import preset
    >>> t = Tally().add(preset("standard"), HandScore("gin", 0, 100))
    >>> t.winner, t.final_totals(preset("standard"))
    (0, (100, 0))
    """

    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    winner: Seat | None = None

    def add(self, rules: Rules, score: HandScore) -> Tally:
        """Fold one priced hand in; a hand after the match was won is an error."""
        if self.winner is not None:
            raise IllegalMove("the match is over: it has been won", rule="match-over")
        if score.winner is None:
            return self
        gained = score.points + rules.box_bonus if rules.box_timing == "hand" else score.points
        (a, b), (won_a, won_b) = self.points, self.hands_won
        if score.winner == 0:
            points, won, total = (a + gained, b), (won_a + 1, won_b), a + gained
        else:
            points, won, total = (a, b + gained), (won_a, won_b + 1), b + gained
        target = rules.game_target
        winner = score.winner if target is not None and total >= target else None
        return Tally(points, won, winner)

    def totals(self) -> tuple[int, int]:
        """Running totals by seat, without end-of-match bonuses."""
        return self.points

    def bonuses(self, rules: Rules) -> FinalBonuses:
        """The end-of-match bonuses (none until there is a winner)."""
        w = self.winner
        if w is None:
            return FinalBonuses()
        game = _award(w, rules.game_bonus) if rules.game_bonus else _NONE
        boxes = _NONE
        if rules.box_bonus and rules.box_timing == "end":
            a, b = self.hands_won
            boxes = (rules.box_bonus * a if a else None, rules.box_bonus * b if b else None)
        shutout = _NONE
        if self.points[OTHER[w]] == 0 and rules.shutout != "none":
            if rules.shutout == "flat":
                shutout = _award(w, rules.shutout_bonus)
            else:  # double the winner's total, bonuses included
                shutout = _award(w, self.points[w] + (game[w] or 0) + (boxes[w] or 0))
        return FinalBonuses(game, boxes, shutout)

    def final_totals(self, rules: Rules) -> tuple[int, int]:
        """Totals by seat with the end-of-match bonuses added."""
        b = self.bonuses(rules)
        return (self.points[0] + b.total(0), self.points[1] + b.total(1))

    def next_dealer(self, rules: Rules, dealer: Seat, score: HandScore) -> Seat:
        """Who deals the hand after one dealt by ``dealer`` that scored ``score``.

        A void hand is dealt again by the same dealer whatever the knob (both
        seeds say so); so is a hand nobody scored, except under ``alternate``.
        """
        if score.outcome == "void":
            return dealer
        if rules.next_dealer == "alternate":
            return OTHER[dealer]
        if score.winner is None:
            return dealer
        if rules.next_dealer == "winner":
            return score.winner
        return OTHER[score.winner]
