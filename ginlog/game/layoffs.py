"""Lay-offs: which card extends a meld, the defender's best defence, and a check of declared lay-offs.

Apart from :mod:`ginlog.game.melds` because it answers a different question:
not "how do these cards meld" but "what may the defender add to the
knocker's melds". It leans on the solver for the rest of the hand (every
combination of lay-off chains is tried, and the cards left are melded
exactly), so a card that could be laid off or kept in a meld goes where it
saves most.

>>> from ginlog.game.melds import Meld
>>> d = best_defence("8S 9S 2D 3D 4D KC QC QH JH TH", [Meld.of("5S 6S 7S"), Meld.of("KS KH KD")])
>>> [str(c) for c in d.layoffs], d.deadwood_value
(['8S', '9S', 'KC'], 10)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from ginlog.errors import MeldError
from ginlog.game.cards import Card, cards_value, mask_cards
from ginlog.game.melds import _LANES, Meld, _as_mask, _melds_and_deadwood, _solve, layoff_fits

__all__ = ["Defence", "best_defence", "check_layoffs"]


@attrs.frozen
class Defence:
    """What the defender shows after a knock: own melds, lay-offs in order, deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Card, ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_value(self) -> int:
        return cards_value(self.deadwood)


#: Rank (1-13) -> that rank's card in every suit.
_EVERY_SUIT: Final = (0, *(_LANES << r for r in range(13)))


def _layoff_ends(
    knocker_melds: Sequence[Meld], hand: int, limit: int | None = None
) -> list[tuple[tuple[int, ...], bool]]:
    """Per open end of a knocker meld that ``hand`` can lay off onto: the chains it may lay there, and which way.

    Each end is ``(chains, downward)``: the chains' masks, shortest first,
    the first 0 (lay nothing off there); ``downward`` when the end is below a
    run, so that its cards are laid from the highest down.
    """
    ends: list[tuple[tuple[int, ...], bool]] = []
    for meld in knocker_melds:
        mask = meld.mask
        if meld.kind == "set":
            if len(meld.cards) == 3:
                fourth = _EVERY_SUIT[meld.cards[0].rank] & ~mask
                if hand & fourth:
                    ends.append(((0, fourth), False))
            continue
        # Below the ace, and above the king, lie bits that are no card: a chain stops there.
        for bit, downward in (((mask & -mask) >> 1, True), (1 << mask.bit_length(), False)):
            chain = 0
            chains = [0]
            while hand & bit and (limit is None or len(chains) <= limit):
                chain |= bit
                chains.append(chain)
                bit = bit >> 1 if downward else bit << 1
            if chain:
                ends.append((tuple(chains), downward))
    return ends


def best_defence(
    defender: str | Iterable[str | Card] | int, knocker_melds: Sequence[Meld], *, chain_limit: int | None = None
) -> Defence:
    """The defender's own melds and lay-offs that together leave the least deadwood.

    Every combination of lay-off chains onto every open end is tried, and for
    each the rest of the hand is melded exactly, so a card that could either be
    laid off or kept in the defender's own meld goes where it saves most.
    Among ties, the fewest lay-offs. ``chain_limit`` caps the cards laid off at
    one end of a run (OpenSpiel's engine takes two at most).

    >>> d = best_defence("8S 9S 2D 3D 4D KC KD QH JH TH", [Meld.of("5S 6S 7S"), Meld.of("KS KH KD")])
    Traceback (most recent call last):
    ...
    ginlog.errors.MeldError: KD is in both hands [duplicate-card]
    >>> d = best_defence("8S 9S 2D 3D 4D KC QC QH JH TH", [Meld.of("5S 6S 7S"), Meld.of("KS KH KD")])
    >>> [str(c) for c in d.layoffs], d.deadwood_value
    (['8S', '9S', 'KC'], 10)
    """
    hand = _as_mask(defender)
    knocker = 0
    for meld in knocker_melds:
        knocker |= meld.mask
    if hand & knocker:
        dup = mask_cards(hand & knocker)[0]
        raise MeldError(f"{dup} is in both hands", rule="duplicate-card")
    ends = _layoff_ends(knocker_melds, hand, chain_limit)
    best_dead, best_count = 1 << 30, 0
    best_laid = best_chosen = 0
    best_combo: tuple[int, ...] = ()
    # With no end to lay off onto, the product is one empty combination: the hand as it is.
    for combo in itertools.product(*[chains for chains, _downward in ends]):
        laid = 0
        for chain in combo:
            if laid & chain:
                break  # two ends claimed the same card
            laid |= chain
        else:
            dead, ties = _solve(hand & ~laid)
            if dead < best_dead or (dead == best_dead and laid.bit_count() < best_count):
                best_dead, best_count, best_laid, best_combo, best_chosen = dead, laid.bit_count(), laid, combo, ties[0]
    # Each chain runs outward from its meld, so this order is legal as made.
    layoffs: list[Card] = []
    for chain, (_chains, downward) in zip(best_combo, ends):
        if chain:
            cards = mask_cards(chain)
            layoffs += reversed(cards) if downward else cards
    melds, deadwood = _melds_and_deadwood(hand & ~best_laid, best_chosen)
    return Defence(melds, tuple(layoffs), deadwood)


def check_layoffs(
    knocker_melds: Sequence[Meld], layoffs: Sequence[Card], *, chain_limit: int | None = None
) -> tuple[Meld, ...]:
    """Apply declared lay-offs in order; each must extend some knocker meld as it then stands.

    Returns the knocker's melds after the lay-offs. A card fits a run at either
    end, so chains work (``8S`` then ``9S`` onto ``5S 6S 7S``) but not out of
    order (``9S`` first).

    >>> from ginlog.game.cards import parse_cards
    >>> [str(m) for m in check_layoffs([Meld.of("5S 6S 7S")], parse_cards("8S 9S"))]
    ['5S 6S 7S 8S 9S']
    >>> check_layoffs([Meld.of("5S 6S 7S")], parse_cards("9S 8S"))
    Traceback (most recent call last):
    ...
    ginlog.errors.MeldError: 9S does not extend any of the knocker's melds (5S 6S 7S) [bad-layoff]
    >>> check_layoffs([Meld.of("5S 5C 5D"), Meld.of("6H 7H 8H")], parse_cards("5H") * 2)
    Traceback (most recent call last):
    ...
    ginlog.errors.MeldError: 5H is laid off twice [bad-layoff]
    """
    seen: set[Card] = set()
    for card in layoffs:  # one card is laid off once (it would extend a run and then a set: two cards' worth)
        if card in seen:
            raise MeldError(f"{card} is laid off twice", rule="bad-layoff")
        seen.add(card)
    melds = list(knocker_melds)

    def within_limit(i: int, card: Card) -> bool:
        if chain_limit is None or melds[i].kind == "set":
            return True
        orig = knocker_melds[i].cards
        if card.rank < orig[0].rank:
            return orig[0].rank - card.rank <= chain_limit
        return card.rank - orig[-1].rank <= chain_limit

    for card in layoffs:
        for i, m in enumerate(melds):
            if m.kind == "run" and layoff_fits(m, card) and within_limit(i, card):
                melds[i] = m.extended(card)
                break
        else:
            for i, m in enumerate(melds):
                if m.kind == "set" and layoff_fits(m, card):
                    melds[i] = m.extended(card)
                    break
            else:
                shown = "; ".join(map(str, melds)) or "none"
                cap = f"; at most {chain_limit} at each end of a run" if chain_limit is not None else ""
                raise MeldError(
                    f"{card} does not extend any of the knocker's melds ({shown}{cap})", rule="bad-layoff"
                )
    return tuple(melds)
