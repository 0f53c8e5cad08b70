"""The sink (:mod:`ginlog.app.shell.terminal`): visible text, no markup or emoji codes, encodable, colour only on a terminal."""

from __future__ import annotations

import io
import os

import pytest
from rich.table import Table
from rich.text import Text

from ginlog.app.shell.terminal import Terminal

from ptys import opened, read_terminal


def test_lines_are_visible_and_rich_reads_no_markup_nor_emoji() -> None:
    out = io.StringIO()
    t = Terminal(out, io.StringIO())
    t.out("m.jsonl:100: a\x1b[2J\x9b\u202e\u200b [bold]x[/bold] :skull:")
    table = Table("Player")
    table.add_row(":skull: [red]Ann")
    table.add_row(Text("raw\x1b]0;owned\x07"))  # a cell built from raw text: still made visible
    t.show(table, Text.assemble(("Winner: ", "bold"), "💀"))
    text = out.getvalue()
    assert "m.jsonl:100: a␛[2J<U+009B><U+202E><U+200B> [bold]x[/bold] :skull:\n" in text
    assert ":skull: [red]Ann" in text and "raw␛]0;owned" in text and "Winner: 💀" in text
    assert "💯" not in text and "\x1b" not in text


def test_machine_output_is_exact_to_a_pipe_and_visible_on_a_terminal() -> None:
    pipe = io.StringIO()
    Terminal(pipe).data("a,\x1b[31m\n")
    assert pipe.getvalue() == "a,\x1b[31m\n"
    master, slave = opened()
    try:
        with open(slave, "w", encoding="utf-8", closefd=False) as tty:
            t = Terminal(tty, tty)
            t.data("a,\x1b[31m\u202e\n")
            t.data_stream().write("b,\x9b\n")
            tty.flush()
        got = read_terminal(master, until=lambda seen: b"b," in seen and seen.endswith(b"\n"), timeout=10, what="the sink").decode()
    finally:
        os.close(master)
        os.close(slave)
    assert "\x1b" not in got and "a,␛[31m<U+202E>" in got and "b,<U+009B>" in got


def test_what_the_stream_cannot_encode_is_escaped() -> None:
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii")
    Terminal(ascii_out, ascii_out).out("Zoë ♣ 💀")
    ascii_out.flush()
    assert raw.getvalue() == b"Zo\\xeb \\u2663 \\U0001f480\n"


@pytest.mark.parametrize("no_color", [False, True])
def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch, no_color: bool) -> None:
    for k in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    assert Terminal(io.StringIO(), io.StringIO()).colour() is False
    master, slave = opened()
    try:
        with open(slave, "w", encoding="utf-8", closefd=False) as tty:
            assert Terminal(tty, tty).colour() is (not no_color)
            assert Terminal(tty, tty).is_terminal()
    finally:
        os.close(master)
        os.close(slave)
