"""The progress bar of long work over many files (``audit``, ``stats``, ``export``, ``html DIR``): on a terminal only.

The bar is drawn on standard error, and only when standard error really is
a terminal that can draw one (``isatty``, whatever ``FORCE_COLOR`` says;
not ``TERM=dumb``): piped or redirected, nothing of it is written, so a log
file or a script sees the same bytes as before. It is transient (gone when
the work is done), and never takes standard output over: what a command
writes there goes straight to its stream, bar or no bar (rich would
otherwise route it through the bar's console, onto standard error). A
command that streams its results to standard output says so
(``stdout_busy``): then no bar is drawn when standard output is the
terminal too, where the two would be drawn over each other.

Lines written to ``sys.stderr`` while the bar runs (an invalid file's one
line) are printed above it.

>>> with progress("counting", lambda: 3) as advance:  # doctests run piped: no bar, the items pass through
...     list(advance("abc"))
['a', 'b', 'c']
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["progress", "shows"]

T = TypeVar("T")


def shows(console: Console | None = None, *, stdout_busy: bool = False) -> bool:
    """Whether a bar would be drawn: standard error a terminal that can draw it (and standard output not, if busy)."""
    from ginlog.app.shell.terminal import isatty

    if not isatty(sys.stderr) or (stdout_busy and isatty(sys.stdout)):
        return False
    if console is None:
        from ginlog.app.shell.terminal import Terminal

        console = Terminal().console(err=True)
    return console.is_terminal and not console.is_dumb_terminal


@contextlib.contextmanager
def progress(
    label: str, total: Callable[[], int] | None = None, *, console: Console | None = None, stdout_busy: bool = False
) -> Iterator[Callable[[Iterable[T]], Iterator[T]]]:
    """A wrapper that advances a bar labelled ``label`` by one per item (after the item is dealt with).

    ``total()`` is called only if the bar shows; without it (the many-file
    commands: their paths are walked once, as the files are read, never
    counted ahead) the bar counts the items done, with no total. ``console`` is standard error's console, for a command that
    prints through it while the bar runs (its lines then go above the bar).
    Without a bar, the wrapper hands the items on and does nothing else.
    """
    if not shows(console, stdout_busy=stdout_busy):
        yield lambda items: iter(items)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from ginlog.app.shell.terminal import Terminal

    err = console if console is not None else Terminal().console(err=True)
    columns = (
        (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(), TimeElapsedColumn())
        if total is not None
        else (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,} files"), TimeElapsedColumn())
    )
    with Progress(*columns, console=err, transient=True, redirect_stdout=False, redirect_stderr=True) as bar:
        task = bar.add_task(label, total=None if total is None else total())

        def advance(items: Iterable[T]) -> Iterator[T]:
            for item in items:
                yield item
                bar.advance(task)

        yield advance
