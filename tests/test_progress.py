"""Progress bars on long work: the real ``ginlog`` on a pseudo-terminal shows one on standard error, piped shows none.

Each command runs twice over a folder of a few hundred tiny matches: once
with standard error on a pseudo-terminal (standard output to a file, as
``ginlog stats club/ > out.json`` on a terminal), read as it comes, under a
timeout; once with both piped. On the terminal the bar's label and its
percentage are drawn; piped, standard error holds no trace of a bar (no
label, no control sequence), and standard output is the same bytes both ways.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest

import ptys
from forked import can_fork, run_forked

from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match

from data_matches import EPOCH, encode_match

GINLOG = Path(sys.executable).parent / "ginlog"
TIMEOUT = 120.0
CONTROL = re.compile(rb"\x1b\[")
MATCHES = 90
DONE = f"{MATCHES + 1} files"  # the bar at its end: the matches and the broken file, counted (no total: one walk)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """90 one-hand matches (OpenSpiel's rules), ten distinct ones, in three folders; and one invalid file.

    (300 before: the bar is drawn from the first file, so a few dozen show it as well; each command runs twice.)
    """
    root = tmp_path_factory.mktemp("club")
    blobs = [
        encode_match(simulate_match(preset("openspiel"), seed=s, players=("Ann", "Bob")), EPOCH + timedelta(minutes=s))
        for s in range(10)
    ]
    for i in range(MATCHES):
        sub = root / f"month{i // 30}"
        sub.mkdir(exist_ok=True)
        (sub / f"m{i:04d}.jsonl").write_bytes(blobs[i % 10])
    (root / "month0" / "broken.jsonl").write_bytes(b"not json\n")
    return root


def _env() -> dict[str, str]:
    return ptys.terminal_env(COLUMNS="100", LINES="30")


def on_a_terminal(args: list[str], cwd: Path, stdout_too: bool = False) -> tuple[int, bytes, bytes]:
    """Run ``ginlog ARGS`` with standard error on a pseudo-terminal: (exit status, standard output, what the terminal got).

    ``stdout_too``: standard output on the terminal as well (then the second item is empty). Standard input is
    the null device.
    """
    with tempfile.TemporaryFile() as out:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            code, seen = ptys.on_a_pty(*args, env=_env(), stdin=null, stdout=None if stdout_too else out.fileno(),
                                       echo=True, cwd=cwd, timeout=TIMEOUT)
        finally:
            os.close(null)
        out.seek(0)
        return code, out.read(), seen


def piped(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run ``ginlog ARGS`` with every standard stream a pipe (forked where it can be: ``tests/forked.py``)."""
    env = _env()
    if can_fork(env):
        proc = run_forked([str(GINLOG), *args], input=None, env=env, cwd=cwd, timeout=TIMEOUT)
    else:
        proc = subprocess.run([sys.executable, str(GINLOG), *args], stdin=subprocess.DEVNULL, capture_output=True,
                              env=env, cwd=cwd, timeout=TIMEOUT)
    return proc.returncode, proc.stdout, proc.stderr


COMMANDS = {
    "audit": (["audit", "{club}"], "auditing"),
    "audit --json": (["audit", "--json", "{club}"], "auditing"),
    "stats": (["stats", "{club}", "--json"], "stats"),
    "stats text": (["stats", "{club}"], "stats"),
    "export": (["export", "{club}", "--format", "csv"], "export"),
    "export -o": (["export", "{club}", "--format", "jsonl", "-o", "{out}/hands.jsonl"], "export"),
    "html DIR": (["html", "{club}", "-o", "{out}/site"], "pages"),
}


#: The default run's share: one of each loop (the audit's, the data commands', the site's); the rest with --run-slow.
QUICK_COMMANDS = frozenset({"audit --json", "stats text", "export -o", "html DIR"})


@pytest.mark.parametrize("name", [n if n in QUICK_COMMANDS else pytest.param(n, marks=pytest.mark.slow) for n in sorted(COMMANDS)])
def test_a_bar_on_a_terminal_and_none_when_piped(name: str, club: Path, tmp_path: Path) -> None:
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    template, label = COMMANDS[name]
    runs = {}
    for how, runner in (("terminal", on_a_terminal), ("piped", piped)):
        out = tmp_path / how
        out.mkdir()
        args = [a.format(club=club, out=out) for a in template]
        code, stdout, stderr = runner(args, tmp_path)
        written = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
        runs[how] = (code, stdout, stderr, written, out)
    t_code, t_out, terminal, t_files, t_dir = runs["terminal"]
    p_code, p_out, p_err, p_files, p_dir = runs["piped"]
    text = terminal.decode("utf-8", "replace")
    assert t_code == p_code == 1, (text, p_err)  # the broken file
    assert "Traceback" not in text and b"Traceback" not in p_err
    # On the terminal: the bar, its label and how far it got; the broken file is still reported.
    assert label in text and DONE in text and f"/{MATCHES + 1}" not in text, text  # counted as they come: no total
    assert "broken.jsonl" in text or (name == "audit --json" and b"broken.jsonl" in t_out)
    # Piped: no bar, nothing a terminal would act on; the same report of the broken file.
    assert label.encode() not in p_err, p_err
    assert not CONTROL.search(p_err) and b"%" not in p_err, p_err
    assert b"broken.jsonl" in p_err or (name == "audit --json" and b"broken.jsonl" in p_out)
    # Standard output, and the files written, the same either way.
    assert t_out == p_out and t_files == p_files
    for rel in t_files:
        assert (t_dir / rel).read_bytes() == (p_dir / rel).read_bytes(), rel
    assert t_out or t_files


def test_no_bar_over_rows_streamed_to_the_same_terminal(club: Path, tmp_path: Path) -> None:
    """``export`` (and ``audit --json``) to a terminal: the rows are the progress; a bar would be drawn over them."""
    if not GINLOG.exists():
        pytest.skip(f"no console script at {GINLOG}")
    for args, label, row in ((["export", str(club), "--format", "csv"], "export", "file,match,title"),
                             (["audit", "--json", str(club)], "auditing", '"summary"')):
        code, _out, seen = on_a_terminal(args, tmp_path, stdout_too=True)
        text = seen.decode("utf-8", "replace")
        assert code == 1 and row in text, text[-2000:]
        assert DONE not in text and "\x1b[?25l" not in text, text[:2000]  # no count, the cursor never hidden
    # stats writes once the work is done: its bar shows even with standard output on the terminal
    code, _out, seen = on_a_terminal(["stats", str(club)], tmp_path, stdout_too=True)
    text = seen.decode("utf-8", "replace")
    assert code == 1 and DONE in text and "Standings" in text
