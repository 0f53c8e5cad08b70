"""What ginlog knows, for reference: ``schema``, ``rules``, and the root's ``--version``."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from ginlog.app.cli.common import EXIT_USAGE, Terminal, fail

__all__ = ["root", "schema", "rules"]


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
    """Record gin rummy matches as immutable events, replay them, and audit them."""


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
