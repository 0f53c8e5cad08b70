"""Text from people, wired in (issue 13, item 1 and part of 5): names at the door and in files read,
entries that name players, words no entry takes, ``play``'s arguments as whole entries.

The pure door (:mod:`ginlog.text`) has its own tests (``test_text.py``); these check
that every way in goes through it.
"""

from __future__ import annotations

import json
import unicodedata
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.record.entry import parse_entry

from ginlog.app.record.retype import entry_for
from ginlog.errors import EventError, GinlogError
from ginlog.game.cards import parse_card
from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.log.format import encode
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.play.reducer import apply, start

from test_cli import app, assert_one_line_error, at_discard, exe, new_file, run  # noqa: F401 - app, at_discard: fixtures

TS = "2026-11-29T19:56:25.123Z"
NFC, NFD = "Zo\u00eb", "Zoe\u0308"

#: Pairs of names two people could take for each other: refused at every door.
CLASHES = [
    pytest.param("Ann", "ann", id="case"),
    pytest.param("Ann", "\u0410nn", id="cyrillic-A"),
    pytest.param(NFC, NFD, id="nfc-nfd"),
    pytest.param("Fiona", "\ufb01ona", id="compatibility-ligature"),
    pytest.param("Al", "AI", id="confusable-ascii"),
]
#: Names with something no one can see: refused (rule ``name``).
INVISIBLE = [
    pytest.param("Ann\u3164", id="hangul-filler"),
    pytest.param("\u3164", id="only-a-filler"),
    pytest.param("Ann\u200b", id="zero-width-space"),
    pytest.param("\u202eAnn", id="bidi-override"),
    pytest.param("Ann\ufe0f", id="variation-selector"),
]


def one_line(text: str) -> str:
    lines = [x for x in text.splitlines() if x.strip()]
    assert len(lines) == 1, text
    return lines[0]


# ----------------------------------------------------------------------------- names at the door


@pytest.mark.parametrize(("a", "b"), CLASHES)
def test_new_refuses_two_names_that_look_the_same(app: Any, tmp_path: Path, a: str, b: str) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "--player", a, "--player", b)
    assert r.exit_code == 2, r.output
    line = one_line(r.stderr)
    assert line.endswith("[name-clash]") and "could be taken for each other" in line
    assert not path.exists()


@pytest.mark.parametrize("name", INVISIBLE)
def test_new_refuses_a_name_with_an_invisible_character(app: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "--player", name, "--player", "Bob")
    assert r.exit_code == 2, r.output
    line = one_line(r.stderr)
    assert line.endswith("[name]") and "U+" in line
    assert line.isprintable()  # the character is named, not emitted
    assert not path.exists()


def test_new_keeps_names_cleaned(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    r = run(app, "new", path, "--player", "  Mary \u00a0 Ann ", "--player", NFD)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{path}: new match, Mary Ann v {NFC}, rules standard\n"
    assert json.loads(path.read_bytes().splitlines()[0])["players"] == ["Mary Ann", NFC]


@pytest.mark.parametrize(("a", "b"), CLASHES)
def test_session_create_refuses_a_clash_and_leaves_no_file(tmp_path: Path, a: str, b: str) -> None:
    path = tmp_path / "m.jsonl"
    with pytest.raises(EventError) as info:
        MatchSession.create(path, (a, b), preset("standard"))
    assert info.value.rule == "name-clash"
    assert not path.exists()


def test_session_create_cleans_names(tmp_path: Path) -> None:
    s = MatchSession.create(tmp_path / "m.jsonl", (" Ann", NFD), preset("standard"))
    assert s.state.players == ("Ann", NFC)


# ----------------------------------------------------------------------------- names in files read


def file_with_players(path: Path, players: list[str]) -> Path:
    """A match file whose first line holds ``players`` as another program might write them."""
    fields = E.event_fields(E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))) | {"players": players}
    path.write_bytes(encode(1, TS, "match_started", E.SCHEMA_VERSION, None, fields) + b"\n")
    return path


@pytest.mark.parametrize(("a", "b"), CLASHES)
def test_a_file_whose_players_clash_is_invalid_at_line_1(app: Any, tmp_path: Path, a: str, b: str) -> None:
    path = file_with_players(tmp_path / "m.jsonl", [a, b])
    r = run(app, "validate", path)
    assert r.exit_code == 1
    m = assert_one_line_error(r.stderr, path=str(path), rule="name-clash", need_line=True)
    assert m["line"] == "1"
    r = run(app, "audit", path, "--json")
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report["summary"]["invalid"] == 1
    assert [e["rule"] for e in report["files"][0]["errors"]] == ["name-clash"]


@pytest.mark.parametrize(
    "players", [["Ann", NFD], ["Mary  Ann", "Bob"], ["Ann\u3164", "Bob"]], ids=["nfd", "two-spaces", "filler"]
)
def test_a_file_with_a_name_ginlog_would_not_keep_is_invalid(app: Any, tmp_path: Path, players: list[str]) -> None:
    path = file_with_players(tmp_path / "m.jsonl", players)
    r = run(app, "validate", path)
    assert r.exit_code == 1
    assert assert_one_line_error(r.stderr, path=str(path), rule="name", need_line=True)["line"] == "1"


