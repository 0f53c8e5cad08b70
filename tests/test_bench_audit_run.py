"""The audit benchmark (bare loop, before, after) runs end to end at a tiny size, this commit against itself.

No timing is asserted: only that each figure is printed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_audit.py"


def test_bench_audit_prints_its_figures() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the benchmark takes the revision before from git")
    out = subprocess.run(
        [sys.executable, str(BENCH), "--hands", "3", "--rounds", "1", "--base", "HEAD", "--parts"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert re.search(r"^audit --jobs 1: 3 imported OpenSpiel hands, [\d,]+ lines", out.stdout, re.M), out.stdout
    for who in ("bare loop", "before: audit at [0-9a-f]{12}", "after:  audit at [0-9a-f]+"):
        found = re.findall(rf"^  {who}.*?\s([\d.]+) s \(([\d.]+)\)\s+([\d.]+)× bare \(rounds: ([\d.]+)×\)$", out.stdout, re.M)
        assert len(found) == 2, (who, out.stdout)  # the whole process, and after the start-up
    assert len(re.findall(r"^  after ÷ before \(time\): [\d.]+ \(rounds: [\d.]+\)$", out.stdout, re.M)) == 2, out.stdout
    assert re.search(r"^ goal: .* (met|missed)$", out.stdout, re.M), out.stdout
    assert len(re.findall(r"^  \S.*\s[\d.]+ s\s+[\d.]+× bare$", out.stdout, re.M)) == 7, out.stdout  # --parts
    assert re.search(r"^  the reader and the rules alternating, against the two alone in turn: [\d.]+×", out.stdout, re.M), out.stdout
