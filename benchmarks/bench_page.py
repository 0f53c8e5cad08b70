"""The replay page of a simulated match: its size, the time to build it, and in Chromium the time to ready.

    python benchmarks/bench_page.py --hands 16 [--loads 5] [--shots DIR]

Time to ready is what the page itself records (``body[data-ready-ms]``: from navigation start to the
first table drawn, by ``performance.now()``), the median of ``--loads`` fresh loads from ``file://``.
Needs Playwright and Debian's chromium for the browser figures (left out without them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import attrs

from ginlog.app.pages.page import Verdict, match_page
from ginlog.errors import GinlogError
from ginlog.game.rules import preset
from ginlog.match.session import MatchSession
from ginlog.match.reading import iter_steps
from ginlog.play.simulate import simulate_match

ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
#: One step of the page as the keyboard makes it, timed in the page (its layout included).
STEP_MS = """() => new Promise((done) => {
  const t = performance.now(), n = 200;
  for (let i = 0; i < n; i++) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: i < n / 2 ? 'ArrowRight' : 'ArrowLeft'}));
    document.getElementById('events').scrollTop;  // the layout a shown frame costs
  }
  done((performance.now() - t) / n);
})"""


def build(folder: Path, hands: int, seed: int) -> tuple[Path, str, float, int]:
    path = folder / "match.jsonl"
    events = simulate_match(attrs.evolve(preset("standard"), game_target=1000), seed=seed, max_hands=hands)
    MatchSession.write(path, events)
    started = time.perf_counter()
    errors: list[GinlogError] = []
    steps = list(iter_steps(str(path), errors=errors))
    page = match_page(steps, verdict=Verdict.of(errors, steps[-1].digest))
    return path, page, time.perf_counter() - started, len(steps)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=16)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--shots", type=Path, default=None, help="write page.png (1280x900) and page-phone.png (375x800) here")
    ap.add_argument("--chromium", default=os.environ.get("GINLOG_CHROMIUM", "/usr/bin/chromium"))
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _path, page, seconds, events = build(folder, a.hands, a.seed)
        out = folder / "match.html"
        out.write_text(page, encoding="utf-8")
        size = len(page.encode("utf-8"))
        print(f"{a.hands} hands, {events} events: page {size / 1024:.0f} KB, built in {seconds * 1000:.0f} ms")
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            print("playwright not installed: no browser figures")
            return 0
        if not os.path.exists(a.chromium):
            print(f"no Chromium at {a.chromium}: no browser figures")
            return 0
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=a.chromium, args=ARGS)
            ready = []
            for _ in range(a.loads):
                tab = browser.new_page(viewport={"width": 1280, "height": 900})
                tab.goto(out.as_uri())
                tab.wait_for_function("document.body.dataset.ready === '1'")
                ready.append(int(tab.get_attribute("body", "data-ready-ms") or 0))
                step_ms = tab.evaluate(STEP_MS)
                tab.close()
            print(f"time to ready: median {statistics.median(ready)} ms (of {a.loads} loads: {ready}); one step {step_ms:.1f} ms")
            if a.shots is not None:
                a.shots.mkdir(parents=True, exist_ok=True)
                for name, w, h in (("page.png", 1280, 900), ("page-phone.png", 375, 800)):
                    tab = browser.new_page(viewport={"width": w, "height": h})
                    tab.goto(out.as_uri() + "#e%d" % (events // 2))
                    tab.wait_for_function("document.body.dataset.ready === '1'")
                    tab.screenshot(path=str(a.shots / name))
                    tab.close()
                print(f"screenshots in {a.shots}")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
