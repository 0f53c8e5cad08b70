"""The score sheet and the audit summary as rich renderables, for a console to print.

Kept apart from the command line so the CLI only parses, calls, prints and
exits. Strings in the lists are rich markup (names and errors escaped where
they come from a file).

>>> from ginlog.app.audit import FileAudit, summarize
>>> results = [FileAudit("a.jsonl", (), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1})]
>>> table, *rest = audit_report(summarize(results))
>>> table.row_count, rest
(1, ['Hands: knock 1, gin 1'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

from ginlog.app.audit import FileAudit, error_line

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import RenderableType

    from ginlog.play.state import MatchState

__all__ = ["score_sheet", "audit_problems", "audit_report"]


def score_sheet(state: MatchState, data: dict[str, Any]) -> list[RenderableType]:
    """The sheet of :func:`ginlog.app.views.score_json`'s ``data``: a table of hands, bonuses, totals, winner, head."""
    title = state.title or f"{state.players[0]} v {state.players[1]}"
    table = Table(title=title, show_lines=False)
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    table.add_column("Outcome")
    table.add_column("Won by")
    table.add_column("Points", justify="right")
    for p in state.players:
        table.add_column(p, justify="right")
    for h in data["hands"]:
        table.add_row(
            str(h["number"]), h["dealer"], h["outcome"].replace("_", " "), h["winner"] or "-",
            str(h["points"]), *(str(h["totals"][p]) for p in state.players),
        )
    out: list[RenderableType] = [table]
    b = data["bonuses"]
    for label, key in (("Game bonus", "game"), ("Boxes", "boxes"), ("Shutout", "shutout")):
        if b[key]:
            out.append(f"{label}: " + ", ".join(f"{p} {v}" for p, v in b[key].items()))
    totals = data["totals"]
    out.append("Totals: " + ", ".join(f"{p} {totals[p]}" for p in state.players))
    if data["winner"]:
        out.append(f"Winner: [bold]{data['winner']}[/bold]")
    elif state.phase == "abandoned":
        out.append(f"Abandoned: {state.abandoned}")
    elif state.phase != "over":
        out.append("Match in progress.")
    if data["head"]:
        out.append(f"Head: {data['head']}  (keep it: 'ginlog audit FILE --anchor HEAD' proves nothing was cut)")
    return out


def audit_problems(results: Sequence[FileAudit]) -> list[str]:
    """Every problem of every file, one line each (markup-escaped), for standard error."""
    return [escape(error_line(e)) for r in results for e in r.errors]


def audit_report(summary: dict[str, Any], head: str | None = None) -> list[RenderableType]:
    """The audit's table of counts (a :class:`ginlog.app.audit.Summary`'s), the outcomes, problems and warnings by rule, a lone file's head.

    A file with warnings is still clean (nothing in it is wrong), but the
    table says how many files and warnings there are: what the audit could
    not verify is never left unsaid.
    """
    table = Table(title="Audit", show_header=True)
    table.add_column("Files", justify="right")
    table.add_column("Clean", justify="right")
    table.add_column("Invalid", justify="right")
    table.add_column("Finished", justify="right")
    table.add_column("Hands", justify="right")
    table.add_column("Events", justify="right")
    table.add_column("Warnings", justify="right")
    table.add_row(
        *(str(summary[k]) for k in ("files", "ok", "invalid", "finished", "hands", "events")),
        str(summary.get("warnings", 0)),
    )
    out: list[RenderableType] = [table]
    if summary["outcomes"]:
        out.append("Hands: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["outcomes"].items()))
    if summary["errors_by_rule"]:
        out.append("Problems by rule: " + ", ".join(f"{k} {v}" for k, v in summary["errors_by_rule"].items()))
    if summary.get("warnings_by_rule"):
        out.append(
            "Warnings by rule (not verified; see the README): "
            + ", ".join(f"{k} {v}" for k, v in summary["warnings_by_rule"].items())
        )
    if head:
        out.append(f"Head: {head}")
    return out
