"""End-of-game bonuses (:mod:`ginlog.game.bonuses`): the game bonus, boxes and the shutout, against the rule book's
words worked by hand here, for every preset and both box timings.

A whole match's bonuses on its score sheet (Hollywood's three games among them) are in ``tests/test_hollywood.py``.
"""

from __future__ import annotations

import itertools

import pytest

from ginlog.game.bonuses import FinalBonuses, game_bonuses
from ginlog.game.rules import PRESETS, Rules, preset, with_knobs
from ginlog.game.seats import Seat


def by_hand(rules: Rules, points: tuple[int, int], won: tuple[int, int], winner: Seat) -> dict[str, dict[int, int]]:
    """The bonuses as the rule book says them, by seat, only those awarded."""
    loser = 1 - winner
    out: dict[str, dict[int, int]] = {"game": {}, "boxes": {}, "shutout": {}}
    if rules.game_bonus:
        out["game"][winner] = rules.game_bonus
    if rules.box_bonus and rules.box_timing == "end":  # "hand": the boxes are in the points already
        out["boxes"] = {seat: rules.box_bonus * n for seat, n in enumerate(won) if n}
    if points[loser] == 0 and rules.shutout == "flat":
        out["shutout"][winner] = rules.shutout_bonus
    elif points[loser] == 0 and rules.shutout == "double":  # the winner's whole total once more
        out["shutout"][winner] = points[winner] + out["game"].get(winner, 0) + out["boxes"].get(winner, 0)
    return out


def awarded(b: FinalBonuses) -> dict[str, dict[int, int]]:
    return {kind: {seat: v for seat, v in enumerate(getattr(b, kind)) if v is not None}
            for kind in ("game", "boxes", "shutout")}


RULES = [*(preset(name) for name in sorted(PRESETS)), with_knobs(preset("modern"), box_timing="hand")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game_bonus}-{r.box_bonus}-{r.box_timing}-{r.shutout}")
def test_the_bonuses_are_the_rule_books(rules: Rules) -> None:
    for points, won, winner in itertools.product([(104, 0), (120, 35), (0, 101), (55, 0)],
                                                 [(3, 0), (2, 1), (0, 4)], (0, 1)):
        w: Seat = 0 if winner == 0 else 1
        b = game_bonuses(rules, points, won, w)
        expected = by_hand(rules, points, won, w)
        assert awarded(b) == expected, (points, won, winner)
        for seat in (0, 1):
            assert b.total(seat) == sum(kind.get(seat, 0) for kind in expected.values())


def test_no_winner_no_bonuses_and_two_games_add_up() -> None:
    rules = preset("classic")
    assert game_bonuses(rules, (90, 0), (3, 0), None) == FinalBonuses()
    one, two = game_bonuses(rules, (104, 0), (3, 0), 0), game_bonuses(rules, (12, 100), (1, 2), 1)
    both = one + two
    for kind in ("game", "boxes", "shutout"):  # an award where either game has one, summed where both do
        a, b = awarded(one)[kind], awarded(two)[kind]
        assert awarded(both)[kind] == {s: a.get(s, 0) + b.get(s, 0) for s in {*a, *b}}
    assert both.total(0) + both.total(1) == sum(x.total(s) for x in (one, two) for s in (0, 1))
