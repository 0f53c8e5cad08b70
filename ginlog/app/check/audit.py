"""Audits: check many match files (chain, legality, scores) and collect, never stop, never say more than is known.

Each file is read in collecting mode, so a file reports its problems with
their places (at most ``max_errors`` of them kept, all of them counted), its
warnings (what the record does not let ginlog verify), and one bad file never
stops the run. Files are independent, so ``jobs > 1`` spreads them over
processes. What cannot be read -- a missing file, an unreadable folder or
sub-folder, a FIFO, a folder without one match file -- is a problem in the
report like any other, never a silent skip. Verdicts come one by one, in
order (:func:`audit_paths`), and :class:`Summary` adds them up as they
come, so an audit of any number of files holds one verdict at a time.

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

import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from ginlog.app.check.paths import iter_paths
from ginlog.errors import GinlogError, one_line, place

__all__ = [
    "MAX_ERRORS",
    "FileAudit",
    "Summary",
    "audit_file",
    "audit_files",
    "audit_paths",
    "summarize",
    "error_line",
]

#: Problems (and warnings) kept per file unless told otherwise; all are counted.
MAX_ERRORS: Final = 100

#: What a file read from standard input is called.
STDIN: Final = "<stdin>"


@attrs.frozen
class FileAudit:
    """The verdict on one match file: at most ``max_errors`` problems and warnings kept, all counted."""

    path: str
    errors: tuple[dict[str, Any], ...]
    events: int = 0
    hands: int = 0
    phase: str | None = None
    winner: str | None = None
    totals: dict[str, int] = attrs.Factory(dict)
    head: str | None = None
    outcomes: dict[str, int] = attrs.Factory(dict)  # how the finished hands ended
    errors_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.errors), takes_self=True))
    errors_by_rule: dict[str, int] = attrs.field(
        default=attrs.Factory(lambda self: _count(e["rule"] for e in self.errors), takes_self=True)
    )
    warnings: tuple[dict[str, Any], ...] = ()
    warnings_total: int = attrs.field(default=attrs.Factory(lambda self: len(self.warnings), takes_self=True))
    warnings_by_rule: dict[str, int] = attrs.field(
        default=attrs.Factory(lambda self: _count(w["rule"] for w in self.warnings), takes_self=True)
    )

    @property
    def ok(self) -> bool:
        return not self.errors_total

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
            "errors_total": self.errors_total,
            "errors_by_rule": self.errors_by_rule,
            "warnings": list(self.warnings),
            "warnings_total": self.warnings_total,
            "warnings_by_rule": self.warnings_by_rule,
        }


# --------------------------------------------------------------------------- one file


def audit_file(
    path: str, anchor: str | None = None, *, name: str | None = None, max_errors: int | None = MAX_ERRORS
) -> FileAudit:
    """Audit one file (``-``: standard input); never raises for anything wrong with the file.

    ``name`` is what the report calls it (a temporary copy of standard input
    is called ``<stdin>``); ``max_errors`` caps the problems and the warnings
    kept (None: all), never those counted.
    """
    from ginlog.match.reading import read_match

    source: Any = sys.stdin.buffer if path == "-" else path
    label = name if name is not None else (STDIN if path == "-" else path)
    try:
        report = read_match(source, collect=True, keep=max_errors, anchor=anchor, name=label)
    except GinlogError as exc:
        return FileAudit.failed(exc, label)
    state = report.state
    errors = tuple(e.to_dict() for e in report.errors)
    counts: dict[str, Any] = {
        "errors_total": report.errors_total,
        "errors_by_rule": report.errors_by_rule,
        "warnings": tuple(w.to_dict() for w in report.warnings),
        "warnings_total": report.warnings_total,
        "warnings_by_rule": report.warnings_by_rule,
    }
    if state is None:
        return FileAudit(label, errors, report.lines, **counts)
    return FileAudit(
        label,
        errors,
        events=report.lines,
        hands=len(state.hands),
        phase=state.phase,
        winner=None if state.winner is None else state.players[state.winner],
        totals=dict(zip(state.players, state.totals())),
        head=report.head,
        outcomes=_count(h.score.outcome for h in state.hands),
        **counts,
    )


def _count(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


# --------------------------------------------------------------------------- many files


def audit_paths(
    paths: Iterable[str], *, jobs: int = 1, anchor: str | None = None, max_errors: int | None = MAX_ERRORS
) -> Iterator[FileAudit]:
    """Audit files, folders and globs (:func:`~ginlog.app.check.paths.iter_paths`) in order, one verdict at a time.

    What cannot be searched is a failed verdict in its place among the files.
    """
    return audit_files(iter_paths(paths), jobs=jobs, anchor=anchor, max_errors=max_errors)


#: One file's work for a worker: (path, anchor, name, max_errors), or a verdict known already (handed back).
_Work = tuple[str, str | None, str | None, int | None] | FileAudit


def audit_files(
    files: Iterable[str | GinlogError],
    *,
    jobs: int = 1,
    anchor: str | None = None,
    max_errors: int | None = MAX_ERRORS,
) -> Iterator[FileAudit]:
    """Audit these files in order, ``jobs`` processes at once (no expansion), one verdict at a time.

    A :class:`~ginlog.errors.GinlogError` among them (a path that could not
    be searched) is a failed verdict in its place. The files are taken as
    they come (a pool's feeder blocks once its pipe is full), so a stream of
    a million paths is never held. Standard input (``-``) is read by this
    process, never by a worker (a worker's standard input is not the
    user's): with ``jobs > 1`` it is copied to a temporary file when it
    comes, audited as ``<stdin>``. The workers ignore Ctrl-C; the interrupt
    reaches this process alone, which stops them (the pool is terminated)
    and lets ``KeyboardInterrupt`` go on up.
    """
    spool: list[str] = []

    def work() -> Iterator[_Work]:
        for f in files:
            if isinstance(f, GinlogError):
                yield FileAudit.failed(f)
            elif f == "-" and jobs > 1:
                if not spool:
                    spool.append(_spool_stdin())
                yield (spool[0], anchor, STDIN, max_errors)
            else:
                yield (f, anchor, None, max_errors)

    if jobs <= 1:
        yield from map(_audit_one, work())
        return
    try:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ctx.Pool(jobs, initializer=_ignore_interrupts) as pool:
            yield from pool.imap(_audit_one, work(), chunksize=8)
    finally:
        for path in spool:
            os.unlink(path)


def _audit_one(item: _Work) -> FileAudit:
    if isinstance(item, FileAudit):
        return item
    path, anchor, name, max_errors = item
    return audit_file(path, anchor, name=name, max_errors=max_errors)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _spool_stdin() -> str:
    """Copy standard input to a temporary file, in blocks (any size, little memory); its path."""
    fd, path = tempfile.mkstemp(prefix="ginlog-stdin-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(sys.stdin.buffer, out, 1 << 16)
    except BaseException:
        os.unlink(path)
        raise
    return path


# --------------------------------------------------------------------------- the summary


#: The hand outcomes, in the order a summary lists them.
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "void", "points")


class Summary:
    """The audit's summary, added up one verdict at a time (nothing but counts is kept).

    >>> s = Summary()
    >>> s.add(FileAudit("a.jsonl", (), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1}))
    >>> s.add(FileAudit("b.jsonl", ({"rule": "chain"},), errors_total=3, errors_by_rule={"chain": 3}))
    >>> d = s.to_dict()
    >>> d["files"], d["invalid"], d["errors_total"], d["errors_by_rule"], d["outcomes"]
    (2, 1, 3, {'chain': 3}, {'knock': 1, 'gin': 1})
    """

    __slots__ = ("files", "bad", "events", "hands", "finished", "outcomes", "errors", "errors_total",
                 "warnings", "warnings_by_rule", "warned", "head")

    def __init__(self) -> None:
        self.files = self.bad = self.events = self.hands = self.finished = 0
        self.errors_total = self.warnings = self.warned = 0
        self.outcomes: dict[str, int] = {}
        self.errors: dict[str, int] = {}
        self.warnings_by_rule: dict[str, int] = {}
        self.head: str | None = None  # the first file's (shown for a lone file)

    def add(self, r: FileAudit) -> None:
        """Count one verdict in."""
        if not self.files:
            self.head = r.head
        self.files += 1
        self.bad += not r.ok
        self.events += r.events
        self.hands += r.hands
        self.finished += r.phase == "over"
        _add(self.outcomes, r.outcomes)
        _add(self.errors, r.errors_by_rule)
        self.errors_total += r.errors_total
        self.warnings += r.warnings_total
        self.warned += bool(r.warnings_total)
        _add(self.warnings_by_rule, r.warnings_by_rule)

    def to_dict(self) -> dict[str, Any]:
        """The summary's JSON shape (in the README)."""
        return {
            "files": self.files,
            "ok": self.files - self.bad,
            "invalid": self.bad,
            "events": self.events,
            "hands": self.hands,
            "finished": self.finished,
            "outcomes": {k: self.outcomes[k] for k in OUTCOMES if k in self.outcomes},
            "errors_by_rule": dict(sorted(self.errors.items())),
            "errors_total": self.errors_total,
            "warnings": self.warnings,
            "warned": self.warned,
            "warnings_by_rule": dict(sorted(self.warnings_by_rule.items())),
        }


def _add(into: dict[str, int], counts: dict[str, int]) -> None:
    for k, v in counts.items():
        into[k] = into.get(k, 0) + v


def summarize(results: Sequence[FileAudit]) -> dict[str, Any]:
    """The audit's summary (its JSON shape is in the README): counts of files, events, hands, outcomes, problems by rule."""
    s = Summary()
    for r in results:
        s.add(r)
    return s.to_dict()


def error_line(e: dict[str, Any]) -> str:
    """One problem of :attr:`FileAudit.errors` as the CLI prints it: ``FILE:LINE: event N: message [rule]``,
    one line with nothing a terminal would act on, as :meth:`ginlog.errors.GinlogError.one_line`.

    >>> error_line({"file": "m.jsonl", "line": 12, "event": 12, "message": "it is Ann's turn", "rule": "turn-order"})
    "m.jsonl:12: event 12: it is Ann's turn [turn-order]"
    """
    return one_line(place(e["file"], e.get("line"), e.get("event")), e["message"], e["rule"])
