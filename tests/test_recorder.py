"""The live recorder, driven directly: Ctrl-C at the table stops cleanly and keeps what was written."""

from __future__ import annotations

import io
from pathlib import Path

from ginlog.match.matchfile import new_match
from ginlog.match.reading import read_match
from ginlog.app.recorder import run_recorder
from ginlog.game.rules import preset


class Keys(io.StringIO):
    """Standard input that gives some entries and then a Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    new_match(path, ("Ann", "Bob"), preset("standard"))
    out, err = io.StringIO(), io.StringIO()
    code = run_recorder(str(path), Keys("dealer Ann\nupcard 7h\n"), out, err)
    assert code == 0
    assert out.getvalue().rstrip().endswith(f"Stopped at event 3; 'ginlog record {path}' resumes.")
    assert "Traceback" not in out.getvalue() + err.getvalue()
    report = read_match(path)
    assert report.ok and report.lines == 3 and report.state is not None and report.state.hand is not None
