"""A rematch (:mod:`ginlog.app.record.rematch`): ``ginlog new NEW --rematch OLD`` writes ``match_started`` alone,
same players and rules, the title marked (the recorder's ``rematch NEW.jsonl`` is in ``tests/test_recorder.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginlog.game.rules import preset, with_knobs
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession

from recording import match
from test_cli import app, run  # noqa: F401 - app: a fixture


def test_new_rematch(app: Any, tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    MatchSession.create(old, ("Ann", "Bob"), with_knobs(preset("modern"), knock_limit="9"), title="Friday")
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{tmp_path / 'new.jsonl'}: new match, Ann v Bob, a rematch of {old} (the same rules)\n"
    a, b = (read_match(str(p)).state for p in (old, tmp_path / "new.jsonl"))
    assert a is not None and b is not None
    assert b.players == a.players and b.rules == a.rules and b.title == "Friday (rematch)" and b.phase == "setup"
    assert len((tmp_path / "new.jsonl").read_bytes().splitlines()) == 1  # match_started alone


@pytest.mark.parametrize("extra", [["--player", "Cy"], ["--rules", "modern"], ["--set", "knock_limit=9"]])
def test_new_rematch_conflicts_are_usage_errors(app: Any, tmp_path: Path, extra: list[str]) -> None:
    old = match(tmp_path, [])
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old, *extra)
    assert r.exit_code == 2 and not (tmp_path / "new.jsonl").exists()


def test_new_rematch_of_a_title_at_the_length_limit(app: Any, tmp_path: Path) -> None:
    """A legal old title of up to 2000 characters still makes a rematch: ' (rematch)' is kept within the limit
    (found by the hostile campaign's rematch class: 'title is longer than 2000 characters', no file named)."""
    old = tmp_path / "old.jsonl"
    MatchSession.create(old, ("Ann", "Bob"), preset("standard"), title="t" * 1995)
    r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
    assert r.exit_code == 0, r.output
    b = read_match(str(tmp_path / "new.jsonl")).state
    assert b is not None and b.title is not None and len(b.title) == 2000 and b.title.endswith(" (rematch)")


def test_new_rematch_of_a_bad_file_is_one_line_exit_1(app: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for old in (bad, tmp_path / "missing.jsonl"):
        r = run(app, "new", tmp_path / "new.jsonl", "--rematch", old)
        assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "new.jsonl").exists()

