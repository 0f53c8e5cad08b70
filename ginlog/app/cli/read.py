"""Commands that read one match: ``show``, ``replay``, ``score``.

``-`` reads standard input (named ``<stdin>`` in errors).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, BinaryIO, Optional

import typer

from ginlog.app.cli.common import console, fail, usage

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.match.reading import MatchReport
    from ginlog.play.state import MatchState

__all__ = ["show", "replay", "score", "read_report"]


def show(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    at: Annotated[Optional[int], typer.Option("--at", min=1, help="Show the table after event N.")] = None,
    as_: Annotated[Optional[str], typer.Option("--as", help="Only what this player could see.")] = None,
) -> None:
    """The table at the end of the file, or at event N.

    Example: ginlog show friday.jsonl --at 12 --as Ann
    """
    from ginlog.app.views import table_text

    report = read_report(match, upto=at)
    tl = report.timeline
    assert tl is not None  # read_report exits rather than return a file without a first line
    state = tl.state
    if as_ is not None and as_ not in state.players:
        usage(f"--as {as_!r} is not a player ({' or '.join(state.players)})")
    typer.echo(f"{match} at event {tl.seq}:")
    typer.echo(table_text(state, as_))


def replay(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    step_: Annotated[bool, typer.Option("--step", help="Wait for Enter between events.")] = False,
    from_: Annotated[int, typer.Option("--from", min=1, help="First event to show.")] = 1,
    to: Annotated[Optional[int], typer.Option("--to", min=1, help="Last event to show.")] = None,
) -> None:
    """The match as a readable transcript, event by event.

    Example: ginlog replay sample_games/standard-match.jsonl --to 40
    """
    from rich.markup import escape

    from ginlog.app.views import describe, hand_summary, score_line, winner_name
    from ginlog.errors import EventError, GinlogError
    from ginlog.match.reading import iter_steps

    out = console()
    before: MatchState | None = None
    try:
        for s in iter_steps(_source(match), name=_name(match), upto=to):
            st = s.state
            if s.line >= from_:
                text = describe(s.event, before, st)
                out.print(f"[dim]{s.seq:>4}[/dim]  {escape(text)}", highlight=False)
                if before is not None and len(st.hands) > len(before.hands):
                    out.print(f"      [bold]{escape(hand_summary(st.hands[-1], st.players))}[/bold]", highlight=False)
                    out.print("      Score: " + score_line(st), highlight=False)
                if step_ and sys.stdin.isatty():
                    input()
            before = st
    except GinlogError as exc:
        fail(exc)
    if before is None:
        fail(EventError("the file is empty: a match file begins with match_started", rule="first-event", path=_name(match)))
    if before.phase == "over":
        out.print(f"Winner: [bold]{winner_name(before) or 'nobody'}[/bold]", highlight=False)


def score(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
) -> None:
    """The score sheet: every hand, how it ended, points, running totals, bonuses, winner.

    Example: ginlog score sample_games/modern-match.jsonl --json
    """
    from ginlog.app.views import score_json
    from ginlog.errors import GinlogError
    from ginlog.match.dated import read_dated

    try:
        report, dates = read_dated(_source(match), name=_name(match))
    except GinlogError as exc:
        fail(exc)
    state = report.state
    assert state is not None  # a file without a first line raises
    data = score_json(state, report.head, dates)
    if json_:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from ginlog.app.sheet import score_sheet

    out = console()
    out.print(score_sheet(state, data, _name(match), out.width))


def read_report(match: str, upto: int | None = None) -> MatchReport:
    """The match file's report (``-``: standard input), or exit with its first problem."""
    from ginlog.errors import GinlogError
    from ginlog.match.reading import read_match

    try:
        return read_match(_source(match), name=_name(match), upto=upto)
    except GinlogError as exc:
        fail(exc)


def _source(match: str) -> str | BinaryIO:
    return sys.stdin.buffer if match == "-" else match


def _name(match: str) -> str:
    return "<stdin>" if match == "-" else match
