"""The terminal as a target (issue 13): what a record holds reaches a person seen, never acted on.

Notes, reasons, the title and the ``tool`` field may hold escape sequences
(clear the screen, retitle the window, move the cursor up and write a fake
"Winner:" line, OSC 8 links whose text is not their target); names may look
like rich markup. ``replay``, ``score``, ``show`` and ``record`` are run on a
real pseudo-terminal, where colour is on: only SGR sequences may reach it.
Also: a lone surrogate is one malformed-line rule, the pile is shown in pile
order, and ``show --json`` / ``replay --json``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import ptys

from ginlog.app.record.entry import parse_entry
from ginlog.errors import GinlogError, MalformedLine
from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.log.format import digest, encode, parse_line
from ginlog.match.session import MatchSession

from test_cli import GINLOG, app, assert_one_line_error, exe, new_file, run  # noqa: F401 - app: a fixture

TS = "2026-11-29T19:56:25.123Z"
#: Free text that attacks a terminal, each piece in its own way.
HOSTILE = (
    "gg\x1b[2J\x1b[H"  # clear the screen, cursor home
    "\x1b]0;owned\x07"  # retitle the window (OSC 0, ended by BEL)
    "\r\x1b[1A\x1b[2KWinner: Mallory"  # up a line, erase it, write a fake verdict
    "\x1b]8;;https://evil.example\x1b\\safe.example\x1b]8;;\x1b\\"  # a link whose text is not its target
    "\x9b31m\x85"  # C1: CSI and NEL
    "\u202eevil\u2066"  # bidi override and isolate
    "[bold red]markup[/]"
)
MARKUP_NAMES = ("[/]", "[red]x")
LINK_NAME = "[link=https://e.x]y[/link]"
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SGR = re.compile(r"\x1b\[[0-9;]*m")


def hostile_match(path: Path, players: tuple[str, str], *, finish: str = "play") -> Path:
    """A match whose title, tool, notes and reasons are :data:`HOSTILE`, through the one writer."""
    started = E.MatchStarted(players=players, rules=preset("standard"), tool=HOSTILE, title=HOSTILE)
    session = MatchSession.write(path, [started])
    entries = [f"dealer {players[0]}", "upcard 7h", f"note {HOSTILE}", f"void {HOSTILE}", "upcard 8h", "pass",
               f"undo {HOSTILE}", "pass", "pass", "stock", "discard kd"]
    if finish == "abandon":
        entries.append(f"abandon {HOSTILE}")
    session.append([partial(parse_entry, e) for e in entries])
    return path


@pytest.fixture
def markup_file(tmp_path: Path) -> Path:
    return hostile_match(tmp_path / "markup.jsonl", MARKUP_NAMES)


@pytest.fixture
def link_file(tmp_path: Path) -> Path:
    return hostile_match(tmp_path / "link.jsonl", (LINK_NAME, "Bob"), finish="abandon")


def on_a_terminal(*args: object, stdin: bytes | None = None, interactive: bool = False) -> tuple[int, str]:
    """Run ``ginlog ARGS`` with standard output and error on a pseudo-terminal (colour on, ``tests/ptys.py``);
    standard input piped (``stdin``), or the terminal too when ``interactive`` (``stdin`` is typed there)."""
    env = ptys.terminal_env(COLUMNS="200", LINES="50", PROMPT_TOOLKIT_NO_CPR="1")
    if interactive:
        code, out = ptys.on_a_pty(*args, env=env, typed=stdin or b"")
    else:
        code, out = ptys.on_a_pty(*args, env=env, piped=stdin or b"")
    return code, out.decode("utf-8", errors="replace")


def assert_harmless(text: str) -> None:
    """Nothing but SGR (colour, bold) reaches the terminal: no other escape, BEL, C1 or bidi control."""
    bare = SGR.sub("", text)
    assert "\x1b" not in bare, repr(bare[max(0, bare.find("\x1b") - 40):bare.find("\x1b") + 40])
    assert "\x07" not in bare
    assert not re.search("[\x80-\x9f]", bare), "a C1 control reached the terminal"
    assert not BIDI.search(bare), "a bidi control reached the terminal"
    assert "\r" not in bare.replace("\r\n", "\n"), "a bare carriage return reached the terminal"
    assert "Traceback" not in bare


def test_hostile_text_is_shown_not_acted_on_by_replay(markup_file: Path) -> None:
    code, text = on_a_terminal("replay", markup_file)
    assert code == 0, text
    assert_harmless(text)
    bare = SGR.sub("", text)
    assert "Note: gg␛[2J␛[H␛]0;owned␇␍␛[1A␛[2KWinner: Mallory" in bare
    assert "<U+009B>31m<U+0085><U+202E>evil<U+2066>[bold red]markup[/]" in bare
    assert "Match between [/] and [red]x (gg␛[2J" in bare
    assert "[/] deals first" in bare


@pytest.mark.parametrize("command", ["score", "show"])
def test_hostile_text_is_shown_not_acted_on_by_score_and_show(markup_file: Path, link_file: Path, command: str) -> None:
    for path, name in ((markup_file, "[/]"), (markup_file, "[red]x"), (link_file, LINK_NAME)):
        code, text = on_a_terminal(command, path)
        assert code == 0, text
        assert_harmless(text)
        assert name in SGR.sub("", text)
    code, text = on_a_terminal("score", link_file)
    assert "Abandoned: gg␛[2J" in SGR.sub("", text)
    assert "\x1b]8;" not in text  # no hyperlink: the name's [link=...] is text


def test_hostile_text_is_shown_not_acted_on_by_record(markup_file: Path) -> None:
    code, text = on_a_terminal("record", markup_file, stdin=f"table\nnote {HOSTILE}\nquit\n".encode())
    assert code == 0, text
    assert_harmless(text)
    bare = SGR.sub("", text)
    assert "Note: gg␛[2J" in bare and "[red]x: 10 cards" not in bare and "  [red]x:" in bare


def test_hostile_text_is_shown_not_acted_on_by_the_interactive_recorder(markup_file: Path) -> None:
    # ESC, BEL, U+202E at the prompt. The recorder is a line editor there (prompt_toolkit), which reads
    # a typed ESC as the Escape key: the note is pasted (bracketed paste), which keeps every byte.
    typed = b"table\r\x1b[200~note gg\x1b[2J\x1b]0;owned\x07 \xe2\x80\xae!\x1b[201~\rquit\r"
    code, text = on_a_terminal("record", markup_file, stdin=typed, interactive=True)
    assert code == 0, text
    from test_pty_recorder import assert_harmless_editor, plain

    assert_harmless_editor(text)  # only the editor's own drawing: no raw piece of the record or the entry
    bare = plain(text)
    assert "[/]: " in bare or "[red]x: " in bare  # whose turn, the name as it is
    assert "Note: gg␛[2J␛]0;owned␇ <U+202E>!" in bare


@pytest.mark.parametrize("command", ["replay", "score", "show"])
def test_markup_names_do_not_crash_in_process(app: Any, markup_file: Path, link_file: Path, command: str) -> None:
    for path in (markup_file, link_file):
        r = run(app, command, path)
        assert r.exit_code == 0, r.output
        assert "\x1b" not in r.output and "\u202e" not in r.output
    r = run(app, "score", markup_file)
    assert "[/]" in r.stdout and "[red]x" in r.stdout and "gg␛[2J" in r.stdout


def test_json_output_carries_record_text_as_data_yet_safe_for_a_terminal(app: Any, markup_file: Path, link_file: Path) -> None:
    for args in (["score", markup_file, "--json"], ["show", markup_file, "--json"]):
        r = run(app, *args)
        assert r.exit_code == 0, r.output
        assert not re.search("[\x7f-\x9f\u202e\u2066]", r.stdout)
        assert json.loads(r.stdout)["players"] == list(MARKUP_NAMES)
    r = run(app, "replay", markup_file, "--json")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert not re.search("[\x7f-\x9f\u202e\u2066]", r.stdout)
    assert rows[3]["text"].startswith("Note: gg␛[2J")  # the words, shown as a person reads them
    r = run(app, "show", link_file, "--json")
    assert not re.search("[\x7f-\x9f\u202e\u2066]", r.stdout) and "\x1b" not in r.stdout
    assert json.loads(r.stdout)["abandoned"] == HOSTILE  # the data as typed, escaped in the JSON text


# ----------------------------------------------------------------------------- a lone surrogate


def file_with_line_2(path: Path, raw2: bytes) -> Path:
    first = encode(1, TS, "match_started", E.SCHEMA_VERSION, None,
                   E.event_fields(E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))))
    path.write_bytes(first + b"\n" + raw2 % digest(first).encode() + b"\n")
    return path


@pytest.fixture
def surrogate_note(tmp_path: Path) -> Path:
    return file_with_line_2(
        tmp_path / "s.jsonl",
        b'{"seq":2,"ts":"' + TS.encode() + b'","type":"note","v":2,"prev":"%s","text":"ok \\ud800 then"}',
    )


def test_a_lone_surrogate_is_malformed_for_validate_and_audit(app: Any, surrogate_note: Path) -> None:
    r = run(app, "validate", surrogate_note)
    assert r.exit_code == 1
    m = assert_one_line_error(r.stderr, path=str(surrogate_note), rule="surrogate", need_line=True)
    assert m["line"] == "2"
    r = run(app, "audit", surrogate_note, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["summary"]["invalid"] == 1


@pytest.mark.parametrize("command", ["score", "replay", "show", "record"])
def test_a_lone_surrogate_is_one_error_line_not_a_crash(surrogate_note: Path, command: str) -> None:
    p = exe(command, surrogate_note, input="quit\n")
    assert p.returncode == 1
    assert_one_line_error(p.stderr, path=str(surrogate_note), rule="surrogate", need_line=True)


@pytest.mark.parametrize(
    "raw",
    [b'{"a":"\\udc00"}', b'{"a":["x",{"b":"\\ud83d"}]}', b'{"\\udfff":1}', b'{"a":"\\ud83d\\u0041"}',
     b'{"a":"\\uD800"}'],
)
def test_parse_line_refuses_a_lone_surrogate_anywhere(raw: bytes) -> None:
    with pytest.raises(MalformedLine) as info:
        parse_line(raw)
    assert info.value.rule == "surrogate"


@pytest.mark.parametrize("raw", [b'{"a":"\\ud83d\\ude00"}', b'{"a":"\\\\ud800"}', b'{"a":"\\u00e9"}'])
def test_parse_line_takes_pairs_and_escaped_backslashes(raw: bytes) -> None:
    assert parse_line(raw) == json.loads(raw)


def test_the_writer_refuses_a_lone_surrogate(tmp_path: Path) -> None:
    s = MatchSession.create(tmp_path / "m.jsonl", ("Ann", "Bob"), preset("standard"))
    before = (tmp_path / "m.jsonl").read_bytes()
    with pytest.raises(GinlogError) as info:
        s.append([E.Note(text="bad \ud800")])
    assert info.value.rule == "surrogate"
    assert (tmp_path / "m.jsonl").read_bytes() == before and s.seq == 1


def test_play_refuses_a_note_that_is_not_utf8(app: Any, tmp_path: Path) -> None:
    path = new_file(app, tmp_path / "m.jsonl")
    before = path.read_bytes()
    proc = subprocess.run([sys.executable, str(GINLOG), "play", str(path), b"note caf\xe9"], capture_output=True, timeout=60)
    assert proc.returncode == 1
    assert_one_line_error(proc.stderr.decode(), path=str(path), rule="surrogate")
    assert path.read_bytes() == before


# ----------------------------------------------------------------------------- the pile, and the table as JSON


@pytest.fixture
def piled(app: Any, tmp_path: Path) -> Path:
    """Discards K♦, 2♣, 9♠ onto the upcard 7♥: the pile's order is not its sorted order."""
    path = new_file(app, tmp_path / "pile.jsonl")
    r = run(app, "play", path, "dealer Ann", "upcard 7h", "pass", "pass", "stock", "discard kd", "stock",
            "discard 2c", "stock", "discard 9s")
    assert r.exit_code == 0, r.output
    return path


