"""The entry language: short words typed at the table, turned into candidate events.

Whose turn it is comes from the state, never from the entry, so ``discard 7h``
is all it takes. Parsing is pure: ``parse_entry(text, timeline)`` returns the
events the entry stands for (the reducer then decides if they are legal).

The entries, their short forms and what each means are one table,
:data:`ginlog.app.record.language.TABLE` (``help`` at the recorder prints
it; the README's table is checked against it).

A whole turn is a draw entry (``take [CARD]``, ``stock [CARD]``) followed by
the entry that ends the turn (``discard CARD``, ``knock CARD``, ``gin [CARD]``,
``biggin``), short or long words alike: ``stock discard 7h`` is ``s d 7h``. It
stands for the same two events as the two entries, checked together (both
written or neither). It is the two entries on one line, nothing new to learn,
and never another entry: no ending word (``d``, ``k``, ``g``...) spells a
card, so ``s 7h`` stays "stock, the card is 7h". In table view ``s d 7h``
needs no drawn card; ``s g`` needs the hand known (ginlog picks the card).

Terse forms (issue 21), each the one entry of its phase that takes a card,
so never ambiguous: a card alone is the upcard between hands, ``s d CARD``
before a draw, the discard after one, and cards alone at the end are the
hand shown (``show`` left out). A list of cards may run together and share a
suit (``2h3h4h``, ``234h``: :func:`ginlog.game.cards.split_cards`).
``NAME ENTRY`` (``bob take``) says who, and is refused unless it is their
turn; an unknown word is refused naming the entry it was probably meant to be.

Score-pad hands: ``result knock NAME KNOCKER_DW DEFENDER_DW [points N]``,
``result gin NAME DEFENDER_DW``, ``result biggin NAME DEFENDER_DW``,
``result void``; add ``upcard CARD`` under Oklahoma. The quickest pad form is
``NAME +POINTS`` (``Ann +25``, ``'Mary Ann' +31``): the hand recorded as
points only (``how="points"``), no deadwood, no how; the rules add a won
hand's boxes and bonuses, and an audit warns that such a hand's play and
deadwood are not checked (``score-pad``). No other entry takes a ``+N`` word;
a player called like a free-text entry (``Note``) is quoted: ``'Note' +25``.

A NAME is matched as :func:`ginlog.text.match_player` says: exactly, in any
case, or by a unique prefix; a name with a space goes in quotes
(``dealer 'Mary Ann'``). An entry is read whole: a word it does not take is
refused, never dropped. The text of ``note`` and of a reason is kept as typed.

>>> from ginlog.play.reducer import start, apply
>>> from ginlog.log.events import MatchStarted
>>> from ginlog.game.rules import preset
>>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
>>> parse_entry("dealer ann", tl)
[FirstDealer(dealer='Ann', how='agreed', cuts=None)]
>>> tl = apply(tl, parse_entry("dealer Ann", tl)[0])
>>> parse_entry("up 7♥", tl)
[HandDealt(dealer='Ann', upcard=Card('7H'), hands=None, stock=None)]
>>> parse_entry("bob +25", tl)
[HandResultOnly(how='points', out=None, knocker_deadwood=0, defender_deadwood=0, upcard=None, points=25, winner='Bob')]
>>> for text in ("up 7h", "p", "p"):
...     tl = apply(tl, parse_entry(text, tl)[0])
>>> parse_entry("s d qc", tl)
[CardDrawn(player='Bob', source='stock', card=None), CardDiscarded(player='Bob', card=Card('QC'))]
"""

from __future__ import annotations

import re
from typing import Final

from ginlog.app.record import language
from ginlog.log.event_types import MAX_TEXT
from ginlog.game.cards import Card, parse_card, parse_cards, split_cards
from ginlog.errors import GinlogError
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
from ginlog.game.melds import best_discard
from ginlog.game.scoring import check_hand_points
from ginlog.play.state import HandState, MatchState, Timeline
from ginlog.play.timeline import apply
from ginlog.text import match_player, quoted, split_words

__all__ = ["parse_entry", "EntryError", "WORDS", "NOT_TYPED"]


