"""The recorder's history file: prompt_toolkit's format both ways, its tail only, never a link, never a wait.

The recall itself (Up at a terminal, after a resume) is driven on a
pseudo-terminal in ``test_pty_recorder.py``; a planted history of every
hostile kind in the hostile campaign's ``history`` class.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prompt_toolkit.history import FileHistory

from ginlog.app.record.history import MAX_ENTRIES, TAIL_BYTES, append, newest_first


def test_the_format_is_prompt_toolkits_both_ways(tmp_path: Path) -> None:
    """A history written by an older ginlog (prompt_toolkit's FileHistory) reads here, and the other way round."""
    theirs = tmp_path / "theirs"
    fh = FileHistory(str(theirs))
    for entry in ["dealer Ann", "note two\nlines", "s d 7h"]:
        fh.store_string(entry)
    assert newest_first(str(theirs)) == ["s d 7h", "note two\nlines", "dealer Ann"]
    ours = tmp_path / "ours"
    for entry in ["dealer Ann", "note two\nlines", "s d 7h"]:
        append(str(ours), entry)
    assert list(FileHistory(str(ours)).load_history_strings()) == ["s d 7h", "note two\nlines", "dealer Ann"]
    assert (ours.stat().st_mode & 0o777) == 0o600


def test_only_the_tail_is_read_and_a_cut_entry_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "h"
    entries = [f"note {i} " + "x" * 90 + "\n" + "y" * (i % 3) for i in range(6000)]  # ~100 bytes each, some two lines
    with open(path, "w", encoding="utf-8") as fh:
        for e in entries:
            fh.write("\n# 2026-12-01 10:00:00\n" + "".join(f"+{line}\n" for line in e.split("\n")))
    assert path.stat().st_size > TAIL_BYTES
    got = newest_first(str(path))
    assert 0 < len(got) <= MAX_ENTRIES
    assert got == entries[::-1][: len(got)]  # whole entries, newest first, none cut


def test_a_huge_planted_history_costs_what_a_small_one_does(tmp_path: Path) -> None:
    """A 200 MB file (sparse: nothing on the disk) is read in bounded memory, in a fresh interpreter
    (its own peak, VmHWM: ru_maxrss would start at pytest's)."""
    path = tmp_path / "h"
    with open(path, "wb") as fh:
        fh.seek(200 * 1024 * 1024)
        fh.write(b"\n# d\n+dealer Ann\n")
    child = ("import sys; from ginlog.app.record.history import newest_first\n"
             "got = newest_first(sys.argv[1])\n"
             "print(got[0], next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')))")
    r = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, timeout=60, check=True)
    first, peak_kb = r.stdout.rsplit(" ", 1)
    assert first == "dealer Ann" and int(peak_kb) < 60 * 1024, r.stdout


def test_a_link_is_neither_read_nor_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("\n# d\n+secret entry\n", encoding="utf-8")
    link = tmp_path / ".m.jsonl.history"
    os.symlink(outside, link)
    assert newest_first(str(link)) == []
    append(str(link), "dealer Ann")
    assert outside.read_text(encoding="utf-8") == "\n# d\n+secret entry\n" and link.is_symlink()
    dangling = tmp_path / ".n.jsonl.history"
    os.symlink(tmp_path / "made-through-the-link", dangling)
    append(str(dangling), "dealer Ann")
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_fifo_a_folder_or_an_unreadable_file_is_an_empty_history_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    for path in (fifo, folder, tmp_path / "missing"):
        assert newest_first(str(path)) == []  # a FIFO with no writer: no wait (O_NONBLOCK), not read
    append(str(fifo), "dealer Ann")  # no reader: no wait, nothing raised
    append(str(folder), "dealer Ann")
    assert list(folder.iterdir()) == []


def test_a_history_planted_as_a_hard_link_to_the_match_is_not_appended_to(tmp_path: Path) -> None:
    """A second name of the match file: writing an entry there would put a line that is not JSON in the record."""
    match = tmp_path / "m.jsonl"
    match.write_bytes(b'{"seq":1,"type":"match_started"}\n')
    history = tmp_path / ".m.jsonl.history"
    os.link(match, history)
    append(str(history), "dealer Ann")
    assert match.read_bytes() == b'{"seq":1,"type":"match_started"}\n'
    assert newest_first(str(history)) == []
