"""Shared test set-up: the --run-slow flag for the long campaigns, one Chromium for the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browsing import launched

# Data folders hold scripts that need other tools (pyspiel): not test modules.
collect_ignore_glob = ["data/*", "reliability/*"]


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
