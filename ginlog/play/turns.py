"""The rules of a turn: the upcard offer, drawing, discarding, and going out.

Draws and discards are most of any record, so :func:`draw` and
:func:`discard` are the replay's hot path: the acting seat is ``hand.turn``
once the event's name has passed the door (see :mod:`ginlog.play.guards`),
and nothing is allocated that the old name-keyed rules did not allocate.
"""

from __future__ import annotations

from typing import Final, Literal

from ginlog.game.cards import Card, cards_mask, mask_cards
from ginlog.game.melds import best_arrangements, deadwood_of_mask
from ginlog.game.seats import OTHER, Seat
from ginlog.log.events import BigGin, CardDiscarded, CardDrawn, Gin, Knocked, UpcardPassed
from ginlog.play.endings import end_void
from ginlog.play.guards import illegal, refuse_turn, turn_hand
from ginlog.play.state import Ending
from ginlog.play.working import WorkingHand, WorkingMatch

__all__ = ["upcard_passed", "draw", "discard", "go_out"]

_DRAW_PHASES: Final = frozenset({"offer", "draw", "wall"})


def possible_in_hand(state: WorkingMatch, hand: WorkingHand, i: Seat, card: Card, what: str) -> None:
    """Raise unless ``card`` can be in seat ``i``'s hand as far as the record knows."""
    b = card.bit
    if hand.known[i] & b:
        return
    players = state.players
    if hand.known[OTHER[i]] & b:
        raise illegal(f"{card} is known to be in {players[OTHER[i]]}'s hand", "card-elsewhere")
    if b & hand.pile_mask:
        raise illegal(f"{card} is on the discard pile", "card-elsewhere")
    if hand.ending is not None and hand.ending.card == card:
        raise illegal(f"{card} is the face-down knock card", "card-elsewhere")
    if hand.stock_order is not None and card in hand.stock_order:
        raise illegal(f"{card} is still in the stock", "card-elsewhere")
    if hand.known[i].bit_count() >= hand.sizes[i]:
        raise illegal(
            f"{players[i]} cannot {what} {card}: every card in their hand is known and it is not one", "card-not-held"
        )


def draw(state: WorkingMatch, ev: CardDrawn) -> None:
    hand = state.hand
    if hand is None or ev.player != state.players[hand.turn]:
        refuse_turn(state, ev.player, "draw")
    i = hand.turn
    phase = hand.phase
    if phase not in _DRAW_PHASES:
        raise illegal(f"{ev.player} has drawn already: discard, knock or go gin", "draw-twice")
    rules = state.rules
    if rules.move_limit is not None and at_move_limit(state, hand):  # (no call under the rules without a limit)
        raise illegal(f"{rules.move_limit} moves have been made: the hand may only be declared dead", "move-limit")
    card = ev.card
    hand.moves += 1
    if ev.source == "pile":
        if phase == "draw" and hand.passes == 2 and hand.stock == 31:
            raise illegal("both players passed the upcard: the non-dealer draws from the stock", "upcard-offer")
        pile = hand.pile
        if not pile:
            raise illegal("the discard pile is empty", "empty-pile")
        top = pile[-1]
        if card is not None and card is not top and card != top:
            raise illegal(f"the top of the pile is {top}, not {card}", "pile-top")
        counted = phase == "draw" and not hand.wall
        takes = hand.upcard_takes + counted
        pile.pop()
        hand.pile_mask &= ~top.bit
        hand.known[i] |= top.bit
        hand.seen[i] |= top.bit
        hand.sizes[i] += 1
        hand.phase = "discard"
        hand.taken = top
        hand.upcard_takes = takes
        hand.counted_take = counted
        limit = state.rules.upcard_take_limit
        if counted and limit is not None and takes >= limit:
            end_void(state, hand, f"the upcard was taken {takes} times", "moves")
        return
    # from the stock
    if phase == "offer":
        raise illegal(f"the upcard is offered first: {ev.player} takes it or passes", "upcard-offer")
    if hand.wall:
        raise illegal(
            f"the stock is down to {hand.stock} cards: {ev.player} may only take the upcard to knock, or pass",
            "wall",
        )
    stock = hand.stock
    if rules.dead_stock_pickups and stock <= rules.void_stock_size:
        raise illegal(
            f"the stock is down to {stock} cards: {ev.player} may take the discard or declare the hand dead",
            "dead-stock",
        )
    if stock <= 0:
        raise illegal("the stock is empty", "empty-stock")
    stock_order = hand.stock_order
    bit = 0
    if stock_order is not None:
        nxt = stock_order[0]
        if card is not None and card is not nxt and card != nxt:
            raise illegal(f"the next stock card is {nxt}, not {card}", "stock-order")
        bit = nxt.bit
        hand.stock_order = stock_order[1:]
    elif card is not None:
        bit = card.bit
        known = hand.known
        # (placed_mask, without a call: no stock order here, and no face-down card before a knock)
        if bit & (known[0] | known[1] | hand.pile_mask) or (hand.ending is not None and bit & hand.placed_mask()):
            raise illegal(f"{card} cannot be in the stock: its place is known", "card-elsewhere")
    hand.known[i] |= bit
    hand.sizes[i] += 1
    hand.stock = stock - 1
    hand.phase = "discard"
    hand.taken = None


