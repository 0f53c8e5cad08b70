"""The commands over many matches, as plain functions for the CLI to register: ``stats``, ``export``, ``html DIR``.

Each reads its files one at a time through the reading pipeline
(:class:`~ginlog.match.dated.Dated` or, for the site, :class:`~ginlog.match.dated.DatedSteps`),
folds what it needs and lets the rest go, so memory stays flat in the number
of files; with standard error on a terminal a progress bar shows (on
standard error, gone at the end: :mod:`ginlog.app.progress`).

Exit status, for all three: 0 when every file was valid; 1 when any was
invalid or missing (each is listed on standard error, one line, and left
out of the figures, the rows and the standings; the output is still
written); 2 for a usage slip (``--json`` with ``--csv``, Parquet without a
file or without pyarrow).

>>> import contextlib, io, os, tempfile
>>> from ginlog.match.session import MatchSession
>>> from ginlog.game.rules import preset
>>> folder = tempfile.mkdtemp()
>>> _ = MatchSession.create(os.path.join(folder, "a.jsonl"), ("Ann", "Bob"), preset("standard"))
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = stats([folder], json_=True)
>>> code, [p["name"] for p in json.loads(out.getvalue())["players"]]
(0, ['Ann', 'Bob'])
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any, Final

from ginlog.errors import GinlogError
from ginlog.match.dated import Dated, DatedReport
from ginlog.match.reading import read
from ginlog.text import shown

from ginlog.app.stats import PLAYER_KEYS, MatchSummary, Standings, failed, summarise
from ginlog.app.audit import error_line
from ginlog.app.paths import count_paths, iter_paths
from ginlog.app.progress import progress

__all__ = ["stats", "export", "site", "read_dated", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE"]

EXIT_OK: Final = 0
EXIT_INVALID: Final = 1
EXIT_USAGE: Final = 2

def read_dated(path: str) -> DatedReport | MatchSummary:
    """One file read, every problem collected: its dated report, or a summary of why it could not be read."""
    name = "<stdin>" if path == "-" else path
    try:
        return read(sys.stdin.buffer if path == "-" else path, Dated([], ends=False), name=name)  # stats and export date a hand by its begin
    except GinlogError as exc:
        return failed(exc, name)
    except OSError as exc:  # pragma: no cover - the reader turns these into StoreErrors
        return failed(GinlogError(f"cannot read the file: {exc.strerror or exc}", rule="file", path=name), name)


def _usage(message: str) -> int:
    sys.stderr.write(shown(f"ginlog: {message}") + "\n")  # it may name a path the user gave
    return EXIT_USAGE


def _report_invalid(s: MatchSummary) -> None:
    """One line on standard error for an invalid file: its first problem, and how many more."""
    more = len(s.errors) - 1
    line = error_line(s.errors[0]) if s.errors else shown(f"{s.file}: invalid")
    sys.stderr.write(line + (f" (and {more} more problem{'s' if more != 1 else ''})" if more > 0 else "") + "\n")


def _reports(paths: list[str], label: str, stdout_busy: bool = False) -> Iterator[DatedReport | MatchSummary]:
    """Each file's dated report (or why it could not be read), one at a time, with the progress bar."""
    with progress(label, lambda: count_paths(paths), stdout_busy=stdout_busy) as advance:
        for item in advance(iter_paths(paths)):
            yield failed(item) if isinstance(item, GinlogError) else read_dated(item)


# --------------------------------------------------------------------------- stats


def _json_stats(standings: Standings, files: IO[str], out: IO[str]) -> None:
    """``{"players": [...], "head_to_head": [...], "files": [...]}``, the files' entries copied from their spool."""

    def indented(obj: Any) -> str:
        return json.dumps(obj, indent=2, ensure_ascii=False).replace("\n", "\n  ")

    out.write('{\n  "players": ' + indented(standings.players()))
    out.write(',\n  "head_to_head": ' + indented(standings.head_to_head()))
    out.write(',\n  "files": [')
    files.seek(0)
    empty = not files.read(1)
    files.seek(0)
    if empty:
        out.write("]\n}\n")
        return
    shutil.copyfileobj(files, out)
    out.write("\n  ]\n}\n")


def _text_stats(standings: Standings) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    # Piped, rich would fold the table into 80 columns: give it room (a terminal keeps its own width).
    console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
    table = Table(title="Standings")
    columns = (
        ("Player", "name"), ("Matches", "matches"), ("Won", "matches_won"), ("Hands", "hands"),
        ("Hands won", "hands_won"), ("Points", "points"), ("Bonus", "bonus_points"), ("Gins", "gins"),
        ("Knocks", "knocks"), ("Undercuts", "undercuts"), ("Dw knock", "avg_deadwood_knocking"),
        ("Dw defend", "avg_deadwood_defending"), ("Elo", "rating"),
    )
    for label, key in columns:
        table.add_column(label, justify="left" if key == "name" else "right")
    for p in standings.players():
        table.add_row(*(escape(shown(p[k])) if k == "name" else ("-" if p[k] is None else str(p[k])) for _l, k in columns))
    console.print(table)
    for h in standings.head_to_head():
        a, b = h["players"]
        console.print(
            escape(shown(f"{a} v {b}: matches {h['wins'][a]}-{h['wins'][b]} ({h['matches']} played), "
                         f"hands {h['hands_won'][a]}-{h['hands_won'][b]}, points {h['points'][a]}-{h['points'][b]}"))
        )
    n = standings.valid + standings.invalid
    console.print(f"{n} file{'s' if n != 1 else ''}: {standings.valid} valid, {standings.invalid} invalid")
    console.print("Elo: everyone from 1500, K = 32, finished matches in the order they began.")


