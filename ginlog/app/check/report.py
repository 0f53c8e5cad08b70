"""The audit's summary as rich renderables, for a console to print.

Kept apart from the command line so the CLI only parses, calls, prints and
exits. Nothing here is markup: record text (names, title, reasons, errors)
goes into :class:`rich.text.Text`, shown first (:func:`ginlog.text.visible`).

>>> from ginlog.app.check.audit import FileAudit, summarize
>>> from ginlog.app.check.verdicts import Verdict
>>> results = [FileAudit(Verdict("a.jsonl"), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1})]
>>> table, *rest = audit_report(summarize(results))
>>> table.row_count, [str(x) for x in rest]
(1, ['Hands: knock 1, gin 1'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from ginlog.app.check.audit import FileAudit, error_line
from ginlog.text import visible

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import RenderableType


__all__ = ["audit_problems", "audit_report"]


def _t(text: str) -> Text:
    """Record text for rich: shown (nothing a terminal acts on) and plain, never markup."""
    return Text(visible(text))


def audit_problems(results: Sequence[FileAudit]) -> list[Text]:
    """Every problem of every file, one line each (shown, plain text), for standard error."""
    return [Text(error_line(e)) for r in results for e in r.errors]


def audit_report(summary: dict[str, Any], head: str | None = None) -> list[RenderableType]:
    """The audit's table of counts (a :class:`ginlog.app.check.audit.Summary`'s), the outcomes, problems and warnings by rule, a lone file's head.

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
        out.append(Text("Hands: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["outcomes"].items())))
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
