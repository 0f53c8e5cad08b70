"""Tests for ginlog.log.writer: create, append under a lock, repair; and the writer at the edges (issue 13): repair
cuts only match files and never through a link; side-file names fit the file system; ``create`` leaves nothing
behind when it fails and does not report a failure for a file it wrote.

The failing writes are real: a file size limit (``RLIMIT_FSIZE``) in a forked child, and a full
tmpfs (when this machine lets us mount one). The unreadable directory is real too: a forked child
that has become ``nobody`` (the tests run as root, and permissions do not bite root). The file primitives the
writer stands on (``head``, the side file's name) are in ``tests/test_files.py``.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typing import Any

from ginlog.errors import Conflict, GinlogError, StoreError, TornTail
from ginlog.log import files, writer
from ginlog.log.files import NAME_MAX, Head, head
from ginlog.log.format import Line, digest, encode
from ginlog.log.reader import Source, read_lines
from ginlog.log.writer import RepairReport, append, append_many, create, repair

TS = "2026-11-29T19:56:25.123Z"
START = {"players": ["Ann", "Bob"], "rules": {}, "tool": "test"}


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


NOBODY = 65534


def match_file(path: Path, torn: bytes = b'{"seq":2,"ts":"2026-11-29T19:5') -> bytes:
    """A match file of one line (as create writes it) and a torn tail; returns its bytes."""
    create(path, "match_started", 2, START, ts=TS)
    with open(path, "ab") as fh:
        fh.write(torn)
    return path.read_bytes()


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ----------------------------------------------------------------------------- repair: match files only


@pytest.mark.parametrize("content", [
    b"shopping list\nmilk\neggs",  # a text file without a final newline
    b'{"name": "config", "debug": true}',  # one JSON object, no newline
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note","v":2,"prev":null,"text":"x"}\n{"seq":2',
    b'{"seq":2,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":null}\n{"se',
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":"' + b"0" * 64 + b'"}\nx',
    b'not json at all\n{"seq":2',
    b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note"',  # torn, but not the start of a match
    b"hello",
])
def test_repair_refuses_a_file_that_is_not_a_match_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(StoreError) as info:
        repair(path)
    assert info.value.rule == "not-a-match"
    assert "not a match file" in info.value.message and "nothing was changed" in info.value.message
    assert path.read_bytes() == content
    assert listing(tmp_path) == ["notes.txt"]


@pytest.mark.parametrize("torn", [b"{", b'{"se', b'{"seq":1,', b'{"seq":1,"ts":"2026-11-29T19:5',
                                  b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_sta',
                                  b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"match_started","v":2,"prev":nu'])
def test_repair_takes_a_torn_first_line_of_a_match(tmp_path: Path, torn: bytes) -> None:
    """A crash in the very first write: no complete line, bytes that begin like a match_started line."""
    path = tmp_path / "m.jsonl"
    path.write_bytes(torn)
    report = repair(path)
    assert report.torn == torn and report.side_file is not None and report.side_file.read_bytes() == torn
    assert path.read_bytes() == b""


def test_repair_still_repairs_a_match_file(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    before = match_file(path)
    report = repair(path)
    assert report.side_file is not None and path.read_bytes() + report.torn == before
    assert append(path, "note", 2, {"text": "after"}, expect=1).seq == 2


# ----------------------------------------------------------------------------- repair: never through a link


def test_repair_refuses_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    before = match_file(target)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with pytest.raises(StoreError) as info:
        repair(link)
    assert "symbolic link" in info.value.message and info.value.rule == "file"
    assert target.read_bytes() == before
    assert listing(tmp_path) == ["link.jsonl", "real.jsonl"]
    assert repair(target).side_file is not None  # by its own name it is repaired


def test_repair_refuses_a_link_made_after_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """O_NOFOLLOW is what decides: a link swapped in after the first look is refused too."""
    target = tmp_path / "real.jsonl"
    before = match_file(target)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    calls = iter([False, True])
    monkeypatch.setattr(os.path, "islink", lambda _p: next(calls))
    with pytest.raises(StoreError) as info:
        repair(link)
    assert "symbolic link" in info.value.message
    assert target.read_bytes() == before


# ----------------------------------------------------------------------------- side-file names


def test_side_file_of_a_250_byte_name_fits(tmp_path: Path) -> None:
    name = "m" * 244 + ".jsonl"
    assert len(name.encode()) == 250
    path = tmp_path / name
    before = match_file(path)
    first = repair(path)
    assert first.side_file is not None
    side = first.side_file.name
    assert len(side.encode()) <= NAME_MAX
    assert side.startswith("m" * 200) and ".torn-" in side and "~" in side
    assert path.read_bytes() + first.side_file.read_bytes() == before
    # Again, within the same second: a name of its own, still within the limit.
    with open(path, "ab") as fh:
        fh.write(b'{"seq":2,"ts"')
    second = repair(path)
    assert second.side_file is not None and second.side_file != first.side_file
    assert len(second.side_file.name.encode()) <= NAME_MAX
    assert second.side_file.read_bytes() == b'{"seq":2,"ts"'


# ----------------------------------------------------------------------------- create: nothing left behind


def in_child(fn: Callable[[], None]) -> int:
    """Run ``fn`` in a forked child; its exit status: 0 done, 1 a StoreError, 2 anything else."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 2
        try:
            fn()
            code = 0
        except StoreError:
            code = 1
        except BaseException:
            code = 2
        finally:
            os._exit(code)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_create_that_fails_to_write_leaves_nothing(tmp_path: Path) -> None:
    """A write over the file size limit (EFBIG, as a full disk gives ENOSPC): no file, and a retry works."""
    path = tmp_path / "m.jsonl"
    fields = START | {"title": "x" * 2000}

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
        create(path, "match_started", 2, fields, ts=TS)

    assert in_child(limited) == 1
    assert listing(tmp_path) == []
    create(path, "match_started", 2, fields, ts=TS)  # the retry is not blocked by a 0-byte file
    assert head(path).seq == 1


