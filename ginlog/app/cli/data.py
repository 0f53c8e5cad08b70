"""Many matches at once: ``stats``, ``export``, and ``html`` (one match's page, or a site of a folder).

Each reads its files through the one many-file loop
(:func:`~ginlog.app.check.verdicts.verdicts`: the paths walked once, the
results in the order of the files) under the one reading policy
(:data:`~ginlog.match.policy.POLICY`: the same verdict as ``audit``'s),
folds what it needs and lets the rest go, so memory stays flat in the number
of files and in the damage of any one; with standard error on a terminal a progress bar shows (on
standard error, gone at the end: :mod:`ginlog.app.shell.progress`). Heavy
modules are imported inside the commands, so that building the CLI stays cheap.

Exit status, for all of them: 0 when every file was valid; 1 when any was
invalid or missing (each is listed on standard error, one line: its first
problem and how many more, and left out of the figures, the rows and the
standings; the output is still written; a file's warnings are listed there
too); 2 for a usage slip (``--json`` with ``--csv``, Parquet without a
file or without pyarrow, an ``-o`` that cannot be written).

One match's page (:func:`page`) is read once, collecting every problem
(like ``validate``), and shows the events that could be applied together
with the verdict, so an invalid record can still be looked at. Without
``-o`` the page goes to standard output when that is a pipe or a file; on a
terminal it is refused (a usage slip naming ``-o``), never 100 KB of HTML on a screen.

>>> import contextlib, io, json, os, tempfile
>>> from ginlog.match.session import MatchSession
>>> from ginlog.game.rules import preset
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "a.jsonl")
>>> _ = MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = stats([folder], json_=True)
>>> code, [p["name"] for p in json.loads(out.getvalue())["players"]]
(0, ['Ann', 'Bob'])
>>> page(path, os.path.join(folder, "a.html"))
0
>>> open(os.path.join(folder, "a.html"), encoding="utf-8").read(15)
'<!doctype html>'
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Annotated, Any, BinaryIO, Optional, TypeVar

import typer

from ginlog.errors import warning_line
from ginlog.app.cli.check import FilesPerTask, Scheduler, StorageOptions, engine
from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, Terminal, usage_line
from ginlog.app.data.formats import formats_help

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.app.cli.check import Engine
    from ginlog.app.check.verdicts import Executor, Failed, Verdict
    from ginlog.app.data.export import Export, Exported
    from ginlog.app.data.players import Players
    from ginlog.app.data.stats import Standings
    from ginlog.match.policy import Policy
    from ginlog.match.visitors import Steps

R = TypeVar("R")

__all__ = ["stats", "export", "html", "site", "page"]

PLAYERS_HELP = "A players file (TOML): each player's name and the other spellings that are the same player."
#: The options stats and export share.
Raw = Annotated[bool, typer.Option("--raw", help="CSV text exactly as recorded: no leading ' before =, +, -, @.")]
PlayersFile = Annotated[Optional[str], typer.Option("--players", help=PLAYERS_HELP)]
Jobs = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Files read at once (processes, or a local cluster's workers).")]


def html(
    match: Annotated[str, typer.Argument(help="A match file, or a folder of them (then -o names the site's folder).")],
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="The page (without: standard output, if a pipe or a file) or the site's folder.")] = None,
    players_file: Annotated[Optional[str], typer.Option("--players", help=PLAYERS_HELP + " (a site's standings; its keys check seals)")] = None,
    allowed_signers: Annotated[Optional[str], typer.Option("--allowed-signers", help="The club's keys (git's allowed_signers format): seals are shown as who sealed.")] = None,
) -> int:
    """A self-contained replay page of a match, or a small static site of a folder of matches.

    With the club's keys (``--allowed-signers``, or a players file's ``keys``) a sealed record says who sealed
    it; without them, only which keys signed.

    Example: ginlog html friday.jsonl -o friday.html; ginlog html club -o site/ --allowed-signers club/allowed_signers
    """
    import attrs

    from ginlog.app.cli.check import keyring_of
    from ginlog.match.policy import POLICY

    keyring = keyring_of(allowed_signers, players_file)
    policy = POLICY if keyring is None else attrs.evolve(POLICY, keyring=keyring)
    if os.path.isdir(match):
        if output is None:
            return usage_line("a site needs a folder to write: ginlog html DIR -o SITE/")
        return site(match, output, players_file, policy=policy)
    if output is None and Terminal().is_terminal():  # a page is 100 KB and more of HTML: no screen wants it
        return usage_line(f"html: a page is a file for a browser, not for the terminal: give -o, as in "
                          f"ginlog html {match} -o page.html (or send it to a pipe or a file: > page.html)")
    return page(match, output, policy=policy)


def _report(v: Verdict, warnings: bool = True) -> None:
    """A file's verdict on standard error: for an invalid file one line, its first problem and how many more;
    a valid file's warnings, one a line, unless not asked for (through the sink: nothing a terminal would act
    on). ``export`` asks for none: its rows are data, and its one line on a failure stays one."""
    terminal = Terminal()
    for said in v.said() if warnings or not v.ok else ():
        terminal.err(said)


def _results(
    paths: list[str], reading: Callable[[str], R | Failed], label: str, stdout_busy: bool = False,
    notices: list[dict[str, Any]] | None = None, executor: Executor | None = None, jobs: int = 1,
) -> Iterator[R | Failed]:
    """Each file's result (or why it could not be read), in order, from the one loop, with the progress bar:
    on ``executor`` if given (a cluster's), else on ``jobs`` processes of this machine; ``notices`` gets the
    arguments that named again what was searched already."""
    import functools

    from ginlog.app.check.paths import iter_paths
    from ginlog.app.check.verdicts import verdicts
    from ginlog.app.shell.progress import progress

    with progress(label, stdout_busy=stdout_busy) as advance:  # no total: the paths are walked once
        walk = functools.partial(iter_paths, notices=notices)
        yield from advance(verdicts(paths, reading, jobs, executor=executor, walk=walk))


def _jobs(jobs: int) -> int:
    from ginlog.app.check.verdicts import capped_jobs

    jobs, cut = capped_jobs(jobs)
    if cut is not None:
        Terminal().err(cut)
    return jobs


# --------------------------------------------------------------------------- stats


def _players(path: str | None) -> Players | int:
    """The players file's roster (none: every name is itself), or the usage error's exit code."""
    from ginlog.app.data.players import NO_PLAYERS, PlayersFileError, load_players

    if path is None:
        return NO_PLAYERS
    try:
        return load_players(path)
    except PlayersFileError as exc:
        return usage_line(exc.one_line())


def stats(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
    csv_: Annotated[bool, typer.Option("--csv", help="One row per player.")] = False,
    raw: Raw = False,
    players_file: PlayersFile = None,
    jobs: Jobs = 1,
    scheduler: Scheduler = None,
    storage_option: StorageOptions = [],  # noqa: B006 - read, never changed
    files_per_task: FilesPerTask = 200,
) -> int:
    """Standings and per-player figures over many matches, with each file's verdict.

    Text by default; ``--json`` the README's shape (the files' verdicts
    included); ``--csv`` one row per player (:data:`~ginlog.app.data.stats.PLAYER_KEYS`).
    A match is counted once however many files hold it (a link, a copy, an
    older backup: each named in a warning), and every figure is the same
    whatever the order of the arguments.

    Example: ginlog stats club/ --json
    """
    import json
    import tempfile

    from ginlog.app.data.copies import differ_for
    from ginlog.app.data.stats import Standings, folded, summary_of
    from ginlog.app.data.stats_output import show_text, write_csv, write_json

    if json_ and csv_:
        return usage_line("give --json or --csv, not both")
    roster = _players(players_file)
    if isinstance(roster, int):
        return roster
    from ginlog.app.check.sources import using
    from ginlog.text import json_escaped

    jobs = _jobs(jobs)  # (at most MAX_JOBS, said in one line)
    run = engine(paths, scheduler, jobs, storage_option, files_per_task)
    if isinstance(run, int):
        return run
    standings = Standings()
    terminal = Terminal()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as files, using(run.storage), _closing(run):
        first = True
        notices: list[dict[str, Any]] = []
        results = _results(paths, summary_of, "stats", executor=run.executor, jobs=jobs, notices=notices)
        for summary in folded(results, standings, roster, differ_for(run.executor)):  # (copies compared by the workers)
            if json_:
                text = json_escaped(json.dumps(summary.entry(), ensure_ascii=False))  # one line a file (and the C encoder)
                files.write(("\n    " if first else ",\n    ") + text)
                first = False
            _report(summary.verdict)
        standings.warnings[:0] = notices
        for w in standings.warnings:
            terminal.err(warning_line(w))
        if json_:
            write_json(standings, files, terminal.data_stream())
        elif csv_:
            write_csv(standings, terminal.data_stream(), raw=raw)
        else:
            show_text(standings, terminal)
    sys.stdout.flush()
    return EXIT_OK if not standings.invalid else EXIT_INVALID


# --------------------------------------------------------------------------- export


def export(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    format: Annotated[str, typer.Option("--format", "-f", help=formats_help() + "; parquet needs ginlog[data].")] = "csv",
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="The file to write (standard output without).")] = None,
    raw: Raw = False,
    players_file: PlayersFile = None,
    jobs: Jobs = 1,
    scheduler: Scheduler = None,
    storage_option: StorageOptions = [],  # noqa: B006 - read, never changed
    files_per_task: FilesPerTask = 200,
) -> int:
    """One row per hand, for pandas, DuckDB or a spreadsheet.

    Each match once (a link, a copy or an older backup of it is named in a
    warning and left out), in the order the matches began, whatever the
    order of the arguments.

    In CSV a text cell that would start a spreadsheet formula (``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return first) gets a leading ``'``;
    ``--raw`` writes the text exactly (JSON lines and Parquet always do).

    CSV and JSON lines go to standard output without ``-o``; Parquet needs
    ``-o`` and pyarrow (``pip install 'ginlog[data]'``).

    Example: ginlog export club/ --format parquet -o hands.parquet
    """
    from ginlog.app.data.export import FORMATS, MissingExtra, exported, open_writer

    from ginlog.app.shell.outputs import refusal

    if format not in FORMATS:  # (open_writer says so too; checked first so that nothing is looked at)
        return usage_line(f"--format is one of {', '.join(FORMATS)}, not {format!r}")
    if output is not None and (why := refusal(output, paths)):
        return usage_line(why)
    roster = _players(players_file)
    if isinstance(roster, int):
        return roster
    from ginlog.app.check.sources import using

    jobs = _jobs(jobs)  # (at most MAX_JOBS, said in one line)
    run = engine(paths, scheduler, jobs, storage_option, files_per_task)  # (before a byte is written)
    if isinstance(run, int):
        return run
    try:  # to standard output through the sink: exact to a pipe, made visible on a terminal
        out = open_writer(format, output, stream=Terminal().data_stream(), raw=raw)
    except (MissingExtra, ValueError) as exc:
        run.close()
        return usage_line(str(exc))
    except OSError as exc:
        run.close()
        return usage_line(f"cannot write {output}: {exc.strerror or exc}")
    try:
        notices: list[dict[str, Any]] = []
        with using(run.storage), _closing(run):
            results = _results(paths, exported, "export", stdout_busy=output is None, executor=run.executor, jobs=jobs,
                               notices=notices)
            invalid = _export_rows(results, out, roster, run.executor)
        for n in notices:
            Terminal().err(warning_line(n))
    except BaseException:  # (Ctrl-C, a cluster's error: no half file)
        out.abandon()
        raise
    try:
        out.finish()
    except OSError as exc:  # the rows cannot be put in place (-o names a folder): no half file, no temporary one
        out.abandon()
        if output is None or output == "-":
            raise
        return usage_line(f"cannot write {output}: {exc.strerror or exc}")
    return EXIT_OK if not invalid else EXIT_INVALID


def _export_rows(results: Iterator[Exported | Failed], out: Export, roster: Players, executor: Executor | None) -> int:
    """Each match's rows once, in content order, written to ``out``; each file's verdict said; the invalid files'
    count. Copies of a match are compared where the files were read (on the cluster's workers with ``executor``)."""
    from ginlog.app.check.verdicts import Failed
    from ginlog.app.data.copies import counted_once, differ_for
    from ginlog.app.data.export import Exported, renamed

    invalid = 0
    files = (Exported(item.verdict) if isinstance(item, Failed) else item for item in results)
    for item, verdict, counts in counted_once(files, Exported.parts, differ_for(executor)):
        _report(verdict, warnings=False)
        for w in verdict.warnings:
            if w["rule"] == "copy":  # (a file's own warnings are the audit's to list; a copy left out is the export's)
                Terminal().err(warning_line(w))
        if not verdict.ok:
            invalid += 1
        elif counts:
            out.write(renamed(item.rows, roster))
    return invalid


@contextlib.contextmanager
def _closing(run: Engine) -> Iterator[None]:
    """The engine closed however the block ends (the loop closes it on an error too; a second close does nothing)."""
    try:
        yield
    finally:
        run.close()


# --------------------------------------------------------------------------- the site


def site(dir: str, output: str, players_file: str | None = None, *, policy: Policy | None = None) -> int:
    """``ginlog html DIR -o SITE/``: the index (standings, every match) and a replay page per match."""
    import functools

    from ginlog.app.data.stats import MatchSummary
    from ginlog.app.pages.site import build_site, read_entry

    from ginlog.app.shell.outputs import folder_refusal

    if not os.path.isdir(dir):
        return usage_line(f"{dir} is not a folder (ginlog html MATCH makes one match's page)")
    if why := folder_refusal(output, "a site"):
        return usage_line(why)
    if os.path.exists(output) and not os.path.isdir(output):
        return usage_line(f"{output} exists and is not a folder")

    def done(summary: MatchSummary) -> None:
        _report(summary.verdict)

    roster = _players(players_file)
    if isinstance(roster, int):
        return roster
    reading = functools.partial(read_entry, root=dir, site=output, policy=policy)
    try:
        standings = build_site(_results([dir], reading, "pages"), output, done=done, players=roster)
    except OSError as exc:  # the folder cannot be made or written (nobody may, a name too long)
        return usage_line(f"cannot write {output}: {exc.strerror or exc}")
    n = standings.valid + standings.invalid + standings.copies
    copies = f", {standings.copies} a copy of another" if standings.copies else ""
    for w in standings.warnings:
        Terminal().err(warning_line(w))
    Terminal().err(f"{os.path.join(output, 'index.html')}: {n} match file{'s' if n != 1 else ''}, {standings.invalid} invalid{copies}")
    return EXIT_OK if not standings.invalid else EXIT_INVALID


def _steps(policy: Policy | None) -> Steps | None:
    """The page's reading under ``policy`` (None: the page's own default, the reading policy)."""
    from ginlog.match.visitors import Steps

    return None if policy is None else Steps(policy=policy)


def page(match: str, output: str | None = None, *, title: str | None = None, policy: Policy | None = None) -> int:
    """``ginlog html MATCH [-o FILE]``: write the replay page of ``match`` (``-`` for standard input) to ``output`` (None: standard output).

    Problems are reported one a line on standard error; the exit status is
    returned, not raised (see the module's docstring).
    """
    import shutil
    import tempfile

    from ginlog.app.pages.page import page_of_file
    from ginlog.app.shell.outputs import Replacement, refusal

    if output is not None and (why := refusal(output, [match])):
        return usage_line(why)
    name = "<stdin>" if match == "-" else match
    source: str | BinaryIO = sys.stdin.buffer if match == "-" else match
    terminal = Terminal()
    if output is None or output == "-":
        # The page is written as it is read, so first to a temporary file: a reading that stops leaves no half page.
        with tempfile.TemporaryFile() as spool:
            last, verdict = page_of_file(source, name, spool, title=title, visitor=_steps(policy))
            if last is not None:
                spool.seek(0)
                if terminal.is_terminal():  # a page's text is visible already; the sink makes sure of it
                    stream = terminal.data_stream()
                    text = io.TextIOWrapper(spool, encoding="utf-8")
                    while chunk := text.read(1 << 16):
                        stream.write(chunk)
                    text.detach()
                else:
                    sys.stdout.flush()
                    shutil.copyfileobj(spool, sys.stdout.buffer)
                sys.stdout.flush()
    else:
        try:
            out = Replacement(output)
        except OSError as exc:
            return usage_line(f"cannot write {output}: {exc.strerror or exc}")
        try:
            last, verdict = page_of_file(source, name, out.file, title=title, visitor=_steps(policy))
            if last is None:
                out.abandon()
            else:
                out.done()
        except OSError as exc:
            out.abandon()
            return usage_line(f"cannot write {output}: {exc.strerror or exc}")
        except BaseException:
            out.abandon()
            raise
    _report(verdict)  # the problems, or the warnings once the page is written (a failure to write it stays one line)
    if last is None:
        return EXIT_INVALID
    return EXIT_OK if verdict.ok else EXIT_INVALID
