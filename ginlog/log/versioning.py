"""Reading a file written by a newer ginlog: one clear error naming what it needs.

The policy is in ``docs/VERSIONING.md``. In short: an older ginlog never skips
what it does not know. A line whose schema version ``v`` is newer than this
ginlog reads is refused (``newer-version``); so is an event type, a field or a
rule knob this ginlog does not know (``unknown-event``, ``unknown-field``,
``unknown-knob``), since a newer ginlog adds those without raising ``v``.

The codes are raised where the line is structured (:mod:`ginlog.log.events`,
:func:`ginlog.game.rules.rules_from_dict`), which does not know the file's
writer. The reader does: it passes the ``tool`` of the file's first line (the
ginlog that started the file; later lines may have been appended by another)
to :func:`from_newer`, which words the error for the user.

>>> from ginlog.errors import EventError
>>> err = EventError("unknown event type 'hollywood_tally'", rule="unknown-event")
>>> print(from_newer(err, "ginlog 0.3.0").message)  # doctest: +ELLIPSIS
unknown event type 'hollywood_tally' (the file was started by ginlog 0.3.0; this is ginlog ...: upgrade ginlog to read it)
>>> print(from_newer(err, None).message)  # doctest: +ELLIPSIS
unknown event type 'hollywood_tally' (this is ginlog ...: a newer ginlog may know it)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Final

from ginlog import __version__
from ginlog.errors import EventError, GinlogError, RulesError

__all__ = ["FORWARD_RULES", "THIS_TOOL", "newer_version", "tool_version", "first_line_tool", "from_newer"]

#: What this ginlog writes in ``match_started.tool``.
THIS_TOOL: Final = f"ginlog {__version__}"
#: The rule codes of things a newer ginlog may write and this one does not know.
FORWARD_RULES: Final = frozenset({"newer-version", "unknown-event", "unknown-field", "unknown-knob"})

_TOOL_RE: Final = re.compile(r"ginlog ([0-9]+(?:\.[0-9]+)*)")


def tool_version(tool: str | None) -> tuple[int, ...] | None:
    """The version of ginlog a ``tool`` text names, or None for another tool (or none).

    >>> tool_version("ginlog 0.10.2"), tool_version("ginlog 1.0.0rc1"), tool_version("gin-scorer 2")
    ((0, 10, 2), (1, 0, 0), None)
    """
    m = _TOOL_RE.match(tool) if tool is not None else None
    return None if m is None else tuple(int(part) for part in m.group(1).split("."))


_THIS: Final = tool_version(THIS_TOOL)


def _is_newer(tool: str | None) -> bool:
    version = tool_version(tool)
    return version is not None and _THIS is not None and version > _THIS


def newer_version(version: int, lowest: int, highest: int, tool: str | None = None) -> EventError:
    """The error for a line whose ``v`` is newer than this ginlog reads.

    >>> print(newer_version(3, 1, 2).one_line())  # doctest: +ELLIPSIS
    written by a newer ginlog (schema version 3; this is ginlog ..., which reads 1 to 2): upgrade ginlog [newer-version]
    """
    started = f"; the file was started by {tool}" if tool else ""
    return EventError(
        f"written by a newer ginlog (schema version {version}; this is {THIS_TOOL}, which reads {lowest} to"
        f" {highest}{started}): upgrade ginlog",
        rule="newer-version",
        detail=(version, lowest, highest),
    )


def first_line_tool(data: object) -> str | None:
    """The ``tool`` a decoded first line names, whatever its type or version (None when it names none)."""
    tool = data.get("tool") if isinstance(data, Mapping) else None
    return tool if type(tool) is str else None


def from_newer(err: GinlogError, tool: str | None) -> GinlogError:
    """``err`` worded for a reader that knows which tool started the file (``tool``, None if unknown).

    - ``newer-version``: names the writer when known.
    - ``unknown-event``, ``unknown-field``, ``unknown-knob``: says that a newer
      ginlog may know the thing, and that upgrading is the fix when a newer
      ginlog started the file.
    - any other error in a line's shape (:class:`EventError`, :class:`RulesError`)
      in a file started by a newer ginlog (a new choice for a field, say) says so.

    Every other error is returned as it is. The rule codes never change.
    """
    tool = _shown(tool)
    if err.rule == "newer-version":
        if tool is None or not isinstance(err.detail, tuple) or len(err.detail) != 3:
            return err
        version, lowest, highest = err.detail
        return _with_message(err, newer_version(version, lowest, highest, tool).message)
    newer = _is_newer(tool)
    if err.rule in FORWARD_RULES:
        advice = "upgrade ginlog to read it" if newer else "a newer ginlog may know it"
    elif newer and isinstance(err, (EventError, RulesError)):
        advice = "a newer ginlog may read it"
    else:
        return err
    started = f"the file was started by {tool}; " if tool is not None else ""
    return _with_message(err, f"{err.message} ({started}this is {THIS_TOOL}: {advice})")


def _shown(tool: str | None) -> str | None:
    """A tool text fit for a one-line message (the field is free text: a file may hold anything)."""
    if tool is None or not tool.strip():
        return None
    shown = tool if tool.isprintable() else repr(tool)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _with_message(err: GinlogError, message: str) -> GinlogError:
    new = copy.copy(err)
    new.message = message
    new.args = (message,)
    return new
