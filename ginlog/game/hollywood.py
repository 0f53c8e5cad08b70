"""Hollywood scoring: three games on one score sheet, a player's wins climbing into them.

The source is the Hollywood Gin page of rummy-games.com
(http://www.rummy-games.com/rules/hollywood-gin.html): "When a player first
wins a deal, his score is entered in Game 1. His second win is entered in
Game 1 and also in Game 2. His third and subsequent wins are scored in all
three games. Each game ends in the usual way, with due bonuses for game,
boxes, shutout. After a game has ended, subsequent scores apply only to
games still open. [...] If a player was shut out in one game, his next score
is entered as the first score in the next game in progress." So each game
closes when a total in it reaches ``game_target``, and gets the game bonus,
boxes (the hands each player won in that game) and shutout of the other
knobs, each game on its own; the match is over when all three are closed.
Whether a shut-out player moves on to the next game is a knob
(:attr:`~ginlog.game.rules.Hollywood.shut_out_moves_on`).

The seeds (``/work/shared/seeds/``) have no Hollywood; the source is the
rummy-games.com page above (the same rule as the older books': "a player who
is shut out in the first column must clearly make his first entry in the
second column"). Two choices no book spells out, stated (issue 21; measured
against an independent scorer, 440 matches agree once its reading is this):

- **After a shut-out the player's count starts again.** Their next win is
  the first score in the next game in progress, and the one after scores in
  that game and the game after it, as a first and second win would: a win
  enters every open game the player has scored in and the first open one they
  have not (:func:`games_entered`). The literal reading, where the count
  goes on (the shut-out player's second win overall is still "a second win",
  entered in games 1 and 2 only), scores 14 of 240 matches differently
  (issue 21's measurement). Both books found say only where the first entry goes and
  neither says the count goes on, so this is not a knob; a table that plays
  the other reading is a knob value to add to :class:`~ginlog.game.rules.Hollywood`.
- **The match goes to the higher sum of the three games**, each game's hand
  points and its own bonuses (:func:`match_winner`), not to whoever won more
  games: each game "is settled by the difference" of its totals, so the
  player ahead on the sheet as a whole has won the match (a player can win
  two games of three and lose the match).

This is a pure fold over priced hands, like :class:`ginlog.game.scoring.Tally`
(which calls it): the games are never recorded, always derived.

The worked example of ginrummy.cards (variations/hollywood-gin), seven hands
between You (seat 0) and Opp (seat 1):

>>> from ginlog.game.rules import preset
>>> rules, games, wins = preset("hollywood"), FRESH, [0, 0]
>>> for seat, points in [(0, 18), (1, 12), (0, 25), (1, 30), (0, 15), (0, 22), (1, 20)]:
...     games = add_win(rules, games, seat, wins[seat], points)
...     wins[seat] += 1
>>> [g.points for g in games]
[(80, 62), (62, 50), (37, 20)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from ginlog.game.bonuses import FinalBonuses, game_bonuses
from ginlog.game.rules import Hollywood, Rules
from ginlog.game.seats import Seat

__all__ = ["Game", "GAMES", "FRESH", "games_entered", "add_win", "match_winner"]

#: How many games a Hollywood sheet keeps at once.
GAMES: Final = 3


@attrs.frozen
class Game:
    """One of the three games: its hand points and hands won by seat, and its winner once closed.

    ``points`` count hand points (and boxes at once when ``box_timing`` is
    ``"hand"``), bonuses apart; ``hands_won`` are the hands each seat scored in
    this game (its boxes).
    """

    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    winner: Seat | None = None

    @property
    def closed(self) -> bool:
        return self.winner is not None

    def bonuses(self, rules: Rules) -> FinalBonuses:
        """The game's bonuses (none while it is open)."""
        return game_bonuses(rules, self.points, self.hands_won, self.winner)

    def final_totals(self, rules: Rules) -> tuple[int, int]:
        """The game's totals by seat with its bonuses (once it is closed)."""
        b = self.bonuses(rules)
        return (self.points[0] + b.total(0), self.points[1] + b.total(1))


#: The sheet before anybody has scored.
FRESH: Final = (Game(),) * GAMES


def games_entered(hollywood: Hollywood, games: Sequence[Game], seat: Seat, wins_before: int) -> tuple[int, ...]:
    """Which games (0-based) a winning hand of ``seat`` scores in, given its ``wins_before`` winning hands.

    With ``shut_out_moves_on`` (rummy-games.com): every open game the player
    has scored in, and the first open game they have not (so after a shut-out
    the count starts again in the game entered). Otherwise strictly by count:
    the player's n-th winning hand scores in the open games among games 1..n.

    >>> from ginlog.game.rules import Hollywood
    >>> game_1_won = (Game((100, 0), (1, 0), 0), Game(), Game())
    >>> games_entered(Hollywood(), game_1_won, 1, 0), games_entered(Hollywood(shut_out_moves_on=False), game_1_won, 1, 0)
    ((1,), ())
    """
    if not hollywood.shut_out_moves_on:
        return tuple(i for i in range(min(wins_before + 1, len(games))) if not games[i].closed)
    out = []
    for i, g in enumerate(games):
        if not g.closed:
            out.append(i)
            if not g.hands_won[seat]:
                break  # the first open game not yet entered, and none after it
    return tuple(out)


def add_win(rules: Rules, games: Sequence[Game], seat: Seat, wins_before: int, gained: int) -> tuple[Game, ...]:
    """The games after ``seat`` wins a hand worth ``gained``, having won ``wins_before`` before it.

    A game closes when the seat's total in it reaches ``game_target`` (never,
    when that is null); only one seat scores a hand, so only it can close one.
    """
    assert rules.hollywood is not None
    target = rules.game_target
    out = list(games)
    for i in games_entered(rules.hollywood, games, seat, wins_before):
        g = games[i]
        a, b = g.points
        wa, wb = g.hands_won
        points, won = ((a + gained, b), (wa + 1, wb)) if seat == 0 else ((a, b + gained), (wa, wb + 1))
        winner = seat if target is not None and points[seat] >= target else None
        out[i] = Game(points, won, winner)
    return tuple(out)


def match_winner(rules: Rules, games: Sequence[Game]) -> Seat | None:
    """Once every game is closed: the seat with more over the three games, bonuses included (None on a tie).

    Each game is settled by the difference of its totals, so the seat ahead
    on the sum of its final totals is ahead on the whole sheet.
    """
    if not all(g.closed for g in games):
        return None
    finals = [g.final_totals(rules) for g in games]
    a, b = sum(f[0] for f in finals), sum(f[1] for f in finals)
    return 0 if a > b else 1 if b > a else None
