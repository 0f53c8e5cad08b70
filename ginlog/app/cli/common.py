"""What every command shares: the exit codes, the one-line error, usage slips, the console.

One exit code per kind of failure, the same in every command (the README's
table): 0 done (every file clean); 1 a record is invalid or illegal, an
entry was refused, or a file cannot be read -- missing, unreadable, a
folder, a FIFO, no match file at all: what cannot be read cannot be
verified, and an audit of many files must not pass it; 2 a usage slip (the
command line itself is wrong: an unknown option, a malformed value); 130
interrupted (Ctrl-C).

Nothing heavy is imported here (rich only when a console is asked for), so
``ginlog play``'s fast path, which skips Typer, can use it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, ParamSpec

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ginlog.errors import GinlogError

P = ParamSpec("P")

__all__ = ["exiting", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE", "EXIT_INTERRUPTED", "fail", "usage", "require_match_file", "console"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130


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


def exiting(command: Callable[P, int | None]) -> Callable[P, None]:
    """A command that returns its exit code (None: 0), as Typer runs it: the code raised as ``SystemExit``.

    The signature is kept (Typer reads the parameters through ``__wrapped__``),
    so the same function is both the command and a plain function that tests call.
    """

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        raise SystemExit(command(*args, **kwargs) or EXIT_OK)

    return run


def console(stderr: bool = False) -> Console:
    """A rich console for standard output (or error): colour only on a terminal, no guessing at highlights."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)
