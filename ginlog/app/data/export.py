"""One row per hand, for a table tool: ``ginlog export PATH... --format csv|jsonl|parquet``.

:func:`hand_rows` turns one read, valid file (:class:`~ginlog.match.dated.DatedReport`)
into its rows (:data:`COLUMNS`, in order, as tuples); a writer
(:func:`open_writer`, one of the formats registered in
:mod:`ginlog.app.data.formats`) streams them out as they come: CSV through
the standard library, JSON lines, or Parquet through pyarrow (the
``ginlog[data]`` extra, imported only then) in row groups of
:data:`ROW_GROUP` rows, so memory stays flat however many files.

The columns: ``file``; ``match`` (which match: its ``match_id``, 32 hex
digits, or for a file from before there were ids its first line's SHA-256,
16 hex digits; the same under any file name); ``title``; ``player_1``, ``player_2``
(the seats' names); ``date`` (when the hand began: its ``hand_dealt`` line's
``ts``, or its ``hand_result`` line's); ``hand`` (its number); ``dealer``;
``how`` (knock, gin, big_gin, void, points: a score pad's NAME +POINTS; a knock that leaves no deadwood is
gin, as in ``stats``: :func:`~ginlog.game.scoring.went_out`) and ``outcome`` (the same, with undercut);
``out`` (who knocked or went gin); ``winner``; ``points``; ``deadwood_1``,
``deadwood_2`` (each seat's declared deadwood, the defender's after lay-offs;
empty for a void); ``total_1``, ``total_2`` (running totals after the hand);
``recorded`` (``moves`` or ``result``); ``void_reason``; ``rules`` (a preset's
name, or the nearest preset and the knobs that differ); and what makes the
match's result derivable from its rows (issue 21): ``games`` (Hollywood: the
games the hand scored in, ``"2 3"``), ``game1_1`` ... ``game3_2`` (Hollywood:
each game's running hand points by seat), ``closes`` (what the hand closed:
``game 2``, ``game 3, match``, ``match``), ``bonus_1``, ``bonus_2`` (the
bonuses of what it closed) and ``final_1``, ``final_2`` (on the row that ends
the match: ``score --json``'s totals). Over a match's rows, the last
``total_N`` plus the sum of ``bonus_N`` is ``final_N`` (docs/DATA.md).

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

import io
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Final

from ginlog.app.data.formats import (
    COLUMNS,
    FORMATS,
    ROW_GROUP,
    CsvWriter,
    FileRows,
    JsonlWriter,
    MissingExtra,
    ParquetWriter,
    Row,
    RowWriter,
)

import attrs

from ginlog.game.scoring import Tally, running, went_out
from ginlog.play.state import MatchState
from ginlog.match.dated import DatedReport
from ginlog.app.check.verdicts import Failed, Verdict
from ginlog.app.shell.outputs import Replacement
from ginlog.app.data.copies import Copy
from ginlog.app.data.players import Players
from ginlog.app.data.stats import read_for_data, rules_short

__all__ = [
    "COLUMNS", "ROW_GROUP", "FORMATS", "Row", "hand_rows", "Exported", "exported", "RowWriter", "CsvWriter",
    "JsonlWriter",
    "ParquetWriter", "MissingExtra", "open_writer", "renamed", "NAME_COLUMNS",
]

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
    match = dated.identity
    dates = dated.hand_begins
    path = report.path
    for i, (h, result) in enumerate(zip(state.hands, _results(state))):
        s, r = h.score, h.result
        out = r.out
        if out is None:
            d1 = d2 = None
        elif out == 0:
            d1, d2 = r.knocker_deadwood, r.defender_deadwood
        else:
            d1, d2 = r.defender_deadwood, r.knocker_deadwood
        yield (
            path, match, title, p1, p2, dates[i] if i < len(dates) else None, h.number, players[h.dealer],
            went_out(r) or r.how,
            s.outcome, None if out is None else players[out], None if s.winner is None else players[s.winner],
            s.points, d1, d2, h.totals[0], h.totals[1], h.recorded, h.void_reason, rules, *result,
        )


#: The result columns of a row outside Hollywood that closes nothing.
_NO_RESULT: Final = (None,) * 12


def _results(state: MatchState) -> Iterator[Row]:
    """Per finished hand, its result columns (``games`` to ``final_2``): where it scored, what it closed, the bonuses.

    Bonuses are put on the row that closes what earns them: under Hollywood
    each game's on the row that closed that game, otherwise the match's on the
    row that ended it, so that a match's final totals are its last running
    totals plus the sum of its ``bonus`` columns.
    """
    rules = state.rules
    last = len(state.hands) - 1
    ended = state.phase == "over"
    before = Tally()
    for i, tally in enumerate(running(rules, (h.score for h in state.hands))):
        final = state.totals() if ended and i == last else (None, None)
        if rules.hollywood is None:
            if final[0] is None:
                yield _NO_RESULT
            else:
                b = tally.bonuses(rules)
                yield (None,) * 7 + ("match", b.total(0), b.total(1), *final)
            before = tally
            continue
        old, new = before.hollywood_games(rules), tally.hollywood_games(rules)
        entered = [str(n) for n, (a, g) in enumerate(zip(old, new), start=1) if a.hands_won != g.hands_won]
        closed = [n for n, (a, g) in enumerate(zip(old, new)) if g.closed and not a.closed]
        closes = [f"game {n + 1}" for n in closed] + (["match"] if final[0] is not None else [])
        bonus: tuple[int | None, int | None] = (None, None)
        if closed:
            bs = [new[n].bonuses(rules) for n in closed]
            bonus = (sum(b.total(0) for b in bs), sum(b.total(1) for b in bs))
        yield (
            " ".join(entered) or None, *(p for g in new for p in g.points), ", ".join(closes) or None, *bonus, *final,
        )
        before = tally


@attrs.frozen
class Exported:
    """One file as the export needs it: its verdict, and its rows if it is valid (none otherwise)."""

    verdict: Verdict
    rows: tuple[Row, ...] = ()
    copy: Copy | None = None  # the file as a copy of its match (a valid file only)

    def parts(self) -> tuple[Verdict, Copy | None]:
        """What :func:`~ginlog.app.data.copies.counted_once` asks of each file."""
        return self.verdict, self.copy


def exported(path: str) -> Exported | Failed:
    """The reading ``export`` hands the many-file loop (:func:`~ginlog.app.check.verdicts.verdicts`): one file
    read under the reading policy, into its verdict and rows (a worker sends back these, never the match)."""
    dated = read_for_data(path)
    if isinstance(dated, Failed):
        return dated
    report = dated.report
    verdict = Verdict.of(report)
    if not verdict.ok:
        return Exported(verdict)
    identity = dated.identity
    copy = None if identity is None or report.head is None else Copy(verdict.path, identity, report.lines, report.head, dated.start)
    return Exported(verdict, tuple(hand_rows(dated)), copy)


#: The columns that hold a player's name (what a players file renames).
NAME_COLUMNS: Final = tuple(COLUMNS.index(c) for c in ("player_1", "player_2", "dealer", "out", "winner"))


def renamed(rows: Iterable[Row], players: Players) -> Iterator[Row]:
    """The rows with each player by the players file's name for them (no players file: as they are)."""
    if not players:
        yield from rows
        return
    for row in rows:
        cells = list(row)
        for i in NAME_COLUMNS:
            if isinstance(cells[i], str):
                cells[i] = players.canonical(cells[i])
        yield tuple(cells)


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
            self._stream.flush()  # the text layer's last bytes, into the file the Replacement owns and closes
        if self._output is not None:
            self._output.done()

    def abandon(self) -> None:
        if self._output is not None:
            self._output.abandon()


