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

- a symbolic link: ginlog writes neither through nor over one (the folders
  the user named on the way to it are followed; the target is not).

Anything else (last week's export, an old page) is replaced, as a person
running a command again expects, and it keeps its mode. How a file is put in
place is :class:`Replacement`'s: an exclusive, no-follow temporary file
beside it under an unpredictable name, renamed over it whole.

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
import fcntl
import json
import os
import re
import secrets
import signal
import stat
import threading
from collections.abc import Iterable
from typing import IO, Final

__all__ = [
    "match_name_refusal", "is_match_record", "refusal", "folder_refusal", "RecordInTheWay", "LinkInTheWay", "refuse_record", "Replacement",
    "write_whole", "sweep", "enter_folder", "create_new",
]

#: How much of a file is read to find its first line: a match's first line (players, title, every knob) is short.
SNIFF: Final = 64 * 1024
_STARTED: Final = re.compile(rb'"type"\s*:\s*"match_started"')


def match_name_refusal(path: str) -> str | None:
    """Why ``path`` is no name for a new match file (None: it is one), with the name to give instead.

    ``-`` is standard input, where a reader reads a match, never a file to create (``new -`` once made a
    file named ``-``); a name without ``.jsonl`` makes a file that ``audit``, ``stats`` and a site never find
    when they search its folder (``*.jsonl``). Every command that creates a match file asks this first.

    >>> match_name_refusal("friday.jsonl") is None
    True
    >>> print(match_name_refusal("c.txt"))
    c.txt: a match file's name ends in .jsonl (folders are searched for *.jsonl): try c.jsonl
    >>> print(match_name_refusal("-"))
    - is standard input, not a file to create: name the new match file, e.g. friday.jsonl
    """
    if path == "-":
        return "- is standard input, not a file to create: name the new match file, e.g. friday.jsonl"
    if not path.endswith(".jsonl") or os.path.basename(path) == ".jsonl":
        stem = os.path.splitext(path)[0] if os.path.basename(path) not in ("", ".jsonl") else os.path.join(path, "match")
        return f"{path}: a match file's name ends in .jsonl (folders are searched for *.jsonl): try {stem}.jsonl"
    return None


class RecordInTheWay(OSError):
    """A file a site would write is a match record, or cannot be checked (reported as a write that failed)."""


def is_match_record(path: str, *, dir_fd: int | None = None) -> bool:
    """Whether ``path`` is a regular file (not through a link) whose first line that is not blank starts a match.

    Opened without blocking (a FIFO is not a record, and is not waited on)
    and read at most :data:`SNIFF` bytes. A file that cannot be opened is not
    one (:func:`refusal` refuses an unreadable regular file on its own).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
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
    if st is not None and stat.S_ISLNK(st.st_mode):
        return f"{output} is a symbolic link: ginlog writes neither through nor over one (give -o another file)"
    if regular and not os.access(output, os.R_OK):
        return f"{output} cannot be read, so it cannot be checked not to be a match record: give -o another file"
    return None


def refuse_record(path: str, *, dir_fd: int | None = None) -> None:
    """Raise :class:`RecordInTheWay` when ``path`` (in the folder ``dir_fd``, if given) is a match record
    or a link (for a file a site writes)."""
    if dir_fd is None:
        why = refusal(path)
    elif is_match_record(path, dir_fd=dir_fd):
        why = f"{path} is a match record: ginlog never writes over one"
    else:
        why = None
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
    """A file written beside its target under an unpredictable name, then renamed over it whole.

    The temporary file is made with an exclusive, no-follow create
    (``O_CREAT | O_EXCL | O_NOFOLLOW``) in the target's own folder, named
    ``.NAME.ginlog-<16 hex>.tmp``, so a link planted at a guessed name is
    never opened, let alone written through, and two runs never share one.
    It is locked (``flock``) while it is written: a later run that finds it
    knows it is live. :meth:`done` gives it the mode of the file it replaces
    (a ``0600`` export stays ``0600``; a new file gets ``0666`` less the
    umask), checks once more that the target is not a match record, and
    renames it into place; :meth:`abandon` removes it. SIGTERM and SIGHUP
    while it is open remove it too (:func:`_on_signal`), and Ctrl-C reaches
    the caller's ``except``. What a SIGKILL leaves is recognisable by name
    and removed by the next run to the same target (:func:`sweep`).

    ``dir_fd`` names the folder by an open descriptor (a site's pages are
    written relative to the folders it opened without following links);
    without it, the folder of ``path`` is opened (the user's own folders
    followed: only the target itself is never a link). ``swept``: the
    folder's leftovers were removed already (a site sweeps each of its
    folders once, not once a page: a listing a page would cost a site of
    many pages the square of their number).

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> out = Replacement(os.path.join(d, "hands.csv"))
    >>> _ = out.file.write(b"file,match\\n")
    >>> out.done()
    >>> sorted(os.listdir(d)), oct(os.stat(os.path.join(d, "hands.csv")).st_mode & 0o777) == oct(0o666 & ~_umask())
    (['hands.csv'], True)
    """

    def __init__(self, path: str, *, dir_fd: int | None = None, swept: bool = False) -> None:
        self.path = path
        self.name = os.path.basename(path) if dir_fd is None else path
        if not self.name or self.name in (".", ".."):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)
        own_fd = dir_fd is None
        self._dir_fd = os.open(os.path.dirname(path) or ".", _DIR_FLAGS) if dir_fd is None else dir_fd
        self._own_fd = own_fd
        try:
            _refuse_link(self.name, self._dir_fd, path)
            if not swept:
                sweep(self.name, self._dir_fd)
            self.tmp = f".{self.name[:_STEM]}.ginlog-{secrets.token_hex(8)}.tmp"
            _arm()  # before the file exists: a SIGTERM the moment it does must find it among the live ones
            held = _hold_signals()
            try:
                fd = os.open(self.tmp, _CREATE, 0o600, dir_fd=self._dir_fd)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.file: IO[bytes] = os.fdopen(fd, "wb")
                _LIVE.add(self)
            finally:
                _release_signals(held)
        except BaseException:
            if own_fd:
                os.close(self._dir_fd)
            raise

    def done(self) -> None:
        """Put the file in place (its mode the replaced file's), or raise ``OSError`` having removed it."""
        try:
            self.file.flush()
            try:
                st = os.stat(self.name, dir_fd=self._dir_fd, follow_symlinks=False)
                mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o666 & ~_umask()
            except FileNotFoundError:
                mode = 0o666 & ~_umask()
            os.fchmod(self.file.fileno(), mode)
            _refuse_link(self.name, self._dir_fd, self.path)
            if is_match_record(self.name, dir_fd=self._dir_fd):
                raise RecordInTheWay(errno.EEXIST, f"{self.path} is a match record: ginlog never writes over one")
            os.replace(self.tmp, self.name, src_dir_fd=self._dir_fd, dst_dir_fd=self._dir_fd)
        except BaseException:
            self.abandon()
            raise
        self._close()

    def abandon(self) -> None:
        """Remove the temporary file (nothing of this write is left)."""
        with contextlib.suppress(OSError):
            os.unlink(self.tmp, dir_fd=self._dir_fd)
        self._close()

    def _close(self) -> None:
        _LIVE.discard(self)
        with contextlib.suppress(OSError):
            self.file.close()
        if self._own_fd:
            self._own_fd = False
            with contextlib.suppress(OSError):
                os.close(self._dir_fd)

    def __enter__(self) -> Replacement:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.done()
        else:
            self.abandon()


def write_whole(path: str, data: bytes, *, dir_fd: int | None = None, swept: bool = False) -> None:
    """``data`` put in place at ``path`` whole (:class:`Replacement`), or an ``OSError`` and nothing left."""
    with Replacement(path, dir_fd=dir_fd, swept=swept) as out:
        out.file.write(data)


def enter_folder(name: str, dir_fd: int | None, shown_as: str) -> int:
    """Open (making it if need be) the folder ``name`` to write in, without following a link at it
    (:class:`LinkInTheWay`): a site's folders, the samples' (the folders above it are the user's, followed)."""
    try:
        os.mkdir(name, 0o777, dir_fd=dir_fd)
    except FileExistsError:
        pass
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(shown_as):
            raise LinkInTheWay(errno.ELOOP, "is a symbolic link: ginlog does not write through one", shown_as) from None
        raise


def create_new(name: str, data: bytes, *, dir_fd: int) -> None:
    """``data`` as the new file ``name`` in the folder ``dir_fd``: never an existing name, never through a link
    (``FileExistsError`` for either), mode ``0666`` less the umask. For files that only ever begin (samples)."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


#: Open a folder to write in (the user's folders are followed).
_DIR_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
#: Create a temporary file: never an existing name, never through a link.
_CREATE: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
#: How much of the target's name a temporary file's name keeps (NAME_MAX is 255).
_STEM: Final = 200
_LEFTOVER: Final = re.compile(r"\A\.(?P<stem>.+)\.ginlog-[0-9a-f]{16}\.tmp\Z", re.S)
_LIVE: set[Replacement] = set()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _refuse_link(name: str, dir_fd: int, path: str) -> None:
    """A link at the target is refused: ginlog writes neither through nor over one."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise LinkInTheWay(errno.ELOOP, "is a symbolic link: ginlog writes neither through nor over one", path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)


class LinkInTheWay(OSError):
    """The target of an output (or a folder a site enters) is a symbolic link."""


def sweep(name: str | None, dir_fd: int) -> list[str]:
    """Remove what earlier runs to ``name`` (None: to any file of the folder) left behind (killed by SIGKILL or
    a power cut); the names removed.

    A leftover is removed only if it is ours beyond doubt: named
    ``.NAME.ginlog-<16 hex>.tmp`` for this target, a regular file (not a
    link) with one link, owned by this user, not a match record, and not
    locked by a live run. Anything else is left where it is.
    """
    removed: list[str] = []
    stem = None if name is None else name[:_STEM]
    try:
        entries = os.listdir(dir_fd)
    except OSError:
        return removed
    for entry in entries:
        m = _LEFTOVER.match(entry)
        if m is None or (stem is not None and m["stem"] != stem):
            continue
        try:
            fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_uid != os.geteuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a live run is writing it
            if is_match_record(entry, dir_fd=dir_fd):
                continue
            with contextlib.suppress(OSError):
                os.unlink(entry, dir_fd=dir_fd)
                removed.append(entry)
        finally:
            os.close(fd)
    return removed


def _arm() -> None:
    """Once a temporary file is open, SIGTERM and SIGHUP remove every live one before the process dies of them.

    Looked at each time, not once: a process forked from one that was armed may have had its handlers put
    back to the default (the test runner's forked commands do), and must be armed again."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _on_signal)


def _hold_signals() -> set[int | signal.Signals] | None:
    """SIGTERM and SIGHUP held back (delivered at :func:`_release_signals`) while a temporary file is made and
    registered: one that arrived between the two would leave it behind (the hostile campaign's links class did)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP})


def _release_signals(held: set[int | signal.Signals] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _on_signal(signum: int, _frame: object) -> None:
    for out in list(_LIVE):
        out.abandon()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
