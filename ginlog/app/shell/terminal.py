"""The one sink for what people see: every human-facing write of ginlog goes through a :class:`Terminal`.

A record's text is data from whoever wrote the file, and the terminal is a
target: an ESC sequence in a note can clear the screen, retitle the window,
or write a fake "Winner:" line; a C1 control (U+009B is a CSI) does the same
on many terminals; a bidi override (U+202E) turns the rest of a line around;
rich reads ``[bold]`` as markup and ``:100:`` as an emoji code (``m.jsonl:100:``
would print as ``m.jsonl💯``, and the players ``:skull:`` and ``💀`` would look
the same). Escaping at each call site was tried, and three of thirty commits
each fixed one site that leaked; so it is done here, once, for every line:

- :meth:`Terminal.out` and :meth:`Terminal.err`: lines for people, on standard
  output or error, each made visible (:func:`ginlog.text.visible`: ``␛``,
  ``<U+202E>``). A newline in the text is a line break the caller meant; a
  record's own newlines were made ``␤`` by the views before.
- :meth:`Terminal.show`: rich renderables (tables, styled :class:`~rich.text.Text`),
  through a console that reads no markup, no emoji codes and highlights
  nothing, whose every rendered piece of text is made visible (so a cell built
  from raw text cannot leak either); colour only where rich finds a terminal
  and no ``NO_COLOR``.
- :meth:`Terminal.data` and :meth:`Terminal.data_stream`: machine output (JSON,
  JSON lines, CSV) on standard output. To a file or a pipe it is written
  exactly (JSON is already escaped by :func:`ginlog.text.json_escaped`; CSV is
  data and keeps its text); to a terminal it is made visible too, so no format
  puts a record's byte on a screen raw.

Lines for people are coloured by what they mean, on a terminal only (never with
``NO_COLOR``, ``TERM=dumb``, or to a file or a pipe): ``refused:`` and a
file's problem in red, a warning in yellow, ``ok`` in green (:func:`tone_of`
reads it from the line, as ginlog words it, so every command and the
recorder get it from here; a caller may name the tone).

Whatever a stream cannot encode (an ASCII locale) is written as a backslash
escape, never an exception half-way through a command.

Plain lines are written to the stream itself (rich is imported only for
:meth:`~Terminal.show`), so ``ginlog play``'s fast path, which must not import
rich, writes through the sink too. Without streams given, a terminal writes to
the process's ``sys.stdout`` and ``sys.stderr`` as they are at each write: a
progress bar that takes standard error over then prints the line above itself.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> t = Terminal(out, err)
>>> t.out("m.jsonl:100: gg\\x1b[2J\\u202e [bold]x[/bold] :skull:")
>>> from rich.text import Text
>>> t.show(Text.assemble(("Winner: ", "bold"), ":skull: [red]x\\x9b"), "💀 [/]")
>>> print(out.getvalue(), end="")
m.jsonl:100: gg␛[2J<U+202E> [bold]x[/bold] :skull:
Winner: :skull: [red]x<U+009B>
💀 [/]
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO

import attrs

from ginlog.text import visible

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console, RenderableType

__all__ = ["Terminal", "visible_lines", "VisibleStream", "encodable", "isatty", "Tone", "tone_of", "paints", "painted"]

#: What a line for people means, for its colour on a terminal.
Tone = Literal["refused", "warning", "ok"]
#: Each tone's SGR parameters: bold red, yellow, green.
_SGR: Final[dict[str, str]] = {"refused": "1;31", "warning": "33", "ok": "32"}
_OK: Final = re.compile(r"ok \d+: |ok$|.*: ok \(|.*: ok$")
_PROBLEM: Final = re.compile(r"\S.*: .* \[[a-z0-9-]+\]$")  # FILE:LINE: event N: what is wrong [rule]


def tone_of(line: str, *, err: bool = True) -> Tone | None:
    """What a line ginlog says means, read from how ginlog words it (None: nothing to colour). A file's problem
    (``FILE:LINE: ... [rule]``) only on standard error (``err``), where problems go: on standard output a line
    that ends in brackets may be a record's text (a note, a reason).

    >>> [tone_of(s) for s in ("refused: Ann must draw [draw-first] (nothing written)", "ok 3: Hand 1: Ann deals",
    ...     "m.jsonl: ok (12 events, 1 hands)", "m.jsonl:4: a ts out of order [time-order] (warning)",
    ...     "m.jsonl:7: event 7: Bob cannot discard 9C [in-hand]", "Score: Ann 0, Bob 61", "  7  Ann knocks")]
    ['refused', 'ok', 'ok', 'warning', 'refused', None, None]
    """
    if line.startswith("refused:"):
        return "refused"
    if line.endswith("(warning)") or line.startswith("warning:") or ": warning: " in line:
        return "warning"
    if _OK.match(line):
        return "ok"
    if err and _PROBLEM.match(line):
        return "refused"
    return None


def paints(stream: object) -> bool:
    """Whether lines to ``stream`` are coloured: a terminal, no ``NO_COLOR`` (any value but empty), not
    ``TERM=dumb``. Asked of the stream itself, so ``play``'s fast path, which imports no rich, colours too."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb" and isatty(stream)


