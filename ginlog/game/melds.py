"""Melds, least deadwood, the best discard, and checks of declared arrangements (lay-offs: :mod:`.layoffs`).

Pure arithmetic on cards; nothing here knows about rules, events or files.

How the solver works, and why it is exact. A card can be in a set or in a run,
and that choice is the whole difficulty. Sets are the rare part: a hand of 10
or 11 cards has at most three ranks with three or more cards. So the solver
enumerates every *set choice* (for each such rank: no set, all four, or any
three of them) and, for the cards left, runs alone decide. With runs only, a
suit is independent of the others and its best is forced: every maximal
stretch of three or more consecutive cards is one run, the rest is deadwood.
That per-suit answer is a table lookup (8,192 entries, one per 13-bit suit
mask), so a hand with no possible set costs four lookups and a hand with sets
a few dozen. Most set choices need not even be tried: a card that is in no
run of three within the hand can only be melded in a set, so a choice that
leaves such a card out of its set is always beaten by the one that takes it in.

>>> min_deadwood("AS 2S 3S 4S 5S AC AD AH QH KH")
20
>>> best_arrangement("7S 7C 7H 9D TD JD 2H 3H 4H 5H").deadwood_value
0
>>> card, arr = best_discard("AS 4S 5S 6S 3C 4C 5C 6C 3D 5D 6D")
>>> arr.deadwood_value
9
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from ginlog.game.cards import Card, cards_mask, cards_value, mask_cards, parse_card, parse_cards
from ginlog.errors import MeldError

__all__ = [
    "Meld",
    "Arrangement",
    "is_meld",
    "min_deadwood",
    "best_arrangement",
    "best_arrangements",
    "best_discard",
    "is_big_gin",
    "check_arrangement",
    "layoff_fits",
]

_SUIT_MASK: Final = 0x1FFF
# Value of each 13-bit rank mask, and run-only deadwood of each suit mask.
_VALUES: Final = tuple(min(r + 1, 10) for r in range(13))


def _build_tables() -> tuple[list[int], list[int]]:
    # Doubling: the masks with bit r set are those without it, plus that card's value.
    value = [0]
    for v in _VALUES:
        value += [x + v for x in value]
    dead = []
    for m in range(8192):
        t = m & (m >> 1) & (m >> 2)
        dead.append(value[m & ~(t | (t << 1) | (t << 2))])
    return value, dead


_VALUE, _RUN_DEAD = _build_tables()


@attrs.frozen(repr=False, cache_hash=True)
class Meld:
    """A valid set (3 or 4 of a rank) or run (3+ consecutive of a suit), cards sorted.

    Build with :meth:`of`, which checks validity.

    >>> Meld.of("8h 6h 7h")
    Meld('6H 7H 8H')
    >>> Meld.of("QH KH AH")
    Traceback (most recent call last):
    ...
    ginlog.errors.MeldError: QH KH AH is not a meld: a run needs consecutive ranks of one suit, ace low [bad-meld]
    """

    cards: tuple[Card, ...]
    kind: str  # "set" or "run"
    #: The cards as a bit mask; stored, as the solver reads it for every lay-off.
    mask: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "mask", cards_mask(self.cards))

    @classmethod
    def of(cls, cards: str | Iterable[str | Card]) -> Meld:
        cs = parse_cards(cards)
        kind = _meld_kind(cs)
        if kind is None:
            raise MeldError(f"{' '.join(map(str, cs))} is not a meld: {_why_not_meld(cs)}", rule="bad-meld")
        return cls(tuple(sorted(cs)), kind)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"

    def accepts(self, card: Card) -> bool:
        """Whether ``card`` may be laid off onto this meld as it stands now."""
        return layoff_fits(self, card)

    def extended(self, card: Card) -> Meld:
        """This meld with ``card`` laid off onto it (the caller checked :meth:`accepts`)."""
        return Meld(tuple(sorted((*self.cards, card))), self.kind)


def layoff_fits(meld: Meld, card: Card) -> bool:
    """Whether ``card`` extends ``meld``: the 4th of a set, or the next card at either end of a run.

    >>> layoff_fits(Meld.of("5S 6S 7S"), Card(0, 8)), layoff_fits(Meld.of("5S 6S 7S"), Card(0, 9))
    (True, False)
    """
    if card in meld.cards:
        return False
    if meld.kind == "set":
        return len(meld.cards) == 3 and card.rank == meld.cards[0].rank
    first, last = meld.cards[0], meld.cards[-1]
    return card.suit_index == first.suit_index and (card.rank == first.rank - 1 or card.rank == last.rank + 1)


def _meld_kind(cs: Sequence[Card]) -> str | None:
    if len(cs) < 3 or len(set(cs)) != len(cs):
        return None
    if len(cs) <= 4 and len({c.rank for c in cs}) == 1:
        return "set"
    if len({c.suit_index for c in cs}) == 1:
        ranks = sorted(c.rank for c in cs)
        if ranks[-1] - ranks[0] == len(ranks) - 1:
            return "run"
    return None


def _why_not_meld(cs: Sequence[Card]) -> str:
    if len(cs) < 3:
        return "a meld needs at least 3 cards"
    if len({c.rank for c in cs}) == 1:
        return "a set has at most 4 cards"
    if len({c.suit_index for c in cs}) == 1:
        return "a run needs consecutive ranks of one suit, ace low"
    return "a set needs one rank, a run one suit"


def is_meld(cards: str | Iterable[str | Card]) -> bool:
    """Whether the cards form one valid set or run.

    >>> is_meld("AS 2S 3S"), is_meld("QS KS AS"), is_meld("7S 7C 7D 7H")
    (True, False, True)
    """
    return _meld_kind(parse_cards(cards, allow_duplicates=True)) is not None


@attrs.frozen
class Arrangement:
    """Melds and deadwood of one hand, as declared or as found best."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_value(self) -> int:
        return cards_value(self.deadwood)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(sorted([c for m in self.melds for c in m.cards] + list(self.deadwood)))

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds]
        if self.deadwood:
            parts.append("deadwood " + " ".join(map(str, self.deadwood)))
        return " ".join(parts) or "(no cards)"


