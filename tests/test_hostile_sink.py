"""One hostile record through every command and every output format, on a pipe and on a pseudo-terminal (issue 19).

The record's free text (title, tool, a note, a void's and an undo's reasons)
holds ESC sequences, C1 controls (U+009B CSI, U+0085 NEL), a bidi override,
a zero-width space, rich markup and an emoji code; its players are ``:skull:``
and ``💀`` (two players, who must look different); its file's name holds ESC,
a C1 control and a bidi override; a second, damaged file has its first
problem on line 100 (``bad.jsonl:100:`` must not print as ``bad.jsonl💯``).

What must hold, whichever command printed it: no raw control, C1 or
format character reaches a terminal (only colour, SGR, does), and none
reaches a pipe either, except in CSV, which is data and keeps the text
exactly; every JSON output decodes back to the record's exact text.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import unicodedata
from functools import partial
from pathlib import Path

import pytest

from forked import can_fork, run_forked

from ginlog.app.record.entry import parse_entry
from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.match.session import MatchSession

from test_cli import GINLOG
from test_terminal import SGR, on_a_terminal

#: Free text that attacks a terminal and rich.
HOSTILE = "gg\x1b[2J\x1b]0;owned\x07\x9b31m\x85\u202eevil\u200b[bold]x[/bold] :skull: :100:"
PLAYERS = (":skull:", "💀")
NAME = "m\x1b[31m\u202e\x9b.jsonl"
RECORD = "r\x1b[2J\u202e.txt"
#: What rich's progress bar draws (ginlog's own, on standard error): hide and show the cursor, erase the line.
PROGRESS = re.compile(r"\x1b\[\?25[lh]|\r(?:\x1b\[1A)?\x1b\[2K")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the hostile match (a hand ended, a void, an undo) and a damaged file with its problem on line 100."""
    d = tmp_path_factory.mktemp("club")
    started = E.MatchStarted(players=PLAYERS, rules=preset("standard"), tool=HOSTILE, title=HOSTILE)
    session = MatchSession.write(d / NAME, [started])
    entries = ["dealer 💀", "upcard 7h", f"note {HOSTILE}", f"void {HOSTILE}", "upcard 8h", "pass",
               f"undo {HOSTILE}", "pass", "pass", "stock", "discard kd"]
    session.append([partial(parse_entry, e) for e in entries])
    bad = MatchSession.write(d / "bad.jsonl", [E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))])
    bad.append([partial(parse_entry, f"note {i}") for i in range(98)])
    with open(d / "bad.jsonl", "ab") as f:
        f.write(b"not json\n")  # line 100
    rec = d / "records"
    rec.mkdir()
    (rec / RECORD).write_text("not an openspiel record\n", encoding="utf-8")
    return d


def commands(d: Path) -> dict[str, list[str]]:
    """Every command that shows a record, in each of its output formats."""
    f, bad = str(d / NAME), str(d / "bad.jsonl")
    return {
        "show": ["show", f], "show-json": ["show", f, "--json"],
        "replay": ["replay", f], "replay-json": ["replay", f, "--json"],
        "score": ["score", f], "score-json": ["score", f, "--json"],
        "validate": ["validate", f, bad], "validate-json": ["validate", f, bad, "--json"],
        "audit": ["audit", str(d)], "audit-json": ["audit", str(d), "--json"],
        "stats": ["stats", str(d)], "stats-json": ["stats", str(d), "--json"], "stats-csv": ["stats", str(d), "--csv"],
        "export-csv": ["export", str(d)], "export-jsonl": ["export", str(d), "--format", "jsonl"],
        "html": ["html", f],
        "import": ["import", "openspiel", str(d / "records" / RECORD), "-o", str(d / "imported")],
        "play": ["play", f, f"note {HOSTILE}", "stock"],  # refused (no draw now): nothing written, one line
        "undo-missing": ["undo", str(d / ("gone" + NAME))],
    }