def stats(paths: list[str], json_: bool = False, csv_: bool = False) -> int:
    """``ginlog stats PATH... [--json] [--csv]``: standings, per-player figures and head-to-head records.

    Text by default; ``--json`` the README's shape (the files' verdicts
    included); ``--csv`` one row per player (:data:`~ginlog.app.stats.PLAYER_KEYS`).
    """
    if json_ and csv_:
        return _usage("give --json or --csv, not both")
    standings = Standings()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as files:
        first = True
        for item in _reports(paths, "stats"):
            summary = item if isinstance(item, MatchSummary) else summarise(item)
            standings.add(summary)
            if json_:
                text = json.dumps(summary.verdict(), ensure_ascii=False)  # one line a file (and the C encoder)
                files.write(("\n    " if first else ",\n    ") + text)
                first = False
            if not summary.ok:
                _report_invalid(summary)
        if json_:
            _json_stats(standings, files, sys.stdout)
        elif csv_:
            writer = csv.writer(sys.stdout, lineterminator="\n")
            writer.writerow(PLAYER_KEYS)
            writer.writerows([("" if p[k] is None else p[k]) for k in PLAYER_KEYS] for p in standings.players())
        else:
            _text_stats(standings)
    sys.stdout.flush()
    return EXIT_OK if not standings.invalid else EXIT_INVALID


# --------------------------------------------------------------------------- export


def export(paths: list[str], format: str = "csv", output: str | None = None) -> int:
    """``ginlog export PATH... --format csv|jsonl|parquet [-o FILE]``: one row per hand of every valid file.

    CSV and JSON lines go to standard output without ``-o``; Parquet needs
    ``-o`` and pyarrow (``pip install 'ginlog[data]'``).
    """
    from ginlog.app.export import FORMATS, MissingExtra, hand_rows, open_writer

    from ginlog.app.outputs import refusal

    if format not in FORMATS:
        return _usage(f"--format is one of {', '.join(FORMATS)}, not {format!r}")
    if output is not None and (why := refusal(output, paths)):
        return _usage(why)
    try:
        out = open_writer(format, output)
    except (MissingExtra, ValueError) as exc:
        return _usage(str(exc))
    except OSError as exc:
        return _usage(f"cannot write {output}: {exc.strerror or exc}")
    invalid = 0
    try:
        for item in _reports(paths, "export", stdout_busy=output is None):
            if isinstance(item, MatchSummary) or not item.ok:
                invalid += 1
                _report_invalid(item if isinstance(item, MatchSummary) else summarise(item))
                continue
            out.write(hand_rows(item))
    except BaseException:
        out.abandon()
        raise
    try:
        out.finish()
    except OSError as exc:  # the rows cannot be put in place (-o names a folder): no half file, no temporary one
        out.abandon()
        if output is None or output == "-":
            raise
        return _usage(f"cannot write {output}: {exc.strerror or exc}")
    return EXIT_OK if not invalid else EXIT_INVALID


# --------------------------------------------------------------------------- the site


def site(dir: str, output: str) -> int:
    """``ginlog html DIR -o SITE/``: the index (standings, every match) and a replay page per match."""
    import os

    from ginlog.app.site import build_site

    from ginlog.app.outputs import folder_refusal

    if not os.path.isdir(dir):
        return _usage(f"{dir} is not a folder (ginlog html MATCH makes one match's page)")
    if why := folder_refusal(output, "a site"):
        return _usage(why)
    if os.path.exists(output) and not os.path.isdir(output):
        return _usage(f"{output} exists and is not a folder")

    def done(summary: MatchSummary) -> None:
        if not summary.ok:
            _report_invalid(summary)

    try:
        with progress("pages", lambda: count_paths([dir])) as advance:
            standings = build_site(advance(iter_paths([dir])), dir, output, done=done)
    except OSError as exc:  # the folder cannot be made or written (nobody may, a name too long)
        return _usage(f"cannot write {output}: {exc.strerror or exc}")
    n = standings.valid + standings.invalid
    sys.stderr.write(shown(f"{os.path.join(output, 'index.html')}: {n} match file{'s' if n != 1 else ''}, {standings.invalid} invalid") + "\n")
    return EXIT_OK if not standings.invalid else EXIT_INVALID
