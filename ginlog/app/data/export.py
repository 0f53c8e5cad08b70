"""One row per hand, for a table tool: ``ginlog export PATH... --format csv|jsonl|parquet``.

:func:`hand_rows` turns one read, valid file (:class:`~ginlog.match.dated.DatedReport`)
into its rows (:data:`COLUMNS`, in order, as tuples); a writer
(:func:`open_writer`) streams them out as they come: CSV through the standard
library, JSON lines, or Parquet through pyarrow (the ``ginlog[data]`` extra,
imported only then) in row groups of :data:`ROW_GROUP` rows, so memory stays
flat however many files.

The columns: ``file``; ``match`` (the first line's SHA-256, 16 hex digits:
the same match under any file name); ``title``; ``player_1``, ``player_2``
(the seats' names); ``date`` (when the hand began: its ``hand_dealt`` line's
``ts``, or its ``hand_result`` line's); ``hand`` (its number); ``dealer``;
``how`` (knock, gin, big_gin, void, points: a score pad's NAME +POINTS) and ``outcome`` (the same, with undercut);
``out`` (who knocked or went gin); ``winner``; ``points``; ``deadwood_1``,
``deadwood_2`` (each seat's declared deadwood, the defender's after lay-offs;
empty for a void); ``total_1``, ``total_2`` (running totals after the hand);
``recorded`` (``moves`` or ``result``); ``void_reason``; ``rules`` (a preset's
name, or the nearest preset and the knobs that differ).

Values are the record's own text (an export is data, not display).

>>> import io
>>> from ginlog.game.rules import preset
>>> from ginlog.play.reducer import fold
>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.match.visitors import MatchReport
>>> from ginlog.match.dated import DatedReport
>>> state = fold(simulate_match(preset("standard"), seed=3, max_hands=2)).state
>>> rows = list(hand_rows(DatedReport(MatchReport("m.jsonl", state, (), 9, None), None, None, "ab" * 32, (None, None))))
>>> len(rows), dict(zip(COLUMNS, rows[0]))["hand"]
(2, 1)
>>> out = io.StringIO()
>>> w = CsvWriter(out); w.write(rows); w.close()
>>> out.getvalue().splitlines()[0].split(",")[:5]
['file', 'match', 'title', 'player_1', 'player_2']
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, Final, Literal, Protocol

from ginlog.match.dated import DatedReport
from ginlog.app.shell.outputs import Replacement
from ginlog.app.data.stats import rules_short
from ginlog.text import json_escaped

__all__ = [
    "COLUMNS", "ROW_GROUP", "Format", "FORMATS", "Row", "hand_rows", "RowWriter", "CsvWriter", "JsonlWriter",
    "ParquetWriter", "MissingExtra", "open_writer",
]

COLUMNS: Final = (
    "file", "match", "title", "player_1", "player_2", "date", "hand", "dealer", "how", "outcome", "out", "winner",
    "points", "deadwood_1", "deadwood_2", "total_1", "total_2", "recorded", "void_reason", "rules",
)
_INTS: Final = frozenset(("hand", "points", "deadwood_1", "deadwood_2", "total_1", "total_2"))

#: Rows per Parquet row group (and so the rows a Parquet export holds at once).
ROW_GROUP: Final = 10_000

Format = Literal["csv", "jsonl", "parquet"]
FORMATS: Final[tuple[Format, ...]] = ("csv", "jsonl", "parquet")
Row = tuple[Any, ...]


def hand_rows(dated: DatedReport) -> Iterator[Row]:
    """The rows of one file's finished hands, in order (its state must be there: a valid file)."""
    report = dated.report
    state = report.state
    if state is None:
        return
    players = state.players
    p1, p2 = players
    title = state.title
    rules = rules_short(state.rules)
    match = None if dated.first_digest is None else dated.first_digest[:16]
    dates = dated.hand_begins
    path = report.path
    for i, h in enumerate(state.hands):
        s, r = h.score, h.result
        out = r.out
        if out is None:
            d1 = d2 = None
        elif out == 0:
            d1, d2 = r.knocker_deadwood, r.defender_deadwood
        else:
            d1, d2 = r.defender_deadwood, r.knocker_deadwood
        yield (
            path, match, title, p1, p2, dates[i] if i < len(dates) else None, h.number, players[h.dealer], r.how,
            s.outcome, None if out is None else players[out], None if s.winner is None else players[s.winner],
            s.points, d1, d2, h.totals[0], h.totals[1], h.recorded, h.void_reason, rules,
        )


