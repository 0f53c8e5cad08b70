"""What every command shares: the exit codes, the one-line error, usage slips, the console.

Nothing heavy is imported here (rich only when a console is asked for), so
``ginlog play``'s fast path, which skips Typer, can use it.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ginlog.errors import GinlogError

__all__ = ["EXIT_OK", "EXIT_INVALID", "EXIT_USAGE", "fail", "usage", "require_match_file", "console"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def fail(err: GinlogError, code: int = EXIT_INVALID) -> NoReturn:
    """Say what is wrong in one line on standard error (``FILE:LINE: event N: ... [rule]``) and exit."""
    sys.stderr.write(err.one_line() + "\n")
    raise SystemExit(code)


def usage(message: str) -> NoReturn:
    """A usage slip: ``ginlog: MESSAGE`` on standard error, exit 2 (one line: see :func:`ginlog.text.shown`)."""
    from ginlog.text import shown

    sys.stderr.write(f"ginlog: {shown(message)}\n")
    raise SystemExit(EXIT_USAGE)


def require_match_file(path: str) -> None:
    """A missing match file is a usage slip: say how to start one."""
    if not os.path.exists(path):
        usage(f"{path}: no such match file; start one with: ginlog new {path} --player NAME --player NAME")


def console(stderr: bool = False) -> Console:
    """A rich console for standard output (or error): colour only on a terminal, no guessing at highlights."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)
