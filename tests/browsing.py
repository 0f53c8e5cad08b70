"""One headless Chromium for the browser tests, and pages that keep what went wrong on them.

Playwright drives Debian's ``chromium`` through ``executable_path`` (Playwright's own
browser download is never used); without either, the tests skip, saying why. The
browser is launched once per session (``conftest.browser``): a launch costs a second.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("GINLOG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def launched() -> Iterator[Any]:
    """Chromium, or a skip naming what is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install 'ginlog[test]'; it drives Debian's chromium, no download)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set GINLOG_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def watched(browser: Any, width: int = 1280, height: int = 900) -> Any:
    """A new page that records console errors and warnings, script errors, dialogs and any request off file:.

    A page of ginlog's must need no network and raise nothing, so a test asserts that
    ``page.problems`` and ``page.dialogs`` stay empty.
    """
    page = browser.new_page(viewport={"width": width, "height": height})
    page.problems, page.dialogs = [], []
    page.on("console", lambda m: page.problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: page.problems.append("request " + r.url) if not r.url.startswith(("file:", "data:")) else None)
    return page
