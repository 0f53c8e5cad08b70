"""The reducer: ``apply(state, event) -> state``, and every rule of play it enforces.

Pure: no files, no clock, no terminal. The same events always give the same
state, so a replay to any event is just a fold over a prefix. An illegal event
raises :class:`~ginlog.errors.IllegalMove` naming the rule (``rule``) and
what was expected; the caller (the log reader, the recorder) adds the place.

Recording is the same path: an entry becomes a candidate event, :func:`apply`
checks it against the current state, and only then is it written.

>>> from ginlog.events import *
>>> from ginlog.rules import preset
>>> from ginlog.cards import parse_card as c
>>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
>>> tl = apply(tl, FirstDealer(dealer="Ann", how="agreed"), 2)
>>> tl = apply(tl, HandDealt(dealer="Ann", upcard=c("7h")), 3)
>>> tl.state.hand.turn, tl.state.hand.phase, tl.state.hand.stock
('Bob', 'offer', 31)
>>> apply(tl, CardDrawn(player="Ann", source="pile"), 4)
Traceback (most recent call last):
...
ginlog.errors.IllegalMove: it is Bob's turn, not Ann's [turn-order]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import attrs

from .cards import Card, cards_mask, mask_cards
from .errors import GinlogError, IllegalMove, MeldError
from .events import (
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
    MatchAbandoned,
    MatchStarted,
    Note,
    UpcardPassed,
)
from .melds import (
    Arrangement,
    Meld,
    best_arrangements,
    best_defence,
    check_arrangement,
    check_layoffs,
    deadwood_of_mask,
)
from .scoring import HandResult, HandScore, Tally, price_hand
from .state import Ending, FinishedHand, HandState, MatchState, Shown, Timeline, replace_hand, replace_match

__all__ = ["start", "apply", "step", "fold", "UNDO_DEPTH", "legal_actions"]

#: How many effective events a run of corrections can undo.
UNDO_DEPTH: Final = 64
HAND_SIZE: Final = 10


def _illegal(message: str, rule: str) -> IllegalMove:
    return IllegalMove(message, rule=rule)


def start(event: MatchStarted, seq: int = 1) -> Timeline:
    """The timeline after the first line of a match file."""
    if not isinstance(event, MatchStarted):
        raise _illegal(f"a match file must begin with match_started, not {type(event).__name__}", "first-event")
    state = MatchState(
        players=event.players,
        rules=event.rules,
        tally=Tally.start(event.players),
        title=event.title,
        tool=event.tool,
    )
    return Timeline(state, seq)


def fold(events: Iterable[Event]) -> Timeline:
    """Apply a whole list of events (numbered from 1) and return the final timeline."""
    it = iter(events)
    tl = start(next(it))  # type: ignore[arg-type]
    for seq, ev in enumerate(it, start=2):
        tl = apply(tl, ev, seq)
    return tl


def apply(tl: Timeline, event: Event, seq: int | None = None) -> Timeline:
    """The timeline after ``event``; raise :class:`IllegalMove` if it breaks a rule.

    ``seq`` is the event's line number in the match file; it is what a later
    correction names in ``undoes``. Left out, it is taken as one more than the
    last effective event, which is right only for a log without corrections. A :class:`Correction` goes back
    to the state before the last effective event; anything else goes through
    :func:`step`.
    """
    if seq is None:
        seq = tl.seq + 1
    kind = type(event)
    if kind is Correction:
        return _correction(tl, event)  # type: ignore[arg-type]
    state = tl.state
    new = state if kind is Note else step(state, event)
    back = tl.back
    if len(back) >= UNDO_DEPTH:
        back = back[1:]
    return Timeline(new, seq, back + ((tl.seq, state),))


def step(state: MatchState, event: Event) -> MatchState:
    """The pure rules: the match state after one (non-correction) event."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise _illegal(f"{type(event).__name__} is not an event the reducer knows", "unknown-event")
    return handler(state, event)


# ---------------------------------------------------------------------------
# Match-level events


