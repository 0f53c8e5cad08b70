"""Where a command may write its ``-o``: never over a match record, and a folder never to standard output.

A match record is the one thing ginlog must never lose, and ``ginlog export
m.jsonl -o m.jsonl`` (a slip in a recalled command line) would replace it with
rows. So before ``export``, ``html`` or a site writes a file, the file already
there is looked at, and the command stops with a usage error (exit 2),
writing nothing, when it is

- a match record: a regular file whose first line that is not blank is a
  ``match_started`` event (a torn or hand-edited one whose JSON does not
  parse, too, if that line names the type);
- a regular file ginlog cannot read, so cannot tell;
- one of the files the command reads (under any name: a link, ``./m.jsonl``,
  a hard link).

Anything else (last week's export, an old page) is replaced, as a person
running a command again expects. A link that is not an input is replaced
itself; what it points to is never written.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> with open(os.path.join(d, "m.jsonl"), "w") as f:
...     _ = f.write('{"seq":1,"type":"match_started","players":["Ann","Bob"]}\\n')
>>> print(refusal(os.path.join(d, "m.jsonl")).rsplit("/", 1)[1])
m.jsonl is a match record: ginlog never writes over one (give -o another file)
>>> refusal(os.path.join(d, "hands.csv")) is None
True
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from collections.abc import Iterable
from typing import Final

__all__ = ["is_match_record", "refusal", "folder_refusal", "RecordInTheWay", "refuse_record", "Replacement", "write_whole"]

#: How much of a file is read to find its first line: a match's first line (players, title, every knob) is short.
SNIFF: Final = 64 * 1024
_STARTED: Final = re.compile(rb'"type"\s*:\s*"match_started"')


class RecordInTheWay(OSError):
    """A file a site would write is a match record, or cannot be checked (reported as a write that failed)."""


def is_match_record(path: str) -> bool:
    """Whether ``path`` is a regular file (not through a link) whose first line that is not blank starts a match.

    Opened without blocking (a FIFO is not a record, and is not waited on)
    and read at most :data:`SNIFF` bytes. A file that cannot be opened is not
    one (:func:`refusal` refuses an unreadable regular file on its own).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, SNIFF)
    except OSError:
        return False
    finally:
        os.close(fd)
    first = next((line for line in head.split(b"\n") if line.strip()), b"").strip().removeprefix(b"\xef\xbb\xbf")
    try:
        obj = json.loads(first)
    except ValueError:
        return _STARTED.search(first) is not None
    return isinstance(obj, dict) and obj.get("type") == "match_started"


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def refusal(output: str, inputs: Iterable[str] = ()) -> str | None:
    """Why ``output`` may not be written (a usage message), or None when it may. ``-`` is standard output."""
    if output == "-":
        return None
    try:
        st: os.stat_result | None = os.lstat(output)
    except OSError:  # not there (or its folder is not): the write makes it, or fails and says so
        st = None
    regular = st is not None and stat.S_ISREG(st.st_mode)
    if regular and is_match_record(output):
        return f"{output} is a match record: ginlog never writes over one (give -o another file)"
    for name in inputs:
        if st is not None and name != "-" and os.path.isfile(name) and _same(name, output):
            return f"{output} is {name}, which this command reads: give -o another file"
    if regular and not os.access(output, os.R_OK):
        return f"{output} cannot be read, so it cannot be checked not to be a match record: give -o another file"
    return None


def refuse_record(path: str) -> None:
    """Raise :class:`RecordInTheWay` when :func:`refusal` refuses ``path`` (for a file a site writes)."""
    why = refusal(path)
    if why is not None:
        raise RecordInTheWay(errno.EEXIST, why)


def folder_refusal(output: str, what: str) -> str | None:
    """Why ``output`` cannot be the folder ``what`` is written to: ``-`` (standard output holds no folder).

    >>> folder_refusal("-", "a site")
    "a site is a folder of files, not one stream: give -o a folder, not '-'"
    >>> folder_refusal("site/", "a site") is None
    True
    """
    if output == "-":
        return f"{what} is a folder of files, not one stream: give -o a folder, not '-'"
    return None


class Replacement:
    """A file written beside ``path`` (``PATH.tmpPID``) and renamed over it at the end, so no half file is
    ever seen; :meth:`abandon` removes it (a failed write leaves nothing behind). Every ``-o`` writes so."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.tmp = f"{path}.tmp{os.getpid()}"

    def done(self) -> None:
        os.replace(self.tmp, self.path)

    def abandon(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def write_whole(path: str, data: bytes) -> None:
    """``data`` put in place at ``path`` whole (:class:`Replacement`), or an ``OSError`` and nothing left."""
    out = Replacement(path)
    try:
        with open(out.tmp, "wb") as fh:
            fh.write(data)
        out.done()
    except BaseException:
        out.abandon()
        raise
