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

    from ginlog.play.state import MatchState

__all__ = ["score_sheet", "audit_problems", "audit_report"]


def score_sheet(state: MatchState, data: dict[str, Any]) -> list[RenderableType]:
    """The sheet of :func:`ginlog.app.views.score_json`'s ``data``: a table of hands, bonuses, totals, winner, head.

    Every piece of record text (title, names, reason) is shown (:func:`ginlog.text.shown`) in a
    :class:`rich.text.Text`, never read as markup: a player called ``[/]`` is just that.
    """
    title = state.title or f"{state.players[0]} v {state.players[1]}"
    table = Table(title=_t(title), show_lines=False)
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    table.add_column("Outcome")
    table.add_column("Won by")
    table.add_column("Points", justify="right")
    for p in state.players:
        table.add_column(_t(p), justify="right")
    for h in data["hands"]:
        table.add_row(
            str(h["number"]), _t(h["dealer"]), h["outcome"].replace("_", " "), _t(h["winner"] or "-"),
            str(h["points"]), *(str(h["totals"][p]) for p in state.players),
        )
    out: list[RenderableType] = [table]
    b = data["bonuses"]
    for label, key in (("Game bonus", "game"), ("Boxes", "boxes"), ("Shutout", "shutout")):
        if b[key]:
            out.append(_t(f"{label}: " + ", ".join(f"{p} {v}" for p, v in b[key].items())))
    totals = data["totals"]
    out.append(_t("Totals: " + ", ".join(f"{p} {totals[p]}" for p in state.players)))
    if data["winner"]:
        out.append(Text.assemble("Winner: ", (shown(data["winner"]), "bold")))
    elif state.phase == "abandoned":
        out.append(_t(f"Abandoned: {state.abandoned}"))
    elif state.phase != "over":
        out.append(Text("Match in progress."))
    if data["head"]:
        out.append(Text(f"Head: {data['head']}  (keep it: 'ginlog audit FILE --anchor HEAD' proves nothing was cut)"))
    return out


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
