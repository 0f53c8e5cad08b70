"""The rules between hands: the first dealer, the deal, abandoning the match.

Each rule edits a working copy (:mod:`ginlog.play.working`) in place or
raises :class:`~ginlog.errors.IllegalMove`; :mod:`ginlog.play.rulebook` says
which rule each event type goes to.
"""

from __future__ import annotations

from ginlog.game.cards import cards_mask, mask_cards
from ginlog.game.seats import OTHER, seat_of
from ginlog.log.events import FirstDealer, HandDealt, MatchAbandoned, MatchStarted
from ginlog.play.guards import HAND_SIZE, illegal, require_ready
from ginlog.play.working import WorkingHand, WorkingMatch

__all__ = ["started_twice", "first_dealer", "deal", "abandon"]


def started_twice(state: WorkingMatch, ev: MatchStarted) -> None:
    raise illegal("match_started may only be the first line", "first-event")


def first_dealer(state: WorkingMatch, ev: FirstDealer) -> None:
    if state.phase != "setup":
        raise illegal("the first dealer has already been chosen", "first-dealer")
    players = state.players
    dealer = seat_of(players, ev.dealer)
    if ev.how == "cut":
        if ev.cuts is None or set(ev.cuts) != set(players):
            raise illegal("a cut records one card for each player", "cut")
        a, b = (ev.cuts[p] for p in players)
        if a == b:
            raise illegal("both players cannot cut the same card", "duplicate-card")
        if a.rank == b.rank:
            raise illegal("a tie cuts again: record the cut that decided", "cut")
        lower = 0 if a.rank < b.rank else 1
        if dealer != lower:
            raise illegal(f"the lower cut deals: {players[lower]} cut lower", "cut")
    elif ev.cuts is not None:
        raise illegal("cut cards go with how='cut'", "cut")
    state.phase = "ready"
    state.dealer = dealer
    state.first_dealer_how = ev.how


def deal(state: WorkingMatch, ev: HandDealt) -> None:
    require_ready(state, "a new hand")
    dealer = state.dealer
    assert dealer is not None
    players = state.players
    if ev.dealer != players[dealer]:
        raise illegal(f"{players[dealer]} deals this hand, not {ev.dealer}", "dealer")
    known = [0, 0]
    eleven = state.rules.deal_eleven
    upcard = ev.upcard
    if eleven and upcard is not None:
        raise illegal("these rules deal 11 cards to the non-dealer and turn no upcard", "deal")
    if upcard is None and not eleven:
        raise illegal("a deal turns an upcard: give 'upcard' (only deal_eleven deals without one)", "deal")
    up = upcard.bit if upcard is not None else 0
    sizes = [HAND_SIZE, HAND_SIZE]
    if eleven:
        sizes[OTHER[dealer]] = HAND_SIZE + 1
    if ev.hands is not None:
        for name, cards in ev.hands.items():
            seat = seat_of(players, name)
            size = sizes[seat]
            if len(cards) != size:
                raise illegal(f"{name} is dealt {len(cards)} cards, not {size}", "deal")
            mask = cards_mask(cards)
            if mask.bit_count() != size:
                raise illegal(f"{name} is dealt a card twice", "duplicate-card")
            known[seat] = mask
        if known[0] & known[1]:
            raise illegal(f"{mask_cards(known[0] & known[1])[0]} is dealt to both players", "duplicate-card")
        if (known[0] | known[1]) & up:
            raise illegal(f"the upcard {upcard} is also dealt to a player", "duplicate-card")
    stock = ev.stock
    if stock is not None:
        if len(stock) != 31:
            raise illegal(f"the stock holds 31 cards after the deal, not {len(stock)}", "deal")
        sm = cards_mask(stock)
        if sm.bit_count() != 31:
            raise illegal("the stock lists a card twice", "duplicate-card")
        if sm & (known[0] | known[1] | up):
            raise illegal(f"{mask_cards(sm & (known[0] | known[1] | up))[0]} is in the stock and dealt too", "duplicate-card")
    # An 11/10 deal: the non-dealer holds eleven and starts as after a draw (discard, knock or gin).
    state.hand = WorkingHand(
        number=len(state.hands) + 1,
        dealer=dealer,
        upcard=upcard,
        knock_limit=state.rules.knock_limit if upcard is None else state.rules.knock_limit_for(upcard),
        phase="offer" if upcard is not None else "discard",
        turn=OTHER[dealer],
        stock=31,
        pile=[upcard] if upcard is not None else [],
        known=known,
        sizes=sizes,
        stock_order=stock,
    )
    state.phase = "hand"


def abandon(state: WorkingMatch, ev: MatchAbandoned) -> None:
    if state.finished:
        raise illegal("the match is already over", "match-over")
    state.phase = "abandoned"
    state.abandoned = ev.reason
    state.hand = None
