"""The first answer to each tap, by the id the page made for it, kept beside the match across a restart.

Why: a phone on a table's Wi-Fi loses answers. The page sends a tap again,
with the same id, until it hears back; the second sending must get the
first answer, not write the entry twice, even when the server was
restarted in between. So every answer is appended to ``.NAME.serve-taps``
beside the match *before* it is sent, and read back at start. It is
written, not synced: a killed server's writes are the kernel's and survive
it; only a power cut can lose the last answers, and a tap sent again after
one is answered as a conflict naming its own line (which the match's
writer did sync), so even then nothing is written twice and nothing
acknowledged is lost. A sync here would double a tap's time. The file is opened as the recorder's history is (never through a
link, a regular file with one name); only its last :data:`TAIL_BYTES` are
read and at most :data:`KEPT` answers kept, so it costs nothing to plant a
big one. It is a convenience for retries, never a record: the match file
is the record.

>>> import os, tempfile
>>> match = os.path.join(tempfile.mkdtemp(), "friday.jsonl")
>>> store = TapStore(match)
>>> store.get("tap-0001") is None
True
>>> store.put("tap-0001", 200, {"ok": True, "seq": 3})
>>> TapStore(match).get("tap-0001")  # another server, after a restart
(200, {'ok': True, 'seq': 3})
>>> valid_id("tap-0001"), valid_id("../etc"), valid_id("x")
(True, False, False)
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import OrderedDict
from typing import Any, Final

__all__ = ["TapStore", "valid_id", "taps_path", "TAIL_BYTES", "KEPT"]

#: How much of the file's end is read at start.
TAIL_BYTES: Final = 512 * 1024
#: How many answers are kept (the oldest go first): far more than the taps a page can have in flight.
KEPT: Final = 4096
_ID: Final = re.compile(r"[A-Za-z0-9_-]{8,64}")
_FLAGS: Final = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def valid_id(tap_id: object) -> bool:
    """Whether ``tap_id`` is a tap id: 8 to 64 of ``A-Z a-z 0-9 _ -``."""
    return isinstance(tap_id, str) and _ID.fullmatch(tap_id) is not None


def taps_path(match: str) -> str:
    """``.NAME.serve-taps`` beside the match file."""
    folder, name = os.path.split(os.path.abspath(match))
    return os.path.join(folder, f".{name}.serve-taps")


def _open(path: str, flags: int) -> int | None:
    try:
        fd = os.open(path, flags | _FLAGS, 0o600)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
        return fd
    os.close(fd)
    return None


class TapStore:
    """The answers given so far to one match's taps: in memory, and appended to the file beside it."""

    def __init__(self, match: str) -> None:
        self.path = taps_path(match)
        self._answers: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        self._load()

    def _load(self) -> None:
        fd = _open(self.path, os.O_RDONLY)
        if fd is None:
            return
        try:
            size = os.fstat(fd).st_size
            os.lseek(fd, max(0, size - TAIL_BYTES), os.SEEK_SET)
            data = b""
            while chunk := os.read(fd, 1 << 16):
                data += chunk
        finally:
            os.close(fd)
        for raw in data.split(b"\n"):
            try:
                row = json.loads(raw)
                tap_id, status, answer = row["id"], row["status"], row["answer"]
            except (ValueError, TypeError, KeyError):
                continue  # a line cut by the tail, or torn by a kill: that tap is answered again
            if valid_id(tap_id) and isinstance(status, int) and isinstance(answer, dict):
                self._remember(tap_id, status, answer)

    def _remember(self, tap_id: str, status: int, answer: dict[str, Any]) -> None:
        self._answers[tap_id] = (status, answer)
        self._answers.move_to_end(tap_id)
        while len(self._answers) > KEPT:
            self._answers.popitem(last=False)

    def get(self, tap_id: str) -> tuple[int, dict[str, Any]] | None:
        """The first answer given to ``tap_id`` (its HTTP status and body), if any."""
        return self._answers.get(tap_id)

    def put(self, tap_id: str, status: int, answer: dict[str, Any]) -> None:
        """Keep the answer to ``tap_id``: in the file before the caller sends it (if the file can be written)."""
        self._remember(tap_id, status, answer)
        fd = _open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        if fd is None:
            return  # a folder that cannot be written: kept in memory, as the history is
        try:
            os.write(fd, json.dumps({"id": tap_id, "status": status, "answer": answer}, ensure_ascii=True).encode() + b"\n")
        except OSError:
            pass
        finally:
            os.close(fd)

    def forget(self) -> None:
        """Remove the file (the match has ended and its server stops)."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
