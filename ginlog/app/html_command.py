"""``ginlog html MATCH [-o FILE]``: the replay page of one match, as a plain function for the CLI to register.

The file is read once, collecting every problem (like ``validate``), and the
page shows the events that could be applied together with the verdict, so
an invalid record can still be looked at. Without ``-o`` the page goes to
standard output, like ``score``: ``ginlog html friday.jsonl > friday.html``.

Exit status: 0 when the page was made from a valid record, 1 when the record
has problems (the page is still written, its audit box lists them) or when
not even its first line could be read (no page then), 2 when ``-o`` cannot be
written (a folder, a missing folder, a name too long: one line, as ``export``
says it, and no temporary file left).

>>> import tempfile, os
>>> from ginlog.match.session import MatchSession
>>> from ginlog.game.rules import preset
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "m.jsonl")
>>> _ = MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
>>> html(path, os.path.join(folder, "m.html"))
0
>>> open(os.path.join(folder, "m.html"), encoding="utf-8").read(15)
'<!doctype html>'
"""

from __future__ import annotations

import sys
from typing import BinaryIO


from ginlog.app.page import Verdict, match_page
from ginlog.app.page_data import read_steps

__all__ = ["html", "EXIT_OK", "EXIT_INVALID", "EXIT_USAGE"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def html(match: str, output: str | None = None, *, title: str | None = None) -> int:
    """Write the replay page of ``match`` (``-`` for standard input) to ``output`` (None: standard output).

    Problems are reported one a line on standard error; the exit status is
    returned, not raised (see the module's docstring).
    """
    from ginlog.app.outputs import refusal, write_whole

    if output is not None and (why := refusal(output, [match])):
        from ginlog.text import shown

        sys.stderr.write(shown(f"ginlog: {why}") + "\n")
        return EXIT_USAGE
    name = "<stdin>" if match == "-" else match
    source: str | BinaryIO = sys.stdin.buffer if match == "-" else match
    steps, errors, warnings = read_steps(source, name)
    for err in errors:
        sys.stderr.write(err.one_line() + "\n")
    if not steps:
        return EXIT_INVALID
    page = match_page(steps, verdict=Verdict.of(errors, steps[-1].digest, warnings), title=title)
    data = page.encode("utf-8")
    if output is None or output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            write_whole(output, data)
        except OSError as exc:
            from ginlog.text import shown

            sys.stderr.write(shown(f"ginlog: cannot write {output}: {exc.strerror or exc}") + "\n")
            return EXIT_USAGE
    return EXIT_OK if not errors else EXIT_INVALID
