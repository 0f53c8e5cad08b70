"""Property tests of the reducer, driven by playouts made here.

The harness below deals from a seeded shuffle and then asks *hypothesis* for
every decision at the table: take or pass the upcard, stock or pile, which
card to throw, whether to knock or go gin when that is legal (and sometimes to
decline), how to lay the hand out at the end, and whether to write a note.
Option 0 of every decision is the sensible one (a greedy player), so shrinking
heads for plain play. The harness keeps the true hands, stock and pile
itself, with its own legality checks (``min_deadwood`` for the knock limit,
its own void predictions), and after EVERY event compares the reducer's state
with that truth and with its own 52-card accounting.

Three recording modes:

- ``full``: the deal and the stock order are recorded (the reducer knows
  every card);
- ``hands``: both hands are recorded, the stock order is not (stock draws name
  their card);
- ``table``: only what both players see -- no hands, stock draws without a
  card, pile draws with theirs; the true hands are shown at the end.

Then: replay determinism on ``simulate_match`` output (fold twice, every
prefix, through a match file), and corrections (undo then redo; undo equals
never having happened).
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import Any, Literal

import attrs
import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from ginlog.log import format
from ginlog.game.cards import DECK, Card, mask_cards, parse_cards
from ginlog.errors import IllegalMove
from ginlog.log.events import (
    SCHEMA_VERSION,
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandShown,
    Knocked,
    MatchStarted,
    Note,
    UpcardPassed,
    event_fields,
    event_type,
)
from ginlog.match.reading import iter_steps, read_match
from ginlog.game.melds import best_arrangement, min_deadwood
from ginlog.play.reducer import SNAPSHOT_EVERY, UNDO_DEPTH, Fold, apply, fold, start
from ginlog.game.rules import Rules, preset, rules_from_dict, rules_to_dict
from ginlog.play.simulate import Mode as SimMode, simulate_match
from ginlog.game.seats import Seat
from ginlog.play.state import MatchState, Timeline

from budget import examples

Mode = Literal["full", "hands", "table"]
PLAYERS = ("Ann", "Bob")


def who(seat: Seat | None) -> str | None:
    """The state says who by seat; the harness by name."""
    return None if seat is None else PLAYERS[seat]


def by_name(per_seat: tuple[int, int]) -> dict[str, int]:
    return dict(zip(PLAYERS, per_seat))
PRESETS = ("standard", "modern", "openspiel", "oklahoma", "newspaper", "classic")
MODES: tuple[Mode, ...] = ("full", "hands", "table")
TS = "2026-11-29T19:56:25.123Z"
#: After this many turns in one hand the harness only draws from the stock, so
#: every hand ends (two players swapping pile cards could otherwise go on forever).
PILE_TURNS = 60

PROPS = settings(
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

_BIT = {c: c.bit for c in DECK}
ALL = sum(_BIT.values())


def mask(cards: Sequence[Card] | set[Card]) -> int:
    m = 0
    for c in cards:
        m |= _BIT[c]
    return m


# ---------------------------------------------------------------------------
# Decisions


class Chooser:
    """Where decisions come from: hypothesis (``data``), or always option 0 (``data=None``).

    ``wild`` (0..10) is how often, out of 10, a decision may leave option 0.
    """

    def __init__(self, data: Any | None, wild: int = 0) -> None:
        self.data = data
        self.wild = wild

    def pick(self, n: int, label: str) -> int:
        if self.data is None or n <= 1 or self.wild == 0:
            return 0
        if self.data.draw(st.integers(0, 9), label=f"{label}?") >= self.wild:
            return 0
        return int(self.data.draw(st.integers(0, n - 1), label=label))

    def maybe(self, label: str) -> bool:
        """A rare yes (a note, a declared layout); never under ``data=None``."""
        return self.data is not None and bool(self.data.draw(st.integers(0, 7), label=label) == 7)


# ---------------------------------------------------------------------------
# The harness's truth about one hand


@attrs.define
class Table:
    players: tuple[str, str]
    dealer: str
    hands: dict[str, list[Card]]
    stock: list[Card]
    pile: list[Card]
    upcard: Card
    limit: int
    mode: Mode
    seen: dict[str, set[Card]]  # cards each player took from the pile and still holds
    shown: set[str] = attrs.field(factory=set)
    knock_card: Card | None = None
    pile_takes: int = 0
    last_bounce: str | None = None  # who threw back the card just taken, on the last discard

    def other(self, p: str) -> str:
        return self.players[1 - self.players.index(p)]


@attrs.define
class Ledger:
    """The harness's own score sheet."""

    points: dict[str, int]
    won: dict[str, int]
    hands: int = 0


class Runner:
    """Applies events one by one (seq = position), keeping every timeline."""

    def __init__(self, rules: Rules) -> None:
        first = MatchStarted(players=PLAYERS, rules=rules)
        self.rules = rules
        self.events: list[Event] = [first]
        self.tl = start(first, 1)
        self.timelines: list[Timeline] = [self.tl]
        self.ledger = Ledger({p: 0 for p in PLAYERS}, {p: 0 for p in PLAYERS})

    @property
    def state(self) -> MatchState:
        return self.tl.state

    def apply(self, ev: Event) -> MatchState:
        self.tl = apply(self.tl, ev, len(self.events) + 1)
        self.events.append(ev)
        self.timelines.append(self.tl)
        return self.tl.state


