"""``--jobs`` is capped at a few times the CPUs, with one line saying so (issue 20, item 6: ``--jobs 300`` started
300 processes for one file, and a huge value was a fork bomb)."""

from __future__ import annotations

from pathlib import Path

from ginlog.app.check.verdicts import MAX_JOBS

from test_cli import exe

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "standard-match.jsonl"


def test_a_huge_jobs_is_cut_to_the_cap_in_one_line() -> None:
    run = exe("audit", SAMPLE, "--jobs", "1000000", "--quiet")
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if "--jobs" in line]
    assert said == [f"ginlog: --jobs 1000000 is more than {MAX_JOBS} (4 a CPU): using {MAX_JOBS}"]


def test_jobs_within_the_cap_says_nothing() -> None:
    run = exe("audit", SAMPLE, "--jobs", "2", "--quiet")
    assert run.returncode == 0 and "--jobs" not in run.stderr
