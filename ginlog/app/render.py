"""The score sheet and the audit summary as rich renderables, for a console to print.

Kept apart from the command line so the CLI only parses, calls, prints and
exits. Nothing here is markup: record text (names, title, reasons, errors)
goes into :class:`rich.text.Text`, shown first (:func:`ginlog.text.shown`).

>>> from ginlog.app.audit import FileAudit, summarize
>>> results = [FileAudit("a.jsonl", (), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1})]
>>> table, *rest = audit_report(results, summarize(results))
>>> table.row_count, [str(x) for x in rest]
(1, ['Hands: knock 1, gin 1'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from ginlog.app.audit import FileAudit, error_line
from ginlog.text import shown

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import RenderableType


__all__ = ["audit_problems", "audit_report"]


def _t(text: str) -> Text:
    """Record text for rich: shown (nothing a terminal acts on) and plain, never markup."""
    return Text(shown(text))


def audit_problems(results: Sequence[FileAudit]) -> list[Text]:
    """Every problem of every file, one line each (shown, plain text), for standard error."""
    return [Text(error_line(e)) for r in results for e in r.errors]


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
        out.append(Text("Hands: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["outcomes"].items())))
    if summary["errors_by_rule"]:
        out.append(_t("Problems by rule: " + ", ".join(f"{k} {v}" for k, v in summary["errors_by_rule"].items())))
    if len(results) == 1 and results[0].head:
        out.append(Text(f"Head: {results[0].head}"))
    return out
