"""The reducer: ``apply(state, event) -> state``, and every rule of play it enforces.

Pure: no files, no clock, no terminal. The same events always give the same
state, so a replay to any event is just a fold over a prefix. An illegal event
raises :class:`~ginlog.errors.IllegalMove` naming the rule (``rule``) and
what was expected; the caller (the log reader, the recorder) adds the place.

Recording is the same path: an entry becomes a candidate event, :func:`apply`
checks it against the current state, and only then is it written.

>>> from ginlog.log.events import *
>>> from ginlog.game.rules import preset
>>> from ginlog.game.cards import parse_card as c
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

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

from ginlog.game.cards import Card, cards_mask, mask_cards
from ginlog.errors import GinlogError, IllegalMove, MeldError
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
    MatchAbandoned,
    MatchStarted,
    Note,
    UpcardPassed,
)
from ginlog.game.melds import (
    Arrangement,
    Meld,
    best_arrangements,
    best_defence,
    check_arrangement,
    check_layoffs,
)
from ginlog.game.scoring import HandResult, HandScore, Tally, price_hand
from ginlog.play.state import Ending, FinishedHand, MatchState, Shown, Timeline
from ginlog.play.working import WorkingHand, WorkingMatch, thaw

__all__ = ["start", "apply", "step", "fold", "Fold", "Rewind", "UNDO_DEPTH", "SNAPSHOT_EVERY", "legal_actions"]

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
    work = thaw(state)
    _handler(event)(work, event)
    return work.freeze()


def _handler(event: Event) -> Callable[[WorkingMatch, Any], None]:
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise _illegal(f"{type(event).__name__} is not an event the reducer knows", "unknown-event")
    return handler


def _correction(tl: Timeline, ev: Correction) -> Timeline:
    _check_correction(ev, tl.seq, len(tl.back))
    seq, previous = tl.back[-1]
    return Timeline(previous, seq, tl.back[:-1])


def _check_correction(ev: Correction, last: int, depth: int) -> None:
    if not depth:
        raise _illegal(
            "there is nothing left to undo" if last <= 1 else f"corrections go back at most {UNDO_DEPTH} events",
            "correction",
        )
    if ev.undoes != last:
        raise _illegal(
            f"a correction undoes the last effective event, which is event {last}, not {ev.undoes}",
            "correction",
        )


# ---------------------------------------------------------------------------
# A whole log at once


#: How often (in effective events) a :class:`Fold` keeps a frozen snapshot.
SNAPSHOT_EVERY: Final = 128


@attrs.frozen
class Rewind:
    """The end of a folded log, enough to rebuild its exact :class:`Timeline`.

    ``base`` is a state at least as far back as corrections can reach,
    ``events`` the effective ``(seq, event)`` pairs since, and ``depth`` how
    many of them a correction may still undo.
    """

    base: MatchState
    base_seq: int
    events: tuple[tuple[int, Event], ...]
    depth: int

    def timeline(self) -> Timeline:
        """Re-apply :attr:`events` from :attr:`base` (at most a few hundred events)."""
        tl = Timeline(self.base, self.base_seq)
        for seq, ev in self.events:
            tl = apply(tl, ev, seq)
        back = tl.back[len(tl.back) - self.depth:] if self.depth else ()
        return Timeline(tl.state, tl.seq, back)


class Fold:
    """Fold a log event by event, as :func:`apply` would, without a frozen state per event.

    The rules edit one working copy (:mod:`ginlog.play.working`) in place. So
    that a correction can still go back :data:`UNDO_DEPTH` events, the fold
    keeps a frozen snapshot every :data:`SNAPSHOT_EVERY` effective events and
    the effective events since the oldest snapshot it may need; a correction,
    or an illegal event that may have left the copy half-edited, rebuilds the
    copy from the nearest snapshot. Seen from outside it is the same pure
    function of the events as :func:`apply` (a property test holds the two to
    the same states and the same errors).

    >>> from ginlog.log.events import *
    >>> from ginlog.game.rules import preset
    >>> f = Fold(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    >>> f.apply(FirstDealer(dealer="Ann", how="agreed"), 2)
    >>> f.apply(Correction(undoes=2), 3)
    >>> f.state.phase, f.rewind().timeline().seq
    ('setup', 1)
    """

    __slots__ = ("_work", "_n", "_seq", "_depth", "_snaps", "_events", "_next_snapshot")

    def __init__(self, first: MatchStarted, seq: int = 1) -> None:
        state = start(first, seq).state
        self._work = thaw(state)
        self._n = 0  # effective events applied
        self._seq = seq  # the last effective event's seq
        self._depth = 0  # how many of them a correction may undo (Timeline.back's length)
        # (n, seq, state, k) after the n-th effective event, oldest first. The
        # state is frozen without its score sheet (copying that would grow with
        # the match); k is the sheet's length then: the working copy's list of
        # finished hands only grows, so its first k entries are that sheet.
        # _events holds the effective events after the oldest snapshot.
        self._snaps: list[tuple[int, int, MatchState, int]] = [(0, seq, state, 0)]
        self._events: list[tuple[int, Event]] = []
        self._next_snapshot = SNAPSHOT_EVERY  # the n at which to take the next snapshot

    @property
    def state(self) -> MatchState:
        return self._work.freeze()

    @property
    def seq(self) -> int:
        return self._seq

    def apply(self, event: Event, seq: int) -> None:
        """Apply one event; on :class:`IllegalMove` the fold is as it was before it."""
        handler = _HANDLERS.get(type(event))
        if handler is None:  # a correction, a note, or not an event
            if type(event) is Correction:
                self._correct(event)  # type: ignore[arg-type]
                return
            if type(event) is not Note:
                _handler(event)  # raises
        else:
            try:
                handler(self._work, event)
            except BaseException:
                self._recover()
                raise
        self._n = n = self._n + 1
        self._seq = seq
        self._events.append((seq, event))
        if self._depth < UNDO_DEPTH:
            self._depth += 1
        if n >= self._next_snapshot:
            self._snapshot()

    def apply_run(
        self, events: Sequence[Event], seq: int, start: int = 0
    ) -> tuple[int, GinlogError | None]:
        """Apply ``events[start:]`` in turn, ``events[i]`` being event ``seq + i``; stop at the first illegal one.

        Returns how far it got and that event's error, or ``(len(events), None)``;
        the fold is then as after the events before it. The same as
        :meth:`apply` on each event, with the bookkeeping done once per stretch
        between snapshots instead of once per event: this is the replay's
        inner loop (see :class:`ginlog.log.store.KnownRun`).
        """
        i, end = start, len(events)
        while i < end:
            stop = min(end, i + max(1, self._next_snapshot - self._n))
            work = self._work
            j = i
            try:
                while j < stop:
                    event = events[j]
                    handler = _HANDLERS.get(type(event))
                    if handler is None:
                        break  # a correction, a note or not an event: apply() below
                    handler(work, event)
                    j += 1
            except BaseException as exc:
                self._applied(events, seq, i, j)
                self._recover()
                if isinstance(exc, GinlogError):
                    return j, exc
                raise
            self._applied(events, seq, i, j)
            if j < stop:
                try:
                    self.apply(events[j], seq + j)
                except GinlogError as exc:
                    return j, exc
                j += 1
            elif self._n >= self._next_snapshot:
                self._snapshot()
            i = j
        return end, None

    def _applied(self, events: Sequence[Event], seq: int, i: int, j: int) -> None:
        """Book ``events[i:j]``, already applied to the working copy, as :meth:`apply` books each."""
        if j > i:
            self._n += j - i
            self._seq = seq + j - 1
            self._events += zip(range(seq + i, seq + j), events[i:j])
            self._depth = min(UNDO_DEPTH, self._depth + j - i)

    def _recover(self) -> None:
        """After an event failed half-way: the working copy as before it, from the nearest snapshot."""
        self._rebuild()
        if self._snaps[-1][0] != self._n:
            self._snapshot()  # so that a run of bad lines rebuilds from here, not from far back

    def _snapshot(self) -> None:
        snaps = self._snaps
        work = self._work
        snaps.append((self._n, self._seq, work.freeze(sheet=False), len(work.hands)))
        self._next_snapshot = self._n + SNAPSHOT_EVERY
        # Keep the newest snapshot at least UNDO_DEPTH events back, and all after it.
        while len(snaps) > 1 and snaps[1][0] <= self._n - UNDO_DEPTH:
            del self._events[: snaps[1][0] - snaps[0][0]]
            del snaps[0]

    def _correct(self, ev: Correction) -> None:
        _check_correction(ev, self._seq, self._depth)
        self._n -= 1
        self._depth -= 1
        self._events.pop()
        snaps = self._snaps
        while snaps[-1][0] > self._n:
            del snaps[-1]
        self._next_snapshot = snaps[-1][0] + SNAPSHOT_EVERY
        self._seq = self._events[-1][0] if self._events else snaps[0][1]
        self._rebuild()

    def _rebuild(self) -> None:
        """Make the working copy again from the newest snapshot and the events since."""
        snaps = self._snaps
        n, _seq, state, k = snaps[-1]
        sheet = self._work.hands
        del sheet[k:]
        work = thaw(state)
        work.hands = sheet
        for _s, ev in self._events[n - snaps[0][0]:]:
            if type(ev) is not Note:
                _HANDLERS[type(ev)](work, ev)
        self._work = work

    def rewind(self) -> Rewind:
        """What it takes to rebuild this log's exact :class:`Timeline` (see :class:`Rewind`)."""
        snaps = self._snaps
        base_n, base_seq, base, k = next(s for s in reversed(snaps) if s[0] <= self._n - self._depth)
        base = attrs.evolve(base, hands=tuple(self._work.hands[:k]))
        return Rewind(base, base_seq, tuple(self._events[base_n - snaps[0][0]:]), self._depth)


# ---------------------------------------------------------------------------
# Match-level events (each handler edits a working copy; see ginlog.play.working)


def _require_player(state: WorkingMatch, player: str) -> None:
    if player not in state.players:
        raise _illegal(f"{player!r} is not a player in this match ({' and '.join(state.players)})", "unknown-player")


def _first_dealer(state: WorkingMatch, ev: FirstDealer) -> None:
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
    state.phase = "ready"
    state.dealer = ev.dealer
    state.first_dealer_how = ev.how


def _require_ready(state: WorkingMatch, what: str) -> None:
    if state.phase == "ready":
        return
    if state.phase == "setup":
        raise _illegal(f"{what}: choose the first dealer first", "first-dealer")
    if state.phase == "hand":
        raise _illegal(f"{what}: hand {state.hand.number if state.hand else '?'} is still being played", "hand-in-progress")
    if state.phase == "over":
        raise _illegal(f"{what}: the match is over", "match-over")
    if state.phase == "abandoned":
        raise _illegal(f"{what}: the match was abandoned", "match-over")


def _deal(state: WorkingMatch, ev: HandDealt) -> None:
    _require_ready(state, "a new hand")
    dealer = state.dealer
    assert dealer is not None
    if ev.dealer != dealer:
        raise _illegal(f"{dealer} deals this hand, not {ev.dealer}", "dealer")
    known = [0, 0]
    upcard = ev.upcard
    up = upcard.bit
    if ev.hands is not None:
        for name, cards in ev.hands.items():
            _require_player(state, name)
            if len(cards) != HAND_SIZE:
                raise _illegal(f"{name} is dealt {len(cards)} cards, not {HAND_SIZE}", "deal")
            mask = cards_mask(cards)
            if mask.bit_count() != HAND_SIZE:
                raise _illegal(f"{name} is dealt a card twice", "duplicate-card")
            known[state.index(name)] = mask
        if known[0] & known[1]:
            raise _illegal(f"{mask_cards(known[0] & known[1])[0]} is dealt to both players", "duplicate-card")
        if (known[0] | known[1]) & up:
            raise _illegal(f"the upcard {upcard} is also dealt to a player", "duplicate-card")
    stock = ev.stock
    if stock is not None:
        if len(stock) != 31:
            raise _illegal(f"the stock holds 31 cards after the deal, not {len(stock)}", "deal")
        sm = cards_mask(stock)
        if sm.bit_count() != 31:
            raise _illegal("the stock lists a card twice", "duplicate-card")
        if sm & (known[0] | known[1] | up):
            raise _illegal(f"{mask_cards(sm & (known[0] | known[1] | up))[0]} is in the stock and dealt too", "duplicate-card")
    state.hand = WorkingHand(
        len(state.hands) + 1, dealer, upcard, state.rules.knock_limit_for(upcard), "offer", state.other(dealer), 31,
        [upcard], known, [HAND_SIZE, HAND_SIZE], stock,
    )
    state.phase = "hand"


def _abandon(state: WorkingMatch, ev: MatchAbandoned) -> None:
    if state.finished:
        raise _illegal("the match is already over", "match-over")
    state.phase = "abandoned"
    state.abandoned = ev.reason
    state.hand = None


# ---------------------------------------------------------------------------
# Play within a hand


def _hand(state: WorkingMatch, player: str, what: str) -> WorkingHand:
    hand = state.hand
    if hand is None:
        if state.phase in ("over", "abandoned"):
            raise _illegal(f"{what}: the match is over", "match-over")
        raise _illegal(f"{what}: no hand is being played (deal one first)", "no-hand")
    if player != hand.turn:
        _require_player(state, player)
        raise _illegal(f"it is {hand.turn}'s turn, not {player}'s", "turn-order")
    return hand


def _possible_in_hand(state: WorkingMatch, hand: WorkingHand, i: int, card: Card, what: str) -> None:
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


_DRAW_PHASES: Final = frozenset({"offer", "draw", "wall"})


def _draw(state: WorkingMatch, ev: CardDrawn) -> None:
    hand = state.hand
    if hand is None or ev.player != hand.turn:
        hand = _hand(state, ev.player, "draw")  # raises
    i = state.players.index(ev.player)
    phase = hand.phase
    if phase not in _DRAW_PHASES:
        raise _illegal(f"{ev.player} has drawn already: discard, knock or go gin", "draw-twice")
    card = ev.card
    if ev.source == "pile":
        if phase == "draw" and hand.passes == 2 and hand.stock == 31:
            raise _illegal("both players passed the upcard: the non-dealer draws from the stock", "upcard-offer")
        pile = hand.pile
        if not pile:
            raise _illegal("the discard pile is empty", "empty-pile")
        top = pile[-1]
        if card is not None and card is not top and card != top:
            raise _illegal(f"the top of the pile is {top}, not {card}", "pile-top")
        counted = phase == "draw" and not hand.wall
        takes = hand.upcard_takes + counted
        pile.pop()
        hand.known[i] |= top.bit
        hand.seen[i] |= top.bit
        hand.sizes[i] += 1
        hand.phase = "discard"
        hand.taken = top
        hand.upcard_takes = takes
        hand.counted_take = counted
        limit = state.rules.upcard_take_limit
        if counted and limit is not None and takes >= limit:
            _end_void(state, hand, f"the upcard was taken {takes} times", "moves")
        return
    # from the stock
    if phase == "offer":
        raise _illegal(f"the upcard is offered first: {ev.player} takes it or passes", "upcard-offer")
    if hand.wall:
        raise _illegal(
            f"the stock is down to {hand.stock} cards: {ev.player} may only take the upcard to knock, or pass",
            "wall",
        )
    stock = hand.stock
    if stock <= 0:
        raise _illegal("the stock is empty", "empty-stock")
    stock_order = hand.stock_order
    bit = 0
    if stock_order is not None:
        nxt = stock_order[0]
        if card is not None and card is not nxt and card != nxt:
            raise _illegal(f"the next stock card is {nxt}, not {card}", "stock-order")
        bit = nxt.bit
        hand.stock_order = stock_order[1:]
    elif card is not None:
        bit = card.bit
        if bit & hand.placed_mask():
            raise _illegal(f"{card} cannot be in the stock: its place is known", "card-elsewhere")
    hand.known[i] |= bit
    hand.sizes[i] += 1
    hand.stock = stock - 1
    hand.phase = "discard"
    hand.taken = None


def _pass(state: WorkingMatch, ev: UpcardPassed) -> None:
    hand = _hand(state, ev.player, "pass")
    if hand.phase == "wall":
        _end_void(state, hand, f"the stock is down to {hand.stock} cards and {ev.player} passed", "moves")
        return
    if hand.phase != "offer":
        raise _illegal("passing is only for the first upcard; now draw from the stock or the pile", "upcard-offer")
    if hand.passes == 0:
        hand.passes = 1
        hand.turn = hand.dealer
    else:
        hand.passes = 2
        hand.phase = "draw"
        hand.turn = state.other(hand.dealer)


def _check_discard(state: WorkingMatch, hand: WorkingHand, player: str, card: Card, what: str) -> int:
    if hand.phase != "discard":
        raise _illegal(f"{player} must draw before they {what}", "draw-first")
    i = state.players.index(player)
    taken = hand.taken
    if taken is not None and taken == card and not state.rules.may_discard_taken_card:
        raise _illegal(f"{player} may not {what} {card}, taken from the pile this turn", "discard-taken-card")
    if not hand.known[i] & card.bit:
        _possible_in_hand(state, hand, i, card, what)
    return i


def _discard(state: WorkingMatch, ev: CardDiscarded) -> None:
    hand = state.hand
    if hand is None or ev.player != hand.turn:
        hand = _hand(state, ev.player, "discard")  # raises
    card = ev.card
    i = _check_discard(state, hand, ev.player, card, "discard")
    if hand.wall:
        raise _illegal(f"at the two-card stock {ev.player} took the upcard only to knock or go gin", "wall")
    rules = state.rules
    bounced = ev.player if hand.counted_take and hand.taken == card else None
    before = hand.bounced
    kept = ~card.bit
    hand.known[i] &= kept
    hand.seen[i] &= kept
    hand.sizes[i] -= 1
    hand.pile.append(card)
    hand.phase = "draw"
    hand.turn = state.players[1 - i]
    hand.taken = None
    hand.bounced = bounced
    if rules.void_on_upcard_loop and bounced is not None and before is not None and before != ev.player:
        _end_void(state, hand, "both players took the upcard and discarded it straight back", "moves")
    elif hand.stock <= rules.void_stock_size:
        if rules.wall_knock:
            hand.phase = "wall"
            hand.wall = True
        else:
            _end_void(state, hand, f"the stock is down to {hand.stock} cards", "moves")


#: Each way of going out: its name in an :class:`~ginlog.play.state.Ending`, and in words.
_HOW: Final = {Knocked: ("knock", "knock"), Gin: ("gin", "gin"), BigGin: ("big_gin", "big gin")}


def _go_out(state: WorkingMatch, ev: Knocked | Gin | BigGin) -> None:
    how, words = _HOW[type(ev)]
    hand = _hand(state, ev.player, words)
    card: Card | None
    if how == "big_gin":
        if state.rules.big_gin_bonus is None:
            raise _illegal("big gin is not played under these rules", "big-gin-off")
        if hand.phase != "discard":
            raise _illegal(f"{ev.player} must draw before going big gin", "draw-first")
        card = None
        i = state.index(ev.player)
        known, size = hand.known[i], hand.sizes[i]
    else:
        card = ev.card
        i = _check_discard(state, hand, ev.player, card, how)
        known, size = hand.known[i] & ~card.bit, hand.sizes[i] - 1
    if known.bit_count() == size:  # the whole hand is known: check now, not at the show
        _check_going_out(hand.knock_limit, how, ev.player, known)
    if card is not None:
        hand.seen[i] &= ~card.bit
    hand.known[i] = known
    hand.sizes[i] = size
    hand.phase = "show"
    hand.taken = None
    hand.ending = Ending(how, ev.player, card)  # type: ignore[arg-type]


def _check_going_out(knock_limit: int, how: str, player: str, mask: int) -> None:
    # Not deadwood_of_mask: the show asks for this hand's arrangements, which are then remembered.
    dead = best_arrangements(mask)[0].deadwood_value
    if how in ("gin", "big_gin") and dead:
        raise _illegal(f"{player} cannot go {how.replace('_', ' ')}: the best arrangement leaves {dead} deadwood", "not-gin")
    if how == "knock" and dead > knock_limit:
        raise _illegal(
            f"{player} cannot knock: the best arrangement leaves {dead} deadwood, over the limit of {knock_limit}",
            "knock-limit",
        )


def _shown_cards(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> tuple[int, int]:
    i = state.index(ev.player)
    shown = cards_mask(ev.cards)
    if shown.bit_count() != len(ev.cards):
        raise _illegal(f"{ev.player} shows a card twice", "duplicate-card")
    if len(ev.cards) != hand.sizes[i]:
        raise _illegal(f"{ev.player} holds {hand.sizes[i]} cards, not {len(ev.cards)}", "hand-size")
    known = hand.known[i]
    if shown == known:  # the record knew the whole hand
        return i, shown
    missing = known & ~shown
    if missing:
        raise _illegal(
            f"{ev.player}'s hand must include {' '.join(map(str, mask_cards(missing)))} (taken from the pile, not discarded since)",
            "card-not-shown",
        )
    elsewhere = shown & ~known & (hand.placed_mask() | hand.known[1 - i])
    if elsewhere:
        card = mask_cards(elsewhere)[0]
        raise _illegal(f"{card} cannot be in {ev.player}'s hand: its place is known", "card-elsewhere")
    return i, shown


def _declared(cards: tuple[Card, ...], melds: tuple[tuple[Card, ...], ...]) -> Arrangement:
    try:
        return check_arrangement(cards, [Meld.of(m) for m in melds])
    except MeldError as exc:
        raise _illegal(exc.message, exc.rule) from None


def _show(state: WorkingMatch, ev: HandShown) -> None:
    hand = _hand(state, ev.player, "show a hand")
    if hand.phase == "show":
        _show_knocker(state, hand, ev)
    elif hand.phase == "defend":
        _show_defender(state, hand, ev)
    else:
        raise _illegal("hands are shown only after a knock or gin", "show-early")


def _show_knocker(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> None:
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
    if how != "knock":
        if dead:
            raise _illegal(f"{ev.player} went {how.replace('_', ' ')} but shows {dead} deadwood", "not-gin")
    elif dead > hand.knock_limit:
        raise _illegal(
            f"{ev.player} knocked with {dead} deadwood, over the limit of {hand.knock_limit}", "knock-limit"
        )
    elif not dead:
        how = "gin"  # a knock with no deadwood is gin
    shown = Shown(ev.player, mask_cards(mask), arr.melds, (), arr.deadwood, ev.melds is not None)
    hand.known[i] = mask
    hand.seen[i] = mask
    hand.ending = Ending(how, ending.player, ending.card, shown, candidates)  # type: ignore[arg-type]
    hand.phase = "defend"
    hand.turn = state.other(ev.player)


def _show_defender(state: WorkingMatch, hand: WorkingHand, ev: HandShown) -> None:
    ending = hand.ending
    assert ending is not None and ending.knocker is not None
    i, mask = _shown_cards(state, hand, ev)
    gin = ending.how != "knock"
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
        if chosen.melds != knocker.melds:
            knocker = attrs.evolve(knocker, melds=chosen.melds, deadwood=chosen.deadwood)
        rest = tuple(c for c in ev.cards if not lay_mask & c.bit)
        arr = _declared(rest, ev.melds) if ev.melds is not None else best_arrangements(cards_mask(rest))[0]
        melds, dead_cards = arr.melds, arr.deadwood
    defender = Shown(ev.player, mask_cards(mask), melds, layoffs, dead_cards, ev.melds is not None)
    result = HandResult(
        ending.how, ending.player, knocker.deadwood_value, defender.deadwood_value, hand.upcard
    )
    shown = (knocker, defender) if i else (defender, knocker)  # in the match's order of players
    _finish(state, hand, result, "moves", shown)


def _price(state: WorkingMatch, result: HandResult) -> HandScore:
    out = result.out
    defender = state.other(out) if out is not None else None
    return price_hand(state.rules, result, defender)


def _finish(
    state: WorkingMatch,
    hand: WorkingHand | None,
    result: HandResult,
    recorded: str,
    shown: tuple[Shown, ...] = (),
    void_reason: str | None = None,
    dealer: str | None = None,
) -> None:
    """Score a hand, add it to the sheet and end it (ending the match when it is won)."""
    rules = state.rules
    score = _price(state, result)
    if hand is None:
        number = len(state.hands) + 1
    else:
        number, dealer = hand.number, hand.dealer
    assert dealer is not None
    tally = state.tally.add(rules, score)
    state.hands.append(FinishedHand(number, dealer, result, score, recorded, shown, void_reason, tally.points))  # type: ignore[arg-type]
    state.dealer = tally.next_dealer(rules, dealer, score)
    state.tally = tally
    state.hand = None
    state.phase = "over" if tally.winner is not None or rules.single_hand else "ready"


def _end_void(state: WorkingMatch, hand: WorkingHand, reason: str, recorded: str) -> None:
    _finish(state, hand, HandResult("void", None, 0, 0, hand.upcard), recorded, void_reason=reason)


def _void(state: WorkingMatch, ev: HandVoid) -> None:
    hand = state.hand
    if hand is None:
        raise _illegal("there is no hand in progress to void", "no-hand")
    _end_void(state, hand, ev.reason, "moves")


def _result_only(state: WorkingMatch, ev: HandResultOnly) -> None:
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
    _finish(state, None, result, "result", dealer=state.dealer)


def _started_twice(state: WorkingMatch, ev: MatchStarted) -> None:
    raise _illegal("match_started may only be the first line", "first-event")


_HANDLERS: Final[dict[type, Callable[[WorkingMatch, Any], None]]] = {
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
