"""What every importer does, once: find the records, read one into events, write the match files.

An importer is one module in :mod:`ginlog.app.importers` holding one
:class:`Importer` subclass registered with :func:`importer`: it says which
files are its records (:attr:`Importer.pattern`) and how one record becomes
ginlog events (:meth:`Importer.read`, the only method it must write). The
rest is here, the same for every engine: a folder is searched for records,
each is read safely (a FIFO or a device refused, not waited on), written
through :class:`~ginlog.match.session.MatchSession` (never over a file), and
a bad record is one line on standard error while the others go on.
``ginlog import NAME`` is made for every registered importer
(:mod:`ginlog.app.cli.imports`), so a second engine (RLCard, say) is one
module and no list to extend.

>>> class Pad(Importer):
...     '''Score pads written one hand a line.'''
...     pattern = "*.pad"
...     def read(self, path: str) -> list[Any]:
...         return []
>>> Pad().output_name("club/friday.pad")
'friday.jsonl'

Registering it (``@importer("pad")``) would add ``ginlog import pad``; an
importer that leaves :meth:`Importer.read` out is refused then
(``TypeError``), and ``tests/test_registries.py`` checks that every module
here registers one and that each has its command.
"""

from __future__ import annotations

import abc
import hashlib
import importlib
import os
import pkgutil
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, TextIO, TypeVar

from ginlog.errors import ForeignRecordError, GinlogError

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.log.events import Event

__all__ = ["Importer", "importer", "IMPORTERS", "importers", "read_record_text"]


class Importer(abc.ABC):
    """One foreign engine's records turned into ginlog match files: subclass, set :attr:`pattern`, write :meth:`read`.

    The docstring's first line is the help of ``ginlog import NAME``; an
    ``Example:`` line in it is shown there too.
    """

    #: The command's name, ``ginlog import NAME`` (set by :func:`importer`).
    name: ClassVar[str]
    #: The file names a folder given on the command line is searched for (recursively).
    pattern: ClassVar[str]

    @abc.abstractmethod
    def read(self, path: str) -> list[Event]:
        """The events of the record at ``path`` (its first, ``match_started``), each legal; else a
        :class:`~ginlog.errors.ForeignRecordError` naming the record and where in it."""

    def find(self, paths: Iterable[str]) -> Iterator[str]:
        """The records among ``paths``: a folder is searched for :attr:`pattern` (sorted), a file is itself."""
        for p in paths:
            if os.path.isdir(p):
                yield from sorted(str(f) for f in Path(p).rglob(self.pattern))
            else:
                yield p

    def output_name(self, path: str) -> str:
        """The match file's name for the record at ``path``: its stem and ``.jsonl``."""
        return Path(path).stem + ".jsonl"

    def match_id(self, path: str) -> str:
        """The imported match's ``match_id``, derived from the record's bytes and the engine's name: the same
        record imported twice, or by another ginlog, is one match to the standings (:mod:`ginlog.app.data.copies`).

        >>> import tempfile
        >>> class Pad(Importer):
        ...     '''Score pads.'''
        ...     name, pattern = "pad", "*.pad"
        ...     def read(self, path: str) -> list[Any]:
        ...         return []
        >>> with tempfile.NamedTemporaryFile(suffix=".pad") as f:
        ...     _ = f.write(b"a record"); f.flush()
        ...     ids = {Pad().match_id(f.name) for _ in range(2)}
        >>> len(ids), len(ids.pop())
        (1, 32)
        """
        data = read_record_text(path).encode("utf-8")
        return hashlib.sha256(b"ginlog import " + self.name.encode() + b"\0" + data).hexdigest()[:32]

    def write_one(self, path: str | os.PathLike[str], outdir: str | os.PathLike[str]) -> Path:
        """Import one record to ``OUTDIR/<output_name>``; refuse to overwrite. The first event gets the record's
        :meth:`match_id` unless the engine's reading gave one."""
        import attrs

        from ginlog.log.events import MatchStarted
        from ginlog.match.session import MatchSession

        name = os.fspath(path)
        events = self.read(name)
        if events and isinstance(events[0], MatchStarted) and events[0].match_id is None:
            events = [attrs.evolve(events[0], match_id=self.match_id(name)), *events[1:]]
        out = Path(outdir) / self.output_name(name)
        MatchSession.write(out, events)
        return out

    def write(self, paths: Iterable[str], outdir: str | os.PathLike[str], err: TextIO | None = None) -> tuple[int, int]:
        """Import every record found in ``paths``; a bad one is reported (one line) and the others go on.

        Returns (ok, failed). An output folder that cannot be made (something
        else by that name, a parent nobody may write) is a
        :class:`~ginlog.errors.ForeignRecordError` before any record is read.
        """
        try:
            os.makedirs(outdir, exist_ok=True)
        except OSError as exc:
            why = "exists and is not a folder" if isinstance(exc, FileExistsError) else f"cannot be made: {exc.strerror or exc}"
            raise ForeignRecordError(f"the output folder {why}", rule="file", path=os.fspath(outdir)) from None
        ok = bad = 0
        for path in self.find(paths):
            good, failed = self.write_file(path, outdir, err)
            ok += good
            bad += failed
        return ok, bad

    def write_file(self, path: str, outdir: str | os.PathLike[str], err: TextIO | None = None) -> tuple[int, int]:
        """Import the records of one file: (ok, failed), each bad one reported in one line on ``err``.

        One record a file here (:meth:`write_one`); an engine that writes many records to a file (RLCard's
        snippet: one game a line) overrides this, so the walk over files and the counting stay here.
        """
        try:
            self.write_one(path, outdir)
            return 1, 0
        except GinlogError as exc:
            if err is not None:
                err.write(exc.one_line() + "\n")
            return 0, 1


