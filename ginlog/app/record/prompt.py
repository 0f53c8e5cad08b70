"""How the recorder reads a line: prompt_toolkit at a terminal, plain lines from a pipe, one interface.

The recorder's core only ever calls a :data:`ReadLine`, ``read_line(prompt) ->
str | None`` (None: stop), so it is tested without a terminal and piped
entries work as they always did (:func:`piped`: no prompt written, the line
without its newline). At a terminal :class:`LineEditor` gives a real line
editor (prompt_toolkit, a kept library: line editing is never written here):
history with Up/Down kept across resumes in a file next to the match
(:func:`history_path`), Tab completion (:mod:`ginlog.app.record.completion`), a
status line at the bottom (:mod:`ginlog.app.record.status`), and Ctrl-C that clears
the line (on an empty line, a second Ctrl-C stops; so does Ctrl-D).

prompt_toolkit is imported only when a terminal is there, so a piped
recorder and every other command start as fast as before.

>>> yes_no("Yes"), yes_no(""), yes_no("", default=False), yes_no("show 7h")
(True, True, False, None)
"""

from __future__ import annotations

import contextlib

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ginlog.text import visible

if TYPE_CHECKING:  # pragma: no cover
    from prompt_toolkit.history import History

    from ginlog.play.state import MatchState

__all__ = ["ReadLine", "piped", "yes_no", "history_path", "LineEditor", "STOP_HINT"]

#: Reads one line after showing ``prompt``; None when the person (or the input) stops.
ReadLine = Callable[[str], "str | None"]

#: What the status line says after a Ctrl-C on an empty line.
STOP_HINT = "Ctrl-C again or Ctrl-D stops the recorder (nothing written is lost)"


def piped(stdin: TextIO) -> ReadLine:
    """Lines from a pipe: no prompt shown, the newline taken off, None at the end."""

    def read_line(prompt: str) -> str | None:
        raw = stdin.readline()
        return None if not raw else raw.rstrip("\r\n")

    return read_line


def yes_no(answer: str, *, default: bool = True) -> bool | None:
    """A yes/no answer: y, yes, n or no in any case; an empty answer is ``default``; anything else None."""
    word = answer.strip().lower()
    if not word:
        return default
    return {"y": True, "yes": True, "n": False, "no": False}.get(word)


def history_path(match: str | os.PathLike[str]) -> str:
    """The recorder's history for a match: ``.NAME.history`` beside it (``friday.jsonl`` -> ``.friday.jsonl.history``).

    >>> history_path("games/friday.jsonl")
    'games/.friday.jsonl.history'
    """
    head, tail = os.path.split(os.fsdecode(match))
    return os.path.join(head, f".{tail}.history")


_NOT_KEPT = frozenset({"quit", "exit", "q"})


def _history(path: str | None) -> History:
    from prompt_toolkit.history import History, InMemoryHistory

    from ginlog.app.record import history as history_file

    class Kept(InMemoryHistory):
        def append_string(self, string: str) -> None:
            if string.strip().lower() not in _NOT_KEPT:
                super().append_string(string)

    class ShownHistory(History):
        """The history file (:mod:`ginlog.app.record.history`: its tail only, never through a link), its lines
        shown (the file is not ginlog's to trust). ``quit`` is not kept: after a resume, Up gives the last
        entry, not the way out."""

        def __init__(self, path: str) -> None:
            self.path = path
            super().__init__()

        def append_string(self, string: str) -> None:
            if string.strip().lower() not in _NOT_KEPT:
                super().append_string(string)

        def load_history_strings(self) -> Iterable[str]:
            return [visible(line) for line in history_file.newest_first(self.path)]

        def store_string(self, string: str) -> None:
            history_file.append(self.path, string)

    if path is None:
        return Kept()
    return ShownHistory(path)


def _shown_processor() -> Any:
    """A prompt_toolkit input processor that shows the line being edited as :func:`ginlog.text.visible` does.

    prompt_toolkit already draws C0 controls as ``^[``; this also covers what it
    would emit as itself (bidi overrides, C1 controls, zero-width characters), so a
    line recalled or pasted is seen, never acted on. Cursor positions are mapped.
    """
    from prompt_toolkit.layout.utils import explode_text_fragments
    from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput

    class Shown(Processor):
        def apply_transformation(self, ti: TransformationInput) -> Transformation:
            fragments = explode_text_fragments(ti.fragments)
            if all(visible(text) == text for _style, text, *_ in fragments):
                return Transformation(ti.fragments)
            out: list[Any] = []
            starts = [0]
            for style, text, *_ in fragments:
                seen = visible(text)
                out.append((style, seen))
                starts.append(starts[-1] + len(seen))
            starts.append(starts[-1] + 1)  # the cursor may stand after the line

            def to_display(i: int) -> int:
                return starts[min(i, len(starts) - 1)]

            def to_source(d: int) -> int:
                return max((i for i, s in enumerate(starts) if s <= d), default=0)

            return Transformation(out, source_to_display=to_display, display_to_source=to_source)

    return Shown()


