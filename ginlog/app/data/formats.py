"""The export's formats: each one registered writer class, and the list ``--format`` takes made from them.

Why a registry: adding ``"tsv"`` to a list of format names once passed the
type checker and made ``ginlog export --format tsv`` quietly write JSON lines
(the writer was chosen by ``csv if format == "csv" else jsonl``). Here a
format *is* its class: :func:`export_format` registers it under its name
and refuses one that is not a whole writer (an abstract method left out, no
docstring, not a :class:`TextRows` or :class:`FileRows`), and
:data:`FORMATS` and the command's help are made from the registry, so there
is no second list to forget. ``tests/test_registries.py`` reads every
registered format back, so a new one needs its reader there too.

>>> sorted(FORMATS)
['csv', 'jsonl', 'parquet']
>>> FORMATS["parquet"].to_file_only, FORMATS["csv"].to_file_only
(True, False)

This module imports only the standard library (pyarrow only when a Parquet
file is opened), so the CLI can list the formats in its help cheaply.
"""

from __future__ import annotations

import abc
import csv
import json
from collections.abc import Callable, Iterable
from typing import IO, Any, ClassVar, Final, TypeVar

from ginlog.text import json_escaped

__all__ = [
    "COLUMNS", "FORMULA_STARTS", "spreadsheet_safe", "INT_COLUMNS", "ROW_GROUP", "Row", "RowWriter", "TextRows", "FileRows", "export_format", "FORMATS",
    "formats_help", "MissingExtra", "CsvWriter", "JsonlWriter", "ParquetWriter",
]

COLUMNS: Final = (
    "file", "match", "title", "player_1", "player_2", "date", "hand", "dealer", "how", "outcome", "out", "winner",
    "points", "deadwood_1", "deadwood_2", "total_1", "total_2", "recorded", "void_reason", "rules",
    # issue 21: a match's result derivable from its rows (docs/DATA.md, "ginlog export columns")
    "games", "game1_1", "game1_2", "game2_1", "game2_2", "game3_1", "game3_2", "closes", "bonus_1", "bonus_2",
    "final_1", "final_2",
)
#: The columns holding whole numbers (typed so where the format has types).
INT_COLUMNS: Final = frozenset((
    "hand", "points", "deadwood_1", "deadwood_2", "total_1", "total_2", "game1_1", "game1_2", "game2_1", "game2_2",
    "game3_1", "game3_2", "bonus_1", "bonus_2", "final_1", "final_2",
))
#: Rows per Parquet row group (and so the rows a Parquet export holds at once).
ROW_GROUP: Final = 10_000

Row = tuple[Any, ...]


class RowWriter(abc.ABC):
    """Where rows go: :meth:`write` as they come, :meth:`close` once at the end (flushes, finishes the file).

    A format subclasses :class:`TextRows` or :class:`FileRows`, never this
    one directly: the two say how it is opened.
    """

    #: The name ``--format`` takes (set by :func:`export_format`).
    name: ClassVar[str]
    #: Written to a named file only (a binary format), never to standard output.
    to_file_only: ClassVar[bool]

    @abc.abstractmethod
    def write(self, rows: Iterable[Row]) -> None:
        """Write these rows (more may come)."""

    @abc.abstractmethod
    def close(self) -> None:
        """No more rows: flush and finish what was written."""

    @classmethod
    def check_available(cls) -> None:
        """Raise :class:`MissingExtra` when an optional dependency the format needs is missing (none here)."""


class TextRows(RowWriter):
    """A text format: written to a text stream (standard output, or the ``-o`` file opened as UTF-8).

    ``raw``: the text exactly as recorded, without a format's guard for the tools that read it (CSV's
    formula guard: :func:`spreadsheet_safe`); a format without a guard ignores it.
    """

    to_file_only = False

    def __init__(self, stream: IO[str], *, raw: bool = False) -> None:
        self._stream = stream
        self.raw = raw


class FileRows(RowWriter):
    """A binary format: written to a file (the command's ``-o``, through its temporary file: a name or the
    open binary file, which :class:`~ginlog.app.shell.outputs.Replacement` made without following a link)."""

    to_file_only = True

    def __init__(self, path: str | IO[bytes]) -> None:
        self._path = path


#: ``--format`` name -> its writer class, in the order registered.
FORMATS: Final[dict[str, type[TextRows] | type[FileRows]]] = {}
_W = TypeVar("_W", bound=type[RowWriter])