def _correction(tl: Timeline, ev: Correction) -> Timeline:
    if not tl.back:
        raise _illegal(
            "there is nothing left to undo" if tl.seq <= 1 else f"corrections go back at most {UNDO_DEPTH} events",
            "correction",
        )
    if ev.undoes != tl.seq:
        raise _illegal(
            f"a correction undoes the last effective event, which is event {tl.seq}, not {ev.undoes}",
            "correction",
        )
    seq, previous = tl.back[-1]
    return Timeline(previous, seq, tl.back[:-1])


def _require_player(state: MatchState, player: str) -> None:
    if player not in state.players:
        raise _illegal(f"{player!r} is not a player in this match ({' and '.join(state.players)})", "unknown-player")


def _first_dealer(state: MatchState, ev: FirstDealer) -> MatchState:
    if state.phase != "setup":
        raise _illegal("the first dealer has already been chosen", "first-dealer")
    _require_player(state, ev.dealer)
    if ev.how == "cut":
        if ev.cuts is None or set(ev.cuts) != set(state.players):
            raise _illegal("a cut records one card for each player", "cut")
        a, b = (ev.cuts[p] for p in state.players)
        if a == b:
            raise _illegal("both players cannot cut the same card", "duplicate-card")
        if a.rank == b.rank:
            raise _illegal("a tie cuts again: record the cut that decided", "cut")
        lower = state.players[0] if a.rank < b.rank else state.players[1]
        if ev.dealer != lower:
            raise _illegal(f"the lower cut deals: {lower} cut lower", "cut")
    elif ev.cuts is not None:
        raise _illegal("cut cards go with how='cut'", "cut")
    return replace_match(state, phase="ready", dealer=ev.dealer, first_dealer_how=ev.how)


def _require_ready(state: MatchState, what: str) -> None:
    if state.phase == "setup":
        raise _illegal(f"{what}: choose the first dealer first", "first-dealer")
    if state.phase == "hand":
        raise _illegal(f"{what}: hand {state.hand.number if state.hand else '?'} is still being played", "hand-in-progress")
    if state.phase == "over":
        raise _illegal(f"{what}: the match is over", "match-over")
    if state.phase == "abandoned":
        raise _illegal(f"{what}: the match was abandoned", "match-over")


def _deal(state: MatchState, ev: HandDealt) -> MatchState:
    _require_ready(state, "a new hand")
    assert state.dealer is not None
    if ev.dealer != state.dealer:
        raise _illegal(f"{state.dealer} deals this hand, not {ev.dealer}", "dealer")
    rules = state.rules
    known = [0, 0]
    stock_order = None
    up = ev.upcard.bit
    if ev.hands is not None:
        for name, cards in ev.hands.items():
            _require_player(state, name)
            if len(cards) != HAND_SIZE:
                raise _illegal(f"{name} is dealt {len(cards)} cards, not {HAND_SIZE}", "deal")
            known[state.index(name)] = cards_mask(cards)
            if known[state.index(name)].bit_count() != HAND_SIZE:
                raise _illegal(f"{name} is dealt a card twice", "duplicate-card")
        if known[0] & known[1]:
            raise _illegal(f"{mask_cards(known[0] & known[1])[0]} is dealt to both players", "duplicate-card")
        if (known[0] | known[1]) & up:
            raise _illegal(f"the upcard {ev.upcard} is also dealt to a player", "duplicate-card")
    if ev.stock is not None:
        if len(ev.stock) != 31:
            raise _illegal(f"the stock holds 31 cards after the deal, not {len(ev.stock)}", "deal")
        sm = cards_mask(ev.stock)
        if sm.bit_count() != len(ev.stock):
            raise _illegal("the stock lists a card twice", "duplicate-card")
        if sm & (known[0] | known[1] | up):
            raise _illegal(f"{mask_cards(sm & (known[0] | known[1] | up))[0]} is in the stock and dealt too", "duplicate-card")
        stock_order = ev.stock
    nondealer = state.other(ev.dealer)
    hand = HandState(
        number=len(state.hands) + 1,
        dealer=ev.dealer,
        upcard=ev.upcard,
        knock_limit=rules.knock_limit_for(ev.upcard),
        phase="offer",
        turn=nondealer,
        stock=31,
        pile=(ev.upcard,),
        known=(known[0], known[1]),
        sizes=(HAND_SIZE, HAND_SIZE),
        stock_order=stock_order,
    )
    return replace_match(state, phase="hand", hand=hand)


