"""Typed entries appended to a match file: the body of ``play`` and ``undo``, and of the fast path.

Typer is not imported here: :func:`ginlog.app.cli.main` runs a scripted
``ginlog play`` through this module alone, so an entry costs little more
than the interpreter's start.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TextIO

from ginlog.app.cli.common import EXIT_OK, Terminal, fail, require_match_file, usage

__all__ = ["append_entries"]


def append_entries(path: str, entries: Sequence[str], out: TextIO | None = None, *, reopen: bool = False) -> int:
    """Append entries to a match, each checked first: all are written or none is. Returns the exit code.

    Each of ``entries`` is one whole entry (``'discard 7h'``, one shell word):
    words are never glued into entries, so ``play M note Bob says pass`` is
    refused (a ``note`` without text) rather than read as a note and a pass.
    An ``undo`` that would reopen a finished match is refused unless
    ``reopen`` (``--reopen``): a script must say it means it.

    A problem (an illegal entry, a damaged file, another writer first) exits
    with its one line, as :func:`~ginlog.app.cli.common.fail` says. The line
    saying what was appended goes through the sink (:class:`~ginlog.app.shell.terminal.Terminal`).
    """
    from ginlog.app.record.entry import parse_entry
    from ginlog.errors import GinlogError, IllegalMove
    from ginlog.match.session import MatchSession

    if not entries:
        usage("play needs at least one entry, e.g. ginlog play match.jsonl 'discard 7h'")
    require_match_file(path)
    try:
        session = MatchSession.open(path)
        if not reopen and session.state.finished:
            from ginlog.app.record.undoing import reopens

            if reopens(session.timeline, entries):
                raise IllegalMove("the match is over and undo would reopen it: give --reopen (nothing written)",
                                  rule="reopen", path=path)
        steps = session.append([partial(parse_entry, text) for text in entries])
    except GinlogError as exc:
        fail(exc if exc.path else exc.at(path=path))
    # Through the sink: the file's name made visible, and an ASCII-only standard output cannot kill this line
    # after the write (what it cannot encode is escaped).
    Terminal(stdout=out).out(f"{path}: {len(steps)} event(s) appended, now at event {steps[-1].line if steps else '?'}")
    return EXIT_OK
