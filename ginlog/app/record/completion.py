"""What Tab offers at the recorder's prompt: entry words, the cards that can be named there, the players.

Pure: :func:`choices` takes the line up to the cursor and the match state and
returns :class:`Choice` values; :mod:`ginlog.app.record.prompt` wraps it in a
prompt_toolkit completer. The entry words offered are the words of the
language's table (:data:`ginlog.app.record.language.TABLE`), never their
aliases (shorthands are no use to offer), which are known only to read what
comes after them. The cards offered are the ones that make sense at that point of the hand:

- ``discard``/``knock``/``gin``/``show``: the player's hand when the record
  knows it whole (a full-information record), else every card that could be
  in it (known there, or not yet seen anywhere);
- ``stock``: the cards not yet seen; ``take``: the top of the pile;
- ``upcard`` and a ``cut``: any card (a new deck);
- names for ``dealer``, ``cut`` and ``result``, quoted when they hold a space.

>>> from ginlog.game.rules import preset
>>> from ginlog.game.scoring import Tally
>>> from ginlog.play.state import MatchState
>>> st = MatchState(players=("Ann", "Mary Lou"), rules=preset("standard"), tally=Tally())
>>> [c.text for c in choices("de", st)], [c.text for c in choices("dealer m", st)]
(['dealer'], ["'Mary Lou'"])
>>> [(c.text, c.shown) for c in choices("upcard qh", st)]
[('qh', 'Q♥')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from ginlog.app.record import language
from ginlog.app.record.retype import entry_for
from ginlog.errors import GinlogError
from ginlog.game.cards import RANKS, SUITS, Card, mask_cards, parse_card, split_cards
from ginlog.log.events import FirstDealer
from ginlog.play.state import ALL_CARDS, MatchState
from ginlog.text import visible, split_words

__all__ = ["Choice", "choices", "words_now", "ENTRY_WORDS", "AFTER_WORDS", "RECORDER_WORDS", "ALIASES"]

#: The recorder's own words (not entries: they record nothing), offered after the entries.
RECORDER_WORDS: Final = ("table", "help", "quit")
#: The words offered first on a line, in the order shown: the entry language's words, then the recorder's.
ENTRY_WORDS: Final = (*(e.word for e in language.TABLE if e.word), *RECORDER_WORDS)
#: The words offered once the match is over (the recorder stays open).
AFTER_WORDS: Final = ("undo", "rematch", "seal", *RECORDER_WORDS)
#: Short forms that name the same entry (for knowing what comes after them, never offered).
ALIASES: Final = {alias: e.word for e in language.TABLE for alias in e.aliases}
_HOW: Final = ("knock", "gin", "biggin", "void")
#: The words that end a turn with a card (``s d 7h``: a card is offered after ``d``; ``biggin`` takes none).
_ENDS: Final = frozenset(e.word for e in language.TABLE if e.ends_turn and any("CARD" in s for s in e.shapes))
_OPEN_QUOTE: Final = re.compile(r"""(?:^|\s)(['"\u201c\u2018][^'"\u201d\u2019]*)\Z""")
_SPACE: Final = re.compile(r"\s")
#: A line's first word, a quoted name whole, and the space after it.
_NAME_HEAD: Final = re.compile(r"""\s*(?:['"\u201c\u2018].*?['"\u201d\u2019](?=\s)|\S+)\s*""")


@attrs.frozen
class Choice:
    """One completion: ``text`` replaces the last ``length`` characters before the cursor; ``shown`` is the menu's label."""

    text: str
    length: int
    shown: str


def words_now(state: MatchState) -> tuple[str, ...]:
    """The first words Tab offers now: the entry words that may be legal in this phase
    (:func:`ginlog.app.record.language.legal_now`), then the recorder's; after the end, :data:`AFTER_WORDS`.

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import Tally
    >>> words_now(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally()))
    ('dealer', 'cut', 'note', 'undo', 'abandon', 'table', 'help', 'quit')
    """
    if state.finished:
        return AFTER_WORDS
    return (*dict.fromkeys(e.word for e in language.legal_now(state) if e.word), *RECORDER_WORDS)


def choices(line: str, state: MatchState, *, words: Sequence[str] | None = None) -> list[Choice]:
    """What may complete the word being typed at the end of ``line`` (the text before the cursor).

    Only what may be legal now: the words of this phase (``words``, default :func:`words_now`), and where a
    line may begin with a card (a card alone, a shown hand) or a name (``NAME ENTRY``: the player to act), those.
    """
    if words is None:
        words = words_now(state)
    m = _OPEN_QUOTE.search(line)
    fragment = m.group(1) if m else _SPACE.split(line)[-1]
    head = line[: len(line) - len(fragment)]
    try:
        before = split_words(head)
    except GinlogError:
        before = head.split()
    if not before:
        out = [Choice(w, len(fragment), w) for w in words if w.startswith(fragment.lower())]
        if fragment and not state.finished:
            out += _to_act(state, fragment) + _cards(_alone(state), fragment)
        return out
    word = before[0].lower()
    word = ALIASES.get(word, word)
    if word not in language.WORDS and not state.finished:
        if language.phase_of(state) in ("show", "defend") and all(_card_or_bracket(w) for w in before):
            return list(_after("show", before, fragment, state))
        if state.hand is not None and _to_act(state, before[0]):  # NAME ENTRY: what the player to act may type
            name = _NAME_HEAD.match(head)
            rest = head[name.end():] if name else ""
            return choices(rest + fragment, state, words=[w for w in words if w not in RECORDER_WORDS])
    return list(_after(word, before[1:], fragment, state))


def _card_or_bracket(word: str) -> bool:
    try:
        return all(parse_card(c) for c in split_cards(word.strip("[]")) if c) or word in ("[", "]")
    except GinlogError:
        return word.lower() in ("lay", "[", "]")


def _to_act(state: MatchState, fragment: str) -> list[Choice]:
    """The player to act, if the fragment begins their name (``NAME ENTRY``; entry words win, so a fragment that
    is one is not a name)."""
    if state.hand is None or fragment.lower() in language.WORDS:
        return []
    return [c for c in _names(state, fragment) if c.shown == visible(state.players[state.hand.turn])]


def _holding(state: MatchState, *, drawn: Sequence[Card] = (), from_pile: bool = False) -> list[Card]:
    """The cards the player to act may hold (and so name), those known in the hand first: the whole hand when the
    record knows it, else the known ones and then every card not seen anywhere. Never the card just taken from
    the pile (it may not go back this turn, unless the rules say it may)."""
    hand = state.hand
    assert hand is not None
    seat = hand.turn
    known = hand.known[seat]
    for card in drawn:
        known |= card.bit
    whole = known.bit_count() == hand.sizes[seat] + len(drawn)
    others = [] if whole else [c for c in mask_cards(ALL_CARDS & ~hand.placed_mask()) if not known & c.bit]
    taken = [*(drawn if from_pile else ()), *([hand.taken] if hand.taken else [])]
    if state.rules.may_discard_taken_card:
        taken = []
    return [c for c in [*mask_cards(known), *others] if c not in taken or language.phase_of(state) in ("show", "defend")]


def _alone(state: MatchState) -> list[Card]:
    """The cards a card alone may name now: the upcard of a deal (any card), the discard of a turn (with the draw
    before it: the cards the player may hold), the cards of a shown hand."""
    now = language.phase_of(state)
    if now == "ready":
        return list(mask_cards(ALL_CARDS))
    if now in ("draw", "discard", "show", "defend"):
        hand = state.hand
        assert hand is not None
        return [c for c in _holding(state) if c != hand.pile_top or now != "draw"]
    return []


def _ending_words(fragment: str, state: MatchState) -> list[Choice]:
    """The words that end a turn, after a draw on the same line (``s d``, ``t k``), once a letter is typed."""
    if not fragment or not fragment.isalpha():
        return []
    ends = [e.word for e in language.TABLE if e.ends_turn and not (e.word == "biggin" and state.rules.big_gin_bonus is None)]
    return [Choice(w, len(fragment), w) for w in ends if w.startswith(fragment.lower())]


def _after(word: str, rest: list[str], fragment: str, state: MatchState) -> Iterable[Choice]:
    n = len(rest)
    if word == "dealer" and n == 0 or word == "cut" and n in (0, 2):
        return _names(state, fragment)
    if word == "cut" and n in (1, 3) or word == "upcard" and n == 0:
        return _cards(mask_cards(ALL_CARDS), fragment)
    if word == "result":
        if n == 0:
            return [Choice(h, len(fragment), h) for h in _HOW if h.startswith(fragment.lower())]
        if n == 1 and rest[0].lower() != "void":
            return _names(state, fragment)
        if rest[-1].lower() == "upcard":
            return _cards(mask_cards(ALL_CARDS), fragment)
        return [Choice(w, len(fragment), w) for w in ("upcard", "points") if fragment and w.startswith(fragment.lower())]
    hand = state.hand
    if hand is None:
        return []
    if word == "take" and n == 0:
        return [*_cards([hand.pile_top] if hand.pile_top else [], fragment), *_ending_words(fragment, state)]
    if word == "stock" and n == 0:
        return [*_cards(hand.unknown_cards() + (hand.stock_order or ()), fragment), *_ending_words(fragment, state)]
    if word == "stock" and n == 1 and _card_or_bracket(rest[0]):
        return _ending_words(fragment, state)
    if word in ("discard", "knock", "gin") and n == 0:
        return _cards(_holding(state), fragment)
    if word in language.DRAWS and 1 <= n <= 2 and ALIASES.get(rest[-1].lower(), rest[-1].lower()) in _ENDS:
        # A whole turn (``s d 7h``, ``t k qc``, ``s 5c d 7h``): the card that ends it, from the hand after the draw.
        drawn = [hand.pile_top] if word == "take" and hand.pile_top else []
        if n == 2:
            try:
                drawn = [parse_card(rest[0])]
            except GinlogError:
                return []
        return _cards(_holding(state, drawn=drawn, from_pile=word == "take"), fragment)
    if word == "show":
        typed = {c.lower() for w in rest for c in split_cards(w.strip("[]"))}
        left = [c for c in _holding(state) if str(c).lower() not in typed and _ten(c) not in typed]
        return _cards(left, fragment)
    return []


def _names(state: MatchState, fragment: str) -> list[Choice]:
    """The players whose name starts with the fragment (any case, a quote before it allowed)."""
    bare = fragment.lstrip("'\"\u201c\u2018").casefold()
    out = []
    for name in state.players:
        if name.casefold().startswith(bare):
            typed = (entry_for(FirstDealer(dealer=name, how="agreed")) or "")[len("dealer "):]
            out.append(Choice(typed, len(fragment), visible(name)))
    return out


def _ten(card: Card) -> str:
    """``10h``: the spelling people use, where ``str(card)`` is ``TH``."""
    return ("10" if card.rank == 10 else RANKS[card.rank - 1]).lower() + SUITS[card.suit_index].lower()


def _cards(cards: Iterable[Card], fragment: str) -> list[Choice]:
    """The cards the fragment can begin (``q``, ``10``, ``t``, ``qh``), typed in its case (lower by default)."""
    lead = fragment[: len(fragment) - len(fragment.lstrip("["))]
    bare = fragment[len(lead):]
    low = bare.lower()
    upper = bare != low
    out = []
    for c in dict.fromkeys(cards):  # in the order given: a hand's known cards first
        spelled = _ten(c)
        if spelled.startswith(low) or str(c).lower().startswith(low):
            out.append(Choice(lead + (spelled.upper() if upper else spelled), len(fragment), c.pretty))
    return out
