"""Audits: check many match files (chain, legality, scores) and collect, never stop, never say more than is known.

Each file is read under the reading policy (:data:`~ginlog.match.policy.POLICY`,
``--max-errors`` its ``keep``), so a file reports its problems with their
places (at most ``max_errors`` of them kept, all of them counted), its
warnings (what the record does not let ginlog verify), and one bad file
never stops the run: the same :class:`~ginlog.app.check.verdicts.Verdict`
every command gives it. Files are independent, so ``jobs > 1`` spreads them
over processes, through the one many-file loop
(:func:`~ginlog.app.check.verdicts.verdicts`). What cannot be read -- a
missing file, an unreadable folder or sub-folder, a FIFO, a folder without
one match file -- is a problem in the report like any other, never a silent
skip. Verdicts come back one by one in the order of the files
(:func:`audit_paths`), and :class:`Summary` adds them up as they come, so
an audit of any number of files holds a few verdicts at a time.

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

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from ginlog.app.check.sources import is_url, opened
from ginlog.app.check.verdicts import STDIN, Executor, Failed, Verdict, verdicts
from ginlog.errors import GinlogError, one_line, place
from ginlog.match.reading import FinalState, read
from ginlog.match.policy import KEEP, POLICY, Policy
from ginlog.match.seals import Keyring, Require, SealCheck, sealed_words

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

#: Problems (and warnings) kept per file unless told otherwise (the policy's); all are counted.
MAX_ERRORS: Final = KEEP


@attrs.frozen
class FileAudit:
    """The audit of one match file: its :class:`~ginlog.app.check.verdicts.Verdict` and what the match came to.

    A file that could not be read (:class:`~ginlog.app.check.verdicts.Failed`)
    is its verdict alone: ``FileAudit(failed.verdict)``.
    """

    verdict: Verdict
    events: int = 0
    hands: int = 0
    phase: str | None = None
    winner: str | None = None
    totals: dict[str, int] = attrs.Factory(dict)
    head: str | None = None
    outcomes: dict[str, int] = attrs.Factory(dict)  # how the finished hands ended
    seals: tuple[SealCheck, ...] = ()  # every seal, as checked

    @property
    def sealed(self) -> str | None:
        """Who sealed the file, in words (``sealed by Ann and Bob at event 214``), or None."""
        return sealed_words(self.seals)

    @property
    def path(self) -> str:
        return self.verdict.path

    @property
    def ok(self) -> bool:
        return self.verdict.ok

    @property
    def errors(self) -> tuple[dict[str, Any], ...]:
        return self.verdict.errors

    @property
    def errors_total(self) -> int:
        return self.verdict.errors_total

    @property
    def errors_by_rule(self) -> dict[str, int]:
        return self.verdict.errors_by_rule

    @property
    def warnings(self) -> tuple[dict[str, Any], ...]:
        return self.verdict.warnings

    @property
    def warnings_total(self) -> int:
        return self.verdict.warnings_total

    @property
    def warnings_by_rule(self) -> dict[str, int]:
        return self.verdict.warnings_by_rule

    def to_dict(self) -> dict[str, Any]:
        v = self.verdict.to_dict()
        return {
            "file": self.path,
            "ok": v.pop("ok"),
            "events": self.events,
            "hands": self.hands,
            "phase": self.phase,
            "winner": self.winner,
            "totals": self.totals,
            "head": self.head,
            "outcomes": self.outcomes,
            "sealed": self.sealed,
            "seals": [c.to_dict() for c in self.seals],
            **v,
        }


# --------------------------------------------------------------------------- one file


def audit_file(
    path: str, anchor: str | None = None, *, name: str | None = None, max_errors: int | None = MAX_ERRORS,
    keyring: Keyring | None = None, require: Require | None = None,
) -> FileAudit:
    """Audit one file (``-``: standard input); never raises for anything wrong with the file.

    ``name`` is what the report calls it (standard input is ``<stdin>``);
    ``max_errors`` caps the problems and the warnings kept (None: all),
    never those counted: the reading policy's ``keep``. ``keyring`` (a
    club's keys) and ``require`` (``all``, ``any``) are the seal policy
    (:mod:`ginlog.match.seals`).
    """
    label = name if name is not None else (STDIN if path == "-" else path)
    policy = (POLICY if max_errors == POLICY.keep and keyring is None and require is None
              else Policy(keep=max_errors, keyring=keyring, require=require))
    visitor = FinalState(anchor=anchor, policy=policy)
    try:
        if path == "-" or is_url(path):
            with opened(path) as source:  # standard input, or an fsspec URL's bytes
                report = read(source, visitor, name=label)
        else:  # a path: the reader opens it (no context to enter: a few µs of every file of an audit)
            report = read(path, visitor, name=label)
    except GinlogError as exc:
        return FileAudit(Failed.of(exc, label).verdict)
    state = report.state
    verdict = Verdict.of(report)
    if state is None:
        return FileAudit(verdict, report.lines)
    outcomes: dict[str, int] = {}
    for h in state.hands:
        outcome = h.score.outcome
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return FileAudit(
        verdict,
        report.lines,
        len(state.hands),
        state.phase,
        None if state.winner is None else state.players[state.winner],
        dict(zip(state.players, state.totals())),
        report.head,
        outcomes,
        report.seals,
    )


def _audit(path: str, anchor: str | None, max_errors: int | None, keyring: Keyring | None = None,
           require: Require | None = None) -> FileAudit:
    """The reading the many-file loop hands each path (module-level: a worker process can be sent it)."""
    return audit_file(path, anchor, max_errors=max_errors, keyring=keyring, require=require)


# --------------------------------------------------------------------------- many files


def audit_paths(
    paths: Iterable[str], *, jobs: int = 1, anchor: str | None = None, max_errors: int | None = MAX_ERRORS,
    notices: list[dict[str, Any]] | None = None,
    keyring: Keyring | None = None, require: Require | None = None,
    executor: Executor | None = None,
) -> Iterator[FileAudit]:
    """Audit files, folders, globs and URLs (:func:`~ginlog.app.check.paths.iter_paths`), one verdict at a time,
    in order; on ``executor`` if given (a cluster's :class:`~ginlog.app.check.cluster.DaskExecutor`), else on
    ``jobs`` local processes.

    What cannot be searched is a failed verdict in its place among the files; an argument that named again
    what was searched already is a notice in ``notices`` (read once).
    """
    from ginlog.app.check.paths import iter_paths

    reading = functools.partial(_audit, anchor=anchor, max_errors=max_errors, keyring=keyring, require=require)
    walk = functools.partial(iter_paths, notices=notices)
    return _audits(verdicts(paths, reading, jobs, executor=executor, walk=walk))


def audit_files(
    files: Iterable[str | GinlogError],
    *,
    jobs: int = 1,
    anchor: str | None = None,
    max_errors: int | None = MAX_ERRORS,
) -> Iterator[FileAudit]:
    """Audit these files (already listed: no expansion), ``jobs`` processes at once, in order.

    A :class:`~ginlog.errors.GinlogError` among them (a path that could not
    be searched) is a failed verdict in its place. The files are taken as
    they come, a few ahead of the verdicts handed back
    (:func:`~ginlog.app.check.verdicts.verdicts`), so a stream of a million
    paths is never held. Standard input (``-``) is read by this process.
    """
    reading = functools.partial(_audit, anchor=anchor, max_errors=max_errors)
    return _audits(verdicts(files, reading, jobs, walk=iter))


def _audits(results: Iterator[FileAudit | Failed]) -> Iterator[FileAudit]:
    for r in results:
        yield FileAudit(r.verdict) if isinstance(r, Failed) else r


# --------------------------------------------------------------------------- the summary


#: The hand outcomes, in the order a summary lists them.
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "void", "points")


class Summary:
    """The audit's summary, added up one verdict at a time (nothing but counts is kept).

    >>> s = Summary()
    >>> s.add(FileAudit(Verdict("a.jsonl"), events=40, hands=2, phase="over", outcomes={"gin": 1, "knock": 1}))
    >>> s.add(FileAudit(Verdict("b.jsonl", ({"rule": "chain"},), errors_total=3, errors_by_rule={"chain": 3})))
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
        v = r.verdict
        self.files += 1
        self.bad += not v.ok
        self.events += r.events
        self.hands += r.hands
        self.finished += r.phase == "over"
        _add(self.outcomes, r.outcomes)
        if v.errors_total:
            _add(self.errors, v.errors_by_rule)
            self.errors_total += v.errors_total
        if v.warnings_total:
            self.warnings += v.warnings_total
            self.warned += 1
            _add(self.warnings_by_rule, v.warnings_by_rule)

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