def raw_controls(text: str, *, terminal: bool) -> list[str]:
    """The characters of ``text`` a screen would act on: C0 but newline (and, on a terminal, the tty's
    CR LF), DEL, C1, and the format characters (bidi, zero-width); SGR colour is allowed on a terminal."""
    if terminal:
        text = SGR.sub("", PROGRESS.sub("", text)).replace("\r\n", "\n")
    found = [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf")]
    return [f"U+{ord(ch):04X}" for ch in dict.fromkeys(found)]


def on_a_pipe(*args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE")}
    if can_fork(env):  # the same main(), without the interpreter's start (tests/forked.py)
        p = run_forked([str(GINLOG), *args], input=b"", env=env, cwd=None, timeout=120)
    else:
        p = subprocess.run([sys.executable, str(GINLOG), *args], capture_output=True, env=env, timeout=120,
                           stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def _run_all(d: Path, how: str) -> dict[str, tuple[int, str, str]]:
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    out: dict[str, tuple[int, str, str]] = {}
    for name, args in commands(d).items():
        if how == "pipe":
            out[name] = on_a_pipe(*args)
        else:
            code, text = on_a_terminal(*args)
            out[name] = (code, text, "")
    return out


@pytest.fixture(scope="module")
def piped(club: Path) -> dict[str, tuple[int, str, str]]:
    return _run_all(club, "pipe")


@pytest.fixture(scope="module")
def on_tty(club: Path) -> dict[str, tuple[int, str, str]]:
    return _run_all(club, "tty")


@pytest.mark.parametrize("name", list(commands(Path("."))))
def test_nothing_raw_reaches_a_pipe_but_csv_data(piped: dict[str, tuple[int, str, str]], name: str) -> None:
    code, out, err = piped[name]
    assert code in (0, 1), (code, err)
    assert "Traceback" not in out + err
    assert raw_controls(err, terminal=False) == [], (name, err[:400])
    if name not in ("export-csv",):  # CSV keeps a record's text exactly (it is data)
        assert raw_controls(out, terminal=False) == [], (name, out[:400])
    assert "💯" not in out + err, "an emoji code was read in record text or a file name"


@pytest.mark.parametrize("name", list(commands(Path("."))))
def test_nothing_raw_reaches_a_terminal(on_tty: dict[str, tuple[int, str, str]], name: str) -> None:
    code, text, _ = on_tty[name]
    if name == "html":  # a page is not for a terminal: refused, naming -o (issue 21); the refusal is checked too
        assert code == 2 and "give -o" in text, text[-400:]
    else:
        assert code in (0, 1), text[-400:]
    assert "Traceback" not in text
    assert raw_controls(text, terminal=True) == [], (name, text[:600])
    assert "💯" not in text


def test_the_two_players_look_different(piped: dict[str, tuple[int, str, str]],
                                        on_tty: dict[str, tuple[int, str, str]]) -> None:
    """``:skull:`` is shown as typed, never as the emoji that the other player is."""
    for name in ("show", "score", "stats", "replay"):
        for text in (piped[name][1], SGR.sub("", on_tty[name][1])):
            assert ":skull:" in text, (name, text[:400])
    assert "[bold]x[/bold]" in piped["replay"][1]  # markup in a note is text


def test_a_problem_on_line_100_is_not_an_emoji(piped: dict[str, tuple[int, str, str]]) -> None:
    for name in ("validate", "audit", "stats", "export-csv"):
        assert "bad.jsonl:100:" in piped[name][2], (name, piped[name][2][:400])


def test_json_gives_back_the_exact_text(piped: dict[str, tuple[int, str, str]], club: Path) -> None:
    """Every JSON output is escaped (``\\u001b``, ``\\u009b``, ``\\u202e``) and decodes to the record's own text."""
    assert json.loads(piped["show-json"][1])["players"] == list(PLAYERS)
    replayed = [json.loads(line) for line in piped["replay-json"][1].splitlines()]
    assert any("gg␛[2J" in r["text"] for r in replayed)  # a transcript's text is made visible, as on a screen
    stats = json.loads(piped["stats-json"][1])
    assert [p["name"] for p in stats["players"]] == list(PLAYERS)
    assert str(club / NAME) in {f["file"] for f in stats["files"]}
    rows = [json.loads(line) for line in piped["export-jsonl"][1].splitlines()]
    assert rows and all(r["title"] == HOSTILE and r["file"] == str(club / NAME) for r in rows)
    assert {(r["player_1"], r["player_2"]) for r in rows} == {PLAYERS}
    for name in ("audit-json", "validate-json"):
        assert str(club / NAME) in {f["file"] for f in json.loads(piped[name][1])["files"]}, name
    for name in ("show-json", "replay-json", "score-json", "stats-json", "export-jsonl", "audit-json", "validate-json"):
        if name not in ("show-json", "replay-json"):  # a table names no file; a transcript's text is visible already
            assert "\\u001b" in piped[name][1], name  # the file's name or the record's text, escaped


def test_csv_keeps_the_text_on_a_pipe_and_is_visible_on_a_terminal(piped: dict[str, tuple[int, str, str]],
                                                                  on_tty: dict[str, tuple[int, str, str]],
                                                                  club: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(piped["export-csv"][1])))
    assert rows and all(r["title"] == HOSTILE and r["file"] == str(club / NAME) for r in rows)
    bare = SGR.sub("", on_tty["export-csv"][1])
    assert "gg␛[2J␛]0;owned␇<U+009B>31m<U+0085><U+202E>evil<U+200B>[bold]x[/bold]" in bare
