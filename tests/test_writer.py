"""Tests for ginlog.log.writer and ginlog.log.files: create, append under a lock, repair, and head."""

from __future__ import annotations

import fcntl
import hashlib
import json
import multiprocessing
import re
import sys
import time
from pathlib import Path

import pytest
from typing import Any

from ginlog.errors import Conflict, GinlogError, MalformedLine, StoreError, TornTail
from ginlog.log import files, writer
from ginlog.log.files import Head, head
from ginlog.log.format import MAX_LINE_BYTES, Line, digest, encode
from ginlog.log.reader import Source, read_lines
from ginlog.log.writer import RepairReport, append, append_many, create, repair

TS = "2026-11-29T19:56:25.123Z"


def make_match(path: Path, n: int) -> list[Line]:
    """A valid match file of ``n`` lines written through the API."""
    lines = [create(path, "match_started", 1, {"players": ["Ann", "Bo"]}, ts=TS)]  # repair cuts only a match file
    if n > 1:
        items = [("draw", 1, {"i": i, "who": "Ann"}) for i in range(2, n + 1)]
        lines += append_many(path, items, expect=1, ts=TS)
    return lines



def chain_bytes(n: int, *, first: int = 1, prev: str | None = None) -> list[bytes]:
    """``n`` valid raw lines built in memory with ``encode``."""
    out = []
    for seq in range(first, first + n):
        raw = encode(seq, TS, "draw", 1, prev, {"i": seq})
        out.append(raw)
        prev = digest(raw)
    return out



def write_raw(path: Path, raws: list[bytes]) -> None:
    path.write_bytes(b"".join(r + b"\n" for r in raws))



def collect(source: Source, **kw: Any) -> tuple[list[Line], list[GinlogError]]:
    errors: list[GinlogError] = []
    lines = list(read_lines(source, errors=errors, **kw))
    return lines, errors



def where(errors: list[GinlogError]) -> list[tuple[str, str, int | None]]:
    return [(type(e).__name__, e.rule, e.line) for e in errors]



# ----------------------------------------------------------------------------- round trip


