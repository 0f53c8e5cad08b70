"""Helpers for the reducer's tests by example (setup, turns, endings, timeline, reducer): Ann and Bob, hands and events.

Not a test module (no ``test_`` prefix).
"""

from __future__ import annotations

import random

import pytest

from ginlog.errors import IllegalMove
from ginlog.game.cards import Card, DECK, parse_card, parse_cards
from ginlog.game.rules import Rules, preset
from ginlog.game.seats import Seat
from ginlog.log.events import (
    CardDiscarded, CardDrawn, Event, FirstDealer, Gin, HandDealt, HandResultOnly, HandShown, Knocked, MatchStarted,
    UpcardPassed,
)
from ginlog.play.reducer import apply, fold
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
