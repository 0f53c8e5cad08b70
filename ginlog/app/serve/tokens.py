"""The join token: one secret per served set, kept (mode 0600) beside the first match until the matches end.

Why a file: a phone joined by the QR code keeps the token in a cookie, and
a server restarted mid-hand must take the same token, or both players scan
again between two taps. Why beside the match: it belongs to that served
set, as the recorder's history does (a dot name, so no ``*.jsonl`` glob and
no audit sees it). It is opened as the history is: never through a link,
only a regular file with one name, owned by this user and readable by no
one else; anything else is replaced by a fresh token (phones scan again;
nothing is lost).

>>> import os, tempfile
>>> match = os.path.join(tempfile.mkdtemp(), "friday.jsonl")
>>> where = token_path(match)
>>> os.path.basename(where)
'.friday.jsonl.serve-token'
>>> t = kept_token(where)
>>> len(t), kept_token(where) == t, oct(os.stat(where).st_mode & 0o777)
(43, True, '0o600')
>>> same_token(t, t), same_token(t, t[:-1] + "x"), same_token(None, t)
(True, False, False)
>>> forget_token(where); os.path.exists(where)
False
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import stat
from typing import Final

__all__ = ["token_path", "kept_token", "forget_token", "same_token", "TOKEN_SHAPE"]

#: What a token looks like: 32 random bytes, URL-safe base64 (43 characters).
TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{43}")

_FLAGS: Final = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def token_path(first_match: str) -> str:
    """Where the served set's token is kept: ``.NAME.serve-token`` beside its first match file."""
    folder, name = os.path.split(os.path.abspath(first_match))
    return os.path.join(folder, f".{name}.serve-token")


def _read(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | _FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not (stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and st.st_uid == os.getuid()
                and st.st_mode & 0o077 == 0 and st.st_size <= 256):
            return None
        text = os.read(fd, 256).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return text if TOKEN_SHAPE.fullmatch(text) else None


def kept_token(path: str) -> str:
    """The token kept at ``path``, or a new one written there (exclusive create, mode 0600).

    A file there that is not a sound token of this user's (a link, a second
    name, readable by others, malformed) is removed and replaced.
    """
    found = _read(path)
    if found is not None:
        return found
    token = secrets.token_urlsafe(32)
    forget_token(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FLAGS, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, token.encode("ascii") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return token


def forget_token(path: str) -> None:
    """Remove the kept token (when the served matches have ended); nothing if there is none."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def same_token(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token, compared in constant time (no timing tells how much of it was right)."""
    if given is None or len(given) > 128:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("ascii"))
