"""Commands that import foreign records: ``ginlog import NAME``, one for each registered importer.

The commands are made from the registry (:data:`ginlog.app.importers.base.IMPORTERS`):
each importer's help is its class's docstring, and all take the same
arguments (records or folders, ``-o`` the folder to write). The ``import``
group (:class:`ImportGroup`) loads the importers only when it is asked for
its commands, since an importer imports the reducer, which ``ginlog score``
and the others need not pay for at start-up.

>>> import typer.main
>>> from ginlog.app.cli import build_app
>>> group = typer.main.get_command(build_app()).commands["import"]
>>> "openspiel" in group.commands
True
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from ginlog.app.cli.common import EXIT_INVALID, EXIT_OK, Terminal

if TYPE_CHECKING:  # pragma: no cover
    from ginlog.app.importers.base import Importer

__all__ = ["ImportGroup", "import_command", "import_app", "run_import"]

_RECORDS_HELP = "The records: files, or folders searched for this engine's record files."
_OUTPUT_HELP = "Folder for the ginlog match files."


def run_import(imp: Importer, files: list[str], outdir: str) -> int:
    """Import ``files`` with ``imp`` into ``outdir``: one line saying how many, exit 1 if any failed, 2 for a bad ``-o``."""
    from ginlog.app.cli.common import EXIT_USAGE, fail, usage
    from ginlog.app.shell.outputs import folder_refusal
    from ginlog.errors import GinlogError
    from ginlog.text import visible

    if why := folder_refusal(outdir, "an import"):
        usage(why)
    try:
        ok, bad = imp.write(files, outdir, err=Terminal().err_stream())
    except GinlogError as exc:  # the output folder cannot be made: nothing was imported; a -o that cannot be written
        fail(exc, EXIT_USAGE)  # is a usage error, as in export and html
    Terminal().out(f"imported {ok} record(s) into {outdir}" + (f"; {bad} failed" if bad else ""))
    return EXIT_OK if not bad else EXIT_INVALID


def import_command(cls: type[Importer]) -> Callable[..., int]:
    """The command ``ginlog import NAME`` for one importer class (a plain function; its docstring is the class's)."""

    def run(
        files: Annotated[list[str], typer.Argument(help=_RECORDS_HELP)],
        outdir: Annotated[str, typer.Option("--output", "-o", help=_OUTPUT_HELP)],
    ) -> int:
        return run_import(cls(), files, outdir)

    run.__name__ = run.__qualname__ = cls.name
    run.__doc__ = cls.__doc__
    return run


def import_app() -> typer.Typer:
    """A Typer app with one command per registered importer (the registry's modules are imported here)."""
    from ginlog.app.importers.base import importers
    from ginlog.app.shell.runner import command

    app = typer.Typer(no_args_is_help=True)
    for name, cls in importers().items():
        app.command(name)(command(import_command(cls)))
    return app


class ImportGroup(TyperGroup):
    """The ``import`` group: its commands are made from the importer registry the first time they are asked for.

    (Click's groups list and look up commands through ``commands``, so making
    that mapping on first use is the whole of it.)
    """

    _loaded = False

    @property
    def commands(self) -> MutableMapping[str, Any]:
        if not self._loaded:
            self._loaded = True
            self._commands.update(typer.main.get_group(import_app()).commands)
        return self._commands

    @commands.setter
    def commands(self, value: MutableMapping[str, Any]) -> None:
        self._commands = value
