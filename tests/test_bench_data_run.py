"""The many-match benchmark runs end to end at a tiny size (no timing assertions)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from benchmarking import loaded


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_data")


@pytest.mark.slow  # every command over two corpora, about 5 CPU-s
def test_bench_data_runs(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    before = set(Path(bench.tempfile.gettempdir()).glob("bench-data-*"))
    assert bench.main(["--hands", "12", "--match-hands", "5", "--tiny", "15", "--repeat", "1", "--loads", "1"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"replay corpus: 3 files, 12 hands, [\d,]+ events", text), text
    assert "tiny corpus: 15 one-hand files" in text
    number = r"\s+[\d.]+\s+[\d.]+\s+[\d.]+x"
    for corpus in ("replay", "tiny"):
        part = text.split(f"over the {corpus} corpus:")[1].split("\n\n")[0]
        assert re.search(r"^audit --json" + number + r"\s*$", part, re.MULTILINE) and "1.00x" in part
        for command in ("stats --json", "export --format csv", "export --format jsonl"):
            assert re.search("^" + re.escape(command) + number + r"\s+(MET|MISSED)$", part, re.MULTILINE), (command, part)
        assert bool(re.search(r"^export --format parquet" + number, part, re.MULTILINE)) == bench.has_pyarrow()
        assert bool(re.search(r"^\(parquet: pyarrow's import, once per process, apart: [\d.]+ s wall, [\d.]+ s cpu\)$", part, re.MULTILINE)) == bench.has_pyarrow()
    assert re.search(r"^html DIR -o SITE" + number, text.split("over the tiny corpus:")[1], re.MULTILINE)
    assert re.search(r"16 hands, \d+ events: page \d+ KB, built in \d+ ms", text)
    assert set(Path(bench.tempfile.gettempdir()).glob("bench-data-*")) <= before  # cleaned up


@pytest.mark.slow  # (the default run's budget: the benchmark scripts are type-checked there, and run here with --run-slow)
def test_bench_data_without_the_page(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--hands", "4", "--match-hands", "4", "--tiny", "0", "--repeat", "1", "--no-page"]) == 0
    text = capsys.readouterr().out
    assert "over the replay corpus:" in text and "tiny corpus" not in text and "replay page" not in text
    # The rows of the run above, at this size (the default run's only run of the benchmark).
    number = r"\s+[\d.]+\s+[\d.]+\s+[\d.]+x"
    part = text.split("over the replay corpus:")[1].split("\n\n")[0]
    assert re.search(r"^audit --json" + number + r"\s*$", part, re.MULTILINE) and "1.00x" in part, part
    for command in ("stats --json", "export --format csv", "export --format jsonl"):
        assert re.search("^" + re.escape(command) + number + r"\s+(MET|MISSED)$", part, re.MULTILINE), (command, part)
