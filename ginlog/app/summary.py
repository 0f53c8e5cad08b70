"""The audit's summary, kept as results stream past, and its JSON written as they come.

``ginlog audit`` used to keep every :class:`~ginlog.app.audit.FileAudit`
(about 1 KB each) until the end to sum them up: a million files, a
gigabyte. :class:`AuditSummary` sums one result at a time (the same figures
as the summary the command prints: files, clean, invalid, events, hands,
finished, outcomes, problems by rule), and :func:`write_audit_json` writes
``{"summary": ..., "files": [...]}`` with each file's entry written as soon
as it is audited: the entries go to a temporary file (so the summary can
come first, as before) and are copied after it. The text is byte for byte
``json.dumps({"summary": ..., "files": [...]}, indent=2)``.

>>> from ginlog.app.audit import FileAudit
>>> s = AuditSummary()
>>> s.add(FileAudit("a.jsonl", (), events=9, hands=1, phase="over", outcomes={"gin": 1}))
>>> s.add(FileAudit("b.jsonl", ({"rule": "chain", "message": "..."},)))
>>> s.to_dict()["ok"], s.to_dict()["invalid"], s.to_dict()["outcomes"], s.to_dict()["errors_by_rule"]
(1, 1, {'gin': 1}, {'chain': 1})
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterable
from typing import IO, Any, Final

from ginlog.app.audit import FileAudit

__all__ = ["AuditSummary", "write_audit_json", "OUTCOMES"]

#: The hand outcomes in the order the summary lists them.
OUTCOMES: Final = ("knock", "undercut", "gin", "big_gin", "void")


class AuditSummary:
    """The audit's figures, one :class:`FileAudit` at a time; the head of the only file, when there is one."""

    def __init__(self) -> None:
        self.files = 0
        self.ok = 0
        self.events = 0
        self.hands = 0
        self.finished = 0
        self.outcomes: dict[str, int] = {}
        self.errors_by_rule: dict[str, int] = {}
        self._head: str | None = None

    @property
    def invalid(self) -> int:
        return self.files - self.ok

    @property
    def head(self) -> str | None:
        """The head hash when exactly one file was audited (what the text summary shows)."""
        return self._head if self.files == 1 else None

    def add(self, r: FileAudit) -> None:
        self.files += 1
        self.ok += r.ok
        self.events += r.events
        self.hands += r.hands
        self.finished += r.phase == "over"
        outcomes = self.outcomes
        for k, v in r.outcomes.items():
            outcomes[k] = outcomes.get(k, 0) + v
        rules = self.errors_by_rule
        for e in r.errors:
            rule = e["rule"]
            rules[rule] = rules.get(rule, 0) + 1
        self._head = r.head

    def to_dict(self) -> dict[str, Any]:
        """The ``summary`` object of ``audit --json`` (keys and order as the README documents)."""
        return {
            "files": self.files,
            "ok": self.ok,
            "invalid": self.invalid,
            "events": self.events,
            "hands": self.hands,
            "finished": self.finished,
            "outcomes": {k: self.outcomes[k] for k in OUTCOMES if k in self.outcomes},
            "errors_by_rule": dict(sorted(self.errors_by_rule.items())),
        }


def _indented(obj: Any, depth: int) -> str:
    """``obj`` as ``json.dumps(..., indent=2)`` writes it ``depth`` levels down inside a bigger document."""
    return json.dumps(obj, indent=2).replace("\n", "\n" + "  " * depth)


def write_audit_json(results: Iterable[FileAudit], out: IO[str]) -> AuditSummary:
    """Write ``{"summary": ..., "files": [...]}`` to ``out``, holding one result at a time; return the summary.

    Byte for byte what ``json.dumps({"summary": s, "files": [r.to_dict() ...]}, indent=2)`` gives.
    """
    summary = AuditSummary()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        first = True
        for r in results:
            summary.add(r)
            spool.write(("\n    " if first else ",\n    ") + _indented(r.to_dict(), 2))
            first = False
        out.write('{\n  "summary": ' + _indented(summary.to_dict(), 1) + ',\n  "files": [')
        if first:
            out.write("]\n}")
        else:
            spool.seek(0)
            shutil.copyfileobj(spool, out)
            out.write("\n  ]\n}")
    out.write("\n")
    return summary
