"""Pricing: a hand result records facts; the rules turn them into points.

A :class:`HandResult` says only what happened (who went out, how, each side's
deadwood after lay-offs). :func:`price_hand` applies the rules to it, and
:class:`Tally` folds priced hands into a match: running totals, the winner at
the target, who deals next, boxes, the game bonus and the shutout (and,
under Hollywood scoring, the three games of :mod:`ginlog.game.hollywood`). Keeping
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
>>> price_hand(r, HandResult("points", scorer=1, points=25))   # a score pad's "Bob +25"
HandScore(outcome='points', winner=1, points=25, winner_side=None)

Who is who is a :data:`~ginlog.game.seats.Seat` (0 or 1) throughout: the
players' names never enter a result, a score or the tally.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

import attrs

from ginlog.errors import IllegalMove
from ginlog.game.bonuses import FinalBonuses, game_bonuses
from ginlog.game.cards import Card
from ginlog.game.hollywood import FRESH, Game, add_win, match_winner
from ginlog.game.rules import Rules
from ginlog.game.seats import OTHER, Seat
from ginlog.numbers import shown_int

__all__ = ["HandResult", "HandScore", "went_out", "price_hand", "most_hand_points", "check_hand_points", "Tally", "FinalBonuses", "running"]

How = Literal["knock", "gin", "big_gin", "void", "points"]
Outcome = Literal["knock", "undercut", "gin", "big_gin", "void", "points"]
OUTCOMES: Final = ("knock", "undercut", "gin", "big_gin", "void", "points")
#: The most deadwood ten cards leave (the reducer refuses more on a score pad).
MOST_DEADWOOD: Final = 98


@attrs.frozen
class HandResult:
    """The facts of a finished hand.

    ``how`` is how it ended; ``out`` the seat that knocked or went gin (None
    for a void); deadwood is what each side declared, the defender's after
    lay-offs. ``upcard`` is the hand's first upcard when known (Oklahoma).

    ``how="points"`` is a score pad's bare ``Ann +25``: nobody is known to
    have gone out and no deadwood is known, only that ``scorer`` won the hand
    for ``points`` (doublings included, as the pad wrote them). The rules
    still decide what a won hand brings besides (boxes, the game bonus).
    """

    how: How
    out: Seat | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    upcard: Card | None = None
    scorer: Seat | None = None
    points: int = 0


def went_out(result: HandResult) -> Literal["knock", "gin", "big_gin"] | None:
    """How the seat ``result.out`` went out, the one definition of a knock and a gin (issue 22).

    A gin is going out with no deadwood, however the record says it: a
    ``gin``, or a ``knock`` that leaves none (a score pad's ``knock 0``; every
    OpenSpiel gin is its knock action). A knock is going out with deadwood
    (1 or more), undercut or not. Big gin is its own. None for a void or a
    score pad's bare points. The pricing, ``stats`` and the export's ``how``
    all read it, so a hand is a knock or a gin the same way everywhere.

    >>> went_out(HandResult("knock", 0, 0, 12)), went_out(HandResult("knock", 0, 3, 12)), went_out(HandResult("void"))
    ('gin', 'knock', None)
    """
    how = result.how
    if how == "void" or how == "points":
        return None
    if how == "knock" and result.knocker_deadwood == 0:
        return "gin"
    return how


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
    the hand. A hand that scores 0 names no winner, whatever its outcome
    (gin with ``gin_bonus=0`` against a defender at 0, an undercut of equal
    deadwood with ``undercut_bonus=0``): nobody scored, as OpenSpiel's 0 and
    0 say, so no view, tally, box or dealer rule sees a hand won.

    >>> from ginlog.game.rules import preset
    >>> import attrs
    >>> price_hand(attrs.evolve(preset("openspiel"), gin_bonus=0), HandResult("gin", 0, 0, 0))
    HandScore(outcome='gin', winner=None, points=0, winner_side=None)
    """
    score = _price(rules, result)
    if score.points == 0 and score.winner is not None:
        return HandScore(score.outcome, None, 0)
    return score


def _price(rules: Rules, result: HandResult) -> HandScore:
    """:func:`price_hand` before its one rule for a hand that scores nothing."""
    how = result.how
    if how == "void":
        return HandScore("void", None, 0)
    if how == "points":
        if result.scorer is None:
            raise ValueError("a points-only hand needs the seat that scored ('scorer') to be priced")
        return HandScore("points", result.scorer, result.points)
    k, d = result.knocker_deadwood, result.defender_deadwood
    mult = rules.multiplier_for(result.upcard) if result.upcard is not None else 1
    if how == "big_gin":
        if rules.big_gin_bonus is None:
            raise IllegalMove("big gin is not played under these rules", rule="big-gin-off")
        return HandScore("big_gin", result.out, (rules.big_gin_bonus + d) * mult, "knocker")
    if went_out(result) == "gin":
        return HandScore("gin", result.out, (rules.gin_bonus + d) * mult, "knocker")
    if k < d:
        return HandScore("knock", result.out, (d - k) * mult, "knocker")
    if k == d and not rules.undercut_on_tie:
        return HandScore("knock", None, 0)
    if result.out is None:
        raise ValueError("a knock needs the seat that knocked ('out') to be priced")
    return HandScore("undercut", OTHER[result.out], (k - d + rules.undercut_bonus) * mult, "defender")


