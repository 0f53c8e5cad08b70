"""Tests for ginlog.log.store: the append-only, hash-chained JSON-lines match file."""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import multiprocessing
import re
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from ginlog.log import store
from ginlog.errors import (
    Conflict,
    GinlogError,
    IntegrityError,
    MalformedLine,
    StoreError,
    TornTail,
)
from ginlog.log.store import (
    MAX_LINE_BYTES,
    Head,
    Line,
    RepairReport,
    append,
    append_many,
    create,
    digest,
    encode,
    head,
    now_ts,
    read_lines,
    repair,
)

TS = "2026-11-29T19:56:25.123Z"


# ----------------------------------------------------------------------------- helpers


def make_match(path: Path, n: int) -> list[Line]:
    """A valid match file of ``n`` lines written through the API."""
    lines = [create(path, "start", 1, {"players": ["Ann", "Bo"]}, ts=TS)]
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


def collect(source, **kw) -> tuple[list[Line], list[GinlogError]]:
    errors: list[GinlogError] = []
    lines = list(read_lines(source, errors=errors, **kw))
    return lines, errors


def where(errors: list[GinlogError]) -> list[tuple[str, str, int | None]]:
    return [(type(e).__name__, e.rule, e.line) for e in errors]


# ----------------------------------------------------------------------------- format


def test_encode_is_compact_ordered_utf8() -> None:
    raw = encode(1, TS, "start", 2, None, {"name": "Zoë", "n": [1, 2]})
    assert raw == (
        '{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"start","v":2,"prev":null,'
        '"name":"Zoë","n":[1,2]}'
    ).encode("utf-8")
    assert digest(raw) == hashlib.sha256(raw).hexdigest()


def test_now_ts_format() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", now_ts())


@pytest.mark.parametrize(
    "fields",
    [{"seq": 5}, {"prev": None}, {"x": float("nan")}, {"x": {1, 2}}, {"x": "\ud800"}, {"x": "a" * MAX_LINE_BYTES}],
)
def test_encode_refuses_what_could_not_be_read_back(fields: dict) -> None:
    with pytest.raises(StoreError):
        encode(1, TS, "t", 1, None, fields)


def test_encode_refuses_bad_envelope() -> None:
    for args in [(0, TS, "t", 1, None), (1, "yesterday", "t", 1, None), (1, TS, "", 1, None),
                 (1, TS, "t", True, None), (2, TS, "t", 1, "not-a-digest")]:
        with pytest.raises(StoreError) as info:
            encode(*args, {})
        assert info.value.rule == "envelope"


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
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.2)
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
    monkeypatch.setattr(store, "_side_stamp", lambda: "20261129T195625Z")
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


# ----------------------------------------------------------------------------- tampering


@pytest.fixture
def six(tmp_path: Path) -> tuple[Path, list[bytes]]:
    path = tmp_path / "m.jsonl"
    make_match(path, 6)
    return path, path.read_bytes().split(b"\n")[:-1]


def test_one_edited_byte_breaks_exactly_one_link(six) -> None:
    path, raws = six
    raws[2] = raws[2].replace(b'"who":"Ann"', b'"who":"Anm"')
    write_raw(path, raws)
    lines, errors = collect(path)
    assert where(errors) == [("IntegrityError", "chain", 4)]
    assert errors[0].seq == 4
    assert f"expected {digest(raws[2])} (SHA-256 of line 3)" in errors[0].message
    assert len(lines) == 6
    with pytest.raises(IntegrityError) as info:
        list(read_lines(path))
    assert info.value.line == 4 and str(info.value).startswith(f"{path}:4: event 4: ")


def test_edit_that_breaks_json_is_one_malformed_line_and_one_link(six) -> None:
    path, raws = six
    raws[2] = raws[2].replace(b"}", b"]")
    write_raw(path, raws)
    lines, errors = collect(path)
    assert where(errors) == [("MalformedLine", "json", 3), ("IntegrityError", "chain", 4)]
    assert [ln.seq for ln in lines] == [1, 2, 4, 5, 6]  # malformed line not yielded, seq not disturbed


def test_deleted_line_breaks_seq_and_chain_once(six) -> None:
    path, raws = six
    del raws[2]
    write_raw(path, raws)
    _, errors = collect(path)
    assert where(errors) == [("IntegrityError", "seq", 3), ("IntegrityError", "chain", 3)]
    assert "expected seq 3, found 4" in errors[0].message


def test_swapped_lines_are_detected(six) -> None:
    path, raws = six
    raws[2], raws[3] = raws[3], raws[2]
    write_raw(path, raws)
    _, errors = collect(path)
    assert {(e.rule, e.line) for e in errors} >= {("seq", 3), ("seq", 4), ("chain", 3), ("chain", 4), ("chain", 5)}
    assert all(isinstance(e, IntegrityError) for e in errors)


def test_duplicated_line_is_detected_on_the_copy(six) -> None:
    path, raws = six
    raws.insert(3, raws[2])
    write_raw(path, raws)
    lines, errors = collect(path)
    assert where(errors) == [("IntegrityError", "seq", 4), ("IntegrityError", "chain", 4)]
    assert len(lines) == 7


