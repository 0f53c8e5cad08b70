"""Folders nested past recursion and past PATH_MAX: walked without recursion through directory descriptors, so
``audit``, ``stats`` and ``export`` see every file they can open and say so, in one line, of one they cannot
(1,200 nested folders ended in a ``RecursionError`` traceback before)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginlog.app.check.paths import iter_paths

from test_cli import exe

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "standard-match.jsonl"
#: Past PATH_MAX (two bytes a level) and past Python's recursion limit; the 10,000 of the issue run with --run-slow.
DEPTH = 2_500


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Made once for the module (read only by the tests)."""
    yield from _deep(tmp_path_factory.mktemp("deep"), DEPTH)


@pytest.fixture
def deeper(tmp_path: Path) -> Iterator[Path]:
    yield from _deep(tmp_path, 10_000)


def _deep(tmp_path: Path, depth: int) -> Iterator[Path]:
    """``root/d/d/.../d`` DEPTH deep (twice that in bytes of path), a match at depth 10 and one at the bottom."""
    root = tmp_path / "root"
    root.mkdir()
    data = SAMPLE.read_bytes()
    fds = [os.open(root, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        for level in range(1, depth + 1):
            os.mkdir("d", dir_fd=fds[-1])
            fd = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fds[-1])
            os.close(fds.pop())
            fds.append(fd)
            if level in (10, depth):
                out = os.open("m.jsonl", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=fd)
                os.write(out, data)
                os.close(out)
    finally:
        for fd in fds:
            os.close(fd)
    yield root
    _remove_chain(root)


def _remove_chain(root: Path) -> None:
    """Remove root/d/d/...: each round lifts d/d into d's place and removes d, so no path ever grows long
    (shutil.rmtree recurses, and would fail at this depth)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        while "d" in os.listdir(fd):
            sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            try:
                for name in os.listdir(sub):
                    if name == "d":
                        os.rename("d", "next", src_dir_fd=sub, dst_dir_fd=fd)
                    else:
                        os.unlink(name, dir_fd=sub)
            finally:
                os.close(sub)
            os.rmdir("d", dir_fd=fd)
            if "next" in os.listdir(fd):
                os.rename("next", "d", src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)
    shutil.rmtree(root)


def test_the_walk_finds_the_file_it_can_open_and_names_the_one_it_cannot(deep: Path) -> None:
    items = list(iter_paths([str(deep)]))
    files = [i for i in items if isinstance(i, str)]
    problems = [i for i in items if not isinstance(i, str)]
    assert files == [os.path.join(str(deep), *["d"] * 10, "m.jsonl")]
    assert len(problems) == 1 and "past the system's limit" in problems[0].message


@pytest.mark.parametrize("command", [["audit"], ["stats"], ["export"]])
def test_commands_over_a_deep_tree_say_one_line_and_no_traceback(deep: Path, command: list[str]) -> None:
    run = exe(*command, deep)
    assert "Traceback" not in run.stderr and "RecursionError" not in run.stderr, run.stderr[-2000:]
    assert run.returncode == 1  # the file that cannot be opened is a problem, never a skip
    said = [line for line in run.stderr.splitlines() if "past the system's limit" in line]
    assert len(said) == 1


@pytest.mark.slow
def test_ten_thousand_nested_folders_are_walked(deeper: Path) -> None:
    run = exe("audit", deeper, "--json")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    files = json.loads(run.stdout)["files"]
    # In the walk's order (a folder's sub-folders before a name after them): the one past PATH_MAX, named;
    # then the file at depth 10, audited.
    assert [f["ok"] for f in files] == [False, True]
    assert "past the system's limit" in files[0]["errors"][0]["message"] and files[1]["hands"] > 0
