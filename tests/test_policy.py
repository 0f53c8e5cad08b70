"""Issue 19: one reading policy, so bounded memory on damaged input in every command that reads a match.

Before, with 100,000 bad lines: ``stats --json`` 198 MB, ``export`` 151 MB,
``html -o`` 168 MB, the site 189 MB (every problem kept); now each stays at
its start-up size. The default run compares 2,000 with 12,000 bad lines per
command (memory must not grow with the damage: it grew 1 to 1.5 KB a line
before, 10 to 15 MB here); ``--run-slow`` runs a million bad lines against
the 100 MB target (``benchmarks/bench_verdict_memory.py`` prints the table).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from benchmarking import loaded
from ginlog.match.policy import POLICY, Policy
from ginlog.match.reading import FinalState, read
from ginlog.match.visitors import Steps

COMMANDS = ("audit", "validate", "score", "show", "replay", "stats", "export", "html", "site")
#: In the default run, the commands whose memory grew with the damage before one policy (the rest: --run-slow).
GREW = ("stats", "export", "html", "site")


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    yield from loaded("bench_verdict_memory")


def _peak(bench: ModuleType, root: Path, bad_lines: int, command: str) -> tuple[int, int]:
    folder, out = root / f"club{bad_lines}", root / f"out{bad_lines}"
    folder.mkdir(exist_ok=True)
    out.mkdir(exist_ok=True)
    match = folder / "damaged.jsonl"
    if not match.exists():
        bench.damaged(match, bad_lines)
    rss, code, _stdout, stderr = bench.run(bench.commands(match, folder, out)[command])
    assert b"Traceback" not in stderr, stderr[-2000:]
    return rss, code


@pytest.mark.parametrize("command", [c if c in GREW else pytest.param(c, marks=pytest.mark.slow) for c in COMMANDS])
def test_memory_does_not_grow_with_the_damage(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory,
                                              command: str) -> None:
    root = tmp_path_factory.getbasetemp() / "policy-memory"
    root.mkdir(exist_ok=True)
    small, code_small = _peak(bench, root, 2_000, command)
    large, code_large = _peak(bench, root, 12_000, command)
    assert code_small == code_large == 1
    grown = (large - small) / 2**20
    assert grown < 5, f"{command}: {grown:.1f} MB more for 10,000 more bad lines"


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_million_bad_lines_within_the_target(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory,
                                               command: str) -> None:
    root = tmp_path_factory.getbasetemp() / "policy-memory-slow"
    root.mkdir(exist_ok=True)
    rss, code = _peak(bench, root, 1_000_000, command)
    assert code == 1 and rss < bench.TARGET_MB * 2**20, f"{command}: {rss / 2**20:.0f} MB"


def test_the_policy_keeps_its_cap_in_every_visitor(tmp_path: Path) -> None:
    """One default: the same ``keep``, the same counts, whichever visitor reads (Steps kept all before)."""
    path = tmp_path / "x.jsonl"
    sample = Path(__file__).resolve().parent.parent / "sample_games" / "score-pad-match.jsonl"
    path.write_bytes(sample.read_bytes() + b"x\n" * 500)
    final = read(path, FinalState(policy=POLICY))
    steps = Steps(policy=POLICY)
    read(path, steps)
    stepped = steps.report()
    assert len(final.errors) == len(stepped.errors) == POLICY.keep
    assert final.errors_total == stepped.errors_total == 500
    assert [w.rule for w in final.warnings] == [w.rule for w in stepped.warnings] == ["score-pad"]
    few = Policy(keep=3, warnings=False)
    report = read(path, FinalState(policy=few))
    assert len(report.errors) == 3 and report.errors_total == 500 and report.warnings == ()