def _abandon(state: MatchState, ev: MatchAbandoned) -> MatchState:
    if state.finished:
        raise _illegal("the match is already over", "match-over")
    return replace_match(state, phase="abandoned", abandoned=ev.reason, hand=None)


# ---------------------------------------------------------------------------
# Play within a hand


def _hand(state: MatchState, player: str, what: str) -> HandState:
    hand = state.hand
    if hand is None:
        if state.phase in ("over", "abandoned"):
            raise _illegal(f"{what}: the match is over", "match-over")
        raise _illegal(f"{what}: no hand is being played (deal one first)", "no-hand")
    _require_player(state, player)
    if player != hand.turn:
        raise _illegal(f"it is {hand.turn}'s turn, not {player}'s", "turn-order")
    return hand


def _possible_in_hand(state: MatchState, hand: HandState, i: int, card: Card, what: str) -> None:
    """Raise unless ``card`` can be in player ``i``'s hand as far as the record knows."""
    b = card.bit
    if hand.known[i] & b:
        return
    player = state.players[i]
    if hand.known[1 - i] & b:
        raise _illegal(f"{card} is known to be in {state.players[1 - i]}'s hand", "card-elsewhere")
    if b & cards_mask(hand.pile):
        raise _illegal(f"{card} is on the discard pile", "card-elsewhere")
    if hand.ending is not None and hand.ending.card == card:
        raise _illegal(f"{card} is the face-down knock card", "card-elsewhere")
    if hand.stock_order is not None and card in hand.stock_order:
        raise _illegal(f"{card} is still in the stock", "card-elsewhere")
    if hand.known[i].bit_count() >= hand.sizes[i]:
        raise _illegal(f"{player} cannot {what} {card}: every card in their hand is known and it is not one", "card-not-held")


def _draw(state: MatchState, ev: CardDrawn) -> MatchState:
    hand = _hand(state, ev.player, "draw")
    i = state.index(ev.player)
    rules = state.rules
    if hand.phase not in ("offer", "draw", "wall"):
        raise _illegal(f"{ev.player} has drawn already: discard, knock or go gin", "draw-twice")
    known = list(hand.known)
    sizes = list(hand.sizes)
    sizes[i] += 1
    if ev.source == "pile":
        if hand.phase == "draw" and hand.passes == 2 and hand.stock == 31:
            raise _illegal("both players passed the upcard: the non-dealer draws from the stock", "upcard-offer")
        top = hand.pile_top
        if top is None:
            raise _illegal("the discard pile is empty", "empty-pile")
        if ev.card is not None and ev.card != top:
            raise _illegal(f"the top of the pile is {top}, not {ev.card}", "pile-top")
        known[i] |= top.bit
        seen = list(hand.seen)
        seen[i] |= top.bit
        counted = hand.phase == "draw" and not hand.wall
        takes = hand.upcard_takes + counted
        new = replace_hand(
            hand, phase="discard", pile=hand.pile[:-1], known=(known[0], known[1]), sizes=(sizes[0], sizes[1]),
            taken=top, upcard_takes=takes, counted_take=counted, seen=(seen[0], seen[1]),
        )
        if counted and rules.upcard_take_limit is not None and takes >= rules.upcard_take_limit:
            return _end_void(state, new, f"the upcard was taken {takes} times", "moves")
        return replace_match(state, hand=new)
    # from the stock
    if hand.phase == "offer":
        raise _illegal(f"the upcard is offered first: {ev.player} takes it or passes", "upcard-offer")
    if hand.wall:
        raise _illegal(
            f"the stock is down to {hand.stock} cards: {ev.player} may only take the upcard to knock, or pass",
            "wall",
        )
    if hand.stock <= 0:
        raise _illegal("the stock is empty", "empty-stock")
    stock_order = hand.stock_order
    if stock_order is not None:
        nxt = stock_order[0]
        if ev.card is not None and ev.card != nxt:
            raise _illegal(f"the next stock card is {nxt}, not {ev.card}", "stock-order")
        known[i] |= nxt.bit
        stock_order = stock_order[1:]
    elif ev.card is not None:
        b = ev.card.bit
        if b & (hand.placed_mask()):
            raise _illegal(f"{ev.card} cannot be in the stock: its place is known", "card-elsewhere")
        known[i] |= b
    new = replace_hand(
        hand, phase="discard", stock=hand.stock - 1, stock_order=stock_order,
        known=(known[0], known[1]), sizes=(sizes[0], sizes[1]), taken=None,
    )
    return replace_match(state, hand=new)