def expected_known(table: Table, p: str) -> int:
    if table.mode != "table" or p in table.shown:
        return mask(table.hands[p])
    return mask(table.seen[p])


def check_hand(state: MatchState, table: Table) -> None:
    """Every invariant of a hand in progress, against the harness's truth."""
    assert state.phase == "hand"
    hand = state.hand
    assert hand is not None
    assert hand.conservation_error() is None, hand.conservation_error()
    # Our own accounting: each card in at most one known place, the rest unknown.
    places = [hand.known[0], hand.known[1], mask(hand.pile)]
    if hand.ending is not None and hand.ending.card is not None:
        places.append(_BIT[hand.ending.card])
    if hand.stock_order is not None:
        assert len(set(hand.stock_order)) == len(hand.stock_order)
        places.append(mask(hand.stock_order))
    assert len(set(hand.pile)) == len(hand.pile)
    placed = 0
    for i, m in enumerate(places):
        for other in places[i + 1:]:
            assert m & other == 0, f"{mask_cards(m & other)} in two places"
        placed |= m
    unknown = ALL & ~placed
    hidden = [hand.sizes[i] - hand.known[i].bit_count() for i in (0, 1)]
    assert min(hidden) >= 0
    in_stock_unknown = hand.stock - (len(hand.stock_order) if hand.stock_order is not None else 0)
    assert unknown.bit_count() == in_stock_unknown + sum(hidden)
    assert mask(hand.unknown_cards()) == unknown and hand.placed_mask() == placed
    # Against the truth.
    p0, p1 = table.players
    assert hand.stock == len(table.stock)
    assert hand.pile == tuple(table.pile)
    assert hand.sizes == (len(table.hands[p0]), len(table.hands[p1]))
    assert (hand.ending.card if hand.ending is not None else None) == table.knock_card
    assert hand.upcard == table.upcard and hand.knock_limit == table.limit and who(hand.dealer) == table.dealer
    hidden_true = 0
    for i, p in enumerate(table.players):
        true = mask(table.hands[p])
        assert hand.known[i] & ~true == 0, f"{p}: known cards {mask_cards(hand.known[i] & ~true)} not held"
        assert hand.known[i] == expected_known(table, p)
        seen = true if p in table.shown else mask(table.seen[p])
        assert hand.seen[i] == seen, f"{p}: seen {mask_cards(hand.seen[i])}, expected {mask_cards(seen)}"
        hidden_true |= true & ~hand.known[i]
    if table.mode == "full":
        assert hand.stock_order == tuple(table.stock)
        assert unknown == 0
    else:
        assert hand.stock_order is None
        assert unknown == mask(table.stock) | hidden_true


def expected_score(rules: Rules, how: str, out: str, defender: str, k: int, d: int, upcard: Card) -> tuple[str | None, int]:
    """(winner, points) under ``rules``, priced here, not by ginlog.game.scoring."""
    mult = 2 if rules.oklahoma is not None and rules.oklahoma.spades_double and upcard.suit == "S" else 1
    if how == "big_gin":
        assert rules.big_gin_bonus is not None
        return out, (rules.big_gin_bonus + d) * mult
    if how == "gin" or k == 0:
        return out, (rules.gin_bonus + d) * mult
    if k < d:
        return out, (d - k) * mult
    if k == d and not rules.undercut_on_tie:
        return None, 0
    return defender, (k - d + rules.undercut_bonus) * mult


def expected_final(rules: Rules, ledger: Ledger, winner: str) -> dict[str, int]:
    """Totals with end-of-match bonuses, computed here."""
    loser = PLAYERS[1 - PLAYERS.index(winner)]
    out = dict(ledger.points)
    bonus = {p: 0 for p in PLAYERS}
    bonus[winner] += rules.game_bonus
    if rules.box_timing == "end":
        for p in PLAYERS:
            bonus[p] += rules.box_bonus * ledger.won[p]
    if ledger.points[loser] == 0 and rules.shutout == "double":
        bonus[winner] += ledger.points[winner] + bonus[winner]
    elif ledger.points[loser] == 0 and rules.shutout == "flat":
        bonus[winner] += rules.shutout_bonus
    return {p: out[p] + bonus[p] for p in PLAYERS}


