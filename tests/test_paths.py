"""The walk over paths (:mod:`ginlog.app.check.paths`): files, folders and globs found as a naive walk finds them,
streamed as they are found; folders nested past recursion and past PATH_MAX walked without recursion through
directory descriptors, so ``audit``, ``stats`` and ``export`` see every file they can open and say so, in one line,
of one they cannot (1,200 nested folders ended in a ``RecursionError`` traceback before)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginlog.app.check.paths import count_paths, iter_paths
from ginlog.errors import GinlogError

from deep_folders import remove_deep
from test_cli import exe

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "standard-match.jsonl"
#: Past PATH_MAX (two bytes a level) and past Python's recursion limit; the 10,000 of the issue run with --run-slow.
DEPTH = 2_500


def _naive(args: list[str]) -> tuple[list[str], list[str]]:
    """What the arguments name, the slow plain way: whole sorted listings, links to folders resolved and seen once."""
    files: list[str] = []
    problems: list[str] = []
    seen_dirs: set[str] = set()
    seen_files: set[str] = set()

    def folder(root: str, quiet: bool = False) -> None:
        again = os.path.realpath(root) in seen_dirs  # the same folder by another name: its files were listed
        found = []
        stack = [root]
        while stack:
            f = stack.pop()
            real = os.path.realpath(f)
            if real in seen_dirs:
                continue
            seen_dirs.add(real)
            subs = []
            for name in sorted(os.listdir(f)):
                full = os.path.join(f, name)
                if os.path.isdir(full):
                    subs.append(full)
                elif name.endswith(".jsonl"):
                    found.append(full)
            stack.extend(reversed(subs))
        found = [x for x in sorted(found) if os.path.normpath(x) not in seen_files]
        if not found and not quiet and not again:
            problems.append(root)
        files.extend(found)

    def file(p: str) -> None:
        listed = p.endswith(".jsonl") and os.path.realpath(os.path.dirname(os.path.abspath(p))) in seen_dirs
        if os.path.normpath(p) in seen_files or listed:
            return
        seen_files.add(os.path.normpath(p))
        files.append(p)

    for p in args:
        if p == "-":
            if "-" not in files:
                files.append(p)
        elif os.path.isdir(p):
            folder(p)
        elif os.path.exists(p):
            file(p)
        elif any(c in p for c in "*?["):
            # bash itself (globstar: ** crosses no link to a folder; nullglob: no match, no words)
            sh = subprocess.run(["bash", "-O", "globstar", "-O", "nullglob", "-c", 'printf "%s\\0" ' + p.replace(" ", "\\ ")],
                                stdout=subprocess.PIPE, check=True)
            hits = sorted(h.decode() for h in sh.stdout.split(b"\0") if h)
            if not hits:
                problems.append(p)
            for h in hits:
                folder(h, quiet=True) if os.path.isdir(h) else file(h)
        else:
            problems.append(p)
    return files, problems


def test_paths_stream_as_the_naive_walk_finds_them(tmp_path: Path) -> None:
    for name in ("b.jsonl", "b/x.jsonl", "b0.jsonl", "B.jsonl", "é.jsonl", "dir.jsonl/in.jsonl", "real/r.jsonl",
                 "a b/c.jsonl", "notes.txt", "empty/notes.txt"):
        p = tmp_path / "d" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")
    (tmp_path / "d" / "link").symlink_to(tmp_path / "d" / "real")
    (tmp_path / "d" / "real" / "loop").symlink_to(tmp_path / "d")
    (tmp_path / "d" / "lf.jsonl").symlink_to(tmp_path / "d" / "real" / "r.jsonl")
    d = str(tmp_path / "d")
    for args in (
        [d, d + "/", d + "/./b", f"{d}/**/*.jsonl", f"{d}/nothing*.jsonl", f"{d}/missing.jsonl", f"{d}/b.jsonl", "-", "-"],
        [f"{d}/b.jsonl", f"{d}/real/r.jsonl", d, f"{d}/empty"],
        [f"{d}/link", f"{d}/real", f"{d}/*"],
    ):
        got = list(iter_paths(args))
        files, problems = _naive(args)
        assert [g for g in got if isinstance(g, str)] == files, args
        assert [e.path for e in got if isinstance(e, GinlogError)] == problems, args
        assert count_paths(args) == len(got)
    # the link to real/ is followed, but real/ (and its loop back up) is searched once
    walked = [p for p in iter_paths([d]) if isinstance(p, str)]
    assert sum(p.endswith("r.jsonl") for p in walked) == 1 and len(walked) == len(set(walked))


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
    remove_deep(root)


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