class EntryError(GinlogError):
    """An entry that is not in the entry language (a typo, a missing card)."""

    default_rule = "entry"


#: Every spelling the parser takes -> its entry's word (the table: :mod:`ginlog.app.record.language`).
WORDS: Final = language.WORDS


#: Event types no entry stands for, and where they come from instead.
NOT_TYPED: Final[dict[str, str]] = {"match_started": "ginlog new", "seal": "ginlog seal"}

_HOW: Final = language.RESULT_HOWS


def _player(state: MatchState, word: str) -> str:
    """The player ``word`` names: exactly, case-insensitively or by a unique prefix (:func:`ginlog.text.match_player`)."""
    try:
        return state.players[match_player(word, state.players)]
    except GinlogError as exc:
        raise EntryError(exc.message, rule="entry") from None


def _words(text: str) -> list[str]:
    try:
        return split_words(text)
    except GinlogError as exc:
        raise EntryError(exc.message, rule="entry") from None


def _turn(state: MatchState) -> str:
    if state.hand is None:
        raise EntryError("no hand is being played: deal one with 'upcard CARD'", rule="entry")
    return state.players[state.hand.turn]


def _int(text: str, what: str) -> int:
    """A count typed at the table: ASCII digits, one ``+`` allowed (``int()`` also takes ``2_0``, ``٢٥``).

    >>> _int("25", "points"), _int("+25", "points")
    (25, 25)
    """
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits.isascii() and digits.isdigit() and _DIGITS.fullmatch(digits) is None:
        raise EntryError(f"{what} is too large", rule="entry")
    if text.startswith("-") and digits.strip("0") and _DIGITS.fullmatch(digits):
        raise EntryError(f"{what} cannot be negative", rule="entry")
    if text.startswith("-") or _DIGITS.fullmatch(digits) is None:
        raise EntryError(f"{what} must be a whole number (digits 0-9), not {quoted(text)}", rule="entry")
    return int(digits)


def _one_card(rest: list[str], word: str) -> Card:
    if len(rest) != 1:
        raise EntryError(f"'{word}' takes one card, like '{word} 7h'", rule="entry")
    return parse_card(rest[0])


def _nothing_more(rest: list[str], shape: str) -> None:
    """Refuse words an entry does not take: ``pass now`` is a typo, not a pass."""
    if rest:
        raise EntryError(f"'{shape}' takes nothing more, not {quoted(' '.join(rest))}", rule="entry")


#: Entries whose text after the word is kept as typed: a note, a reason.
_FREE_TEXT: Final = language.FREE_TEXT
_FIRST_WORD: Final = re.compile(r"(\S+)\s*(.*)\Z", re.S)