def check_hand_over(run: Runner, before: MatchState, reason: str | None,
                    winner: str | None, points: int, dealer: str) -> None:
    """After a hand ends: one more finished hand, the score sheet, who deals, the match end."""
    state = run.state
    rules = run.rules
    assert state.hand is None
    assert len(state.hands) == len(before.hands) + 1
    fh = state.hands[-1]
    assert who(fh.dealer) == dealer and fh.recorded == "moves"
    if reason is not None:
        assert fh.result.how == "void" and fh.score.winner is None and fh.score.points == 0
        assert reason in (fh.void_reason or ""), (reason, fh.void_reason)
    assert (who(fh.score.winner), fh.score.points) == (winner, points)
    led = run.ledger
    led.hands += 1
    if winner is not None:
        led.points[winner] += points + (rules.box_bonus if rules.box_timing == "hand" else 0)
        led.won[winner] += 1
    # Totals are the sum of the hands' points.
    assert state.tally.points == (led.points[PLAYERS[0]], led.points[PLAYERS[1]])
    assert state.tally.hands_won == (led.won[PLAYERS[0]], led.won[PLAYERS[1]])
    sums = {p: sum(h.score.points for h in state.hands if who(h.score.winner) == p) for p in PLAYERS}
    if rules.box_timing == "end":
        assert sums == led.points
    # Who deals next.
    if reason is not None or winner is None and rules.next_dealer != "alternate":
        nxt = dealer
    elif rules.next_dealer == "alternate":
        nxt = PLAYERS[1 - PLAYERS.index(dealer)]
    elif rules.next_dealer == "winner":
        nxt = winner  # type: ignore[assignment]
    else:
        nxt = PLAYERS[1 - PLAYERS.index(winner)]
    assert who(state.dealer) == nxt
    # The end of the match.
    target = rules.game_target
    reached = [p for p in PLAYERS if target is not None and led.points[p] >= target]
    if target is None:
        assert state.phase == "over"
        assert who(state.winner) == winner
    elif reached:
        assert reached == [winner]
        assert state.phase == "over" and who(state.winner) == winner and state.finished
        assert by_name(state.totals()) == expected_final(rules, led, winner)  # type: ignore[arg-type]
    else:
        assert state.phase == "ready" and state.winner is None
        assert by_name(state.totals()) == led.points


# ---------------------------------------------------------------------------
# One hand


def _after_discard(cards: list[Card], forbid: Card | None) -> list[tuple[int, int, Card]]:
    """(deadwood left, -value, card) for every card that may be thrown, best first."""
    full = mask(cards)
    opts = [(min_deadwood(full & ~c.bit), -c.value, c) for c in cards if c != forbid]
    opts.sort(key=lambda t: (t[0], t[1], t[2].suit_index, t[2].rank))
    return opts


