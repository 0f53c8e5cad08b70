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

Each entry also says when it can be legal (``when``: the phase of the match
or of the hand), so completion offers only what may be typed now and a
page of buttons shows only those (:func:`legal_now`).

>>> WORDS["s"], WORDS["big-gin"], sorted(ENDS_TURN)
('stock', 'biggin', ['biggin', 'discard', 'gin', 'knock'])
>>> print(help_text().splitlines()[4])
  take [CARD] (t)                          take the upcard, or the top of the pile
"""

from __future__ import annotations

import difflib
import typing
from typing import TYPE_CHECKING, Final

from ginlog.log.event_types import MAX_NAME, MAX_TEXT

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.play.state import MatchState

__all__ = [
    "Entry", "TABLE", "WORDS", "FREE_TEXT", "MAX_ENTRY", "ENDS_TURN", "DRAWS", "RESULT_HOWS", "PHASES",
    "help_text", "phase_of", "legal_now", "near_word", "name_clash",
]

#: The phases an entry may be legal in: the match's (``setup``: no first dealer yet; ``ready``: between hands)
#: and, during a hand, the hand's (``offer``: the first upcard; ``wall``: OpenSpiel's two-card stock; ``draw``,
#: ``discard``; ``show`` and ``defend``: the hands shown at the end).
PHASES: Final = ("setup", "ready", "offer", "wall", "draw", "discard", "show", "defend")
_HAND: Final = frozenset(("offer", "wall", "draw", "discard", "show", "defend"))
_ANY: Final = frozenset(PHASES)
_SHOW: Final = frozenset(("show", "defend"))


class Entry(typing.NamedTuple):
    """One entry of the language.

    ``word`` is what the parser answers with (``""`` for a form with no
    leading word, like ``NAME +POINTS``); ``aliases`` the other spellings it
    takes (never offered by completion); ``shapes`` how it is typed, for
    ``help`` and the README; ``meaning`` one line. ``free_text``: what
    follows the word is kept as typed (a note, a reason). ``ends_turn``: after
    a draw word on the same line it makes a whole turn (``s d 7h``).
    ``draws``: a draw, which such an ending may follow. ``when``: the
    phases (:data:`PHASES`) in which it may be legal (the reducer still decides).
    """

    word: str
    aliases: tuple[str, ...]
    shapes: tuple[str, ...]
    meaning: str
    free_text: bool = False
    ends_turn: bool = False
    draws: bool = False
    when: frozenset[str] = _ANY


#: The entry language, in the order ``help`` lists it.
TABLE: Final[tuple[Entry, ...]] = (
    Entry("dealer", (), ("dealer NAME",), "NAME deals the first hand (agreed)", when=frozenset({"setup"})),
    Entry("cut", (), ("cut NAME CARD NAME CARD",), "the first dealer by cutting: the lower card deals",
          when=frozenset({"setup"})),
    Entry("upcard", ("up", "deal"), ("upcard CARD",), "deal the next hand; CARD is turned up ('deal' alone under deal_eleven)",
          when=frozenset({"ready"})),
    Entry("take", ("t",), ("take [CARD]",), "take the upcard, or the top of the pile", draws=True,
          when=frozenset({"offer", "wall", "draw"})),
    Entry("pass", ("p",), ("pass",), "pass the first upcard", when=frozenset({"offer", "wall"})),
    Entry("stock", ("s", "draw"), ("stock [CARD]",), "draw from the stock (the card only when known)", draws=True,
          when=frozenset({"draw"})),
    Entry("discard", ("d",), ("discard CARD",), "discard", ends_turn=True, when=frozenset({"discard"})),
    Entry("knock", ("k",), ("knock CARD",), "knock, CARD face down", ends_turn=True, when=frozenset({"discard"})),
    Entry("gin", ("g",), ("gin [CARD]",), "go gin, CARD face down (left out: ginlog's pick, if it knows the hand)",
          ends_turn=True, when=frozenset({"discard"})),
    Entry("biggin", ("big-gin",), ("biggin",), "big gin (all 11 cards melded)", ends_turn=True, when=frozenset({"discard"})),
    Entry("", (), ("s d 7h", "s 5c d 7h", "t k qc", "s g"), "a whole turn in one entry: the draw, then its end",
          when=frozenset({"draw"})),
    Entry("", (), ("CARD",), "a card alone: the upcard; after a draw its discard; before one, s d CARD",
          when=frozenset({"ready", "draw", "discard"})),
    Entry("show", (), ("show CARD...", "CARD..."), "the hand at the end; ginlog arranges it (show may be left out)",
          when=_SHOW),
    Entry("", (), ("show [C C C] [C C C] C lay C C",), "melds given (any order), bare cards deadwood, lay-offs in order",
          when=_SHOW),
    Entry(
        "result",
        (),
        ("result knock NAME K D [points N]", "result gin NAME D", "result biggin NAME D", "result void"),
        "a score-pad hand (add upcard CARD under Oklahoma)",
        when=frozenset({"ready"}),
    ),
    Entry("", (), ("NAME +POINTS",), "a score-pad hand that says only who scored how much (Ann +25)",
          when=frozenset({"ready"})),
    Entry("", (), ("NAME ENTRY",), "said with its player, who must be the one to act (bob take)",
          when=_HAND),
    Entry("void", (), ("void REASON",), "throw the hand in (misdeal); same dealer again", free_text=True, when=_HAND),
    Entry("note", (), ("note TEXT",), "a note in the record (NAME note TEXT: a player's)", free_text=True),
    Entry("undo", ("u",), ("undo",), "undo the last effective event (asks first, saying which)", free_text=True),
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


def phase_of(state: MatchState) -> str:
    """The phase the table is in, as :attr:`Entry.when` names them (``over`` and ``abandoned`` after the end).

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import Tally
    >>> from ginlog.play.state import MatchState
    >>> phase_of(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally()))
    'setup'
    """
    return state.hand.phase if state.hand is not None else state.phase


def legal_now(state: MatchState) -> tuple[Entry, ...]:
    """The entries that may be legal now, in :data:`TABLE`'s order (big gin only where the rules play it).

    Why: Tab used to offer all sixteen words at the upcard offer; a page's
    buttons should not offer a discard before the draw either.

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import Tally
    >>> from ginlog.play.state import MatchState
    >>> [e.word for e in legal_now(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally())) if e.word]
    ['dealer', 'cut', 'note', 'undo', 'abandon']
    """
    now = phase_of(state)
    return tuple(
        e for e in TABLE
        if now in e.when and not (e.word == "biggin" and state.rules.big_gin_bonus is None)
    )


#: The spellings a typo is matched against: whole words, not the one-letter forms (every typo is near those).
_SPELLINGS: Final = tuple(w for w in WORDS if len(w) > 2)


def near_word(typed: str, words: typing.Iterable[str] | None = None) -> str | None:
    """The entry word ``typed`` was probably meant to be (``discrad`` -> ``discard``), or None.

    >>> near_word("discrad"), near_word("stok"), near_word("Pas"), near_word("zebra")
    ('discard', 'stock', 'pass', None)
    """
    pool = _SPELLINGS if words is None else tuple(words)
    hit = difflib.get_close_matches(typed.lower(), pool, n=1, cutoff=0.7)
    return WORDS.get(hit[0], hit[0]) if hit else None


def name_clash(name: str) -> str | None:
    """The entry word's spelling a player's name is, or begins with (``Stock``; ``Upton`` begins with ``up``; not
    the one-letter forms, which only mean a name is typed with two letters or more), or None.

    Entry words win over a name's prefix at the table (``up`` is ``upcard``, never Upton), so such a player is
    typed by more of the name (``upt take``) or quoted (``'Up' +25``); ``ginlog new`` warns.

    >>> name_clash("Sue"), name_clash("Upton"), name_clash("P"), name_clash("Ann")
    (None, 'up', 'p', None)
    """
    key = name.casefold()
    for spelling in sorted(WORDS, key=len, reverse=True):
        if key == spelling or len(spelling) > 1 and key.startswith(spelling):
            return spelling
    return None
