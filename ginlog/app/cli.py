"""The ``ginlog`` command line: the imperative shell around the pure core.

Every command turns a :class:`~ginlog.errors.GinlogError` into one line on
standard error, ``FILE:LINE: event N: what is wrong [rule]``, and an exit
code: 0 fine, 1 invalid or illegal, 2 usage. Heavy modules are imported
inside the commands, and ``ginlog play`` skips Typer altogether, so a
scripted entry costs little more than the interpreter's start.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.errors import GinlogError
    from ginlog.play.state import MatchState, Timeline

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


# ---------------------------------------------------------------------------
# Shared helpers (kept light: no Typer, no rich)


def _fail(err: GinlogError, code: int = EXIT_INVALID) -> NoReturn:
    sys.stderr.write(err.one_line() + "\n")
    raise SystemExit(code)


def _usage(message: str) -> NoReturn:
    sys.stderr.write(f"ginlog: {message}\n")
    raise SystemExit(EXIT_USAGE)


def _play(path: str, entries: list[str], out: Any = None) -> int:
    """Append entries to a match, each checked first. Shared by ``play`` and its fast path."""
    from functools import partial

    from ginlog.app.entry import parse_entry, split_entries
    from ginlog.errors import GinlogError
    from ginlog.match.matchfile import append_events

    out = out or sys.stdout
    if not entries:
        _usage("play needs at least one entry, e.g. ginlog play match.jsonl 'discard 7h'")
    _require_match_file(path)
    try:
        tl, lines = append_events(path, [partial(parse_entry, text) for text in split_entries(entries)])
    except GinlogError as exc:
        _fail(exc if exc.path else exc.at(path=path))
    out.write(f"{path}: {len(lines)} event(s) appended, now at event {lines[-1].lineno if lines else '?'}\n")
    return EXIT_OK


def _require_match_file(path: str) -> None:
    """A missing match file is a usage slip: say how to start one."""
    if not os.path.exists(path):
        _usage(f"{path}: no such match file; start one with: ginlog new {path} --player NAME --player NAME")


def main() -> None:
    """Entry point of the ``ginlog`` executable."""
    argv = sys.argv[1:]
    try:
        if (
            len(argv) >= 2
            and argv[0] == "play"
            and not any(a in ("--help", "-h") or a.startswith("--") for a in argv[1:])
        ):
            raise SystemExit(_play(argv[1], argv[2:]))
        app = build_app()
        app(prog_name="ginlog")
    except KeyboardInterrupt:  # nothing half-written: every append is one write
        sys.stderr.write("ginlog: interrupted\n")
        raise SystemExit(130) from None


# ---------------------------------------------------------------------------
# The Typer application


def build_app() -> Any:
    """Build the Typer app (imported only when a command other than the fast path runs)."""
    import typer

    app = typer.Typer(
        name="ginlog",
        help="Record gin rummy matches as immutable events, replay them, and audit them.",
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
    )
    import_app = typer.Typer(help="Import foreign game records.", no_args_is_help=True)
    app.add_typer(import_app, name="import")

    def version_callback(value: bool) -> None:
        if value:
            from ginlog import __version__

            typer.echo(f"ginlog {__version__}")
            raise typer.Exit()

    @app.callback()
    def _root(
        version: bool = typer.Option(False, "--version", callback=version_callback, is_eager=True, help="Print the version."),
    ) -> None:
        """Record gin rummy matches as immutable events, replay them, and audit them."""

    @app.command()
    def new(
        match: str = typer.Argument(..., help="The match file to create (.jsonl)."),
        player: list[str] = typer.Option(..., "--player", "-p", help="A player's name (give two)."),
        rules: str = typer.Option("standard", "--rules", "-r", help="A preset: standard, newspaper, modern, classic, oklahoma, openspiel."),
        set_: list[str] = typer.Option([], "--set", "-s", help="Change a knob: KNOB=VALUE (see 'ginlog rules')."),
        title: Optional[str] = typer.Option(None, "--title", help="A title for the match."),
    ) -> None:
        """Start a match file. Refuses to overwrite.

        Example: ginlog new friday.jsonl --player Ann --player Bob --rules modern --set knock_limit=9
        """
        from ginlog.errors import GinlogError, RulesError
        from ginlog.match.matchfile import new_match
        from ginlog.game.rules import preset, with_knobs

        if len(player) != 2:
            _usage("give exactly two --player names")
        if player[0] == player[1]:
            _usage("the two players need different names")
        try:
            knobs = {}
            for item in set_:
                if "=" not in item:
                    raise RulesError(f"--set takes KNOB=VALUE, not {item!r}")
                k, v = item.split("=", 1)
                knobs[k.strip()] = v
            r = with_knobs(preset(rules), **knobs)
        except GinlogError as exc:
            _fail(exc, EXIT_USAGE)
        try:
            new_match(match, (player[0], player[1]), r, title=title)
        except GinlogError as exc:
            _fail(exc)
        typer.echo(f"{match}: new match, {player[0]} v {player[1]}, rules {rules}" + (f" with {', '.join(set_)}" if set_ else ""))

    @app.command()
    def play(
        match: str = typer.Argument(..., help="The match file."),
        entries: list[str] = typer.Argument(..., help="Entries, as typed at the table."),
    ) -> None:
        """Append entries without the prompt, each checked before anything is written.

        Either all entries are legal and written, or none is.

        Example: ginlog play friday.jsonl pass pass stock 'discard 7h'
        """
        raise typer.Exit(_play(match, entries))

    @app.command()
    def record(
        match: str = typer.Argument(..., help="The match file (created with 'ginlog new')."),
    ) -> None:
        """The live recorder: say whose turn it is, take entries, check each, append it.

        Works at a terminal and with entries piped on standard input.
        Type 'help' for the entry language, 'table' to see the table, 'quit' to stop.

        Example: printf 'dealer Ann\\nupcard 7h\\npass\\n' | ginlog record friday.jsonl
        """
        from ginlog.app.recorder import run_recorder

        _require_match_file(match)
        raise typer.Exit(run_recorder(match, sys.stdin, sys.stdout))

    @app.command()
    def undo(
        match: str = typer.Argument(..., help="The match file."),
        reason: Optional[str] = typer.Option(None, "--reason", help="Why (kept in the record)."),
    ) -> None:
        """Append a correction that undoes the last effective event (the file keeps both).

        Example: ginlog undo friday.jsonl --reason "wrong card"
        """
        entries = ["undo" + (f" {reason}" if reason else "")]
        raise typer.Exit(_play(match, entries))

    @app.command()
    def repair(match: str = typer.Argument(..., help="The match file.")) -> None:
        """After a crash: move a torn last line to a side file next to the match.

        Nothing is thrown away; the match file keeps every complete line.

        Example: ginlog repair friday.jsonl
        """
        from ginlog.log import writer
        from ginlog.errors import GinlogError

        try:
            rep = writer.repair(match)
        except GinlogError as exc:
            _fail(exc)
        if rep.side_file is None:
            typer.echo(f"{match}: nothing to repair (the file ends with a complete line)")
        else:
            typer.echo(f"{match}: moved {len(rep.torn)} torn bytes to {rep.side_file}: {rep.torn[:80]!r}")

    @app.command()
    def show(
        match: str = typer.Argument(..., help="The match file ('-' for standard input)."),
        at: Optional[int] = typer.Option(None, "--at", min=1, help="Show the table after event N."),
        as_: Optional[str] = typer.Option(None, "--as", help="Only what this player could see."),
    ) -> None:
        """The table at the end of the file, or at event N.

        Example: ginlog show friday.jsonl --at 12 --as Ann
        """
        from ginlog.app.views import table_text

        tl, _report = _load(match, upto=at)
        state = tl.state
        if as_ is not None and as_ not in state.players:
            _usage(f"--as {as_!r} is not a player ({' or '.join(state.players)})")
        typer.echo(f"{match} at event {tl.seq}:")
        typer.echo(table_text(state, as_))

    @app.command()
    def replay(
        match: str = typer.Argument(..., help="The match file ('-' for standard input)."),
        step_: bool = typer.Option(False, "--step", help="Wait for Enter between events."),
        from_: int = typer.Option(1, "--from", min=1, help="First event to show."),
        to: Optional[int] = typer.Option(None, "--to", min=1, help="Last event to show."),
    ) -> None:
        """The match as a readable transcript, event by event.

        Example: ginlog replay sample_games/standard-match.jsonl --to 40
        """
        from ginlog.errors import GinlogError
        from ginlog.match.reading import iter_steps
        from ginlog.app.views import describe, hand_summary, score_line, winner_name

        console = _console()
        before = None
        try:
            for s in iter_steps(_source(match), name=_name(match), upto=to):
                st = s.state
                if s.line >= from_:
                    text = describe(s.event, before, st)
                    console.print(f"[dim]{s.seq:>4}[/dim]  {_escape(text)}", highlight=False)
                    if before is not None and len(st.hands) > len(before.hands):
                        console.print(f"      [bold]{_escape(hand_summary(st.hands[-1], st.players))}[/bold]", highlight=False)
                        console.print("      Score: " + score_line(st), highlight=False)
                    if step_ and sys.stdin.isatty():
                        input()
                before = st
        except GinlogError as exc:
            _fail(exc)
        if before is None:
            from ginlog.errors import EventError

            _fail(EventError("the file is empty: a match file begins with match_started", rule="first-event", path=_name(match)))
        if before.phase == "over":
            console.print(f"Winner: [bold]{winner_name(before) or 'nobody'}[/bold]", highlight=False)

    @app.command()
    def score(
        match: str = typer.Argument(..., help="The match file ('-' for standard input)."),
        json_: bool = typer.Option(False, "--json", help="Machine-readable output (shape in the README)."),
    ) -> None:
        """The score sheet: every hand, how it ended, points, running totals, bonuses, winner.

        Example: ginlog score sample_games/modern-match.jsonl --json
        """
        from ginlog.app.views import score_json

        report = _read(match)
        state = report.state
        data = score_json(state, report.head)
        if json_:
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
            return
        _print_sheet(state, data)

    @app.command()
    def validate(
        files: list[str] = typer.Argument(..., help="Match files ('-' for standard input)."),
        json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """Schema and legality, per file: every problem with its place.

        Example: ginlog validate sample_games/*.jsonl
        """
        from ginlog.app.audit import audit_file

        results = [audit_file(f) for f in files]  # audit_file names standard input <stdin>
        if json_:
            typer.echo(json.dumps({"files": [r.to_dict() for r in results], "ok": all(r.ok for r in results)}, indent=2))
        else:
            for r in results:
                if r.ok:
                    typer.echo(f"{r.path}: ok ({r.events} events, {r.hands} hands)")
                for e in r.errors:
                    typer.echo(_err_line(e), err=True)
        raise typer.Exit(EXIT_OK if all(r.ok for r in results) else EXIT_INVALID)

    @app.command()
    def audit(
        paths: list[str] = typer.Argument(..., help="Files, folders (searched for *.jsonl) or globs."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Files checked at once (processes)."),
        json_: bool = typer.Option(False, "--json", help="Machine-readable output (shape in the README)."),
        anchor: Optional[str] = typer.Option(None, "--anchor", help="Head hash you kept: the file must still reach it."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the summary."),
    ) -> None:
        """Audit finished or imported matches: hash chain, legality, recomputed scores.

        Example: ginlog audit sample_games --jobs 2
        """
        from ginlog.app.audit import FileAudit, audit_files, expand_paths

        listed, missing = expand_paths(paths)
        if anchor is not None and len(listed) != 1:
            _usage("--anchor checks one file; give exactly one")
        console = _console(stderr=True)
        results = [FileAudit.failed(err) for err in missing]
        gen = audit_files(listed, jobs=jobs, anchor=anchor)
        if console.is_terminal and not json_:
            from rich.progress import Progress

            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("auditing", total=len(listed))
                for r in gen:
                    results.append(r)
                    progress.advance(task)
        else:
            results.extend(gen)
        bad = [r for r in results if not r.ok]
        summary = {
            "files": len(results),
            "ok": len(results) - len(bad),
            "invalid": len(bad),
            "events": sum(r.events for r in results),
            "hands": sum(r.hands for r in results),
            "finished": sum(1 for r in results if r.phase == "over"),
            "outcomes": _sum_outcomes(results),
            "errors_by_rule": _count_rules(results),
        }
        if json_:
            typer.echo(json.dumps({"summary": summary, "files": [r.to_dict() for r in results]}, indent=2))
        else:
            _print_audit(results, summary, quiet)
        raise typer.Exit(EXIT_OK if not bad else EXIT_INVALID)

    @app.command()
    def schema(
        event: Optional[str] = typer.Argument(None, help="An event type (e.g. card_drawn); none = any line."),
    ) -> None:
        """Print the JSON Schema (draft 2020-12) of a line, or of one event type.

        Example: ginlog schema hand_shown
        """
        from ginlog.errors import EventError
        from ginlog.log.events import EVENT_TYPES

        if event is not None and event not in EVENT_TYPES:
            _fail(EventError(f"unknown event type {event!r}; types are {', '.join(EVENT_TYPES)}"), EXIT_USAGE)
        from ginlog.log.schema import schema_for

        typer.echo(json.dumps(schema_for(event), indent=2, ensure_ascii=False))

    @app.command("rules")
    def rules_cmd(
        preset_name: Optional[str] = typer.Argument(None, help="A preset to show in full."),
    ) -> None:
        """List the presets, or every knob of one preset with its meaning.

        Example: ginlog rules modern
        """
        from ginlog.errors import GinlogError
        from ginlog.game.rules import KNOB_HELP, PRESET_HELP, preset, rules_to_dict

        if preset_name is None:
            for name, text in PRESET_HELP.items():
                typer.echo(f"{name:<10} {text}")
            typer.echo("\nShow one with 'ginlog rules NAME'; change a knob with 'ginlog new ... --set KNOB=VALUE'.")
            return
        try:
            r = preset(preset_name)
        except GinlogError as exc:
            _fail(exc, EXIT_USAGE)
        for k, v in rules_to_dict(r).items():
            typer.echo(f"{k:<24} {json.dumps(v):<12} {KNOB_HELP.get(k, '')}")

    @import_app.command("openspiel")
    def import_openspiel(
        files: list[str] = typer.Argument(..., help="OpenSpiel serialised gin_rummy records."),
        outdir: str = typer.Option(..., "--output", "-o", help="Folder for the ginlog match files."),
    ) -> None:
        """Read OpenSpiel gin_rummy records and write one ginlog match file each.

        A record that is not valid gets an error naming it and the action's
        position; the other files go on.

        Example: ginlog import openspiel records/*.txt -o imported/
        """
        from ginlog.app.openspiel import import_files

        ok, bad = import_files(files, outdir, err=sys.stderr)
        typer.echo(f"imported {ok} record(s) into {outdir}" + (f"; {bad} failed" if bad else ""))
        raise typer.Exit(EXIT_OK if not bad else EXIT_INVALID)

    return app


# ---------------------------------------------------------------------------
# Rendering helpers


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _source(match: str) -> Any:
    return sys.stdin.buffer if match == "-" else match


def _name(match: str) -> str:
    return "<stdin>" if match == "-" else match


def _read(match: str, upto: int | None = None) -> Any:
    """The match file's :class:`~ginlog.match.reading.MatchReport`, or exit with its first problem."""
    from ginlog.errors import GinlogError
    from ginlog.match.reading import read_match

    try:
        return read_match(_source(match), name=_name(match), upto=upto)
    except GinlogError as exc:
        _fail(exc)


def _load(match: str, upto: int | None = None) -> tuple[Timeline, Any]:
    report = _read(match, upto)
    tl = report.timeline
    assert tl is not None
    return tl, report


def _err_line(e: dict[str, Any]) -> str:
    where = e["file"] or ""
    if e.get("line") is not None:
        where += f":{e['line']}"
    if e.get("event") is not None:
        where += f": event {e['event']}"
    return f"{where}: {e['message']} [{e['rule']}]"


def _sum_outcomes(results: list[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.outcomes.items():
            counts[k] = counts.get(k, 0) + v
    return {k: counts[k] for k in ("knock", "undercut", "gin", "big_gin", "void") if k in counts}


def _count_rules(results: list[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for e in r.errors:
            counts[e["rule"]] = counts.get(e["rule"], 0) + 1
    return dict(sorted(counts.items()))


def _print_sheet(state: MatchState, data: dict[str, Any]) -> None:
    from rich.table import Table

    console = _console()
    title = state.title or f"{state.players[0]} v {state.players[1]}"
    table = Table(title=title, show_lines=False)
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    table.add_column("Outcome")
    table.add_column("Won by")
    table.add_column("Points", justify="right")
    for p in state.players:
        table.add_column(p, justify="right")
    for h in data["hands"]:
        table.add_row(
            str(h["number"]), h["dealer"], h["outcome"].replace("_", " "), h["winner"] or "-",
            str(h["points"]), *(str(h["totals"][p]) for p in state.players),
        )
    console.print(table)
    b = data["bonuses"]
    for label, key in (("Game bonus", "game"), ("Boxes", "boxes"), ("Shutout", "shutout")):
        if b[key]:
            console.print(f"{label}: " + ", ".join(f"{p} {v}" for p, v in b[key].items()))
    totals = data["totals"]
    console.print("Totals: " + ", ".join(f"{p} {totals[p]}" for p in state.players))
    if data["winner"]:
        console.print(f"Winner: [bold]{data['winner']}[/bold]")
    elif state.phase == "abandoned":
        console.print(f"Abandoned: {state.abandoned}")
    elif state.phase != "over":
        console.print("Match in progress.")
    if data["head"]:
        console.print(f"Head: {data['head']}  (keep it: 'ginlog audit FILE --anchor HEAD' proves nothing was cut)")


def _print_audit(results: list[Any], summary: dict[str, Any], quiet: bool) -> None:
    from rich.table import Table

    out = _console()
    err = _console(stderr=True)
    if not quiet:
        for r in results:
            for e in r.errors:
                err.print(_escape(_err_line(e)), highlight=False)
    table = Table(title="Audit", show_header=True)
    table.add_column("Files", justify="right")
    table.add_column("Clean", justify="right")
    table.add_column("Invalid", justify="right")
    table.add_column("Finished", justify="right")
    table.add_column("Hands", justify="right")
    table.add_column("Events", justify="right")
    table.add_row(*(str(summary[k]) for k in ("files", "ok", "invalid", "finished", "hands", "events")))
    out.print(table)
    if summary["outcomes"]:
        out.print("Hands: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["outcomes"].items()))
    if summary["errors_by_rule"]:
        out.print("Problems by rule: " + ", ".join(f"{k} {v}" for k, v in summary["errors_by_rule"].items()))
    if len(results) == 1 and results[0].head:
        out.print(f"Head: {results[0].head}")


if __name__ == "__main__":  # pragma: no cover
    main()
