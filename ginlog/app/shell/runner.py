"""The one command runner: exit codes, what each way of ending prints, the usage line and the Ctrl-C line.

Every ``ginlog`` command, from Typer or from ``play``'s fast path, runs its
body through :func:`run` (pip's ``_run_wrapper`` is the model): the body
returns its exit code (None: 0) or ends by one of the ways below, each turned
into one line on standard error (through :class:`~ginlog.app.shell.terminal.Terminal`,
so made visible) and one :class:`ExitCode`, the same in every command:

=========================================  ====  ==================================
how the body ends                          exit  what is printed
=========================================  ====  ==================================
returns (None or a code)                   0/N   what the command printed
:func:`fail` / a :class:`GinlogError`      1     ``FILE:LINE: event N: ... [rule]``
:func:`usage`, a command-line slip         2     ``ginlog: MESSAGE``
Ctrl-C (:class:`KeyboardInterrupt`)        130   ``ginlog: interrupted``
standard output closed (``| head``)        1     nothing
=========================================  ====  ==================================

A usage slip that Typer finds (an unknown option, a missing argument) is
printed by the same :func:`usage_line` (``ginlog.app.cli`` hands it over).
Nothing heavy is imported here, so the fast path, which skips Typer, uses it.

>>> import contextlib, io
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     codes = [run(lambda: None), run(lambda: usage("give two --player names")), run(_interrupt)]
>>> codes, err.getvalue()
([0, 2, 130], 'ginlog: give two --player names\\nginlog: interrupted\\n')
"""

from __future__ import annotations

import enum
import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, ParamSpec

from ginlog.app.shell.terminal import Terminal

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.errors import GinlogError

P = ParamSpec("P")

__all__ = ["ExitCode", "run", "command", "fail", "usage", "usage_line", "interrupted", "prepare_streams"]


class ExitCode(enum.IntEnum):
    """One exit code per kind of ending, in every command (the README's table).

    ``INVALID``: a record is invalid or illegal, an entry was refused, or a file
    cannot be read (missing, a folder, a FIFO, no match file at all: what cannot
    be read cannot be verified). ``USAGE``: the command line itself is wrong.
    """

    OK = 0
    INVALID = 1
    USAGE = 2
    INTERRUPTED = 130

    def __repr__(self) -> str:  # a command's code prints as the number a shell sees: ``0``, not ``<ExitCode.OK: 0>``
        return int.__repr__(self)


def fail(err: GinlogError, code: int = ExitCode.INVALID) -> NoReturn:
    """Say what is wrong in one line on standard error (``FILE:LINE: event N: ... [rule]``) and end with ``code``.

    The line is printed now (a command called as a plain function shows it too);
    the ``SystemExit`` carries the code to :func:`run`.
    """
    Terminal().err(err.one_line())
    raise SystemExit(code)


def usage_line(message: str) -> ExitCode:
    """The one usage printer: ``ginlog: MESSAGE`` on standard error, one line, made visible; returns ``USAGE``.

    For a command that returns its code (``return usage_line("give --json or --csv, not both")``).
    """
    Terminal().err("ginlog: " + " ".join(message.split("\n")))
    return ExitCode.USAGE


def usage(message: str) -> NoReturn:
    """A usage slip: :func:`usage_line`, then end (exit 2)."""
    raise SystemExit(usage_line(message))


def interrupted() -> ExitCode:
    """Ctrl-C: what was written is flushed, then one line, ``ginlog: interrupted`` (after a newline on a
    terminal, where ``^C`` was echoed mid-line); returns ``INTERRUPTED``. Nothing is half-written: every
    append is one write."""
    terminal = Terminal()
    try:
        terminal.stdout.flush()
    except (OSError, ValueError):
        pass
    terminal.err(("\n" if terminal.is_terminal(err=True) else "") + "ginlog: interrupted")
    return ExitCode.INTERRUPTED


def run(body: Callable[[], int | None]) -> int:
    """Run a command's ``body`` and give its exit code; every way it can end is dealt with here (see the module).

    >>> from ginlog.errors import EventError
    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     code = run(lambda: fail(EventError("bad", rule="x", path="m.jsonl", line=3)))
    >>> code, err.getvalue()
    (1, 'm.jsonl:3: bad [x]\\n')
    """
    from ginlog.errors import GinlogError

    try:
        code = body()
    except SystemExit as stop:  # fail() and usage() have printed their line
        code = stop.code if isinstance(stop.code, int) else ExitCode.INVALID if stop.code else ExitCode.OK
    except GinlogError as exc:  # one a command did not catch: the same line and code as fail()
        Terminal().err(exc.one_line())
        code = ExitCode.INVALID
    except KeyboardInterrupt:
        code = interrupted()
    except BrokenPipeError:  # the reader went away (| head): no traceback, and no second error at exit
        _quiet_stdout()
        code = ExitCode.INVALID
    return int(code or ExitCode.OK)


def command(body: Callable[P, int | None]) -> Callable[P, None]:
    """``body`` as Typer runs a command: under :func:`run`, its code raised as ``SystemExit``.

    The signature is kept (Typer reads the parameters through ``__wrapped__``),
    so the same function is both the command and a plain function that tests call.
    """

    @functools.wraps(body)
    def runs(*args: P.args, **kwargs: P.kwargs) -> None:
        raise SystemExit(run(lambda: body(*args, **kwargs)))

    return runs


def prepare_streams() -> None:
    """Make the process's streams write what they cannot encode as backslash escapes, and give a stream the
    caller closed (``ginlog record m.jsonl <&-``) the null device: no input is the end of the input, and output
    with nowhere to go is dropped, never an ``AttributeError`` on None.

    A standard output that cannot hold a suit or a name (``PYTHONIOENCODING=ascii:strict``,
    a C locale) then shows it as ``\\u2663`` rather than dying half-way through, after
    the events were written.
    """
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - lives as long as the process
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure") and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the flush at exit does not fail again (Python's advice for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _interrupt() -> None:
    raise KeyboardInterrupt
