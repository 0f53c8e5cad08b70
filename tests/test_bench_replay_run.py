"""The replay benchmark runs end to end at a tiny size (no timing assertions)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from benchmarking import loaded
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession

TS = "2026-11-29T19:56:25.123Z"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_replay")


@pytest.mark.slow  # (the default run's budget: the benchmark scripts are type-checked there, and run here with --run-slow)
def test_bench_replay_runs(bench: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The files the benchmark builds in memory are byte for byte what ginlog's writer writes.
    events = bench.simulate_match(bench.long_rules(), seed=5, max_hands=3)
    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "theirs.jsonl"
    bench.write_match(mine, events, TS)
    MatchSession.write(theirs, events, clock=lambda: TS)
    assert mine.read_bytes() == theirs.read_bytes()
    assert read_match(mine).ok

    out_dir = tmp_path / "out"
    code = bench.main(["--hands", "20", "--match-hands", "8", "--big-mb", "1", "--seed", "3",
                       "--out", str(out_dir), "--profile"])
    assert code == 0
    text = capsys.readouterr().out
    for row in (
        r"corpus: 3 match files .* 20 hands, [\d,]+ events",
        r"corpus read \(in a fresh process, best of 1; rates per CPU second, i\.e\. per core\):",
        r"floor \(json\.loads \+ sha256\)\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+[\d,]+",
        r"ginlog read_match\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+[\d,]+",
        r"ginlog / floor \(time\)\s+[\d.]+x",
        r"ginlog vs OpenSpiel C\+\+ replay \(575 hands/s\)\s+[\d.]+x\s+(faster|slower)",
        r"ginlog vs target \(3,000 hands/s per core\)\s+[\d.]+x\s+(MET|MISSED)",
        r"long match: 1\.\d MB, [\d,]+ hands, [\d,]+ events",
        r"import ginlog only \(baseline\)\s+[\d.]+\s+[\d.]+\s+[\d.]+",
        r"read_match\(long match\)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+[\d,]+",
        r"read_match - baseline\s+-?[\d.]+",
        r"peak RSS target \(< 100 MB\): (MET|MISSED) \([\d.]+ MB\)",
        r"profile of read_match over the corpus \(3 files\), top 15 by tottime:",
        r"function \(by tottime\)\s+calls\s+tottime s\s+share\s+cumtime s",
    ):
        assert re.search(row, text), f"no row matching {row!r} in:\n{text}"
    profile_rows = text.split("top 15 by tottime:")[1].strip().splitlines()[2:]
    assert len(profile_rows) == 15
    # Generated data is cleaned up.
    assert out_dir.is_dir() and not any(out_dir.iterdir())


def test_bench_replay_can_time_in_process(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(["--hands", "6", "--match-hands", "3", "--big-mb", "0", "--in-process"])
    assert code == 0
    text = capsys.readouterr().out
    assert re.search(r"corpus read \(in this process, best of 1;", text)
    assert re.search(r"ginlog read_match\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+[\d,]+", text)
