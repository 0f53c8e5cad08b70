"""Every rule of play, by example, through the reducer's public API (start / apply / fold)."""

from __future__ import annotations

import random

import attrs
import pytest

from ginlog.game.cards import DECK, Card, parse_card, parse_cards
from ginlog.errors import IllegalMove
from ginlog.log.events import (
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchStarted,
    Note,
    UpcardPassed,
)
from ginlog.play.reducer import apply, fold, start
from ginlog.game.rules import Oklahoma, Rules, preset
from ginlog.game.seats import Seat
from ginlog.play.state import FinishedHand, HandState, Shown, Timeline

# ---------------------------------------------------------------------------
# Helpers: Ann and Bob; Ann deals unless told otherwise, so Bob is the non-dealer.


def c(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def rules_of(rules: str | Rules) -> Rules:
    return preset(rules) if isinstance(rules, str) else rules


def opening(rules: str | Rules = "standard", dealer: str = "Ann") -> list[Event]:
    return [MatchStarted(players=("Ann", "Bob"), rules=rules_of(rules)), FirstDealer(dealer=dealer, how="agreed")]


def play(events: list[Event]) -> Timeline:
    return fold(events)


def more(tl: Timeline, *events: Event) -> Timeline:
    for ev in events:
        tl = apply(tl, ev)
    return tl


def rule_of(tl: Timeline, event: Event) -> str:
    """The rule the event breaks (it must be illegal)."""
    with pytest.raises(IllegalMove) as info:
        apply(tl, event)
    return info.value.rule


def table_deal(upcard: str, dealer: str = "Ann") -> HandDealt:
    return HandDealt(dealer=dealer, upcard=c(upcard))


def full_deal(bob: str, ann: str, upcard: str, stock_top: str = "", dealer: str = "Ann") -> HandDealt:
    """Both hands and the whole stock: ``stock_top`` first, then the other cards in a fixed shuffle."""
    hands = {"Bob": tuple(sorted(cs(bob))), "Ann": tuple(sorted(cs(ann)))}
    top = list(cs(stock_top))
    used = set(hands["Bob"]) | set(hands["Ann"]) | {c(upcard)} | set(top)
    rest = [card for card in DECK if card not in used]
    random.Random(0).shuffle(rest)
    return HandDealt(dealer=dealer, upcard=c(upcard), hands=hands, stock=tuple(top + rest))


def pass_(p: str) -> UpcardPassed:
    return UpcardPassed(player=p)


def stock(p: str, card: str | None = None) -> CardDrawn:
    return CardDrawn(player=p, source="stock", card=c(card) if card else None)


def take(p: str, card: str | None = None) -> CardDrawn:
    return CardDrawn(player=p, source="pile", card=c(card) if card else None)


def discard(p: str, card: str) -> CardDiscarded:
    return CardDiscarded(player=p, card=c(card))


def knock(p: str, card: str) -> Knocked:
    return Knocked(player=p, card=c(card))


def gin(p: str, card: str) -> Gin:
    return Gin(player=p, card=c(card))


def show(p: str, cards: str, melds: list[str] | None = None, layoffs: str | None = None) -> HandShown:
    return HandShown(
        player=p,
        cards=cs(cards),
        melds=tuple(cs(m) for m in melds) if melds is not None else None,
        layoffs=cs(layoffs) if layoffs is not None else None,
    )


def hand_of(tl: Timeline) -> HandState:
    """The hand being played (there must be one)."""
    assert tl.state.hand is not None, "no hand in play"
    return tl.state.hand


def last_hand(tl: Timeline) -> FinishedHand:
    return tl.state.hands[-1]


def shown_by(fh: FinishedHand, player: str) -> Shown:
    return next(s for s in fh.shown if s.player == SEATS[player])


# The state says who by seat; these tests say it by name (Ann sits first).
PLAYERS = ("Ann", "Bob")
SEATS = {"Ann": 0, "Bob": 1}


def who(seat: Seat | None) -> str | None:
    return None if seat is None else PLAYERS[seat]


def by_name(per_seat: tuple[int, int]) -> dict[str, int]:
    return dict(zip(PLAYERS, per_seat))


# A full-information hand (Ann deals, upcard 2C).
#   Bob: 5S 6S 7S  2H 3H 4H  KC KD  9C JH      stock: KH 4D 7C 5C AC ...
#   Ann: 8S 9S  AD 2D 3D  QC QS 6C 4C TD
BOB = "5S 6S 7S 2H 3H 4H KC KD 9C JH"
ANN = "8S 9S AD 2D 3D QC QS 6C 4C TD"
FULL = full_deal(BOB, ANN, "2C", "KH 4D 7C 5C AC")


def full(rules: str | Rules = "standard", *events: Event) -> Timeline:
    return play([*opening(rules), FULL, *events])


def full_passed(*events: Event) -> Timeline:
    return full("standard", pass_("Bob"), pass_("Ann"), *events)


# The same hand played to Bob's knock (Bob 1 deadwood; Ann can lay off 8S then 9S onto 5S 6S 7S).
TO_KNOCK: list[Event] = [
    pass_("Bob"), pass_("Ann"),
    stock("Bob", "KH"), discard("Bob", "JH"),
    stock("Ann", "4D"), discard("Ann", "QS"),
    stock("Bob", "7C"), discard("Bob", "7C"),
    stock("Ann", "5C"), discard("Ann", "TD"),
    stock("Bob", "AC"), knock("Bob", "9C"),
]
BOB_SHOWS = show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC")
ANN_CARDS = "8S 9S AD 2D 3D 4D QC 4C 5C 6C"

# A full-information hand where Bob's first stock card (8S) makes all ten of his cards melded.
GIN_BOB = "5S 6S 7S 2H 3H 4H KC KD KH 9C"
GIN_ANN = "9S 4S AD 2D 3D QC QS 6C 4C TD"  # AD 2D 3D melded; 9+4+10+10+6+4+10 = 53 deadwood
GIN_DEAL = full_deal(GIN_BOB, GIN_ANN, "2C", "8S")


def gin_ready(rules: str | Rules = "standard", deal: HandDealt = GIN_DEAL) -> Timeline:
    return play([*opening(rules), deal, pass_("Bob"), pass_("Ann"), stock("Bob", "8S")])


# The worked example of the issue, in table view (Ann deals, upcard 7H).
EX_BOB = "2H 3H 4H 8C 8D 8S 5S 6S 7S AD"
EX_ANN = "5H 6H 8H JC QH KD 9D 9C 4C TD"


def example_knocked(rules: str | Rules = "standard") -> Timeline:
    return play([*opening(rules), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])


# A table-view hand with a pile draw: Bob throws 9D, Ann takes it and throws KS; Bob knocks QC.
def table_knocked(end: Event | None = None) -> Timeline:
    return play([
        *opening(), table_deal("7H"), pass_("Bob"), pass_("Ann"),
        stock("Bob"), discard("Bob", "9D"),
        take("Ann", "9D"), discard("Ann", "KS"),
        stock("Bob"), end or knock("Bob", "QC"),
    ])


def result(how: str, out: str | None = None, k: int = 0, d: int = 0, **kw: object) -> HandResultOnly:
    return HandResultOnly(how=how, out=out, knocker_deadwood=k, defender_deadwood=d, **kw)  # type: ignore[arg-type]


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


# ---------------------------------------------------------------------------
# Table-view consistency at the show


def test_table_view_show_of_the_wrong_size() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S")) == "hand-size"
    assert rule_of(tl, show("Bob", EX_BOB + " AC")) == "hand-size"


def test_table_view_show_of_a_card_discarded_earlier() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S KS")) == "card-elsewhere"  # Ann threw KS
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 7H")) == "card-elsewhere"  # the upcard


def test_table_view_show_of_a_card_the_other_player_took() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9D")) == "card-elsewhere"


def test_table_view_a_card_taken_from_the_pile_must_be_shown() -> None:
    tl = more(table_knocked(), show("Bob", EX_BOB))
    assert rule_of(tl, show("Ann", "5H 6H 8H JC QH KD 9S 9C 4C TD")) == "card-not-shown"
    tl = more(tl, show("Ann", "5H 6H 8H JC QH KD 9D 9C 4C TD"))
    assert tl.state.phase == "ready"


def test_the_defender_cannot_show_the_knockers_cards() -> None:
    tl = more(table_knocked(), show("Bob", EX_BOB))
    assert rule_of(tl, show("Ann", "5H 6H 8H JC QH KD 9D 9C 4C AD")) == "card-elsewhere"


# ---------------------------------------------------------------------------
# Going out


def test_knock_over_the_limit_is_refused_at_the_knock_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, knock("Bob", "5S")) == "knock-limit"  # leaves 5+6+7+9+10 = 37
    tl = more(tl, knock("Bob", "JH"))  # leaves 9C: 9
    assert hand_of(tl).phase == "show"