@contextlib.contextmanager
def tiny_tmpfs(size: str = "8k") -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="ginlog-tmpfs-"))
    try:
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
        try:
            yield folder
        finally:
            subprocess.run(["umount", str(folder)], check=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="mounting a tmpfs needs root")
def test_create_on_a_full_disk_leaves_nothing() -> None:
    with tiny_tmpfs() as disk:
        filler = disk / "filler"
        fd = os.open(filler, os.O_CREAT | os.O_WRONLY, 0o644)
        try:
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"x" * 512)
        finally:
            os.close(fd)
        before = listing(disk)
        with pytest.raises(StoreError) as info:
            create(disk / "m.jsonl", "match_started", 2, START | {"title": "x" * 1500}, ts=TS)
        assert info.value.rule == "file"
        assert listing(disk) == before  # no 0-byte match file, no hidden temporary
        filler.unlink()
        create(disk / "m.jsonl", "match_started", 2, START, ts=TS)
        assert head(disk / "m.jsonl").seq == 1


def test_create_never_overwrites_even_when_the_name_appears_meanwhile(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The link decides: a file made at the name after the early check is kept, and create refuses."""
    path = tmp_path / "m.jsonl"
    real_link = os.link

    def racing_link(src: str, dst: str, **kw: object) -> None:
        Path(dst).write_bytes(b"someone else's\n")
        real_link(src, dst, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", racing_link)
    with pytest.raises(StoreError) as info:
        create(path, "match_started", 2, START, ts=TS)
    assert info.value.rule == "exists"
    assert path.read_bytes() == b"someone else's\n"
    assert listing(tmp_path) == ["m.jsonl"]


def test_create_without_hard_links_still_creates_and_cleans_up(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*_a: object, **_k: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "m.jsonl"
    create(path, "match_started", 2, START, ts=TS)
    assert head(path).seq == 1 and listing(tmp_path) == ["m.jsonl"]
    with pytest.raises(StoreError) as info:
        create(path, "match_started", 2, START, ts=TS)
    assert info.value.rule == "exists"
    # And a failing write in place is removed again.
    other = tmp_path / "n.jsonl"

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
        create(other, "match_started", 2, START | {"title": "x" * 2000}, ts=TS)

    assert in_child(limited) == 1
    assert listing(tmp_path) == ["m.jsonl"]


# ----------------------------------------------------------------------------- create in a directory without read permission


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming nobody needs root")
def test_create_in_a_write_only_directory_reports_success() -> None:
    """``chmod 0300``: files may be made in it but it cannot be opened to fsync; create must not then fail."""
    top = Path(tempfile.mkdtemp(prefix="ginlog-wx-"))
    try:
        top.chmod(0o755)
        folder = top / "wx"
        folder.mkdir()
        os.chown(folder, NOBODY, NOBODY)
        folder.chmod(0o300)
        path = folder / "m.jsonl"

        def as_nobody() -> None:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            with pytest.raises(PermissionError):
                os.listdir(folder)  # really unreadable to us now
            create(path, "match_started", 2, START, ts=TS)

        assert in_child(as_nobody) == 0
        assert head(path).seq == 1
        assert sorted(os.listdir(folder)) == ["m.jsonl"]
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_encode_is_what_create_writes(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    line = create(path, "match_started", 2, START, ts=TS)
    assert path.read_bytes() == encode(1, TS, "match_started", 2, None, START) + b"\n" == line.raw + b"\n"
