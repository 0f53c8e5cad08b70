"""The recorder's history file: read from its tail only, never through a link, appended without following one.

The file (``.NAME.history`` beside a match, :func:`ginlog.app.record.prompt.history_path`)
is in prompt_toolkit's ``FileHistory`` format, so a history written by either
reads in the other: each entry is a ``# date`` line, then its lines each
behind a ``+``. ``FileHistory`` itself reads the whole file into memory and
opens it by name, following a link, and the file is not ginlog's to trust
(anyone who can write the folder can plant one). So here:

- only the last :data:`TAIL_BYTES` are read, and at most :data:`MAX_ENTRIES`
  entries kept: a planted 4 GB file costs what a normal one does;
- the file is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked on the open
  descriptor to be a regular file with one name, so a symbolic or hard link
  (to the match file, say), a FIFO or a device is neither followed, written
  nor waited on;
- anything unreadable is an empty history, and a failed append is silent: a
  history is a convenience, and it must never cost the table an entry.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), ".m.jsonl.history")
>>> append(path, "dealer Ann"); append(path, "note two\\nlines")
>>> newest_first(path)
['note two\\nlines', 'dealer Ann']
"""

from __future__ import annotations

import datetime
import os
import stat
from typing import Final

__all__ = ["newest_first", "append", "TAIL_BYTES", "MAX_ENTRIES"]

#: How much of the file's end is read: some thousands of entries.
TAIL_BYTES: Final = 256 * 1024
#: How many entries Up can go back through.
MAX_ENTRIES: Final = 2000

_FLAGS: Final = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _open(path: str, flags: int, mode: int = 0o600) -> int | None:
    """A descriptor for ``path`` if it is a regular file reached without a link, and no other name's; else None.

    A hard link is refused too: a history planted as a second name of the match
    file would have its entries appended to the record.
    """
    try:
        fd = os.open(path, flags | _FLAGS, mode)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def newest_first(path: str) -> list[str]:
    """The entries in the last :data:`TAIL_BYTES` of ``path``, newest first (at most :data:`MAX_ENTRIES`).

    A first entry cut by the tail's start is dropped, not shown half.
    """
    fd = _open(path, os.O_RDONLY)
    if fd is None:
        return []
    try:
        size = os.fstat(fd).st_size
        start = max(0, size - TAIL_BYTES)
        os.lseek(fd, start, os.SEEK_SET)
        chunks = []
        left = size - start
        while left > 0:
            chunk = os.read(fd, min(left, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        return []
    finally:
        os.close(fd)
    lines = b"".join(chunks).decode("utf-8", errors="replace").split("\n")
    if start > 0:  # begin at the first whole entry: its "# date" line (the first line read is a part of one)
        first = next((i for i, line in enumerate(lines) if i > 0 and line.startswith("#")), len(lines))
        lines = lines[first:]
    entries: list[str] = []
    current: list[str] | None = None
    for line in lines:
        if line.startswith("+"):
            if current is None:
                current = []
            current.append(line[1:])
        elif current is not None:
            entries.append("\n".join(current))
            current = None
    if current is not None:
        entries.append("\n".join(current))
    return entries[::-1][:MAX_ENTRIES]


def append(path: str, entry: str) -> None:
    """Add ``entry`` at the end of ``path`` (made if missing, mode 0600); silently nothing if it cannot be."""
    fd = _open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    if fd is None:
        return
    text = f"\n# {datetime.datetime.now()}\n" + "".join(f"+{line}\n" for line in entry.split("\n"))
    try:
        os.write(fd, text.encode("utf-8", errors="replace"))
    except OSError:
        pass
    finally:
        os.close(fd)