def parse_entry(text: str, timeline: Timeline) -> list[Event]:
    """The events one entry stands for (usually one), given the match so far.

    The whole entry is read: a word it does not take is refused, never
    dropped (``pass now``, ``stock 7h 8h``). A name may be quoted
    (``dealer 'Mary Ann'``), any case, or a unique prefix. The text of a
    note or a reason is kept as typed, quotes and spacing included.

    >>> from ginlog.play.reducer import start
    >>> from ginlog.log.events import MatchStarted
    >>> from ginlog.game.rules import preset
    >>> tl = start(MatchStarted(players=("Mary Ann", "Bob"), rules=preset("standard")))
    >>> parse_entry("dealer 'mary ann'", tl), parse_entry("note  'tis   Bob's deal", tl)
    ([FirstDealer(dealer='Mary Ann', how='agreed', cuts=None)], [Note(text="'tis   Bob's deal", player=None)])
    >>> parse_entry("dealer Mary Ann", tl)
    Traceback (most recent call last):
    ...
    ginlog.app.record.entry.EntryError: 'dealer NAME' names one player; quote a name with a space: dealer 'Mary Ann' [entry]
    """
    if len(text) > language.MAX_ENTRY:
        raise EntryError(
            f"an entry of {len(text):,} characters: no entry is longer than {language.MAX_ENTRY:,}"
            f" (a note or a reason holds at most {MAX_TEXT:,})",
            rule="entry",
        )
    m = _FIRST_WORD.match(text.strip())
    if m is None:
        raise EntryError("an empty entry", rule="entry")
    first, tail = m.group(1), m.group(2)
    word = WORDS.get(first.lower())
    state = timeline.state
    if word not in _FREE_TEXT:
        pad = _PAD.fullmatch(text.strip())
        if pad is not None and (word is None or len(_words(pad.group(1))) == 1):  # 'points +23' stays a result's
            return [_points_only(state, pad.group(1), pad.group(2))]
    if word is None:
        return _wordless(text.strip(), first, tail, timeline)
    if word in _FREE_TEXT:
        return [_free_text(word, tail, timeline)]
    rest = _words(tail)
    if word == "dealer":
        if len(rest) != 1:
            hint = state.players[0] if " " in state.players[0] else "Mary Ann"
            raise EntryError(f"'dealer NAME' names one player; quote a name with a space: dealer '{hint}'", rule="entry")
        return [FirstDealer(dealer=_player(state, rest[0]), how="agreed")]
    if word == "cut":
        if len(rest) != 4:
            raise EntryError("'cut NAME CARD NAME CARD' records both cut cards (quote a name with a space)", rule="entry")
        cuts = {_player(state, rest[0]): parse_card(rest[1]), _player(state, rest[2]): parse_card(rest[3])}
        if len(cuts) != 2:
            raise EntryError("a cut needs a card from each player", rule="entry")
        a, b = (cuts[p] for p in state.players)
        dealer = state.players[0] if a.rank < b.rank else state.players[1]
        return [FirstDealer(dealer=dealer, how="cut", cuts=cuts)]
    if word == "upcard":
        if state.dealer is None:
            raise EntryError("choose the first dealer first ('dealer NAME' or 'cut ...')", rule="entry")
        if not rest and state.rules.deal_eleven:  # ``deal``: an 11/10 deal turns no upcard (RLCard)
            return [HandDealt(dealer=state.players[state.dealer])]
        return [HandDealt(dealer=state.players[state.dealer], upcard=_one_card(rest, "upcard"))]
    if word == "result":
        return [_result(state, rest)]
    player = _turn(state)
    hand = state.hand
    assert hand is not None
    if word == "take" or word == "stock":
        end = _turn_end(rest)
        if end is None and len(rest) >= 2 and (near := language.near_word(rest[0], _END_SPELLINGS)) is not None:
            raise EntryError(f"{quoted(rest[0])} is not a turn's end; did you mean"
                             f" {quoted(' '.join([first, near, *rest[1:]]))}?", rule="entry")
        drawn = _draw(word, rest if end is None else rest[:end], player, hand)
        if end is None:
            return [drawn]
        # The ending is read against the table after the draw (a gin's card comes from the hand then known).
        return [drawn, *parse_entry(" ".join(rest[end:]), apply(timeline, drawn))]
    if word == "pass":
        _nothing_more(rest, "pass")
        return [UpcardPassed(player=player)]
    if word == "discard":
        return [CardDiscarded(player=player, card=_one_card(rest, "discard"))]
    if word == "knock":
        return [Knocked(player=player, card=_one_card(rest, "knock"))]
    if word == "gin":
        if rest:
            return [Gin(player=player, card=_one_card(rest, "gin"))]
        i = hand.turn
        if hand.known[i].bit_count() != hand.sizes[i]:  # table view: only the player knows their hand
            raise EntryError(f"'gin CARD': ginlog does not know {player}'s whole hand (a table-view record), so"
                             " say which card goes face down: 'gin 7h' ('s g 7h' with the draw)", rule="entry")
        from ginlog.game.cards import mask_cards

        card, _arr = best_discard(mask_cards(hand.known[i]))
        return [Gin(player=player, card=card)]
    if word == "biggin":
        _nothing_more(rest, "biggin")
        return [BigGin(player=player)]
    if word == "show":
        return [_show(player, rest)]
    raise EntryError(f"unknown entry {quoted(first)}", rule="entry")  # pragma: no cover


