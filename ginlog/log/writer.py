"""The writer: the only code that adds bytes to a match file.

Writers take an exclusive ``flock`` and say which event they expect to follow
(``expect``), so two writers never interleave and a stale writer gets
:class:`~ginlog.errors.Conflict` instead of a fork in the match. A crash in
the middle of a write leaves a torn tail (bytes after the last newline);
reading reports it, appending refuses until :func:`repair` moves the bytes
to a side file. Existing bytes are never rewritten.

Every line is built by :func:`ginlog.log.format.encode` and read back before
it is written, so the writer never writes a line the reader cannot read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ginlog.errors import Conflict, MalformedLine, StoreError, TornTail
from ginlog.log.files import file_error, fsync, fsync_dir, fstat, head_of, lock, open_file, read_tail, write_all
from ginlog.log.format import Line, digest, encode, is_int, now_ts, parse_line, short_repr

if TYPE_CHECKING:  # pathlib loads only where used: `ginlog play` starts faster
    from pathlib import Path

__all__ = ["RepairReport", "create", "append", "append_many", "repair"]


@attrs.frozen
class RepairReport:
    """What :func:`repair` did: where the torn bytes went (``None`` if nowhere).

    ``torn`` is the bytes moved, ``b""`` when nothing was torn::

        repair("m.jsonl")  # RepairReport(side_file=Path('m.jsonl.torn-20261129T195625Z'), torn=b'{"seq":13,"t')
    """

    side_file: Path | None
    torn: bytes


def create(
    path: str | os.PathLike[str],
    type: str,
    v: int,
    fields: Mapping[str, Any],
    *,
    ts: str | None = None,
) -> Line:
    """Start a new match file with its first line (``seq`` 1, ``prev`` null).

    Refuses an existing path (rule ``"exists"``): a match file is never
    overwritten. The line is written in one ``write`` and both the file and its
    directory are fsynced, so after a crash the file is either absent, empty
    or holds one whole line (a torn line is left for :func:`repair`).

        create("m.jsonl", "note", 2, {"text": "hello"})
    """
    label = os.fsdecode(path)
    raw, data = _build(1, ts if ts is not None else now_ts(), type, v, None, fields)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise StoreError(
            "the file already exists; a match file is never overwritten",
            rule="exists",
            path=label,
        ) from None
    except OSError as exc:
        raise file_error(exc, label, "create") from None
    try:
        lock(fd, label)
        write_all(fd, raw + b"\n", 0, label)
        fsync(fd, label)
    finally:
        os.close(fd)
    fsync_dir(path, label)
    return Line(lineno=1, raw=raw, data=data, digest=digest(raw))


def append(
    path: str | os.PathLike[str],
    type: str,
    v: int,
    fields: Mapping[str, Any],
    *,
    expect: int,
    ts: str | None = None,
) -> Line:
    """Append one event after event ``expect``, under an exclusive lock.

    ``expect`` is the ``seq`` the caller last saw; if the file has moved on
    (or back) the append is refused with :class:`Conflict` and nothing is
    written, so the caller re-reads and decides again. A torn tail refuses
    with :class:`TornTail` until :func:`repair`.

        line = append("m.jsonl", "card_drawn", 2, {"player": "Ann", "source": "stock"}, expect=12)
        line.seq  # 13
    """
    return append_many(path, [(type, v, fields)], expect=expect, ts=ts)[0]


def append_many(
    path: str | os.PathLike[str],
    items: Sequence[tuple[str, int, Mapping[str, Any]]],
    *,
    expect: int,
    ts: str | None = None,
) -> list[Line]:
    """Append several events under one lock, in one ``write`` and one fsync.

    All lines share ``ts``. On a write error the file is rolled back to its old
    size, so none is written. A crash in the middle of the one ``write`` can
    leave a prefix: whole lines (each a valid event), then perhaps a torn one
    for :func:`repair`; never a damaged line before the end. With no items, only the checks run.

        append_many("m.jsonl", [("knocked", 2, {...}), ("hand_shown", 2, {...})], expect=40)
    """
    label = os.fsdecode(path)
    if not is_int(expect) or expect < 0:
        raise StoreError(f"expect must be a non-negative integer, not {expect!r}", rule="envelope")
    stamp = ts if ts is not None else now_ts()
    fd = open_file(path, os.O_RDWR | os.O_APPEND, label)
    try:
        lock(fd, label)
        h = head_of(fd, label)
        if h.torn is not None:
            raise TornTail(
                f"the file ends with {len(h.torn)} bytes that are not a complete line: "
                f"{short_repr(h.torn)}; run repair before appending",
                path=label,
                seq=h.seq or None,
                detail=len(h.torn),
            )
        if h.seq != expect:
            why = "another writer appended first" if h.seq > expect else "the file is shorter than that"
            raise Conflict(
                f"expected to follow event {expect} but the file ends at event {h.seq}: {why}",
                path=label,
                seq=h.seq or None,
                detail=h,
            )
        lines: list[Line] = []
        prev = h.digest
        for offset, (type_, v, fields) in enumerate(items, start=1):
            seq = expect + offset
            raw, data = _build(seq, stamp, type_, v, prev, fields)
            prev = digest(raw)
            lines.append(Line(lineno=seq, raw=raw, data=data, digest=prev))
        if lines:
            write_all(fd, b"".join(line.raw + b"\n" for line in lines), h.size, label)
            fsync(fd, label)
        return lines
    finally:
        os.close(fd)  # also releases the lock


def repair(path: str | os.PathLike[str]) -> RepairReport:
    """Move a torn tail to a side file and cut the match back to its last whole line.

    Nothing is thrown away: the torn bytes go to ``<name>.torn-<UTC stamp>``
    (``-2``, ``-3``... if taken), fsynced before the match file is truncated.
    With nothing torn, nothing changes and ``RepairReport(None, b"")`` is returned.

        repair("m.jsonl")  # RepairReport(side_file=Path('m.jsonl.torn-20261129T195625Z'), torn=b'{"se')
    """
    label = os.fsdecode(path)
    fd = open_file(path, os.O_RDWR, label)
    try:
        lock(fd, label)
        size = fstat(fd, label).st_size
        tail = read_tail(fd, size, label)
        if not tail.torn:
            return RepairReport(side_file=None, torn=b"")
        from pathlib import Path

        side = _write_side_file(Path(os.fsdecode(path)), tail.torn)
        try:
            os.ftruncate(fd, tail.end)
        except OSError as exc:
            raise file_error(exc, label, "truncate") from None
        fsync(fd, label)
        return RepairReport(side_file=side, torn=tail.torn)
    finally:
        os.close(fd)


def _write_side_file(match: Path, torn: bytes) -> Path:
    base = f"{match.name}.torn-{_side_stamp()}"
    for n in range(1, 10_000):
        side = match.with_name(base if n == 1 else f"{base}-{n}")
        try:
            fd = os.open(side, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            continue
        except OSError as exc:
            raise file_error(exc, str(side), "create") from None
        try:
            write_all(fd, torn, 0, str(side))
            fsync(fd, str(side))
        finally:
            os.close(fd)
        fsync_dir(side, str(side))
        return side
    raise StoreError(f"too many side files named {base}*", rule="file", path=str(match))


def _side_stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _build(
    seq: int, ts: str, type: str, v: int, prev: str | None, fields: Mapping[str, Any]
) -> tuple[bytes, dict[str, Any]]:
    """Encode a line and read it back, so the writer never writes a line the reader cannot read."""
    raw = encode(seq, ts, type, v, prev, fields)
    try:
        return raw, parse_line(raw)
    except MalformedLine as exc:
        raise StoreError(f"event {seq} ({type}) would not read back: {exc.message}", rule="encode") from None
