"""The entry language is one table (``ginlog.app.record.language.TABLE``), and every reader of it agrees.

The parser, completion, the recorder's ``help``, the README and the prompts
of ``legal_actions`` once spelled the language each their own way and drifted
(``help`` without ``NAME +POINTS`` or ``s d 7h``, completion without
``biggin`` as a turn's end); these tests hold each to the table. And the language has a longest entry
(``MAX_ENTRY``): one longer is refused at once, in one line (issue 20, item 6).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginlog.app.record import completion, entry, language, retype
from ginlog.app.record.language import MAX_ENTRY
from ginlog.app.record.recorder import HELP
from ginlog.game.rules import preset
from ginlog.play.reducer import legal_actions, start
from ginlog.play.simulate import simulate_match
from ginlog.log.event_types import MAX_TEXT
from ginlog.play.timeline import apply

from test_cli import exe

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_parser_reads_the_table() -> None:
    assert entry.WORDS is language.WORDS
    assert entry._FREE_TEXT == language.FREE_TEXT == {"note", "undo", "void", "abandon"}
    assert entry._ENDS == language.ENDS_TURN == {"discard", "knock", "gin", "biggin"}


@pytest.mark.parametrize("rules", ["standard", "hollywood"])
def test_every_alias_is_the_same_entry_as_its_word(rules: str) -> None:
    """Along a whole match: each event's entry, its first word spelled every other way, parses the same."""
    events = simulate_match(preset(rules), seed=4, max_hands=2)
    tl = start(events[0])
    tried: set[str] = set()
    for seq, event in enumerate(events[1:], start=2):
        text = retype.entry_for(event)
        assert text is not None
        first, _, rest = text.partition(" ")
        row = next((e for e in language.TABLE if e.word == first), None)
        if row is not None:
            for spelling in row.aliases:
                assert entry.parse_entry(f"{spelling} {rest}", tl) == entry.parse_entry(text, tl), spelling
                tried.add(spelling)
        tl = apply(tl, event, seq)
    assert {"up", "t", "s", "d"} <= tried or {"up", "s", "d"} <= tried


def test_completion_offers_the_table_words_and_knows_their_aliases() -> None:
    words = [e.word for e in language.TABLE if e.word]
    assert list(completion.ENTRY_WORDS[: len(words)]) == words
    assert completion.ALIASES == {a: e.word for e in language.TABLE for a in e.aliases}
    assert completion._ENDS == {"discard", "knock", "gin"}  # biggin ends a turn too, but takes no card


def test_help_lists_every_shape_and_alias_of_the_table() -> None:
    flat = " ".join(HELP.split())
    for e in language.TABLE:
        for shape in e.shapes:
            assert shape in flat, shape
        for alias in e.aliases:
            assert re.search(rf"[(, ]{re.escape(alias)}[,)]", flat), alias
    assert "NAME +POINTS" in flat and "s d 7h" in flat


def _readme_entry_rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"^### The entry language\s*$(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert m
    return [ln for ln in m.group(1).splitlines() if ln.startswith("| `")]


def test_the_readme_entry_table_is_the_table() -> None:
    rows = _readme_entry_rows()
    cells = [row.split("|")[1] for row in rows]  # the entry column
    quoted = {q for row in rows for q in re.findall(r"`([^`]+)`", row)}
    for e in language.TABLE:
        for shape in e.shapes:
            assert shape in quoted or any(shape in q for q in quoted), f"README's entry table lacks {shape!r}"
        for alias in e.aliases:
            assert alias in quoted, f"README's entry table lacks the short form {alias!r} of {e.word!r}"
    for cell in cells:
        for q in re.findall(r"`([^`]+)`", cell):
            first = q.split()[0]
            assert first in language.WORDS or q in {s for e in language.TABLE for s in e.shapes} or first in (
                "NAME", "lay"), f"README's entry table names {q!r}, which is not in the language"


def test_legal_actions_speak_the_table() -> None:
    """``legal_actions`` (in ``ginlog.play``, which cannot import the app) is checked against the table here."""
    forms = {s for e in language.TABLE for s in e.shapes}
    seen: set[str] = set()
    for rules in ("standard", "hollywood", "oklahoma"):
        events = simulate_match(preset(rules), seed=2, max_hands=2)
        tl = start(events[0])
        for seq, event in enumerate([*events[1:], None], start=2):
            for action in legal_actions(tl.state):
                first = action.split()[0]
                assert first in language.WORDS or first in forms, action
                seen.add(language.WORDS.get(first, first))
                assert not re.search(r"\b[2-9TJQKA][SCDH]\b", action), f"{action!r}: a card as the log shows it (K♦)"
                for alternatives in re.findall(r"\[(\w+(?:\|\w+)+) CARD\]", action):
                    for word in alternatives.split("|"):
                        assert language.WORDS.get(word) in language.ENDS_TURN, action
                for form in re.findall(r"NAME \+POINTS", action):
                    assert form in forms, action
            if event is not None:
                tl = apply(tl, event, seq)
    assert {"dealer", "cut", "upcard", "take", "pass", "stock", "discard", "knock", "gin", "show", "CARD"} <= seen


# ---------------------------------------------------------------------------
# The longest entry


def test_the_longest_note_is_taken_and_one_more_character_past_the_cap_is_refused(tmp_path: Path) -> None:
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    assert exe("play", m, "note " + "x" * MAX_TEXT).returncode == 0  # the longest note the reader takes
    before = m.read_bytes()
    run = exe("play", m, "note " + "x" * MAX_ENTRY)
    assert run.returncode == 1 and m.read_bytes() == before
    assert f"no entry is longer than {MAX_ENTRY:,}" in run.stderr and len(run.stderr.splitlines()) == 1


def test_a_pasted_screenful_is_refused_by_the_recorder_too(tmp_path: Path) -> None:
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    run = exe("record", m, input="dealer " + "Ann " * 50_000 + "\nquit\n")
    said = [line for line in (run.stdout + run.stderr).splitlines() if "no entry is longer than" in line]
    assert run.returncode == 1 and len(said) == 1 and len(said[0]) < 200, said


def test_legal_now_follows_the_phase() -> None:
    """The table says when each entry may be legal: completion and a page's buttons offer only those."""
    events = simulate_match(preset("standard"), seed=2, max_hands=1)
    tl = start(events[0])
    seen = {}
    for seq, event in enumerate(events[1:], start=2):
        now = language.phase_of(tl.state)
        words = {e.word for e in language.legal_now(tl.state) if e.word}
        seen[now] = words
        typed = retype.entry_for(event)
        assert typed is not None
        first = typed.split()[0]
        assert language.WORDS[first] in words, (now, typed)  # what was typed is among what is offered
        tl = apply(tl, event, seq)
    assert seen["offer"] & {"stock", "discard", "dealer"} == set() and {"take", "pass"} <= seen["offer"]
    assert "discard" not in seen["draw"] and "stock" not in seen["discard"]


def test_a_name_that_is_or_begins_with_an_entry_word_is_warned_of_at_new(tmp_path: Path) -> None:
    assert [language.name_clash(n) for n in ("Upton", "Stock", "T", "Tom", "Ann", "Dealey")] == [
        "up", "stock", "t", None, None, "deal"]
    run = exe("new", tmp_path / "m.jsonl", "--player", "Upton", "--player", "Bob")
    assert run.returncode == 0
    assert "warning: at the table 'up' is the entry word 'upcard', not Upton: type more of the name" in run.stdout
    quiet = exe("new", tmp_path / "n.jsonl", "--player", "Ann", "--player", "Bob")
    assert "warning" not in quiet.stdout + quiet.stderr
