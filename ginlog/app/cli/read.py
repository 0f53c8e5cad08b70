"""Commands that read one match: ``show``, ``replay``, ``score``.

``-`` reads standard input (named ``<stdin>`` in errors). Each reads the
file under the one reading policy (:data:`~ginlog.match.policy.POLICY`) and
so gives it the verdict ``audit`` gives: an invalid file is one line on
standard error, its first problem and how many more (exit 1); a valid
file's warnings are listed there, one a line (``show --at N`` judges the
lines up to N's).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, BinaryIO, Optional

import typer

from ginlog.app.cli.common import EXIT_INVALID, Terminal, fail, usage

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.match.reading import MatchReport
    from ginlog.play.state import MatchState

__all__ = ["show", "replay", "score", "read_report", "judge"]



def show(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    at: Annotated[Optional[int], typer.Option("--at", min=1, help="Show the table after event N.")] = None,
    as_: Annotated[Optional[str], typer.Option("--as", help="Only what this player could see.")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
) -> None:
    """The table at the end of the file, or at event N.

    Example: ginlog show friday.jsonl --at 12 --as Ann
    """
    from ginlog.app.views.match import table_text
    from ginlog.app.views.match_json import table_json
    from ginlog.errors import GinlogError
    from ginlog.text import match_player

    report = read_report(match, upto=at)
    tl = report.timeline
    assert tl is not None  # read_report exits rather than return a file without a first line
    if at is not None and tl.seq < at:  # past the end: never the last event shown as if it were event N
        usage(f"show: --at {at} is past the end of {_name(match)}: its last event is {tl.seq} (give --at {tl.seq} or less)")
    state = tl.state
    who = None
    if as_ is not None:
        try:  # named as in an entry: any case, or a unique prefix
            who = state.players[match_player(as_, state.players)]
        except GinlogError as exc:
            usage(f"--as: {exc.message}")
    if json_:
        _echo_json({"event": tl.seq, **table_json(state, who)})
        return
    terminal = Terminal()
    terminal.out(f"{match} at event {tl.seq}:")
    terminal.out(table_text(state, who))  # its lines already visible; they are lines


def replay(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    step_: Annotated[bool, typer.Option("--step", help="Wait for Enter between events.")] = False,
    from_: Annotated[int, typer.Option("--from", min=1, help="First event to show.")] = 1,
    to: Annotated[Optional[int], typer.Option("--to", min=1, help="Last event to show.")] = None,
    json_: Annotated[bool, typer.Option("--json", help="One JSON object per event (JSON Lines; shape in the README).")] = False,
) -> None:
    """The match as a readable transcript, event by event.

    With --step, Enter shows the next event and q (then Enter) stops.

    Example: ginlog replay sample_games/standard-match.jsonl --to 40
    """
    from rich.text import Text

    from ginlog.app.views.match import describe, hand_summary, score_line, winner_name

    from ginlog.app.views.match_json import table_json
    from ginlog.errors import EventError, GinlogError
    from ginlog.log.events import event_type
    from ginlog.match.policy import POLICY
    from ginlog.match.reading import Steps, walk

    if to is not None and to < from_:
        usage(f"replay: --from {from_} is after --to {to}: give the first event, then the last")
    out = Terminal()
    before: MatchState | None = None
    steps = Steps(policy=POLICY)
    stepping = step_ and sys.stdin.isatty() and not json_
    shown = last = 0
    try:
        for s in walk(_source(match), steps, name=_name(match), upto=to):
            st, last = s.state, s.seq
            if s.line >= from_:
                text = describe(s.event, before, st)  # record text already made visible (ginlog.text.visible)
                ended = before is not None and len(st.hands) > len(before.hands)
                if json_:
                    summary = hand_summary(st.hands[-1], st.players, st.rules, before.tally) if before is not None and ended else None
                    _echo_json({"seq": s.seq, "type": event_type(s.event), "text": text, "summary": summary,
                                **table_json(st)}, lines=True)
                else:
                    out.show(Text.assemble((f"{s.seq:>4}", "dim"), "  ", text))
                    if ended:
                        assert before is not None
                        out.show(Text.assemble("      ", (hand_summary(st.hands[-1], st.players, st.rules, before.tally), "bold")),
                                 Text("      Score: " + score_line(st)))
                shown += 1
                if stepping and not _next_step(out):
                    return
            before = st
    except GinlogError as exc:
        fail(exc)
    judge(steps.report())
    if before is None:
        fail(EventError("the file is empty: a match file begins with match_started", rule="first-event", path=_name(match)))
    if not shown:
        usage(f"replay: --from {from_} is past the end of {_name(match)}: its last event is {last}")
    if before.phase == "over" and not json_:
        out.show(Text.assemble("Winner: ", (winner_name(before) or "nobody", "bold")))  # made visible by show()


def _next_step(out: Terminal) -> bool:
    """``replay --step``'s pause: a prompt on standard error, then Enter (go on) or ``q`` (stop); the end of
    the input stops too. Ctrl-C is the runner's, as in every command (one line, exit 130)."""
    prompt = "-- Enter: next event, q: quit -- "
    out.stderr.write(prompt)
    out.stderr.flush()
    answer = sys.stdin.readline()
    return bool(answer) and answer.strip().casefold() not in ("q", "quit")