#: The words that end a turn: after a draw word they make the entry a whole turn.
_ENDS: Final = language.ENDS_TURN
#: ``NAME +POINTS``: the last word a ``+`` and (it is checked) a number.
_PAD: Final = re.compile(r"(.*\S)\s+\+(\S*)", re.S)
_DIGITS: Final = re.compile(r"[0-9]{1,4000}")


def _turn_end(rest: list[str]) -> int | None:
    """Where the ending of a whole turn starts in a draw's words (``d 7h`` in ``s 5c d 7h``), if it is one."""
    for i in (0, 1):
        if i < len(rest) and WORDS.get(rest[i].lower()) in _ENDS:
            return i
    return None


#: The spellings of the words that end a turn, for "did you mean" after a draw word (``s dicard 7h``).
_END_SPELLINGS: Final = tuple(w for w, canonical in WORDS.items() if canonical in _ENDS and len(w) > 1)
#: The entry words a ``NAME ENTRY`` may say for its player (the turn's words; a note says whose it is).
_SAID_BY: Final = frozenset({"take", "pass", "stock", "discard", "knock", "gin", "biggin", "show"})


def _cards_word(word: str) -> list[Card] | None:
    """The cards a word spells (``7h``, ``2h3h4h``, ``[2h3h``), or None if it is not cards only."""
    try:
        return [parse_card(c) for c in split_cards(word.strip("[]")) if c]
    except GinlogError:
        return None


def _wordless(text: str, first: str, tail: str, timeline: Timeline) -> list[Event]:
    """An entry without a leading word: cards alone (the terse forms), ``NAME ENTRY``, or a near miss.

    Cards win over names (``ah`` alone is the A♥ even beside a player Ahmed); a
    name needs an entry after it (``ahmed take``). What is neither is refused,
    with the entry word it was probably meant to be.
    """
    state = timeline.state
    if first[:1] == "[" or first[:1].isdigit() or _cards_word(first) is not None:  # 2h3x: the card's own error
        return _bare(text, timeline)
    if tail:
        quoted_name = first[:1] in "'\"\u201c\u2018"
        try:
            name = split_words(text)[0] if quoted_name else first
            named: str | None = state.players[match_player(name, state.players)]
        except GinlogError:
            named = None
        if named is not None:
            return _said_by(named, _rest_after_name(text) if quoted_name else tail, timeline)
    near = language.near_word(first)
    if near is not None:
        return_hint = " ".join([near, *([tail] if tail else [])])
        raise EntryError(f"unknown entry {quoted(first)}; did you mean {quoted(return_hint)}? ('help' lists them)", rule="entry")
    raise EntryError(f"unknown entry {quoted(first)}; type 'help' for the list", rule="entry")


def _rest_after_name(text: str) -> str:
    """What follows the name (the first word, quoted or not) in ``text``."""
    m = re.match(r"""\s*(?:(['"\u201c\u2018])(?:(?!\1).)*?['"\u201d\u2019](?=\s)|\S+)\s*(.*)\Z""", text, re.S)
    return m.group(2) if m else ""


def _said_by(player: str, rest: str, timeline: Timeline) -> list[Event]:
    """``NAME ENTRY`` (``bob take``, ``ann 7h``, ``ann note gg``): the entry, said by the player who must act now."""
    state = timeline.state
    m = _FIRST_WORD.match(rest)
    word = WORDS.get(m.group(1).lower()) if m else None
    if word == "note":
        text = m.group(2) if m else ""
        if not text:
            raise EntryError("'NAME note TEXT'", rule="entry")
        return [Note(text=text, player=player)]
    if word is None and m is not None and not (m.group(1)[:1] == "[" or _cards_word(m.group(1)) is not None):
        near = language.near_word(m.group(1))
        hint = (f"; did you mean {quoted(' '.join([near, m.group(2)]).strip())}?" if near
                else " (bob take, 'Mary Ann' s d 7h: quote a name with a space)")
        raise EntryError(f"'NAME ENTRY' takes an entry after the name, not {quoted(m.group(1))}{hint}", rule="entry")
    if word is not None and word not in _SAID_BY:
        raise EntryError(f"'NAME ENTRY' says who takes a turn (take, pass, stock, discard, knock, gin, show, a card)"
                         f" or a player's note; {quoted(m.group(1) if m else rest)} is typed without the name", rule="entry")
    turn = _turn(state)
    if turn != player:
        raise EntryError(f"it is {turn}'s turn, not {player}'s", rule="turn")
    return parse_entry(rest, timeline)


