"""The default test run's CPU (the whole process tree), before and after, in one run: the budget of issue 19.

    python benchmarks/bench_test_run.py [--base REV] [--rounds 2] [--top 15] [--children] [-- PYTEST_ARGS...]

The revision ``--base`` (default: where this branch left ``main``, ``git merge-base HEAD main``) is extracted
with ``git archive`` into a temporary folder; then ``python -m pytest --cpu-durations 5000`` (the README's test
command, with the per-test table) runs in it and in this checkout, taking turns ``--rounds`` times (before,
after, before, ...), each in its own tree (its folder first on ``PYTHONPATH``, the same interpreter and
dependencies). Each run's figure is the ``CPU:`` line the suite prints at its end (``tests/conftest.py``: this
process and every child it waited for, as ``/usr/bin/time`` counts it). Printed: each round's two figures and
their ratio, the best of each, and the heaviest files (the per-test CPU summed per file, from each side's best
round). The budget is 120 CPU-s for the default run (``docs/PERFORMANCE.md``).

``--children`` also loads ``bench_test_children`` (a pytest plugin beside this script) into both runs: every
child the test process reaps is counted by what it ran (a fork of the test process, a fresh interpreter, the
executable, Chromium's driver, ...), with ``os.wait4``'s CPU of each: where the children's part of the run goes.

On a shared machine the load moves between rounds: compare the two figures of one round, and keep the best.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from revisions import base_commit, extract, git

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
CPU_LINE = re.compile(r"^CPU: ([\d.]+) s \(this process ([\d.]+) s, children ([\d.]+) s\)$", re.M)
TEST_LINE = re.compile(r"^ *([\d.]+)s  (\S+?)(?:::\S+)?(?:  \(.*\))?$", re.M)
CHILDREN_FILE = "children.tsv"


@attrs.frozen
class Run:
    """One test run: its ``CPU:`` figures, its exit status, the per-test CPU summed per file, the children's."""

    total: float
    this: float
    children: float
    status: int
    files: dict[str, float]
    kinds: dict[str, tuple[int, float]]


def parse(text: str, status: int, kinds: dict[str, tuple[int, float]] | None = None) -> Run:
    """A run from what ``python -m pytest --cpu-durations N`` printed (its last ``CPU:`` line, its table)."""
    found = CPU_LINE.findall(text)
    if not found:
        raise ValueError("no 'CPU: ...' line: not a run of this project's tests (tests/conftest.py prints it)")
    total, this, children = (float(x) for x in found[-1])
    table = text.split("most CPU", 1)[1] if "most CPU" in text else ""
    files: dict[str, float] = {}
    for seconds, path in TEST_LINE.findall(table):
        files[path] = files.get(path, 0.0) + float(seconds)
    return Run(total, this, children, status, files, kinds or {})


def kind_of(argv: str) -> str:
    """What a reaped child ran, in a few words (``fork``, ``python -c``, ``ginlog``, ``node``, ...)."""
    words = argv.split()
    if not words:
        return "unknown"
    if words[0] == "fork":
        return "fork of the test process"
    if words[0] != "popen":
        return "started otherwise (pty.fork, a pool's worker)"
    name = Path(words[1]).name if len(words) > 1 else "?"
    if name.startswith("python") and len(words) > 2:
        nxt = words[2]
        return f"python {nxt}" if nxt.startswith("-") else f"python {Path(nxt).name}"
    return name


def children(path: Path) -> dict[str, tuple[int, float]]:
    """The plugin's rows (``CPU<TAB>test<TAB>what``), counted and summed by :func:`kind_of`."""
    kinds: dict[str, tuple[int, float]] = {}
    if not path.exists():
        return kinds
    for row in path.read_text(encoding="utf-8", errors="replace").splitlines():
        cpu, _test, argv = (row.split("\t", 2) + ["", ""])[:3]
        n, s = kinds.get(kind_of(argv), (0, 0.0))
        kinds[kind_of(argv)] = (n + 1, s + float(cpu))
    return kinds


