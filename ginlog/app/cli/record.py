"""Commands that write: ``new``, ``play``, ``record``, ``undo``, ``repair``, ``seal``.

Each is a plain function whose defaults are its options (Typer reads the
``Annotated`` metadata), so a test can call it directly; every write goes
through :class:`ginlog.match.session.MatchSession`.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from ginlog.app.cli.append import append_entries
from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Terminal, fail, require_match_file, usage

__all__ = ["new", "play", "record", "undo", "repair", "seal", "require_new_match"]


def new(
    match: Annotated[str, typer.Argument(help="The match file to create (.jsonl).")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="A player's name (give two).")] = [],  # noqa: B006 - read, never changed
    rules: Annotated[
        Optional[str],
        typer.Option("--rules", "-r", help="A preset: standard, newspaper, modern, classic, oklahoma, openspiel."),
    ] = None,
    set_: Annotated[list[str], typer.Option("--set", "-s", help="Change a knob: KNOB=VALUE (see 'ginlog rules').")] = [],  # noqa: B006 - read, never changed
    title: Annotated[Optional[str], typer.Option("--title", help="A title for the match.")] = None,
    rematch: Annotated[
        Optional[str], typer.Option("--rematch", help="An old match file: the same players and rules (and title).")
    ] = None,
) -> None:
    """Start a match file. Refuses to overwrite.

    Example: ginlog new friday.jsonl --player Ann --player Bob --rules modern --set knock_limit=9

    Example: ginlog new saturday.jsonl --rematch friday.jsonl
    """
    from ginlog.errors import GinlogError, RulesError
    from ginlog.game.rules import preset, with_knobs
    from ginlog.match.session import MatchSession
    from ginlog.text import check_players

    require_new_match(match)
    if rematch is not None:
        if player or rules is not None or set_:
            usage("--rematch takes the players and rules from the old match: give no --player, --rules or --set")
        _rematch(match, rematch, title)
        return
    if len(player) != 2:
        usage("give exactly two --player names")
    rules = rules or "standard"
    try:  # names the two could not tell apart are a slip in the command, like a bad knob
        a, b = check_players(player)
    except GinlogError as exc:
        fail(exc, EXIT_USAGE)
    try:
        knobs = {}
        for item in set_:
            if "=" not in item:
                raise RulesError(f"--set takes KNOB=VALUE, not {item!r}")
            k, v = item.split("=", 1)
            knobs[k.strip()] = v
        r = with_knobs(preset(rules), **knobs)
    except GinlogError as exc:
        fail(exc, EXIT_USAGE)
    try:
        MatchSession.create(match, (a, b), r, title=title)
    except GinlogError as exc:
        fail(exc)
    said = f"{match}: new match, {a} v {b}, rules {rules}" + (f" with {', '.join(set_)}" if set_ else "")
    Terminal().out(said)
    from ginlog.app.record.language import WORDS, name_clash  # issue 21: entry words win over a name's prefix
    for name in (a, b):
        if (word := name_clash(name)) is not None:
            Terminal().out(f"warning: at the table {word!r} is the entry word {WORDS[word]!r}, not {name}: type more"
                           f" of the name, or quote it ('{name}' take)")


def _rematch(match: str, old: str, title: str | None) -> None:
    """``new MATCH --rematch OLD``: OLD read whole (any problem is its one line, exit 1), then MATCH created."""
    from ginlog.app.record.rematch import start_rematch
    from ginlog.errors import GinlogError
    from ginlog.match.reading import read_match
    require_match_file(old)
    try:
        state = read_match(old).state
        assert state is not None  # read_match raises rather than give a file without its first line
        session = start_rematch(match, state, title=title)
    except GinlogError as exc:
        fail(exc)
    a, b = session.state.players
    Terminal().out(f"{match}: new match, {a} v {b}, a rematch of {old} (the same rules)")


def play(
    match: Annotated[str, typer.Argument(help="The match file.")],
    entries: Annotated[list[str], typer.Argument(help="Entries, as typed at the table.")],
    reopen: Annotated[bool, typer.Option("--reopen", help="Let an undo reopen a finished match.")] = False,
) -> int:
    """Append entries without the prompt, each checked before anything is written.

    Either all entries are legal and written, or none is. An undo that would
    reopen a finished match needs --reopen.

    Example: ginlog play friday.jsonl pass pass stock 'discard 7h'
    """
    return append_entries(match, entries, reopen=reopen)


def record(
    match: Annotated[str, typer.Argument(help="The match file (created with 'ginlog new').")],
) -> int:
    """The live recorder: say whose turn it is, take entries, check each, append it.

    Works at a terminal and with entries piped on standard input.
    Type 'help' for the entry language, 'table' to see the table, 'quit' to stop.

    Example: printf 'dealer Ann\\nupcard 7h\\npass\\n' | ginlog record friday.jsonl
    """
    from ginlog.app.record.recorder import run_recorder

    require_match_file(match)
    return run_recorder(match, sys.stdin, sys.stdout)


def undo(
    match: Annotated[str, typer.Argument(help="The match file.")],
    reason: Annotated[Optional[str], typer.Option("--reason", help="Why (kept in the record).")] = None,
    reopen: Annotated[
        bool, typer.Option("--reopen", "--yes", "-y", help="Undo even when the match is over (it reopens).")
    ] = False,
) -> int:
    """Append a correction that undoes the last effective event (the file keeps both).

    Says what it undoes ("undone: event 7, Bob discards Q♣").
    Undoing a finished match reopens it: at a terminal ginlog asks first;
    elsewhere it refuses unless given --reopen.

    Example: ginlog undo friday.jsonl --reason "wrong card"
    """
    from ginlog.app.record.prompt import yes_no
    from ginlog.app.record.undoing import reopen_question, reopens, undo_target, undone_text
    from ginlog.errors import GinlogError, IllegalMove
    from ginlog.match.session import MatchSession
    require_match_file(match)
    try:
        session = MatchSession.open(match)
    except GinlogError as exc:
        fail(exc if exc.path else exc.at(path=match))
    if not reopen and reopens(session.timeline, ["undo"]):
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            fail(IllegalMove("the match is over and undo would reopen it: give --reopen (nothing written)",
                             rule="reopen", path=match))
        try:
            answer = input(reopen_question(session.state, undo_target(match, session.timeline)))
        except EOFError:  # no answer is no; Ctrl-C is the runner's, as in every command (one line, 130)
            answer = "n"
        if yes_no(answer, default=False) is not True:
            Terminal().out("Not undone.")
            return EXIT_INVALID
    try:
        said = undone_text(match, session.timeline)
    except GinlogError:
        said = None
    code = append_entries(match, ["undo" + (f" {reason}" if reason else "")], reopen=True)  # asked, or --reopen
    if said is not None and code == 0:
        Terminal().out(said)
    return code


def repair(match: Annotated[str, typer.Argument(help="The match file.")]) -> int:
    """After a crash: move a torn last line to a side file next to the match.

    Nothing is thrown away; the match file keeps every complete line.

    Example: ginlog repair friday.jsonl
    """
    from ginlog.errors import GinlogError
    from ginlog.match.session import MatchSession

    try:
        rep = MatchSession.repair(match)
    except GinlogError as exc:
        fail(exc)
    terminal = Terminal()
    if rep.side_file is None:
        terminal.out(f"{match}: nothing to repair (the file ends with a complete line)")
    else:
        terminal.out(f"{match}: moved {len(rep.torn)} torn bytes to {rep.side_file}: {rep.torn[:80]!r}")
    from ginlog.app.check.audit import audit_file

    verdict = audit_file(match, max_errors=1)
    if verdict.ok:
        terminal.out(f"{match}: the rest is valid; 'ginlog record {match}' resumes")
        return EXIT_OK
    from ginlog.app.check.audit import error_line

    for line in [error_line(e) for e in verdict.errors[:1]]:
        terminal.err(line)
    terminal.out(f"{match}: invalid, and repair mends only a torn last line; 'ginlog validate {match}' lists every"
                 " problem (a changed or missing line: compare with a copy you kept)")
    return EXIT_INVALID


def seal(
    match: Annotated[str, typer.Argument(help="The match file.")],
    key: Annotated[str, typer.Option("--key", "-k", help="An SSH private key, or a public key whose private half is in ssh-agent.")],
    as_: Annotated[Optional[str], typer.Option("--as", help="The player who seals (a name or its unique start).")] = None,
) -> None:
    """Sign the record's head with your SSH key and append the seal (between hands or at the end).

    Both players may seal the same head; a seal after more play seals the
    new head. 'ginlog audit --allowed-signers FILE' checks seals against a
    club's keys; OpenSSH checks one with 'ssh-keygen -Y verify -n ginlog'.

    Example: ginlog seal friday.jsonl --key ~/.ssh/id_ed25519 --as Ann
    """
    from ginlog.app.record.sealing import ask_passphrase, load_signer, seal_match
    from ginlog.errors import GinlogError

    require_match_file(match)
    try:
        signer = load_signer(key, ask_passphrase(key))
        done = seal_match(match, signer, as_)
    except GinlogError as exc:
        fail(exc if exc.path else exc.at(path=match))
    s = done.seal
    Terminal().out(f"{match}: line {done.lineno} seals line {s.line} (head {s.head[:12]}) for {s.player}, signed by key"
                   f" {s.fingerprint}; 'ginlog audit --allowed-signers FILE' checks it against the club's keys")


def require_new_match(path: str) -> None:
    """A name no match file should have (``-``, no ``.jsonl``) is a slip in the command line: say which to give."""
    from ginlog.app.shell.outputs import match_name_refusal

    if (why := match_name_refusal(path)) is not None:
        usage(why)
