"""Where a match file's bytes come from: a local path, standard input, or an ``fsspec`` URL (``s3://``, ``gs://``...).

Every reading of many files (``audit``, ``stats``, ``export``) opens its
file through :func:`opened`, so a URL is read the same way a path is, by
the same reader, on this machine or on a Dask worker. A URL is a path with
a protocol in front (``s3://club/2026/a.jsonl``); :func:`walk_url` lists a
URL prefix in the local walk's order (full paths' byte order, a folder
``b`` sorting as ``b/``: also the order S3 lists keys) one folder at a
time, so a bucket of ten million keys is never held as one list.

``fsspec`` (and the protocol's own package: ``s3fs``, ``gcsfs``...) is
imported only when a URL is met: a command over local folders never loads
it. Storage options (an S3 stand-in's ``endpoint_url``, a region) are a
:class:`Storage`, given on the command line as ``--storage-option
KEY=VALUE``; credentials never are (:data:`SECRET_OPTIONS` are refused),
they come from the environment or fsspec's own configuration, on each
machine that reads. The options in force are set with :func:`using` around
a run (the client's walk, each task a worker runs): a plain module value,
so a forked pool worker inherits it.

>>> is_url("s3://club/a.jsonl"), is_url("club/a.jsonl"), is_url("C://x")
(True, False, False)
>>> Storage.parse(["endpoint_url=http://127.0.0.1:5000", "anon=false"]).options
(('anon', False), ('endpoint_url', 'http://127.0.0.1:5000'))
>>> Storage.parse(["token=anon"]).options  # (gcsfs's anonymous access, as anon=true is s3fs's: no secret)
(('token', 'anon'),)
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO, Final, Protocol

import attrs

from ginlog.errors import GinlogError, StoreError

__all__ = [
    "is_url", "protocol_of", "Storage", "SECRET_OPTIONS", "using", "current", "opened", "walk_url", "missing_extra",
    "MissingExtra", "Lister", "HereLister", "Unlistable", "list_here",
]

_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")

#: Option names that are credentials: refused on the command line (they would sit in shell history and ``ps``).
SECRET_OPTIONS: Final = frozenset(("key", "secret", "token", "password", "aws_access_key_id", "aws_secret_access_key",
                                   "aws_session_token", "account_key", "sas_token", "client_secret"))

#: Values of a credential's option that hold no secret: gcsfs's ``token=anon`` (a public bucket, an emulator).
_NOT_SECRET: Final = frozenset((("token", "anon"),))

#: The extra that brings each protocol's package (``pip install 'ginlog[EXTRA]'``).
_EXTRAS: Final = {"s3": "s3", "s3a": "s3", "gs": "gcs", "gcs": "gcs"}


class MissingExtra(Exception):
    """An optional package a command needs is not installed: the message is the one line saying how to install it."""


def is_url(path: str) -> bool:
    """Whether ``path`` is an fsspec URL (a protocol of two letters or more, then ``://``; ``C://`` is a path)."""
    return _URL.match(path) is not None


def protocol_of(url: str) -> str:
    return url.split("://", 1)[0].lower()


def missing_extra(paths: Iterable[str]) -> str | None:
    """The one line saying what to install for the URLs among ``paths`` (None: all can be read, or none is a URL).

    Checked before anything is read, so a missing package is a usage slip (exit 2), never a file's error.
    """
    for p in paths:
        if not is_url(p):
            continue
        protocol = protocol_of(p)
        extra = _EXTRAS.get(protocol, "s3")
        try:
            import fsspec
        except ImportError:
            return f"{protocol}:// needs fsspec: pip install 'ginlog[{extra}]'"
        try:
            fsspec.get_filesystem_class(protocol)
        except ImportError:
            return f"{protocol}:// needs its fsspec package: pip install 'ginlog[{extra}]'"
        except ValueError:
            return f"{protocol}:// is not a protocol fsspec knows"
    return None


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return text


@attrs.frozen
class Storage:
    """fsspec storage options, the same for every protocol of a run (sorted pairs: hashable, picklable, small)."""

    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, given: Sequence[str]) -> Storage:
        """``KEY=VALUE`` pairs (``true``/``false`` and whole numbers as such); a credential's name is refused
        (:class:`ValueError`, a usage slip): credentials come from the environment. ``token=anon`` (no
        credentials at all: gcsfs's anonymous access) is not one."""
        pairs: dict[str, Any] = {}
        for item in given:
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise ValueError(f"--storage-option takes KEY=VALUE, not {item!r}")
            if key.lower() in SECRET_OPTIONS and (key.lower(), value) not in _NOT_SECRET:
                raise ValueError(f"--storage-option {key}: credentials come from the environment, never the command line")
            pairs[key] = _value(value)
        return cls(tuple(sorted(pairs.items())))

    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)


_CURRENT: list[Storage] = [Storage()]


def current() -> Storage:
    """The storage options in force (see :func:`using`)."""
    return _CURRENT[-1]


@contextlib.contextmanager
def using(storage: Storage) -> Iterator[None]:
    """Open URLs with ``storage``'s options while the block runs (a run's walk, a worker's task)."""
    _CURRENT.append(storage)
    try:
        yield
    finally:
        _CURRENT.pop()


def _fs(url: str) -> Any:
    import fsspec

    return fsspec.filesystem(protocol_of(url), **current().kwargs())


