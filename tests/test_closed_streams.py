"""A standard stream closed by the caller (``<&-``, ``>&-``) is the end of input or output dropped: never a
traceback (issue 20's crash class), and what the command writes to the file is what it would write anyway."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forked import can_fork, run_forked
from test_cli import GINLOG, HAND, exe

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "standard-match.jsonl"


def closed(fd: int, *args: object) -> subprocess.CompletedProcess[str]:
    """Run ``ginlog ARGS`` with descriptor ``fd`` closed in the child, output captured on the others (forked where
    it can be: tests/forked.py, whose child sees a closed stream as a fresh interpreter does, as None)."""
    env = dict(os.environ)
    if can_fork(env):
        got = run_forked([str(GINLOG), *map(str, args)], input=b"", env=env, cwd=None, timeout=120,
                         prepare=lambda: os.close(fd))
        return subprocess.CompletedProcess(got.args, got.returncode, got.stdout.decode(), got.stderr.decode())
    keep = subprocess.PIPE
    return subprocess.run(
        [sys.executable, str(GINLOG), *map(str, args)], stdout=None if fd == 1 else keep,
        stderr=None if fd == 2 else keep, text=True, timeout=120, preexec_fn=lambda: os.close(fd),
    )


@pytest.fixture
def match(tmp_path: Path) -> Path:
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    return m


@pytest.mark.parametrize("args", [["record", "{m}"], ["replay", "--step", "{sample}"], ["replay", "{sample}"],
                                  ["score", "-"], ["audit", "-"], ["show", "{m}"]])
def test_closed_standard_input_is_no_input(match: Path, args: list[str]) -> None:
    before = match.read_bytes()
    run = closed(0, *[a.format(m=match, sample=SAMPLE) for a in args])
    assert "Traceback" not in run.stderr and run.returncode in (0, 1), run.stderr
    assert match.read_bytes() == before  # nothing to record, nothing recorded


def test_closed_standard_output_still_records(match: Path) -> None:
    run = closed(1, "play", match, *HAND)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert exe("validate", match).returncode == 0 and match.read_bytes().count(b"\n") == 1 + len(HAND)
