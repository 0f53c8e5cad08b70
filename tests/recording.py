"""Match files and a scripted recorder for the tests of the record room (recorder, undo, rematch, completion, status).

Not a test module (no ``test_`` prefix): ``match`` writes a match through the
one write path from entries as the table types them, ``record`` runs the
recorder's core with an injected ``read_line`` (a :class:`Script`), and ``at``
is the state after some entries, for the pure functions of the state.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from ginlog.app.record.entry import parse_entry
from ginlog.app.record.recorder import run_recorder
from ginlog.game.rules import preset, with_knobs
from ginlog.log import events as E
from ginlog.match.session import MatchSession
from ginlog.play.reducer import apply, start
from ginlog.play.state import MatchState

TO_DISCARD = ["dealer Ann", "upcard 7h", "pass", "pass", "stock", "discard qc"]
SHOWS = ["show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad", "show 5h 6h 8h jc qh kd 9d 9c 4c td"]


class Script:
    """A ``read_line`` that types the given lines, remembering each prompt; None once they run out."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else None


def match(tmp_path: Path, entries: list[str], name: str = "m.jsonl", target: int = 100) -> Path:
    path = tmp_path / name
    s = MatchSession.create(path, ("Ann", "Bob"), with_knobs(preset("standard"), game_target=str(target)))
    s.append([partial(parse_entry, e) for e in entries])
    return path


def record(path: Path, lines: list[str], *, interactive: bool = True) -> tuple[int, str, Script]:
    out, err = io.StringIO(), io.StringIO()
    script = Script(lines)
    code = run_recorder(str(path), io.StringIO(), out, err, read_line=script, interactive=interactive)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), script


def at(entries: list[str]) -> MatchState:
    """The state of an Ann v Mary Lou match (standard) after ``entries``."""
    tl = start(E.MatchStarted(players=("Ann", "Mary Lou"), rules=preset("standard")), 1)
    for e in entries:
        for ev in parse_entry(e, tl):
            tl = apply(tl, ev)
    return tl.state