def test_knock_at_exactly_the_limit_is_allowed() -> None:
    tl = more(example_knocked(), show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD"))
    assert hand_of(tl).phase == "defend"


def test_knock_over_the_limit_is_refused_at_the_show_in_table_view() -> None:
    tl = example_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S AD KH")) == "knock-limit"  # 22
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S JD AS")) == "hand-size"


def test_newspaper_knock_limit_is_nine() -> None:
    tl = example_knocked("newspaper")
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD")) == "knock-limit"
    assert hand_of(more(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9H"))).phase == "defend"


def test_gin_with_deadwood_is_refused_at_the_gin_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, gin("Bob", "JH")) == "not-gin"


def test_gin_with_deadwood_is_refused_at_the_show_in_table_view() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob"), gin("Bob", "QC")])
    assert rule_of(tl, show("Bob", EX_BOB)) == "not-gin"


def test_a_knock_with_no_deadwood_is_scored_as_gin() -> None:
    tl = more(gin_ready(), knock("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"))
    assert rule_of(tl, show("Ann", GIN_ANN, layoffs="9S")) == "layoff-after-gin"
    tl = more(tl, show("Ann", GIN_ANN))
    fh = last_hand(tl)
    assert (fh.result.how, fh.score.outcome, who(fh.score.winner), fh.score.points) == ("gin", "gin", "Bob", 20 + 53)
    assert shown_by(fh, "Ann").layoffs == ()  # 9S would extend 5S-8S, but not after gin


def test_gin_scores_the_bonus_plus_the_defenders_deadwood() -> None:
    tl = more(gin_ready(), gin("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"), show("Ann", GIN_ANN))
    assert (last_hand(tl).score.points, by_name(tl.state.tally.totals())) == (73, {"Ann": 0, "Bob": 73})
    assert who(tl.state.dealer) == "Bob"  # the winner deals next


def test_layoff_after_gin_is_refused() -> None:
    tl = more(gin_ready(), gin("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"))
    assert rule_of(tl, show("Ann", GIN_ANN, layoffs="9S")) == "layoff-after-gin"
    assert rule_of(tl, show("Ann", GIN_ANN, melds=["AD 2D 3D"], layoffs="9S 4S")) == "layoff-after-gin"


def test_the_knocker_never_lays_off() -> None:
    tl = full_passed(stock("Bob", "KH"), knock("Bob", "JH"))
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH 9C", layoffs="9C")) == "knocker-layoff"


def test_declared_melds_must_be_melds_of_the_shown_cards() -> None:
    tl = full("standard", *TO_KNOCK)
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["KC KD AC"])) == "bad-meld"
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["5S 6S 7S 8S"])) == "meld-not-in-hand"
    assert rule_of(
        tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["2H 3H 4H", "KC KD KH", "KH KD KC"])
    ) == "meld-overlap"


