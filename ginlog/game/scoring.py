"""Pricing: a hand result records facts; the rules turn them into points.

A :class:`HandResult` says only what happened (who went out, how, each side's
deadwood after lay-offs). :func:`price_hand` applies the rules to it, and
:class:`Tally` folds priced hands into a match: running totals, the winner at
the target, who deals next, boxes, the game bonus and the shutout. Keeping
facts and prices apart means a record never stores a number the rules could
get wrong, and an audit can re-price any record under its own rules.

>>> from ginlog.game.rules import preset
>>> r = preset("standard")
>>> price_hand(r, HandResult("knock", "Ann", 6, 14)).points     # knocker lower
8
>>> s = price_hand(r, HandResult("knock", "Ann", 8, 5), "Bob")  # undercut
>>> s.outcome, s.winner_side, s.points
('undercut', 'defender', 13)
>>> price_hand(r, HandResult("gin", "Ann", 0, 30)).points
50
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import attrs

from ginlog.game.cards import Card
from ginlog.errors import IllegalMove
from ginlog.game.rules import Rules

__all__ = ["HandResult", "HandScore", "price_hand", "Tally", "FinalBonuses"]

How = Literal["knock", "gin", "big_gin", "void"]
Outcome = Literal["knock", "undercut", "gin", "big_gin", "void"]
OUTCOMES: Final = ("knock", "undercut", "gin", "big_gin", "void")


@attrs.frozen
class HandResult:
    """The facts of a finished hand.

    ``how`` is how it ended; ``out`` the player who knocked or went gin (None
    for a void); deadwood is what each side declared, the defender's after
    lay-offs. ``upcard`` is the hand's first upcard when known (Oklahoma).
    """

    how: How
    out: str | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    upcard: Card | None = None


@attrs.frozen
class HandScore:
    """A priced hand: who scored and how much (``winner`` None when nobody did)."""

    outcome: Outcome
    winner: str | None
    points: int
    winner_side: Literal["knocker", "defender"] | None = None


def price_hand(rules: Rules, result: HandResult, defender: str | None = None) -> HandScore:
    """Price one hand under ``rules``.

    ``defender`` names the other player, needed when an undercut gives them
    the points. A knock with no deadwood is priced as gin; gin cannot be
    undercut. Oklahoma's spade upcard doubles the hand.
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
    if defender is None:
        raise ValueError("price_hand needs the defender's name to price an undercut")
    return HandScore("undercut", defender, (k - d + rules.undercut_bonus) * mult, "defender")


@attrs.frozen
class FinalBonuses:
    """End-of-match bonuses, per player name."""

    game: dict[str, int]
    boxes: dict[str, int]
    shutout: dict[str, int]

    def total(self, player: str) -> int:
        return self.game.get(player, 0) + self.boxes.get(player, 0) + self.shutout.get(player, 0)


@attrs.frozen
class Tally:
    """Running score of a match, folded hand by hand.

    ``points`` counts hand points (plus boxes when ``box_timing`` is
    ``"hand"``); ``hands_won`` counts boxes. ``winner`` is set once a total
    reaches the target; after that nothing more may be added.

    >>> from ginlog.game.rules import preset
    >>> t = Tally.start(("Ann", "Bob"))
    >>> t = t.add(preset("standard"), HandScore("gin", "Ann", 100))
    >>> t.winner, t.final_totals(preset("standard"))
    ('Ann', {'Ann': 100, 'Bob': 0})
    """

    players: tuple[str, str]
    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    winner: str | None = None

    @classmethod
    def start(cls, players: Sequence[str]) -> Tally:
        a, b = players
        return cls((a, b))

    def index(self, player: str) -> int:
        return self.players.index(player)

    def add(self, rules: Rules, score: HandScore) -> Tally:
        """Fold one priced hand in; a hand after the match was won is an error."""
        if self.winner is not None:
            raise IllegalMove(f"the match is over: {self.winner} has won", rule="match-over")
        if score.winner is None:
            return self
        gained = score.points + rules.box_bonus if rules.box_timing == "hand" else score.points
        (a, b), (won_a, won_b) = self.points, self.hands_won
        if self.index(score.winner) == 0:
            points, won, total = (a + gained, b), (won_a + 1, won_b), a + gained
        else:
            points, won, total = (a, b + gained), (won_a, won_b + 1), b + gained
        target = rules.game_target
        winner = score.winner if target is not None and total >= target else None
        return Tally(self.players, points, won, winner)

    def totals(self) -> dict[str, int]:
        """Running totals, without end-of-match bonuses."""
        return dict(zip(self.players, self.points))

    def bonuses(self, rules: Rules) -> FinalBonuses:
        """The end-of-match bonuses (all zero until there is a winner)."""
        game: dict[str, int] = {}
        boxes: dict[str, int] = {}
        shutout: dict[str, int] = {}
        if self.winner is None:
            return FinalBonuses(game, boxes, shutout)
        w = self.index(self.winner)
        loser = 1 - w
        if rules.game_bonus:
            game[self.winner] = rules.game_bonus
        if rules.box_bonus and rules.box_timing == "end":
            for i, p in enumerate(self.players):
                if self.hands_won[i]:
                    boxes[p] = rules.box_bonus * self.hands_won[i]
        if self.points[loser] == 0 and rules.shutout != "none":
            if rules.shutout == "flat":
                shutout[self.winner] = rules.shutout_bonus
            else:  # double the winner's total, bonuses included
                shutout[self.winner] = self.points[w] + game.get(self.winner, 0) + boxes.get(self.winner, 0)
        return FinalBonuses(game, boxes, shutout)

    def final_totals(self, rules: Rules) -> dict[str, int]:
        """Totals with the end-of-match bonuses added."""
        b = self.bonuses(rules)
        return {p: self.points[i] + b.total(p) for i, p in enumerate(self.players)}

    def next_dealer(self, rules: Rules, dealer: str, score: HandScore) -> str:
        """Who deals the hand after one dealt by ``dealer`` that scored ``score``.

        A void hand is dealt again by the same dealer whatever the knob (both
        seeds say so); so is a hand nobody scored, except under ``alternate``.
        """
        if score.outcome == "void":
            return dealer
        if rules.next_dealer == "alternate":
            return self.players[1 - self.index(dealer)]
        if score.winner is None:
            return dealer
        if rules.next_dealer == "winner":
            return score.winner
        return self.players[1 - self.index(score.winner)]