def most_hand_points(rules: Rules) -> int:
    """The most one hand can score under ``rules`` (before boxes): a bound for a score pad's bare points.

    Gin (or big gin) against the most deadwood, or an undercut of the highest
    knock by a defender with none, whichever is more; doubled when Oklahoma's
    spade upcard doubles.

    >>> from ginlog.game.rules import preset
    >>> most_hand_points(preset("standard")), most_hand_points(preset("oklahoma"))
    (118, 236)
    """
    return _most(rules)[0]


def _most(rules: Rules) -> tuple[int, str]:
    """:func:`most_hand_points` and how a hand scores it, in words."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus or 0)
    knock = min(max(rules.knock_limit, 10), MOST_DEADWOOD)
    gin = MOST_DEADWOOD + bonus
    undercut = knock + rules.undercut_bonus
    most, how = (gin, f"gin {bonus} + {MOST_DEADWOOD} deadwood") if gin >= undercut else (
        undercut, f"an undercut of {knock} + {rules.undercut_bonus}"
    )
    if rules.oklahoma is not None and rules.oklahoma.spades_double:
        return most * 2, how + ", doubled"
    return most, how


def check_hand_points(rules: Rules, points: int) -> None:
    """Refuse (``result``) points no hand scores under ``rules``: a score pad's bare ``Ann +POINTS``.

    >>> from ginlog.game.rules import preset
    >>> check_hand_points(preset("standard"), 25)
    >>> check_hand_points(preset("standard"), 99999999999)
    Traceback (most recent call last):
    ...
    ginlog.errors.IllegalMove: a hand scores 1 to 118 points under these rules (at most gin 20 + 98 deadwood), not 99999999999 [result]
    """
    most, how = _most(rules)
    if not 1 <= points <= most:
        raise IllegalMove(
            f"a hand scores 1 to {most} points under these rules (at most {how}), not {shown_int(points)}", rule="result"
        )


@attrs.frozen
class Tally:
    """Running score of a match, folded hand by hand, per seat.

    ``points`` counts hand points (plus boxes when ``box_timing`` is
    ``"hand"``); ``hands_won`` counts the hands each seat won. ``winner`` (a
    seat) is set once a total reaches the target; :attr:`over` says the match
    is over, and after that nothing more may be added.

    Under Hollywood scoring (:mod:`ginlog.game.hollywood`) ``games`` holds the
    three games (empty until the first hand scores), ``points`` is the sum of
    their hand points, and the match is over when all three are closed; its
    ``winner`` is then the seat ahead over the three (None on a tie).

    >>> from ginlog.game.rules import preset
    >>> t = Tally().add(preset("standard"), HandScore("gin", 0, 100))
    >>> t.winner, t.over, t.final_totals(preset("standard"))
    (0, True, (100, 0))
    >>> h = Tally().add(preset("hollywood"), HandScore("gin", 0, 100))
    >>> h.over, [g.closed for g in h.games], h.points
    (False, [True, False, False], (100, 0))
    """

    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    winner: Seat | None = None
    games: tuple[Game, ...] = ()

    @property
    def over(self) -> bool:
        """The match is over: the target reached (under Hollywood: all three games closed)."""
        if self.games:
            return all(g.closed for g in self.games)
        return self.winner is not None

    def add(self, rules: Rules, score: HandScore) -> Tally:
        """Fold one priced hand in; a hand after the match is over is an error."""
        if self.over:
            raise IllegalMove("the match is over: no more hands may be scored", rule="match-over")
        w = score.winner
        if w is None:
            return self
        gained = score.points + rules.box_bonus if rules.box_timing == "hand" else score.points
        won_a, won_b = self.hands_won
        won = (won_a + 1, won_b) if w == 0 else (won_a, won_b + 1)
        if rules.hollywood is not None:
            games = add_win(rules, self.games or FRESH, w, self.hands_won[w], gained)
            points = (sum(g.points[0] for g in games), sum(g.points[1] for g in games))
            return Tally(points, won, match_winner(rules, games), games)
        a, b = self.points
        points = (a + gained, b) if w == 0 else (a, b + gained)
        target = rules.game_target
        winner = w if target is not None and points[w] >= target else None
        return Tally(points, won, winner)

    def totals(self) -> tuple[int, int]:
        """Running totals by seat, without end-of-match bonuses."""
        return self.points

    def hollywood_games(self, rules: Rules) -> tuple[Game, ...]:
        """Hollywood's three games (fresh ones before any hand scored); () when Hollywood is off."""
        if rules.hollywood is None:
            return ()
        return self.games or FRESH

    def bonuses(self, rules: Rules) -> FinalBonuses:
        """The end-of-match bonuses (none until the match is over; under Hollywood, the three games' together)."""
        if self.games:
            if not self.over:
                return FinalBonuses()
            total = FinalBonuses()
            for g in self.games:
                total += g.bonuses(rules)
            return total
        return game_bonuses(rules, self.points, self.hands_won, self.winner)

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


def running(rules: Rules, scores: Iterable[HandScore]) -> Iterator[Tally]:
    """The tally after each of ``scores`` in turn, from an empty one (what a score sheet shows row by row).

    >>> from ginlog.game.rules import preset
    >>> [t.points for t in running(preset("standard"), [HandScore("knock", 1, 8), HandScore("void", None, 0)])]
    [(0, 8), (0, 8)]
    """
    tally = Tally()
    for score in scores:
        tally = tally.add(rules, score)
        yield tally
