"""Pricing hands and folding them into a match. Every expected number is worked out in a comment."""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import pytest

from ginlog.game.cards import parse_card
from ginlog.errors import IllegalMove
from ginlog.game.rules import Rules, preset, with_knobs
from ginlog.game.scoring import HandResult, HandScore, Tally, price_hand
from ginlog.game.seats import Seat

ANN: Seat = 0  # the seats of Ann and Bob; scoring never sees a name
BOB: Seat = 1


def knock(out: Seat, knocker: int, defender: int, upcard: str | None = None) -> HandResult:
    return HandResult("knock", out, knocker, defender, parse_card(upcard) if upcard else None)


def gin(out: Seat, defender: int, upcard: str | None = None) -> HandResult:
    return HandResult("gin", out, 0, defender, parse_card(upcard) if upcard else None)


def price(rules: Rules, result: HandResult) -> HandScore:
    """Price a hand someone went out of (the other seat defends)."""
    assert result.out is not None
    return price_hand(rules, result)


def play(rules: Rules, results: Iterable[HandResult]) -> Tally:
    tally = Tally()
    for result in results:
        score = HandScore("void", None, 0) if result.how == "void" else price(rules, result)
        tally = tally.add(rules, score)
    return tally


# ---------------------------------------------------------------------------
# One hand


def test_knock_knocker_lower() -> None:
    # The how-to guide: knock with 6 against 14, the knocker scores 8.
    s = price(preset("standard"), knock(ANN, 6, 14))
    assert (s.outcome, s.winner, s.points, s.winner_side) == ("knock", ANN, 8, "knocker")


def test_undercut() -> None:
    # The how-to guide: knock with 8 against 5, the defender scores 3 + 10 = 13.
    s = price(preset("standard"), knock(ANN, 8, 5))
    assert (s.outcome, s.winner, s.points, s.winner_side) == ("undercut", BOB, 13, "defender")
    # Modern's undercut bonus is 25: 3 + 25 = 28.
    assert price(preset("modern"), knock(ANN, 8, 5)).points == 28


def test_gin_bonus_standard_and_newspaper() -> None:
    # Gin: bonus plus the defender's deadwood; 20 in the how-to guide, 25 in the newspaper.
    s = price(preset("standard"), gin(ANN, 30))
    assert (s.outcome, s.winner, s.points) == ("gin", ANN, 20 + 30)
    assert price(preset("newspaper"), gin(ANN, 30)).points == 25 + 30
    # Gin cannot be undercut: a defender with nothing left still loses 20 + 0.
    g = price(preset("standard"), gin(ANN, 0))
    assert (g.outcome, g.winner, g.points) == ("gin", ANN, 20)


def test_tie_is_an_undercut_when_the_knob_says_so() -> None:
    # Knock 7 against 7: under undercut_on_tie the defender scores 0 + 10.
    s = price(preset("standard"), knock(ANN, 7, 7))
    assert (s.outcome, s.winner, s.points, s.winner_side) == ("undercut", BOB, 10, "defender")


def test_tie_scores_nothing_when_not_an_undercut() -> None:
    # OpenSpiel: a tie scores 0 for nobody.
    s = price(preset("openspiel"), knock(ANN, 7, 7))
    assert s.winner is None and s.points == 0
    assert s.outcome != "undercut"
    tally = Tally().add(preset("openspiel"), s)
    assert tally.totals() == (0, 0)
    assert tally.hands_won == (0, 0)
    # Off the tie it still undercuts: knock 7 against 6 gives 1 + 25.
    assert price(preset("openspiel"), knock(ANN, 7, 6)).points == 26


def test_knock_with_no_deadwood_is_priced_as_gin() -> None:
    s = price(preset("standard"), knock(ANN, 0, 14))
    assert (s.outcome, s.winner, s.points) == ("gin", ANN, 20 + 14)


def test_big_gin() -> None:
    # Modern: big gin 31 + the defender's 17 = 48.
    s = price(preset("modern"), HandResult("big_gin", ANN, 0, 17))
    assert (s.outcome, s.winner, s.points) == ("big_gin", ANN, 48)
    with pytest.raises(IllegalMove) as info:
        price(preset("standard"), HandResult("big_gin", ANN, 0, 17))
    assert info.value.rule == "big-gin-off"


def test_void_hand() -> None:
    s = price_hand(preset("standard"), HandResult("void"))
    assert (s.outcome, s.winner, s.points) == ("void", None, 0)


# ---------------------------------------------------------------------------
# Oklahoma


def test_oklahoma_ace_upcard_gin_only() -> None:
    ok = preset("oklahoma")
    # An ace upcard: knock limit 0, so only gin; a heart does not double: 20 + 12.
    assert ok.knock_limit_for(parse_card("AH")) == 0
    assert price(ok, gin(ANN, 12, upcard="AH")).points == 32
    # Ace of spades: gin only, and doubled: (20 + 12) * 2.
    assert ok.knock_limit_for(parse_card("AS")) == 0
    assert price(ok, gin(ANN, 12, upcard="AS")).points == 64
    # With the ace knob at "one" a knock with 1 is allowed.
    assert with_knobs(ok, oklahoma="one").knock_limit_for(parse_card("AH")) == 1