# ---------------------------------------------------------------------------
# The solver, on masks


def _as_mask(cards: str | Iterable[str | Card] | int) -> int:
    if isinstance(cards, int):
        return cards
    if isinstance(cards, str):
        return cards_mask(parse_cards(cards))
    cs = [c if type(c) is Card else parse_card(c) for c in cards]
    m = cards_mask(cs)
    if m.bit_count() != len(cs):
        parse_cards(cs)  # raises, naming the card given twice
    return m


#: Bit 0 of every suit: a 13-bit rank mask times this is that rank in all four suits.
_LANES: Final = 1 | 1 << 16 | 1 << 32 | 1 << 48


def _runnable(m: int) -> int:
    """The cards of mask ``m`` that are in some run of three within ``m`` (the only ones a run can ever use)."""
    t = m & (m >> 1) & (m >> 2)
    return t | (t << 1) | (t << 2)


def _set_option_table() -> dict[int, tuple[int, ...]]:
    """The set masks worth trying for one rank (0 = no set), keyed by that rank's cards ``held``
    (3 or 4 of them) plus, shifted left one bit, those of them that are runnable (see :func:`_runnable`).

    A choice that becomes another one by adding only cards that can join no
    run is left out: those cards are deadwood outside the set and change
    nothing else, so it leaves strictly more deadwood. The rest keep their
    order, so the first best choice is the same as over every choice.
    """
    table: dict[int, tuple[int, ...]] = {}
    for r in range(13):
        for held in range(16):
            bits = [1 << (16 * s + r) for s in range(4) if held >> s & 1]
            if len(bits) < 3:
                continue
            full = sum(bits)
            every = (0, full, *(full ^ b for b in bits)) if len(bits) == 4 else (0, full)
            for runnable in range(16):
                if runnable & ~held:
                    continue
                free = sum(1 << (16 * s + r) for s in range(4) if runnable >> s & 1)
                table[full | free << 1] = tuple(
                    x for x in every if not any(y != x and y & x == x and not (y & ~x & free) for y in every)
                )
    return table


_SET_OPTIONS: Final = _set_option_table()


def _ranks_of_three(m: int) -> int:
    """The ranks with three or more cards in mask ``m``, as a 13-bit mask (:func:`_solve` inlines it)."""
    s0 = m & _SUIT_MASK
    s1 = (m >> 16) & _SUIT_MASK
    s2 = (m >> 32) & _SUIT_MASK
    s3 = m >> 48
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def _set_options(m: int, three: int, runnable: int) -> list[tuple[int, ...]]:
    """For each rank in ``three`` (see :func:`_ranks_of_three`): the set masks worth trying (0 = no set).

    ``runnable`` holds the cards that may be in a run (``m`` itself to try every set choice).
    """
    options = []
    while three:
        low = three & -three
        three ^= low
        rank = low * _LANES
        options.append(_SET_OPTIONS[(m & rank) | (runnable & rank) << 1])
    return options


def _leftover_dead(m: int) -> int:
    return (
        _RUN_DEAD[m & _SUIT_MASK]
        + _RUN_DEAD[(m >> 16) & _SUIT_MASK]
        + _RUN_DEAD[(m >> 32) & _SUIT_MASK]
        + _RUN_DEAD[m >> 48]
    )


def deadwood_of_mask(m: int) -> int:
    """Least deadwood of the cards in mask ``m`` (the hot path: no cards or melds are made).

    >>> deadwood_of_mask(cards_mask(parse_cards("7S 7C 7D 8D 9D 2H")))  # the run and 7S 7C loose beat the set
    16
    """
    return _solve(m)[0]