def test_show_lists_the_pile_in_pile_order(app: Any, piled: Path) -> None:
    r = run(app, "show", piled)
    assert r.exit_code == 0, r.output
    assert "Hand 1: Ann dealt; knock limit 10; stock 28; pile K♦ 2♣ 9♠ (top last)" in r.stdout.splitlines()


def test_the_recorder_table_lists_the_pile_in_pile_order(app: Any, piled: Path) -> None:
    r = run(app, "record", piled, input="table\nquit\n")
    assert "pile K♦ 2♣ 9♠ (top last)" in r.stdout


def test_show_json(app: Any, piled: Path) -> None:
    r = run(app, "show", piled, "--json")
    assert r.exit_code == 0, r.output
    t = json.loads(r.stdout)
    assert t["event"] == 11 and t["players"] == ["Ann", "Bob"] and t["phase"] == "hand"
    assert t["turn"] == "Ann" and t["to"] == "draw" and t["stock"] == 28 and t["dealer"] == "Ann"
    assert t["pile"] == ["7H", "KD", "2C", "9S"]  # bottom first, top last
    assert t["hands"] == {"Ann": {"known": [], "hidden": 10}, "Bob": {"known": [], "hidden": 10}}
    assert t["score"] == {"Ann": 0, "Bob": 0}
    r = run(app, "show", piled, "--json", "--at", 6, "--as", "bob")
    t = json.loads(r.stdout)
    assert t["event"] == 6 and t["as"] == "Bob" and t["pile"] == ["7H"] and t["hands"]["Bob"]["hidden"] == 11


def test_replay_json_is_one_object_per_event(app: Any, piled: Path) -> None:
    r = run(app, "replay", piled, "--json")
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [row["seq"] for row in rows] == list(range(1, 12))
    assert rows[0]["type"] == "match_started" and rows[0]["text"] == "Match between Ann and Bob (ginlog 0.1.0)"
    assert rows[5]["type"] == "card_drawn" and rows[5]["text"] == "Bob draws from the stock"
    assert rows[-1]["pile"] == ["7H", "KD", "2C", "9S"] and rows[-1]["turn"] == "Ann"
    r = run(app, "replay", piled, "--json", "--from", 3, "--to", 4)
    assert [json.loads(x)["seq"] for x in r.stdout.splitlines()] == [3, 4]
