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

import contextlib
import errno
import os
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from ginlog.errors import Conflict, MalformedLine, StoreError, TornTail
from ginlog.log.files import (
    Tail,
    file_error,
    fitting_name,
    fsync,
    fsync_dir,
    fstat,
    head_of,
    lock,
    name_max,
    open_file,
    pread,
    read_tail,
    write_all,
)
from ginlog.log.format import MAX_LINE_BYTES, Line, digest, encode, is_int, now_ts, parse_line, short_repr

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
    overwritten. The line goes to a new hidden file in the same directory
    (``.<name>.new-<random>``), is fsynced there, and is then hard-linked
    into place: ``link`` fails when the name is taken, so "never overwrite"
    holds against any other writer, and the match file appears whole or not
    at all. When the write fails (a full disk, a file size limit) the
    hidden file is removed and nothing is left behind, so the next try can
    succeed; a crash leaves at most the hidden file, never a 0-byte match
    file that blocks every retry. On a file system without hard links the
    file is made in place (``O_EXCL``) and removed again if its write fails.

        create("m.jsonl", "note", 2, {"text": "hello"})
    """
    label = os.fsdecode(path)
    raw, data = _build(1, ts if ts is not None else now_ts(), type, v, None, fields)
    line = Line(lineno=1, raw=raw, data=data, digest=digest(raw))
    if os.path.lexists(path):  # early, for a plain message; the link below is what decides
        raise _exists(label)
    folder, name = os.path.split(label)
    folder = folder or "."
    suffix = f".new-{os.urandom(4).hex()}"
    temp = os.path.join(folder, fitting_name("." + name, suffix, name_max(folder)))
    try:
        fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise file_error(exc, label, "create") from None
    linked = False
    try:
        try:
            write_all(fd, raw + b"\n", 0, label)
            fsync(fd, label)
        finally:
            os.close(fd)
        try:
            os.link(temp, path, follow_symlinks=False)
            linked = True
        except FileExistsError:
            raise _exists(label) from None
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise file_error(exc, label, "create") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    if not linked:
        _create_in_place(path, raw, label)
    fsync_dir(path, label)
    return line


#: What ``link`` says on a file system without hard links (FAT, some network and FUSE ones).
_NO_LINKS: Final = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS, errno.EMLINK})


def _exists(label: str) -> StoreError:
    return StoreError("the file already exists; a match file is never overwritten", rule="exists", path=label)


def _create_in_place(path: str | os.PathLike[str], raw: bytes, label: str) -> None:
    """:func:`create` without hard links: ``O_EXCL``, written under the lock, removed again if the write fails."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise _exists(label) from None
    except OSError as exc:
        raise file_error(exc, label, "create") from None
    try:
        lock(fd, label)
        write_all(fd, raw + b"\n", 0, label)
        fsync(fd, label)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)  # ours, still empty (write_all cut it back), and locked: nobody wrote to it
        raise
    finally:
        os.close(fd)


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
    (``-2``, ``-3``... if taken), fsynced before the match file is truncated;
    for a name too long for that, the side file's name is shortened to fit
    the file system (:func:`~ginlog.log.files.fitting_name`: the start of the
    name, ``~`` and a hash). With nothing torn, nothing changes and
    ``RepairReport(None, b"")`` is returned.

    Only a match file is cut, and only the file itself:

    - a symbolic link is refused (opened with ``O_NOFOLLOW``; repair the file
      it points to by its own name);
    - the file's first line must be a ``match_started`` line with ``seq`` 1
      and ``prev`` null, as :func:`create` writes it; or, when the file holds
      no complete line at all, its bytes must be the start of one as ginlog
      writes it (``{"seq":1,"ts":"<time>","type":"match_started",...``: a
      crash in the first write). Anything else (notes without a final
      newline, a JSON file of another program) is refused with rule
      ``not-a-match`` and left as it is.

        repair("m.jsonl")  # RepairReport(side_file=Path('m.jsonl.torn-20261129T195625Z'), torn=b'{"se')
    """
    label = os.fsdecode(path)
    if os.path.islink(path):
        raise _symlink(label)
    try:
        fd = open_file(path, os.O_RDWR | os.O_NOFOLLOW, label)
    except StoreError:
        if os.path.islink(path):  # made a link since the check above
            raise _symlink(label) from None
        raise
    try:
        lock(fd, label)
        size = fstat(fd, label).st_size
        tail = read_tail(fd, size, label)
        if not tail.torn:
            return RepairReport(side_file=None, torn=b"")
        _check_match_file(fd, tail, label)
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


#: The type of every match file's first line (:class:`ginlog.log.events.MatchStarted`).
FIRST_TYPE: Final = "match_started"
#: How :func:`create` begins a match file, ``0`` standing for any digit of the time.
_FIRST_LINE_START: Final = b'{"seq":1,"ts":"0000-00-00T00:00:00.000Z","type":"' + FIRST_TYPE.encode() + b'","v":'


def _symlink(label: str) -> StoreError:
    return StoreError(
        f"{label} is a symbolic link; repair cuts only a match file itself: repair the file it points to",
        rule="file",
        path=label,
    )


def _check_match_file(fd: int, tail: Tail, label: str) -> None:
    """Refuse (rule ``not-a-match``) unless the file is a match file: see :func:`repair`."""
    if tail.end == 0:
        if _could_begin_a_match(tail.torn):
            return
        why = "it holds no complete line, and its bytes are not the start of a match_started line"
    else:
        first = pread(fd, min(tail.end, MAX_LINE_BYTES + 1), 0, label)
        newline = first.find(b"\n")
        try:
            data = parse_line(first[:newline]) if newline >= 0 else None
        except MalformedLine:
            data = None
        if data is not None and data.get("seq") == 1 and data.get("type") == FIRST_TYPE and "prev" in data \
                and data["prev"] is None and type(data["seq"]) is int:
            return
        why = "its first line is not a match_started line (seq 1, prev null)"
    raise StoreError(f"{label} is not a match file: {why}; nothing was changed", rule="not-a-match", path=label)


def _could_begin_a_match(torn: bytes) -> bool:
    """Whether ``torn`` is the start of a first line as :func:`create` writes it (or longer, beginning so).

    >>> _could_begin_a_match(b'{"seq":1,"ts":"2026-11'), _could_begin_a_match(b'{"se')
    (True, True)
    >>> _could_begin_a_match(b'hello'), _could_begin_a_match(b'{"seq":1,"ts":"2026-11-29T19:56:25.123Z","type":"note"')
    (False, False)
    """
    digits = b"0123456789"
    for want, got in zip(_FIRST_LINE_START, torn):
        if want == 0x30:  # "0": any digit of the time
            if got not in digits:
                return False
        elif want != got:
            return False
    return True


def _write_side_file(match: Path, torn: bytes) -> Path:
    base = f".torn-{_side_stamp()}"
    limit = name_max(match.parent)
    for n in range(1, 10_000):
        side = match.with_name(fitting_name(match.name, base if n == 1 else f"{base}-{n}", limit))
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
    raise StoreError(f"too many side files named {match.name}{base}*", rule="file", path=str(match))


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
