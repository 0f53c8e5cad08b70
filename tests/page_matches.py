"""Match files for the replay page's tests: the samples, a simulated 16-hand match, a hostile record.

Not a test module (no ``test_`` prefix); ``test_page.py`` and ``test_page_browser.py`` import it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from ginlog.app.pages.page_data import CODES, frame, visible
from ginlog.errors import GinlogError
from ginlog.game.rules import Rules, preset
from ginlog.log.events import CardDiscarded, Correction, Event, MatchStarted, Note
from ginlog.match.session import MatchSession
from ginlog.match.reading import Step, iter_steps
from ginlog.play.simulate import simulate_match

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"

#: Player names, a title and notes that would run or make elements if the page ever treated them as markup.
HOSTILE_NAMES = ("</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>")
HOSTILE_TITLE = '"><svg onload=alert(3)> & <b>title</b>\u2028'
HOSTILE_NOTES = (
    "</script><script>window.__pwned = 1; alert(4)</script>",
    '<img src=x onerror="window.__pwned = 2">',
    '"><svg onload="window.__pwned = 3"><a href=//example.com>link</a>',
    "<!-- <script> --> &lt;b&gt; &amp; \u2028line\u2029para",
    "\x1b[2J\x1b[31mred\x07 and \u202egnp.exe",
    "<style>body{display:none}</style><iframe srcdoc='<script>parent.__pwned=5</script>'>",
)
HOSTILE_REASON = "<script>window.__pwned = 6</script>"


def write_match(path: Path, events: list[Event]) -> Path:
    """A match file holding ``events`` (the first is its ``match_started``)."""
    first = events[0]
    assert isinstance(first, MatchStarted)
    MatchSession.write(path, events)
    return path


def steps_of(path: Path | str) -> tuple[list[Step], list[GinlogError]]:
    errors: list[GinlogError] = []
    return list(iter_steps(str(path), errors=errors)), errors


def long_match(path: Path, hands: int = 16, seed: int = 5) -> Path:
    """A simulated full-information match of exactly ``hands`` hands (the target set out of reach)."""
    rules = attrs.evolve(preset("standard"), game_target=1000)
    return write_match(path, simulate_match(rules, seed=seed, max_hands=hands))


def hostile_events() -> list[Event]:
    """Two hands between players with markup for names, notes and a correction that try to run."""
    events = simulate_match(preset("standard"), seed=11, players=HOSTILE_NAMES, max_hands=2)
    first = events[0]
    assert isinstance(first, MatchStarted)
    events[0] = attrs.evolve(first, title=HOSTILE_TITLE)
    out: list[Event] = [events[0], events[1]]
    out += [Note(text=t, player=HOSTILE_NAMES[i % 2]) for i, t in enumerate(HOSTILE_NOTES)]
    corrected = False
    for e in events[2:]:
        out.append(e)
        if not corrected and isinstance(e, CardDiscarded):
            out.append(Correction(undoes=len(out), reason=HOSTILE_REASON))  # seq of e is len(out)
            out.append(e)
            corrected = True
    return out


def hostile_match(path: Path) -> Path:
    return write_match(path, hostile_events())


def decoded_frames(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The full frames (as :func:`ginlog.app.pages.page_data.frame` makes them) from a page's compact ones.

    Written from the format's description (``CompactFrames``), not from its encoder, so that a test holds
    the encoder, this and the page's script (``expand`` in ``viewer.js``) to the same frames.
    """
    names = {code: key for key, code in CODES.items()}
    players, types, kept = data["match"]["players"], data["types"], data["texts"]
    texts: list[str] = []
    table: dict[str, Any] = {}
    n = line = 0
    kind: dict[str, Any] = {}
    out = []
    for d in data["frames"]:
        n = d.get("n", n + 1)
        line = d.get("l", line + 1)
        if "y" in d:
            kind = types[d["y"]]
        x = d["x"]
        if isinstance(x, str) and len(texts) < kept:
            texts.append(x)
        for key in d.get("-", ()):
            del table[key]
        table.update({k: v for k, v in d.items() if k not in ("n", "l", "y", "x", "u", "-")})
        f: dict[str, Any] = {"n": n, "line": line, "type": kind["type"], "kind": kind["kind"], "text": texts[x] if isinstance(x, int) else x}
        if "u" in d:
            f["undoes"] = d["u"]
        if kind["deal"]:
            f["deal"] = True
        for code, value in table.items():
            if code in names:
                key = names[code]
                if key in ("dealer", "turn"):
                    value = None if value is None else players[value]
                elif key == "pile":
                    value = [value[i : i + 2] for i in range(0, len(value), 2)]
                f[key] = value
        if "k0" in table:
            f["seats"] = [
                {
                    "known": [table[f"k{i}"][j : j + 2] for j in range(0, len(table[f"k{i}"]), 2)],
                    "hidden": table[f"h{i}"],
                    "public": [table[f"p{i}"][j : j + 2] for j in range(0, len(table[f"p{i}"]), 2)],
                }
                for i in range(2)
            ]
        out.append(f)
    return out


def full_frames(steps: list[Step]) -> list[dict[str, Any]]:
    """Every step's frame as :func:`~ginlog.app.pages.page_data.frame` makes it, visible, as JSON gives it back."""
    frames, before = [], None
    for s in steps:
        frames.append(json.loads(json.dumps(visible(frame(s, before)))))
        before = s.state
    return frames


def noted_events(events: int = 600, seed: int = 3, rules: Rules | None = None) -> list[Event]:
    """``benchmarks/bench_page.py``'s match with many notes and corrections, about ``events`` long."""
    from benchmarking import loaded

    for bench in loaded("bench_page"):
        made: list[Event] = bench.noted_events(events, seed, rules)
    return made


def noted_match(path: Path, events: int = 600, seed: int = 3, rules: Rules | None = None) -> Path:
    return write_match(path, noted_events(events, seed, rules))