class RowWriter(Protocol):
    """Where rows go: :meth:`write` as they come, :meth:`close` once at the end (flushes, finishes the file)."""

    def write(self, rows: Iterable[Row]) -> None: ...

    def close(self) -> None: ...


class CsvWriter:
    """Rows as CSV (the standard library's dialect, a header first; None as an empty field)."""

    def __init__(self, stream: IO[str]) -> None:
        self._csv = csv.writer(stream, lineterminator="\n")
        self._csv.writerow(COLUMNS)
        self._stream = stream

    def write(self, rows: Iterable[Row]) -> None:
        self._csv.writerows(rows)

    def close(self) -> None:
        self._stream.flush()


class JsonlWriter:
    """Rows as JSON lines, one object a row with the :data:`COLUMNS` as keys (None as null)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, rows: Iterable[Row]) -> None:
        # JSON-escaped (C0, C1, bidi as \\u escapes), to a file as to a terminal: the text is the same once decoded.
        dumps = json.dumps
        self._stream.writelines(json_escaped(dumps(dict(zip(COLUMNS, row)), ensure_ascii=False)) + "\n" for row in rows)

    def close(self) -> None:
        self._stream.flush()


class MissingExtra(Exception):
    """An optional dependency is not installed; the message says how to get it."""


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MissingExtra(
            "parquet needs pyarrow, which is not installed: pip install 'ginlog[data]' (or pip install pyarrow)"
        ) from None
    return pyarrow


class ParquetWriter:
    """Rows as a Parquet file (pyarrow), typed columns (int64 for the numbers, string for the rest), zstd."""

    def __init__(self, path: str, row_group: int = ROW_GROUP) -> None:
        pa = _pyarrow()
        self._pa = pa
        self.schema = pa.schema([(c, pa.int64() if c in _INTS else pa.string()) for c in COLUMNS])
        self._writer = pa.parquet.ParquetWriter(path, self.schema, compression="zstd")
        self._row_group = row_group
        self._rows: list[Row] = []

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


class Export:
    """A writer and where it writes (standard output, or a file put in place by :meth:`finish`)."""

    def __init__(self, writer: RowWriter, output: Replacement | None, stream: IO[str] | None) -> None:
        self.writer = writer
        self._output = output
        self._stream = stream

    def write(self, rows: Iterable[Row]) -> None:
        self.writer.write(rows)

    def finish(self) -> None:
        self.writer.close()
        if self._stream is not None and self._output is not None:
            self._stream.close()
        if self._output is not None:
            self._output.done()

    def abandon(self) -> None:
        if self._stream is not None and self._output is not None:
            self._stream.close()
        if self._output is not None:
            self._output.abandon()


def open_writer(format: Format, output: str | None, stream: IO[str] | None = None) -> Export:
    """A writer of ``format`` to ``output`` (None or ``-``: ``stream``, standard output by default; Parquet needs a file).

    The command gives the sink's stream (``Terminal().data_stream()``): exact to a pipe, made visible on a terminal.

    Raises :class:`MissingExtra` for Parquet without pyarrow, :class:`ValueError` for Parquet to standard output.
    """
    if output == "-":
        output = None
    if format == "parquet":
        if output is None:
            raise ValueError("parquet is written to a file: give -o FILE")
        _pyarrow()
        out = Replacement(output)
        return Export(ParquetWriter(out.tmp), out, None)
    if output is None:
        stream = stream if stream is not None else sys.stdout
        target = None
    else:
        target = Replacement(output)
        stream = open(target.tmp, "w", encoding="utf-8", newline="")
    writer: RowWriter = CsvWriter(stream) if format == "csv" else JsonlWriter(stream)
    return Export(writer, target, stream if target is not None else None)
