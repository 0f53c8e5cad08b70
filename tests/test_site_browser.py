"""The site's index in headless Chromium: a hostile record stays text, the links open the replay pages.

Playwright with Debian's ``chromium`` (no browser download), as ``test_page_browser.py``;
skipped, saying why, without either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli import data as cli_data
from ginlog.text import visible

from browsing import watched
from data_matches import EPOCH, corpus, write
from page_matches import HOSTILE_NAMES, HOSTILE_TITLE, hostile_events

pytestmark = pytest.mark.browser

HOSTILE_FILE = '"><img src=x onerror=alert(9)>.jsonl'


def test_index_in_a_browser(browser: Any, tmp_path: Path) -> None:
    games = tmp_path / "games"
    made, _bad = corpus(games)
    write(games / "valid" / HOSTILE_FILE, hostile_events(), EPOCH)
    site = tmp_path / "site"
    assert cli_data.site(str(games), str(site)) == 1
    page = watched(browser)
    page.goto((site / "index.html").as_uri())
    count = "() => ({script: document.scripts.length, img: document.images.length, svg: document.querySelectorAll('svg').length, handlers: document.querySelectorAll('[onload],[onerror],[onclick]').length, links: document.querySelectorAll('#matches a').length})"
    seen = page.evaluate(count)
    assert seen == {"script": 0, "img": 0, "svg": 0, "handlers": 0, "links": len(made) + 2}  # + the hostile + the edited file
    assert not page.dialogs and not page.problems, (page.dialogs, page.problems)
    assert page.title() == "ginlog matches"
    text = page.text_content("#matches")
    assert visible(HOSTILE_TITLE) in text and HOSTILE_FILE in text
    assert all(visible(n) in page.text_content("#standings") for n in HOSTILE_NAMES)
    # A link opens that match's replay page, which gets ready and runs nothing of the record's.
    page.click(f"#matches a:text-is('{visible(HOSTILE_TITLE)}')")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
    assert page.title() == visible(HOSTILE_TITLE)
    assert page.evaluate("() => window.__pwned") is None
    assert not page.dialogs and not page.problems, (page.dialogs, page.problems)
    page.close()
