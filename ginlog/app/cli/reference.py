"""What ginlog knows, for reference: ``schema``, ``rules``, ``samples``, and the root's ``--version``."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from ginlog.app.cli.common import EXIT_USAGE, Terminal, fail

__all__ = ["root", "schema", "rules", "samples"]


def _print_version(value: bool) -> None:
    if value:
        from ginlog import __version__

        Terminal().out(f"ginlog {__version__}")
        raise typer.Exit()


def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Record gin rummy matches as immutable events, replay them, and audit them (the help is the app's)."""


def schema(
    event: Annotated[
        Optional[str], typer.Argument(help="An event type (e.g. card_drawn); none = any line.")
    ] = None,
) -> None:
    """Print the JSON Schema (draft 2020-12) of a line, or of one event type.

    Example: ginlog schema hand_shown
    """
    from ginlog.errors import EventError
    from ginlog.log.events import EVENT_TYPES

    if event is not None and event not in EVENT_TYPES:
        fail(EventError(f"unknown event type {event!r}; types are {', '.join(EVENT_TYPES)}"), EXIT_USAGE)
    from ginlog.log.schema import schema_for

    from ginlog.text import json_escaped

    Terminal().data(json_escaped(json.dumps(schema_for(event), indent=2, ensure_ascii=False)) + "\n")


def rules(
    preset_name: Annotated[Optional[str], typer.Argument(help="A preset to show in full.")] = None,
) -> None:
    """List the presets, or every knob of one preset with its meaning.

    Example: ginlog rules modern
    """
    from ginlog.errors import GinlogError
    from ginlog.game.rules import KNOB_HELP, PRESET_HELP, all_knobs, preset

    terminal = Terminal()
    if preset_name is None:
        for name, text in PRESET_HELP.items():
            terminal.out(f"{name:<10} {text}")
        terminal.out("\nShow one with 'ginlog rules NAME'; change a knob with 'ginlog new ... --set KNOB=VALUE'.")
        return
    try:
        r = preset(preset_name)
    except GinlogError as exc:
        fail(exc, EXIT_USAGE)
    for k, v in all_knobs(r).items():
        terminal.out(f"{k:<24} {json.dumps(v):<12} {KNOB_HELP.get(k, '')}")


def samples(
    folder: Annotated[str, typer.Argument(help="The folder to write them into (made if missing).")],
) -> int:
    """Write the sample matches that come with ginlog into FOLDER, to try every command on.

    Five valid matches (standard, modern, table view, score pad, Hollywood), and under FOLDER/invalid/ ten
    damaged ones (an edited line, a torn tail, an illegal move...) for audit to find. Writes only new files:
    a file already there stops it before anything is written.

    Example: ginlog samples games && ginlog audit games/*.jsonl
    """
    import os
    from importlib.resources import files

    from ginlog.errors import StoreError

    bundled = files("ginlog") / "samples"
    chosen = [(name, bundled / name) for name in sorted(n.name for n in bundled.iterdir() if n.name.endswith(".jsonl"))]
    chosen += [(f"invalid/{name}", bundled / "invalid" / name)
               for name in sorted(n.name for n in (bundled / "invalid").iterdir() if n.name.endswith(".jsonl"))]
    if os.path.lexists(folder) and not os.path.isdir(folder):
        fail(StoreError("not a folder: 'ginlog samples' writes its files into a folder", rule="file", path=folder),
             EXIT_USAGE)
    in_the_way = [name for name, _ in chosen if os.path.lexists(os.path.join(folder, name))]
    if in_the_way:
        fail(StoreError(f"{in_the_way[0]} is there already (nothing written): give a new or an empty folder",
                        rule="file", path=folder))
    from ginlog.app.shell.outputs import create_new, enter_folder

    fds: list[int] = []
    try:  # the folder and its invalid/ opened without following a link at either; each file new, never through one
        fds.append(enter_folder(folder, None, folder))
        fds.append(enter_folder("invalid", fds[0], os.path.join(folder, "invalid")))
        for name, source in chosen:
            inside, base = (fds[1], name.split("/", 1)[1]) if "/" in name else (fds[0], name)
            create_new(base, source.read_bytes(), dir_fd=inside)
    except OSError as exc:
        fail(StoreError(f"cannot write the samples: {exc.strerror or exc}", rule="file",
                        path=exc.filename if isinstance(exc.filename, str) else folder), EXIT_USAGE)
    finally:
        for fd in fds:
            os.close(fd)
    valid = [n for n, _ in chosen if "/" not in n]
    Terminal().out(f"{folder}: {len(valid)} sample matches, and {len(chosen) - len(valid)} damaged ones in"
                   f" {os.path.join(folder, 'invalid')}/ for audit to find")
    return 0
