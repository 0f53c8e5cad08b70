"""The CLI start-up benchmark runs end to end at a tiny size (no timing assertions)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from benchmarking import loaded
from ginlog.match.reading import read_match


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_cli")


def test_bench_match_is_legal_and_ends_between_hands(bench: ModuleType, tmp_path: Path) -> None:
    events, hands = bench.build_events(40, seed=2)
    assert len(events) >= 40 and hands >= 1
    path = tmp_path / "m.jsonl"
    bench.write_match(path, events)
    report = read_match(path)
    assert report.ok and report.lines == len(events)
    assert report.state is not None and report.state.phase == "ready"  # so the benchmark's entry ('upcard 7h') is legal next
    assert report.state.rules.game_target == 10**9


@pytest.mark.slow  # (the default run's budget: the benchmark scripts are type-checked there, and run here with --run-slow)
def test_bench_cli_runs(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(["--events", "30", "--repeat", "1", "--warmup", "0"])
    assert code == 0
    text = capsys.readouterr().out
    for row in (
        r"match: [\d,]+ events, \d+ hands, \d+ KB",
        r"command\s+median ms\s+min ms\s+x bare",
        r"python -c pass\s+[\d.]+\s+[\d.]+\s+1\.00x",
        r"python -c \"import ginlog\.app\.cli\"\s+[\d.]+\s+[\d.]+\s+[\d.]+x",
        r"ginlog play MATCH 'upcard 7h'\s+[\d.]+\s+[\d.]+\s+[\d.]+x",
        r"ginlog score MATCH\s+[\d.]+\s+[\d.]+\s+[\d.]+x",
        r"ginlog play SMALL 'upcard 7h'\s+[\d.]+\s+[\d.]+\s+[\d.]+x",
        r"play above the bare interpreter: -?[\d.]+ ms \(-?[\d.]+ ms of it on a two-event match",
        r"play / bare interpreter: [\d.]+x \(target: at most 4x the bare interpreter start\): (MET|MISSED)",
        r"python -X importtime, play path \(one run, appended 1 event\): top \d+ by cumulative time",
        r"module\s+cumulative ms\s+self ms",
    ):
        assert re.search(row, text), f"no row matching {row!r} in:\n{text}"
    imports = text.split("self ms\n", 1)[1].strip().splitlines()
    assert len(imports) == 10
    names = [line.split()[0] for line in imports]
    assert any(n.startswith("ginlog.") for n in names)
    assert not any(n.split(".")[0] in ("typer", "rich") for n in names)  # the fast path skips them
