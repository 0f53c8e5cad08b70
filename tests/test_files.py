"""The file's bytes by job (:mod:`ginlog.log.files`): the head read backwards from the end (a too-long last line, an
empty file, a 64 GiB sparse prefix), and side-file names cut to fit the file system.

What the writer does with them (create, append, repair, the side file itself) is in ``tests/test_writer.py``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ginlog.errors import MalformedLine
from ginlog.log.files import NAME_MAX, Head, fitting_name, head
from ginlog.log.format import MAX_LINE_BYTES, digest

from test_writer import chain_bytes, collect, write_raw


def test_head_reports_a_too_long_last_line(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    write_raw(path, [chain_bytes(1)[0], b"y" * (MAX_LINE_BYTES + 10)])
    with pytest.raises(MalformedLine) as info:
        head(path)
    assert info.value.rule == "line-too-long"


def test_head_of_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_bytes(b"")
    assert head(path) == Head(seq=0, digest=None, size=0, torn=None)
    assert collect(path) == ([], [])


def test_head_on_a_large_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    raws = chain_bytes(5000)
    write_raw(path, raws)
    assert head(path) == Head(seq=5000, digest=digest(raws[-1]), size=path.stat().st_size, torn=None)

    # A 64 GiB sparse prefix: head must read backwards, not scan from the start (a scan takes a minute or more:
    # the 5 s bound is a behaviour, not a speed target, and holds on any loaded machine).
    sparse = tmp_path / "sparse.jsonl"
    tail = raws[-2:]
    with open(sparse, "wb") as f:
        f.truncate(1 << 36)
        f.seek(1 << 36)
        f.write(b"\n" + b"\n".join(tail) + b"\n" + b'{"seq":50')
    start = time.monotonic()
    h = head(sparse)
    assert time.monotonic() - start < 5
    assert (h.seq, h.digest, h.torn) == (5000, digest(raws[-1]), b'{"seq":50')



def test_fitting_names_of_two_long_names_differ() -> None:
    a = fitting_name("é" * 124 + "a.jsonl", ".torn-20261129T195625Z")
    b = fitting_name("é" * 124 + "b.jsonl", ".torn-20261129T195625Z")
    assert a != b
    for n in (a, b):
        assert len(n.encode()) <= NAME_MAX
        n.encode("utf-8")  # cut between characters: still valid UTF-8