def test_openspiel_style_names_still_read(tmp_path: Path) -> None:
    state = read_match(str(file_with_players(tmp_path / "m.jsonl", ["P0", "P1"]))).state
    assert state is not None and state.players == ("P0", "P1")


def test_the_ascii_prototypes_are_those_of_confusables_txt() -> None:
    from ginlog.text import ASCII_PROTOTYPES, _prototypes

    assert ASCII_PROTOTYPES == {k: v for k, v in _prototypes().items() if k.isascii()}
    assert all(unicodedata.normalize("NFD", v) == v for v in ASCII_PROTOTYPES.values())


# ----------------------------------------------------------------------------- entries name players


PAIR = ("Mary Ann", "Mary Beth")


def timeline(players: tuple[str, str] = PAIR, rules: str = "standard") -> Any:
    return start(E.MatchStarted(players=players, rules=preset(rules)))


@pytest.mark.parametrize(
    ("entry", "dealer"),
    [("dealer 'Mary Ann'", "Mary Ann"), ('dealer "mary beth"', "Mary Beth"), ("dealer 'MARY B'", "Mary Beth"),
     ("dealer \u2018mary a\u2019", "Mary Ann")],
)
def test_an_entry_names_a_player_with_a_space(entry: str, dealer: str) -> None:
    assert parse_entry(entry, timeline()) == [E.FirstDealer(dealer=dealer, how="agreed")]


def test_dealer_ann_still_means_ann_case_insensitively() -> None:
    assert parse_entry("dealer ann", timeline(("Ann", "Bob"))) == [E.FirstDealer(dealer="Ann", how="agreed")]
    assert parse_entry("dealer b", timeline(("Ann", "Bob"))) == [E.FirstDealer(dealer="Bob", how="agreed")]


@pytest.mark.parametrize("entry", ["dealer mary", "dealer Mary Ann", "dealer 'Mary Ann", "dealer Zed"])
def test_an_ambiguous_or_unknown_name_is_refused(entry: str) -> None:
    with pytest.raises(GinlogError) as info:
        parse_entry(entry, timeline())
    assert info.value.rule == "entry"


def test_cut_and_result_name_players_with_spaces() -> None:
    tl = timeline(rules="classic")
    (cut,) = parse_entry("cut 'mary ann' 3c 'Mary Beth' 9d", tl)
    assert cut == E.FirstDealer(dealer="Mary Ann", how="cut", cuts={"Mary Ann": parse_card("3C"), "Mary Beth": parse_card("9D")})
    tl = apply(tl, cut)
    (pad,) = parse_entry("result knock 'Mary Beth' 4 27 points 23", tl)
    assert pad == E.HandResultOnly(how="knock", out="Mary Beth", knocker_deadwood=4, defender_deadwood=27, points=23)


@pytest.mark.parametrize("players", [PAIR, ("Ann' Lee", "'Bo"), ("Points", "Upcard Man")], ids=["spaces", "quotes", "keywords"])
def test_entry_for_names_read_back(players: tuple[str, str]) -> None:
    tl = timeline(players, rules="classic")
    a, b = players
    for ev in (
        E.FirstDealer(dealer=b, how="agreed"),
        E.FirstDealer(dealer=a, how="cut", cuts={a: parse_card("3C"), b: parse_card("9D")}),
    ):
        assert parse_entry(entry_for(ev) or "", tl) == [ev], entry_for(ev)
    tl = apply(tl, E.FirstDealer(dealer=a, how="agreed"))
    for pad in (
        E.HandResultOnly(how="knock", out=b, knocker_deadwood=4, defender_deadwood=27, points=23),
        E.HandResultOnly(how="gin", out=a, defender_deadwood=31),
    ):
        assert parse_entry(entry_for(pad) or "", tl) == [pad], entry_for(pad)