def export_format(name: str) -> Callable[[_W], _W]:
    """Register a writer class as the export format ``name``: the one place a format is declared.

    Refused (``TypeError``, at import) when the class is not a whole writer:

    >>> @export_format("half")
    ... class Half(TextRows):
    ...     '''Writes nothing: no close.'''
    ...     def write(self, rows: Iterable[Row]) -> None: ...
    Traceback (most recent call last):
    ...
    TypeError: export format 'half' (Half) leaves out close
    """

    def register(cls: _W) -> _W:
        if not (issubclass(cls, TextRows) or issubclass(cls, FileRows)):
            raise TypeError(f"export format {name!r} ({cls.__name__}) must subclass TextRows or FileRows")
        abstract = getattr(cls, "__abstractmethods__", ())  # (inspect.isabstract: a costly import for this)
        if abstract:
            missing = ", ".join(sorted(abstract))
            raise TypeError(f"export format {name!r} ({cls.__name__}) leaves out {missing}")
        if not (cls.__doc__ or "").strip():
            raise TypeError(f"export format {name!r} ({cls.__name__}) needs a docstring: its first line is its help")
        if name in FORMATS:
            raise TypeError(f"export format {name!r} is registered twice")
        cls.name = name
        FORMATS[name] = cls
        return cls

    return register


def formats_help() -> str:
    """The formats for ``--format``'s help, from the registry.

    >>> formats_help()
    'csv, jsonl or parquet (to a file: -o)'
    """
    names = [n + (" (to a file: -o)" if cls.to_file_only else "") for n, cls in FORMATS.items()]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


class MissingExtra(Exception):
    """An optional dependency is not installed; the message says how to get it."""


#: What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection).
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula, with a leading ``'``; anything else as it is.

    Names, titles, notes and reasons come from people: ``=HYPERLINK(...)`` as a player's name must not run in
    the club's spreadsheet. Numbers stay numbers (a negative total is not text), and the guard is CSV's only
    change to the text (``--raw`` drops it; JSON lines and Parquet keep the text exactly).

    >>> [spreadsheet_safe(v) for v in ("=1+1", "+44 20", "-x", "@SUM(A1)", "Ann", -5, None)]
    ["'=1+1", "'+44 20", "'-x", "'@SUM(A1)", 'Ann', -5, None]
    >>> spreadsheet_safe(chr(9) + "x") == "'" + chr(9) + "x"
    True
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@export_format("csv")
class CsvWriter(TextRows):
    """Rows as CSV (the standard library's dialect, a header first; None as an empty field; a text cell that
    would start a formula with a leading ``'``, unless ``raw``)."""

    def __init__(self, stream: IO[str], *, raw: bool = False) -> None:
        super().__init__(stream, raw=raw)
        self._csv = csv.writer(stream, lineterminator="\n")
        self._csv.writerow(COLUMNS)

    def write(self, rows: Iterable[Row]) -> None:
        if self.raw:
            self._csv.writerows(rows)
        else:
            self._csv.writerows([spreadsheet_safe(v) for v in row] for row in rows)

    def close(self) -> None:
        self._stream.flush()


@export_format("jsonl")
class JsonlWriter(TextRows):
    """Rows as JSON lines, one object a row with the :data:`COLUMNS` as keys (None as null)."""

    def write(self, rows: Iterable[Row]) -> None:
        # JSON-escaped (C0, C1, bidi as \\u escapes), to a file as to a terminal: the text is the same once decoded.
        dumps = json.dumps
        self._stream.writelines(json_escaped(dumps(dict(zip(COLUMNS, row)), ensure_ascii=False)) + "\n" for row in rows)

    def close(self) -> None:
        self._stream.flush()


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MissingExtra(
            "parquet needs pyarrow, which is not installed: pip install 'ginlog[data]' (or pip install pyarrow)"
        ) from None
    return pyarrow


@export_format("parquet")
class ParquetWriter(FileRows):
    """Rows as a Parquet file (pyarrow, the ``ginlog[data]`` extra), typed columns (int64 for the numbers), zstd."""

    def __init__(self, path: str | IO[bytes], row_group: int = ROW_GROUP) -> None:
        super().__init__(path)
        pa = _pyarrow()
        self._pa = pa
        self.schema = pa.schema([(c, pa.int64() if c in INT_COLUMNS else pa.string()) for c in COLUMNS])
        self._writer = pa.parquet.ParquetWriter(path, self.schema, compression="zstd")
        self._row_group = row_group
        self._rows: list[Row] = []

    @classmethod
    def check_available(cls) -> None:
        _pyarrow()

    def write(self, rows: Iterable[Row]) -> None:
        buf = self._rows
        buf.extend(rows)
        size = self._row_group
        while len(buf) >= size:
            self._group(buf[:size])
            del buf[:size]

    def _group(self, rows: list[Row]) -> None:
        pa, schema = self._pa, self.schema
        columns = list(zip(*rows))
        arrays = [pa.array(col, type=f.type) for col, f in zip(columns, schema)]
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=schema))

    def close(self) -> None:
        if self._rows:
            self._group(self._rows)
            self._rows.clear()
        self._writer.close()
