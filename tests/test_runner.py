"""The one command runner (issue 19): one parser, one usage line, one Ctrl-C line, the same exit codes everywhere."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from ginlog.app.cli import plain_play
from ginlog.app.shell.runner import ExitCode, run, usage_line
from ginlog.errors import EventError

import ptys
from test_cli import GINLOG, exe

COMMANDS = [
    ["new", "m.jsonl"], ["play", "m.jsonl", "pass"], ["record", "m.jsonl"], ["undo", "m.jsonl"], ["repair", "m.jsonl"],
    ["show", "m.jsonl"], ["replay", "m.jsonl"], ["score", "m.jsonl"], ["validate", "m.jsonl"], ["audit", "m.jsonl"],
    ["schema"], ["rules"], ["stats", "m.jsonl"], ["export", "m.jsonl"], ["html", "m.jsonl"],
    ["import", "openspiel", "r.txt", "-o", "out"],
]


@pytest.fixture
def match(tmp_path: Path) -> Path:
    path = tmp_path / "m.jsonl"
    p = exe("new", path, "--player", "Ann", "--player", "Bob")
    assert p.returncode == 0, p.stderr
    return path


@pytest.mark.parametrize("flag", ["-y", "--yes", "-x", "--bogus"])
def test_play_refuses_an_unknown_option_the_same_way_short_or_long(match: Path, flag: str) -> None:
    """``play M -y`` once went to the fast path's own parser (exit 1, an illegal entry), ``--yes`` to Typer's (2)."""
    before = match.read_bytes()
    p = exe("play", match, flag, cwd=match.parent)
    assert p.returncode == ExitCode.USAGE, p.stderr
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("ginlog: play: No such option: " + flag), p.stderr
    q = exe("play", match, "dealer Ann", flag)
    assert (q.returncode, q.stderr) == (p.returncode, p.stderr)
    assert match.read_bytes() == before


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_an_unknown_option_is_one_usage_line_and_exit_2_in_every_command(tmp_path: Path, args: list[str]) -> None:
    p = exe(*args, "--no-such-option", cwd=tmp_path)
    assert p.returncode == 2, (args, p.stderr)
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ginlog: ") and "--no-such-option" in lines[0], p.stderr
    assert "--help" in lines[0]


def test_a_usage_line_shows_what_was_typed_visibly(tmp_path: Path) -> None:
    p = exe("show", "m.jsonl", "--\x1b[2J\u202e", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith("ginlog: show: No such option: --") and p.stderr.endswith("(see 'ginlog show --help')\n")
    assert "\x1b" not in p.stderr and "\u202e" not in p.stderr and "<U+202E>" in p.stderr, p.stderr


def test_the_fast_path_takes_only_what_typer_reads_the_same_way() -> None:
    """Whenever :func:`plain_play` says yes, Typer's own parser gives MATCH and ENTRIES as the fast path does."""
    from typer.main import get_command

    from ginlog.app.cli import build_app

    play = get_command(build_app()).commands["play"]  # type: ignore[attr-defined]
    words = ["m.jsonl", "pass", "note -x", "-y", "--reopen", "--", "-", "discard 7h", "'a b'", "=", "-1"]

    for n in range(1, 4):
        for tail in itertools.product(words, repeat=n):
            argv = ["play", "m.jsonl", *tail]
            if not plain_play(argv):
                assert any(w.startswith("-") for w in tail) or len(argv) < 3
                continue
            ctx = play.make_context("play", list(argv[1:]))
            assert (ctx.params["match"], list(ctx.params["entries"]), ctx.params["reopen"]) == (
                argv[1], argv[2:], False), argv


def test_play_without_entries_is_typers_usage_line(match: Path) -> None:
    p = exe("play", match)
    assert (p.returncode, p.stderr) == (2, "ginlog: play: Missing argument 'entries'. (see 'ginlog play --help')\n")


@pytest.mark.parametrize("args", [["replay", "-"], ["score", "-"], ["validate", "-"], ["show", "-"]])
def test_ctrl_c_is_one_line_and_130(args: list[str]) -> None:
    """Interrupted while reading (standard input that never ends), every command says so in one line: exit 130."""
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    feed_r, feed_w = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        # a session of its own (a process group to signal, as a terminal's Ctrl-C does): forked where it can be
        proc = ptys.start(args, stdin=feed_r, stdout=out.fileno(), stderr=err.fileno(), env=dict(os.environ),
                          close=(feed_w,), prepare=os.setsid)
        os.close(feed_r)
        try:
            os.write(feed_w, b'{"partial": ')  # the reader waits for the rest
            time.sleep(1.5 if isinstance(proc, subprocess.Popen) else 0.5)  # past the imports, waiting on the pipe
            os.killpg(proc.pid, signal.SIGINT)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                pytest.fail(f"ginlog {args} did not stop on Ctrl-C")
        finally:
            os.close(feed_w)
        err.seek(0)
        said = err.read().decode()
    assert code == 130 and said == "ginlog: interrupted\n", (code, said[-2000:])


def test_run_maps_each_ending_to_its_code() -> None:
    def broken() -> int:
        raise BrokenPipeError

    def invalid() -> int:
        raise EventError("bad \x1b[2J", rule="x", path="m.jsonl", line=3)

    with contextlib.redirect_stderr(io.StringIO()) as err:
        codes = [run(lambda: None), run(lambda: 1), run(invalid), run(lambda: usage_line("two\nlines"))]
    assert codes == [0, 1, 1, 2]
    assert err.getvalue() == "m.jsonl:3: bad ␛[2J [x]\nginlog: two lines\n"
    with contextlib.redirect_stdout(io.StringIO()):  # no real descriptor to point at /dev/null: nothing happens
        assert run(broken) == ExitCode.INVALID
    assert [int(c) for c in ExitCode] == [0, 1, 2, 130] and repr(ExitCode.USAGE) == "2"


def test_the_command_named_alone_is_the_whole_apps_command() -> None:
    """``main`` registers the command its line names, alone (``build_app(only)``): each is then parsed by the very
    parameters the whole app gives it; anything else (an option, a typo) gets the whole app, which lists them all."""
    from typer.main import get_command

    from ginlog.app.cli import build_app
    from ginlog.app.cli.app import COMMANDS as NAMED

    whole = get_command(build_app()).commands  # type: ignore[attr-defined]
    for name in [n for n, _module, _body in NAMED] + ["import"]:
        alone = get_command(build_app(name)).commands  # type: ignore[attr-defined]
        assert list(alone) == [name]
        assert [(p.name, p.opts, p.secondary_opts, p.type.name, p.required, p.default) for p in alone[name].params] == [
            (p.name, p.opts, p.secondary_opts, p.type.name, p.required, p.default) for p in whole[name].params
        ], name
    for line in ("--version", "audti", None):
        assert list(get_command(build_app(line)).commands) == list(whole)  # type: ignore[attr-defined]
