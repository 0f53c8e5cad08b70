"""The live recorder, driven directly: Ctrl-C at the table stops cleanly and keeps what was written."""

from __future__ import annotations

import io
from pathlib import Path

from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession
from ginlog.app.record.recorder import run_recorder
from ginlog.game.rules import preset
from ginlog.log.events import Note


class Keys(io.StringIO):
    """Standard input that gives some entries and then a Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    out, err = io.StringIO(), io.StringIO()
    code = run_recorder(str(path), Keys("dealer Ann\nupcard 7h\n"), out, err)
    assert code == 0
    assert out.getvalue().rstrip().endswith(f"Stopped at event 3; 'ginlog record {path}' resumes.")
    assert "Traceback" not in out.getvalue() + err.getvalue()
    report = read_match(path)
    assert report.ok and report.lines == 3 and report.state is not None and report.state.hand is not None


class OtherWriterFirst(io.StringIO):
    """Standard input whose second entry is typed just after another writer appended a note."""

    def __init__(self, text: str, path: Path) -> None:
        super().__init__(text)
        self.path = path
        self.reads = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.reads += 1
        if self.reads == 2:
            MatchSession.open(self.path).append([Note(text="from the other writer")])
        return super().readline()


def test_a_conflict_is_refused_and_the_file_read_again(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    out, err = io.StringIO(), io.StringIO()
    code = run_recorder(str(path), OtherWriterFirst("dealer Ann\nupcard 7h\nupcard 7h\n", path), out, err)
    text = out.getvalue()
    assert code == 1  # piped input with a refused entry: a script notices
    assert "ok 2: " in text and "; re-reading the file" in text and "[conflict]" in text
    assert "ok 4: " in text  # the same entry again, after the other writer's line 3
    assert text.rstrip().endswith(f"Stopped at event 4; 'ginlog record {path}' resumes.")
    assert err.getvalue() == ""
    report = read_match(path)
    assert report.ok and report.lines == 4