def _bare(text: str, timeline: Timeline) -> list[Event]:
    """Cards alone, read by the table's phase (each the one card entry there is, so never ambiguous):
    between hands the upcard (``7h`` is ``upcard 7h``); before a draw, a draw from the stock and that discard
    (``s d 7h``); after a draw, the discard (``d 7h``); at the end, the hand shown (``show ...``)."""
    state = timeline.state
    now = language.phase_of(state)
    if now in ("show", "defend"):
        return parse_entry("show " + text, timeline)
    words = _words(text)
    if len(words) != 1 or len(split_cards(words[0])) != 1:
        raise EntryError(f"cards alone are a shown hand, at the end of a hand; {quoted(text)} is more than one card"
                         " (a turn is 's d 7h', or the card alone: 7h)", rule="entry")
    card = words[0]
    if now == "ready":
        return parse_entry("upcard " + card, timeline)
    if now == "discard":
        return parse_entry("discard " + card, timeline)
    hand = state.hand
    if now == "draw" and hand is not None:
        if hand.pile_top is not None and parse_card(card) == hand.pile_top:
            raise EntryError(f"{hand.pile_top.pretty} is the top of the pile: 't' takes it; a card alone is a draw"
                             " from the stock and that card's discard", rule="entry")
        return parse_entry("stock discard " + card, timeline)
    if now == "offer":
        raise EntryError("at the upcard offer it is 'take' or 'pass'; a card alone comes after it"
                         " (a draw from the stock and that discard)", rule="entry")
    if now == "wall":
        raise EntryError("at the two-card stock it is 'take' (only to knock or go gin) or 'pass'", rule="entry")
    if now == "setup":
        raise EntryError("choose the first dealer first ('dealer NAME' or 'cut ...'); a card alone deals after that",
                         rule="entry")
    raise EntryError(f"a card alone means nothing now ({quoted(text)})", rule="entry")


def _draw(word: str, rest: list[str], player: str, hand: HandState) -> CardDrawn:
    """``take [CARD]`` (the card, if given, must be the top of the pile) or ``stock [CARD]``."""
    if word == "take":
        if len(rest) > 1:
            raise EntryError("'take [CARD]' takes at most the card on top of the pile", rule="entry")
        if rest and parse_card(rest[0]) != hand.pile_top:
            top = hand.pile_top.pretty if hand.pile_top is not None else "nothing"
            raise EntryError(f"the top of the pile is {top}, not {quoted(rest[0])}", rule="pile-top")
        return CardDrawn(player=player, source="pile", card=hand.pile_top)
    if len(rest) > 1:
        raise EntryError("'stock [CARD]' takes at most one card", rule="entry")
    return CardDrawn(player=player, source="stock", card=parse_card(rest[0]) if rest else None)


def _points_only(state: MatchState, name: str, points: str) -> HandResultOnly:
    """``NAME +POINTS``: a score-pad hand recorded as who scored how much, within what one hand can score."""
    words = _words(name)
    if len(words) != 1:
        raise EntryError("'NAME +POINTS' names one player; quote a name with a space: 'Mary Ann' +31", rule="entry")
    if _DIGITS.fullmatch(points) is None:
        raise EntryError(f"'NAME +POINTS' takes a whole number of points, like 'Ann +25', not {quoted('+' + points)}", rule="entry")
    value = int(points)
    check_hand_points(state.rules, value)
    return HandResultOnly(how="points", winner=_player(state, words[0]), points=value)