def at_move_limit(state: WorkingMatch, hand: WorkingHand) -> bool:
    """True when the turn to begin may only declare the hand dead (``move_limit``: RLCard counts the deal as a move)."""
    limit = state.rules.move_limit
    return limit is not None and hand.phase == "draw" and 1 + hand.moves >= limit


def _refuse_missed_gin(state: WorkingMatch, hand: WorkingHand, player: str, what: str, mask: int) -> None:
    """Under ``gin_compulsory``, refuse ``what`` when the eleven cards in ``mask`` could go gin by a discard the
    rules allow (RLCard's judge offers only gin then). Called only when the whole hand is known: a table record
    that does not know the hand is not checked (the show does not say which card was taken)."""
    taken = hand.taken
    rules = state.rules
    if taken is not None and not (rules.may_discard_taken_card or rules.may_go_out_with_taken_card):
        mask &= ~taken.bit
    x = mask
    while x:
        b = x & -x
        x ^= b
        if deadwood_of_mask(hand.known[hand.turn] & ~b) == 0:
            (card,) = mask_cards(b)
            raise illegal(f"{player} must go gin (discarding {card}), not {what}", "gin-compulsory")


def upcard_passed(state: WorkingMatch, ev: UpcardPassed) -> None:
    hand = turn_hand(state, ev.player, "pass")
    if hand.phase == "wall":
        end_void(state, hand, f"the stock is down to {hand.stock} cards and {ev.player} passed", "moves")
        return
    if hand.phase != "offer":
        raise illegal("passing is only for the first upcard; now draw from the stock or the pile", "upcard-offer")
    if hand.passes == 0:
        hand.passes = 1
        hand.turn = hand.dealer
    else:
        hand.passes = 2
        hand.phase = "draw"
        hand.turn = OTHER[hand.dealer]


def _check_discard(state: WorkingMatch, hand: WorkingHand, player: str, card: Card, what: str) -> None:
    """Raise unless the seat to play (``player``, by name) may put ``card`` down now."""
    if hand.phase != "discard":
        raise illegal(f"{player} must draw before they {what}", "draw-first")
    taken = hand.taken
    rules = state.rules
    # (Cards compared by their bits: the same test as ==, without a Python-level __eq__ call per discard.)
    if taken is not None and taken.bit == card.bit and not rules.may_discard_taken_card:
        if not (rules.may_go_out_with_taken_card and what != "discard"):
            raise illegal(f"{player} may not {what} {card}, taken from the pile this turn", "discard-taken-card")
    i = hand.turn
    if not hand.known[i] & card.bit:
        possible_in_hand(state, hand, i, card, what)
    if rules.gin_compulsory and what != "gin" and hand.known[i].bit_count() == hand.sizes[i]:
        _refuse_missed_gin(state, hand, player, f"{what} {card}", hand.known[i])