_NO_SETS: Final = (0,)


def _solve(m: int) -> tuple[int, Sequence[int]]:
    """The least deadwood of mask ``m`` and every set choice that gives it, in :func:`_set_choices` order.

    For each choice of sets the rest can only form runs, and a suit's best runs
    are a table look-up, so this is exact. Choices that cannot be best are
    skipped (see :func:`_set_option_table`).
    """
    s0 = m & _SUIT_MASK
    s1 = (m >> 16) & _SUIT_MASK
    s2 = (m >> 32) & _SUIT_MASK
    s3 = m >> 48
    dead = _RUN_DEAD
    three = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    if not three:
        return dead[s0] + dead[s1] + dead[s2] + dead[s3], _NO_SETS
    best, ties = 1 << 30, []
    for chosen in _set_choices(m, three, _runnable(m)):
        r = m & ~chosen
        d = dead[r & 0x1FFF] + dead[(r >> 16) & 0x1FFF] + dead[(r >> 32) & 0x1FFF] + dead[r >> 48]
        if d < best:
            best, ties = d, [chosen]
        elif d == best:
            ties.append(chosen)
    return best, ties


def _set_choices(m: int, three: int, runnable: int) -> Sequence[int]:
    """Every set choice worth trying for mask ``m`` as the union mask of the chosen sets, in a fixed order.

    ``three`` and ``runnable`` as for :func:`_set_options`.
    """
    options = _set_options(m, three, runnable)
    if len(options) == 1:  # the common case: one rank that could be a set
        return options[0]
    if len(options) == 2:  # as itertools.product would give them, without a tuple each
        return [a | b for a in options[0] for b in options[1]]
    return [sum(combo) for combo in itertools.product(*options)]  # (0,) when there is none


_SUIT_RUNS: dict[int, tuple[int, ...]] = {}  # 13-bit suit mask -> its maximal runs (at most 8,192 entries)


def _suit_runs(sm: int) -> tuple[int, ...]:
    runs = _SUIT_RUNS.get(sm)
    if runs is None:
        found = []
        t = sm & (sm >> 1) & (sm >> 2)
        covered = t | (t << 1) | (t << 2)
        while covered:
            low = covered & -covered
            run = 0
            bit = low
            while covered & bit:
                run |= bit
                bit <<= 1
            covered &= ~run
            found.append(run)
        runs = _SUIT_RUNS[sm] = tuple(found)
    return runs


def _set_melds(chosen: int) -> list[Meld]:
    """Split a union of chosen sets into one meld per rank, lowest rank first."""
    ranks = (chosen | chosen >> 16 | chosen >> 32 | chosen >> 48) & _SUIT_MASK
    melds = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        melds.append(_meld(chosen & low * _LANES, "set"))
    return melds


def _first_bit(meld: Meld) -> int:
    return meld.cards[0].bit


_MELD_OF: dict[int, Meld] = {}  # mask -> Meld: a few hundred melds exist, each made once


def _meld(mask: int, kind: str) -> Meld:
    meld = _MELD_OF.get(mask)
    if meld is None:
        meld = _MELD_OF[mask] = Meld(mask_cards(mask), kind)
    return meld


def _arrangement(m: int, chosen: int) -> Arrangement:
    """The arrangement of mask ``m`` that melds the sets in ``chosen`` and every maximal run of the rest."""
    return Arrangement(*_melds_and_deadwood(m, chosen))


def _melds_and_deadwood(m: int, chosen: int) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """:func:`_arrangement`'s two parts, for callers that need no :class:`Arrangement`."""
    left = m & ~chosen
    melds = _set_melds(chosen) if chosen else []
    dead: tuple[Card, ...] = ()
    for s, layouts in enumerate(_LAYOUTS):
        sm = (left >> (16 * s)) & _SUIT_MASK
        if sm:
            runs, loose = layouts.get(sm) or _layout(s, sm)
            melds += runs
            dead += loose
    if chosen and len(melds) > 1:
        melds.sort(key=_first_bit)  # melds are disjoint: the first card orders them (runs alone come in order)
    return tuple(melds), dead


def _layout(s: int, sm: int) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """Suit ``s``'s maximal runs in its 13-bit pattern ``sm``, and its cards in none (remembered)."""
    runs = _suit_runs(sm) if sm & (sm >> 1) & (sm >> 2) else ()
    shift = 16 * s
    layout = (
        tuple(_meld(r << shift, "run") for r in runs),
        mask_cards((sm & ~sum(runs)) << shift),
    )
    _LAYOUTS[s][sm] = layout
    return layout


