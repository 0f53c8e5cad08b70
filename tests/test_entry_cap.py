"""An entry longer than the longest legal one is refused at once, in one line (issue 20, item 6)."""

from __future__ import annotations

from pathlib import Path

from ginlog.app.record.language import MAX_ENTRY
from ginlog.log.event_types import MAX_TEXT

from test_cli import exe


def test_the_longest_note_is_taken_and_one_more_character_past_the_cap_is_refused(tmp_path: Path) -> None:
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    assert exe("play", m, "note " + "x" * MAX_TEXT).returncode == 0  # the longest note the reader takes
    before = m.read_bytes()
    run = exe("play", m, "note " + "x" * MAX_ENTRY)
    assert run.returncode == 1 and m.read_bytes() == before
    assert f"no entry is longer than {MAX_ENTRY:,}" in run.stderr and len(run.stderr.splitlines()) == 1


def test_a_pasted_screenful_is_refused_by_the_recorder_too(tmp_path: Path) -> None:
    m = tmp_path / "m.jsonl"
    assert exe("new", m, "--player", "Ann", "--player", "Bob").returncode == 0
    run = exe("record", m, input="dealer " + "Ann " * 50_000 + "\nquit\n")
    said = [line for line in (run.stdout + run.stderr).splitlines() if "no entry is longer than" in line]
    assert run.returncode == 1 and len(said) == 1 and len(said[0]) < 200, said