def test_a_declared_arrangement_is_scored_as_declared() -> None:
    # Bob declares only the spade run and the kings: 2H 3H 4H and AC are his deadwood (10).
    tl = more(full("standard", *TO_KNOCK),
              show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["5S 6S 7S", "KC KD KH"]))
    ending = hand_of(tl).ending
    assert ending is not None and ending.knocker is not None
    assert ending.knocker.deadwood_value == 10


def test_declared_layoffs_must_come_in_an_order_that_works() -> None:
    tl = more(full("standard", *TO_KNOCK), BOB_SHOWS)
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="9S 8S")) == "bad-layoff"
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="9S")) == "bad-layoff"
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="QC")) == "bad-layoff"  # onto nothing
    tl = more(tl, show("Ann", ANN_CARDS, melds=["AD 2D 3D 4D", "4C 5C 6C"], layoffs="8S 9S"))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("8S 9S")
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 10 - 1)


def test_ginlog_finds_the_defenders_chained_layoffs() -> None:
    tl = more(full("standard", *TO_KNOCK), BOB_SHOWS, show("Ann", ANN_CARDS))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("8S 9S")
    assert fh.score.points == 9


def test_undercut_gives_the_defender_the_difference_and_the_bonus() -> None:
    # Bob knocks with 10 (TD); Ann shows 1 (AC) after her melds.
    tl = more(example_knocked(), show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD"),
              show("Ann", "AC 2S 3S 4S JS QS KS 9D 9C 9H"))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").deadwood_value == 1
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("undercut", "Ann", 10 - 1 + 10)
    assert who(tl.state.dealer) == "Ann"