def test_play_names_mary_ann(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    assert run(app, "new", path, "--player", "Mary Ann", "--player", "Bob").exit_code == 0
    r = run(app, "play", path, "dealer 'mary ann'", "upcard 7h")
    assert r.exit_code == 0, r.output
    state = read_match(str(path)).state
    assert state is not None and state.players[state.dealer or 0] == "Mary Ann"


# ----------------------------------------------------------------------------- words no entry takes


def offered() -> Any:
    """Ann dealt, the upcard 7♥ offered to Bob."""
    tl = timeline(("Ann", "Bob"))
    tl = apply(tl, E.FirstDealer(dealer="Ann", how="agreed"))
    return apply(tl, E.HandDealt(dealer="Ann", upcard=parse_card("7h")))


def to_discard() -> Any:
    """Bob took the upcard: Bob to discard."""
    return apply(offered(), E.CardDrawn(player="Bob", source="pile", card=parse_card("7h")))


@pytest.mark.parametrize(
    ("make", "entry"),
    [
        (offered, "pass extra"), (offered, "p now"), (offered, "take 7h x"), (offered, "take 7h 8h"),
        (offered, "upcard 8h 9h"), (to_discard, "biggin now"), (to_discard, "discard 5c 6c"),
        (to_discard, "knock qc x"), (to_discard, "gin 5c 6c"), (timeline, "dealer 'Mary Ann' 'Mary Beth'"),
        (timeline, "result void x"), (timeline, "result gin 'Mary Ann' 3 4"), (timeline, "result knock 'Mary Ann' 3"),
        (timeline, "result void points 1 points 2"), (offered, "stock 7h 8h"),
    ],
)
def test_an_entry_with_words_it_does_not_take_is_refused(make: Any, entry: str) -> None:
    with pytest.raises(GinlogError) as info:
        parse_entry(entry, make())
    assert info.value.rule == "entry", info.value


@pytest.mark.parametrize(
    ("entry", "text"),
    [("note  two  spaces", "two  spaces"), ("note 'tis Bob's \"deal\"", "'tis Bob's \"deal\""),
     ("note gg\x1b[2J\u202e", "gg\x1b[2J\u202e"), ("note a\tb", "a\tb")],
)
def test_a_note_is_kept_as_typed(entry: str, text: str) -> None:
    assert parse_entry(entry, offered()) == [E.Note(text=text)]


def test_reasons_are_kept_as_typed() -> None:
    tl = offered()
    assert parse_entry("void  mis  dealt ", tl) == [E.HandVoid(reason="mis  dealt")]
    assert parse_entry("abandon 'rain'", tl) == [E.MatchAbandoned(reason="'rain'")]
    assert parse_entry("undo  wrong  card", tl) == [E.Correction(undoes=tl.seq, reason="wrong  card")]


# ----------------------------------------------------------------------------- play: each argument one entry


@pytest.fixture
def offer(app: Any, tmp_path: Path) -> Path:
    path = new_file(app, tmp_path / "m.jsonl")
    assert run(app, "play", path, "dealer Ann", "upcard 7h").exit_code == 0
    return path


def test_play_does_not_glue_words_into_a_note_and_a_pass(offer: Path) -> None:
    before = offer.read_bytes()
    p = exe("play", offer, "note", "Bob", "says", "pass")
    assert p.returncode == 1 and p.stdout == ""
    assert_one_line_error(p.stderr, path=str(offer), rule="entry")
    assert offer.read_bytes() == before  # no pass written, nor anything else


def test_play_discard_as_two_arguments_is_a_discard_without_its_card(app: Any, at_discard: Path) -> None:
    before = at_discard.read_bytes()
    r = run(app, "play", at_discard, "stock", "discard", "5c")
    assert r.exit_code == 1
    m = assert_one_line_error(r.stderr, path=str(at_discard), rule="entry")
    assert "'discard' takes one card" in m["msg"]
    assert at_discard.read_bytes() == before
    p = exe("play", at_discard, "stock", "discard", "5c")  # the fast path too
    assert p.returncode == 1 and at_discard.read_bytes() == before


def test_play_with_whole_entries_still_works(offer: Path) -> None:
    p = exe("play", offer, "pass", "pass", "stock", "discard qc")
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"{offer}: 4 event(s) appended, now at event 7\n"


def test_play_refuses_an_empty_entry(offer: Path) -> None:
    before = offer.read_bytes()
    p = exe("play", offer, "pass", "")
    assert p.returncode == 1 and offer.read_bytes() == before


def test_show_as_names_a_player_like_an_entry(app: Any, offer: Path) -> None:
    r = run(app, "show", offer, "--as", "ann")
    assert r.exit_code == 0, r.output
    assert "  Bob: 10 cards; seen taking -" in r.stdout.splitlines()


def test_error_lines_stay_one_line(app: Any, tmp_path: Path) -> None:
    """A path (or any value) with a newline or an escape in it keeps the error on one line, shown."""
    bad = tmp_path / "a\nb\x1b]0;owned\x07.jsonl"
    r = run(app, "validate", bad)
    assert r.exit_code == 1
    line = one_line(r.stderr)
    assert "\x1b" not in r.stderr
    assert "\x07" not in r.stderr
    assert "a b␛]0;owned␇.jsonl" in line  # white space runs are one space; controls are shown
    p = exe("record", bad)  # a missing file: exit 1, as in every command (README, exit codes)
    assert p.returncode == 1 and "\x1b" not in p.stderr and "␛]0;owned␇" in one_line(p.stderr)
    p = exe("play", bad, "pass")
    assert p.returncode == 1 and "\x1b" not in p.stderr and len(p.stderr.splitlines()) == 1


def test_parse_entry_through_the_session_checks_each_whole(tmp_path: Path) -> None:
    s = MatchSession.create(tmp_path / "m.jsonl", ("Ann", "Bob"), preset("standard"))
    with pytest.raises(GinlogError):
        s.append([partial(parse_entry, t) for t in ("dealer Ann", "upcard 7h", "pass now")])
    assert s.seq == 1