def test_oklahoma_spade_upcard_doubles_the_hand() -> None:
    ok = preset("oklahoma")
    # Knock 3 against 20 with the 7 of spades up: (20 - 3) * 2 = 34; the 7 of hearts: 17.
    assert price(ok, knock(ANN, 3, 20, upcard="7S")).points == 34
    assert price(ok, knock(ANN, 3, 20, upcard="7H")).points == 17
    # Gin, bonus included: (20 + 9) * 2 = 58.
    assert price(ok, gin(ANN, 9, upcard="KS")).points == 58
    # An undercut too: knock 6 against 2, (4 + 10) * 2 = 28 to the defender.
    u = price(ok, knock(ANN, 6, 2, upcard="6S"))
    assert (u.winner, u.points) == (BOB, 28)
    # No doubling without Oklahoma, nor with its doubling turned off.
    assert price(preset("standard"), knock(ANN, 3, 20, upcard="7S")).points == 17
    assert price(with_knobs(ok, oklahoma="gin-nodouble"), knock(ANN, 3, 20, upcard="7S")).points == 17


# ---------------------------------------------------------------------------
# A match


def test_modern_match_with_a_shutout() -> None:
    rules = preset("modern")  # gin 25, game 100, box 25 at the end, shutout doubles
    hands = [
        gin(ANN, 30),  # 25 + 30 = 55            Ann 55
        knock(ANN, 3, 20),  # 20 - 3 = 17        Ann 72
        HandResult("void"),  # nobody            Ann 72
        gin(ANN, 8),  # 25 + 8 = 33              Ann 105: over 100, Ann wins
    ]
    tally = play(rules, hands)
    assert tally.winner == ANN
    assert tally.totals() == (105, 0)
    assert tally.hands_won == (3, 0)
    b = tally.bonuses(rules)
    assert b.game == (100, None)  # per seat: Ann's, Bob's (None: not awarded)
    assert b.boxes == (3 * 25, None)
    # Bob scored nothing: Ann's total, bonuses included, doubles: (105 + 100 + 75) * 2 = 560.
    assert tally.final_totals(rules) == (560, 0)


def test_modern_match_without_a_shutout() -> None:
    rules = preset("modern")  # gin 25, undercut 25
    hands = [
        knock(ANN, 4, 19),  # Ann 15                     Ann 15, Bob 0
        gin(BOB, 12),  # Bob 25 + 12 = 37                 Ann 15, Bob 37
        knock(ANN, 9, 6),  # undercut: Bob 3 + 25 = 28    Ann 15, Bob 65
        HandResult("void"),
        gin(ANN, 30),  # Ann 25 + 30 = 55                 Ann 70, Bob 65
        knock(ANN, 2, 33),  # Ann 31                      Ann 101: Ann wins
    ]
    tally = play(rules, hands)
    assert tally.winner == ANN
    assert tally.totals() == (101, 65)
    assert tally.hands_won == (3, 2)
    b = tally.bonuses(rules)
    assert b.game == (100, None)
    assert b.boxes == (75, 50)  # the loser's boxes count too
    assert b.shutout == (None, None)
    # Ann 101 + 100 + 75 = 276; Bob 65 + 50 = 115.
    assert tally.final_totals(rules) == (276, 115)


def test_classic_flat_shutout() -> None:
    rules = preset("classic")  # gin 20, game 100, box 20, shutout +100
    tally = play(rules, [gin(ANN, 40), gin(ANN, 25)])  # 60, then 45: 105
    assert tally.winner == ANN
    assert tally.bonuses(rules).shutout == (100, None)
    # 105 + 100 game + 2 * 20 boxes + 100 shutout = 345.
    assert tally.final_totals(rules) == (345, 0)


def test_standard_match_has_no_bonuses() -> None:
    rules = preset("standard")
    tally = play(rules, [gin(ANN, 40), knock(BOB, 2, 10), gin(ANN, 25)])  # Ann 60, Bob 8, Ann 105
    assert tally.winner == ANN
    assert tally.final_totals(rules) == (105, 8)


def test_no_winner_below_the_target() -> None:
    rules = preset("modern")
    tally = play(rules, [gin(ANN, 30), gin(BOB, 40)])  # Ann 55, Bob 65
    assert tally.winner is None
    b = tally.bonuses(rules)
    assert b.game == b.boxes == b.shutout == (None, None)
    assert tally.final_totals(rules) == (55, 65)


def test_target_reached_exactly() -> None:
    tally = play(preset("standard"), [gin(ANN, 80)])  # 20 + 80 = 100: "at least 100"
    assert tally.winner == ANN


