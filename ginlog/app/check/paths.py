"""Which files a command's arguments name, one at a time: files, folders (searched for ``*.jsonl``) and globs.

Every command that takes many matches (``audit``, ``stats``, ``export``,
``html DIR``) walks its arguments here, so they agree on what a folder holds
and on what counts as a problem. The walk streams: a folder is listed one
directory at a time, each sorted so that files come in the order of their
sorted full paths (a folder ``b`` sorts as ``b/``, after ``b.jsonl``), and
nothing is kept per file found, so a million files cost what one folder's
listing costs.

A folder is searched through its sub-folders, symlinked ones included (a
club's folder may link last season's): each folder once, by inode, so a link
back up the tree (a loop) or a second link to the same folder adds nothing
and hides nothing. What cannot be searched is a problem, yielded in its place
as a :class:`~ginlog.errors.StoreError`, never a skip: a path that is not
there, a folder or sub-folder that cannot be read, a folder holding no match
file, a glob matching nothing. A glob's folders are searched as folders (a
glob's folder may hold no match file without that being a problem); anything
else a path names (a FIFO, a broken link named ``*.jsonl``) is passed on, for
the reader to say why it is no match file. ``-`` is standard input, once.
An fsspec URL (``s3://bucket/club/``) is listed by
:func:`~ginlog.app.check.sources.walk_url`, in the same order.

A glob is expanded as bash expands it with ``globstar`` (by wcmatch: the
standard library's ``glob`` follows links under ``**`` and so never ends on a
folder that links back up): ``**`` crosses folders but no link to one, ``*``
matches a link to a folder as it matches a folder, hidden names only when the
pattern names them.

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> for name in ("b.jsonl", "b/x.jsonl", "a.jsonl", "b/c/y.jsonl", "notes.txt"):
...     os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
...     open(os.path.join(root, name), "w").close()
>>> [os.path.relpath(p, root) for p in iter_paths([root, os.path.join(root, "a.jsonl")])]
['a.jsonl', 'b.jsonl', 'b/c/y.jsonl', 'b/x.jsonl']
>>> [e.message for e in iter_paths([os.path.join(root, "missing")])]
['no such file or folder']
>>> count_paths([root])
4
"""

from __future__ import annotations

import errno
import glob
import os
import stat
from collections.abc import Iterable, Iterator
from typing import Any

from ginlog.app.check.sources import Lister, is_url
from ginlog.errors import GinlogError, StoreError

__all__ = ["iter_paths", "count_paths", "expand_paths"]


class _Walk:
    """One walk's memory: the folders searched (by inode) and the files named outright (by path).

    Both stay small however many files the folders hold: a file found in a
    folder is never remembered, only checked against the files named outright
    (and a file named outright is skipped when its folder was searched
    already).
    """

    def __init__(self) -> None:
        self.dirs: set[tuple[int, int]] = set()
        self.named: set[str] = set()
        self.stdin = False
        self.again = False  # the folder() last asked for had been searched already

    def folder(self, root: str, *, quiet: bool = False) -> Iterator[str | GinlogError]:
        found = 0
        self.again = False
        for item in self._search(root):
            found += 1  # a file, or a sub-folder that could not be read (said already)
            yield item
        if not found and not quiet and not self.again:  # (a folder searched already, by another name: its files were listed)
            yield StoreError("no match file (*.jsonl) in this folder or below it", rule="file", path=root)

    def _search(self, root: str) -> Iterator[str | GinlogError]:
        """Depth first, without recursion and through directory descriptors, so a tree of any depth is walked
        (10,000 nested folders are; a file whose path is past the system's limit is one line saying so)."""
        try:
            fd = os.open(root, _DIR)
        except OSError as exc:
            yield _cannot(root, "read the folder", exc)
            return
        first = self._listing(root, fd)
        if isinstance(first, GinlogError):
            yield first
            return
        if first is None:
            self.again = True
            return
        stack = [first]
        try:
            while stack:
                top = stack[-1]
                if not top.names:
                    top.close()
                    stack.pop()
                    continue
                name = top.names.pop()
                if not name.endswith("/"):
                    path = top.prefix + name  # (os.path.join's result: the folder's path ends with its separator)
                    # (no str is longer encoded than 4 bytes a character: most paths need no encoding to know)
                    if 4 * len(path) >= _PATH_MAX and len(os.fsencode(path)) >= _PATH_MAX:
                        yield StoreError(
                            f"the path is {len(os.fsencode(path)):,} bytes long, past the system's limit"
                            f" ({_PATH_MAX:,}): it cannot be opened by name; move the file nearer the top",
                            rule="file", path=path,
                        )
                    elif not self.named or os.path.normpath(path) not in self.named:  # (a folder alone names none)
                        yield path
                    continue
                path = os.path.join(top.path, name[:-1])
                child = top.open(name[:-1], path)
                if isinstance(child, GinlogError):
                    yield child
                    continue
                listing = self._listing(path, child)
                if isinstance(listing, GinlogError):
                    yield listing
                elif listing is not None:
                    if not any(n.endswith("/") for n in top.names):
                        top.close()  # no sub-folder left to open from it: its descriptor is not needed
                    stack.append(listing)
        finally:
            for frame in stack:
                frame.close()

    def _listing(self, path: str, fd: int) -> _Folder | GinlogError | None:
        """The folder open at ``fd``, listed (None: searched already, a loop; the descriptor is closed then)."""
        try:
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            if key in self.dirs:
                os.close(fd)
                return None
            self.dirs.add(key)
            names: list[str] = []
            with os.scandir(fd) as it:
                for e in it:
                    try:
                        is_dir = e.is_dir()  # follows a link
                    except OSError:
                        is_dir = False
                    if is_dir:
                        names.append(e.name + "/")
                    elif e.name.endswith(".jsonl"):
                        names.append(e.name)
        except OSError as exc:
            os.close(fd)
            return _cannot(path, "read the folder", exc)
        names.sort(reverse=True)  # popped from the end: in order
        return _Folder(path, fd, names)

    def file(self, path: str, notices: list[dict[str, Any]] | None = None) -> Iterator[str]:
        key = os.path.normpath(path)
        if key in self.named:
            _notice(notices, path, "named twice: read once")
            return
        if path.endswith(".jsonl"):
            try:
                st = os.stat(os.path.dirname(os.path.abspath(path)))
                if (st.st_dev, st.st_ino) in self.dirs:
                    _notice(notices, path, "in a folder searched already: read once")
                    return  # its folder was searched: it has been listed
            except OSError:
                pass
        self.named.add(key)
        yield path