def discard(state: WorkingMatch, ev: CardDiscarded) -> None:
    hand = state.hand
    if hand is None or ev.player != state.players[hand.turn]:
        refuse_turn(state, ev.player, "discard")
    card = ev.card
    _check_discard(state, hand, ev.player, card, "discard")
    i = hand.turn
    rules = state.rules
    taken = hand.taken
    if hand.wall:
        raise illegal(f"at the two-card stock {ev.player} took the upcard only to knock or go gin", "wall")
    # A bounce: the card just taken from the pile, discarded straight back. A take
    # of the first upcard counts only under loop_counts_first_upcard (OpenSpiel's
    # ApplyFirstUpcardAction sets prev_upcard_ too); a pile take that is neither
    # counted nor at the wall (where no discard follows) is that first take.
    bounced = (
        i
        if taken is not None and taken.bit == card.bit and (hand.counted_take or rules.loop_counts_first_upcard)
        else None
    )
    before = hand.bounced
    kept = ~card.bit
    hand.moves += 1
    hand.known[i] &= kept
    hand.seen[i] &= kept
    hand.sizes[i] -= 1
    hand.pile.append(card)
    hand.pile_mask |= card.bit
    hand.phase = "draw"
    hand.turn = OTHER[i]
    hand.taken = None
    hand.bounced = bounced
    if rules.void_on_upcard_loop and bounced is not None and before is not None and before != i:
        end_void(state, hand, "both players took the upcard and discarded it straight back", "moves")
    elif hand.stock <= rules.void_stock_size and not rules.dead_stock_pickups:
        if rules.wall_knock:
            hand.phase = "wall"
            hand.wall = True
        else:
            end_void(state, hand, f"the stock is down to {hand.stock} cards", "moves")


GoingOut = Literal["knock", "gin", "big_gin"]


def go_out(state: WorkingMatch, ev: Knocked | Gin | BigGin) -> None:
    how: GoingOut
    match ev:
        case Knocked():
            how, words = "knock", "knock"
        case Gin():
            how, words = "gin", "gin"
        case BigGin():
            how, words = "big_gin", "big gin"
    hand = turn_hand(state, ev.player, words)
    i = hand.turn
    card: Card | None
    if isinstance(ev, BigGin):
        if state.rules.big_gin_bonus is None:
            raise illegal("big gin is not played under these rules", "big-gin-off")
        if hand.phase != "discard":
            raise illegal(f"{ev.player} must draw before going big gin", "draw-first")
        card = None
        known, size = hand.known[i], hand.sizes[i]
    else:
        card = ev.card
        _check_discard(state, hand, ev.player, card, how)
        known, size = hand.known[i] & ~card.bit, hand.sizes[i] - 1
    if known.bit_count() == size:  # the whole hand is known: check now, not at the show
        _check_going_out(hand.knock_limit, how, ev.player, known)
    if card is not None:
        hand.seen[i] &= ~card.bit
    hand.known[i] = known
    hand.sizes[i] = size
    hand.phase = "show"
    hand.taken = None
    hand.ending = Ending(how, i, card)


def _check_going_out(knock_limit: int, how: GoingOut, player: str, mask: int) -> None:
    # Not deadwood_of_mask: the show asks for this hand's arrangements, which are then remembered.
    dead = best_arrangements(mask)[0].deadwood_value
    if how in ("gin", "big_gin") and dead:
        raise illegal(f"{player} cannot go {how.replace('_', ' ')}: the best arrangement leaves {dead} deadwood", "not-gin")
    if how == "knock" and dead > knock_limit:
        raise illegal(
            f"{player} cannot knock: the best arrangement leaves {dead} deadwood, over the limit of {knock_limit}",
            "knock-limit",
        )