def test_the_issues_worked_example() -> None:
    tl = more(example_knocked(), show("Bob", EX_BOB), show("Ann", EX_ANN))
    fh = last_hand(tl)
    ann = shown_by(fh, "Ann")
    assert set(ann.layoffs) == set(cs("5H 6H 8H"))
    assert ann.layoffs.index(c("5H")) < ann.layoffs.index(c("6H"))  # the chain, inside out
    assert (shown_by(fh, "Bob").deadwood_value, ann.deadwood_value) == (1, 62)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 61)
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 61}
    assert who(tl.state.dealer) == "Bob"


# Bob can meld his four 7s with 8H 9H TH as [7777][8H 9H TH] or [777][7H 8H 9H TH]: 6 deadwood
# (AS 2C 3D) either way. Only the second lets Ann lay off 6H then 5H.
CHOICE_BOB = "7S 7C 7D 7H 8H 9H TH AS 2C 3D"
CHOICE_ANN = "5H 6H KC QD JS 9C 8D 4S 3C 2D"  # no melds: 67 deadwood


def choice_knocked() -> Timeline:
    return play([*opening(), table_deal("KD"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "JD")])


def test_when_ginlog_arranges_the_knocker_it_leaves_the_defender_least_to_lay_off() -> None:
    tl = more(choice_knocked(), show("Bob", CHOICE_BOB), show("Ann", CHOICE_ANN))
    fh = last_hand(tl)
    bob, ann = shown_by(fh, "Bob"), shown_by(fh, "Ann")
    assert cs("7S 7C 7D 7H") in [m.cards for m in bob.melds]
    assert ann.layoffs == () and ann.deadwood_value == 67
    assert fh.score.points == 67 - 6


def test_a_declared_knocker_arrangement_is_kept_even_if_worse_for_the_knocker() -> None:
    tl = more(choice_knocked(), show("Bob", CHOICE_BOB, melds=["7S 7C 7D", "7H 8H 9H TH"]), show("Ann", CHOICE_ANN))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("6H 5H")
    assert fh.score.points == 67 - 11 - 6


# ---------------------------------------------------------------------------
# The stock runs out