def _pass(state: MatchState, ev: UpcardPassed) -> MatchState:
    hand = _hand(state, ev.player, "pass")
    if hand.phase == "wall":
        return _end_void(state, hand, f"the stock is down to {hand.stock} cards and {ev.player} passed", "moves")
    if hand.phase != "offer":
        raise _illegal("passing is only for the first upcard; now draw from the stock or the pile", "upcard-offer")
    if hand.passes == 0:
        return replace_match(state, hand=replace_hand(hand, passes=1, turn=hand.dealer))
    return replace_match(state, hand=replace_hand(hand, passes=2, phase="draw", turn=state.other(hand.dealer)))


def _check_discard(state: MatchState, hand: HandState, player: str, card: Card, what: str) -> int:
    if hand.phase != "discard":
        raise _illegal(f"{player} must draw before they {what}", "draw-first")
    i = state.index(player)
    if hand.taken == card and not state.rules.may_discard_taken_card:
        raise _illegal(f"{player} may not {what} {card}, taken from the pile this turn", "discard-taken-card")
    _possible_in_hand(state, hand, i, card, what)
    return i


def _discard(state: MatchState, ev: CardDiscarded) -> MatchState:
    hand = _hand(state, ev.player, "discard")
    i = _check_discard(state, hand, ev.player, ev.card, "discard")
    rules = state.rules
    known = list(hand.known)
    known[i] &= ~ev.card.bit
    sizes = list(hand.sizes)
    sizes[i] -= 1
    bounced = ev.player if hand.taken == ev.card and hand.counted_take else None
    if hand.wall:
        raise _illegal(f"at the two-card stock {ev.player} took the upcard only to knock or go gin", "wall")
    seen = hand.seen
    if seen[i] & ev.card.bit:
        seen = (seen[0] & ~ev.card.bit, seen[1]) if i == 0 else (seen[0], seen[1] & ~ev.card.bit)
    new = replace_hand(
        hand, phase="draw", turn=state.other(ev.player), pile=hand.pile + (ev.card,),
        known=(known[0], known[1]), sizes=(sizes[0], sizes[1]), taken=None, bounced=bounced, seen=seen,
    )
    if rules.void_on_upcard_loop and bounced is not None and hand.bounced is not None and hand.bounced != ev.player:
        return _end_void(state, new, "both players took the upcard and discarded it straight back", "moves")
    if hand.stock <= rules.void_stock_size:
        if rules.wall_knock:
            return replace_match(state, hand=replace_hand(new, phase="wall", wall=True))
        return _end_void(state, new, f"the stock is down to {hand.stock} cards", "moves")
    return replace_match(state, hand=new)


def _go_out(state: MatchState, ev: Knocked | Gin | BigGin) -> MatchState:
    how = {Knocked: "knock", Gin: "gin", BigGin: "big_gin"}[type(ev)]
    hand = _hand(state, ev.player, how.replace("_", " "))
    rules = state.rules
    i = state.index(ev.player)
    known = list(hand.known)
    sizes = list(hand.sizes)
    if isinstance(ev, BigGin):
        if rules.big_gin_bonus is None:
            raise _illegal("big gin is not played under these rules", "big-gin-off")
        if hand.phase != "discard":
            raise _illegal(f"{ev.player} must draw before going big gin", "draw-first")
        card = None
    else:
        card = ev.card
        _check_discard(state, hand, ev.player, card, how)
        known[i] &= ~card.bit
        sizes[i] -= 1
        seen = list(hand.seen)
        seen[i] &= ~card.bit
        hand = replace_hand(hand, seen=(seen[0], seen[1]))
    new = replace_hand(
        hand, phase="show", known=(known[0], known[1]), sizes=(sizes[0], sizes[1]), taken=None,
        ending=Ending(how, ev.player, card),  # type: ignore[arg-type]
    )
    if known[i].bit_count() == sizes[i]:  # the whole hand is known: check now, not at the show
        _check_going_out(rules, new, how, ev.player, known[i])
    return replace_match(state, hand=new)