def run_suite(tree: Path, pytest_args: Sequence[str], *, with_children: bool = False) -> Run:
    """``python -m pytest --cpu-durations 5000 ARGS`` in ``tree``, with ``tree`` first on ``PYTHONPATH``."""
    with tempfile.TemporaryDirectory(prefix="bench-test-run-") as scratch:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), *([str(HERE)] if with_children else [])])}
        extra = ["-p", "bench_test_children"] if with_children else []
        if with_children:
            env["BENCH_TEST_CHILDREN"] = str(Path(scratch) / CHILDREN_FILE)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cpu-durations",
                               "5000", *extra, *pytest_args], cwd=tree, env=env, capture_output=True, text=True)
        kinds = children(Path(scratch) / CHILDREN_FILE) if with_children else {}
    return parse(done.stdout, done.returncode, kinds)


def report(before: list[Run], after: list[Run], commit: str, top: int) -> str:
    """The figures: each round, the best of each side and its ratio, the heaviest files, the children."""
    lines = [f"the default test run's CPU (CPU-s, the whole process tree): before = {commit[:12]}, after = this checkout"]
    for i, (b, a) in enumerate(zip(before, after), 1):
        failed = "".join(f"  ({who} exited {r.status})" for who, r in (("before", b), ("after", a)) if r.status)
        lines.append(f"  round {i}: before {b.total:7.1f} (children {b.children:6.1f})   after {a.total:7.1f} "
                     f"(children {a.children:6.1f})   after ÷ before {a.total / b.total:.2f}{failed}")
    best_b, best_a = min(before, key=lambda r: r.total), min(after, key=lambda r: r.total)
    lines.append(f"  best:    before {best_b.total:7.1f}   after {best_a.total:7.1f}   after ÷ before "
                 f"{best_a.total / best_b.total:.2f}   budget 120: {'met' if best_a.total < 120 else 'missed'}")
    lines.append(f"  the heaviest files (per-test CPU summed per file, each side's best round; top {top}):")
    names = sorted(set(best_b.files) | set(best_a.files), key=lambda f: -max(best_b.files.get(f, 0), best_a.files.get(f, 0)))
    for name in names[:top]:
        lines.append(f"    {name:<44} {best_b.files.get(name, 0.0):6.2f} {best_a.files.get(name, 0.0):6.2f}")
    if best_b.kinds or best_a.kinds:
        lines.append("  the children, by what they ran (count, CPU-s), each side's best round:")
        for kind in sorted(set(best_b.kinds) | set(best_a.kinds), key=lambda k: -max(best_b.kinds.get(k, (0, 0))[1],
                                                                                     best_a.kinds.get(k, (0, 0))[1])):
            (nb, sb), (na, sa) = best_b.kinds.get(kind, (0, 0.0)), best_a.kinds.get(kind, (0, 0.0))
            lines.append(f"    {kind:<44} {nb:5d} {sb:6.2f}   {na:5d} {sa:6.2f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--base", default=None, help="the revision before (default: git merge-base HEAD main)")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each, taking turns (default 2)")
    ap.add_argument("--top", type=int, default=15, help="how many of the heaviest files to list (default 15)")
    ap.add_argument("--children", action="store_true", help="count the reaped children by what they ran")
    ap.add_argument("pytest_args", nargs="*", help="after --: passed to pytest (a file, -k ...)")
    args = ap.parse_args(argv)
    commit = base_commit(args.base)
    before: list[Run] = []
    after: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench-test-base-") as tmp:
        tree = extract(commit, Path(tmp) / "tree")
        for _ in range(args.rounds):
            before.append(run_suite(tree, args.pytest_args, with_children=args.children))
            after.append(run_suite(ROOT, args.pytest_args, with_children=args.children))
    print(report(before, after, commit, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
