"""Simulated matches: a shuffled deck and two simple players, written as ginlog events.

Used for the sample games, the property tests, the benchmarks and the
reliability campaigns: every match it makes is legal by construction and is
checked by the reducer as it is made, so a bug on either side shows at once.

The players are deliberately simple (take a card that lowers their
deadwood, throw the card that leaves the least, knock as soon as allowed with
probability ``knock_rate``), which is enough to reach every ending: gin,
knocks, undercuts, lay-offs, the two-card stock.

>>> from ginlog.game.rules import preset
>>> events = simulate_match(preset("standard"), seed=7)
>>> from ginlog.play.reducer import fold
>>> state = fold(events).state
>>> state.phase, state.winner is not None
('over', True)
"""

from __future__ import annotations

import random
from typing import Literal

from ginlog.game.cards import DECK, Card, cards_mask
from ginlog.log.events import (
    BigGin,
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
    UpcardPassed,
)
from ginlog.game.melds import best_discard, deadwood_of_mask
from ginlog.play.reducer import start, step
from ginlog.game.rules import Rules
from ginlog.game.seats import OTHER, Seat
from ginlog.play.state import HandState, MatchState

__all__ = ["simulate_match", "simulate_hand", "Mode"]

Mode = Literal["full", "table"]


def _dead(cards: list[Card]) -> int:
    return deadwood_of_mask(cards_mask(cards))


def _best_after_discard(cards: list[Card], forbid: Card | None) -> tuple[Card, int]:
    card, arr = best_discard(cards)
    if card == forbid:
        best: tuple[int, int, Card] | None = None
        for c in cards:
            if c == forbid:
                continue
            rest = [x for x in cards if x != c]
            key = (_dead(rest), -c.value, c)
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        return best[2], best[0]
    return card, arr.deadwood_value


