"""The standings as ``ginlog stats`` prints them: a table for people, JSON and CSV for programs.

The figures are :class:`~ginlog.app.data.stats.Standings`'; this module only
writes them, each form once, so the command stays a few lines. Every write
goes through the sink (:mod:`ginlog.app.shell.terminal`): the table is text,
never markup; JSON is escaped as :func:`ginlog.text.json_escaped` escapes
it; CSV cells are guarded against spreadsheet formulas unless ``raw``.

>>> import io
>>> out = io.StringIO()
>>> write_csv(Standings(), out)
>>> out.getvalue().split(",")[:3]
['name', 'matches', 'matches_finished']
"""

from __future__ import annotations

import csv
import json
import shutil
from typing import IO, Any, Final

from ginlog.app.data.formats import spreadsheet_safe
from ginlog.app.data.stats import PLAYER_KEYS, Standings
from ginlog.app.shell.terminal import Terminal
from ginlog.text import json_escaped, visible

__all__ = ["write_json", "write_csv", "show_text", "TABLE_COLUMNS"]

#: The text table's columns: (heading, key of a player's figures).
TABLE_COLUMNS: Final = (
    ("Player", "name"), ("Matches", "matches"), ("Won", "matches_won"), ("Hands", "hands"),
    ("Hands won", "hands_won"), ("Points", "points"), ("Bonus", "bonus_points"), ("Gins", "gins"),
    ("Knocks", "knocks"), ("Undercuts", "undercuts"), ("Dw knock", "avg_deadwood_knocking"),
    ("Dw defend", "avg_deadwood_defending"), ("Elo", "rating"),
)


def write_json(standings: Standings, files: IO[str], out: IO[str]) -> None:
    """``{"players": [...], "head_to_head": [...], "warnings": [...], "files": [...]}``, the files' entries copied
    from their spool (one JSON-escaped line each, written as they came), so no file's entry is held in memory."""

    def indented(obj: Any) -> str:
        return json_escaped(json.dumps(obj, indent=2, ensure_ascii=False)).replace("\n", "\n  ")

    out.write('{\n  "players": ' + indented(standings.players()))
    out.write(',\n  "head_to_head": ' + indented(standings.head_to_head()))
    out.write(',\n  "warnings": ' + indented(standings.warnings))
    out.write(',\n  "files": [')
    files.seek(0)
    empty = not files.read(1)
    files.seek(0)
    if empty:
        out.write("]\n}\n")
        return
    shutil.copyfileobj(files, out)
    out.write("\n  ]\n}\n")


def write_csv(standings: Standings, out: IO[str], *, raw: bool = False) -> None:
    """One row per player, the columns :data:`~ginlog.app.data.stats.PLAYER_KEYS`; a name that would start a
    spreadsheet formula gets a leading ``'`` unless ``raw``."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAYER_KEYS)
    cell = (lambda v: v) if raw else spreadsheet_safe
    writer.writerows([cell("" if p[k] is None else p[k]) for k in PLAYER_KEYS] for p in standings.players())


def show_text(standings: Standings, terminal: Terminal) -> None:
    """The standings table, each pair's record, the files counted, and how the rating is made."""
    from rich.table import Table

    # Piped, rich would fold the table into 80 columns: give it room (a terminal keeps its own width).
    width = None if terminal.is_terminal() else 160
    table = Table(title="Standings")
    for label, key in TABLE_COLUMNS:
        table.add_column(label, justify="left" if key == "name" else "right")
    for p in standings.players():
        table.add_row(*(visible(p[k]) if k == "name" else ("-" if p[k] is None else str(p[k])) for _l, k in TABLE_COLUMNS))
    terminal.show(table, width=width)  # text, never markup
    for h in standings.head_to_head():
        a, b = h["players"]
        terminal.out(f"{a} v {b}: matches {h['wins'][a]}-{h['wins'][b]} ({h['matches']} played), "
                     f"hands {h['hands_won'][a]}-{h['hands_won'][b]}, points {h['points'][a]}-{h['points'][b]}")
    n = standings.valid + standings.invalid + standings.copies
    copies = f", {standings.copies} more {'copies' if standings.copies != 1 else 'copy'} of them" if standings.copies else ""
    terminal.out(f"{n} file{'s' if n != 1 else ''}: {standings.valid} valid{copies}, {standings.invalid} invalid")
    terminal.out("Elo: everyone from 1500, K = 32, finished matches in the order they began.")