def read_record_text(path: str) -> str:
    """A record's text (UTF-8); a FIFO or a device is refused at once (a plain open of a FIFO waits for a writer).

    Any failure is a :class:`~ginlog.errors.ForeignRecordError` (rule ``file``) naming the record.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{path} is not a regular file (a folder, a pipe, a socket or a device)")
            os.set_blocking(fd, True)
            return fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ForeignRecordError(f"cannot read it: {exc}", rule="file", path=path) from None


#: Importer name -> its class, in the order registered (filled as the modules are imported: :func:`importers`).
IMPORTERS: Final[dict[str, type[Importer]]] = {}
_I = TypeVar("_I", bound=type[Importer])


def importer(name: str) -> Callable[[_I], _I]:
    """Register an :class:`Importer` subclass as ``ginlog import NAME``: the one place an importer is declared.

    >>> @importer("half")
    ... class Half(Importer):
    ...     '''Reads nothing.'''
    ...     pattern = "*.half"
    Traceback (most recent call last):
    ...
    TypeError: importer 'half' (Half) leaves out read
    """

    def register(cls: _I) -> _I:
        if not issubclass(cls, Importer):
            raise TypeError(f"importer {name!r} ({cls.__name__}) must subclass Importer")
        abstract = getattr(cls, "__abstractmethods__", ())
        if abstract:
            raise TypeError(f"importer {name!r} ({cls.__name__}) leaves out {', '.join(sorted(abstract))}")
        if not (cls.__doc__ or "").strip() or not isinstance(getattr(cls, "pattern", None), str):
            raise TypeError(f"importer {name!r} ({cls.__name__}) needs a docstring (its help) and a pattern")
        if name in IMPORTERS:
            raise TypeError(f"importer {name!r} is registered twice")
        cls.name = name
        IMPORTERS[name] = cls
        return cls

    return register


def importers() -> dict[str, type[Importer]]:
    """Every importer: each module of :mod:`ginlog.app.importers` is imported (so it registers), then the registry.

    Called only when ``ginlog import`` runs: an importer pulls in the
    reducer, which the other commands need not pay for at start-up.
    """
    package = importlib.import_module("ginlog.app.importers")
    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "base" and not module.name.startswith("_"):
            importlib.import_module(f"{package.__name__}.{module.name}")
    return IMPORTERS
