"""Audits: check many match files (chain, legality, scores) and collect, never stop.

Each file is read in collecting mode, so a file reports every problem it has
with its place, and one bad file never stops the run. Files are independent,
so ``jobs > 1`` spreads them over processes.

>>> import tempfile, os
>>> from ginlog.match.session import MatchSession
>>> from ginlog.game.rules import preset
>>> folder = tempfile.mkdtemp()
>>> _ = MatchSession.create(os.path.join(folder, "a.jsonl"), ("Ann", "Bob"), preset("standard"))
>>> results = list(audit_paths([folder]))
>>> [r.ok for r in results]
[True]
>>> summarize(results)["events"], summarize(results)["finished"]
(1, 0)
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ginlog.errors import GinlogError, StoreError
from ginlog.text import shown

__all__ = ["FileAudit", "expand_paths", "audit_file", "audit_files", "audit_paths", "summarize", "error_line"]


@attrs.frozen
class FileAudit:
    """The verdict on one match file."""

    path: str
    errors: tuple[dict[str, Any], ...]
    events: int = 0
    hands: int = 0
    phase: str | None = None
    winner: str | None = None
    totals: dict[str, int] = attrs.Factory(dict)
    head: str | None = None
    outcomes: dict[str, int] = attrs.Factory(dict)  # how the finished hands ended

    @property
    def ok(self) -> bool:
        return not self.errors

    @classmethod
    def failed(cls, err: GinlogError, path: str | None = None) -> FileAudit:
        """A file that could not be read at all (missing, a folder, unreadable)."""
        where = path or err.path or "?"
        return cls(where, (err.at(path=where).to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "ok": self.ok,
            "events": self.events,
            "hands": self.hands,
            "phase": self.phase,
            "winner": self.winner,
            "totals": self.totals,
            "head": self.head,
            "outcomes": self.outcomes,
            "errors": list(self.errors),
        }


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[GinlogError]]:
    """Files, folders (recursively, ``*.jsonl``) and globs, in a stable order; and what was not found."""
    files: list[str] = []
    missing: list[GinlogError] = []
    for p in paths:
        if p == "-":
            files.append(p)
        elif os.path.isdir(p):
            files.extend(sorted(str(f) for f in Path(p).rglob("*.jsonl") if f.is_file()))
        elif os.path.exists(p):
            files.append(p)
        elif glob.has_magic(p):
            hits = sorted(glob.glob(p, recursive=True))
            if not hits:
                missing.append(StoreError(f"no file matches {p}", rule="file", path=p))
            files.extend(h for h in hits if os.path.isfile(h))
        else:
            missing.append(StoreError("no such file or folder", rule="file", path=p))
    return files, missing


def audit_file(path: str, anchor: str | None = None) -> FileAudit:
    """Audit one file; never raises for anything wrong with the file."""
    from ginlog.match.reading import read_match

    if path == "-":
        import sys

        source: Any = sys.stdin.buffer
    else:
        source = path
    if path == "-":
        path = "<stdin>"
    try:
        report = read_match(source, collect=True, anchor=anchor, name=path)
    except GinlogError as exc:
        return FileAudit.failed(exc, path)
    state = report.state
    errors = tuple(e.to_dict() for e in report.errors)
    if state is None:
        return FileAudit(path, errors, report.lines)
    return FileAudit(
        path,
        errors,
        events=report.lines,
        hands=len(state.hands),
        phase=state.phase,
        winner=None if state.winner is None else state.players[state.winner],
        totals=dict(zip(state.players, state.totals())),
        head=report.head,
        outcomes=_count(h.score.outcome for h in state.hands),
    )


def _count(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _audit_one(args: tuple[str, str | None]) -> FileAudit:
    return audit_file(*args)


def audit_paths(files: Iterable[str], *, jobs: int = 1, anchor: str | None = None) -> Iterator[FileAudit]:
    """Audit files, folders and globs in order: what is not found first, then each file."""
    listed, missing = expand_paths(files)
    for err in missing:
        yield FileAudit.failed(err)
    yield from audit_files(listed, jobs=jobs, anchor=anchor)


def audit_files(files: list[str], *, jobs: int = 1, anchor: str | None = None) -> Iterator[FileAudit]:
    """Audit these files in order, ``jobs`` processes at once (no expansion)."""
    work = [(f, anchor) for f in files]
    if jobs <= 1 or len(work) < 2:
        for item in work:
            yield _audit_one(item)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap(_audit_one, work, chunksize=max(1, min(64, len(work) // (jobs * 8) or 1)))


#: The hand outcomes, in the order a summary lists them.
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "void")


def summarize(results: Sequence[FileAudit]) -> dict[str, Any]:
    """The audit's summary (its JSON shape is in the README): counts of files, events, hands, outcomes, problems by rule."""
    bad = sum(1 for r in results if not r.ok)
    return {
        "files": len(results),
        "ok": len(results) - bad,
        "invalid": bad,
        "events": sum(r.events for r in results),
        "hands": sum(r.hands for r in results),
        "finished": sum(1 for r in results if r.phase == "over"),
        "outcomes": _sum_outcomes(results),
        "errors_by_rule": _count_rules(results),
    }


def _sum_outcomes(results: Sequence[FileAudit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.outcomes.items():
            counts[k] = counts.get(k, 0) + v
    return {k: counts[k] for k in OUTCOMES if k in counts}


def _count_rules(results: Sequence[FileAudit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for e in r.errors:
            counts[e["rule"]] = counts.get(e["rule"], 0) + 1
    return dict(sorted(counts.items()))


def error_line(e: dict[str, Any]) -> str:
    """One problem of :attr:`FileAudit.errors` as the CLI prints it: ``FILE:LINE: event N: message [rule]``,
    one line with nothing a terminal would act on, as :meth:`ginlog.errors.GinlogError.one_line`.

    >>> error_line({"file": "m.jsonl", "line": 12, "event": 12, "message": "it is Ann's turn", "rule": "turn-order"})
    "m.jsonl:12: event 12: it is Ann's turn [turn-order]"
    """
    where = e["file"] or ""
    if e.get("line") is not None:
        where += f":{e['line']}"
    if e.get("event") is not None:
        where += f": event {e['event']}"
    return shown(" ".join(f"{where}: {e['message']} [{e['rule']}]".split()))
