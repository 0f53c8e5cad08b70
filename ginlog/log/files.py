"""The operating system's side of a match file: open, lock, read at an offset, fsync, and the file's end.

Every OS failure becomes a :class:`~ginlog.errors.StoreError` (rule ``"file"``,
or ``"locked"`` for a lock held too long) naming the file, so the CLI prints
one line, never a traceback. Writers (:mod:`ginlog.log.writer`) take an
exclusive ``flock``; readers take a shared one only to wait out a writer
that seems to be mid-line (see :mod:`ginlog.log.reader`).

:func:`head` finds where a file ends by reading backwards from its end, so
a writer can check what it expects to follow without reading the whole file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import stat
import time
from typing import Final

import attrs

from ginlog.errors import IntegrityError, MalformedLine, StoreError
from ginlog.log.format import MAX_LINE_BYTES, digest, parse_line, short_repr

__all__ = [
    "LOCK_TIMEOUT",
    "Head",
    "Tail",
    "head",
    "head_of",
    "read_tail",
    "open_file",
    "open_sized",
    "fstat",
    "pread",
    "write_all",
    "lock",
    "fsync",
    "fsync_dir",
    "file_error",
    "NAME_MAX",
    "name_max",
    "fitting_name",
]

LOCK_TIMEOUT = 5.0
"""Seconds a writer waits for another writer's lock before giving up."""

_CHUNK: Final = 65536

NAME_MAX: Final = 255
"""Longest file name, in bytes, on the file systems ginlog meets (ext4, xfs, btrfs, tmpfs, APFS)."""


@attrs.frozen
class Head:
    """Where a match file ends, found without reading the whole file.

    ``seq``/``digest`` describe the last complete line (``0``/``None`` when
    there is none); ``size`` is the file size in bytes; ``torn`` holds any bytes
    after the last newline (``None`` when the file ends cleanly). Writers use
    it to check ``expect`` and to chain the next line::

        h = head("m.jsonl")      # Head(seq=12, digest='9f...', size=2048, torn=None)
    """

    seq: int
    digest: str | None
    size: int
    torn: bytes | None


@attrs.frozen
class Tail:
    """The end of a file: the offset past its last newline, what follows, and the last whole line."""

    end: int  # offset just past the last newline (0 if none)
    torn: bytes  # bytes after the last newline
    last: bytes | None  # the last complete line, without its newline


def head(path: str | os.PathLike[str]) -> Head:
    """The last complete line's ``seq`` and digest, read backwards from the end.

    Reads only the tail of the file, so it is fast on any size. Does not check
    the chain (that needs :func:`ginlog.log.reader.read_lines`); raises
    :class:`MalformedLine` or :class:`IntegrityError` if the last complete line
    has no usable ``seq``.

        head("m.jsonl")  # Head(seq=12, digest='9f0c...', size=2048, torn=None)
    """
    label = os.fsdecode(path)
    fd = open_file(path, os.O_RDONLY, label)
    try:
        return head_of(fd, label)
    finally:
        os.close(fd)


def head_of(fd: int, label: str) -> Head:
    """:func:`head` of a file already open (a writer holding its lock)."""
    size = fstat(fd, label).st_size
    tail = read_tail(fd, size, label)
    torn = tail.torn or None
    if tail.last is None:
        return Head(seq=0, digest=None, size=size, torn=torn)
    try:
        data = parse_line(tail.last)
    except MalformedLine as exc:
        raise MalformedLine(f"the last complete line: {exc.message}", rule=exc.rule, path=label) from None
    seq = data.get("seq")
    if type(seq) is not int or seq < 1:
        raise IntegrityError(
            f"the last complete line has no usable seq (found {short_repr(seq)})", rule="seq", path=label
        )
    return Head(seq=seq, digest=digest(tail.last), size=size, torn=torn)


