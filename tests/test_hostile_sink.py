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

``serve`` runs until Ctrl-C: it is started on the hostile match, what it
prints (the match's names and title, the address, the QR code) is read up
to the QR code's last row, its state, matches and replay page are fetched
over HTTP with the token it printed, and then it is stopped (exit 130);
the pages it served must escape the record as every other output does.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import unicodedata
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from forked import can_fork, run_forked, spawn_forked

from ginlog.app.record.entry import parse_entry
from ginlog.game.rules import preset
from ginlog.log import events as E
from ginlog.match.session import MatchSession
from ginlog.text import visible

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
        "serve": ["serve", f, "--port", "0"],  # runs until stopped: see serving()
    }


try:  # (imported here once, so each forked serve has them already)
    import segno  # noqa: F401
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401

    SERVE_EXTRA = True
except ImportError:  # pragma: no cover - the serve extra is not installed
    SERVE_EXTRA = False
#: What ``serve`` served, by how it was run ("pipe", "tty"): the state, the matches, the replay page (bytes).
SERVED: dict[str, dict[str, bytes]] = {}
#: The QR code's last row: serve has printed all it prints at start.
QR_END = re.compile(r"\n[▀ ]*▀[▀ ]*(?:\x1b\[0m)?\r?\n$")


def _read_until(fds: list[int], done: Any, timeout: float = 30) -> dict[int, bytes]:
    """Read ``fds`` until ``done(first fd's bytes)`` or every one ends (EOF, or EIO from a pseudo-terminal)."""
    got = {fd: b"" for fd in fds}
    open_fds, deadline = list(fds), time.monotonic() + timeout
    while open_fds and time.monotonic() < deadline and not (done and done(got[fds[0]])):
        ready, _, _ = select.select(open_fds, [], [], 0.2)
        for fd in ready:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if chunk:
                got[fd] += chunk
            else:
                open_fds.remove(fd)
    return got


def _fetch(port: int, token: str, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"X-Ginlog-Token": token})
        r = conn.getresponse()
        assert r.status == 200, (path, r.status)
        return r.read()
    finally:
        conn.close()


def serving(args: list[str], how: str) -> tuple[int, str, str]:
    """``ginlog serve ARGS`` on pipes or on a pseudo-terminal: what it printed up to its QR code, then the pages
    it served (kept in :data:`SERVED`), then Ctrl-C; its status and output."""
    import pty
    import termios

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE")}
    if how == "tty":
        env.update(TERM="xterm-256color", COLUMNS="200", LINES="50")
        out_r, out_w = pty.openpty()
        attrs = termios.tcgetattr(out_w)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(out_w, termios.TCSANOW, attrs)
        err_r, err_w = out_r, out_w
    else:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
    stdin = os.open(os.devnull, os.O_RDONLY)
    proc: Any
    if can_fork(env):
        proc = spawn_forked([str(GINLOG), *args], stdin=stdin, stdout=out_w, stderr=err_w, env=env, cwd=None,
                            close=(out_r, err_r))
    else:
        proc = subprocess.Popen([sys.executable, str(GINLOG), *args], stdin=stdin, stdout=out_w, stderr=err_w, env=env)
    for fd in {stdin, out_w, err_w}:
        os.close(fd)
    fds = [out_r] if out_r == err_r else [out_r, err_r]
    try:
        first = _read_until(fds, lambda b: QR_END.search(b.decode("utf-8", "replace")) is not None)
        said = SGR.sub("", first[out_r].decode("utf-8", "replace"))
        link = re.search(r"open http://127\.0\.0\.1:(\d+)/\?t=([A-Za-z0-9_-]{43})", said)
        assert link, said[-600:]
        port, token = int(link.group(1)), link.group(2)
        SERVED[how] = {p: _fetch(port, token, p) for p in ("/api/m/0/state", "/api/matches", "/api/m/0/replay")}
    finally:
        proc.send_signal(signal.SIGINT)
        rest = _read_until(fds, None)
        code = proc.wait(30)
        for fd in fds:
            os.close(fd)
    out = (first[out_r] + rest[out_r]).decode("utf-8", "replace")
    err = "" if out_r == err_r else (first[err_r] + rest[err_r]).decode("utf-8", "replace")
    return code, out, err


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
        if name == "serve":
            if not SERVE_EXTRA:
                continue  # (its tests skip)
            out[name] = serving(args, how)
        elif how == "pipe":
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
    if name not in piped:
        pytest.skip("no serve extra")
    code, out, err = piped[name]
    assert code in ((130,) if name == "serve" else (0, 1)), (code, err)
    assert "Traceback" not in out + err
    assert raw_controls(err, terminal=False) == [], (name, err[:400])
    if name not in ("export-csv",):  # CSV keeps a record's text exactly (it is data)
        assert raw_controls(out, terminal=False) == [], (name, out[:400])
    assert "💯" not in out + err, "an emoji code was read in record text or a file name"


@pytest.mark.parametrize("name", list(commands(Path("."))))
def test_nothing_raw_reaches_a_terminal(on_tty: dict[str, tuple[int, str, str]], name: str) -> None:
    if name not in on_tty:
        pytest.skip("no serve extra")
    code, text, _ = on_tty[name]
    if name == "html":  # a page is not for a terminal: refused, naming -o (issue 21); the refusal is checked too
        assert code == 2 and "give -o" in text, text[-400:]
    elif name == "serve":  # stopped with Ctrl-C
        assert code == 130 and "Serving on http://127.0.0.1:" in text, text[-400:]
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


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("how", ["pipe", "tty"])
def test_serve_says_the_match_escaped_and_its_pages_escape_it(piped: dict[str, tuple[int, str, str]],
                                                               on_tty: dict[str, tuple[int, str, str]], how: str,
                                                               club: Path) -> None:
    """What serve prints names the file, the title and the players, made visible; the state and the list of
    matches it serves are printable ASCII JSON whose strings hold no control (made visible), and its replay
    page holds no raw control either."""
    if not SERVE_EXTRA:
        pytest.skip("no serve extra")
    code, out, _ = (piped if how == "pipe" else on_tty)["serve"]
    bare = SGR.sub("", out).replace("\r\n", "\n")
    first, address = bare.splitlines()[:2]
    seq = MatchSession.open(club / NAME).seq
    assert first == f"{visible(str(club / NAME))}: {visible(HOSTILE)}: :skull: v 💀, at event {seq}", first
    assert "gg␛[2J␛]0;owned␇<U+009B>31m<U+0085><U+202E>evil<U+200B>[bold]x[/bold] :skull: :100:" in first
    assert re.fullmatch(r"Serving on http://127\.0\.0\.1:\d+/ \(Ctrl-C stops\)", address), address
    served = SERVED[how]
    for path in ("/api/m/0/state", "/api/matches"):
        raw = served[path]
        assert all(32 <= b < 127 for b in raw), path
        strings = _strings(json.loads(raw))
        assert not [c for s in strings for c in s if unicodedata.category(c) in ("Cc", "Cf")], path
    state = json.loads(served["/api/m/0/state"])
    assert state["players"] == list(PLAYERS) and state["label"] == "m␛[31m<U+202E><U+009B>.jsonl"
    assert any("gg␛[2J" in line["text"] and "[bold]x[/bold] :skull: :100:" in line["text"] for line in state["recent"])
    page = served["/api/m/0/replay"].decode("utf-8")
    assert raw_controls(page, terminal=False) == [] and "gg␛[2J" in page