def painted(text: str, tone: Tone | None = None, *, err: bool = True) -> str:
    """``text`` (already visible) with each line in its tone's colour (``tone``, else :func:`tone_of` the line's).

    >>> painted("refused: no\\nScore: 0").split("\\n")
    ['\\x1b[1;31mrefused: no\\x1b[0m', 'Score: 0']
    """
    lines = text.split("\n")
    out = []
    for line in lines:
        t = tone or tone_of(line, err=err)
        out.append(f"\x1b[{_SGR[t]}m{line}\x1b[0m" if t is not None and line else line)
    return "\n".join(out)


def visible_lines(text: str) -> str:
    """``text`` made visible line by line: its newlines kept as line breaks, every other control shown.

    >>> visible_lines("a\\x1b[2J\\nb\\u202e")
    'a␛[2J\\nb<U+202E>'
    """
    if text.isascii() and text.isprintable():
        return text
    return "\n".join([visible(part) for part in text.split("\n")])


def encodable(stream: TextIO, text: str) -> str:
    """``text`` as ``stream`` can write it: what its encoding cannot hold as a backslash escape.

    >>> import io
    >>> ascii = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> encodable(ascii, "Zoë ♣")
    'Zo\\\\xeb \\\\u2663'
    """
    encoding = getattr(stream, "encoding", None)
    if not encoding or text.isascii() or getattr(stream, "errors", "strict") != "strict":
        return text
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return text.encode(encoding, "backslashreplace").decode(encoding, "replace")
    return text


def _write(stream: TextIO, text: str) -> None:
    stream.write(encodable(stream, text))


def isatty(stream: object) -> bool:
    """Whether ``stream`` is a terminal (through rich's proxy under a live display; a closed stream is not)."""
    stream = getattr(stream, "rich_proxied_file", stream)  # under a live display, rich's proxy of the stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # closed
        return False