def play_hand(run: Runner, rng: random.Random, chooser: Chooser, mode: Mode) -> None:
    """Deal and play one hand to its end, checking after every event."""
    rules = run.rules
    before = run.state
    assert before.phase == "ready" and before.dealer is not None
    dealer = PLAYERS[before.dealer]
    other = PLAYERS[before.other(before.dealer)]
    deck = list(DECK)
    rng.shuffle(deck)
    upcard = deck[20]
    table = Table(
        players=PLAYERS,
        dealer=dealer,
        hands={other: deck[0:20:2], dealer: deck[1:20:2]},
        stock=deck[21:],
        pile=[upcard],
        upcard=upcard,
        limit=rules.knock_limit_for(upcard),
        mode=mode,
        seen={p: set() for p in PLAYERS},
    )
    oklahoma_limit = upcard.value if upcard.rank > 1 else (0 if rules.oklahoma and rules.oklahoma.ace == "gin" else 1)
    assert table.limit == (rules.knock_limit if rules.oklahoma is None else oklahoma_limit)
    may_throw_taken = rules.may_discard_taken_card
    # Sometimes a player who always takes from the pile, or (where allowed) throws the
    # taken card straight back: that is what reaches OpenSpiel's loop-ending voids.
    pile_lover = chooser.maybe("pile lover")
    bouncer = may_throw_taken and chooser.maybe("bouncer")
    stubborn = pile_lover and chooser.maybe("never go out")  # with pile_lover: OpenSpiel's take limit

    def emit(ev: Event) -> None:
        state = run.apply(ev)
        if state.hand is not None:
            check_hand(state, table)

    def maybe_note() -> None:
        if chooser.maybe("note"):
            emit(Note(text="a note, changing nothing", player=None))

    def void(reason: str, label: str) -> bool:
        event(f"hand: void ({label})")
        check_hand_over(run, before, reason, None, 0, dealer)
        return False

    emit(HandDealt(
        dealer=dealer,
        upcard=upcard,
        hands={p: tuple(sorted(h)) for p, h in table.hands.items()} if mode != "table" else None,
        stock=tuple(table.stock) if mode == "full" else None,
    ))

    def draw(player: str, source: str, counted: bool) -> bool:
        """Draw; True when the hand goes on (OpenSpiel's take limit can void it here).

        ``counted``: a take from the pile in a normal turn (not the first offer, not
        at the wall), the kind OpenSpiel counts and the kind that can bounce.
        """
        if source == "pile":
            card = table.pile.pop()
            table.hands[player].append(card)
            table.seen[player].add(card)
            table.pile_takes += counted
            emit(CardDrawn(player=player, source="pile", card=card))
            limit = rules.upcard_take_limit
            if counted and limit is not None and table.pile_takes >= limit:
                return void(f"taken {table.pile_takes} times", "upcard taken 50 times")
        else:
            card = table.stock.pop(0)
            table.hands[player].append(card)
            emit(CardDrawn(player=player, source="stock", card=card if mode != "table" else None))
        hand = run.state.hand
        assert hand is not None and hand.phase == "discard" and who(hand.turn) == player
        return True

    def finish_turn(
        player: str, taken: Card | None, counted: bool, must_go_out: bool = False, first_bounce: bool = False
    ) -> bool:
        """Discard, knock or go gin; True when the hand goes on."""
        held = table.hands[player]
        assert len(held) == 11
        maybe_note()
        if rules.big_gin_bonus is not None and min_deadwood(mask(held)) == 0:
            if chooser.pick(2, "big gin or play on") == 0:
                emit(BigGin(player=player))
                return show(player, "big_gin")
        opts = _after_discard(held, None if may_throw_taken else taken)
        if must_go_out:
            opts = [o for o in opts if o[0] <= table.limit]
        dead, _, card = opts[chooser.pick(len(opts), "discard")]
        if bouncer and taken is not None and not must_go_out:
            dead, _, card = next(o for o in opts if o[2] == taken)
        elif stubborn and taken is not None and not must_go_out:  # keep what was taken: no loop
            dead, _, card = next(o for o in opts if o[2] != taken)
        going: list[str] = []
        if dead == 0:
            going = ["gin", "knock"]  # a knock with no deadwood is gin, even at an Oklahoma ace
        elif dead <= table.limit:
            going = ["knock"]
        if not must_go_out:
            going.append("discard")  # sometimes decline to knock (or to go gin)
        how = going[chooser.pick(len(going), "go out")] if not (stubborn and not must_go_out) else "discard"
        held.remove(card)
        table.seen[player].discard(card)
        if how != "discard":
            table.knock_card = card
            emit(Gin(player=player, card=card) if how == "gin" else Knocked(player=player, card=card))
            return show(player, how)
        table.pile.append(card)
        # OpenSpiel's loop also counts a bounce of the very first upcard (loop_counts_first_upcard).
        bounced = player if card == taken and (counted or first_bounce) else None
        loop = rules.void_on_upcard_loop and bounced is not None and table.last_bounce not in (None, player)
        table.last_bounce = bounced
        emit(CardDiscarded(player=player, card=card))
        if loop:
            return void("straight back", "upcard loop")
        if len(table.stock) <= rules.void_stock_size:
            if not rules.wall_knock:
                return void("stock is down to", "stock")
            hand = run.state.hand
            assert hand is not None and hand.phase == "wall" and hand.wall
        else:
            hand = run.state.hand
            assert hand is not None and hand.phase == "draw"
        assert who(hand.turn) == table.other(player)
        return True

    def show(out: str, how: str) -> bool:
        defender = table.other(out)
        knocker_cards = table.hands[out]
        k = min_deadwood(mask(knocker_cards))
        assert k <= table.limit and (k == 0 or how == "knock")
        maybe_note()
        # The knocker: leave the layout to ginlog, or declare the best one.
        melds = None
        if chooser.maybe("knocker declares"):
            melds = tuple(m.cards for m in best_arrangement(mask(knocker_cards)).melds)
        table.shown.add(out)
        emit(HandShown(player=out, cards=tuple(sorted(knocker_cards)), melds=melds))
        hand = run.state.hand
        assert hand is not None and hand.phase == "defend" and who(hand.turn) == defender
        assert hand.ending is not None and hand.ending.knocker is not None
        assert hand.ending.knocker.deadwood_value == k
        maybe_note()
        cards = tuple(sorted(table.hands[defender]))
        dmin = min_deadwood(mask(cards))
        total = sum(c.value for c in cards)
        layout = chooser.pick(3, "defender layout")  # 0: to ginlog; 1: own best melds, no lay-offs; 2: no melds
        table.shown.add(defender)
        ev = HandShown(player=defender, cards=cards)
        if layout == 1:
            ev = HandShown(player=defender, cards=cards,
                           melds=tuple(m.cards for m in best_arrangement(mask(cards)).melds), layoffs=())
        elif layout == 2:
            ev = HandShown(player=defender, cards=cards, melds=(), layoffs=())
        run.apply(ev)
        fh = run.state.hands[-1]
        res = fh.result
        real_how = "gin" if how == "knock" and k == 0 else how
        assert (res.how, who(res.out), res.knocker_deadwood, res.upcard) == (real_how, out, k, table.upcard)
        d = res.defender_deadwood
        if layout == 2:
            assert d == total
        elif layout == 1 or real_how != "knock":
            assert d == dmin
        else:
            assert d <= dmin
            # Lay-offs come from the defender's hand and save no more than their value.
            shown_def = [s for s in fh.shown if who(s.player) == defender][0]
            assert set(shown_def.layoffs) <= set(cards)
            assert d + sum(c.value for c in shown_def.layoffs) >= dmin
        winner, points = expected_score(rules, real_how, out, defender, k, d, table.upcard)
        event(f"hand: {res.how}" + (" (undercut)" if winner == defender else ""))
        check_hand_over(run, before, None, winner, points, dealer)
        return False

    def wall_turn(player: str) -> bool:
        """OpenSpiel's two-card stock: take the upcard only to go out, or pass (void)."""
        top = table.pile[-1]
        can_go_out = _after_discard(table.hands[player] + [top], None if may_throw_taken else top)[0][0] <= table.limit
        if can_go_out and chooser.pick(2, "take at the wall") == 0:
            event("wall: taken to go out")
            return draw(player, "pile", counted=False) and finish_turn(player, top, False, must_go_out=True)
        emit(UpcardPassed(player=player))
        return void("passed", "wall pass")

    # The upcard offer: the non-dealer, then the dealer.
    for player in (other, dealer):
        held = table.hands[player]
        greedy_take = _after_discard(held + [upcard], None if may_throw_taken else upcard)[0][0] < min_deadwood(mask(held)) - 2
        options = ["pile", "pass"] if greedy_take or pile_lover else ["pass", "pile"]
        if options[chooser.pick(2, "take the upcard")] == "pile":
            if not draw(player, "pile", counted=False) or not finish_turn(
                player, upcard, False, first_bounce=rules.loop_counts_first_upcard
            ):
                return
            turn = table.other(player)
            break
        emit(UpcardPassed(player=player))
    else:
        if not draw(other, "stock", counted=False) or not finish_turn(other, None, False):
            return
        turn = dealer
    # Normal turns.
    turns = 0
    while True:
        turns += 1
        assert turns < PILE_TURNS + 40, "a hand did not end"
        hand = run.state.hand
        assert hand is not None and hand.phase in ("draw", "wall") and who(hand.turn) == turn
        maybe_note()
        if hand.phase == "wall":
            assert not wall_turn(turn)
            return
        held = table.hands[turn]
        top = table.pile[-1]
        greedy_pile = _after_discard(held + [top], None if may_throw_taken else top)[0][0] < min_deadwood(mask(held)) - 1
        options = ["pile", "stock"] if greedy_pile or pile_lover else ["stock", "pile"]
        if turns > PILE_TURNS:
            options = ["stock"]
        source = options[chooser.pick(len(options), "draw from")]
        taken = top if source == "pile" else None
        if not draw(turn, source, counted=True) or not finish_turn(turn, taken, source == "pile"):
            return
        turn = table.other(turn)