#: Per suit: 13-bit pattern -> (its runs as melds, its other cards); 8,192 patterns at most each.
_LAYOUTS: Final[tuple[dict[int, tuple[tuple[Meld, ...], tuple[Card, ...]]], ...]] = ({}, {}, {}, {})


def min_deadwood(cards: str | Iterable[str | Card] | int) -> int:
    """Least deadwood over every arrangement of all the cards given (no discard).

    >>> min_deadwood(["7S", "7C", "7D", "7H", "8H", "9H"])
    0
    """
    return deadwood_of_mask(_as_mask(cards))



def best_arrangements(cards: str | Iterable[str | Card] | int) -> list[Arrangement]:
    """Every least-deadwood arrangement that differs in its sets, in a fixed order.

    Runs are always maximal, which loses nothing: splitting a run of six into
    two runs of three opens no new end for a lay-off.
    """
    return list(_best_arrangements(_as_mask(cards)))


@functools.lru_cache(maxsize=64)
def _best_arrangements(m: int) -> tuple[Arrangement, ...]:
    """:func:`best_arrangements` of a mask, remembered for a while.

    The reducer asks about a knocker's whole hand when they knock, if it is
    known, and again when they show it.
    """
    return tuple([_arrangement(m, ch) for ch in _solve(m)[1]])


def best_arrangement(cards: str | Iterable[str | Card] | int) -> Arrangement:
    """The least-deadwood arrangement; among ties, the first in a fixed order.

    >>> str(best_arrangement("7S 7C 7H 8H 9H 2D"))  # the run saves 19 - 16
    '[7H 8H 9H] deadwood 7S 7C 2D'
    """
    m = _as_mask(cards)
    return _arrangement(m, _solve(m)[1][0])


def best_discard(cards: str | Iterable[str | Card] | int) -> tuple[Card, Arrangement]:
    """From 11 cards, the discard that leaves the least deadwood, with that arrangement.

    Exact: every discard is tried against every set choice. Among equal
    deadwood the highest card goes (then the first in deck order), since that is
    what a player would throw.

    >>> card, arr = best_discard("2S 3S 4S 7C 7D 7H 9D TD JD 5H KC")
    >>> str(card), arr.deadwood_value
    ('KC', 5)
    """
    m = _as_mask(cards)
    if m == 0:
        raise MeldError("no cards to discard from", rule="bad-hand")
    best: tuple[int, int, int] | None = None  # (deadwood, -value, bit)
    best_ch = 0
    for ch in _set_choices(m, _ranks_of_three(m), m):  # every choice: a discard can free a card for a run
        left = m & ~ch
        x = left
        while x:
            b = x & -x
            x ^= b
            d = _leftover_dead(left ^ b)
            key = (d, -_VALUE[(b >> (16 * ((b.bit_length() - 1) // 16))) & _SUIT_MASK], b.bit_length())
            if best is None or key < best:
                best, best_ch = key, ch
    assert best is not None
    bit = 1 << (best[2] - 1)
    (card,) = mask_cards(bit)
    return card, _arrangement(m ^ bit, best_ch)


def is_big_gin(cards: str | Iterable[str | Card] | int) -> bool:
    """All 11 cards melded with no discard.

    >>> is_big_gin("AS 2S 3S 4S 7C 7D 7H 9D TD JD QD")
    True
    """
    m = _as_mask(cards)
    return bin(m).count("1") == 11 and deadwood_of_mask(m) == 0


# ---------------------------------------------------------------------------
# Checking what a player declares


def check_arrangement(hand: Iterable[Card], melds: Sequence[Meld | str | Iterable[str | Card]]) -> Arrangement:
    """Check a declared arrangement of ``hand``; the cards in no meld are the deadwood.

    Each meld must be valid, the melds disjoint, and every card from the hand.

    >>> hand = parse_cards("7S 7C 7H 8H 9H 2D")
    >>> check_arrangement(hand, ["7H 8H 9H"]).deadwood_value
    16
    >>> check_arrangement(hand, ["7H 8H 9H", "7S 7C 7H"])
    Traceback (most recent call last):
    ...
    ginlog.errors.MeldError: 7H is declared in two melds [meld-overlap]
    """
    # Bit masks, not sets of cards: every shown hand of a replay comes here, and a card's hash is a
    # Python call. The deadwood comes out in the order of the bits, which is the cards' sort order.
    held = cards_mask(hand)
    used = 0
    out = []
    for spec in melds:
        meld = spec if isinstance(spec, Meld) else Meld.of(spec)
        for c in meld.cards:
            if not held & c.bit:
                raise MeldError(f"{c} is declared in a meld but is not in the hand", rule="meld-not-in-hand")
            if used & c.bit:
                raise MeldError(f"{c} is declared in two melds", rule="meld-overlap")
            used |= c.bit
        out.append(meld)
    return Arrangement(tuple(out), mask_cards(held & ~used))