def test_create_append_read_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    first = create(path, "start", 1, {"players": ["Ann", "Bo"]}, ts=TS)
    second = append(path, "draw", 1, {"who": "Ann", "from": "stock"}, expect=1)
    more = append_many(path, [("discard", 1, {"card": "7H"}), ("draw", 1, {"who": "Bo"})], expect=2)
    written = [first, second, *more]

    lines, errors = collect(path)
    assert errors == []
    assert lines == written
    assert [ln.seq for ln in lines] == [1, 2, 3, 4]
    assert [ln.lineno for ln in lines] == [1, 2, 3, 4]
    assert [ln.data["type"] for ln in lines] == ["start", "draw", "discard", "draw"]
    assert lines[0].data["players"] == ["Ann", "Bo"]
    assert lines[2].data["card"] == "7H"
    assert list(lines[1].data)[:5] == ["seq", "ts", "type", "v", "prev"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", lines[1].data["ts"])
    assert more[0].data["ts"] == more[1].data["ts"]  # one batch, one moment
    assert path.read_bytes() == b"".join(ln.raw + b"\n" for ln in lines)


def test_hash_chain_links(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    make_match(path, 5)
    lines = list(read_lines(path))
    assert lines[0].data["prev"] is None
    for before, after in zip(lines, lines[1:]):
        assert after.data["prev"] == before.digest == hashlib.sha256(before.raw).hexdigest()
    assert head(path) == Head(seq=5, digest=lines[-1].digest, size=path.stat().st_size, torn=None)


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_bytes(b"precious\n")
    with pytest.raises(StoreError) as info:
        create(path, "start", 1, {})
    assert info.value.rule == "exists"
    assert path.read_bytes() == b"precious\n"


def test_conflict_on_stale_expect(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    make_match(path, 1)
    append(path, "draw", 1, {"who": "Ann"}, expect=1)
    before = path.read_bytes()
    with pytest.raises(Conflict) as info:
        append(path, "draw", 1, {"who": "Bo"}, expect=1)
    assert info.value.rule == "conflict"
    assert "expected to follow event 1 but the file ends at event 2: another writer appended first" in str(info.value)
    with pytest.raises(Conflict):
        append_many(path, [("draw", 1, {}), ("draw", 1, {})], expect=7)
    assert path.read_bytes() == before


def test_append_to_missing_file_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        append(tmp_path / "nope.jsonl", "draw", 1, {}, expect=1)
    assert info.value.rule == "file" and "no such file" in info.value.message


def test_append_gives_up_on_a_held_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.jsonl"
    make_match(path, 1)
    monkeypatch.setattr(files, "LOCK_TIMEOUT", 0.2)
    with open(path, "rb") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        start = time.monotonic()
        with pytest.raises(StoreError) as info:
            append(path, "draw", 1, {}, expect=1)
        assert time.monotonic() - start < 2
    assert info.value.rule == "locked"
    assert append(path, "draw", 1, {}, expect=1).seq == 2  # lock released -> works


# ----------------------------------------------------------------------------- torn tail and repair


def test_torn_tail_detected_refused_and_repaired(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    make_match(path, 2)
    clean = path.read_bytes()
    torn = b'{"seq":3,"ts":"2026-11-29T19:5'
    path.write_bytes(clean + torn)

    with pytest.raises(TornTail) as info:
        list(read_lines(path))
    err = info.value
    assert err.rule == "torn-tail" and err.line == 3 and err.path == str(path)
    assert f"{len(torn)} bytes" in err.message
    assert repr(torn)[:40] in err.message

    lines, errors = collect(path)
    assert [ln.seq for ln in lines] == [1, 2]
    assert where(errors) == [("TornTail", "torn-tail", 3)]

    h = head(path)
    assert (h.seq, h.torn, h.size) == (2, torn, len(clean) + len(torn))

    with pytest.raises(TornTail):
        append(path, "draw", 1, {}, expect=2)
    assert path.read_bytes() == clean + torn

    report = repair(path)
    assert report.torn == torn
    assert report.side_file is not None and report.side_file.parent == tmp_path
    assert re.fullmatch(r"m\.jsonl\.torn-\d{8}T\d{6}Z", report.side_file.name)
    assert report.side_file.read_bytes() == torn
    assert path.read_bytes() == clean

    assert append(path, "draw", 1, {"who": "Bo"}, expect=2).seq == 3
    lines, errors = collect(path)
    assert errors == [] and [ln.seq for ln in lines] == [1, 2, 3]
    assert repair(path) == RepairReport(None, b"")


def test_repair_with_nothing_torn_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    make_match(path, 3)
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    assert repair(path) == RepairReport(side_file=None, torn=b"")
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.jsonl"]


def test_repair_never_overwrites_a_side_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "_side_stamp", lambda: "20261129T195625Z")
    path = tmp_path / "m.jsonl"
    make_match(path, 1)
    clean = path.read_bytes()
    path.write_bytes(clean + b"first")
    assert repair(path).side_file == tmp_path / "m.jsonl.torn-20261129T195625Z"
    path.write_bytes(clean + b"second")
    assert repair(path).side_file == tmp_path / "m.jsonl.torn-20261129T195625Z-2"
    assert (tmp_path / "m.jsonl.torn-20261129T195625Z").read_bytes() == b"first"
    assert (tmp_path / "m.jsonl.torn-20261129T195625Z-2").read_bytes() == b"second"


def test_repair_of_a_file_with_only_torn_bytes_leaves_it_empty_and_appendable(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_bytes(b'{"seq":1,"ts"')
    assert head(path) == Head(seq=0, digest=None, size=13, torn=b'{"seq":1,"ts"')
    assert repair(path).torn == b'{"seq":1,"ts"'
    assert head(path) == Head(seq=0, digest=None, size=0, torn=None)
    first = append(path, "start", 1, {}, expect=0)
    assert first.seq == 1 and first.data["prev"] is None
    assert collect(path)[1] == []



# ----------------------------------------------------------------------------- head


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



# ----------------------------------------------------------------------------- concurrency


def _writer(path: str, wid: int, count: int) -> None:
    done = 0
    while done < count:
        try:
            append(path, "note", 1, {"writer": wid, "n": done}, expect=head(path).seq)
        except Conflict:
            continue
        done += 1


def test_concurrent_appenders_never_interleave(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    create(path, "start", 1, {})
    ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), wid, 25)) for wid in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]

    lines, errors = collect(path)
    assert errors == []
    assert [ln.seq for ln in lines] == list(range(1, 102))
    notes = [ln.data for ln in lines[1:]]
    assert len(notes) == 100
    for wid in range(4):
        assert [d["n"] for d in notes if d["writer"] == wid] == list(range(25))
    assert path.read_bytes().count(b"\n") == 101
    assert head(path).seq == 101
    assert json.loads(path.read_bytes().splitlines()[-1])["seq"] == 101