def _check_going_out(rules: object, hand: HandState, how: str, player: str, mask: int) -> None:
    dead = deadwood_of_mask(mask)
    if how in ("gin", "big_gin") and dead:
        raise _illegal(f"{player} cannot go {how.replace('_', ' ')}: the best arrangement leaves {dead} deadwood", "not-gin")
    if how == "knock" and dead > hand.knock_limit:
        raise _illegal(
            f"{player} cannot knock: the best arrangement leaves {dead} deadwood, over the limit of {hand.knock_limit}",
            "knock-limit",
        )


def _shown_cards(state: MatchState, hand: HandState, ev: HandShown) -> tuple[int, int]:
    i = state.index(ev.player)
    shown = cards_mask(ev.cards)
    if shown.bit_count() != len(ev.cards):
        raise _illegal(f"{ev.player} shows a card twice", "duplicate-card")
    if len(ev.cards) != hand.sizes[i]:
        raise _illegal(f"{ev.player} holds {hand.sizes[i]} cards, not {len(ev.cards)}", "hand-size")
    missing = hand.known[i] & ~shown
    if missing:
        raise _illegal(
            f"{ev.player}'s hand must include {' '.join(map(str, mask_cards(missing)))} (taken from the pile, not discarded since)",
            "card-not-shown",
        )
    j = 1 - i
    elsewhere = shown & ~hand.known[i] & (hand.placed_mask() | hand.known[j])
    if elsewhere:
        card = mask_cards(elsewhere)[0]
        raise _illegal(f"{card} cannot be in {ev.player}'s hand: its place is known", "card-elsewhere")
    return i, shown


def _declared(cards: tuple[Card, ...], melds: tuple[tuple[Card, ...], ...]) -> Arrangement:
    try:
        return check_arrangement(cards, [Meld.of(m) for m in melds])
    except MeldError as exc:
        raise _illegal(exc.message, exc.rule) from None


def _show(state: MatchState, ev: HandShown) -> MatchState:
    hand = _hand(state, ev.player, "show a hand")
    if hand.phase == "show":
        return _show_knocker(state, hand, ev)
    if hand.phase == "defend":
        return _show_defender(state, hand, ev)
    raise _illegal("hands are shown only after a knock or gin", "show-early")


def _show_knocker(state: MatchState, hand: HandState, ev: HandShown) -> MatchState:
    ending = hand.ending
    assert ending is not None
    i, mask = _shown_cards(state, hand, ev)
    if ev.layoffs:
        raise _illegal("the knocker never lays off", "knocker-layoff")
    how = ending.how
    if ev.melds is not None:
        arr = _declared(ev.cards, ev.melds)
        candidates: tuple[Arrangement, ...] = (arr,)
    else:
        candidates = tuple(best_arrangements(mask))
        arr = candidates[0]
    dead = arr.deadwood_value
    if how in ("gin", "big_gin") and dead:
        raise _illegal(f"{ev.player} went {how.replace('_', ' ')} but shows {dead} deadwood", "not-gin")
    if how == "knock" and dead > hand.knock_limit:
        raise _illegal(
            f"{ev.player} knocked with {dead} deadwood, over the limit of {hand.knock_limit}", "knock-limit"
        )
    if how == "knock" and dead == 0:
        how = "gin"  # a knock with no deadwood is gin
    known = list(hand.known)
    known[i] = mask
    seen = list(hand.seen)
    seen[i] = mask
    hand = replace_hand(hand, seen=(seen[0], seen[1]))
    shown = Shown(ev.player, tuple(sorted(ev.cards)), arr.melds, (), arr.deadwood, ev.melds is not None)
    new_ending = Ending(how, ending.player, ending.card, shown, candidates)  # type: ignore[arg-type]
    new = replace_hand(hand, phase="defend", turn=state.other(ev.player), known=(known[0], known[1]), ending=new_ending)
    return replace_match(state, hand=new)


