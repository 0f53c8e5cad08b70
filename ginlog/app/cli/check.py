"""Commands that check many files: ``validate`` and ``audit``.

The verdicts and the summary are :mod:`ginlog.app.check.audit`'s; the tables are
:mod:`ginlog.app.check.report`'s; here they are printed as they come (an audit of
any number of files keeps one verdict at a time; ``--json`` writes its
``files`` array one file at a time, the summary after it), with the exit
code: 1 if any file is invalid or cannot be read, or if there was no file at
all; 2 for a usage slip (a malformed ``--anchor``); 130 on Ctrl-C, after one
line.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

import typer

from ginlog.errors import warning_line
from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, Terminal, usage, usage_line
from ginlog.errors import one_line, place
from ginlog.text import json_escaped

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.app.check.audit import FileAudit, Summary
    from ginlog.app.check.signers import AllowedSigners
    from ginlog.app.check.sources import Storage
    from ginlog.app.check.verdicts import Executor

__all__ = ["validate", "audit", "Scheduler", "StorageOptions", "FilesPerTask", "Engine", "engine"]

_ANCHOR = re.compile(r"[0-9a-fA-F]{12,64}")

Scheduler = Annotated[
    Optional[str],
    typer.Option("--scheduler", help="Run on a Dask cluster: its scheduler (tcp://HOST:8786), or 'local' for a "
                 "LocalCluster of --jobs workers. Needs ginlog[dask]; see docs/CLUSTER.md."),
]
StorageOptions = Annotated[
    list[str],
    typer.Option("--storage-option", help="KEY=VALUE for URL inputs (s3://...), e.g. endpoint_url=URL; "
                 "credentials come from the environment."),
]
FilesPerTask = Annotated[
    int, typer.Option("--files-per-task", min=1, help="With --scheduler: files one cluster task reads.")
]


class Engine:
    """Where a many-file command's readings run, and with which storage options its URLs are opened.

    ``executor`` is None for this machine (``--jobs`` processes); with ``--scheduler`` a ``lasting``
    :class:`~ginlog.app.check.cluster.DaskExecutor`, closed by :meth:`close`, which each command calls at its
    end (the loop closes it only on an error or Ctrl-C: once every file is in, copies of a match are still
    compared on the workers).
    """

    def __init__(self, executor: Executor | None, storage: Storage) -> None:
        self.executor, self.storage = executor, storage

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close(cancel=True)


def engine(paths: list[str], scheduler: str | None, jobs: int, storage_options: list[str],
           files_per_task: int = 200) -> Engine | int:
    """The :class:`Engine` the options ask for, or a usage slip's exit code (2): a malformed or secret
    ``--storage-option``, a URL whose fsspec package is missing, ``-`` or a missing Dask with ``--scheduler``.
    Nothing of Dask is imported without ``--scheduler``, nothing of fsspec without a URL."""
    from ginlog.app.check.sources import MissingExtra, Storage, missing_extra

    try:
        storage = Storage.parse(storage_options)
    except ValueError as exc:
        return usage_line(str(exc))
    if (why := missing_extra(paths)) is not None:
        return usage_line(why)
    if scheduler is None:
        return Engine(None, storage)
    if "-" in paths:
        return usage_line("- (standard input) cannot be read on a cluster: give files, folders or URLs with --scheduler")
    from ginlog.app.check.cluster import connect

    try:
        # (lasting: the loop's end leaves it open, for copies of a match compared on the workers; close() ends it)
        executor = connect(scheduler, jobs=jobs, storage=storage, files_per_task=files_per_task, lasting=True)
        return Engine(executor, storage)
    except MissingExtra as exc:
        return usage_line(str(exc))


MaxErrors = Annotated[
    int, typer.Option("--max-errors", min=0, help="Problems (and warnings) listed per file; all are counted.")
]


def validate(
    files: Annotated[list[str], typer.Argument(help="Match files ('-' for standard input).")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    max_errors: MaxErrors = 100,
) -> int:
    """Schema and legality, per file: every problem with its place, and what cannot be verified.

    Example: ginlog validate sample_games/*.jsonl
    """
    from ginlog.app.check.audit import audit_file

    results = (audit_file(f, max_errors=max_errors) for f in files)  # audit_file names standard input <stdin>
    ok = True
    terminal = Terminal()
    if json_:
        for r in _json_files(results, terminal, tail=lambda: f'"ok": {json.dumps(ok)}'):
            ok = ok and r.ok
    else:
        for f, r in zip(files, results):
            ok = ok and r.ok
            if r.ok:
                warned = f", {_plural(r.warnings_total, 'warning')}" if r.warnings_total else ""
                terminal.out(f"{r.path}: ok ({r.events} events, {r.hands} hands{warned})")
            problems, warnings = _file_lines(r, max_errors)
            for line in problems:
                terminal.err(line)
            for line in warnings:
                terminal.out(line)
            if not r.ok:  # on standard output: standard error keeps one line per problem
                terminal.out(_next_command(f, r))
    return EXIT_OK if ok else EXIT_INVALID


def _next_command(given: str, r: FileAudit) -> str:
    """What to run next about an invalid file ``validate`` was given: a folder's audit, a torn line's repair,
    or the record up to its first problem.

    >>> from ginlog.app.check.audit import FileAudit
    >>> from ginlog.app.check.verdicts import Verdict
    >>> e = {"file": "m.jsonl", "line": 5, "event": 5, "message": "prev does not match", "rule": "chain"}
    >>> _next_command("m.jsonl", FileAudit(Verdict("m.jsonl", errors=(e,))))
    "m.jsonl: next: 'ginlog replay m.jsonl --to 4' shows the record up to its first problem"
    """
    import os
    import shlex

    q = shlex.quote(given)
    first = r.errors[0] if r.errors else {}
    if given != "-" and os.path.isdir(given):
        return f"{r.path}: next: 'ginlog audit {q}' checks a folder's match files"
    if first.get("rule") == "torn-tail":
        return f"{r.path}: next: 'ginlog repair {q}' moves the torn last line aside"
    line = first.get("line")
    if isinstance(line, int) and line > 1 and given != "-":
        return f"{r.path}: next: 'ginlog replay {q} --to {line - 1}' shows the record up to its first problem"
    return f"{r.path}: next: 'ginlog replay {q}' shows what could be read"


def audit(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Files checked at once (processes).")] = 1,
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
    anchor: Annotated[
        Optional[str],
        typer.Option("--anchor", help="Head hash you kept (or its first 12+ hex digits): the file must still reach it."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary, and one line per invalid file.")] = False,
    max_errors: MaxErrors = 100,
    allowed_signers: Annotated[
        Optional[str],
        typer.Option("--allowed-signers", help="The club's keys (OpenSSH's allowed_signers format): who may seal."),
    ] = None,
    players: Annotated[
        Optional[str], typer.Option("--players", help="A players file (TOML): names, aliases, and keys that may seal.")
    ] = None,
    require_seals: Annotated[
        Optional[str], typer.Option("--require-seals", help="all: both players sealed the last line; any: one did.")
    ] = None,
    scheduler: Scheduler = None,
    storage_option: StorageOptions = [],  # noqa: B006 - read, never changed
    files_per_task: FilesPerTask = 200,
) -> int:
    """Audit finished or imported matches: hash chain, legality, recomputed scores, seals, and what cannot be verified.

    Paths may be fsspec URLs (s3://bucket/club/); --scheduler runs the audit on a Dask cluster.

    Example: ginlog audit sample_games --jobs 2

    Example: ginlog audit club/ --allowed-signers club/allowed_signers --require-seals all
    """
    from ginlog.app.check.audit import Summary
    from ginlog.app.check.paths import iter_paths

    if anchor is not None:
        if not _ANCHOR.fullmatch(anchor):
            usage(f"--anchor takes a head hash, 12 to 64 hex digits, not {anchor!r}")
        anchor = anchor.lower()
        if len(paths) != 1:
            usage("--anchor checks one file; give exactly one")
    if require_seals not in (None, "all", "any"):
        usage(f"--require-seals takes all or any, not {require_seals!r}")
    keyring = keyring_of(allowed_signers, players)
    summary = Summary()
    terminal = Terminal()
    from ginlog.app.check.sources import using
    from ginlog.app.check.verdicts import capped_jobs

    jobs, cut = capped_jobs(jobs)
    if cut is not None:
        terminal.err(cut)
    run = engine(paths, scheduler, jobs, storage_option, files_per_task)
    if isinstance(run, int):
        return run
    notices: list[dict[str, Any]] = []  # arguments that named again what was searched already
    require: Literal["all", "any"] | None = "all" if require_seals == "all" else "any" if require_seals == "any" else None
    try:
        with using(run.storage):
            # (a URL is asked with the run's storage options, by the workers under --scheduler: as the audit will)
            if anchor is not None and sum(1 for _ in itertools.islice(iter_paths(
                    paths, lister=getattr(run.executor, "lister", None)), 2)) != 1:
                usage("--anchor checks one file; give exactly one")
            _audit_run(paths, run, summary, terminal, jobs=jobs, anchor=anchor, max_errors=max_errors, json_=json_,
                       quiet=quiet, keyring=keyring, require=require, notices=notices)
    finally:
        run.close()
    for n in notices:
        terminal.err(warning_line(n))
    if not summary.files:
        terminal.err(f"ginlog: no match file (*.jsonl) in {' '.join(paths)}")
    return EXIT_OK if not summary.bad and summary.files else EXIT_INVALID


def _audit_run(paths: list[str], run: Engine, summary: Summary, terminal: Terminal, *, jobs: int,
               anchor: str | None, max_errors: int, json_: bool, quiet: bool, keyring: AllowedSigners | None,
               require: Literal["all", "any"] | None, notices: list[dict[str, Any]]) -> None:
    from ginlog.app.check.audit import audit_paths
    from ginlog.app.shell.progress import progress

    verdicts = audit_paths(paths, jobs=jobs, anchor=anchor, max_errors=max_errors, executor=run.executor,
                           keyring=keyring, require=require, notices=notices)
    total = None  # the paths are walked once, as they are audited: the bar counts, with no total
    if json_:
        with progress("auditing", total, console=terminal.console(err=True), stdout_busy=True) as advance:
            tail = lambda: '"summary": ' + _indent(json.dumps(summary.to_dict(), indent=2))  # noqa: E731
            for r in _json_files(advance(verdicts), terminal, tail=tail):
                summary.add(r)
    else:
        _print_audit(verdicts, summary, terminal, total=total, quiet=quiet, max_errors=max_errors)


def keyring_of(allowed_signers: str | None, players: str | None) -> AllowedSigners | None:
    """The club's keys from ``--allowed-signers`` and ``--players``; a file that cannot be used is a usage slip.

    None without either (and nothing of the seals' or the players' modules imported: most audits have neither).
    """
    if allowed_signers is None and players is None:
        return None
    from ginlog.app.check.signers import load_allowed_signers
    from ginlog.app.data.players import NO_PLAYERS, load_players
    from ginlog.errors import GinlogError

    try:
        signers = None if allowed_signers is None else load_allowed_signers(allowed_signers)
        roster = NO_PLAYERS if players is None else load_players(players)
    except GinlogError as exc:
        usage(exc.one_line().removeprefix("ginlog: "))
    return roster.keyring(signers)


def _print_audit(
    results: Iterator[FileAudit], summary: Summary, terminal: Terminal, *, total: Callable[[], int] | None, quiet: bool,
    max_errors: int,
) -> None:
    from ginlog.app.shell.progress import progress, shows
    from ginlog.app.check.report import audit_report

    err = terminal.console(err=True)
    # Warnings go to standard output; while a progress bar runs on a terminal that is also standard
    # output, they go to standard error, which the bar prints above itself, so as not to break it.
    notes_on_err = shows(err) and terminal.is_terminal()

    def take(r: FileAudit) -> None:
        summary.add(r)
        if quiet:  # which files are invalid, one line each: its first problem, and how many more
            if (line := r.verdict.one_line()) is not None:
                terminal.err(line)
        else:
            v = r.verdict
            if v.errors_total or v.warnings_total:  # (a file with nothing to say costs no lines to make)
                problems, warnings = _file_lines(r, max_errors)
                for line in problems:
                    terminal.err(line)
                for line in warnings:
                    terminal.line(line, err=notes_on_err)
            if r.seals and r.sealed is not None:
                terminal.line(f"{r.path}: {r.sealed}", err=notes_on_err)

    with progress("auditing", total, console=err) as advance:
        for r in advance(results):
            take(r)
    terminal.show(*audit_report(summary.to_dict(), summary.head if summary.files == 1 else None))


def _file_lines(r: FileAudit, max_errors: int) -> tuple[list[str], list[str]]:
    """A verdict's problems (for standard error) and its warnings (for standard output), one a line, each
    already shown (:func:`ginlog.errors.one_line`: the file's name may hold anything).

    Each list ends with a line for those counted but not kept, if any.
    """
    from ginlog.app.check.audit import error_line

    lines = [error_line(e) for e in r.errors]
    more = r.errors_total - len(r.errors)
    if more > 0:
        by_rule = ", ".join(f"{k} {v}" for k, v in r.errors_by_rule.items())
        said = f"{_plural(more, 'more problem')} not listed (--max-errors {max_errors}); by rule: {by_rule}"
        lines.append(one_line(place(r.path, None, None), said, "max-errors"))
    notes = [error_line(w) + " (warning)" for w in r.warnings]
    more = r.warnings_total - len(r.warnings)
    if more > 0:
        said = f"{_plural(more, 'more warning')} not listed (--max-errors {max_errors})"
        notes.append(one_line(place(r.path, None, None), said, "max-errors"))
    return lines, notes


def _json_files(results: Iterator[FileAudit], terminal: Terminal, tail: Callable[[], str]) -> Iterator[FileAudit]:
    """Write ``{"files": [...], TAIL}`` to standard output one file at a time, handing each verdict on as it goes.

    ``tail()`` (called once every file is out) gives the keys after ``files``; all of it JSON-escaped
    (:func:`ginlog.text.json_escaped`) and written as machine output by the sink.
    """
    write = terminal.data
    write('{\n  "files": [')
    first = True
    for r in results:
        yield r
        write(("\n    " if first else ",\n    ") + _indent(json_escaped(json.dumps(r.to_dict(), indent=2)), 4))
        terminal.stdout.flush()
        first = False
    write(("\n  ]" if not first else "]") + ",\n  " + json_escaped(tail()) + "\n}\n")
    terminal.stdout.flush()


def _indent(text: str, by: int = 2) -> str:
    return text.replace("\n", "\n" + " " * by)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"
