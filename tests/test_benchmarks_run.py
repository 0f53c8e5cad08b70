"""The benchmark scripts run end to end at a tiny size (no timing assertions)."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from ginlog.game.melds import min_deadwood

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def bench_melds() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("bench_melds", BENCHMARKS / "bench_melds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_melds"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("bench_melds", None)


def test_bench_melds_runs(bench_melds: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_melds.main(["--n", "50", "--seed", "3", "--repeat", "2"]) == 0
    text = capsys.readouterr().out
    assert "50 hands per set, seed 3, 2 calls per hand" in text
    number = r"\d+\.\d\d"
    for hands in ("random", "meld-rich"):
        for call in ("deadwood_of_mask", "min_deadwood", "best_arrangement"):
            row = rf"^{hands}\s+{call}\s+{number}\s+{number}\s+{number}\s+{number}$"
            assert re.search(row, text, re.MULTILINE), f"no row matching {row!r} in:\n{text}"
    assert "reference medians: RLCard 11 / 40 µs, OpenSpiel 1 / 3 µs" in text
    target = rf"target: median ≤ 5 µs on meld-rich hands \(deadwood_of_mask\): {number} µs, (MET|MISSED)"
    assert re.search(target, text), text

    # The hand sets are what they say: ten distinct cards; every meld-rich hand holds a meld.
    rng = random.Random(7)
    rich = [bench_melds.meld_rich_hand(rng) for _ in range(100)]
    plain = [bench_melds.random_hand(rng) for _ in range(100)]
    assert all(len(h) == 10 and len(set(h)) == 10 for h in rich + plain)
    assert all(min_deadwood(h) < sum(c.value for c in h) for h in rich)
