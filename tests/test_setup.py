"""The rules between hands (:mod:`ginlog.play.setup`), by example through the reducer: the first dealer (agreed or
cut), the deal, no hand once the match is over.
"""

from __future__ import annotations

import attrs
import pytest

from ginlog.errors import IllegalMove
from ginlog.game.rules import preset
from ginlog.log.events import FirstDealer, MatchStarted
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline

from reducing import ANN, FULL, by_name, c, cs, more, opening, play, result, rule_of, table_deal, who


# ---------------------------------------------------------------------------
# Match over, first dealer


def test_no_hand_after_the_match_is_won() -> None:
    tl = play([*opening(), result("knock", "Ann", 2, 50), result("gin", "Ann", 0, 35)])
    assert tl.state.phase == "over" and who(tl.state.winner) == "Ann"
    assert by_name(tl.state.tally.totals()) == {"Ann": 48 + 55, "Bob": 0}
    assert rule_of(tl, table_deal("7H", dealer="Ann")) == "match-over"
    assert rule_of(tl, result("knock", "Bob", 2, 50)) == "match-over"


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
# Regressions: bugs found while writing the reducer's tests, now fixed


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
