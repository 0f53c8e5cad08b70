"""``ginlog undo`` says what it undoes, and asks (or needs ``--reopen``) only when the undo would reopen a finished
match: :mod:`ginlog.app.record.undoing`, through the command line and the recorder's core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ginlog.app.record.undoing import event_at
from ginlog.log.events import event_from_line
from ginlog.match.reading import read_match

from recording import SHOWS, TO_DISCARD, match, record
from test_cli import app, exe, run  # noqa: F401 - app: a fixture


def test_ginlog_undo_says_what_it_undoes(app: Any, tmp_path: Path) -> None:
    path = match(tmp_path, TO_DISCARD)
    r = run(app, "undo", path)
    assert r.exit_code == 0
    assert r.stdout == f"{path}: 1 event(s) appended, now at event 8\nundone: event 7, Bob discards Q♣\n"


def test_ginlog_undo_of_a_finished_match_needs_reopen_without_a_terminal(app: Any, tmp_path: Path) -> None:
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS], target=50)
    before = path.read_bytes()
    r = run(app, "undo", path)
    assert r.exit_code == 1 and path.read_bytes() == before
    assert len(r.stderr.strip().splitlines()) == 1 and "give --reopen" in r.stderr and "[reopen]" in r.stderr
    r = run(app, "undo", path, "--reopen")
    assert r.exit_code == 0 and "undone: event 9, Ann shows" in r.stdout
    state = read_match(str(path)).state
    assert state is not None and not state.finished
    assert run(app, "undo", path, "--yes").exit_code == 0  # not finished any more: no question either way


def test_play_undo_of_a_finished_match_needs_reopen(app: Any, tmp_path: Path) -> None:
    """``ginlog play M undo`` (the script path, fast or through Typer) asks for --reopen as ``ginlog undo`` does."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS], target=50)
    before = path.read_bytes()
    for args in (["play", path, "undo"], ["play", path, "note gg", "undo", "undo"]):
        r = run(app, *args)
        assert r.exit_code == 1 and path.read_bytes() == before, r.output
        assert "[reopen]" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    p = exe("play", path, "undo")  # main(), so play's fast path (forked where it can be: tests/forked.py)
    assert p.returncode == 1 and "give --reopen" in p.stderr and path.read_bytes() == before  # the fast path too
    assert run(app, "play", path, "note gg", "undo").exit_code == 0  # undoing a note after the end reopens nothing
    assert run(app, "play", path, "undo").exit_code == 1
    r = run(app, "play", path, "--reopen", "undo")
    assert r.exit_code == 0, r.output
    state = read_match(str(path)).state
    assert state is not None and not state.finished


def test_undoing_a_note_after_the_end_reopens_nothing_so_nothing_is_asked(app: Any, tmp_path: Path) -> None:
    """``ginlog undo`` and the recorder ask (or need --reopen) only when the undo would reopen the match."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", *SHOWS, "note gg", "note gg"], target=50)
    r = run(app, "undo", path)  # no terminal, no --reopen: fine, it takes back a note
    assert r.exit_code == 0 and "undone: event 11, Note: gg" in r.stdout, r.output
    code, out, script = record(path, ["undo", "y", "quit"])
    assert code == 0 and "undone: event 10, Note: gg" in out and not any("reopen" in p for p in script.prompts)
    assert "Undo event 10, Note: gg? [y/N] " in script.prompts  # at a terminal every undo asks, naming the event
    state = read_match(str(path)).state
    assert state is not None and state.finished
    assert run(app, "undo", path).exit_code == 1  # now it would reopen the match


def test_the_event_read_back_is_the_one_on_that_line(tmp_path: Path) -> None:
    """``event_at`` against each line of the file decoded on its own; past the end, None."""
    path = match(tmp_path, [*TO_DISCARD[:5], "knock qc", SHOWS[0], "note gg"])
    lines = path.read_bytes().splitlines()
    for lineno, raw in enumerate(lines, start=1):
        assert event_at(path, lineno) == event_from_line(json.loads(raw)), lineno
    assert event_at(path, len(lines) + 1) is None
