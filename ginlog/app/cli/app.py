"""The Typer app: every command registered under the one runner, and Typer's usage slips printed by it.

:class:`Group` is the app's click group. Click (and Typer's rich formatter)
would print a slip of the command line (an unknown option, a missing
argument, a malformed value) its own way, in a panel; here it is the
runner's one line, ``ginlog: play: No such option: -y (see 'ginlog play
--help')``, exit 2, like every other usage slip, whether the app is run by
:func:`ginlog.app.cli.main` or by a test's ``CliRunner``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final

import typer
from typer._click import exceptions as click  # Typer's own click (0.26+ vendors it): its errors are these
from typer.core import TyperGroup

from ginlog.app.shell.runner import ExitCode, command, interrupted, usage_line

__all__ = ["build_app", "Group", "COMMANDS"]


class Group(TyperGroup):
    """Typer's group, with click's errors handed to the runner's printers instead of click's or rich's."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except click.NoArgsIsHelpError as exc:  # ``ginlog`` alone: the help, as Typer draws it
            from typer import rich_utils

            rich_utils.rich_format_error(exc)
            code = exc.exit_code
        except click.UsageError as exc:
            code = usage_line(_slip(exc))
        except click.ClickException as exc:
            code = usage_line(exc.format_message())
        except typer.Abort:
            code = interrupted()
        if standalone_mode:
            sys.exit(code)
        return code


def _slip(exc: click.UsageError) -> str:
    """``play: No such option: -y (see 'ginlog play --help')``: the message, where, and where to read more."""
    message = exc.format_message()
    ctx = exc.ctx
    if ctx is None:
        return message
    path = ctx.command_path
    where = path.split(" ", 1)[1] + ": " if " " in path else ""
    helps = ctx.help_option_names
    return f"{where}{message} (see '{path} {helps[-1] if helps else '--help'}')"


#: The top-level ``--help``: what ginlog is, and the first commands to try.
ROOT_HELP = (
    "Record gin rummy matches as immutable events, replay them, and audit them.\n\n"
    "Example: ginlog samples games && ginlog score games/standard-match.jsonl\n\n"
    "Example: ginlog new friday.jsonl --player Ann --player Bob && ginlog record friday.jsonl"
)


#: Every command: its name, and the module of ``ginlog.app.cli`` and the function that are its body.
COMMANDS: Final = (
    ("new", "record", "new"),
    ("play", "record", "play"),
    ("record", "record", "record"),
    ("undo", "record", "undo"),
    ("repair", "record", "repair"),
    ("seal", "record", "seal"),
    ("show", "read", "show"),
    ("replay", "read", "replay"),
    ("score", "read", "score"),
    ("validate", "check", "validate"),
    ("audit", "check", "audit"),
    ("schema", "reference", "schema"),
    ("rules", "reference", "rules"),
    ("samples", "reference", "samples"),
    ("stats", "data", "stats"),
    ("export", "data", "export"),
    ("html", "data", "html"),
    ("serve", "serve", "serve"),
)


def registered(only: str | None) -> str | None:
    """``only`` if it names a command (:func:`build_app` registers it alone), else None (the whole app).

    >>> registered("audit"), registered("--help"), registered("audti")
    ('audit', None, None)
    """
    return only if only in {name for name, _module, _body in COMMANDS} | {"import"} else None


def build_app(only: str | None = None) -> Any:
    """The ``ginlog`` Typer app; each command wrapped by :func:`ginlog.app.shell.runner.command`.

    ``only``, a command's name (``audit``, ``import``), registers that command alone: a command line that
    names one is parsed by it and nothing else, so the other commands' modules are not imported nor their
    parameters read (Typer reads every signature it is given, 15 ms of each start-up for all of them). Any
    other ``only`` (an option, a typo, None) gives the whole app, whose help and "no such command" list
    every command.
    """
    import importlib

    from ginlog.app.cli import reference

    wanted = registered(only)
    app = typer.Typer(
        name="ginlog",
        cls=Group,
        help=ROOT_HELP,
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
    )
    app.callback()(reference.root)
    for name, module, body in COMMANDS:
        if wanted is None or name == wanted:
            app.command(name)(command(getattr(importlib.import_module(f"ginlog.app.cli.{module}"), body)))
    if wanted is None or wanted == "import":
        from ginlog.app.cli import imports

        # One command per registered importer, made when `ginlog import` is asked for them (cli.imports).
        import_app = typer.Typer(cls=imports.ImportGroup, help="Import foreign game records.", no_args_is_help=True)
        app.add_typer(import_app, name="import")
    return app


_ = ExitCode  # the codes the group's slips end with are the runner's
