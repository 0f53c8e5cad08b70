"""What every command shares: the runner's exit codes and lines (:mod:`ginlog.app.shell.runner`), the sink.

The exit codes, :func:`fail`, :func:`usage` and :func:`exiting` are the
runner's, named here for the commands; they are defined once, there. Nothing
heavy is imported (rich only when a console is asked for), so ``ginlog
play``'s fast path, which skips Typer, can use this module.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ginlog.app.shell.runner import ExitCode, command, fail, usage, usage_line
from ginlog.app.shell.terminal import Terminal

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

__all__ = [
    "exiting", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE", "EXIT_INTERRUPTED", "fail", "usage", "usage_line",
    "require_match_file", "console", "Terminal",
]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = ExitCode.OK, ExitCode.INVALID, ExitCode.USAGE
EXIT_INTERRUPTED = ExitCode.INTERRUPTED

#: A command that returns its exit code, as Typer runs it (:func:`ginlog.app.shell.runner.command`).
exiting = command


def require_match_file(path: str) -> None:
    """A missing match file is a file that cannot be read (exit 1, as everywhere): say how to start one."""
    if not os.path.lexists(path):
        from ginlog.errors import StoreError

        fail(
            StoreError(
                f"no such match file; start one with: ginlog new {path} --player NAME --player NAME",
                rule="file",
                path=path,
            )
        )


def console(stderr: bool = False) -> Console:
    """The sink's rich console for standard output (or error): no markup, no emoji codes, no highlights."""
    return Terminal().console(err=stderr)
