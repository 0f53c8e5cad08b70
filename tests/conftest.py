"""Shared test set-up: the --run-slow flag, reproducible property tests, one Chromium for the browser tests.

Property tests draw the same examples on every run (hypothesis ``derandomize``,
the ``fixed`` profile): a red run is red again on any machine, and CI's verdict
is the code's, not the draw's. New examples are drawn on purpose, with
``python -m pytest --hypothesis-profile explore`` (another draw every run;
``--hypothesis-seed N`` picks one), which is how weak properties are hunted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

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
        help="also run the long reliability campaigns (crashes, races, fuzzing)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="long campaign: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium through Playwright, launched once (``browsing.launched``)."""
    yield from launched()
