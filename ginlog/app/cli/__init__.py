"""The ``ginlog`` command line: the imperative shell around the pure core.

Every command turns a :class:`~ginlog.errors.GinlogError` into one line on
standard error, ``FILE:LINE: event N: what is wrong [rule]``, and an exit
code, one per kind of failure in every command (:mod:`.common`): 0 fine, 1
invalid, illegal, or a file that cannot be read, 2 usage, 130 interrupted. The commands are plain
functions, grouped by what they do (:mod:`.record` writes, :mod:`.read`
reads one match, :mod:`.check` checks many, :mod:`.reference` tells what
ginlog knows, :mod:`.imports` imports); :func:`build_app` registers them
with Typer. Heavy modules are imported inside the commands, and
``ginlog play`` skips Typer altogether (:func:`main`), so a scripted entry
costs little more than the interpreter's start.
"""

from __future__ import annotations

import sys
from typing import Any

from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, EXIT_USAGE

__all__ = ["main", "build_app", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE"]


def main() -> None:
    """Entry point of the ``ginlog`` executable."""
    _reopen_closed_streams()
    for stream in (sys.stdout, sys.stderr):
        # A standard output that cannot hold a suit or a name (PYTHONIOENCODING=ascii:strict, a C locale) shows
        # it as a backslash escape rather than dying half-way through, after the events were written.
        if stream is not None and hasattr(stream, "reconfigure") and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:]
    try:
        if (
            len(argv) >= 2
            and argv[0] == "play"
            and not any(a in ("--help", "-h") or a.startswith("--") for a in argv[1:])
        ):
            from ginlog.app.cli.append import append_entries

            raise SystemExit(append_entries(argv[1], argv[2:]))
        app = build_app()
        app(prog_name="ginlog")
    except KeyboardInterrupt:  # nothing half-written: every append is one write
        sys.stderr.write("ginlog: interrupted\n")
        raise SystemExit(130) from None


def _reopen_closed_streams() -> None:
    """A standard stream the caller closed (``ginlog record m.jsonl <&-``) is the null device: no input is
    the end of the input, and output with nowhere to go is dropped, never an ``AttributeError`` on None."""
    import os

    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - lives as long as the process


def build_app() -> Any:
    """Build the Typer app (imported only when a command other than the fast path runs)."""
    import typer

    from ginlog.app.cli import check, common, data, imports, read, record, reference

    app = typer.Typer(
        name="ginlog",
        help="Record gin rummy matches as immutable events, replay them, and audit them.",
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
    )
    app.callback()(reference.root)
    exiting = common.exiting
    for name, command in (
        ("new", record.new),
        ("play", record.play),
        ("record", record.record),
        ("undo", record.undo),
        ("repair", record.repair),
        ("show", read.show),
        ("replay", read.replay),
        ("score", read.score),
        ("validate", check.validate),
        ("audit", check.audit),
        ("schema", reference.schema),
        ("rules", reference.rules),
        ("stats", data.stats),
        ("export", data.export),
        ("html", data.html),
    ):
        app.command(name)(exiting(command))
    # One command per registered importer, made when `ginlog import` is asked for them (cli.imports).
    import_app = typer.Typer(cls=imports.ImportGroup, help="Import foreign game records.", no_args_is_help=True)
    app.add_typer(import_app, name="import")
    return app