def read_tail(fd: int, size: int, label: str) -> Tail:
    """Find the last newline and the line before it, reading backwards in blocks."""
    pos = size
    pieces: list[bytes] = []
    newline = -1
    while pos > 0:
        start = max(0, pos - _CHUNK)
        block = pread(fd, pos - start, start, label)
        i = block.rfind(b"\n")
        if i >= 0:
            newline = start + i
            pieces.append(block[i + 1 :])
            break
        pieces.append(block)
        pos = start
    torn = b"".join(reversed(pieces))
    if newline < 0:
        return Tail(end=0, torn=torn, last=None)
    start = max(0, newline - (MAX_LINE_BYTES + 1))
    block = pread(fd, newline - start, start, label)
    j = block.rfind(b"\n")
    if j >= 0:
        last = block[j + 1 :]
    elif start == 0:
        last = block
    else:
        raise MalformedLine(
            f"the last complete line is longer than the limit of {MAX_LINE_BYTES} bytes",
            rule="line-too-long",
            path=label,
        )
    return Tail(end=newline + 1, torn=torn, last=last)


def pread(fd: int, n: int, offset: int, label: str) -> bytes:
    """Exactly ``n`` bytes at ``offset`` (a file that shrinks meanwhile is an error)."""
    parts: list[bytes] = []
    while n > 0:
        try:
            part = os.pread(fd, n, offset)
        except OSError as exc:
            raise file_error(exc, label, "read") from None
        if not part:
            raise StoreError(f"{label} shrank while being read", rule="file", path=label)
        parts.append(part)
        n -= len(part)
        offset += len(part)
    return b"".join(parts)


def write_all(fd: int, data: bytes, size_before: int, label: str) -> None:
    """One ``write`` (looping only on a short write); on failure, cut our bytes back off."""
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            if n <= 0:
                raise OSError(errno.EIO, "write made no progress")
            view = view[n:]
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size_before)
            os.fsync(fd)
        raise file_error(exc, label, "write") from None


def lock(fd: int, label: str, mode: int = fcntl.LOCK_EX) -> None:
    """``flock`` (exclusive unless told), polling so a stuck writer costs at most :data:`LOCK_TIMEOUT`."""
    deadline = time.monotonic() + LOCK_TIMEOUT
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as exc:
            raise file_error(exc, label, "lock") from None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise StoreError(
                f"another process has held the lock on {label} for over {LOCK_TIMEOUT:g} s; try again",
                rule="locked",
                path=label,
            )
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, 0.05)


def fsync(fd: int, label: str) -> None:
    """``os.fsync``, its failure a :class:`StoreError`."""
    try:
        os.fsync(fd)
    except OSError as exc:
        raise file_error(exc, label, "sync") from None


def fsync_dir(path: str | os.PathLike[str], label: str) -> None:
    """Make a new directory entry durable, as far as the directory lets us.

    Some file systems cannot sync a directory, and a directory without read
    permission (``chmod 0300``: files may be made in it, not listed) cannot
    be opened to sync at all. Neither is an error: by then the file's own
    bytes are synced, the entry is made, and the file system commits it on
    its own within seconds. (Raising here reported a failure for a file that
    had just been written, and blocked every retry with "already exists".)
    """
    parent = os.path.dirname(os.path.abspath(os.fsdecode(path)))
    try:
        fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except PermissionError:
        return
    except OSError as exc:
        raise file_error(exc, parent, "open directory") from None
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise file_error(exc, label, "sync the directory of") from None
    finally:
        os.close(fd)


def open_sized(path: str | os.PathLike[str], label: str) -> tuple[int, int]:
    """:func:`open_file` to read a regular file, and its size then (from the one ``fstat`` the open makes)."""
    return _open(path, os.O_RDONLY, label, True)


