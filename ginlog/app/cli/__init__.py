"""The ``ginlog`` command line: the imperative shell around the pure core.

Every command runs through the one runner (:mod:`ginlog.app.shell.runner`): a
:class:`~ginlog.errors.GinlogError` becomes one line on standard error,
``FILE:LINE: event N: what is wrong [rule]``, and an exit code, one per kind
of failure in every command: 0 fine, 1 invalid, illegal, or a file that cannot
be read, 2 usage, 130 interrupted. Everything people see goes through the one
sink (:mod:`ginlog.app.shell.terminal`). The commands are plain functions,
grouped by what they do (:mod:`.record` writes, :mod:`.read` reads one match,
:mod:`.check` checks many, :mod:`.data` many at once, :mod:`.reference` tells
what ginlog knows, :mod:`.imports` imports); :func:`build_app` registers them
with Typer (:mod:`.app`).

Heavy modules are imported inside the commands, and a scripted ``ginlog
play MATCH ENTRY...`` skips Typer altogether (:func:`main`), so an entry costs
little more than the interpreter's start. There is still one parser: the
fast path takes only what needs no parsing (:func:`plain_play`), words
without a dash, which Typer would read the same way; anything else (an
option, ``--``, ``-y``, a missing entry) is Typer's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from typing import Any

from ginlog.app.shell.runner import ExitCode, prepare_streams, run

__all__ = ["main", "build_app", "command", "plain_play", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = ExitCode.OK, ExitCode.INVALID, ExitCode.USAGE


def plain_play(argv: Sequence[str]) -> bool:
    """Whether ``argv`` is ``play MATCH ENTRY...`` with no word that starts with a dash.

    Typer's ``play`` takes one ``MATCH`` and one or more ``ENTRIES``, and its only
    option is ``--reopen``; a word without a dash is never an option, so for
    such a line both parsers agree by construction, and the fast path may take it.

    >>> plain_play(["play", "m.jsonl", "pass"]), plain_play(["play", "m.jsonl", "-y"]), plain_play(["play", "m.jsonl"])
    (True, False, False)
    """
    return len(argv) >= 3 and argv[0] == "play" and not any(a.startswith("-") for a in argv[1:])


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``ginlog`` executable: the fast path or Typer, under the one runner."""
    prepare_streams()
    args = list(sys.argv[1:] if argv is None else argv)

    def dispatch() -> int | None:
        if plain_play(args):
            from ginlog.app.cli.append import append_entries

            return append_entries(args[1], args[2:])
        # the command named, alone (see app.build_app), made once per process
        return command(args[0] if args else None).main(  # type: ignore[no-any-return]
            args=args, prog_name="ginlog", standalone_mode=False)

    raise SystemExit(run(dispatch))


def build_app(only: str | None = None) -> Any:
    """Build the Typer app (imported only when a command other than the fast path runs); ``only``: the command
    named on the command line, registered alone (:func:`ginlog.app.cli.app.build_app`)."""
    from ginlog.app.cli.app import build_app as build

    return build(only)


@cache
def command(only: str | None = None) -> Any:
    """The app as the click command Typer makes of it, made once per process for each set of commands: ``only``
    as :func:`build_app` takes it (a command's name registers that command alone; anything else, the whole app).

    *Why once:* Typer makes the click command from the commands' signatures every time the app is called (about
    20 ms of CPU, twice that in a forked child, whose every page it touches is a copy), and the executable calls
    it once, so for a user this changes nothing. A process that runs ``ginlog`` many times, as the tests do in
    process and in children forked from a process that has made it already (``tests/forked.py``), makes it once.
    Calling the command is what calling the Typer app does: Typer's own wrapper only installs its exception hook,
    which with ``pretty_exceptions_enable=False`` is Python's.
    """
    from ginlog.app.cli.app import registered

    if registered(only) != only:  # an option or a typo: the whole app's command, made once for all of them
        return command(None)
    import typer.main

    return typer.main.get_command(build_app(only))
