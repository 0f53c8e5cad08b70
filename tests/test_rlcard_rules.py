"""RLCard's knobs (issue 22), each under both settings, on hands built card by card.

The expected behaviour is RLCard's (``rlcard/games/gin_rummy/judge.py``
``get_legal_actions``, ``round.py``); ``tests/test_rlcard.py`` holds the
importer to the engine's own records.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from ginlog.errors import IllegalMove, RulesError
from ginlog.game.cards import DECK, Card, parse_card, parse_cards
from ginlog.game.rules import Oklahoma, Rules, preset, rules_from_dict, rules_to_dict
from ginlog.log.events import (
    CardDiscarded,
    CardDrawn,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandShown,
    HandVoid,
    Knocked,
    MatchStarted,
)
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline

BASE = attrs.evolve(preset("standard"), game_target=None)
ELEVEN = attrs.evolve(BASE, deal_eleven=True)


def c(text: str) -> Card:
    return parse_card(text)


def deal(north: str, south: str, upcard: str | None = None) -> HandDealt:
    """S deals: N (the non-dealer) holds ``north``; the stock is the rest in deck order."""
    hands = {"N": tuple(parse_cards(north)), "S": tuple(parse_cards(south))}
    used = {*hands["N"], *hands["S"], *([c(upcard)] if upcard else [])}
    stock = tuple(x for x in DECK if x not in used)
    return HandDealt(dealer="S", upcard=c(upcard) if upcard else None, hands=hands, stock=stock)


def play(rules: Rules, *events: Event) -> Timeline:
    tl = start(MatchStarted(players=("N", "S"), rules=rules))
    for ev in (FirstDealer(dealer="S", how="agreed"), *events):
        tl = apply(tl, ev)
    return tl


def refused(rule: str, rules: Rules, *events: Event) -> None:
    with pytest.raises(IllegalMove) as info:
        play(rules, *events)
    assert info.value.rule == rule, info.value.message


N11 = "2S 3S 4S 4H 5H 6H 8C 9C TC KH QD"
S10 = "AD AC AH 7D 8D 9D 5S 6S 7S 2C"
N10 = "2S 3S 4S 4H 5H 6H 8C 9C TC KH"


def test_the_knobs_default_to_the_play_before_them_and_are_written_only_when_set() -> None:
    data = rules_to_dict(preset("standard"))
    for knob in ("deal_eleven", "dead_stock_pickups", "move_limit", "may_go_out_with_taken_card", "gin_compulsory", "layoffs"):
        assert knob not in data
        assert knob in rules_to_dict(preset("rlcard"))
    assert rules_from_dict(rules_to_dict(preset("rlcard"))) == preset("rlcard")


def test_knob_validation() -> None:
    with pytest.raises(RulesError, match="Oklahoma"):
        attrs.evolve(ELEVEN, oklahoma=Oklahoma())
    with pytest.raises(RulesError, match="move_limit"):
        rules_from_dict({"move_limit": 0})
    with pytest.raises(RulesError, match="layoffs must be true or false"):
        rules_from_dict({"layoffs": 1})


def test_deal_eleven_deals_eleven_without_an_upcard_and_the_non_dealer_discards_first() -> None:
    tl = play(ELEVEN, deal(N11, S10), CardDiscarded(player="N", card=c("QD")))
    hand = tl.state.hand
    assert hand is not None and hand.upcard is None and hand.sizes == (10, 10) and hand.pile == (c("QD"),)
    refused("draw-twice", ELEVEN, deal(N11, S10), CardDrawn(player="N", source="stock"))
    refused("deal", ELEVEN, deal(N10, S10, upcard="QD"))  # no upcard under the knob
    refused("deal", ELEVEN, deal(N10, "AD AC AH 7D 8D 9D 5S 6S 7S 2C"))  # N must hold 11


def test_without_deal_eleven_a_deal_turns_an_upcard_and_deals_ten() -> None:
    refused("deal", BASE, deal(N10, S10))
    refused("deal", BASE, deal(N11, S10, upcard="JD"))
    assert play(BASE, deal(N10, S10, upcard="QD")).state.hand.phase == "offer"  # type: ignore[union-attr]


def _to_dead_stock() -> list[Event]:
    """With ``void_stock_size`` 30: N discards, S draws (30 left) and discards."""
    return [
        deal(N11, S10),
        CardDiscarded(player="N", card=c("QD")),
        CardDrawn(player="S", source="stock", card=c("AS")),
        CardDiscarded(player="S", card=c("AS")),
    ]


def test_dead_stock_pickups_on_takes_the_discard_or_declares_the_hand_dead() -> None:
    rules = attrs.evolve(ELEVEN, void_stock_size=30, dead_stock_pickups=True)
    tl = play(rules, *_to_dead_stock())
    assert tl.state.hand is not None and tl.state.hand.stock == 30  # not void
    refused("dead-stock", rules, *_to_dead_stock(), CardDrawn(player="N", source="stock"))
    tl = play(rules, *_to_dead_stock(), CardDrawn(player="N", source="pile", card=c("AS")), CardDiscarded(player="N", card=c("KH")))
    assert tl.state.hand is not None and tl.state.hand.turn == 1
    tl = play(rules, *_to_dead_stock(), HandVoid(reason="declared dead"))
    assert tl.state.hands[0].result.how == "void"
    # Declared dead only before a draw at the dead stock (or at the move limit), as RLCard's judge offers it.
    refused("dead-hand", rules, deal(N11, S10), CardDiscarded(player="N", card=c("QD")), HandVoid(reason="early"))
    refused("dead-hand", rules, *_to_dead_stock(), CardDrawn(player="N", source="pile", card=c("AS")), HandVoid(reason="mid-turn"))


def test_dead_stock_pickups_off_voids_the_hand_at_the_stock_size() -> None:
    rules = attrs.evolve(ELEVEN, void_stock_size=30)
    tl = play(rules, *_to_dead_stock())
    assert tl.state.hand is None and tl.state.hands[0].result.how == "void"
    tl = play(rules, deal(N11, S10), HandVoid(reason="a misdeal"))  # thrown in whenever the players agree
    assert tl.state.hands[0].result.how == "void"


@pytest.mark.parametrize("limit, draws", [(4, False), (5, True), (None, True)])
def test_move_limit_counts_the_deal_and_every_draw_and_discard(limit: int | None, draws: bool) -> None:
    rules = attrs.evolve(ELEVEN, move_limit=limit, dead_stock_pickups=True)
    nxt = CardDrawn(player="N", source="stock")
    if draws:
        assert play(rules, *_to_dead_stock(), nxt).state.hand is not None
    else:
        refused("move-limit", rules, *_to_dead_stock(), nxt)
        assert play(rules, *_to_dead_stock(), HandVoid(reason="200 moves")).state.hands[0].result.how == "void"


def _take_and_knock(rules: Rules, what: type[Knocked] | type[CardDiscarded]) -> Timeline:
    return play(
        rules,
        deal(N11, S10),
        CardDiscarded(player="N", card=c("KH")),
        CardDrawn(player="S", source="pile", card=c("KH")),
        what(player="S", card=c("KH")),
    )


def test_may_go_out_with_taken_card_on_knocks_with_it_but_never_discards_it() -> None:
    rules = attrs.evolve(ELEVEN, may_go_out_with_taken_card=True)
    assert _take_and_knock(rules, Knocked).state.hand.phase == "show"  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="taken from the pile"):
        _take_and_knock(rules, CardDiscarded)


def test_may_go_out_with_taken_card_off_refuses_the_knock() -> None:
    with pytest.raises(IllegalMove, match="taken from the pile") as info:
        _take_and_knock(ELEVEN, Knocked)
    assert info.value.rule == "discard-taken-card"


GIN11 = "AS 2S 3S 4H 5H 6H 7C 8C 9C TC KD"


def test_gin_compulsory_on_refuses_a_discard_or_knock_that_could_be_gin() -> None:
    rules = attrs.evolve(ELEVEN, gin_compulsory=True)
    refused("gin-compulsory", rules, deal(GIN11, S10), CardDiscarded(player="N", card=c("AS")))
    refused("gin-compulsory", rules, deal(GIN11, S10), Knocked(player="N", card=c("KD")))
    tl = play(rules, deal(GIN11, S10), Gin(player="N", card=c("KD")))
    assert tl.state.hand is not None and tl.state.hand.phase == "show"


def test_gin_compulsory_off_leaves_the_choice() -> None:
    tl = play(ELEVEN, deal(GIN11, S10), CardDiscarded(player="N", card=c("AS")))
    assert tl.state.hand is not None and tl.state.hand.turn == 1


KNOCK11 = "AS 2S 3S 4H 5H 6H 7C 8C 9C 2D KD"
LAYS = "4S 7H JD QH AH AC 9D 5C KC 3C"  # 4S goes on AS-3S, 7H on 4H-6H


def _knock(rules: Rules, defender: HandShown) -> Timeline:
    return play(
        rules,
        deal(KNOCK11, LAYS),
        Knocked(player="N", card=c("KD")),
        HandShown(player="N", cards=tuple(parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C 2D"))),
        defender,
    )


def test_layoffs_off_counts_every_unmelded_card_and_refuses_a_lay_off() -> None:
    rules = attrs.evolve(ELEVEN, layoffs=False)
    cards = tuple(parse_cards(LAYS))
    result = _knock(rules, HandShown(player="S", cards=cards)).state.hands[0].result
    assert result.defender_deadwood == sum(x.value for x in cards)  # nothing melds, nothing laid off
    with pytest.raises(IllegalMove) as info:
        _knock(rules, HandShown(player="S", cards=cards, melds=(), layoffs=(c("4S"),)))
    assert info.value.rule == "no-layoffs"


def test_layoffs_on_lays_off_as_before() -> None:
    cards = tuple(parse_cards(LAYS))
    result = _knock(ELEVEN, HandShown(player="S", cards=cards)).state.hands[0].result
    assert result.defender_deadwood == sum(x.value for x in cards) - 4 - 7


def test_the_rlcard_preset_plays_simulated_hands() -> None:
    from ginlog.play.reducer import fold
    from ginlog.play.simulate import simulate_match

    seen: dict[str, Any] = {}
    for seed in range(40):
        state = fold(simulate_match(preset("rlcard"), seed=seed)).state
        seen[state.hands[0].result.how] = True
    assert {"knock", "gin"} <= set(seen)