@attrs.frozen
class VisibleStream:
    """A text stream that writes to ``stream`` with every line made visible (:func:`visible_lines`).

    What :meth:`Terminal.data_stream` gives a streaming writer (``csv.writer``, the
    JSON lines of ``export``) when standard output is a terminal. Escaping is
    per character, so a write may end anywhere.

    >>> import io
    >>> s = io.StringIO(); v = VisibleStream(s)
    >>> _ = v.write("a,\\x1b[31m\\n"); v.writelines(["b\\u202e\\n"]); s.getvalue()
    'a,␛[31m\\nb<U+202E>\\n'
    """

    stream: TextIO

    def write(self, text: str) -> int:
        _write(self.stream, visible_lines(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return isatty(self.stream)


@attrs.frozen
class Terminal:
    """Where ginlog speaks to people: standard output and standard error, escaped, encoded, coloured or not.

    ``stdout`` and ``stderr`` default to the process's streams, looked up at each
    write (a test's captured streams, a progress bar's proxy); the recorder
    passes its own. Cheap to make: make one per command.

    >>> import io
    >>> t = Terminal(io.StringIO(), io.StringIO())
    >>> t.err("ginlog: no such file m\\x1b[2J.jsonl"); t.stderr.getvalue()
    'ginlog: no such file m␛[2J.jsonl\\n'
    >>> t.colour(), t.is_terminal()
    (False, False)
    """

    _stdout: TextIO | None = attrs.field(default=None, alias="stdout")
    _stderr: TextIO | None = attrs.field(default=None, alias="stderr")
    _consoles: dict[bool, Console] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    @property
    def stdout(self) -> TextIO:
        return self._stdout if self._stdout is not None else sys.stdout

    @property
    def stderr(self) -> TextIO:
        return self._stderr if self._stderr is not None else sys.stderr

    def _stream(self, err: bool) -> TextIO:
        return self.stderr if err else self.stdout

    # ------------------------------------------------------------------ for people

    def out(self, text: str = "", *, tone: Tone | None = None) -> None:
        """``text`` and a newline on standard output, made visible (its newlines are line breaks)."""
        self.line(text, tone=tone)

    def err(self, text: str, *, tone: Tone | None = None) -> None:
        """``text`` and a newline on standard error, made visible (its newlines are line breaks)."""
        self.line(text, err=True, tone=tone)

    def line(self, text: str, *, err: bool = False, flush: bool = False, tone: Tone | None = None) -> None:
        """``text`` and a newline on standard output (or error), made visible; ``flush`` for a conversation.

        On a terminal each line is coloured by its meaning (``tone``, else :func:`tone_of` the line's).
        """
        stream = self._stream(err)
        shown = visible_lines(text)
        _write(stream, (painted(shown, tone, err=err) if paints(stream) else shown) + "\n")
        if flush:
            stream.flush()

    def show(self, *renderables: RenderableType, err: bool = False, width: int | None = None) -> None:
        """Rich renderables (a :class:`~rich.table.Table`, a styled :class:`~rich.text.Text`), each on its lines
        (laid out in ``width`` columns if given, else the console's).

        A plain ``str`` is text, never markup nor emoji codes; every piece of
        text rich renders is made visible, so a cell built from raw record
        text is safe too (its width is then off by what was made visible: the
        views give text already visible, and this is the guard behind them).
        """
        from rich.segment import Segment, Segments

        console = self.console(err=err)
        options = console.options.update(no_wrap=True, overflow="ignore")  # as soft_wrap does for print
        if width is not None:
            options = options.update_width(width)
        for renderable in renderables:
            pieces = [
                s if s.control or s.text == "\n" else Segment(visible_lines(s.text), s.style, s.control)
                for s in console.render(renderable, options)
            ]
            console.print(Segments(pieces), soft_wrap=True)

    def err_stream(self) -> TextIO:
        """Standard error as a stream for code that writes lines itself (an importer's one-line errors):
        every line made visible (:class:`VisibleStream`)."""
        return VisibleStream(self.stderr)  # type: ignore[return-value]  # what writers call of a TextIO

    # ------------------------------------------------------------------ for machines

    def data(self, text: str) -> None:
        """Machine output on standard output (JSON, CSV): exact to a file or pipe, made visible on a terminal.

        ``text`` ends with its own newline, if it has one. JSON is escaped before
        (:func:`ginlog.text.json_escaped`), so on a terminal nothing in it changes.
        """
        stream = self.stdout
        _write(stream, visible_lines(text) if isatty(stream) else text)

    def data_stream(self) -> TextIO:
        """Standard output for a writer that streams machine output: the stream itself, or, on a
        terminal, a :class:`VisibleStream` over it."""
        stream = self.stdout
        if isatty(stream):
            return VisibleStream(stream)  # type: ignore[return-value]  # what writers call of a TextIO
        return stream

    # ------------------------------------------------------------------ what the streams are

    def is_terminal(self, *, err: bool = False) -> bool:
        """Whether standard output (or error) is a terminal (through a progress bar's proxy too)."""
        return isatty(self._stream(err))

    def colour(self, *, err: bool = False) -> bool:
        """Whether colour is drawn there: rich's answer (a terminal, no ``NO_COLOR``, not ``TERM=dumb``)."""
        console = self.console(err=err)
        return console.color_system is not None and not console.no_color

    def console(self, *, err: bool = False) -> Console:
        """The rich console for standard output (or error): no markup, no emoji codes, no highlights.

        For what needs a console of its own (a progress bar, a sheet's width);
        print through :meth:`show`, which makes the text visible.
        """
        console = self._consoles.get(err)
        if console is None:
            from rich.console import Console

            file = self._stderr if err else self._stdout  # None: the process's stream, found by rich at each write
            console = self._consoles[err] = Console(
                file=file, stderr=err, markup=False, emoji=False, highlight=False, soft_wrap=True
            )
        return console
