"""The score sheet and the audit summary as rich renderables, for a console to print.

Kept apart from the command line so the CLI only parses, calls, prints and
exits. Strings in the lists are rich markup (names and errors escaped where
they come from a file).

>>> from ginlog.app.audit import FileAudit, summarize
>>> results = [FileAudit("a.jsonl", (), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1})]
>>> table, *rest = audit_report(results, summarize(results))
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

__all__ = ["audit_problems", "audit_report"]


def audit_problems(results: Sequence[FileAudit]) -> list[str]:
    """Every problem of every file, one line each (markup-escaped), for standard error."""
    return [escape(error_line(e)) for r in results for e in r.errors]


def audit_report(results: Sequence[FileAudit], summary: dict[str, Any]) -> list[RenderableType]:
    """The audit's table of counts (from :func:`ginlog.app.audit.summarize`), the outcomes, problems by rule, a lone file's head."""
    table = Table(title="Audit", show_header=True)
    table.add_column("Files", justify="right")
    table.add_column("Clean", justify="right")
    table.add_column("Invalid", justify="right")
    table.add_column("Finished", justify="right")
    table.add_column("Hands", justify="right")
    table.add_column("Events", justify="right")
    table.add_row(*(str(summary[k]) for k in ("files", "ok", "invalid", "finished", "hands", "events")))
    out: list[RenderableType] = [table]
    if summary["outcomes"]:
        out.append("Hands: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["outcomes"].items()))
    if summary["errors_by_rule"]:
        out.append("Problems by rule: " + ", ".join(f"{k} {v}" for k, v in summary["errors_by_rule"].items()))
    if len(results) == 1 and results[0].head:
        out.append(f"Head: {results[0].head}")
    return out