def simulate_hand(
    state: MatchState,
    rng: random.Random,
    *,
    mode: Mode = "full",
    knock_rate: float = 0.8,
    stock_order: bool = True,
) -> tuple[list[Event], MatchState]:
    """The events of one hand from ``state`` (which must be ready for a deal), and the state after.

    Each event is applied as it is made, so only legal events come out.
    ``mode="full"`` records both hands (and, with ``stock_order``, the stock);
    ``mode="table"`` records only what both players see.
    """
    rules = state.rules
    assert state.phase == "ready" and state.dealer is not None
    names = state.players
    dealer = state.dealer
    other = OTHER[dealer]
    deck = list(DECK)
    rng.shuffle(deck)
    eleven = rules.deal_eleven  # RLCard: 11 to the non-dealer, 10 to the dealer, no upcard
    hands = {other: deck[0:11], dealer: deck[11:21]} if eleven else {other: deck[0:20:2], dealer: deck[1:20:2]}
    upcard: Card | None = None if eleven else deck[20]
    stock = deck[21:]
    pile = [] if upcard is None else [upcard]
    full = mode == "full"
    ev: Event = HandDealt(
        dealer=names[dealer],
        upcard=upcard,
        hands={names[p]: tuple(sorted(h)) for p, h in hands.items()} if full else None,
        stock=tuple(stock) if full and stock_order else None,
    )
    out: list[Event] = []

    def emit(e: Event) -> None:
        nonlocal state
        state = step(state, e)
        out.append(e)

    emit(ev)
    limit = rules.knock_limit if upcard is None else rules.knock_limit_for(upcard)
    may_discard_taken = rules.may_discard_taken_card
    may_go_out_taken = may_discard_taken or rules.may_go_out_with_taken_card

    def finish_turn(seat: Seat, hand: list[Card], taken: Card | None) -> None:
        player = names[seat]
        if rules.big_gin_bonus is not None and len(hand) == 11 and _dead(hand) == 0:
            emit(BigGin(player=player))
            return
        card, dead = _best_after_discard(hand, None if may_go_out_taken else taken)
        ev2: Gin | Knocked | CardDiscarded
        if dead <= limit and (dead == 0 or rng.random() < knock_rate):
            ev2 = Gin(player=player, card=card) if dead == 0 else Knocked(player=player, card=card)
        else:
            if card == taken and not may_discard_taken:
                card, dead = _best_after_discard(hand, taken)
            ev2 = CardDiscarded(player=player, card=card)
        hand.remove(card)
        emit(ev2)
        if isinstance(ev2, CardDiscarded):
            pile.append(card)

    # The upcard offer (none after an 11/10 deal: the non-dealer starts by discarding).
    for player in (other, dealer) if upcard is not None else ():
        assert upcard is not None
        hand = hands[player]
        with_up = hand + [upcard]
        if _best_after_discard(with_up, None if may_discard_taken else upcard)[1] < _dead(hand) - 2:
            ev = CardDrawn(player=names[player], source="pile", card=upcard)
            pile.pop()
            hand.append(upcard)
            emit(ev)
            finish_turn(player, hand, upcard)
            turn = OTHER[player]
            break
        emit(UpcardPassed(player=names[player]))
    else:
        if upcard is not None:
            ev = CardDrawn(player=names[other], source="stock", card=stock[0] if full else None)
            hands[other].append(stock.pop(0))
            emit(ev)
        finish_turn(other, hands[other], None)
        turn = dealer
    # Normal turns.
    while state.hand is not None and state.hand.phase in ("draw",):
        hand = hands[turn]
        top = pile[-1]
        gain = _best_after_discard(hand + [top], None if may_discard_taken else top)[1]
        if at_move_limit(state.hand, rules):
            emit(HandVoid(reason=f"dead hand: {rules.move_limit} moves"))
            break
        dead_stock = rules.dead_stock_pickups and len(stock) <= rules.void_stock_size
        if dead_stock and gain >= _dead(hand) - 1:  # RLCard: no draw from the dead stock; declare the hand dead
            emit(HandVoid(reason=f"dead hand: {len(stock)} cards in the stock"))
            break
        if gain < _dead(hand) - 1 or dead_stock:
            ev = CardDrawn(player=names[turn], source="pile", card=top)
            pile.pop()
            hand.append(top)
            taken: Card | None = top
        else:
            card = stock.pop(0)
            ev = CardDrawn(player=names[turn], source="stock", card=card if full else None)
            hand.append(card)
            taken = None
        emit(ev)
        finish_turn(turn, hand, taken)
        turn = OTHER[turn]
    if state.hand is not None and state.hand.phase == "wall":
        # The two-card stock under wall_knock (OpenSpiel): take the upcard only to go out, else pass (void).
        hand = hands[turn]
        top = pile[-1]
        card, dead = _best_after_discard(hand + [top], None if may_discard_taken else top)
        if dead <= limit:
            emit(CardDrawn(player=names[turn], source="pile", card=top))
            pile.pop()
            hand.append(top)
            hand.remove(card)
            emit(Gin(player=names[turn], card=card) if dead == 0 else Knocked(player=names[turn], card=card))
        else:
            emit(UpcardPassed(player=names[turn]))
    if state.hand is not None and state.hand.phase == "show":
        ending = state.hand.ending
        assert ending is not None
        knocker = ending.player
        for seat in (knocker, OTHER[knocker]):
            emit(HandShown(player=names[seat], cards=tuple(sorted(hands[seat]))))
    return out, state


def at_move_limit(hand: HandState, rules: Rules) -> bool:
    """The turn to begin may only declare the hand dead (``move_limit``; RLCard counts the deal as a move)."""
    return rules.move_limit is not None and 1 + hand.moves >= rules.move_limit


def simulate_match(
    rules: Rules,
    *,
    seed: int = 0,
    players: tuple[str, str] = ("Ann", "Bob"),
    mode: Mode = "full",
    knock_rate: float = 0.8,
    max_hands: int | None = None,
) -> list[Event]:
    """A whole legal match (or ``max_hands`` hands of one) as a list of events."""
    rng = random.Random(seed)
    first: Event = MatchStarted(players=players, rules=rules)
    state = start(first).state
    events: list[Event] = [first]
    ev: Event = FirstDealer(dealer=players[rng.randrange(2)], how="random")
    state = step(state, ev)
    events.append(ev)
    hands = 0
    while state.phase == "ready" and (max_hands is None or hands < max_hands):
        hand_events, state = simulate_hand(state, rng, mode=mode, knock_rate=knock_rate)
        events.extend(hand_events)
        hands += 1
    return events
