"""Issue 13's hostile-input campaign, small: one test per check, against ``ginlog`` as a user runs it.

Every check runs the real executable in a child process (on pipes, and on a
pseudo-terminal where the terminal is the target), under a timeout, on
generated inputs (hypothesis) plus the issue's own examples. The engine is in
``tests/reliability/``: ``hostile_campaign.py`` (running the executable, what
its output may hold, tallies, the list of checks), ``hostile_inputs.py``
(forged files, strategies), ``hostile_checks.py``, ``hostile_records.py`` and
``hostile_edges.py`` (the classes; the last: the recorder's history file,
``new --rematch``, ``NAME +POINTS``, ``-o`` paths).
``benchmarks/reliability.py --hostile N`` runs the same with N examples per
class and prints the figures.

The default run tries the classes in ``QUICK`` (each with its own examples and
one generated input: about 4 CPU-s in all, and 4 more for issue 20's nine classes);
``--run-slow`` tries every class (about 50 CPU-s), the others being marked ``slow``.
The long runs of every class are ``benchmarks/reliability.py --hostile N``.

Each class runs once per session (the first test of a class pays for it);
a test then asserts that its check held for every input tried. Every check
holds on today's code; one given a reason in ``hostile_campaign.CHECKS`` (a
known failure) is marked ``xfail(strict=True)``, so it must fail until its
reason is removed.

``GINLOG_HOSTILE_EXAMPLES`` (default 1) and ``GINLOG_HOSTILE_SEED`` (default
0) set how many generated inputs each class draws, and from where.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from collections.abc import Iterator

sys.path.insert(0, str(Path(__file__).with_name("reliability")))
import hostile_campaign as hc  # noqa: E402

EXAMPLES = int(os.environ.get("GINLOG_HOSTILE_EXAMPLES", "1"))
SEED = int(os.environ.get("GINLOG_HOSTILE_SEED", "0"))

CHECKS = hc.CHECKS

# The classes of the default run: the cheap ones (CPU-s of the whole process tree measured on the 2-core
# machine, one generated input each: memory 0.4, moves 0.7, warnings 0.9, display 0.7, verdict 1.0). The
# rest drive many commands on pipes and pseudo-terminals, or wait out timeouts (crash 2.1, silent 1.8,
# hang 2.7, names 2.3, terminal 7.5, files 2.7, history 5.9, rematch 4.9, pad 7.2, output 9.1), and run with
# --run-slow; the default run keeps their subjects through tests/test_terminal.py, tests/test_pty_recorder.py
# (escaping on a terminal), tests/test_audit.py, tests/test_outputs.py (FIFOs, output paths),
# tests/test_bounds.py (huge numbers), tests/test_people.py (names that clash) and tests/test_audit.py (empty
# and unreadable folders).
#
# Issue 20's classes (tests/reliability/hostile_limits.py) run their commands forked from this process
# (hostile_campaign.forks: the same main(), without an interpreter's start), so all nine are in the default
# run: 3.6 to 4.1 CPU-s together (links 1.2-1.4 with the one import of every ginlog module before the first
# fork, deep 0.6, jobs 0.4-0.5, the others 0.2-0.4 each). Issue 24's seals (tests/reliability/hostile_seals.py:
# eleven forked audits of hostile seals) is in it too: 0.6 CPU-s.
ISSUE_20 = frozenset({"links", "formula", "deep", "jobs", "entry", "closed", "clock", "header", "timestamp",
                      "copies", "lookalike", "order", "seals"})
# (2026-12-02: moves, warnings, display and verdict, 5 CPU-s together, went behind --run-slow for the default run's
# budget; their subjects keep tests of their own: test_entry.py, test_unverified.py, test_terminal.py (the pile), test_verdicts.py.)
QUICK = frozenset({"memory"}) | ISSUE_20


@pytest.fixture(scope="session")
def hostile_work() -> Iterator[Path]:
    # Not pytest's tmp_path: the checks run commands as another user, who must reach it.
    d = Path(tempfile.mkdtemp(prefix="ginlog-hostile-"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


_TALLIES: dict[str, hc.Tally] = {}


def tally(name: str, work: Path) -> hc.Tally:
    if name not in _TALLIES:
        _TALLIES[name] = hc.campaign(name, EXAMPLES, SEED, work)
    return _TALLIES[name]


def _param(cid: str, why: str | None) -> object:
    marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
    if cid.split("/")[0] not in QUICK:
        marks.append(pytest.mark.slow)
    return pytest.param(cid, marks=marks, id=cid)


@pytest.mark.parametrize("cid", [_param(c, w) for c, w in CHECKS.items()])
def test_hostile(cid: str, hostile_work: Path) -> None:
    t = tally(cid.split("/")[0], hostile_work)
    check = t.checks.get(cid)
    assert check is not None, f"{cid} was never tried (checks tried: {sorted(t.checks)})"
    if check.skipped:
        pytest.skip(check.skipped)
    assert check.tried, f"{cid}: no input reached this check"
    assert not check.failures, f"{cid}: {check.failed} of {check.tried} input(s) failed:\n" + "\n".join(f"  - {f}" for f in check.failures)


def test_every_check_is_listed(hostile_work: Path, request: pytest.FixtureRequest) -> None:
    """A check the campaign makes but this file does not list would never be reported (of the classes run)."""
    assert QUICK <= set(hc.CLASSES)
    classes = hc.CLASSES if request.config.getoption("--run-slow") else QUICK
    made = {cid for name in classes for cid in tally(name, hostile_work).checks}
    assert made <= set(CHECKS), sorted(made - set(CHECKS))


def test_raw_problems_sees_what_it_must() -> None:
    """The terminal check itself: ginlog's colour passes, the issue's sequences do not."""
    assert hc.raw_problems(b"\x1b[1;31mok\x1b[0m plain \xe2\x99\xa0\n", colour=True) == []
    for bad in (b"\x1b[2J", b"\x1b]0;t\x07", b"\xc2\x9b31m", "\u202e".encode(), "\u200b".encode(), "\u3164".encode(),
                b"\x07", b"\xff"):
        assert hc.raw_problems(b"a" + bad + b"b", colour=True), bad
    assert hc.raw_problems(b"\x1b[31m", colour=False)  # no colour on a pipe: any ESC is raw
    progress = b"\x1b[?25l\r\x1b[2Kauditing\r\n\x1b[?25h\r\x1b[1A\x1b[2K"
    assert hc.raw_problems(progress, colour=True, progress=True) == []
    assert hc.raw_problems(b"x\x1b[1Ay", colour=True, progress=True)  # a cursor-up of its own is not rich's


def test_runner_reports_a_hang_and_the_peak_memory(tmp_path: Path) -> None:
    """The runner kills a command at its timeout and says so; it measures the child's peak RSS."""
    from ginlog.game.rules import preset
    from ginlog.match.session import MatchSession

    MatchSession.create(tmp_path / "m.jsonl", ("Ann", "Bob"), preset("standard"))
    # the recorder on a terminal nobody types at waits for ever
    hung, quick = hc.run_all([hc.Cmd(["record", str(tmp_path / "m.jsonl")], tty=True, timeout=2), hc.Cmd(["--version"])])
    assert hung.rc is None and "no answer in 2 s" in " ".join(hc.basic(hung))
    assert quick.rc == 0 and quick.out.startswith(b"ginlog ") and 5 < quick.rss_mb < 500


@pytest.mark.skipif(hc.GNU_TIME is None, reason="GNU time is not installed: the runner's figures are wait4's upper bounds")
def test_runner_measures_the_command_not_the_process_that_started_it() -> None:
    """A command started by a big process (the whole test suite) is not charged for that process's memory."""
    ballast = bytearray(150 << 20)
    ballast[:: 4096] = b"x" * len(ballast[:: 4096])  # resident, every page
    (run,) = hc.run_all([hc.Cmd(["--version"])])
    assert run.rc == 0 and run.rss_mb < 100, run.rss_mb
    del ballast
