"""The rules of a hand's end: the hands shown, lay-offs, voids, score-pad hands, and the score.

:func:`finish` is where every hand ends: it prices the result, adds the
hand to the sheet and the tally, and says who deals next (all by seat).
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from ginlog.errors import GinlogError, MeldError
from ginlog.game.cards import Card, cards_mask, mask_cards
from ginlog.game.layoffs import best_defence, check_layoffs
from ginlog.game.melds import Arrangement, Meld, best_arrangements, check_arrangement
from ginlog.game.scoring import HandResult, check_hand_points, price_hand
from ginlog.game.seats import OTHER, Seat, seat_of
from ginlog.log.events import HandResultOnly, HandShown, HandVoid
from ginlog.play.guards import illegal, require_ready, turn_hand
from ginlog.play.state import Ending, FinishedHand, Shown
from ginlog.play.working import WorkingHand, WorkingMatch

__all__ = ["hand_shown", "hand_void", "hand_result", "finish", "end_void"]

Recorded = Literal["moves", "result"]


def _shown_cards(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> int:
    """The mask of the cards ``ev`` shows for the seat to play, checked against what the record knows."""
    i = hand.turn
    shown = cards_mask(ev.cards)
    if shown.bit_count() != len(ev.cards):
        raise illegal(f"{ev.player} shows a card twice", "duplicate-card")
    if len(ev.cards) != hand.sizes[i]:
        raise illegal(f"{ev.player} holds {hand.sizes[i]} cards, not {len(ev.cards)}", "hand-size")
    known = hand.known[i]
    if shown == known:  # the record knew the whole hand
        return shown
    missing = known & ~shown
    if missing:
        raise illegal(
            f"{ev.player}'s hand must include {' '.join(map(str, mask_cards(missing)))} (taken from the pile, not discarded since)",
            "card-not-shown",
        )
    elsewhere = shown & ~known & (hand.placed_mask() | hand.known[OTHER[i]])
    if elsewhere:
        card = mask_cards(elsewhere)[0]
        raise illegal(f"{card} cannot be in {ev.player}'s hand: its place is known", "card-elsewhere")
    return shown


def _declared(cards: tuple[Card, ...], melds: tuple[tuple[Card, ...], ...]) -> Arrangement:
    try:
        built: list[Any] = [_meld(m) for m in melds]  # every meld checked before any overlap
        return check_arrangement(cards, built)
    except MeldError as exc:
        raise illegal(exc.message, exc.rule) from None


#: Melds already checked, by the cards declared (there are 185 melds; a replay declares them again and again).
_MELDS: dict[tuple[Card, ...], Meld] = {}


def _meld(cards: tuple[Card, ...]) -> Meld:
    """``Meld.of(cards)`` (a :class:`MeldError` if they are none), remembered: a meld is a value."""
    meld = _MELDS.get(cards)
    if meld is None:
        meld = Meld.of(cards)
        if len(_MELDS) >= 4096:
            _MELDS.clear()
        _MELDS[cards] = meld
    return meld


def hand_shown(state: WorkingMatch, ev: HandShown) -> None:
    hand = turn_hand(state, ev.player, "show a hand")
    if hand.phase == "show":
        _show_knocker(state, hand, ev)
    elif hand.phase == "defend":
        _show_defender(state, hand, ev)
    else:
        raise illegal("hands are shown only after a knock or gin", "show-early")


def _show_knocker(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> None:
    ending = hand.ending
    assert ending is not None
    i = hand.turn
    mask = _shown_cards(state, hand, ev)
    if ev.layoffs:
        raise illegal("the knocker never lays off", "knocker-layoff")
    how = ending.how
    if ev.melds is not None:
        arr = _declared(ev.cards, ev.melds)
        candidates: tuple[Arrangement, ...] = (arr,)
    else:
        candidates = tuple(best_arrangements(mask))
        arr = candidates[0]
    dead = arr.deadwood_value
    if how != "knock":
        if dead:
            raise illegal(f"{ev.player} went {how.replace('_', ' ')} but shows {dead} deadwood", "not-gin")
    elif dead > hand.knock_limit:
        raise illegal(f"{ev.player} knocked with {dead} deadwood, over the limit of {hand.knock_limit}", "knock-limit")
    elif not dead:
        how = "gin"  # a knock with no deadwood is gin
    shown = Shown(i, mask_cards(mask), arr.melds, (), arr.deadwood, ev.melds is not None)
    hand.known[i] = mask
    hand.seen[i] = mask
    hand.ending = Ending(how, ending.player, ending.card, shown, candidates)
    hand.phase = "defend"
    hand.turn = OTHER[i]


def _show_defender(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> None:
    ending = hand.ending
    assert ending is not None and ending.knocker is not None
    i = hand.turn
    mask = _shown_cards(state, hand, ev)
    gin = ending.how != "knock"
    if gin and ev.layoffs:
        raise illegal(f"no lay-offs after {ending.how.replace('_', ' ')}", "layoff-after-gin")
    if ev.layoffs and not state.rules.layoffs:
        raise illegal("these rules play no lay-offs", "no-layoffs")
    knocker = ending.knocker
    layoffs: tuple[Card, ...] = ()
    if gin or not state.rules.layoffs:
        arr = _declared(ev.cards, ev.melds) if ev.melds is not None else best_arrangements(mask)[0]
        melds, dead_cards = arr.melds, arr.deadwood
    elif ev.melds is None and ev.layoffs is None:
        # Everything to ginlog: among the knocker's equal arrangements, the one
        # that leaves the defender the least to lay off; then the defender's best.
        best = None
        for cand in ending.candidates:
            d = best_defence(mask, cand.melds, chain_limit=state.rules.layoff_chain_limit)
            if best is None or d.deadwood_value > best[1].deadwood_value:
                best = (cand, d)
        assert best is not None
        cand, d = best
        if cand.melds != knocker.melds:
            knocker = attrs.evolve(knocker, melds=cand.melds, deadwood=cand.deadwood)
        melds, layoffs, dead_cards = d.melds, d.layoffs, d.deadwood
    else:
        layoffs = tuple(ev.layoffs or ())
        lay_mask = cards_mask(layoffs)
        if lay_mask & ~mask:
            raise illegal(f"{mask_cards(lay_mask & ~mask)[0]} is laid off but not in the hand shown", "bad-layoff")
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
            raise illegal(error.message, error.rule)
        if chosen.melds != knocker.melds:
            knocker = attrs.evolve(knocker, melds=chosen.melds, deadwood=chosen.deadwood)
        rest = tuple(c for c in ev.cards if not lay_mask & c.bit)
        arr = _declared(rest, ev.melds) if ev.melds is not None else best_arrangements(cards_mask(rest))[0]
        melds, dead_cards = arr.melds, arr.deadwood
    defender = Shown(i, mask_cards(mask), melds, layoffs, dead_cards, ev.melds is not None)
    result = HandResult(ending.how, ending.player, knocker.deadwood_value, defender.deadwood_value, hand.upcard)
    shown = (knocker, defender) if i else (defender, knocker)  # by seat
    finish(state, hand, result, "moves", shown)


def finish(
    state: WorkingMatch,
    hand: WorkingHand | None,
    result: HandResult,
    recorded: Recorded,
    shown: tuple[Shown, ...] = (),
    void_reason: str | None = None,
    dealer: Seat | None = None,
) -> None:
    """Score a hand, add it to the sheet and end it (ending the match when it is won)."""
    rules = state.rules
    score = price_hand(rules, result)
    if hand is None:
        number = len(state.hands) + 1
    else:
        number, dealer = hand.number, hand.dealer
    assert dealer is not None
    tally = state.tally.add(rules, score)
    state.hands.append(FinishedHand(number, dealer, result, score, recorded, shown, void_reason, tally.points))
    state.dealer = tally.next_dealer(rules, dealer, score)
    state.tally = tally
    state.hand = None
    state.phase = "over" if tally.over or rules.single_hand else "ready"


def end_void(state: WorkingMatch, hand: WorkingHand, reason: str, recorded: Recorded) -> None:
    finish(state, hand, HandResult("void", None, 0, 0, hand.upcard), recorded, void_reason=reason)


def hand_void(state: WorkingMatch, ev: HandVoid) -> None:
    hand = state.hand
    if hand is None:
        raise illegal("there is no hand in progress to void", "no-hand")
    rules = state.rules
    if rules.dead_stock_pickups:  # RLCard: a dead hand is declared at the start of a turn, and only at the dead stock or the limit
        limit = rules.move_limit
        at_limit = limit is not None and 1 + hand.moves >= limit
        if hand.phase != "draw" or not (hand.stock <= rules.void_stock_size or at_limit):
            raise illegal(
                f"a hand is declared dead only before a draw, at {rules.void_stock_size} cards in the stock"
                + (f" or after {limit} moves" if limit is not None else ""),
                "dead-hand",
            )
    end_void(state, hand, ev.reason, "moves")


def hand_result(state: WorkingMatch, ev: HandResultOnly) -> None:
    require_ready(state, "a score-pad hand")
    rules = state.rules
    players = state.players
    if ev.how == "void":
        if ev.out is not None:
            raise illegal("a void hand has nobody going out", "result")
        result = HandResult("void", None, 0, 0, ev.upcard)
    elif ev.how == "points":
        result = _points_only(state, ev)
    else:
        if ev.out is None:
            raise illegal(f"a {ev.how.replace('_', ' ')} names who went out ('out')", "result")
        out = seat_of(players, ev.out)
        if rules.oklahoma is not None and ev.upcard is None:
            raise illegal("under Oklahoma the hand's first upcard sets the knock limit: give 'upcard'", "result")
        limit = rules.knock_limit_for(ev.upcard) if ev.upcard is not None else rules.knock_limit
        k = ev.knocker_deadwood
        if ev.how in ("gin", "big_gin") and k:
            raise illegal(f"{ev.how.replace('_', ' ')} leaves no deadwood, not {k}", "not-gin")
        if ev.how == "big_gin" and rules.big_gin_bonus is None:
            raise illegal("big gin is not played under these rules", "big-gin-off")
        if ev.how == "knock" and k > limit:
            raise illegal(f"a knock with {k} deadwood is over the limit of {limit}", "knock-limit")
        if ev.defender_deadwood > 98:
            raise illegal(f"no ten cards leave {ev.defender_deadwood} deadwood (98 at most)", "result")
        result = HandResult(ev.how, out, k, ev.defender_deadwood, ev.upcard)
    score = price_hand(rules, result)
    if ev.how == "points":
        pass  # the pad's points and winner are the facts, not a claim to check
    elif ev.points is not None and ev.points != score.points:
        raise illegal(
            f"the pad says {ev.points} points, but the rules give {score.points} ({score.outcome})", "points-mismatch"
        )
    winner = None if score.winner is None else players[score.winner]
    if ev.winner is not None and ev.winner != winner:  # the pad's claim, by name (a name not playing is wrong too)
        raise illegal(f"the pad says {ev.winner} won the hand, but it was {winner}", "points-mismatch")
    finish(state, None, result, "result", dealer=state.dealer)


def _points_only(state: WorkingMatch, ev: HandResultOnly) -> HandResult:
    """A pad's ``Ann +25``: who scored and how much (bounded by the most a hand scores under the rules)."""
    if ev.winner is None or ev.points is None:
        raise illegal("a points-only hand names who scored ('winner') and how much ('points')", "result")
    if ev.out is not None or ev.knocker_deadwood or ev.defender_deadwood or ev.upcard is not None:
        raise illegal(
            "a points-only hand says only who scored how much: no 'out', deadwood or 'upcard'"
            " (record the deadwood with 'result knock' or 'result gin' instead)",
            "result",
        )
    check_hand_points(state.rules, ev.points)
    return HandResult("points", scorer=seat_of(state.players, ev.winner), points=ev.points)
