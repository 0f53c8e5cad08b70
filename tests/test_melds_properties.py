"""The meld solver against a deliberately naive brute force.

The brute force below shares no code with ``ginlog.game.melds``: cards are plain
``(rank, suit)`` tuples built here from text, melds are frozensets of them. It
lists every candidate meld of a hand (every 3- and 4-card set, every run of 3
or more), tries every collection of pairwise-disjoint candidates, and keeps
the one that melds the most value. Lay-offs are tried one card at a time in
every order, onto every knocker meld that card extends at that moment (and,
under OpenSpiel's chain limit, no further than the limit beyond either end of
the knocker's original run).

Random hands rarely hold a meld, so most examples come from "meld-rich"
strategies: hands built around one to three melds (which may overlap, so a
card can be wanted by a set and a run) plus filler, often near those melds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ginlog.game.cards import Card, parse_cards
from ginlog.errors import MeldError
from ginlog.game.layoffs import Defence, best_defence, check_layoffs
from ginlog.game.melds import (
    Meld,
    best_arrangement,
    best_discard,
    check_arrangement,
    is_big_gin,
    min_deadwood,
)

from budget import examples

# ---------------------------------------------------------------------------
# The naive brute force (no ginlog.game.melds code)

Naive = tuple[int, str]  # (rank 1..13, suit letter); ace is 1
NaiveMeld = frozenset[Naive]

RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "SCDH"
ALL: list[Naive] = [(r, s) for s in SUIT_TEXT for r in range(1, 14)]


def text(card: Naive) -> str:
    return RANK_TEXT[card[0] - 1] + card[1]


def from_text(t: str) -> Naive:
    return (RANK_TEXT.index(t[0]) + 1, t[1])


def from_card(card: Card) -> Naive:
    return from_text(str(card))


def naive_value(card: Naive) -> int:
    return min(card[0], 10)


def hand_value(cards: Iterable[Naive]) -> int:
    return sum(naive_value(c) for c in cards)


def naive_is_meld(cards: Iterable[Naive]) -> bool:
    cs = list(cards)
    if len(cs) < 3 or len(set(cs)) != len(cs):
        return False
    ranks = sorted(r for r, _ in cs)
    suits = {s for _, s in cs}
    if len(set(ranks)) == 1:
        return len(cs) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cs)))


def naive_candidates(hand: frozenset[Naive]) -> list[NaiveMeld]:
    """Every set of 3 or 4 and every run of 3 or more inside the hand."""
    out: list[NaiveMeld] = []
    for rank in range(1, 14):
        same = sorted(c for c in hand if c[0] == rank)
        for k in (3, 4):
            out.extend(frozenset(combo) for combo in itertools.combinations(same, k))
    for suit in SUIT_TEXT:
        for low in range(1, 14):
            for high in range(low + 2, 14):
                run = frozenset((r, suit) for r in range(low, high + 1))
                if run <= hand:
                    out.append(run)
    return out


@lru_cache(maxsize=200_000)
def naive_min_deadwood(hand: frozenset[Naive]) -> int:
    """Total value minus the most value any collection of disjoint melds covers."""
    cands = naive_candidates(hand)

    def most_melded(start: int, used: frozenset[Naive]) -> int:
        best = 0
        for j in range(start, len(cands)):
            meld = cands[j]
            if not meld & used:
                best = max(best, hand_value(meld) + most_melded(j + 1, used | meld))
        return best

    return hand_value(hand) - most_melded(0, frozenset())


def naive_best_discard(hand: frozenset[Naive]) -> int:
    return min(naive_min_deadwood(hand - {c}) for c in hand)


def naive_fits(meld: NaiveMeld, card: Naive) -> bool:
    """The card extends the meld now: 4th card of a 3-set, or next at either end of a run."""
    if card in meld:
        return False
    ranks = {r for r, _ in meld}
    if len(ranks) == 1:
        return len(meld) == 3 and card[0] in ranks
    (suit,) = {s for _, s in meld}
    return card[1] == suit and (card[0] == min(ranks) - 1 or card[0] == max(ranks) + 1)


def naive_fits_within(original: NaiveMeld, now: NaiveMeld, card: Naive, limit: int | None) -> bool:
    """As :func:`naive_fits`, and at most ``limit`` cards beyond either end of the original run."""
    if not naive_fits(now, card):
        return False
    ranks = {r for r, _ in original}
    if limit is None or len(ranks) == 1:
        return True
    beyond = min(ranks) - card[0] if card[0] < min(ranks) else card[0] - max(ranks)
    return beyond <= limit


def naive_reachable_layoffs(
    defender: frozenset[Naive], knocker: Sequence[NaiveMeld], limit: int | None = None
) -> set[frozenset[Naive]]:
    """Every set of defender cards that can be laid off in some order, one card at a time.

    Each step tries every card left and every knocker meld it extends at that
    moment. A state (the knocker's melds as they stand) is explored once: what
    can follow depends on nothing else.
    """
    reached: set[frozenset[Naive]] = set()
    seen: set[tuple[NaiveMeld, ...]] = set()

    def walk(melds: tuple[NaiveMeld, ...], laid: frozenset[Naive]) -> None:
        if melds in seen:
            return
        seen.add(melds)
        reached.add(laid)
        for card in defender - laid:
            for i, meld in enumerate(melds):
                if naive_fits_within(knocker[i], meld, card, limit):
                    walk(melds[:i] + (meld | {card},) + melds[i + 1 :], laid | {card})

    walk(tuple(knocker), frozenset())
    return reached


def naive_best_defence(defender: frozenset[Naive], knocker: Sequence[NaiveMeld], limit: int | None = None) -> int:
    reached = naive_reachable_layoffs(defender, knocker, limit)
    return min(naive_min_deadwood(defender - laid) for laid in reached)


def naive_order_is_legal(knocker: Sequence[NaiveMeld], order: Sequence[Naive], limit: int | None = None) -> bool:
    """Whether the lay-offs can be made in exactly this order (each onto any meld it then fits)."""

    def go(melds: list[NaiveMeld], rest: Sequence[Naive]) -> bool:
        if not rest:
            return True
        card = rest[0]
        return any(
            go([*melds[:i], m | {card}, *melds[i + 1 :]], rest[1:])
            for i, m in enumerate(melds)
            if naive_fits_within(knocker[i], m, card, limit)
        )

    return go(list(knocker), order)


def test_naive_solver_sanity() -> None:
    """The brute force itself, on hands worked out by hand."""
    hand = frozenset(map(from_text, "7S 7C 7H 8H 9H 2D".split()))
    assert naive_min_deadwood(hand) == 16  # run 7H 8H 9H; 7S 7C 2D left
    assert naive_min_deadwood(frozenset(map(from_text, "QS KS AS".split()))) == 21
    assert naive_min_deadwood(frozenset(map(from_text, "AS 2S 3S".split()))) == 0
    assert naive_min_deadwood(frozenset(map(from_text, "7S 7C 7D 7H 8H 9H".split()))) == 0
    counter = frozenset(map(from_text, "AS 4S 5S 6S 3C 4C 5C 6C 3D 5D 6D".split()))
    assert naive_best_discard(counter) == 9
    run = frozenset(map(from_text, "5S 6S 7S".split()))
    defender = frozenset(map(from_text, "8S 9S KH".split()))
    assert naive_best_defence(defender, [run]) == 10
    assert naive_order_is_legal([run], [from_text("8S"), from_text("9S")])
    assert not naive_order_is_legal([run], [from_text("9S"), from_text("8S")])
    far = [from_text(t) for t in "8S 9S TS".split()]
    assert naive_order_is_legal([run], far) and not naive_order_is_legal([run], far, limit=2)
    assert naive_best_defence(defender, [run], limit=1) == 19  # only 8S goes: 9S KH left


# ---------------------------------------------------------------------------
# Strategies


def random_hand(size: int) -> st.SearchStrategy[list[Naive]]:
    return st.lists(st.sampled_from(ALL), min_size=size, max_size=size, unique=True)


# Every set of 3 or 4 and every run of 3 to 6 cards in the deck: one draw picks a meld.
ALL_MELDS: list[tuple[Naive, ...]] = [
    *(tuple((r, s) for s in suits) for r in range(1, 14) for k in (3, 4) for suits in itertools.combinations(SUIT_TEXT, k)),
    *(tuple((r, s) for r in range(low, low + n)) for s in SUIT_TEXT for n in range(3, 7) for low in range(1, 15 - n)),
]
# A set of three and a run of three that one card could extend both of: the set's
# missing suit holds the run, which ends just below the set's rank or starts just
# above it (7S 7C 7D with 4H 5H 6H: 7H fits both, and only on the run can 8H follow).
LINKED_MELDS: list[tuple[Naive, ...]] = [
    (*((r, s) for s in SUIT_TEXT if s != gap), *((q, gap) for q in run))
    for r in range(1, 14)
    for gap in SUIT_TEXT
    for run in (range(r - 3, r), range(r + 1, r + 4))
    if all(1 <= q <= 13 for q in run)
]
# Strategies are built once: building them inside a composite on every draw is slow.
SOME_MELDS = st.lists(st.sampled_from(ALL_MELDS), min_size=1, max_size=3)
MANY_MELDS = st.lists(st.sampled_from(ALL_MELDS), min_size=3, max_size=6)
KNOCKER_MELDS = st.lists(st.sampled_from(ALL_MELDS + LINKED_MELDS), min_size=4, max_size=7)
# A step from a card already in the hand to a card near it: same rank in another
# suit, or one or two ranks away in the same suit.
NEAR_MOVES: list[tuple[str, str | int]] = [("rank", s) for s in SUIT_TEXT] + [("suit", d) for d in (-2, -1, 1, 2)]
# One integer per step: which card to start from (value // 8) and which move (value % 8).
NEAR_STEPS = {n: st.lists(st.integers(0, 11 * 8 - 1), min_size=n, max_size=n) for n in range(12)}
# A few more cards than needed, since some may already be in the hand.
ANY_CARDS = {n: st.lists(st.sampled_from(ALL), min_size=n + 2, max_size=n + 2, unique=True) for n in range(12)}
SHUFFLED_DECK = st.permutations(ALL)
PICKS = st.lists(st.integers(0, 51), max_size=6, unique=True)
MELD_ORDER = st.permutations(range(4))  # a 10-card hand has at most 3 melds
CHAIN = st.tuples(st.integers(0, 2), st.booleans(), st.integers(0, 3))


def take_melds(melds: Iterable[Sequence[Naive]], size: int, *, disjoint: bool = False) -> list[Naive]:
    """The cards of the melds, in order, skipping a meld that would pass ``size``.

    Melds may overlap (then a card is wanted by two melds) unless ``disjoint``.
    """
    chosen: list[Naive] = []
    for meld in melds:
        new = [c for c in meld if c not in chosen]
        if disjoint and len(new) < len(meld):
            continue
        if len(chosen) + len(new) <= size:
            chosen += new
    return chosen


def fill(draw: st.DrawFn, chosen: list[Naive], size: int, *, near: bool) -> list[Naive]:
    """Add filler up to ``size`` (at most 11 more cards): near the cards already there, or anywhere."""
    out = list(chosen)
    if near and out and len(out) < size:
        for v in draw(NEAR_STEPS[size - len(out)]):
            r, s = out[(v // 8) % len(out)]
            how, arg = NEAR_MOVES[v % 8]
            card = (r, str(arg)) if how == "rank" else (r + int(arg), s)
            if len(out) < size and 1 <= card[0] <= 13 and card not in out:
                out.append(card)
    if len(out) < size:
        for card in draw(ANY_CARDS[size - len(out)]):
            if len(out) < size and card not in out:
                out.append(card)
    if len(out) < size:  # the draws above ran out: walk a shuffled deck
        for card in draw(SHUFFLED_DECK):
            if len(out) < size and card not in out:
                out.append(card)
    return out


def pick(draw: st.DrawFn, pool: Sequence[Naive], most: int) -> list[Naive]:
    """Up to ``most`` distinct cards of ``pool``."""
    if not pool:
        return []
    return list(dict.fromkeys(pool[i % len(pool)] for i in draw(PICKS)[:most]))


@st.composite
def meld_rich_hand(draw: st.DrawFn, size: int) -> list[Naive]:
    """One to three melds (they may share cards), then filler, often near them."""
    chosen = take_melds(draw(SOME_MELDS), size)
    return fill(draw, chosen, size, near=draw(st.booleans()))


@st.composite
def nearly_melded_hand(draw: st.DrawFn) -> list[Naive]:
    """11 cards mostly from melds, to exercise big gin both ways."""
    chosen = take_melds(draw(MANY_MELDS), 11)
    return fill(draw, chosen, 11, near=True)


@st.composite
def knocker_hand(draw: st.DrawFn) -> list[Naive]:
    """10 meld-rich cards whose least deadwood is at most 10 (built so, checked by the brute force)."""
    chosen = take_melds(draw(KNOCKER_MELDS), 10, disjoint=True)
    need = 10 - len(chosen)
    cap = 10 // need if need else 10
    for card in draw(ANY_CARDS[11]):
        if len(chosen) < 10 and card not in chosen and naive_value(card) <= cap:
            chosen.append(card)
    assume(len(chosen) == 10)
    return chosen


LayoffCase = tuple[list[Naive], tuple[Meld, ...], list[Naive]]


@st.composite
def layoff_case(draw: st.DrawFn) -> LayoffCase:
    """The knocker's hand, their best melds (in any order), and a defender biased to lay off."""
    knocker = draw(knocker_hand())
    assert naive_min_deadwood(frozenset(knocker)) <= 10
    melds = best_arrangement([text(c) for c in knocker]).melds
    order = draw(MELD_ORDER)  # the knocker may list melds in any order
    melds = tuple(melds[i] for i in order if i < len(melds))
    taken = set(knocker)
    adjacent: set[Naive] = set()
    for meld in melds:
        cs = [from_card(c) for c in meld.cards]
        ranks = sorted(r for r, _ in cs)
        if meld.kind == "set":
            adjacent |= {(ranks[0], s) for s in SUIT_TEXT}
        else:
            suit = cs[0][1]
            adjacent |= {(r, suit) for r in range(ranks[0] - 3, ranks[0]) if r >= 1}
            adjacent |= {(r, suit) for r in range(ranks[-1] + 1, ranks[-1] + 4) if r <= 13}
    adjacent -= taken
    # Cards that could meld with the adjacent ones in the defender's own hand instead.
    competing = {(r, s) for (r, _) in adjacent for s in SUIT_TEXT} - taken - adjacent
    # A chain of 0-3 cards beyond one end of one knocker run (which run, which end, how long).
    chain: list[Naive] = []
    runs = [[from_card(c) for c in m.cards] for m in melds if m.kind == "run"]
    which, upward, length = draw(CHAIN)
    if runs:
        run = runs[which % len(runs)]
        suit, end = run[0][1], run[-1][0] if upward else run[0][0]
        step = 1 if upward else -1
        chain = [(end + step * i, suit) for i in range(1, length + 1) if 1 <= end + step * i <= 13]
        chain = [c for c in chain if c not in taken]
    adj = pick(draw, sorted(adjacent - set(chain)), 6 - len(chain))
    if draw(st.booleans()):  # sometimes nothing competes with the chain for its cards
        competing = {c for c in competing if all(c[0] != q[0] for q in chain)}
    comp = pick(draw, sorted(competing), 4)
    defender = fill(draw, knocker + chain + adj + comp, 20, near=False)[len(knocker) :]
    return knocker, melds, defender


# ---------------------------------------------------------------------------
# Checks shared by the properties


def check_best_arrangement(hand: list[Naive]) -> int:
    texts = [text(c) for c in hand]
    expected = naive_min_deadwood(frozenset(hand))
    assert min_deadwood(texts) == expected
    cards = parse_cards(texts)
    arr = best_arrangement(cards)
    assert arr.deadwood_value == expected
    # A real arrangement of exactly these cards: melds valid and disjoint.
    for meld in arr.melds:
        assert naive_is_meld(from_card(c) for c in meld.cards), str(meld)
    melded = [from_card(c) for m in arr.melds for c in m.cards]
    assert len(melded) == len(set(melded))
    assert sorted(melded + [from_card(c) for c in arr.deadwood]) == sorted(hand)
    assert hand_value(from_card(c) for c in arr.deadwood) == expected
    again = check_arrangement(cards, arr.melds)
    assert again.deadwood_value == expected
    assert sorted(again.deadwood) == sorted(arr.deadwood)
    return expected


def check_defence(defender: list[Naive], melds: Sequence[Meld], d: Defence, limit: int | None = None) -> None:
    """Own melds valid and disjoint, lay-offs legal in the order given, cards exactly the hand."""
    own = [from_card(c) for m in d.melds for c in m.cards]
    laid = [from_card(c) for c in d.layoffs]
    dead = [from_card(c) for c in d.deadwood]
    for meld in d.melds:
        assert naive_is_meld(from_card(c) for c in meld.cards), str(meld)
    assert len(own) == len(set(own))
    assert sorted(own + laid + dead) == sorted(defender)
    naive_knocker = [frozenset(from_card(c) for c in m.cards) for m in melds]
    assert naive_order_is_legal(naive_knocker, laid, limit), [str(c) for c in d.layoffs]
    check_layoffs(melds, d.layoffs, chain_limit=limit)  # ginlog's own check agrees: no MeldError
    rest = [c for c in parse_cards([text(c) for c in defender]) if from_card(c) not in set(laid)]
    again = check_arrangement(rest, d.melds)
    assert sorted(again.deadwood) == sorted(d.deadwood)
    assert d.deadwood_value == hand_value(dead)


# ---------------------------------------------------------------------------
# Properties: least deadwood and the arrangement


@settings(max_examples=examples(500, quick=80), deadline=None)
@given(random_hand(10))
def test_min_deadwood_random_10(hand: list[Naive]) -> None:
    check_best_arrangement(hand)
    assert is_big_gin([text(c) for c in hand]) is False


@settings(max_examples=examples(1000, quick=150), deadline=None)
@given(meld_rich_hand(10))
def test_min_deadwood_meld_rich_10(hand: list[Naive]) -> None:
    d = check_best_arrangement(hand)
    assert is_big_gin([text(c) for c in hand]) is False  # ten cards are never big gin
    event("gin" if d == 0 else "knockable" if d <= 10 else "not knockable")


@settings(max_examples=examples(500, quick=80), deadline=None)
@given(random_hand(11))
def test_min_deadwood_random_11(hand: list[Naive]) -> None:
    d = check_best_arrangement(hand)
    assert is_big_gin([text(c) for c in hand]) is (d == 0)


@settings(max_examples=examples(1000, quick=150), deadline=None)
@given(meld_rich_hand(11))
def test_min_deadwood_meld_rich_11(hand: list[Naive]) -> None:
    d = check_best_arrangement(hand)
    assert is_big_gin([text(c) for c in hand]) is (d == 0)


# ---------------------------------------------------------------------------
# Properties: best discard and big gin


@settings(max_examples=examples(300, quick=100), deadline=None)
@given(st.one_of(random_hand(11), meld_rich_hand(11), nearly_melded_hand()))
def test_best_discard_matches_brute_force(hand: list[Naive]) -> None:
    cards = parse_cards([text(c) for c in hand])
    card, arr = best_discard(cards)
    expected = naive_best_discard(frozenset(hand))
    assert arr.deadwood_value == expected
    assert card in cards
    rest = [c for c in cards if c is not card]
    assert sorted(arr.cards) == sorted(rest)
    assert check_arrangement(rest, arr.melds).deadwood_value == expected
    # The discard really is one that reaches the minimum.
    assert naive_min_deadwood(frozenset(hand) - {from_card(card)}) == expected


def test_big_gin_matches_brute_force() -> None:
    seen: Counter[bool] = Counter()

    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(nearly_melded_hand())
    def run(hand: list[Naive]) -> None:
        expected = len(hand) == 11 and naive_min_deadwood(frozenset(hand)) == 0
        assert is_big_gin([text(c) for c in hand]) is expected
        seen[expected] += 1

    run()
    # Both answers occur often enough for the property to mean something.
    assert seen[True] >= 30 and seen[False] >= 30, seen


# ---------------------------------------------------------------------------
# Properties: lay-offs


@settings(max_examples=examples(400, quick=70), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layoff_case(), st.sampled_from([None, None, 1, 2]))
def test_best_defence_matches_brute_force(case: LayoffCase, limit: int | None) -> None:
    _knocker, melds, defender = case
    naive_knocker = [frozenset(from_card(c) for c in m.cards) for m in melds]
    expected = naive_best_defence(frozenset(defender), naive_knocker, limit)
    texts = [text(c) for c in defender]
    d = best_defence(texts, melds) if limit is None else best_defence(texts, melds, chain_limit=limit)
    assert d.deadwood_value == expected
    check_defence(defender, melds, d, limit)
    event(f"lay-offs: {min(len(d.layoffs), 3)}")


@st.composite
def layoff_sequence(draw: st.DrawFn) -> tuple[tuple[Meld, ...], list[Naive], int | None]:
    """Knocker melds, a declared order of lay-offs (mostly legal, sometimes not), a chain limit."""
    _knocker, melds, defender = draw(layoff_case())
    limit = draw(st.sampled_from([None, 1, 2]))
    original = [frozenset(from_card(c) for c in m.cards) for m in melds]
    now = list(original)
    left = list(defender)
    order: list[Naive] = []
    for v in draw(SEQUENCE_STEPS):
        options = [
            (card, i) for card in left for i, m in enumerate(now) if naive_fits_within(original[i], m, card, limit)
        ]
        if v % 6 == 0 or not options:
            # A card that extends a meld if the chain limit is forgotten, else any card of
            # the hand: quite likely illegal here, so stop after it.
            loose = [card for card in left if any(naive_fits(m, card) for m in now)]
            order.append(loose[v % len(loose)] if loose and v % 4 else left[v % len(left)])
            break
        card, i = options[v % len(options)]
        now[i] = now[i] | {card}
        left.remove(card)
        order.append(card)
    return melds, order, limit


SEQUENCE_STEPS = st.lists(st.integers(0, 10**6), max_size=7)


@settings(max_examples=examples(300, quick=100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layoff_sequence())
def test_check_layoffs_matches_brute_force(case: tuple[tuple[Meld, ...], list[Naive], int | None]) -> None:
    melds, order, limit = case
    naive_knocker = [frozenset(from_card(c) for c in m.cards) for m in melds]
    legal = naive_order_is_legal(naive_knocker, order, limit)
    cards = parse_cards([text(c) for c in order])
    event("legal" if legal else "illegal")
    if legal:
        after = check_layoffs(melds, cards, chain_limit=limit)
        assert all(naive_is_meld(from_card(c) for c in m.cards) for m in after)
        assert sorted(c for m in after for c in m.cards) == sorted([c for m in melds for c in m.cards] + list(cards))
    else:
        with pytest.raises(MeldError) as info:
            check_layoffs(melds, cards, chain_limit=limit)
        assert info.value.rule == "bad-layoff"


def _layoff_stats(case: LayoffCase) -> tuple[bool, bool]:
    """(lay-offs strictly help, some best answer needs a chain) by the brute force alone."""
    _knocker, melds, defender = case
    hand = frozenset(defender)
    naive_knocker = [frozenset(from_card(c) for c in m.cards) for m in melds]
    reached = naive_reachable_layoffs(hand, naive_knocker)
    scored = {laid: naive_min_deadwood(hand - laid) for laid in reached}
    best = min(scored.values())
    helps = best < scored[frozenset()]

    def needs_chain(laid: frozenset[Naive]) -> bool:
        return any(not any(naive_fits(m, c) for m in naive_knocker) for c in laid)

    chain = helps and any(needs_chain(laid) for laid, v in scored.items() if v == best)
    return helps, chain


def test_layoff_cases_really_lay_off() -> None:
    """The lay-off generator is worth its examples: lay-offs often help, chains happen."""
    counts: Counter[str] = Counter()

    @settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(layoff_case())
    def run(case: LayoffCase) -> None:
        helps, chain = _layoff_stats(case)
        counts["all"] += 1
        counts["helps"] += helps
        counts["chain"] += chain

    run()
    assert counts["all"] >= 150, counts
    assert counts["helps"] >= 0.4 * counts["all"], counts
    assert counts["chain"] >= 0.1 * counts["all"], counts
