"""Many matches at once: ``stats``, ``export``, and ``html`` (one match's page, or a site of a folder)."""

from __future__ import annotations

import os
from typing import Annotated, Optional

import typer

__all__ = ["stats", "export", "html"]


def stats(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
    csv_: Annotated[bool, typer.Option("--csv", help="One row per player.")] = False,
) -> None:
    """Standings and per-player figures over many matches, with each file's verdict.

    Example: ginlog stats club/ --json
    """
    from ginlog.app import cli_data

    raise typer.Exit(cli_data.stats(paths, json_, csv_))


def export(
    paths: Annotated[list[str], typer.Argument(help="Files, folders (searched for *.jsonl) or globs.")],
    format: Annotated[str, typer.Option("--format", "-f", help="csv, jsonl or parquet (parquet needs ginlog[data]).")] = "csv",
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="The file to write (standard output without).")] = None,
) -> None:
    """One row per hand, for pandas, DuckDB or a spreadsheet.

    Example: ginlog export club/ --format parquet -o hands.parquet
    """
    from ginlog.app import cli_data

    raise typer.Exit(cli_data.export(paths, format, output))


def html(
    match: Annotated[str, typer.Argument(help="A match file, or a folder of them (then -o names the site's folder).")],
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="The page (standard output without) or the site's folder.")] = None,
) -> None:
    """A self-contained replay page of a match, or a small static site of a folder of matches.

    Example: ginlog html friday.jsonl -o friday.html; ginlog html club -o site/
    """
    if os.path.isdir(match):
        from ginlog.app import cli_data

        if output is None:
            from ginlog.app.cli.common import usage

            usage("a site needs a folder to write: ginlog html DIR -o SITE/")
        raise typer.Exit(cli_data.site(match, output))
    from ginlog.app import html_command

    raise typer.Exit(html_command.html(match, output))