def _free_text(word: str, text: str, timeline: Timeline) -> Event:
    """``note TEXT``, ``undo [REASON]``, ``void [REASON]``, ``abandon [REASON]``: the text kept as typed."""
    if word == "note":
        if not text:
            raise EntryError("'note TEXT'", rule="entry")
        return Note(text=text)
    if word == "undo":
        return Correction(undoes=timeline.seq, reason=text or None)
    if word == "void":
        return HandVoid(reason=text or "thrown in")
    return MatchAbandoned(reason=text or "abandoned")


def _show(player: str, rest: list[str]) -> HandShown:
    """``show`` with bare cards, or ``[melds]`` and deadwood, then ``lay`` cards."""
    text = " ".join(rest).replace("[", " [ ").replace("]", " ] ")
    tokens = text.split()
    melds: list[tuple[Card, ...]] = []
    cards: list[Card] = []
    layoffs: list[Card] | None = None
    current: list[Card] | None = None
    declared = False
    for tok in tokens:
        low = tok.lower()
        if low == "[":
            if current is not None:
                raise EntryError("a '[' inside a meld", rule="entry")
            current = []
            declared = True
        elif low == "]":
            if current is None:
                raise EntryError("a ']' with no '['", rule="entry")
            melds.append(tuple(current))
            current = None
        elif low in ("lay", "layoff", "layoffs"):
            if current is not None:
                raise EntryError("'lay' inside a meld", rule="entry")
            layoffs = []
        else:
            for one in split_cards(tok):  # a compact list: 2h3h4h, 234h
                card = parse_card(one)
                if current is not None:
                    current.append(card)
                elif layoffs is not None:
                    layoffs.append(card)
                cards.append(card)
    if current is not None:
        raise EntryError("a meld is missing its ']'", rule="entry")
    if not cards:
        raise EntryError("'show' lists the whole hand, like 'show 2h 3h 4h ...'", rule="entry")
    parse_cards(cards)  # duplicates
    return HandShown(
        player=player,
        cards=tuple(cards),
        melds=tuple(melds) if declared else None,
        layoffs=tuple(layoffs) if layoffs is not None else None,
    )


def _result(state: MatchState, rest: list[str]) -> HandResultOnly:
    """``result HOW [NAME] numbers... [upcard CARD] [points N]``: every word placed, none ignored."""
    shapes = "'result knock NAME KNOCKER_DW DEFENDER_DW', 'result gin NAME DEFENDER_DW' or 'result void'"
    if not rest:
        raise EntryError(shapes, rule="entry")
    how = _HOW.get(rest[0].lower())
    if how is None:
        raise EntryError(f"a result is knock, gin, biggin or void, not {quoted(rest[0])}", rule="entry")
    # The name comes first (so a player called "Points" is a name there), then the
    # deadwood counts and the options, in any order.
    named = how != "void" and len(rest) > 1
    words: list[str] = rest[2:] if named else rest[1:]
    options: dict[str, str] = {}
    numbers: list[str] = []
    i = 0
    while i < len(words):
        key = words[i].lower()
        if key in ("upcard", "points"):
            if i + 1 >= len(words):
                raise EntryError(f"'{key}' needs a value", rule="entry")
            if key in options:
                raise EntryError(f"'{key}' is given twice", rule="entry")
            options[key] = words[i + 1]
            i += 2
        else:
            numbers.append(words[i])
            i += 1
    upcard = parse_card(options["upcard"]) if "upcard" in options else None
    points = _int(options["points"], "points") if "points" in options else None
    if how == "void":
        if numbers:
            raise EntryError(f"'result void' takes nothing more, not {quoted(' '.join(numbers))}", rule="entry")
        return HandResultOnly(how="void", upcard=upcard, points=points)
    need = 2 if how == "knock" else 1
    if not named or len(numbers) != need:
        shape = "NAME KNOCKER_DW DEFENDER_DW" if how == "knock" else "NAME DEFENDER_DW"
        raise EntryError(f"'result {rest[0]} {shape}' (quote a name with a space)", rule="entry")
    out = _player(state, rest[1])
    k = _int(numbers[0], "the knocker's deadwood") if how == "knock" else 0
    d = _int(numbers[-1], "the defender's deadwood")
    return HandResultOnly(how=how, out=out, knocker_deadwood=k, defender_deadwood=d, upcard=upcard, points=points)