def play_match(rules: Rules, seed: int, chooser: Chooser, mode: Mode, hands: int,
               *, then_greedy: int = 0) -> Runner:
    """Up to ``hands`` hands from ``chooser``, then up to ``then_greedy`` hands of plain play."""
    rng = random.Random(seed)
    run = Runner(rules)
    run.apply(FirstDealer(dealer=PLAYERS[rng.randrange(2)], how="random"))
    assert run.state.phase == "ready"
    played = 0
    while run.state.phase == "ready" and played < hands + then_greedy:
        n = len(run.state.hands)
        play_hand(run, rng, chooser if played < hands else Chooser(None), mode)
        assert len(run.state.hands) == n + 1  # every hand ends, and is counted
        played += 1
    return run


# ---------------------------------------------------------------------------
# 1. Card conservation, every event of random legal playouts


@settings(PROPS, max_examples=examples(150, quick=30))
@given(
    data=st.data(),
    name=st.sampled_from(PRESETS),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
    wild=st.integers(0, 10),
    hands=st.integers(1, 3),
)
def test_playouts_conserve_cards_and_score(data: Any, name: str, mode: Mode, seed: int, wild: int, hands: int) -> None:
    rules = preset(name)
    run = play_match(rules, seed, Chooser(data, wild), mode, hands)
    event(f"{name}/{mode}")
    state = run.state
    assert 1 <= len(state.hands) <= hands
    assert state.phase == "over" or len(state.hands) == hands
    # The whole record replays to the same state.
    assert fold(run.events) == run.tl


@settings(PROPS, max_examples=examples(40, quick=15))
@given(
    data=st.data(),
    name=st.sampled_from(("standard", "standard", "modern", "oklahoma")),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
    wild=st.integers(0, 10),
    free=st.integers(0, 2),
)
def test_matches_end_with_a_winner_within_bounded_hands(
    data: Any, name: str, mode: Mode, seed: int, wild: int, free: int
) -> None:
    """A few hypothesis-driven hands, then plain play: the match must be won within MAX_HANDS."""
    max_hands = 80
    rules = preset(name)
    run = play_match(rules, seed, Chooser(data, wild), mode, free, then_greedy=max_hands)
    state = run.state
    assert state.phase == "over", f"no winner after {len(state.hands)} hands: {state.totals()}"
    assert state.winner is not None and state.tally.points[state.winner] >= (rules.game_target or 0)
    event(f"{name}: {len(state.hands)} hands")


# ---------------------------------------------------------------------------
# 2. Replay determinism


