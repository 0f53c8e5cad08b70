"""Cards: one interned value per card, a forgiving parser and one canonical text.

A card is written ``rank + suit``: rank one of ``A23456789TJQK`` (``T`` is ten)
and suit one of ``SCDH``. That canonical text is what match files store,
because it is short and sorts nothing away. Input is forgiving because people
type it at a table: ``7h``, ``10h``, ``Th``, ``7♥`` and ``7♡`` all read.

>>> parse_card("10h")
Card('TH')
>>> str(parse_card("q♠")), parse_card("7♡").value, parse_card("K♣").value
('QS', 7, 10)
>>> parse_cards("as 2s 3s")
(Card('AS'), Card('2S'), Card('3S'))

A list of cards may also be typed compactly, as people read a hand they hold:
``2h3h4h`` (no spaces), ``234h`` (ranks before a suit share it), or mixed:

>>> format_cards(parse_cards("2h3h4h 8s8c8d a3d")), split_cards("10h9s")
('8S 8C AD 3D 8D 2H 3H 4H', ['10h', '9s'])

Each of the 52 cards exists once (``parse_card("7h") is parse_card("7H")``),
so comparing and hashing cards costs nothing. ``Card.bit`` places the card in
a 64-bit mask, 16 bits a suit, which is what the meld solver works on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import attrs

from ginlog.errors import CardError

__all__ = [
    "Card",
    "SUITS",
    "RANKS",
    "DECK",
    "parse_card",
    "parse_cards",
    "split_cards",
    "format_cards",
    "cards_mask",
    "mask_cards",
]

#: Suits in ginlog's order (also OpenSpiel's): spades, clubs, diamonds, hearts.
SUITS: Final = "SCDH"
#: Ranks, ace low.
RANKS: Final = "A23456789TJQK"
SUIT_SYMBOLS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}

_SUIT_ALIASES: Final = {
    "s": "S", "c": "C", "d": "D", "h": "H",
    "♠": "S", "♤": "S", "♣": "C", "♧": "C",
    "♦": "D", "♢": "D", "♥": "H", "♡": "H",
}
_RANK_ALIASES: Final = {r.lower(): r for r in RANKS} | {"10": "T", "1": "", "11": "", "12": "", "13": ""}


@attrs.frozen(repr=False, cache_hash=True)
class Card:
    """One playing card. Use :func:`parse_card` or :data:`DECK`; never build duplicates.

    ``rank`` runs 1 (ace) to 13 (king); ``suit`` is one letter of ``SCDH``.
    Ordering is by suit then rank, the order a player sorts a hand in.
    """

    suit_index: int
    rank: int
    #: This card's bit in a hand mask: suit ``s`` owns bits ``16*s .. 16*s+12``.
    #: Stored, not computed, because the reducer and the solver read it constantly.
    bit: int = attrs.field(init=False, eq=False, repr=False)
    #: Deadwood value: ace 1, number cards their number, J Q K 10.
    value: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << (self.suit_index * 16 + self.rank - 1))
        object.__setattr__(self, "value", self.rank if self.rank < 10 else 10)

    @property
    def suit(self) -> str:
        return SUITS[self.suit_index]

    @property
    def index(self) -> int:
        """0..51 as ``suit*13 + rank-1`` (OpenSpiel's numbering)."""
        return self.suit_index * 13 + self.rank - 1

    @property
    def pretty(self) -> str:
        """For people: ``10♥``, ``A♠``."""
        r = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return r + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit_index]

    # Ordering by suit then rank, which is the order of ``bit``; written out
    # because attrs' generated ordering builds tuples on every comparison.
    def __lt__(self, other: Card) -> bool:
        return self.suit_index * 16 + self.rank < other.suit_index * 16 + other.rank

    def __gt__(self, other: Card) -> bool:
        return self.suit_index * 16 + self.rank > other.suit_index * 16 + other.rank

    def __le__(self, other: Card) -> bool:
        return not self > other

    def __ge__(self, other: Card) -> bool:
        return not self < other

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: The 52 cards, spades ace to king, then clubs, diamonds, hearts.
DECK: Final[tuple[Card, ...]] = tuple(Card(s, r) for s in range(4) for r in range(1, 14))
_BY_TEXT: Final = {str(c): c for c in DECK}


