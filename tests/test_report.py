"""The audit's report (:mod:`ginlog.app.check.report`): the table of counts and the lines under it, as rich
renderables, held to the summary they render; record text in it stays text (shown, never markup).

The audit's verdicts and its command line are in ``tests/test_audit.py``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console

from ginlog.app.check.audit import FileAudit, summarize
from ginlog.app.check.report import audit_problems, audit_report
from ginlog.app.check.verdicts import Verdict

ERROR = {"file": "b[red]x[/red].jsonl", "line": 3, "event": 3, "message": "it is Ann's turn", "rule": "turn-order"}
RESULTS = [
    FileAudit(Verdict("a.jsonl"), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1}),
    FileAudit(Verdict("b[red]x[/red].jsonl", (ERROR,), errors_total=2, errors_by_rule={"turn-order": 2}),
              events=3),
    FileAudit(Verdict("c.jsonl", warnings=({"rule": "score-pad"},), warnings_by_rule={"score-pad": 1}), events=9,
              hands=1, phase="ready", outcomes={"big_gin": 1}),
]


def rendered(things: Sequence[object]) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None, force_terminal=False)
    for thing in things:
        console.print(thing)
    return buffer.getvalue()


def test_the_table_is_the_summary_and_each_line_its_counts() -> None:
    summary = summarize(RESULTS)
    text = rendered(audit_report(summary, head="a.jsonl: 40 ab12"))
    row = next(line for line in text.splitlines() if line.startswith("│"))  # the one row under the header
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    keys = ("files", "ok", "invalid", "finished", "hands", "events", "warnings")
    assert cells == [str(summary.get(k, 0)) for k in keys]
    ok = sum(r.ok for r in RESULTS)  # and a naive count of the results themselves
    naive = [len(RESULTS), ok, len(RESULTS) - ok, sum(r.phase == "over" for r in RESULTS),
             sum(r.hands for r in RESULTS), sum(r.events for r in RESULTS)]
    assert cells[:6] == [str(n) for n in naive]
    outcomes = {k.replace("_", " "): v for r in RESULTS for k, v in r.outcomes.items()}
    said = next(line for line in text.splitlines() if line.startswith("Hands: "))
    assert dict(part.rsplit(" ", 1) for part in said[len("Hands: "):].split(", ")) == {k: str(v) for k, v in outcomes.items()}
    assert "Problems by rule: turn-order 2" in text and "Warnings by rule (not verified; see the README): score-pad 1" in text
    assert text.rstrip().endswith("Head: a.jsonl: 40 ab12")


def test_a_clean_lone_file_says_no_more_than_its_table() -> None:
    out = audit_report(summarize(RESULTS[:1]))
    assert len(out) == 2 and "Problems" not in rendered(out) and "Warnings by rule" not in rendered(out)


def test_every_problem_is_one_line_and_record_text_is_not_markup() -> None:
    lines = audit_problems(RESULTS)
    assert [str(t) for t in lines] == ["b[red]x[/red].jsonl:3: event 3: it is Ann's turn [turn-order]"]
    assert "b[red]x[/red].jsonl" in rendered(lines)  # printed as written, not as red