def _drop_waiting(event: Any) -> None:
    """Drop the keys waiting to be handled and the input the terminal holds unread (a line already full)."""
    import termios

    event.app.key_processor.input_queue.clear()
    with contextlib.suppress(Exception):  # not a terminal (a test's pipe): nothing is held
        termios.tcflush(event.app.input.fileno(), termios.TCIFLUSH)


class LineEditor:
    """The recorder's line editor at a terminal; :meth:`read_line` and :meth:`ask` are :data:`ReadLine`\\ s.

    ``state`` gives the match as it is now (for completion and the status
    line); ``words`` the first words to offer (they change once the match is
    over). ``history`` is the history file (None: this run only).
    """

    def __init__(
        self,
        state: Callable[[], MatchState],
        *,
        history: str | None,
        words: Callable[[], Sequence[str]],
        input: Any = None,
        output: Any = None,
    ) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import CompleteEvent, Completer, Completion
        from prompt_toolkit.document import Document
        from prompt_toolkit.application.current import get_app
        from prompt_toolkit.buffer import Buffer
        from prompt_toolkit.filters import Condition
        from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
        from prompt_toolkit.keys import Keys

        from ginlog.app.record.language import MAX_ENTRY

        from ginlog.app.record.completion import choices
        from ginlog.app.record.status import status_line

        self._state = state
        self._armed = False  # a Ctrl-C on an empty line was pressed: the next one stops
        self._full = False  # typing or a paste went past the longest entry: the rest was not taken

        class Entries(Completer):
            def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
                for c in choices(document.text_before_cursor, state(), words=words()):
                    yield Completion(c.text, start_position=-c.length, display=c.shown)

        keys = KeyBindings()

        # An entry is at most MAX_ENTRY characters (the longest legal one), so the line never grows past it: a
        # 200,000-character paste took a minute of re-drawing and 2 GB before the entry was refused. (Typed or
        # pasted without bracketed paste, characters come one at a time: the line is cut back as it passes the
        # limit. A bracketed paste is cut before it goes in.)
        def cut(buf: Buffer) -> None:
            if len(buf.text) > MAX_ENTRY:
                self._full = True
                buf.document = Document(buf.text[:MAX_ENTRY], min(buf.cursor_position, MAX_ENTRY))

        at_most = Condition(lambda: len(get_app().current_buffer.text) >= MAX_ENTRY)

        # (Not eager: a key with a binding of its own, Enter or Ctrl-C, still has it; a character is dropped, and
        # with it whatever else is waiting to be read: a paste without brackets comes as one key a character, and
        # prompt_toolkit's 0.1 ms a key would make 200,000 of them half a minute.)
        @keys.add(Keys.Any, filter=at_most)
        def _full(event: KeyPressEvent) -> None:
            self._full = True
            _drop_waiting(event)
            event.app.invalidate()

        @keys.add(Keys.BracketedPaste, eager=True)
        def _paste(event: KeyPressEvent) -> None:
            buf = event.app.current_buffer
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")
            room = max(0, MAX_ENTRY - len(buf.text))
            if len(data) > room:
                self._full = True
                data = data[:room]
            buf.insert_text(data)

        @keys.add("c-c")
        def _ctrl_c(event: KeyPressEvent) -> None:
            buf = event.app.current_buffer
            if buf.text:
                buf.reset()
                self._armed = False
            elif self._armed:
                event.app.exit(result=None)
            else:
                self._armed = True
                event.app.invalidate()

        def toolbar() -> str:
            if self._full:
                return f"An entry is at most {MAX_ENTRY:,} characters: the rest was not taken."
            return STOP_HINT if self._armed else status_line(state())

        self._session: PromptSession[str | None] = PromptSession(
            history=_history(history),
            completer=Entries(),
            complete_while_typing=False,
            bottom_toolbar=toolbar,
            key_bindings=keys,
            input_processors=[_shown_processor()],
            input=input,
            output=output,
        )
        self._question: PromptSession[str | None] = PromptSession(
            key_bindings=keys, input_processors=[_shown_processor()], input=input, output=output
        )
        for session in (self._session, self._question):
            session.default_buffer.on_text_changed += cut

    def read_line(self, prompt: str) -> str | None:
        """An entry, edited at the terminal (kept in the history); None on a stop (Ctrl-D, a second Ctrl-C)."""
        return self._read(self._session, prompt)

    def ask(self, prompt: str) -> str | None:
        """An answer to a question: no completion, and not kept in the history."""
        return self._read(self._question, prompt)

    def _read(self, session: Any, prompt: str) -> str | None:
        self._armed = self._full = False
        try:
            line = session.prompt(visible(prompt))
        except (EOFError, KeyboardInterrupt):
            return None
        return None if line is None else str(line)