def run_down(turns: int, dealer: str = "Ann") -> tuple[Timeline, list[Card]]:
    """A table-view hand where both pass and then ``turns`` turns each draw from the stock and discard.

    Bob's cards at the end are AS 2S 3S 4C 5C 6C 7D 8D 9D 2H, Ann's KC KD KH 9S 9C 9H 5S 5D 5H TS;
    the upcard is AH and the discards come from the other 31 cards, in deck order.
    """
    keep = set(cs("AS 2S 3S 4C 5C 6C 7D 8D 9D 2H KC KD KH 9S 9C 9H 5S 5D 5H TS AH"))
    spare = [card for card in DECK if card not in keep]
    other = "Bob" if dealer == "Ann" else "Ann"
    tl = play([*opening(dealer=dealer), table_deal("AH", dealer), pass_(other), pass_(dealer)])
    player = other
    for card in spare[:turns]:
        tl = more(tl, stock(player), discard(player, str(card)))
        player = dealer if player == other else other
    return tl, spare


def test_the_hand_is_void_when_a_discard_leaves_two_cards_in_the_stock() -> None:
    tl, spare = run_down(28)
    assert hand_of(tl).stock == 3 and tl.state.phase == "hand"
    tl = more(tl, stock("Bob"))
    assert hand_of(tl).stock == 2
    tl = more(tl, discard("Bob", str(spare[28])))
    fh = last_hand(tl)
    assert tl.state.hand is None and tl.state.phase == "ready"
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("void", None, 0)
    assert fh.void_reason is not None and "stock" in fh.void_reason
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 0}


def test_the_same_dealer_deals_again_after_a_void() -> None:
    tl, spare = run_down(29)
    assert last_hand(tl).score.outcome == "void"
    assert who(tl.state.dealer) == "Ann"
    assert rule_of(tl, table_deal("7H", dealer="Bob")) == "dealer"
    assert hand_of(more(tl, table_deal("7H", dealer="Ann"))).number == 2


def test_a_knock_on_the_last_turn_still_counts() -> None:
    tl, spare = run_down(28)
    tl = more(tl, stock("Bob"), knock("Bob", str(spare[28])))
    assert hand_of(tl).phase == "show"
    tl = more(tl, show("Bob", "AS 2S 3S 4C 5C 6C 7D 8D 9D 2H"), show("Ann", "KC KD KH 9S 9C 9H 5S 5D 5H TS"))
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 10 - 2)


def test_a_hand_void_event_keeps_the_dealer() -> None:
    tl = more(play([*opening(), table_deal("7H"), pass_("Bob")]), HandVoid(reason="misdeal: Bob had 11 cards"))
    assert last_hand(tl).score.outcome == "void" and who(tl.state.dealer) == "Ann"


# ---------------------------------------------------------------------------
# Oklahoma, big gin


def test_oklahoma_ace_upcard_means_gin_only() -> None:
    base = [*opening("oklahoma"), table_deal("AS"), pass_("Bob"), pass_("Ann"), stock("Bob")]
    tl = play(base)
    assert hand_of(tl).knock_limit == 0
    # In table view the hand is unknown at the knock: the show decides, and 1 deadwood is over 0.
    assert rule_of(more(tl, knock("Bob", "QC")), show("Bob", EX_BOB)) == "knock-limit"
    tl = more(tl, gin("Bob", "QC"), show("Bob", "AH 2H 3H 8C 8D 8S 5S 6S 7S 4S"))
    assert hand_of(tl).phase == "defend"