def test_oklahoma_goes_to_150() -> None:
    ok = preset("oklahoma")
    tally = play(ok, [gin(ANN, 90)])  # 20 + 90 = 110: not yet under Oklahoma
    assert tally.winner is None
    tally = tally.add(ok, price(ok, gin(ANN, 30)))  # + 50 = 160
    assert tally.winner == ANN


def test_boxes_at_once_count_toward_the_target() -> None:
    at_once = attrs.evolve(preset("modern"), box_timing="hand")
    assert at_once == with_knobs(preset("modern"), box_timing="hand")
    # Gin 25 + 50 = 75, and the box of 25 at once: 100, which wins.
    tally = play(at_once, [gin(ANN, 50)])
    assert tally.totals() == (100, 0)
    assert tally.winner == ANN
    b = tally.bonuses(at_once)
    assert b.boxes == (None, None)  # not added a second time at the end
    # Game 100; Bob scored nothing, so (100 + 100) * 2 = 400.
    assert tally.final_totals(at_once) == (400, 0)
    # With boxes at the end, the same hand leaves Ann at 75.
    assert play(preset("modern"), [gin(ANN, 50)]).winner is None


def test_undercut_that_ends_the_match_rewards_the_defender() -> None:
    # REGRESSION: the defender who undercuts wins the match and takes the game
    # bonus and their boxes; the knocker does not.
    rules = preset("modern")  # undercut 25
    hands = [
        gin(ANN, 30),  # Ann 55
        gin(BOB, 50),  # Bob 25 + 50 = 75
        knock(ANN, 10, 0),  # Ann knocks with 10, Bob has 0: Bob 10 + 25 = 35, Bob 110
    ]
    tally = play(rules, hands)
    last = price(rules, hands[-1])
    assert (last.outcome, last.winner, last.winner_side) == ("undercut", BOB, "defender")
    assert tally.winner == BOB
    assert tally.totals() == (55, 110)
    assert tally.hands_won == (1, 2)
    b = tally.bonuses(rules)
    assert b.game == (None, 100)
    assert b.boxes == (25, 50)
    assert b.shutout == (None, None)
    # Bob 110 + 100 + 50 = 260; Ann 55 + 25 = 80.
    assert tally.final_totals(rules) == (80, 260)


def test_adding_a_hand_after_the_match_is_won() -> None:
    rules = preset("standard")
    tally = play(rules, [gin(ANN, 90)])  # 110
    assert tally.winner == ANN
    for score in (price(rules, gin(BOB, 10)), HandScore("void", None, 0)):
        with pytest.raises(IllegalMove) as info:
            tally.add(rules, score)
        assert info.value.rule == "match-over"


def test_single_hand_rules_never_finish_a_match() -> None:
    ops = preset("openspiel")
    tally = play(ops, [gin(ANN, 200)])
    assert tally.winner is None and tally.totals() == (225, 0)


# ---------------------------------------------------------------------------
# Who deals next


@pytest.mark.parametrize(
    ("knob", "dealer", "hand_winner", "expected"),
    [
        ("winner", ANN, BOB, BOB),
        ("winner", ANN, ANN, ANN),
        ("winner", BOB, ANN, ANN),
        ("loser", ANN, BOB, ANN),
        ("loser", ANN, ANN, BOB),
        ("loser", BOB, BOB, ANN),
        ("alternate", ANN, BOB, BOB),
        ("alternate", ANN, ANN, BOB),
        ("alternate", BOB, BOB, ANN),
    ],
)
def test_next_dealer(knob: str, dealer: Seat, hand_winner: Seat, expected: Seat) -> None:
    rules = with_knobs(preset("standard"), next_dealer=knob)
    score = price(rules, gin(hand_winner, 10))
    assert Tally().next_dealer(rules, dealer, score) == expected


@pytest.mark.parametrize("knob", ["winner", "loser", "alternate"])
@pytest.mark.parametrize("dealer", [ANN, BOB])
def test_void_hand_same_dealer_under_every_knob(knob: str, dealer: Seat) -> None:
    rules = with_knobs(preset("standard"), next_dealer=knob)
    void = price_hand(rules, HandResult("void"))
    assert Tally().next_dealer(rules, dealer, void) == dealer


def test_undercut_winner_is_the_defender_for_the_deal() -> None:
    rules = preset("standard")  # winner deals
    score = price(rules, knock(ANN, 8, 5))  # Bob undercuts
    assert Tally().next_dealer(rules, ANN, score) == BOB


def test_a_bonus_of_nothing_is_still_awarded() -> None:
    # A flat shutout of 0 is awarded (it shows on the sheet as 0); a bonus the rules never give is None.
    rules = with_knobs(preset("classic"), shutout_bonus="0")
    b = play(rules, [gin(BOB, 90)]).bonuses(rules)  # Bob 110, Ann nothing
    assert (b.shutout, b.game) == ((None, 0), (None, rules.game_bonus))
    assert b.total(BOB) == rules.game_bonus + 20 and b.total(ANN) == 0  # game bonus plus one box of 20
