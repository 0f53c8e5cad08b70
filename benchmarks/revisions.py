"""Another revision of this checkout, for the benchmarks that time it against this one in the same run.

``bench_audit``, ``bench_page``, ``bench_seals`` and ``bench_test_run`` each put a revision's code first on
``PYTHONPATH`` (or run its whole suite) beside this checkout's, turn by turn, so that the machine's drift hits
both alike. This is the one way they name that revision and write it out::

    commit = base_commit(None)                  # where this branch left main
    tree = extract(commit, Path(tmp) / "before", "ginlog", compiled=True)

*Why ``git archive``, not a worktree:* the tree is only read, it needs no index or branch of its own, and
nothing is left behind in the repository when the benchmark stops.
"""

from __future__ import annotations

import compileall
import io
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ROOT", "git", "base_commit", "extract"]


def git(*args: str) -> str:
    """``git ARGS`` in this checkout, its output stripped (an error raises)."""
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def base_commit(rev: str | None) -> str:
    """The commit to compare with: ``rev``, or where this branch left main."""
    return git("rev-parse", rev) if rev else git("merge-base", "HEAD", "main")


def extract(commit: str, into: Path, *paths: str, compiled: bool = False) -> Path:
    """``paths`` of ``commit`` (all of its tree if none), written under ``into`` (made if missing); ``compiled``:
    byte-compiled there too, as an installed package is, so that no timed round pays for compiling."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, *paths], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    if compiled:
        compileall.compile_dir(into, quiet=1)
    return into
