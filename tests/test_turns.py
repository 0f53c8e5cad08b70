"""The rules of a turn (:mod:`ginlog.play.turns`), by example through the reducer: the upcard offer, whose turn it
is, drawing and discarding, where a card can be.

Going out (a knock, gin, big gin) and the stock running out cross into the endings: ``tests/test_reducer.py``.
"""

from __future__ import annotations

import attrs

from reducing import (
    FULL, c, discard, full_passed, gin, hand_of, knock, more, opening, pass_, play, rule_of, show, stock,
    table_deal, table_knocked, take, who,
)


# ---------------------------------------------------------------------------
# The upcard offer


def test_the_non_dealer_is_offered_the_upcard_first() -> None:
    tl = play([*opening(), table_deal("7H")])
    assert (hand_of(tl).phase, who(hand_of(tl).turn)) == ("offer", "Bob")
    assert rule_of(tl, pass_("Ann")) == "turn-order"
    assert rule_of(tl, take("Ann")) == "turn-order"


def test_after_the_non_dealer_passes_the_dealer_is_offered_it() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob")])
    assert (hand_of(tl).phase, who(hand_of(tl).turn)) == ("offer", "Ann")
    assert rule_of(tl, pass_("Bob")) == "turn-order"
    assert rule_of(tl, stock("Ann")) == "upcard-offer"


def test_after_both_pass_the_non_dealer_must_draw_from_the_stock() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob"), pass_("Ann")])
    assert (hand_of(tl).phase, who(hand_of(tl).turn)) == ("draw", "Bob")
    assert rule_of(tl, take("Bob", "7H")) == "upcard-offer"
    assert rule_of(tl, pass_("Bob")) == "upcard-offer"
    assert rule_of(tl, stock("Ann")) == "turn-order"
    tl = more(tl, stock("Bob"))
    assert hand_of(tl).stock == 30 and hand_of(tl).phase == "discard"


def test_the_stock_is_not_drawn_during_the_offer() -> None:
    tl = play([*opening(), table_deal("7H")])
    assert rule_of(tl, stock("Bob")) == "upcard-offer"


def test_the_dealer_may_take_the_upcard_and_the_non_dealer_then_plays_a_normal_turn() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob"), take("Ann", "7H"), discard("Ann", "KS")])
    hand = hand_of(tl)
    assert (hand.phase, who(hand.turn), hand.pile) == ("draw", "Bob", (c("KS"),))
    tl = more(tl, take("Bob", "KS"))  # a normal turn may take the pile
    assert hand_of(tl).phase == "discard"


def test_taking_the_upcard_ends_the_offer() -> None:
    tl = play([*opening(), table_deal("7H"), take("Bob", "7H"), discard("Bob", "KS")])
    assert (who(hand_of(tl).turn), hand_of(tl).phase) == ("Ann", "draw")
    assert rule_of(tl, pass_("Ann")) == "upcard-offer"


def test_taking_the_upcard_then_discarding_it_is_illegal_under_standard() -> None:
    tl = play([*opening(), table_deal("7H"), take("Bob", "7H")])
    assert rule_of(tl, discard("Bob", "7H")) == "discard-taken-card"
    assert rule_of(tl, knock("Bob", "7H")) == "discard-taken-card"


def test_discarding_a_card_just_taken_from_the_pile_mid_hand_is_illegal() -> None:
    tl = table_knocked(discard("Bob", "2S"))
    tl = more(tl, take("Ann", "2S"))
    assert rule_of(tl, discard("Ann", "2S")) == "discard-taken-card"


def test_openspiel_may_discard_the_taken_card() -> None:
    tl = play([*opening("openspiel"), table_deal("7H"), take("Bob", "7H"), discard("Bob", "7H")])
    assert hand_of(tl).pile == (c("7H"),) and who(hand_of(tl).turn) == "Ann"


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    tl = full_passed(stock("Bob", "KH"), discard("Bob", "KH"))
    assert hand_of(tl).pile_top == c("KH")


# ---------------------------------------------------------------------------
# Turns, draws, discards


def test_wrong_turn_mid_hand() -> None:
    tl = full_passed(stock("Bob", "KH"), discard("Bob", "JH"))
    assert rule_of(tl, stock("Bob")) == "turn-order"
    assert rule_of(tl, discard("Bob", "9C")) == "turn-order"


def test_drawing_twice() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, stock("Bob")) == "draw-twice"
    assert rule_of(tl, take("Bob", "2C")) == "draw-twice"


def test_discarding_or_knocking_before_drawing() -> None:
    tl = full_passed()
    assert rule_of(tl, discard("Bob", "JH")) == "draw-first"
    assert rule_of(tl, knock("Bob", "JH")) == "draw-first"
    assert rule_of(tl, gin("Bob", "JH")) == "draw-first"


def test_discarding_a_card_on_the_pile() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob")])
    assert rule_of(tl, discard("Bob", "7H")) == "card-elsewhere"


def test_discarding_a_card_in_the_other_hand_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, discard("Bob", "QC")) == "card-elsewhere"


def test_discarding_a_card_still_in_the_stock_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, discard("Bob", "4D")) == "card-elsewhere"


def test_discarding_a_card_the_player_cannot_hold() -> None:
    # Both hands known, the stock order not: Bob's eleventh card is the unknown stock card.
    deal = attrs.evolve(FULL, stock=None)
    tl = play([*opening(), deal, pass_("Bob"), pass_("Ann"), stock("Bob"), discard("Bob", "AH")])
    assert hand_of(tl).pile_top == c("AH")
    # Ann's eleven cards are all known once she takes AH, and 5H is not one of them.
    assert rule_of(more(tl, take("Ann", "AH")), discard("Ann", "5H")) == "card-not-held"


def test_a_knocked_card_is_face_down_and_elsewhere() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S QC")) == "card-elsewhere"


def test_full_information_stock_order_is_enforced() -> None:
    tl = full_passed()
    assert rule_of(tl, stock("Bob", "4D")) == "stock-order"
    tl = more(tl, stock("Bob"))  # the card need not be named: it is known
    bob = tl.state.seat("Bob")
    assert hand_of(tl).known[bob] & c("KH").bit
    order = hand_of(tl).stock_order
    assert order is not None and order[0] == c("4D")


def test_the_pile_card_must_be_the_top_one() -> None:
    tl = full_passed(stock("Bob", "KH"), discard("Bob", "JH"))
    assert rule_of(tl, take("Ann", "2C")) == "pile-top"
