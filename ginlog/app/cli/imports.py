"""Commands that import foreign records: ``import openspiel``."""

from __future__ import annotations

from typing import Annotated

import typer

from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, Terminal

__all__ = ["openspiel"]


def openspiel(
    files: Annotated[list[str], typer.Argument(help="OpenSpiel serialised gin_rummy records.")],
    outdir: Annotated[str, typer.Option("--output", "-o", help="Folder for the ginlog match files.")],
) -> int:
    """Read OpenSpiel gin_rummy records and write one ginlog match file each.

    A record that is not valid gets an error naming it and the action's
    position; the other files go on.

    Example: ginlog import openspiel records/*.txt -o imported/
    """
    from ginlog.app.cli.common import EXIT_USAGE, fail, usage
    from ginlog.app.importers.openspiel import import_files
    from ginlog.app.shell.outputs import folder_refusal
    from ginlog.errors import GinlogError

    if why := folder_refusal(outdir, "an import"):
        usage(why)
    try:
        ok, bad = import_files(files, outdir, err=Terminal().err_stream())
    except GinlogError as exc:  # the output folder cannot be made: nothing was imported; a -o that cannot be written
        fail(exc, EXIT_USAGE)  # is a usage error, as in export and html
    Terminal().out(f"imported {ok} record(s) into {outdir}" + (f"; {bad} failed" if bad else ""))
    return EXIT_OK if not bad else EXIT_INVALID
