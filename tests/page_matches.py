"""Match files for the replay page's tests: the samples, a simulated 16-hand match, a hostile record.

Not a test module (no ``test_`` prefix); ``test_page.py`` and ``test_page_browser.py`` import it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ginlog.errors import GinlogError
from ginlog.game.rules import preset
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
