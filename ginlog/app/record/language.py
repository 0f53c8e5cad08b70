"""The entry language as one table: each entry's word, its other spellings, how it is typed, what it means.

Why one table: the language used to be spelled five times (the parser's
``WORDS``, completion's ``ALIASES``, the recorder's ``help``, the README and
``legal_actions``) and they drifted: completion did not know ``biggin`` ended
a turn, ``help`` had no ``NAME +POINTS`` nor ``s d 7h``. Now the parser
(:mod:`ginlog.app.record.entry`: :data:`WORDS`, the free-text and turn-ending
words), completion (:mod:`ginlog.app.record.completion`: the words offered
and their aliases), the recorder's ``help`` (:func:`help_text`) are made from
:data:`TABLE`, and the tests check the README's entry-language section and
the prompts of :func:`ginlog.play.reducer.legal_actions` (a lower layer,
which cannot import this) against it.

>>> WORDS["s"], WORDS["big-gin"], sorted(ENDS_TURN)
('stock', 'biggin', ['biggin', 'discard', 'gin', 'knock'])
>>> print(help_text().splitlines()[4])
  take [CARD] (t)                          take the upcard, or the top of the pile
"""

from __future__ import annotations

import typing
from typing import Final

from ginlog.log.event_types import MAX_NAME, MAX_TEXT

__all__ = ["Entry", "TABLE", "WORDS", "FREE_TEXT", "MAX_ENTRY", "ENDS_TURN", "DRAWS", "RESULT_HOWS", "help_text"]


class Entry(typing.NamedTuple):
    """One entry of the language.

    ``word`` is what the parser answers with (``""`` for a form with no
    leading word, like ``NAME +POINTS``); ``aliases`` the other spellings it
    takes (never offered by completion); ``shapes`` how it is typed, for
    ``help`` and the README; ``meaning`` one line. ``free_text``: what
    follows the word is kept as typed (a note, a reason). ``ends_turn``: after
    a draw word on the same line it makes a whole turn (``s d 7h``).
    ``draws``: a draw, which such an ending may follow.
    """

    word: str
    aliases: tuple[str, ...]
    shapes: tuple[str, ...]
    meaning: str
    free_text: bool = False
    ends_turn: bool = False
    draws: bool = False


#: The entry language, in the order ``help`` lists it.
TABLE: Final[tuple[Entry, ...]] = (
    Entry("dealer", (), ("dealer NAME",), "NAME deals the first hand (agreed)"),
    Entry("cut", (), ("cut NAME CARD NAME CARD",), "the first dealer by cutting: the lower card deals"),
    Entry("upcard", ("up", "deal"), ("upcard CARD",), "deal the next hand; CARD is turned up ('deal' alone under deal_eleven)"),
    Entry("take", ("t",), ("take [CARD]",), "take the upcard, or the top of the pile", draws=True),
    Entry("pass", ("p",), ("pass",), "pass the first upcard"),
    Entry("stock", ("s", "draw"), ("stock [CARD]",), "draw from the stock (the card only when known)", draws=True),
    Entry("discard", ("d",), ("discard CARD",), "discard", ends_turn=True),
    Entry("knock", ("k",), ("knock CARD",), "knock, CARD face down", ends_turn=True),
    Entry("gin", ("g",), ("gin [CARD]",), "go gin (CARD may be left out when the hand is known)", ends_turn=True),
    Entry("biggin", ("big-gin",), ("biggin",), "big gin (all 11 cards melded)", ends_turn=True),
    Entry("", (), ("s d 7h", "s 5c d 7h", "t k qc", "s g"), "a whole turn in one entry: the draw, then its end"),
    Entry("show", (), ("show CARD...",), "the hand at the end; ginlog arranges it"),
    Entry("", (), ("show [C C C] [C C C] C lay C C",), "melds given (any order), bare cards deadwood, lay-offs in order"),
    Entry(
        "result",
        (),
        ("result knock NAME K D [points N]", "result gin NAME D", "result biggin NAME D", "result void"),
        "a score-pad hand (add upcard CARD under Oklahoma)",
    ),
    Entry("", (), ("NAME +POINTS",), "a score-pad hand that says only who scored how much (Ann +25)"),
    Entry("void", (), ("void REASON",), "throw the hand in (misdeal); same dealer again", free_text=True),
    Entry("note", (), ("note TEXT",), "a note in the record", free_text=True),
    Entry("undo", ("u",), ("undo",), "undo the last effective event", free_text=True),
    Entry("abandon", (), ("abandon REASON",), "stop the match here", free_text=True),
)

#: Every spelling the parser takes -> its entry's word.
WORDS: Final[dict[str, str]] = {
    spelling: e.word for e in TABLE if e.word for spelling in (e.word, *e.aliases)
}
#: Entries whose text after the word is kept as typed: a note, a reason.
FREE_TEXT: Final = frozenset(e.word for e in TABLE if e.free_text)
#: The longest entry that can be legal: the longest spelling, a player's name (a note may say whose), and a
#: note or a reason as long as the reader takes one (with room for quotes and spacing). A longer one (a paste
#: gone wrong) is refused before it is parsed.
MAX_ENTRY: Final = max(len(s) for e in TABLE for s in (e.word, *e.aliases)) + MAX_NAME + MAX_TEXT + 16
#: The words that end a turn: after a draw word they make the entry a whole turn.
ENDS_TURN: Final = frozenset(e.word for e in TABLE if e.ends_turn)
#: The draw words, which a turn's end may follow on one line.
DRAWS: Final = frozenset(e.word for e in TABLE if e.draws)
#: ``result HOW``: each spelling -> the ``how`` recorded (``result biggin`` is ``big_gin``).
RESULT_HOWS: Final[dict[str, typing.Literal["knock", "gin", "big_gin", "void"]]] = {
    "knock": "knock", "k": "knock", "gin": "gin", "g": "gin", "biggin": "big_gin", "big_gin": "big_gin", "void": "void",
}


def help_text(extra: tuple[tuple[str, str], ...] = ()) -> str:
    """The recorder's ``help``: every entry of :data:`TABLE`, its aliases in brackets, then ``extra`` lines.

    >>> print(help_text((("quit", "stop recording"),)).splitlines()[-1])
      quit                                     stop recording
    """
    lines = ["Entries (whose turn it is comes from the table):"]
    for e in TABLE:
        shape = " | ".join(e.shapes) + (f" ({', '.join(e.aliases)})" if e.aliases else "")
        if len(shape) > 40:  # one shape a line, the meaning after the last
            lines.extend(f"  {s} |" for s in e.shapes[:-1])
            shape = e.shapes[-1]
        lines.append(f"  {shape:<40} {e.meaning}")
    lines.extend(f"  {shape:<40} {meaning}" for shape, meaning in extra)
    return "\n".join(lines)
