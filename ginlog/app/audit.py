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

import glob
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from ginlog.errors import GinlogError, StoreError

__all__ = [
    "MAX_ERRORS",
    "FileAudit",
    "Summary",
    "expand_paths",
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


# --------------------------------------------------------------------------- which files


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[GinlogError]]:
    """Files, folders (recursively, ``*.jsonl``) and globs, in a stable order; and what could not be searched.

    A folder is searched through its sub-folders, symlinked ones included (a
    club's folder may link last season's): each folder once, so a link back
    up the tree (a loop) or a second link to the same folder adds nothing and
    hides nothing. What cannot be searched is a problem, never a skip: a path
    that is not there, a folder or sub-folder that cannot be read, a folder
    holding no match file, a glob matching nothing. A glob's folders are
    searched as folders; anything else a path names (a FIFO, a broken link
    named ``*.jsonl``) is listed, for the audit to say why it is no match
    file. ``-`` is standard input.
    """
    files: list[str] = []
    problems: list[GinlogError] = []
    seen_dirs: set[tuple[int, int]] = set()
    for p in paths:
        if p == "-":
            files.append(p)
            continue
        try:
            st = os.stat(p)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            problems.append(_cannot(p, "read", exc))
            continue
        if st is None:
            if glob.has_magic(p):
                hits = sorted(glob.glob(p, recursive=True))
                if not hits:
                    problems.append(StoreError(f"no file matches {p}", rule="file", path=p))
                for hit in hits:
                    if os.path.isdir(hit):
                        _search(hit, files, problems, seen_dirs, quiet=True)
                    else:
                        files.append(hit)
            else:
                why = "a broken link" if os.path.islink(p) else "no such file or folder"
                problems.append(StoreError(why, rule="file", path=p))
        elif os.path.isdir(p):
            _search(p, files, problems, seen_dirs)
        else:
            files.append(p)
    return _unique(files), problems


def _search(
    root: str, files: list[str], problems: list[GinlogError], seen: set[tuple[int, int]], quiet: bool = False
) -> None:
    """Every ``*.jsonl`` under ``root`` (sorted by path, as ``sorted(rglob)`` gave them), links to folders followed once.

    ``quiet``: a folder a glob matched may hold no match file without that being a problem.
    """
    found: list[str] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
            if (st.st_dev, st.st_ino) in seen:
                continue  # searched already: a loop, or a second way to the same folder
            seen.add((st.st_dev, st.st_ino))
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            problems.append(_cannot(folder, "read the folder", exc))
            continue
        subs = []
        for e in entries:
            try:
                is_dir = e.is_dir()  # follows a link
            except OSError:
                is_dir = False
            if is_dir:
                subs.append(e.path)
            elif e.name.endswith(".jsonl"):
                found.append(e.path)
        stack.extend(reversed(subs))
    if not found and not quiet and not any(p.path is not None and p.path.startswith(root) for p in problems):
        problems.append(StoreError("no match file (*.jsonl) in this folder or below it", rule="file", path=root))
    files.extend(sorted(found))


def _cannot(path: str, action: str, exc: OSError) -> StoreError:
    if isinstance(exc, PermissionError):
        what = "permission denied"
    else:
        what = exc.strerror or str(exc)
    return StoreError(f"cannot {action}: {what}", rule="file", path=path)


def _unique(files: list[str]) -> list[str]:
    """``files`` without repeats (a glob and a folder naming the same file), in order; ``-`` only once."""
    seen: set[str] = set()
    out = []
    for f in files:
        key = f if f == "-" else os.path.normpath(f)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


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
    files: Iterable[str], *, jobs: int = 1, anchor: str | None = None, max_errors: int | None = MAX_ERRORS
) -> Iterator[FileAudit]:
    """Audit files, folders and globs in order: what could not be searched first, then each file."""
    listed, missing = expand_paths(files)
    for err in missing:
        yield FileAudit.failed(err)
    yield from audit_files(listed, jobs=jobs, anchor=anchor, max_errors=max_errors)


def audit_files(
    files: list[str], *, jobs: int = 1, anchor: str | None = None, max_errors: int | None = MAX_ERRORS
) -> Iterator[FileAudit]:
    """Audit these files in order, ``jobs`` processes at once (no expansion), one verdict at a time.

    Standard input (``-``) is read by this process, never by a worker (a
    worker's standard input is not the user's): with ``jobs > 1`` it is
    copied to a temporary file first, audited as ``<stdin>``. The workers
    ignore Ctrl-C; the interrupt reaches this process alone, which stops them
    (the pool is terminated) and lets ``KeyboardInterrupt`` go on up.
    """
    work: list[tuple[str, str | None, str | None, int | None]] = [(f, anchor, None, max_errors) for f in files]
    if jobs <= 1 or len(work) < 2:
        for item in work:
            yield _audit_one(item)
        return
    spool = None
    try:
        if "-" in files:
            spool = _spool_stdin()
            work = [(spool, anchor, STDIN, max_errors) if f == "-" else item for f, item in zip(files, work)]
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ctx.Pool(jobs, initializer=_ignore_interrupts) as pool:
            yield from pool.imap(_audit_one, work, chunksize=max(1, min(64, len(work) // (jobs * 8) or 1)))
    finally:
        if spool is not None:
            os.unlink(spool)


def _audit_one(args: tuple[str, str | None, str | None, int | None]) -> FileAudit:
    path, anchor, name, max_errors = args
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
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "void")


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
    """One problem of :attr:`FileAudit.errors` as the CLI prints it: ``FILE:LINE: event N: message [rule]``.

    >>> error_line({"file": "m.jsonl", "line": 12, "event": 12, "message": "it is Ann's turn", "rule": "turn-order"})
    "m.jsonl:12: event 12: it is Ann's turn [turn-order]"
    """
    where = e["file"] or ""
    if e.get("line") is not None:
        where += f":{e['line']}"
    if e.get("event") is not None:
        where += f": event {e['event']}"
    return f"{where}: {e['message']} [{e['rule']}]"
