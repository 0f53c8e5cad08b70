"""Tests for ginlog.log.reader: the streaming reader, the hash chain and the seqs, malformed lines."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest
from typing import Any

from ginlog.errors import GinlogError, IntegrityError, MalformedLine, StoreError
from ginlog.log.files import head
from ginlog.log.format import MAX_LINE_BYTES, Line, digest, encode
from ginlog.log.reader import Source, read_lines
from ginlog.log.writer import append_many, create, repair

TS = "2026-11-29T19:56:25.123Z"


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



def collect(source: Source, **kw: Any) -> tuple[list[Line], list[GinlogError]]:
    errors: list[GinlogError] = []
    lines = list(read_lines(source, errors=errors, **kw))
    return lines, errors



def where(errors: list[GinlogError]) -> list[tuple[str, str, int | None]]:
    return [(type(e).__name__, e.rule, e.line) for e in errors]



# ----------------------------------------------------------------------------- tampering


@pytest.fixture
def six(tmp_path: Path) -> tuple[Path, list[bytes]]:
    path = tmp_path / "m.jsonl"
    make_match(path, 6)
    return path, path.read_bytes().split(b"\n")[:-1]


def test_one_edited_byte_breaks_exactly_one_link(six: tuple[Path, list[bytes]]) -> None:
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


def test_edit_that_breaks_json_is_one_malformed_line_and_one_link(six: tuple[Path, list[bytes]]) -> None:
    path, raws = six
    raws[2] = raws[2].replace(b"}", b"]")
    write_raw(path, raws)
    lines, errors = collect(path)
    assert where(errors) == [("MalformedLine", "json", 3), ("IntegrityError", "chain", 4)]
    assert [ln.seq for ln in lines] == [1, 2, 4, 5, 6]  # malformed line not yielded, seq not disturbed


def test_deleted_line_breaks_seq_and_chain_once(six: tuple[Path, list[bytes]]) -> None:
    path, raws = six
    del raws[2]
    write_raw(path, raws)
    _, errors = collect(path)
    assert where(errors) == [("IntegrityError", "seq", 3), ("IntegrityError", "chain", 3)]
    assert "expected seq 3, found 4" in errors[0].message


def test_swapped_lines_are_detected(six: tuple[Path, list[bytes]]) -> None:
    path, raws = six
    raws[2], raws[3] = raws[3], raws[2]
    write_raw(path, raws)
    _, errors = collect(path)
    assert {(e.rule, e.line) for e in errors} >= {("seq", 3), ("seq", 4), ("chain", 3), ("chain", 4), ("chain", 5)}
    assert all(isinstance(e, IntegrityError) for e in errors)


def test_duplicated_line_is_detected_on_the_copy(six: tuple[Path, list[bytes]]) -> None:
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



def test_reading_from_a_binary_stream(tmp_path: Path) -> None:
    raws = chain_bytes(3)
    data = b"".join(r + b"\n" for r in raws)
    lines, errors = collect(io.BytesIO(data))
    assert errors == [] and [ln.raw for ln in lines] == raws

    _, errors = collect(io.BytesIO(data + b"\xff\n"))
    assert where(errors) == [("MalformedLine", "utf-8", 4)] and errors[0].path == "<stdin>"
    _, errors = collect(io.BytesIO(data + b"oops"), name="pasted")
    assert errors[0].path == "pasted" and errors[0].rule == "torn-tail"



def test_a_file_whose_size_says_nothing_is_read_to_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size a regular file had when opened ends the reading once reached at a line's end; a file system that
    gives no size (procfs, some FUSE mounts: 0 for a file that has bytes) must not end it at the first block that
    happens to end a line."""
    from ginlog.log.files import open_sized as real

    path = tmp_path / "m.jsonl"
    raws = chain_bytes(5)
    write_raw(path, raws)
    monkeypatch.setattr("ginlog.log.reader.open_sized", lambda p, label: (real(p, label)[0], 0))
    lines, errors = collect(path, block=len(raws[0]) + 1)  # the first block is the first line, newline and all
    assert errors == [] and [line.seq for line in lines] == [1, 2, 3, 4, 5]
