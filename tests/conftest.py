"""Shared test set-up: the --run-slow flag, reproducible property tests, one Chromium for the browser tests.

Property tests draw the same examples on every run (hypothesis ``derandomize``,
the ``fixed`` profile): a red run is red again on any machine, and CI's verdict
is the code's, not the draw's. New examples are drawn on purpose, with
``python -m pytest --hypothesis-profile explore`` (another draw every run;
``--hypothesis-seed N`` picks one), which is how weak properties are hunted.
"""

from __future__ import annotations

import resource
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from hypothesis import settings

import budget
from browsing import launched

# Data folders hold scripts that need other tools (pyspiel): not test modules.
collect_ignore_glob = ["data/*", "reliability/*"]

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("fixed")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the long runs: reliability campaigns, the whole hostile campaign, benchmark-sized files",
    )
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=0,
        metavar="N",
        help="list the N tests that took the most CPU (this process and the children they waited for)",
    )


def pytest_configure(config: pytest.Config) -> None:
    budget.FULL = bool(config.getoption("--run-slow"))  # before the test modules are imported: see budget.examples


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The browser tests last: their one Chromium session keeps threads alive, and while another thread lives
    # the command-line tests cannot run forked (tests/forked.py) and pay a fresh interpreter each.
    items.sort(key=lambda item: "browser" in item.keywords)  # stable: the order within each part is kept
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="benchmark-sized: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium through Playwright, launched once (``browsing.launched``)."""
    yield from launched()


# ---------------------------------------------------------------------------
# The CPU budget: the default run must stay under 2 CPU-minutes on the 2-core
# development machine, counting the whole process tree (CLI runs, pty runs,
# browsers, workers), as /usr/bin/time reports it. Printed at the end of every run.


def _cpu() -> tuple[float, float]:
    """(this process, its children) user+sys CPU seconds so far.

    A child's CPU counts in RUSAGE_CHILDREN once it has been waited for (a
    subprocess.run, a Popen.wait, a pool's join, the browser at the end of the
    session); a child still running, or never reaped, is not counted yet.
    """
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


_CPU_BY_TEST: dict[str, float] = {}
_LAST: list[str] = []  # the last test run: its tear-down is the session's too


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    before = sum(_cpu())
    try:
        return (yield)
    finally:
        _CPU_BY_TEST[item.nodeid] = sum(_cpu()) - before  # set-up, call and tear-down
        _LAST[:] = [item.nodeid]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    top = config.getoption("--cpu-durations")
    if top:
        terminalreporter.write_sep("=", f"most CPU ({top} tests; this process and the children waited for)")
        for nodeid, seconds in sorted(_CPU_BY_TEST.items(), key=lambda kv: -kv[1])[:top]:
            # The last test's tear-down ends the session's fixtures: Chromium is reaped (and counted) there.
            also = "  (and the session's tear-down: the browser's CPU)" if _LAST and nodeid == _LAST[0] else ""
            terminalreporter.write_line(f"{seconds:7.2f}s  {nodeid}{also}")
    me, kids = _cpu()
    terminalreporter.write_line(f"CPU: {me + kids:.1f} s (this process {me:.1f} s, children {kids:.1f} s)")