def open_writer(format: str, output: str | None, stream: IO[str] | None = None, *, raw: bool = False) -> Export:
    """A writer of ``format`` (a name in :data:`~ginlog.app.data.formats.FORMATS`) to ``output``.

    None or ``-``: ``stream`` (standard output by default: the command gives the sink's,
    ``Terminal().data_stream()``, exact to a pipe and made visible on a terminal); a format that is
    ``to_file_only`` (Parquet) needs a file. ``raw``: text cells exactly as recorded (CSV's formula guard off).
    Raises :class:`MissingExtra` for a format whose optional dependency is missing, :class:`ValueError`
    for an unknown format or a file-only one to standard output.
    """
    cls = FORMATS.get(format)
    if cls is None:
        raise ValueError(f"--format is one of {', '.join(FORMATS)}, not {format!r}")
    if output == "-":
        output = None
    if issubclass(cls, FileRows):
        if output is None:
            raise ValueError(f"{format} is written to a file: give -o FILE")
        cls.check_available()
        out = Replacement(output)
        try:
            return Export(cls(out.file), out, None)
        except BaseException:
            out.abandon()
            raise
    cls.check_available()
    if output is None:
        stream = stream if stream is not None else sys.stdout
        target = None
    else:
        target = Replacement(output)
        stream = io.TextIOWrapper(target.file, encoding="utf-8", newline="")
    return Export(cls(stream, raw=raw), target, stream if target is not None else None)