def parse_card(text: str | Card) -> Card:
    """Read one card, forgivingly; raise :class:`CardError` saying what is wrong.

    >>> parse_card(" Th ")
    Card('TH')
    >>> parse_card("1h")
    Traceback (most recent call last):
    ...
    ginlog.errors.CardError: '1h' is not a card: rank '1' is not one of A 2-10 J Q K (ace is A) [card]
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: expected text like 7H", rule="card")
    t = text.strip()
    hit = _BY_TEXT.get(t)
    if hit is not None:
        return hit
    if not t:
        raise CardError("an empty entry is not a card", rule="card")
    suit = _SUIT_ALIASES.get(t[-1].lower() if t[-1].isascii() else t[-1])
    rank_text = t[:-1].strip()
    if suit is None:
        raise CardError(
            f"{text!r} is not a card: suit {t[-1]!r} is not one of S C D H (or ♠ ♣ ♦ ♥)",
            rule="card",
        )
    rank = _RANK_ALIASES.get(rank_text.lower())
    if not rank:
        shown = rank_text or "(none)"
        hint = " (ace is A)" if rank_text == "1" else ""
        raise CardError(
            f"{text!r} is not a card: rank {shown!r} is not one of A 2-10 J Q K{hint}",
            rule="card",
        )
    return _BY_TEXT[rank + suit]


#: One rank as typed (``10`` or one character: ``1`` is refused by :func:`parse_card`, ace is ``A``).
_RANK_TEXT: Final = r"(?:10|[a2-9tjqk])"
_SUIT_TEXT: Final = "[" + "".join(_SUIT_ALIASES) + "]"
#: A compact list: groups of ranks, each group ended by the suit its ranks share (``2h3h``, ``234h``; not
#: ``8cds``: a suit ends a group, so no suit follows another).
_COMPACT: Final = re.compile(rf"(?:{_RANK_TEXT}+{_SUIT_TEXT})+", re.I)
_GROUP: Final = re.compile(rf"({_RANK_TEXT}+)({_SUIT_TEXT})", re.I)
_ONE_RANK: Final = re.compile(_RANK_TEXT, re.I)


def split_cards(word: str) -> list[str]:
    """The cards one word of a list spells: itself, or each card of a compact list (``2h3h4h``, ``234h``).

    Why: a shown hand is ten cards, and ``show 2h 3h 4h ...`` was most of a
    hand's keystrokes. A rank never ends a word and a suit never begins one,
    so a word splits one way only: each run of ranks takes the suit after it.
    A word that is not such a list is given back whole, for :func:`parse_card`
    to say what is wrong with it.

    >>> split_cards("2h3h4h"), split_cards("a23s10d"), split_cards("7♥8♥"), split_cards("2h3")
    (['2h', '3h', '4h'], ['as', '2s', '3s', '10d'], ['7♥', '8♥'], ['2h3'])
    """
    if len(word) <= 2 or _COMPACT.fullmatch(word) is None:
        return [word]
    return [rank + suit for ranks, suit in _GROUP.findall(word) for rank in _ONE_RANK.findall(ranks)]


def parse_cards(cards: str | Iterable[str | Card], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Read several cards (a space- or comma-separated string, or an iterable), each word a card or a compact
    list of them (:func:`split_cards`).

    A card given twice is an error, because no hand holds the same card twice.

    >>> parse_cards("7h, 8h 9H")
    (Card('7H'), Card('8H'), Card('9H'))
    >>> parse_cards("7h 7H")
    Traceback (most recent call last):
    ...
    ginlog.errors.CardError: 7H is given twice [duplicate-card]
    """
    items = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    out = tuple(parse_card(c) for item in items for c in (split_cards(item) if isinstance(item, str) else (item,)))
    if not allow_duplicates and len(set(out)) != len(out):
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise CardError(f"{c} is given twice", rule="duplicate-card")
            seen.add(c)
    return out


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """Space-separated text, sorted by suit then rank.

    >>> format_cards(parse_cards("3h as 2s"))
    'AS 2S 3H'
    """
    return " ".join(c.pretty if pretty else str(c) for c in sorted(cards))


def cards_mask(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards (see :attr:`Card.bit`).

    >>> cards_mask(parse_cards("as 2s")) == 0b11
    True
    """
    mask = 0
    for card in cards:  # a plain loop beats reduce(or_, map(...)) here: the attribute read is specialised
        mask |= card.bit
    return mask


def cards_value(cards: Iterable[Card]) -> int:
    """The cards' deadwood value, added up (see :attr:`Card.value`).

    >>> cards_value(parse_cards("as 7h kd"))
    18
    """
    total = 0
    for card in cards:  # a plain loop: sum() over a generator costs twice as much
        total += card.value
    return total


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, in :data:`DECK` order (which is the order of their bits).

    Each suit's 13 bits are looked up whole: the solver and the reducer turn
    masks back into cards at the end of every hand, and a few hundred suit
    patterns recur.

    >>> mask_cards(parse_card("2h").bit | parse_card("as").bit)
    (Card('AS'), Card('2H'))
    """
    if mask & _NOT_A_CARD or mask < 0:
        raise ValueError(f"{mask:#x} has bits that are no card")
    a, b, c, d = mask & 0x1FFF, (mask >> 16) & 0x1FFF, (mask >> 32) & 0x1FFF, mask >> 48
    try:
        return _SUIT_CARDS[0][a] + _SUIT_CARDS[1][b] + _SUIT_CARDS[2][c] + _SUIT_CARDS[3][d]
    except KeyError:
        for s, sm in enumerate((a, b, c, d)):
            if sm not in _SUIT_CARDS[s]:
                _SUIT_CARDS[s][sm] = tuple(DECK[s * 13 + r] for r in range(13) if sm >> r & 1)
        return mask_cards(mask)


#: Per suit: its 13-bit pattern -> those cards (filled as patterns are met; 8,192 each at most).
_SUIT_CARDS: Final[tuple[dict[int, tuple[Card, ...]], ...]] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})
_NOT_A_CARD: Final = ~sum(0x1FFF << (16 * s) for s in range(4))