def open_file(path: str | os.PathLike[str], flags: int, label: str, *, regular: bool = True) -> int:
    """Open as a raw fd, turning every OS failure into :class:`StoreError` (rule ``"file"``).

    A directory is always refused, and so (unless ``regular=False``) is
    anything else that is not a regular file: a FIFO, a socket, a device. The
    open itself never blocks (``O_NONBLOCK``): a plain open of a FIFO waits
    until a writer opens it, which hung ``ginlog audit *`` on a FIFO among the
    files. The flag is then cleared, except on a regular file opened only to
    read: there it changes nothing (a regular file's reads never wait), and
    clearing it was two system calls of every file an audit opens. A stream
    (a pipe) is read as ``-``, standard input.
    """
    return _open(path, flags, label, regular)[0]


def _open(path: str | os.PathLike[str], flags: int, label: str, regular: bool) -> tuple[int, int]:
    """:func:`open_file`, and the file's size when opened."""
    try:
        fd = os.open(path, flags | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        raise file_error(exc, label, "open") from None
    try:
        st = fstat(fd, label)
        mode = st.st_mode
        if stat.S_ISDIR(mode):
            raise StoreError(f"{label} is a directory, not a match file", rule="file", path=label)
        if regular and not stat.S_ISREG(mode):
            raise StoreError(
                f"{label} is not a regular file (a pipe, a socket or a device); give '-' to read standard input",
                rule="file",
                path=label,
            )
        if flags != os.O_RDONLY or not stat.S_ISREG(mode):
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except OSError as exc:
        os.close(fd)
        raise file_error(exc, label, "open") from None
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def fstat(fd: int, label: str) -> os.stat_result:
    """``os.fstat``, its failure a :class:`StoreError`."""
    try:
        return os.fstat(fd)
    except OSError as exc:
        raise file_error(exc, label, "stat") from None


def name_max(folder: str | os.PathLike[str]) -> int:
    """The longest file name (bytes) ``folder`` takes: its file system's, else :data:`NAME_MAX`."""
    try:
        return min(os.pathconf(folder, "PC_NAME_MAX"), 4096)
    except (OSError, ValueError):
        return NAME_MAX


def fitting_name(base: str, suffix: str, limit: int = NAME_MAX) -> str:
    """``base + suffix``, or, when that is over ``limit`` bytes, ``base`` cut short, ``~``, a hash of it, and ``suffix``.

    So a side file of a long match file name still gets a name the file
    system takes, that still starts like the match file's and still tells
    two long names apart (the hash is of the whole ``base``). The cut falls
    between characters, never inside one.

    >>> fitting_name("m.jsonl", ".torn-20261129T195625Z")
    'm.jsonl.torn-20261129T195625Z'
    >>> name = fitting_name("x" * 250 + ".jsonl", ".torn-20261129T195625Z")
    >>> len(name), name[:3], name[-32:]
    (255, 'xxx', 'x~e9b8e2c4.torn-20261129T195625Z')
    """
    raw, tail = os.fsencode(base), os.fsencode(suffix)
    if len(raw) + len(tail) <= limit:
        return base + suffix
    mark = b"~" + hashlib.sha256(raw).hexdigest()[:8].encode()
    cut = raw[: max(0, limit - len(tail) - len(mark))]
    for _ in range(3):  # back off to a character boundary (a UTF-8 character is at most 4 bytes)
        try:
            cut.decode("utf-8")
            break
        except UnicodeDecodeError as exc:
            if exc.start < len(cut) - 3:  # not UTF-8 at all: keep the bytes as they are
                break
            cut = cut[: exc.start]
    return os.fsdecode(cut + mark + tail)


def file_error(exc: OSError, label: str, action: str) -> StoreError:
    """The :class:`StoreError` for an OS failure, worded for a person: ``cannot open m.jsonl: permission denied``."""
    if isinstance(exc, FileNotFoundError):
        what = "no such file or directory"
    elif isinstance(exc, IsADirectoryError):
        what = "it is a directory, not a match file"
    elif isinstance(exc, PermissionError):
        what = "permission denied"
    else:
        what = exc.strerror or str(exc)
    return StoreError(f"cannot {action} {label}: {what}", rule="file", path=label)
