"""The test run's CPU benchmark (``benchmarks/bench_test_run.py``) at a tiny size: one test, this commit against
itself. No timing is asserted: only that each figure is read and printed."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from benchmarking import loaded

ROOT = Path(__file__).resolve().parent.parent
#: One test that runs the executable once (a fork of the test process): the children's table has a row.
ONE = "tests/test_undoing.py::test_play_undo_of_a_finished_match_needs_reopen"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_test_run")


def test_a_run_is_read_from_what_the_suite_prints(bench: ModuleType) -> None:
    text = ("....\n===== most CPU (3 tests; this process and the children waited for) =====\n"
            "   1.50s  tests/test_a.py::test_x[1]\n   0.25s  tests/test_a.py::test_y\n"
            "   5.00s  tests/test_b.py::test_z  (and the session's tear-down: the browser's CPU)\n"
            "CPU: 9.9 s (this process 4.4 s, children 5.5 s)\n")
    run = bench.parse(text, 0)
    assert (run.total, run.this, run.children) == (9.9, 4.4, 5.5)
    assert run.files == {"tests/test_a.py": 1.75, "tests/test_b.py": 5.0}
    with pytest.raises(ValueError, match="no 'CPU: ...' line"):
        bench.parse("3 passed\n", 0)
    assert bench.kind_of("fork /venv/bin/ginlog audit x") == "fork of the test process"
    assert bench.kind_of("popen /venv/bin/python -c code") == "python -c"
    assert bench.kind_of("popen /usr/bin/ssh-keygen -Y verify") == "ssh-keygen"
    assert bench.kind_of("?").startswith("started otherwise")


CANNED = ("===== most CPU (1 tests; this process and the children waited for) =====\n"
          f"   0.30s  {ONE}\nCPU: 1.5 s (this process 1.2 s, children 0.3 s)\n")


@pytest.mark.parametrize("real", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["canned", "one-test"])
def test_a_tiny_run_against_itself_prints_every_figure(bench: ModuleType, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, real: bool) -> None:
    """The base extracted, both sides run, every figure printed. In the default run the runs are what a run prints
    and the base's tree a stand-in (a child pytest and the extraction are 1.5 CPU-s of the budget); with
    --run-slow the whole tree is extracted and one test really runs, with the children plugin loaded."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the benchmark takes the revision before from git")
    runner = bench.run_suite
    runs: list[Any] = []

    def once(tree: Path, args: list[str], *, with_children: bool = False) -> Any:
        # The base's tree is extracted and used as given; both sides are one run (the same commit).
        assert tree.is_dir() and (tree / "tests" / "conftest.py").is_file() and args == [ONE]
        if not runs:
            kinds = {"fork of the test process": (1, 0.03)}
            runs.append(runner(ROOT, args, with_children=with_children) if real else bench.parse(CANNED, 0, kinds))
        return runs[0]

    monkeypatch.setattr(bench, "run_suite", once)
    if not real:  # (extracting the whole tree is half a CPU-second: the slow run does it)
        def extract(commit: str, into: Path) -> Path:
            assert re.fullmatch("[0-9a-f]{40}", commit)
            (into / "tests").mkdir(parents=True)
            (into / "tests" / "conftest.py").write_text("")
            return into

        monkeypatch.setattr(bench, "extract", extract)
    assert bench.main(["--base", "HEAD", "--rounds", "1", "--children", "--", ONE]) == 0
    out = capsys.readouterr().out
    assert runs and runs[0].status == 0 and runs[0].total > 0, runs
    assert re.search(r"before = [0-9a-f]{12}, after = this checkout", out), out
    assert re.search(r"^  round 1: before +[\d.]+ \(children +[\d.]+\)   after +[\d.]+ .*after ÷ before 1\.00$", out, re.M), out
    assert re.search(r"^  best: .* budget 120: (met|missed)$", out, re.M), out
    assert re.search(r"^    tests/test_undoing\.py +[\d.]+ +[\d.]+$", out, re.M), out
    assert re.search(r"^    fork of the test process +1 +[\d.]+ +1 +[\d.]+$", out, re.M), out