def _show_defender(state: MatchState, hand: HandState, ev: HandShown) -> MatchState:
    ending = hand.ending
    assert ending is not None and ending.knocker is not None
    i, mask = _shown_cards(state, hand, ev)
    gin = ending.how in ("gin", "big_gin")
    if gin and ev.layoffs:
        raise _illegal(f"no lay-offs after {ending.how.replace('_', ' ')}", "layoff-after-gin")
    knocker = ending.knocker
    layoffs: tuple[Card, ...] = ()
    if gin:
        arr = _declared(ev.cards, ev.melds) if ev.melds is not None else best_arrangements(mask)[0]
        melds, dead_cards = arr.melds, arr.deadwood
    elif ev.melds is None and ev.layoffs is None:
        # Everything to ginlog: among the knocker's equal arrangements, the one
        # that leaves the defender the least to lay off; then the defender's best.
        best = None
        for cand in ending.candidates:
            d = best_defence(ev.cards, cand.melds, chain_limit=state.rules.layoff_chain_limit)
            if best is None or d.deadwood_value > best[1].deadwood_value:
                best = (cand, d)
        assert best is not None
        cand, d = best
        knocker = attrs.evolve(knocker, melds=cand.melds, deadwood=cand.deadwood)
        melds, layoffs, dead_cards = d.melds, d.layoffs, d.deadwood
    else:
        layoffs = tuple(ev.layoffs or ())
        lay_mask = cards_mask(layoffs)
        if lay_mask & ~mask:
            raise _illegal(f"{mask_cards(lay_mask & ~mask)[0]} is laid off but not in the hand shown", "bad-layoff")
        chosen = None
        error: GinlogError | None = None
        for cand in ending.candidates:
            try:
                check_layoffs(cand.melds, layoffs, chain_limit=state.rules.layoff_chain_limit)
            except MeldError as exc:
                error = error or exc
                continue
            chosen = cand
            break
        if chosen is None:
            assert error is not None
            raise _illegal(error.message, error.rule)
        knocker = attrs.evolve(knocker, melds=chosen.melds, deadwood=chosen.deadwood)
        rest = tuple(c for c in ev.cards if not lay_mask & c.bit)
        arr = _declared(rest, ev.melds) if ev.melds is not None else best_arrangements(cards_mask(rest))[0]
        melds, dead_cards = arr.melds, arr.deadwood
    defender = Shown(ev.player, tuple(sorted(ev.cards)), melds, layoffs, dead_cards, ev.melds is not None)
    result = HandResult(
        ending.how, ending.player, knocker.deadwood_value, defender.deadwood_value, hand.upcard
    )
    known = list(hand.known)
    known[i] = mask
    done = replace_hand(hand, known=(known[0], known[1]))
    shown = (knocker, defender) if state.index(knocker.player) == 0 else (defender, knocker)
    return _finish(state, done, result, "moves", shown)


def _price(state: MatchState, result: HandResult) -> HandScore:
    out = result.out
    defender = state.other(out) if out is not None else None
    return price_hand(state.rules, result, defender)


def _finish(
    state: MatchState,
    hand: HandState | None,
    result: HandResult,
    recorded: str,
    shown: tuple[Shown, ...] = (),
    void_reason: str | None = None,
    number: int | None = None,
    dealer: str | None = None,
) -> MatchState:
    score = _price(state, result)
    dealer = dealer if hand is None else hand.dealer
    assert dealer is not None
    tally = state.tally.add(state.rules, score)
    finished = FinishedHand(
        number=hand.number if hand is not None else (number or len(state.hands) + 1),
        dealer=dealer,
        result=result,
        score=score,
        recorded=recorded,  # type: ignore[arg-type]
        shown=shown,
        void_reason=void_reason,
        totals=tally.points,
    )
    next_dealer = tally.next_dealer(state.rules, dealer, score)
    over = tally.winner is not None or state.rules.single_hand
    return replace_match(
        state,
        tally=tally,
        hands=state.hands + (finished,),
        hand=None,
        dealer=next_dealer,
        phase="over" if over else "ready",
    )


