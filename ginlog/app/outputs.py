"""Where a command may write its ``-o``: never over a match record, and a folder never to standard output.

A match record is the one thing ginlog must never lose, and ``ginlog export
m.jsonl -o m.jsonl`` (a slip in a recalled command line) would replace it with
rows. So before ``export`` or ``html`` writes a file, an existing one is
sniffed: a regular file whose first line is a ``match_started`` event is a
match record, and the command stops with a usage error (exit 2), writing
nothing. Anything else (last week's export, an old page) is replaced, as a
person running a command again expects. A symlink is not followed: the
output replaces the link, never its target.

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

import json
import os
import re
import stat
from typing import Final

__all__ = ["is_match_record", "refusal", "folder_refusal"]

#: How much of a file is read to find its first line: a match's first line (players, title, every knob) is short.
SNIFF: Final = 64 * 1024
_STARTED: Final = re.compile(rb'"type"\s*:\s*"match_started"')


def is_match_record(path: str) -> bool:
    """Whether ``path`` is a regular file (not through a link) whose first line is a ``match_started`` event.

    Opened without blocking (a FIFO is not a record, and is not waited on) and
    read at most :data:`SNIFF` bytes. A first line that is not JSON but names
    the type, as a torn or hand-edited record's may, counts too: better to
    refuse a write than to lose a record.
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
    first = head.split(b"\n", 1)[0]
    try:
        obj = json.loads(first)
    except ValueError:
        return _STARTED.search(first) is not None
    return isinstance(obj, dict) and obj.get("type") == "match_started"


def refusal(output: str) -> str | None:
    """Why ``output`` may not be written (a usage message), or None when it may."""
    if is_match_record(output):
        return f"{output} is a match record: ginlog never writes over one (give -o another file)"
    return None


def folder_refusal(output: str, what: str) -> str | None:
    """Why ``output`` cannot be the folder ``what`` is written to: ``-`` (standard output holds no folder).

    >>> folder_refusal("-", "the site")
    "the site is a folder of files, not one stream: give -o a folder, not '-'"
    >>> folder_refusal("site/", "the site") is None
    True
    """
    if output == "-":
        return f"{what} is a folder of files, not one stream: give -o a folder, not '-'"
    return None