def test_first_line_must_have_null_prev(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    write_raw(path, chain_bytes(2, prev="ab" * 32))
    assert where(collect(path)[1]) == [("IntegrityError", "chain", 1)]


# ----------------------------------------------------------------------------- malformed lines


DEEP = b'{"seq":2,"x":' + b"[" * 30_000 + b"]" * 30_000 + b"}"
MALFORMED = {
    "bad-json": (b'{"seq":2,"ts":', "json"),
    "utf-8": (b'{"seq":2,"x":"\xff\xfe"}', "utf-8"),
    "list": (b"[1,2,3]", "not-object"),
    "number": (b"42", "not-object"),
    "nan": (b'{"seq":2,"x":NaN}', "non-finite"),
    "infinity": (b'{"seq":2,"x":-Infinity}', "non-finite"),
    "overflow-float": (b'{"seq":2,"x":1e400}', "non-finite"),
    "deep-nesting": (DEEP, "json"),
    "huge-int": (b'{"seq":2,"x":' + b"9" * 5000 + b"}", "json"),
    "blank": (b"", "blank-line"),
    "spaces": (b"   ", "blank-line"),
    "duplicate-key": (b'{"seq":2,"seq":3}', "duplicate-key"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_line_gives_one_error_with_its_line_number(tmp_path: Path, case: str) -> None:
    bad, rule = MALFORMED[case]
    assert len(bad) <= MAX_LINE_BYTES
    path = tmp_path / "m.jsonl"
    write_raw(path, [chain_bytes(1)[0], bad])

    lines, errors = collect(path)
    assert [ln.seq for ln in lines] == [1]
    assert where(errors) == [("MalformedLine", rule, 2)]
    assert errors[0].path == str(path)
    assert "\n" not in errors[0].one_line()

    with pytest.raises(MalformedLine) as info:
        list(read_lines(path))
    assert info.value.line == 2


def test_ten_megabyte_line_is_too_long_and_memory_stays_flat(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    first = chain_bytes(1)[0]
    big = b'{"seq":2,"x":"' + b"x" * (10 * 1024 * 1024) + b'"}'
    after = encode(3, TS, "draw", 1, digest(big), {})  # chained to the long line's bytes
    write_raw(path, [first, big, after])
    del big

    tracemalloc.start()
    try:
        lines, errors = collect(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024, peak
    assert where(errors) == [("MalformedLine", "line-too-long", 2)]
    assert "limit is 65536 bytes" in errors[0].message
    assert [ln.seq for ln in lines] == [1, 3]  # the chain runs through the skipped line

    with pytest.raises(MalformedLine) as info:
        list(read_lines(path))
    assert (info.value.rule, info.value.line) == ("line-too-long", 2)


def test_head_reports_a_too_long_last_line(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    write_raw(path, [chain_bytes(1)[0], b"y" * (MAX_LINE_BYTES + 10)])
    with pytest.raises(MalformedLine) as info:
        head(path)
    assert info.value.rule == "line-too-long"


def test_line_of_exactly_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    first = chain_bytes(1)[0]
    stub = encode(2, TS, "draw", 1, digest(first), {"pad": ""})
    line = encode(2, TS, "draw", 1, digest(first), {"pad": "p" * (MAX_LINE_BYTES - len(stub))})
    assert len(line) == MAX_LINE_BYTES
    write_raw(path, [first, line])
    assert collect(path)[1] == []
    assert head(path).seq == 2


# ----------------------------------------------------------------------------- files and streams


def test_directory_and_missing_paths_are_store_errors(tmp_path: Path) -> None:
    for bad in [tmp_path, tmp_path / "missing.jsonl"]:
        for call in [lambda p: list(read_lines(p)), lambda p: list(read_lines(p, errors=[])), head, repair]:
            with pytest.raises(StoreError) as info:
                call(bad)
            assert type(info.value) is StoreError and info.value.rule == "file"
            assert info.value.path == str(bad)
    with pytest.raises(StoreError) as info:
        create(tmp_path / "no-dir" / "m.jsonl", "start", 1, {})
    assert info.value.rule == "file"
    with pytest.raises(StoreError, match="directory"):
        list(read_lines(tmp_path))


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

    # A 1 GiB sparse prefix: head must read backwards, not scan from the start.
    sparse = tmp_path / "sparse.jsonl"
    tail = raws[-2:]
    with open(sparse, "wb") as f:
        f.truncate(1 << 30)
        f.seek(1 << 30)
        f.write(b"\n" + b"\n".join(tail) + b"\n" + b'{"seq":50')
    start = time.monotonic()
    h = head(sparse)
    assert time.monotonic() - start < 0.5
    assert (h.seq, h.digest, h.torn) == (5000, digest(raws[-1]), b'{"seq":50')


def test_reading_from_a_binary_stream(tmp_path: Path) -> None:
    raws = chain_bytes(3)
    data = b"".join(r + b"\n" for r in raws)
    lines, errors = collect(io.BytesIO(data))
    assert errors == [] and [ln.raw for ln in lines] == raws

    _, errors = collect(io.BytesIO(data + b"\xff\n"))
    assert where(errors) == [("MalformedLine", "utf-8", 4)] and errors[0].path == "<stdin>"
    _, errors = collect(io.BytesIO(data + b"oops"), name="pasted")
    assert errors[0].path == "pasted" and errors[0].rule == "torn-tail"


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
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    ctx = multiprocessing.get_context(method)
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
