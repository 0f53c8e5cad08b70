"""The two-revision benchmark runs end to end at a tiny size, this checkout against itself (no timing assertions)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_revisions.py"


@pytest.mark.slow  # (the default run's budget: the benchmark scripts are type-checked there, and run here with --run-slow)
def test_bench_revisions_runs_against_itself() -> None:
    if not (ROOT / ".venv" / "bin" / "ginlog").exists():
        pytest.skip(f"the benchmark runs checkouts installed in DIR/.venv; {ROOT}/.venv has no ginlog")
    out = subprocess.run(
        [sys.executable, str(BENCH), "--base", str(ROOT), "--hands", "20", "--rounds", "1", "--play-runs", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    for reader in ("floor", "base", "new"):
        assert re.search(rf"^  {reader}\s+[\d,]+\s+[\d.]+×$", out.stdout, re.M), out.stdout
    assert len(re.findall(r"new ÷ base \(time\): [\d.]+$", out.stdout, re.M)) == 2, out.stdout
    assert re.search(r"new: ginlog play\s+[\d.]+ ms\s+[\d.]+×", out.stdout), out.stdout