def score(
    match: Annotated[str, typer.Argument(help="The match file ('-' for standard input).")],
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (shape in the README).")] = False,
) -> None:
    """The score sheet: every hand, how it ended, points, running totals, bonuses, winner.

    Example: ginlog score sample_games/modern-match.jsonl --json
    """
    from ginlog.app.views.match_json import score_json
    from ginlog.errors import GinlogError
    from ginlog.match.dated import read_dated
    from ginlog.match.policy import POLICY

    try:
        dated = read_dated(_source(match), POLICY, name=_name(match))
    except GinlogError as exc:
        fail(exc)
    judge(dated.report)
    state = dated.report.state
    assert state is not None  # a file without a first line raises
    from ginlog.match.seals import sealed_words

    data = score_json(state, dated.report.head, dated.hand_ends)
    sealed = sealed_words(dated.report.seals)  # who sealed, or which keys signed (no club's keys here)
    if json_:
        _echo_json({**data, "sealed": sealed})
        return
    from ginlog.app.views.sheet import score_sheet

    out = Terminal()
    out.show(score_sheet(state, data, _name(match), out.console().width))
    if sealed is not None:
        out.out(f"{_name(match)}: {sealed}")


def _echo_json(data: object, lines: bool = False) -> None:
    """JSON on standard output: indented, or one line (JSON Lines); record text as it is, but nothing a
    terminal would act on (:func:`ginlog.text.json_escaped`), written as machine output by the sink."""
    from ginlog.text import json_escaped

    text = json.dumps(data, ensure_ascii=False) if lines else json.dumps(data, indent=2, ensure_ascii=False)
    Terminal().data(json_escaped(text) + "\n")


def read_report(match: str, upto: int | None = None) -> MatchReport:
    """The match file's report (``-``: standard input) read under the reading policy, its warnings said; or
    exit with its verdict (:func:`judge`)."""
    from ginlog.errors import GinlogError
    from ginlog.match.policy import POLICY
    from ginlog.match.reading import FinalState, read

    try:
        report = read(_source(match), FinalState(policy=POLICY), name=_name(match), upto=upto)
    except GinlogError as exc:
        fail(exc)
    judge(report)
    return report


def judge(report: MatchReport) -> None:
    """The file's verdict (:class:`~ginlog.app.check.verdicts.Verdict`) on standard error: an invalid file's
    one line, or a valid one's warnings (:meth:`~ginlog.app.check.verdicts.Verdict.said`); exit 1 if it is invalid (a command of one match shows only a valid one)."""
    from ginlog.app.check.verdicts import Verdict

    verdict = Verdict.of(report)
    terminal = Terminal()
    for said in verdict.said():
        terminal.err(said)
    if not verdict.ok:
        raise SystemExit(EXIT_INVALID)


def _source(match: str) -> str | BinaryIO:
    return sys.stdin.buffer if match == "-" else match


def _name(match: str) -> str:
    return "<stdin>" if match == "-" else match