def _why(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file or folder"
    if isinstance(exc, PermissionError):
        return "cannot read: permission denied"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"cannot read: {text[:200]}"


@contextlib.contextmanager
def opened(path: str) -> Iterator[str | BinaryIO]:
    """What the reader is given for ``path``: standard input's bytes for ``-``, a URL opened through fsspec
    (a :class:`~ginlog.errors.StoreError` where it cannot be), else the path itself (the reader opens it)."""
    if path == "-":
        yield sys.stdin.buffer
        return
    if not is_url(path):
        yield path
        return
    try:
        f = _fs(path).open(path, "rb")
    except GinlogError:
        raise
    except Exception as exc:  # fsspec and its backends raise what they like: the file's error, never a traceback
        raise StoreError(_why(exc), rule="file", path=path) from None
    try:
        yield f
    finally:
        try:
            f.close()
        except Exception:
            pass


def _joined(protocol: str, name: str) -> str:
    return name if is_url(name) else f"{protocol}://{name}"


class Unlistable(Exception):
    """What a :class:`Lister` raises where a URL cannot be listed: the message is the one line why."""


class Lister(Protocol):
    """Where a URL prefix is listed: in this process (:class:`HereLister`), or on a cluster's worker.

    Three questions, each answered with plain data (names, not file objects: a worker's answer is pickled back),
    or :class:`Unlistable`. Under ``--scheduler`` the workers list (``ginlog.app.check.cluster``), so the client
    needs no access to the store: the workers read what they listed.
    """

    def glob(self, url: str) -> list[str]:
        """The names a pattern matches, sorted."""
        ...

    def is_dir(self, url: str) -> bool:
        """Whether ``url`` is a folder (a prefix), not a file."""
        ...

    def ls(self, name: str) -> list[tuple[str, bool]]:
        """The folders and ``*.jsonl`` files directly in folder ``name``: (name, is a folder), in no order."""
        ...


def list_here(op: str, arg: str) -> Any:
    """One :class:`Lister` question answered through fsspec in this process, with the storage options in force
    (:func:`using`); :class:`Unlistable` where it cannot be. What a cluster's listing task runs on a worker."""
    try:
        fs = _fs(arg)
        if op == "glob":
            return sorted(str(hit) for hit in fs.glob(arg))
        if op == "is_dir":
            return fs.info(arg).get("type") == "directory"
        names: list[tuple[str, bool]] = []
        for e in fs.ls(arg, detail=True):
            full = str(e["name"]).rstrip("/")
            if e.get("type") == "directory":
                names.append((full, True))
            elif full.endswith(".jsonl"):
                names.append((full, False))
        return names
    except GinlogError:
        raise
    except Exception as exc:  # fsspec and its backends raise what they like: one line why, never a traceback
        raise Unlistable(_why(exc)) from None


class HereLister:
    """A :class:`Lister` that lists in this process (a command without ``--scheduler``)."""

    def glob(self, url: str) -> list[str]:
        result: list[str] = list_here("glob", url)
        return result

    def is_dir(self, url: str) -> bool:
        return bool(list_here("is_dir", url))

    def ls(self, name: str) -> list[tuple[str, bool]]:
        result: list[tuple[str, bool]] = list_here("ls", name)
        return result


def walk_url(url: str, lister: Lister | None = None) -> Iterator[str | GinlogError]:
    """The ``*.jsonl`` files a URL names: itself if it is a file, else every one under it, in full paths' byte
    order, one folder listed at a time (depth first, as :func:`~ginlog.app.check.paths.iter_paths` walks a folder);
    a :class:`~ginlog.errors.StoreError` in place of what cannot be listed or holds no match file.

    ``lister`` answers the listing questions (default: this process, :class:`HereLister`); a cluster's makes
    its workers list, so the walk's requests to the store are made where the files are read.
    """
    protocol = protocol_of(url)
    ask: Lister = HereLister() if lister is None else lister
    try:
        if any(c in url.split("://", 1)[1] for c in "*?["):
            hits = ask.glob(url)
            if not hits:
                yield StoreError(f"no file matches {url}", rule="file", path=url)
            for hit in hits:
                yield _joined(protocol, hit)
            return
        folder = ask.is_dir(url)
    except Unlistable as exc:
        yield StoreError(str(exc), rule="file", path=url)
        return
    if not folder:
        yield url
        return
    found = 0
    stack: list[list[tuple[str, bool]]] = [[(url.rstrip("/"), True)]]
    while stack:
        top = stack[-1]
        if not top:
            stack.pop()
            continue
        name, is_dir = top.pop()
        if not is_dir:
            found += 1
            yield _joined(protocol, name)
            continue
        try:
            entries = ask.ls(_joined(protocol, name))
        except Unlistable as exc:
            found += 1
            yield StoreError(str(exc), rule="file", path=_joined(protocol, name))
            continue
        here = _joined(protocol, name).rstrip("/")
        # (some stores list a folder as its own first entry)
        names = [(full, d) for full, d in entries if _joined(protocol, full).rstrip("/") != here]
        # Sorted as the local walk sorts (a folder 'b' as 'b/'), last first: popped from the end, in order.
        names.sort(key=lambda n: (n[0] + "/" if n[1] else n[0]).encode("utf-8", "surrogateescape"), reverse=True)
        stack.append(names)
    if not found:
        yield StoreError("no match file (*.jsonl) in this folder or below it", rule="file", path=url)