def _end_void(state: MatchState, hand: HandState, reason: str, recorded: str) -> MatchState:
    return _finish(state, hand, HandResult("void", None, 0, 0, hand.upcard), recorded, void_reason=reason)


def _void(state: MatchState, ev: HandVoid) -> MatchState:
    hand = state.hand
    if hand is None:
        raise _illegal("there is no hand in progress to void", "no-hand")
    return _end_void(state, hand, ev.reason, "moves")


def _result_only(state: MatchState, ev: HandResultOnly) -> MatchState:
    _require_ready(state, "a score-pad hand")
    rules = state.rules
    if ev.how == "void":
        if ev.out is not None:
            raise _illegal("a void hand has nobody going out", "result")
        result = HandResult("void", None, 0, 0, ev.upcard)
    else:
        if ev.out is None:
            raise _illegal(f"a {ev.how.replace('_', ' ')} names who went out ('out')", "result")
        _require_player(state, ev.out)
        if rules.oklahoma is not None and ev.upcard is None:
            raise _illegal("under Oklahoma the hand's first upcard sets the knock limit: give 'upcard'", "result")
        limit = rules.knock_limit_for(ev.upcard) if ev.upcard is not None else rules.knock_limit
        k = ev.knocker_deadwood
        if ev.how in ("gin", "big_gin") and k:
            raise _illegal(f"{ev.how.replace('_', ' ')} leaves no deadwood, not {k}", "not-gin")
        if ev.how == "big_gin" and rules.big_gin_bonus is None:
            raise _illegal("big gin is not played under these rules", "big-gin-off")
        if ev.how == "knock" and k > limit:
            raise _illegal(f"a knock with {k} deadwood is over the limit of {limit}", "knock-limit")
        if ev.defender_deadwood > 98:
            raise _illegal(f"no ten cards leave {ev.defender_deadwood} deadwood (98 at most)", "result")
        result = HandResult(ev.how, ev.out, k, ev.defender_deadwood, ev.upcard)
    score = _price(state, result)
    if ev.points is not None and ev.points != score.points:
        raise _illegal(
            f"the pad says {ev.points} points, but the rules give {score.points} ({score.outcome})", "points-mismatch"
        )
    if ev.winner is not None and ev.winner != score.winner:
        raise _illegal(f"the pad says {ev.winner} won the hand, but it was {score.winner}", "points-mismatch")
    return _finish(state, None, result, "result", dealer=state.dealer)


def _started_twice(state: MatchState, ev: MatchStarted) -> MatchState:
    raise _illegal("match_started may only be the first line", "first-event")


_HANDLERS: Final = {
    MatchStarted: _started_twice,
    FirstDealer: _first_dealer,
    HandDealt: _deal,
    UpcardPassed: _pass,
    CardDrawn: _draw,
    CardDiscarded: _discard,
    Knocked: _go_out,
    Gin: _go_out,
    BigGin: _go_out,
    HandShown: _show,
    HandResultOnly: _result_only,
    HandVoid: _void,
    MatchAbandoned: _abandon,
}


def legal_actions(state: MatchState) -> list[str]:
    """What the player to act may do now, in words for the recorder's prompt."""
    if state.phase == "setup":
        return ["dealer NAME", "cut NAME CARD NAME CARD"]
    if state.phase == "ready":
        return ["upcard CARD (deal the next hand)", "result ... (a score-pad hand)"]
    if state.phase in ("over", "abandoned"):
        return []
    hand = state.hand
    assert hand is not None
    if hand.phase == "offer":
        return [f"take (the upcard {hand.pile_top})", "pass"]
    if hand.phase == "wall":
        return [f"take ({hand.pile_top}) only to knock or go gin", "pass (the hand is void)"]
    if hand.phase == "draw":
        if hand.passes == 2 and hand.stock == 31:
            return ["stock [CARD]"]
        return ["stock [CARD]", f"take ({hand.pile_top} from the pile)"]
    if hand.phase == "discard" and hand.wall:
        return ["knock CARD", "gin CARD"]
    if hand.phase == "discard":
        acts = ["discard CARD", "knock CARD", "gin CARD"]
        if state.rules.big_gin_bonus is not None:
            acts.append("biggin")
        return acts
    return ["show CARD... (the whole hand)"]
