"""The entry language the other way: the entry that stands for an event, what to type to record it again.

:func:`entry_for` is :func:`ginlog.app.record.entry.parse_entry`'s inverse (the phone page's buttons, the
recorder's completion of names): ``parse_entry(entry_for(e), timeline)`` gives ``e`` back, less what the
language does not say (``tests/test_contract.py`` holds the two to each other over every event type).
"""

from __future__ import annotations

from typing import assert_never

from ginlog.app.record.language import FREE_TEXT, WORDS
from ginlog.game.cards import Card
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
    Seal,
    UpcardPassed,
)

__all__ = ["entry_for"]

def _typed(name: str, always: bool = False) -> str:
    """A name as an entry word: in quotes when it holds a space or starts with a quote
    (:func:`ginlog.text.split_words`), or ``always``, with a quote that no word inside it ends with.

    >>> print(_typed("Ann"), _typed("Mary Ann"), _typed("Ann' Lee"), _typed("'Bo"), _typed("Note", always=True))
    Ann 'Mary Ann' "Ann' Lee" ''Bo' 'Note'
    """
    if not always and " " not in name and name[:1] not in "'\"\u201c\u2018":
        return name
    for open_, close in (("'", "'"), ('"', '"'), ("\u201c", "\u201d"), ("\u2018", "\u2019")):
        if close + " " not in name:
            return f"{open_}{name}{close}"
    return f"'{name}'"  # pragma: no cover - a name that ends a word with every kind of quote


def entry_for(event: Event) -> str | None:
    """The entry that stands for ``event``: what to type at the table to record it again.

    None for the event types in :data:`ginlog.app.record.entry.NOT_TYPED`. Exhaustive over the event
    types (the type checker proves it), so every event type has an entry or
    says where it comes from. What the language does not say is left out: the
    hands and stock of a deal, a note's player, a score pad's claimed winner,
    how a first dealer was chosen other than by a cut (``dealer NAME``
    records "agreed"), an empty list of declared melds; and a shown hand's
    cards come back in the order typed.

    >>> from ginlog.game.cards import parse_card, parse_cards
    >>> entry_for(CardDiscarded(player="Ann", card=parse_card("7h")))
    'discard 7H'
    >>> entry_for(HandShown(player="Bob", cards=tuple(parse_cards("2h 3h 4h 9c")), melds=(tuple(parse_cards("2h 3h 4h")),)))
    'show [2H 3H 4H] 9C'
    """

    def cards(cs: tuple[Card, ...]) -> str:
        return " ".join(map(str, cs))

    match event:
        case MatchStarted():
            return None
        case FirstDealer():
            if event.how == "cut" and event.cuts is not None:
                return "cut " + " ".join(f"{_typed(p)} {c}" for p, c in event.cuts.items())
            return f"dealer {_typed(event.dealer)}"
        case HandDealt():  # ``deal`` alone: an 11/10 deal (deal_eleven, RLCard's) turns no upcard
            return f"upcard {event.upcard}" if event.upcard is not None else "deal"
        case UpcardPassed():
            return "pass"
        case CardDrawn():
            if event.source == "pile":
                return "take" if event.card is None else f"take {event.card}"
            return "stock" if event.card is None else f"stock {event.card}"
        case CardDiscarded():
            return f"discard {event.card}"
        case Knocked():
            return f"knock {event.card}"
        case Gin():
            return f"gin {event.card}"
        case BigGin():
            return "biggin"
        case HandShown():
            placed = {c for m in event.melds or () for c in m} | set(event.layoffs or ())
            rest = [str(c) for c in event.cards if c not in placed]
            text = " ".join([*(f"[{cards(m)}]" for m in event.melds or ()), *rest])
            if event.layoffs is not None:
                text += " lay " + cards(event.layoffs) if event.layoffs else " lay"
            return f"show {text}"
        case HandResultOnly():
            extra = (f" upcard {event.upcard}" if event.upcard else "") + (
                f" points {event.points}" if event.points is not None else ""
            )
            if event.how == "points":
                name = event.winner or ""
                return f"{_typed(name, always=WORDS.get(name.lower()) in FREE_TEXT)} +{event.points}"
            if event.how == "void":
                return "result void" + extra
            dw = f"{event.knocker_deadwood} " if event.how == "knock" else ""
            return f"result {event.how.replace('_', '')} {_typed(event.out or '')} {dw}{event.defender_deadwood}{extra}"
        case HandVoid():
            return f"void {event.reason}"
        case Note():
            return f"note {event.text}"
        case Correction():
            return "undo" + (f" {event.reason}" if event.reason else "")
        case MatchAbandoned():
            return f"abandon {event.reason}"
        case Seal():
            return None  # signed with a key, never typed (ginlog seal)
        case _:
            assert_never(event)