def test_oklahoma_ace_may_be_a_knock_limit_of_one() -> None:
    rules = attrs.evolve(preset("oklahoma"), oklahoma=Oklahoma(ace="one"))
    tl = play([*opening(rules), table_deal("AS"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    assert hand_of(more(tl, show("Bob", EX_BOB))).phase == "defend"  # 1 deadwood (AD)


def test_oklahoma_ace_a_knock_with_no_deadwood_is_gin() -> None:
    deal = full_deal(GIN_BOB, GIN_ANN, "AH", "8S")
    tl = more(gin_ready("oklahoma", deal), knock("Bob", "9C"))
    tl = more(tl, show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"), show("Ann", GIN_ANN))
    assert last_hand(tl).score.outcome == "gin"


def test_oklahoma_knock_limit_is_the_upcard_value() -> None:
    tl = play([*opening("oklahoma"), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    assert hand_of(tl).knock_limit == 7
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9H")) == "knock-limit"
    assert hand_of(more(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 7C"))).phase == "defend"


def test_oklahoma_spade_upcard_doubles_the_hand() -> None:
    tl = play([*opening("oklahoma"), table_deal("KS"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    tl = more(tl, show("Bob", EX_BOB), show("Ann", EX_ANN))
    assert last_hand(tl).score.points == 2 * 61


BIG_BOB = "AS 2S 3S 4S 7C 7D 7H 9D TD JD"
BIG_ANN = "5H 6C 8S KH QC JS 2H 4D 9C 3C"  # no melds: 67 deadwood
BIG_DEAL = full_deal(BIG_BOB, BIG_ANN, "2C", "QD")


def test_big_gin_under_modern() -> None:
    tl = play([*opening("modern"), BIG_DEAL, pass_("Bob"), pass_("Ann"), stock("Bob", "QD"), BigGin(player="Bob")])
    assert rule_of(tl, show("Bob", BIG_BOB)) == "hand-size"  # all eleven are shown
    tl = more(tl, show("Bob", BIG_BOB + " QD"), show("Ann", BIG_ANN))
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("big_gin", "Bob", 31 + 67)


def test_big_gin_is_refused_under_standard() -> None:
    tl = play([*opening(), BIG_DEAL, pass_("Bob"), pass_("Ann"), stock("Bob", "QD")])
    assert rule_of(tl, BigGin(player="Bob")) == "big-gin-off"


def test_big_gin_needs_eleven_melded_cards() -> None:
    tl = full("modern", pass_("Bob"), pass_("Ann"), stock("Bob", "KH"))
    assert rule_of(tl, BigGin(player="Bob")) == "not-gin"


def test_big_gin_needs_a_draw_first() -> None:
    tl = play([*opening("modern"), BIG_DEAL, pass_("Bob"), pass_("Ann")])
    assert rule_of(tl, BigGin(player="Bob")) == "draw-first"


# ---------------------------------------------------------------------------
# Score-pad hands


@pytest.mark.parametrize(
    ("how", "k", "d", "outcome", "winner", "points"),
    [
        ("knock", 6, 14, "knock", "Ann", 8),
        ("knock", 8, 5, "undercut", "Bob", 13),
        ("knock", 7, 7, "undercut", "Bob", 10),
        ("knock", 0, 12, "gin", "Ann", 32),
        ("gin", 0, 30, "gin", "Ann", 50),
    ],
)
def test_score_pad_arithmetic(how: str, k: int, d: int, outcome: str, winner: str, points: int) -> None:
    tl = play([*opening(), result(how, "Ann", k, d)])
    fh = last_hand(tl)
    assert (fh.recorded, fh.score.outcome, who(fh.score.winner), fh.score.points) == ("result", outcome, winner, points)
    assert by_name(tl.state.tally.totals())[winner] == points
    assert who(tl.state.dealer) == winner


def test_score_pad_claims_must_match() -> None:
    tl = play(opening())
    assert rule_of(tl, result("knock", "Ann", 6, 14, points=9)) == "points-mismatch"
    assert rule_of(tl, result("knock", "Ann", 8, 5, winner="Ann")) == "points-mismatch"
    assert rule_of(tl, result("void", winner="Ann")) == "points-mismatch"
    assert by_name(more(tl, result("knock", "Ann", 6, 14, points=8, winner="Ann")).state.tally.totals())["Ann"] == 8


def test_score_pad_rules() -> None:
    tl = play(opening())
    assert rule_of(tl, result("knock", "Ann", 11, 30)) == "knock-limit"
    assert rule_of(tl, result("gin", "Ann", 3, 30)) == "not-gin"
    assert rule_of(tl, result("big_gin", "Ann", 0, 30)) == "big-gin-off"
    assert rule_of(tl, result("knock", None, 3, 30)) == "result"
    tl = more(tl, result("void"))
    assert (last_hand(tl).score.outcome, who(tl.state.dealer)) == ("void", "Ann")


def test_score_pad_modern_big_gin_and_undercut() -> None:
    tl = play([*opening("modern"), result("big_gin", "Bob", 0, 20), result("knock", "Ann", 9, 4)])
    assert [fh.score.points for fh in tl.state.hands] == [31 + 20, 9 - 4 + 25]
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 51 + 30}


def test_openspiel_tie_scores_nothing() -> None:
    tl = play([*opening("openspiel"), result("knock", "Ann", 7, 7)])
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", None, 0)
    assert tl.state.phase == "over" and who(tl.state.winner) is None


# ---------------------------------------------------------------------------
# Corrections


DISCARD_JH: list[Event] = [pass_("Bob"), pass_("Ann"), stock("Bob", "KH"), discard("Bob", "JH")]


def numbered(events: list[Event]) -> Timeline:
    """Fold with seq numbers as a file gives them (1, 2, ...), corrections included."""
    tl = start(events[0])
    for seq, ev in enumerate(events[1:], start=2):
        tl = apply(tl, ev, seq)
    return tl


def test_a_correction_undoes_a_discard() -> None:
    events = [*opening(), FULL, *DISCARD_JH]  # the discard is event 7
    tl = numbered([*events, Correction(undoes=7)])
    assert tl.state == play(events[:-1]).state
    assert tl.seq == 6 and hand_of(tl).phase == "discard" and who(hand_of(tl).turn) == "Bob"


def test_a_corrected_discard_re_entered_is_as_if_the_mistake_never_happened() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered([*events, Correction(undoes=7, reason="it was 9C"), discard("Bob", "9C")])
    assert tl.state == play([*events[:-1], discard("Bob", "9C")]).state
    assert tl.seq == 9


def test_two_corrections_undo_two_events() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered([*events, Correction(undoes=7), Correction(undoes=6)])
    assert tl.state == play(events[:-2]).state
    assert tl.seq == 5


def test_a_correction_must_name_the_last_effective_event() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered(events)
    assert rule_of(tl, Correction(undoes=6)) == "correction"
    tl = apply(tl, Correction(undoes=7), 8)
    assert rule_of(tl, Correction(undoes=7)) == "correction"  # 7 is gone: 6 is last now


def test_a_correction_can_undo_a_finished_hand() -> None:
    events = [*opening(), FULL, *TO_KNOCK, BOB_SHOWS, show("Ann", ANN_CARDS)]
    tl = numbered([*events, Correction(undoes=len(events))])
    assert tl.state == play(events[:-1]).state
    assert tl.state.hands == () and by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 0}


def test_a_note_changes_nothing_and_is_an_effective_event() -> None:
    events = [*opening(), FULL, pass_("Bob")]
    tl = numbered([*events, Note(text="Bob thinks a while")])
    assert tl.state == play(events).state and tl.seq == 5
    assert numbered([*events, Note(text="x"), Correction(undoes=5)]).seq == 4


def test_there_is_nothing_to_undo_at_the_start() -> None:
    tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    assert rule_of(tl, Correction(undoes=1)) == "correction"


# ---------------------------------------------------------------------------
# Match over, first dealer


def test_no_hand_after_the_match_is_won() -> None:
    tl = play([*opening(), result("knock", "Ann", 2, 50), result("gin", "Ann", 0, 35)])
    assert tl.state.phase == "over" and who(tl.state.winner) == "Ann"
    assert by_name(tl.state.tally.totals()) == {"Ann": 48 + 55, "Bob": 0}
    assert rule_of(tl, table_deal("7H", dealer="Ann")) == "match-over"
    assert rule_of(tl, result("knock", "Bob", 2, 50)) == "match-over"


def test_the_match_ends_at_the_target_not_before() -> None:
    tl = play([*opening(), result("gin", "Ann", 0, 79)])
    assert tl.state.phase == "ready" and by_name(tl.state.tally.totals())["Ann"] == 99
    tl = play([*opening(), result("gin", "Ann", 0, 80)])
    assert tl.state.phase == "over"


def cut(ann: str, bob: str, dealer: str) -> FirstDealer:
    return FirstDealer(dealer=dealer, how="cut", cuts={"Ann": c(ann), "Bob": c(bob)})


def started() -> Timeline:
    return start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))


def test_the_lower_cut_deals() -> None:
    assert who(more(started(), cut("3C", "9D", "Ann")).state.dealer) == "Ann"
    assert who(more(started(), cut("QS", "AS", "Bob")).state.dealer) == "Bob"  # the ace is low
    assert rule_of(started(), cut("3C", "9D", "Bob")) == "cut"


def test_a_tied_cut_is_refused() -> None:
    assert rule_of(started(), cut("3C", "3D", "Ann")) == "cut"
    assert rule_of(started(), cut("3C", "3C", "Ann")) == "duplicate-card"


def test_the_first_dealer_deals_the_first_hand() -> None:
    tl = more(started(), cut("3C", "9D", "Ann"))
    assert rule_of(tl, table_deal("7H", dealer="Bob")) == "dealer"
    assert rule_of(started(), table_deal("7H")) == "first-dealer"
    assert rule_of(tl, cut("3C", "9D", "Ann")) == "first-dealer"


# ---------------------------------------------------------------------------
# Regressions: bugs found while writing these tests, now fixed


def test_a_shown_hand_listing_a_card_twice_is_refused() -> None:
    tl = example_knocked()
    twice = HandShown(player="Bob", cards=cs("2H 3H 4H 8C 8D 8S 5S 6S 7S") + (c("2H"),))
    with pytest.raises(IllegalMove) as info:
        apply(tl, twice)
    assert info.value.rule == "duplicate-card"


def test_a_deal_giving_a_player_the_same_card_twice_is_refused() -> None:
    tl = play(opening())
    deal = attrs.evolve(FULL, hands={"Bob": cs("5S 6S 7S 2H 3H 4H KC KD 9C") + (c("9C"),), "Ann": cs(ANN)}, stock=None)
    with pytest.raises(IllegalMove) as info:
        apply(tl, deal)
    assert info.value.rule == "duplicate-card"


def test_a_stock_listing_a_card_twice_is_refused() -> None:
    tl = play(opening())
    assert FULL.stock is not None
    deal = attrs.evolve(FULL, stock=FULL.stock[:30] + FULL.stock[:1])
    with pytest.raises(IllegalMove) as info:
        apply(tl, deal)
    assert info.value.rule == "duplicate-card"


def test_an_openspiel_match_started_reads_back() -> None:
    # Was a bug (rules._check_types refused game_target null); fixed in ginlog/rules.py meanwhile.
    from ginlog.log.events import event_fields, event_from_fields

    ev = MatchStarted(players=("Ann", "Bob"), rules=preset("openspiel"))
    assert event_from_fields("match_started", event_fields(ev)) == ev


def test_an_openspiel_match_is_one_hand() -> None:
    tl = play([*opening("openspiel"), result("knock", "Bob", 3, 20)])
    assert (tl.state.phase, who(tl.state.winner), last_hand(tl).score.points) == ("over", "Bob", 17)
    assert rule_of(tl, table_deal("7H", dealer="Bob")) == "match-over"


def test_score_pad_oklahoma_ace_accepts_a_knock_with_no_deadwood_as_gin() -> None:
    # The score pad treats it so too.
    tl = play([*opening("oklahoma"), result("knock", "Ann", 0, 20, upcard=c("AH"))])
    assert (last_hand(tl).score.outcome, last_hand(tl).score.points) == ("gin", 40)
