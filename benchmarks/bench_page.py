"""The replay page of a simulated match: its size, the time to build it, and in Chromium the time to ready.

    python benchmarks/bench_page.py --hands 16 [--loads 5] [--shots DIR]
    python benchmarks/bench_page.py --memory 200000 [--before main] [--keep DIR]

Time to ready is what the page itself records (``body[data-ready-ms]``: from navigation start to the
first table drawn, by ``performance.now()``), the median of ``--loads`` fresh loads from ``file://``.
Needs Playwright and Debian's chromium for the browser figures (left out without them).

``--memory N`` (issue 20): a legal match of about N events with many notes and corrections
(:func:`noted_events`), and ``ginlog html MATCH -o PAGE`` run on it in a fresh interpreter, its own peak
RSS (``VmHWM``) printed with the page's size against the file's. ``--before REF`` runs the same command
with that git commit's code too (extracted with ``git archive``, put first on ``PYTHONPATH``), in the same
run, for the before/after ratios. Target (issue 20): at 200,000 events, under 400 MB and a page under twice
the file; exit status 1 if this tree misses it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs

from ginlog.app.pages.page import Verdict, match_page
from ginlog.errors import GinlogError
from ginlog.game.rules import Rules, preset
from ginlog.log import format
from ginlog.log.events import SCHEMA_VERSION, Correction, Event, FirstDealer, MatchStarted, Note, event_fields, event_type
from ginlog.match.session import MatchSession
from ginlog.match.reading import iter_steps
from ginlog.play.reducer import start, step
from ginlog.play.simulate import simulate_hand, simulate_match

TS = "2026-03-07T15:30:00.000Z"
ROOT = Path(__file__).resolve().parent.parent
#: What the memory run's ``ginlog html`` may take at 200,000 events (issue 20), and the page's size per file byte.
TARGET_MB, TARGET_RATIO = 400, 2.0
#: Words for the notes (some of them markup and separators, which the page must escape).
WORDS = ("good", "draw", "Ann", "Bob", "thinks", "the", "stock", "pile", "</script>", "a", "long", "pause",
         "\u2028", "<b>", "knock?", "coffee", "&amp;", "gin", "maybe", "\u00e9t\u00e9", "hand", "score")

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


def noted_events(events: int, seed: int = 1, rules: Rules | None = None, notes: float = 0.12,
                 undos: float = 0.05) -> list[Event]:
    """A legal match of about ``events`` events (whole hands; the target out of reach), with notes and corrections.

    After each event of a simulated hand, at random: a note (3 to 30 words, now and then markup), one
    event undone and played again, or (one time in five of those) two undone and both played again; the
    last line of a hand is undone and played again too (the hand finished twice). Every correction names
    the last effective event, so the file is clean.
    """
    rng = random.Random(seed)
    rules = rules if rules is not None else attrs.evolve(preset("standard"), game_target=10**6)
    first: Event = MatchStarted(players=("Ann", "Bob"), rules=rules, title="A long match with notes")
    out: list[Event] = [first]
    effective: list[int] = [1]  # the seqs of the effective events, latest last (what a correction undoes)

    def put(e: Event) -> None:
        out.append(e)
        if isinstance(e, Correction):
            effective.pop()
        else:
            effective.append(len(out))

    def undo(k: int) -> None:
        for _ in range(k):
            put(Correction(undoes=effective[-1], reason=rng.choice(("slip", None, "wrong card </script>"))))

    state = start(first).state
    opening: Event = FirstDealer(dealer="Ann", how="agreed")
    put(opening)
    state = step(state, opening)
    while len(out) < events and state.phase == "ready":
        hand, state = simulate_hand(state, rng)
        for i, e in enumerate(hand):
            put(e)
            r = rng.random()
            if r < notes:
                words = [rng.choice(WORDS) for _ in range(rng.randint(3, 30))]
                put(Note(text=" ".join(words), player=rng.choice(("Ann", "Bob", None))))
            elif r < notes + undos or i == len(hand) - 1:
                k = 2 if i > 0 and rng.random() < 0.2 and not isinstance(out[-2], (Note, Correction)) else 1
                again = out[-k:]
                undo(k)
                for x in again:
                    put(x)
    return out


def write_events(path: Path, events: list[Event]) -> int:
    """``events`` as a match file, as ginlog writes it (one hash chain, a fixed time): its size in bytes."""
    prev: str | None = None
    size = 0
    with open(path, "wb") as fh:
        for seq, ev in enumerate(events, 1):
            raw = format.encode(seq, TS, event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
            prev = format.digest(raw)
            fh.write(raw + b"\n")
            size += len(raw) + 1
    return size


#: ``ginlog ARGS...`` in a fresh interpreter, then its own peak RSS in KiB on standard error.
_CHILD = (
    "def _peak_kb():\n"
    "    try:\n"
    "        with open('/proc/self/status') as f:\n"
    "            return next(int(l.split()[1]) for l in f if l.startswith('VmHWM:'))\n"
    "    except (OSError, StopIteration):\n"
    "        import resource\n"
    "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "import sys\n"
    "from ginlog.app.cli import main\n"
    "sys.argv = ['ginlog', *sys.argv[1:]]\n"
    "code = 0\n"
    "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
    "sys.stderr.write(f'\\nRSS {_peak_kb()} CODE {code}\\n')\n"
)


def html_in_child(match: Path, page: Path, code_root: Path) -> tuple[float, float, int]:
    """``ginlog html MATCH -o PAGE`` with the code under ``code_root``: peak MB, CPU seconds, exit status.

    ``code_root`` is put first on ``PYTHONPATH`` (this checkout, or another commit's ``ginlog`` extracted)."""
    env = {**os.environ, "PYTHONPATH": str(code_root)}
    t0 = os.times()
    # In the match's folder: ``python -c`` puts the working folder first on sys.path, before PYTHONPATH.
    proc = subprocess.run([sys.executable, "-c", _CHILD, "html", str(match), "-o", str(page)],
                          capture_output=True, env=env, cwd=match.parent, timeout=3600)
    t1 = os.times()
    m = re.search(rb"RSS (\d+) CODE (\d+)", proc.stderr)
    if m is None:
        raise RuntimeError(proc.stderr.decode(errors="replace")[-2000:])
    cpu = t1.children_user - t0.children_user + t1.children_system - t0.children_system
    return int(m[1]) / 1024, cpu, int(m[2])


def extracted(ref: str, folder: Path) -> Path:
    """The ``ginlog`` package of git commit ``ref`` (of this checkout), in ``folder``."""
    from revisions import extract

    return extract(ref, folder, "ginlog")


def memory(events: int, seed: int, before: str | None, keep: Path | None) -> int:
    """The ``--memory`` run: the match made, ``ginlog html`` measured with each tree; 1 if a target is missed."""
    folder = Path(tempfile.mkdtemp(prefix="bench-page-"))
    try:
        match = folder / "match.jsonl"
        t = time.perf_counter()
        evs = noted_events(events, seed)
        size = write_events(match, evs)
        notes = sum(isinstance(e, Note) for e in evs)
        undone = sum(isinstance(e, Correction) for e in evs)
        print(f"match: {len(evs):,} events ({notes:,} notes, {undone:,} corrections), {size / 1e6:.1f} MB "
              f"(made in {time.perf_counter() - t:.1f} s)")
        trees = [("this tree", ROOT)]
        if before is not None:
            (folder / "before").mkdir()
            trees.insert(0, (f"before ({before})", extracted(before, folder / "before")))
        failed = 0
        for label, root in trees:
            page = folder / ("page-" + label.split()[0] + ".html")
            peak, cpu, code = html_in_child(match, page, root)
            pages = page.stat().st_size if page.exists() else 0
            print(f"{label:>22}: ginlog html peak {peak:7.1f} MB ({peak * 1e6 / size:.2f} x the file), "
                  f"page {pages / 1e6:6.1f} MB ({pages / size:.2f} x the file), {cpu:.1f} CPU-s, exit {code}")
            if root == ROOT and events >= 200_000 and (peak > TARGET_MB or pages > TARGET_RATIO * size or code != 0):
                failed = 1
        if failed:
            print(f"target missed: under {TARGET_MB} MB and a page under {TARGET_RATIO} x the file")
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for p in folder.glob("*.*"):
                shutil.copy(p, keep / p.name)
        return failed
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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
    ap.add_argument("--memory", type=int, default=None, metavar="EVENTS", help="measure ginlog html on a noted match this long")
    ap.add_argument("--before", default=None, metavar="REF", help="with --memory: also this git commit's code")
    ap.add_argument("--keep", type=Path, default=None, help="with --memory: copy the match and pages here")
    a = ap.parse_args(argv)
    if a.memory is not None:
        return memory(a.memory, a.seed, a.before, a.keep)
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