#: Open a folder to list it (a link to a folder is followed, as the walk follows symlinked sub-folders).
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
#: The longest path a file can be opened by (Linux's PATH_MAX, with its terminating NUL).
_PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096


class _Folder:
    """A folder being walked: its path, its descriptor while a sub-folder may still be opened from it, and the
    names left to walk (sorted, last first; a folder's name ends with ``/``)."""

    __slots__ = ("path", "prefix", "fd", "names")

    def __init__(self, path: str, fd: int | None, names: list[str]) -> None:
        self.path, self.fd, self.names = path, fd, names
        self.prefix = os.path.join(path, "")  # what a file's name is put after

    def open(self, name: str, path: str) -> int | GinlogError:
        """Open the sub-folder ``name``: through this folder's descriptor, or by path once it is closed."""
        try:
            if self.fd is not None:
                return os.open(name, _DIR, dir_fd=self.fd)
            if len(os.fsencode(path)) >= _PATH_MAX:
                return StoreError("the folder's path is past the system's limit and cannot be opened", rule="file",
                                  path=path)
            return os.open(path, _DIR)
        except OSError as exc:
            if exc.errno == errno.EMFILE and self.fd is not None:  # too many open: go on by path
                self.close()
                return self.open(name, path)
            return _cannot(path, "read the folder", exc)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _notice(notices: list[dict[str, Any]] | None, path: str, message: str) -> None:
    if notices is not None:
        notices.append({"file": path, "line": None, "event": None, "rule": "copy", "message": message})


def iter_paths(
    paths: Iterable[str], notices: list[dict[str, Any]] | None = None, lister: Lister | None = None
) -> Iterator[str | GinlogError]:
    """Each file the arguments name, in order, each once; a :class:`StoreError` where something cannot be searched.

    ``notices``, if given, gets a warning (rule ``copy``, as ``--json`` gives warnings) for each argument that
    named again what was searched already (a folder by a second name, a file named twice or inside a folder
    named too): read once, and said, so that a club sees that two of its names are one folder. ``lister``
    lists URL prefixes (:func:`~ginlog.app.check.sources.walk_url`; a cluster's lists on its workers).

    >>> import os, tempfile
    >>> root = tempfile.mkdtemp(); open(os.path.join(root, "a.jsonl"), "w").close()
    >>> os.symlink(root, root + "-link")
    >>> said = []
    >>> [os.path.basename(p) for p in iter_paths([root, root + "-link", os.path.join(root, "a.jsonl")], said)]
    ['a.jsonl']
    >>> [n["message"] for n in said]
    ['the same folder as ...', 'in a folder searched already: read once']
    """
    walk = _Walk()
    roots: dict[tuple[int, int], str] = {}
    for p in paths:
        if p == "-":
            if not walk.stdin:
                walk.stdin = True
                yield p
            continue
        if is_url(p):  # an fsspec URL (s3://bucket/club/): listed through fsspec, in the same order
            from ginlog.app.check.sources import walk_url

            yield from walk_url(p, lister)
            continue
        try:
            st = os.stat(p)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            yield _cannot(p, "read", exc)
            continue
        if st is not None:
            if stat.S_ISDIR(st.st_mode):  # os.stat followed a link, as isdir would
                key = (st.st_dev, st.st_ino)
                if key in walk.dirs:
                    earlier = roots.get(key)
                    _notice(notices, p, f"the same folder as {earlier}: searched once" if earlier else
                            "a folder searched already: searched once")
                    continue
                roots[key] = p
                yield from walk.folder(p)
            else:
                yield from walk.file(p, notices)
        elif glob.has_magic(p):
            from wcmatch import glob as wglob  # (only a glob needs it: 10 ms of every command's start-up)

            hits = sorted(wglob.iglob(p, flags=wglob.GLOBSTAR))
            if not hits:
                yield StoreError(f"no file matches {p}", rule="file", path=p)
            for hit in hits:
                if os.path.isdir(hit):
                    yield from walk.folder(hit, quiet=True)
                else:
                    yield from walk.file(hit, notices)
        else:
            why = "a broken link" if os.path.islink(p) else "no such file or folder"
            yield StoreError(why, rule="file", path=p)


def count_paths(paths: Iterable[str]) -> int:
    """How many items :func:`iter_paths` yields (a progress bar's total): one walk, nothing kept per file."""
    return sum(1 for _ in iter_paths(paths))


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[GinlogError]]:
    """:func:`iter_paths` as two lists, the files and the problems (for callers that want them all at once)."""
    files: list[str] = []
    problems: list[GinlogError] = []
    for item in iter_paths(paths):
        if isinstance(item, str):
            files.append(item)
        else:
            problems.append(item)
    return files, problems


def _cannot(path: str, action: str, exc: OSError) -> StoreError:
    what = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
    return StoreError(f"cannot {action}: {what}", rule="file", path=path)