def file_bytes(events: Sequence[Event]) -> bytes:
    """The match file ginlog would write for ``events`` (built in memory)."""
    out = []
    prev = None
    for seq, ev in enumerate(events, start=1):
        raw = format.encode(seq, TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = format.digest(raw)
        out.append(raw + b"\n")
    return b"".join(out)


@settings(PROPS, max_examples=examples(40, quick=15))
@given(
    data=st.data(),
    name=st.sampled_from(PRESETS),
    mode=st.sampled_from(("full", "table")),
    seed=st.integers(0, 2**32 - 1),
)
def test_replay_is_deterministic_at_every_prefix(data: Any, name: str, mode: SimMode, seed: int) -> None:
    events = simulate_match(preset(name), seed=seed, mode=mode, max_hands=2)
    a, b = fold(events), fold(events)
    assert a == b and a.state == b.state
    tl = start(events[0], 1)
    timelines = [tl]
    for seq, ev in enumerate(events[1:], start=2):
        tl = apply(tl, ev, seq)
        timelines.append(tl)
    assert timelines[-1] == a
    picks = data.draw(st.lists(st.integers(1, len(events)), min_size=1, max_size=6, unique=True), label="prefixes")
    for n in {1, 2, len(events), *picks}:
        assert fold(events[:n]) == timelines[n - 1], f"prefix of {n} events"
    # Through the file: the reader's steps are the same timelines, and replay-to-N stops there.
    raw = file_bytes(events)
    steps = list(iter_steps(io.BytesIO(raw), name="m.jsonl"))
    assert [s.timeline for s in steps] == timelines
    assert [s.event for s in steps] == events
    for n in picks[:2]:
        report = read_match(io.BytesIO(raw), name="m.jsonl", upto=n)
        assert report.ok and report.lines == n and report.timeline == timelines[n - 1]


# ---------------------------------------------------------------------------
# 3. Corrections


def playout(data: Any, name: str, mode: Mode, seed: int, wild: int) -> Runner:
    return play_match(preset(name), seed, Chooser(data, wild), mode, hands=data.draw(st.integers(1, 2), label="hands"))


def outcome(events: Sequence[Event]) -> tuple[Any, ...]:
    """('ok', final state) or ('illegal', rule, message, position counted from the end)."""
    try:
        return ("ok", fold(events).state)
    except IllegalMove as exc:
        # which event failed, counted from the end, so two lists differing before it compare
        tl = start(events[0], 1)
        for i, ev in enumerate(events[1:], start=2):
            try:
                tl = apply(tl, ev, i)
            except IllegalMove:
                return ("illegal", exc.rule, exc.message, len(events) - i)
        raise AssertionError("fold raised but stepping did not")  # pragma: no cover


@settings(PROPS, max_examples=examples(40, quick=15))
@given(
    data=st.data(),
    name=st.sampled_from(("standard", "modern", "openspiel", "oklahoma")),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
    wild=st.integers(0, 10),
)
def test_undo_then_redo_changes_nothing(data: Any, name: str, mode: Mode, seed: int, wild: int) -> None:
    run = playout(data, name, mode, seed, wild)
    events = run.events
    n = len(events)
    k = data.draw(st.integers(2, n), label="undo after event k")
    j = data.draw(st.integers(1, min(k - 1, 6, UNDO_DEPTH)), label="corrections in a row")
    tl = run.timelines[k - 1]  # after event k (seq k)
    seq = k
    for back in range(j):
        seq += 1
        tl = apply(tl, Correction(undoes=tl.seq, reason="misheard"), seq)
        # each correction goes back exactly one effective event
        assert tl.state == run.timelines[k - 2 - back].state
        assert tl.seq == k - 1 - back
    for ev in events[k - j:]:
        seq += 1
        tl = apply(tl, ev, seq)
    assert tl.state == run.tl.state
    event(f"undo {j} after {type(events[k - 1]).__name__}")


@settings(PROPS, max_examples=examples(40, quick=15))
@given(
    data=st.data(),
    name=st.sampled_from(("standard", "modern", "openspiel", "oklahoma")),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
    wild=st.integers(0, 10),
)
def test_a_corrected_event_is_as_if_it_never_happened(data: Any, name: str, mode: Mode, seed: int, wild: int) -> None:
    run = playout(data, name, mode, seed, wild)
    events = run.events
    n = len(events)
    # Notes and the last event can always be taken out; favour them so the legal case is common.
    removable = [i for i, ev in enumerate(events, start=1) if isinstance(ev, Note) and i > 1] + [n]
    k = data.draw(st.one_of(st.sampled_from(removable), st.integers(2, n)), label="event corrected")
    corrected = [*events[:k], Correction(undoes=k), *events[k:]]
    without = [*events[: k - 1], *events[k:]]
    got, want = outcome(corrected), outcome(without)
    assert got[0] == want[0]
    if got[0] == "ok":
        assert got[1] == want[1]
        event("still legal without it")
    else:
        assert got[1:] == want[1:]
        event(f"illegal without it ({got[1]})")
    # Right after the correction the state is the one before event k.
    tl = fold(corrected[: k + 1])
    assert tl.state == run.timelines[k - 2].state and tl.seq == k - 1


def test_corrections_go_back_at_most_undo_depth_events() -> None:
    events: list[Event] = [MatchStarted(players=PLAYERS, rules=preset("standard"))]
    events += [Note(text=f"n{i}") for i in range(UNDO_DEPTH + 5)]
    tl = fold(events)
    seq = len(events)
    for _ in range(UNDO_DEPTH):
        seq += 1
        tl = apply(tl, Correction(undoes=tl.seq), seq)
    with pytest.raises(IllegalMove) as info:
        apply(tl, Correction(undoes=tl.seq), seq + 1)
    assert info.value.rule == "correction"
    with pytest.raises(IllegalMove):
        apply(fold(events[:1]), Correction(undoes=1), 2)  # match_started cannot be undone


# ---------------------------------------------------------------------------
# 4. The fast fold is the pure fold


def _both(tl: Timeline, fold_: Fold, ev: Event, seq: int) -> tuple[Timeline, tuple[str, str] | None]:
    """Apply ``ev`` both ways; they must agree on the error (if any) and on the state after."""
    want: tuple[str, str] | None = None
    try:
        new = apply(tl, ev, seq)
    except IllegalMove as exc:
        want, new = (exc.rule, exc.message), tl
    got: tuple[str, str] | None = None
    try:
        fold_.apply(ev, seq)
    except IllegalMove as exc:
        got = (exc.rule, exc.message)
    assert got == want, f"event {seq} {ev!r}"
    assert fold_.seq == new.seq and fold_.state == new.state, f"after event {seq} {ev!r}"
    return new, want


@settings(PROPS, max_examples=examples(60, quick=20))
@given(
    data=st.data(),
    name=st.sampled_from(PRESETS),
    mode=st.sampled_from(("full", "table")),
    seed=st.integers(0, 2**32 - 1),
)
def test_fold_agrees_with_apply_on_noisy_logs(data: Any, name: str, mode: SimMode, seed: int) -> None:
    """:class:`Fold` (one working copy, snapshots) against :func:`apply` (a frozen state per event).

    The log is a real match with noise drawn by hypothesis: corrections that
    name the right event or a wrong one, runs of corrections deeper than a
    snapshot interval and than UNDO_DEPTH, then redone; repeated and skipped
    events (illegal), notes. After every line both must give the same error
    and the same state; at the end the fold's rewind is the exact timeline,
    and the file reader (collecting) reports the same errors and state.
    """
    events = simulate_match(preset(name), seed=seed, mode=mode, max_hands=4)
    tl = start(events[0], 1)
    fold_ = Fold(events[0], 1)  # type: ignore[arg-type]
    log: list[Event] = [events[0]]
    errors: list[tuple[int, tuple[str, str]]] = []
    applied: list[Event] = []  # effective events, as far as the pure side says
    redo: list[Event] = []
    pos = 1
    actions = data.draw(
        st.lists(
            st.sampled_from(["next"] * 8 + ["undo", "undo-run", "bad-undo", "repeat", "skip", "note"]),
            min_size=20, max_size=400,
        ),
        label="actions",
    )
    for action in actions:
        batch: list[Event | None]  # None: a correction of whatever is then the last effective event
        if action == "next":
            if redo:
                batch = [redo.pop()]
            elif pos < len(events):
                batch, pos = [events[pos]], pos + 1
            else:
                continue
        elif action == "undo":
            batch = [Correction(undoes=tl.seq)]
        elif action == "undo-run":
            depth = data.draw(st.integers(2, UNDO_DEPTH + 8), label="corrections in a row")
            batch = [None] * depth
        elif action == "bad-undo":
            batch = [Correction(undoes=tl.seq + data.draw(st.integers(1, 5), label="off by"))]
        elif action == "repeat":
            batch = [log[-1]]
        elif action == "skip":
            pos = min(pos + 1, len(events))
            continue
        else:
            batch = [Note(text=f"note {len(log)}")]
        for ev in batch:
            if ev is None:
                ev = Correction(undoes=tl.seq)
            seq = len(log) + 1
            log.append(ev)
            tl, err = _both(tl, fold_, ev, seq)
            if err is not None:
                errors.append((seq, err))
            elif isinstance(ev, Correction):
                redo.append(applied.pop())
            else:
                applied.append(ev)
    assert fold_.rewind().timeline() == tl
    # Fold.apply_run, as the file reader uses it on runs of known lines, over stretches of any length.
    runner = Fold(events[0], 1)  # type: ignore[arg-type]
    run_errors: list[tuple[int, tuple[str, str]]] = []
    at = 1
    while at < len(log):
        size = data.draw(st.integers(1, 300), label="run length")
        run = log[at : at + size]
        done = 0
        while done < len(run):
            k, exc = runner.apply_run(run, at + 1, done)
            if exc is not None:
                assert isinstance(exc, IllegalMove)
                run_errors.append((at + 1 + k, (exc.rule, exc.message)))
                k += 1
            done = k
        at += len(run)
    assert run_errors == errors
    assert runner.seq == tl.seq and runner.state == tl.state and runner.rewind().timeline() == tl
    event(f"{len(log)} lines, {len(errors)} illegal, {sum(isinstance(e, Correction) for e in log)} corrections")
    # Through a file: the collecting reader says the same.
    report = read_match(io.BytesIO(file_bytes(log)), name="m.jsonl", collect=True)
    assert [(e.seq, (e.rule, e.message)) for e in report.errors] == errors
    assert report.state == tl.state and report.timeline == tl


def test_fold_undoes_across_snapshots_to_the_limit() -> None:
    """UNDO_DEPTH corrections in a row reach back past at least one snapshot; one more is refused."""
    events: list[Event] = [MatchStarted(players=PLAYERS, rules=preset("standard"))]
    events += [Note(text=f"n{i}") for i in range(3 * SNAPSHOT_EVERY + 5)]
    tl = fold(events)
    fold_ = Fold(events[0], 1)  # type: ignore[arg-type]
    for seq, ev in enumerate(events[1:], start=2):
        fold_.apply(ev, seq)
    seq = len(events)
    for _ in range(UNDO_DEPTH):
        seq += 1
        tl, err = _both(tl, fold_, Correction(undoes=tl.seq), seq)
        assert err is None
    assert tl.seq == len(events) - UNDO_DEPTH
    _tl, err = _both(tl, fold_, Correction(undoes=tl.seq), seq + 1)
    assert err is not None and err[0] == "correction"
    assert fold_.rewind().timeline() == tl


def test_apply_run_undoes_to_the_limit_and_no_further() -> None:
    """After a long run through :meth:`Fold.apply_run`, corrections reach back UNDO_DEPTH events, as with apply."""
    events = simulate_match(attrs.evolve(preset("standard"), game_target=10**9), seed=11, mode="full", max_hands=16)
    assert len(events) > 3 * SNAPSHOT_EVERY
    tl = fold(events)
    runner = Fold(events[0], 1)  # type: ignore[arg-type]
    corrections = [Correction(undoes=len(events) - k) for k in range(UNDO_DEPTH + 1)]
    k, exc = runner.apply_run([*events[1:], *corrections], 2)
    assert k == len(events) - 1 + UNDO_DEPTH and isinstance(exc, IllegalMove) and exc.rule == "correction"
    for _ in range(UNDO_DEPTH):
        tl = apply(tl, Correction(undoes=tl.seq))
    assert runner.seq == tl.seq and runner.state == tl.state and runner.rewind().timeline() == tl


# ---------------------------------------------------------------------------
# Bugs found


def _knock_in_table_view(knocker_cards: str, knock_card: str, upcard: str) -> Timeline:
    """Ann deals; Bob draws from the stock and knocks: all in table view."""
    rules = preset("standard")
    tl = fold([
        MatchStarted(players=PLAYERS, rules=rules),
        FirstDealer(dealer="Ann", how="agreed"),
        HandDealt(dealer="Ann", upcard=parse_cards(upcard)[0]),
        UpcardPassed(player="Bob"),
        UpcardPassed(player="Ann"),
        CardDrawn(player="Bob", source="stock"),
        Knocked(player="Bob", card=parse_cards(knock_card)[0]),
        HandShown(player="Bob", cards=parse_cards(knocker_cards)),
    ])
    return tl


def test_defender_layoff_chain_through_a_card_that_also_fits_a_set() -> None:
    """Regression: found here by simulate_match(preset("standard"), seed=48, knock_rate=1.0), hand 8.

    _ordered_layoffs put each lay-off on the first knocker meld it fitted, so 3H
    went onto 3S 3C 3D instead of 4H 5H 6H and the chained 2H then fitted
    nothing: AssertionError("lay-offs (3H, 2H) do not fit"), a crash while
    reading a legal record. Fixed meanwhile in f3c826d (lay-offs kept in chain order).
    """
    tl = _knock_in_table_view("AS AC AH 3S 3C 3D 4H 5H 6H KD", "QD", "7C")
    defender = parse_cards("2H 3H 4S 4C 4D 9S 9C TD JS 8D")
    tl = apply(tl, HandShown(player="Ann", cards=defender), 9)
    fh = tl.state.hands[-1]
    # Laying off 3H then 2H onto 4H 5H 6H is the best defence: 9S 9C TD JS 8D = 46 deadwood.
    assert fh.shown[0].layoffs == parse_cards("3H 2H")
    assert fh.result.defender_deadwood == 46


def test_openspiel_rules_round_trip_through_a_match_file() -> None:
    """Regression: rules_from_dict refused game_target=null ("may not be null", its default
    being 100), so no openspiel match file ginlog wrote could be read back. Found here;
    fixed meanwhile (rules: nullable knobs follow their type)."""
    assert rules_from_dict(rules_to_dict(preset("openspiel"))) == preset("openspiel")
    events = simulate_match(preset("openspiel"), seed=0)
    report = read_match(io.BytesIO(file_bytes(events)), name="m.jsonl")
    assert report.ok and report.state == fold(events).state
