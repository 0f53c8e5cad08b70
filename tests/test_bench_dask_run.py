"""The Dask benchmark runs end to end at a tiny size (``--run-slow``: it starts two LocalClusters). No timing is
asserted: only that each figure is printed."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_dask.py"


@pytest.mark.slow
def test_bench_dask_prints_its_figures() -> None:
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("Dask is not installed")
    out = subprocess.run([sys.executable, str(BENCH), "--small", "30", "--big", "2", "--big-bytes", "20000"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    for label in (r"30 small files \([\d,]+ B\)", r"2 big files \([\d,]+ B\)"):
        assert re.search(rf"^{label}:$", out.stdout, re.M), out.stdout
    rows = re.findall(r"^  (pool|cluster) +[\d.]+ CPU-s +[\d.]+ ms a file +[\d.]+ s wall +client peak +[\d.]+ MB$",
                      out.stdout, re.M)
    assert rows == ["pool", "cluster"] * 2, out.stdout
    assert len(re.findall(r"^  cluster ÷ pool \(CPU\): [\d.]+$", out.stdout, re.M)) == 2
    assert re.search(r"^ goal: .* (met|missed)$", out.stdout, re.M), out.stdout
