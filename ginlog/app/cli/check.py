"""Commands that check many files: ``validate`` and ``audit``.

The verdicts and the summary are :mod:`ginlog.app.audit`'s; the tables are
:mod:`ginlog.app.render`'s; here they are only printed, with the exit code
(1 if any file is invalid).
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, console, usage

__all__ = ["validate", "audit"]


def validate(
    files: Annotated[list[str], typer.Argument(help="Match files ('-' for standard input).")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Schema and legality, per file: every problem with its place.

    Example: ginlog validate sample_games/*.jsonl
    """
    from ginlog.app.audit import audit_file, error_line
    from ginlog.text import shown, shown_json

    results = [audit_file(f) for f in files]  # audit_file names standard input <stdin>
    if json_:
        typer.echo(shown_json(json.dumps({"files": [r.to_dict() for r in results], "ok": all(r.ok for r in results)}, indent=2)))
    else:
        for r in results:
            if r.ok:
                typer.echo(shown(f"{r.path}: ok ({r.events} events, {r.hands} hands)"))
            for e in r.errors:
                typer.echo(error_line(e), err=True)
    raise typer.Exit(EXIT_OK if all(r.ok for r in results) else EXIT_INVALID)


def audit(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Files checked at once (processes).")] = 1,
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
    anchor: Annotated[
        Optional[str], typer.Option("--anchor", help="Head hash you kept: the file must still reach it.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary.")] = False,
) -> None:
    """Audit finished or imported matches: hash chain, legality, recomputed scores.

    Example: ginlog audit sample_games --jobs 2
    """
    from ginlog.app.audit import FileAudit, audit_files, expand_paths, summarize
    from ginlog.text import shown_json

    listed, missing = expand_paths(paths)
    if anchor is not None and len(listed) != 1:
        usage("--anchor checks one file; give exactly one")
    err = console(stderr=True)
    results = [FileAudit.failed(e) for e in missing]
    gen = audit_files(listed, jobs=jobs, anchor=anchor)
    if err.is_terminal and not json_:
        from rich.progress import Progress

        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("auditing", total=len(listed))
            for r in gen:
                results.append(r)
                progress.advance(task)
    else:
        results.extend(gen)
    summary = summarize(results)
    if json_:
        typer.echo(shown_json(json.dumps({"summary": summary, "files": [r.to_dict() for r in results]}, indent=2)))
    else:
        from ginlog.app.render import audit_problems, audit_report

        if not quiet:
            for line in audit_problems(results):
                err.print(line, highlight=False)
        out = console()
        for part in audit_report(results, summary):
            out.print(part)
    raise typer.Exit(EXIT_OK if not summary["invalid"] else EXIT_INVALID)
