"""The real ``ginlog record`` on a pseudo-terminal (issue 14): the line editor the table types into.

Each test starts the venv's ``ginlog`` on a pseudo-terminal of its own (forked from this process where it can
be: ``tests/ptys.py``), reads it with pexpect, types keys
(Up is ``ESC [ A``, Tab ``\\t``, Ctrl-C ``\\x03``, Ctrl-D ``\\x04``) and reads
what reaches the terminal. prompt_toolkit asks the terminal where the cursor
is (``ESC [ 6n``) before it draws the status line; :class:`Table` answers as
a terminal does. Every wait has a timeout (pexpect's, 10 s), so a hang fails.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

import ptys

from ginlog.app.record.entry import parse_entry
from ginlog.game.rules import preset, with_knobs
from ginlog.log import events as E
from ginlog.match.reading import read_match
from ginlog.match.session import MatchSession

pexpect = pytest.importorskip("pexpect")
fdpexpect = pytest.importorskip("pexpect.fdpexpect")
termios = pytest.importorskip("termios")

CPR = re.compile(rb"\x1b\[6n")
#: What prompt_toolkit draws with: CSI sequences (cursor moves, erase, modes, SGR). Record text
#: never reaches the terminal as one: it is shown first (``␛[2J``).
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z~]")
#: Pieces of hostile text that must never reach the terminal raw: none of them is a sequence
#: prompt_toolkit emits (it erases with ``ESC [ J`` / ``ESC [ K`` and moves up with ``ESC [ A``).
RAW_HOSTILE = ("\x1b[2J", "\x1b[H", "\x1b]", "\x07", "\x1b[1A", "\x1b[2K", "\x9b", "\x85", "\u202e", "\u2066")
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

#: The README's hand up to Bob's discard of the Q♣ (event 7), Ann to draw.
TO_DISCARD = ["dealer Ann", "upcard 7h", "pass", "pass", "stock", "discard qc"]
#: The hand in full (Bob knocks with 1, Ann has 62): shows that ginlog arranges.
SHOWS = ["show 2h 3h 4h 8c 8d 8s 5s 6s 7s ad", "show 5h 6h 8h jc qh kd 9d 9c 4c td"]


def assert_harmless_editor(text: str) -> None:
    """Nothing from a record reaches the terminal raw: only prompt_toolkit's own CSI sequences
    are there, and no piece of hostile text (an OSC, BEL, C1, bidi control, a screen clear)."""
    for raw in RAW_HOSTILE:
        assert raw not in text, f"{raw!r} reached the terminal: {text[max(0, text.find(raw) - 60):text.find(raw) + 20]!r}"
    bare = CSI.sub("", text)
    assert "\x1b" not in bare, repr(bare[max(0, bare.find("\x1b") - 40):bare.find("\x1b") + 40])
    assert not re.search("[\x80-\x9f]", bare), "a C1 control reached the terminal"
    assert not BIDI.search(bare), "a bidi control reached the terminal"
    assert "Traceback" not in bare


def plain(text: str) -> str:
    """The text without prompt_toolkit's drawing (what a person reads, near enough for a search)."""
    return CSI.sub("", text).replace("\r", "")


class Table:
    """``ginlog record FILE`` on a pseudo-terminal, 100 columns by 30 rows, its controlling terminal
    (``tests/ptys.py``: forked where it can be, so without an interpreter's start), read through pexpect."""

    def __init__(self, *args: object, env: dict[str, str] | None = None) -> None:
        base = ptys.terminal_env(**(env or {}))
        base.pop("PROMPT_TOOLKIT_NO_CPR", None)  # the position requests are answered here, as a terminal does
        self.proc, master = ptys.started(*args, env=base, rows=30, cols=100)
        self.child = fdpexpect.fdspawn(master, timeout=10, encoding="utf-8", codec_errors="replace")
        self.seen = ""
        self.all = ""
        self.answered = 0  # position requests answered so far
        _OPEN.append(self)

    def expect(self, text: str) -> str:
        """Wait until ``text`` appears in what the terminal shows (drawing removed); answer position requests."""
        while text not in plain(self.seen):
            try:
                self.child.expect(r"[\s\S]+")  # whatever has come (one read), then look at it
            except pexpect.TIMEOUT:
                raise AssertionError(f"{text!r} never came; the terminal shows:\n{plain(self.seen)[-1500:]}") from None
            self.seen += self.child.before + self.child.after
            self.answer()
        return self.seen

    def answer(self) -> None:
        """Answer each position request not answered yet: the cursor at the bottom row, as a terminal answers."""
        asked = (self.all + self.seen).count("\x1b[6n")
        while self.answered < asked:
            self.child.send("\x1b[30;1R")
            self.answered += 1

    def send(self, keys: str) -> None:
        """Type ``keys``. A Ctrl-C or Ctrl-D waits until the editor has the terminal (raw mode): typed while the
        terminal is still the line discipline's (the recorder printing, before its prompt is up), Ctrl-C would
        be the terminal's SIGINT, not a key for the editor."""
        if "\x03" in keys or "\x04" in keys:
            self.editing()
        self.child.send(keys)

    def editing(self) -> None:
        """Wait until the terminal is in raw mode (no line editing, no signals from keys), reading meanwhile."""
        deadline = time.monotonic() + 10
        while termios.tcgetattr(self.child.child_fd)[3] & (termios.ICANON | termios.ISIG):
            if time.monotonic() > deadline:
                raise AssertionError(f"the editor never took the terminal; it shows:\n{plain(self.seen)[-1500:]}")
            try:
                self.child.expect(r"[\s\S]+", timeout=0.05)
                self.seen += self.child.before + self.child.after
                self.answer()
            except pexpect.TIMEOUT:
                pass

    def line(self, text: str, then: str) -> None:
        """Type a line, press Enter, and wait for ``then``."""
        self.mark()
        self.send(text + "\r")
        self.expect(then)

    def mark(self) -> None:
        """Forget what was seen so far (the next :meth:`expect` looks only at what comes after)."""
        self.all += self.seen
        self.seen = ""

    def end(self) -> tuple[int, str]:
        """Wait for the program to exit; its exit status and everything it wrote."""
        self.child.expect(pexpect.EOF)
        self.seen += self.child.before
        code = self.proc.wait(timeout=10)
        self.close()
        return code, self.all + self.seen

    def close(self) -> None:
        """The program stopped (killed if it still runs) and the terminal closed: also after a failed test."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.child.child_fd >= 0:
            self.child.close()


_OPEN: list[Table] = []


@pytest.fixture(autouse=True)
def _no_table_left() -> Iterator[None]:
    """Whatever a test left running (it failed half-way) is stopped when it ends."""
    yield
    while _OPEN:
        _OPEN.pop().close()


@pytest.fixture
def match(tmp_path: Path) -> Path:
    path = tmp_path / "friday.jsonl"
    MatchSession.create(path, ("Ann", "Bob"), preset("standard"))
    return path


def played(path: Path, entries: list[str]) -> Path:
    MatchSession.open(path).append([partial(parse_entry, e) for e in entries])
    return path


@pytest.fixture
def over(match: Path) -> Path:
    """A one-hand match (game_target 50 after a 61-point knock: Bob wins)."""
    path = match.with_name("short.jsonl")
    MatchSession.create(path, ("Ann", "Bob"), with_knobs(preset("standard"), game_target="50"))
    return played(path, [*TO_DISCARD[:5], "knock qc", *SHOWS])


@pytest.mark.slow  # (the default run's budget: the history and the questions keep in-process tests in test_prompt and test_recorder)
def test_up_recalls_the_previous_entry_also_after_quitting_and_resuming(match: Path) -> None:
    t = Table("record", match)
    t.expect("Waiting for the first dealer")
    t.line("dealer Ann", "ok 2: Ann deals first")
    t.mark()
    t.send("\x1b[A")  # Up: the entry just made comes back to the line
    t.expect("dealer Ann")
    t.send("\x03")  # Ctrl-C clears it
    t.line("quit", "Stopped at event 2")
    assert t.end()[0] == 0
    assert (match.parent / ".friday.jsonl.history").is_file()
    again = Table("record", match)
    again.expect("resuming at event 2")
    again.mark()
    again.send("\x1b[A")
    again.expect("dealer Ann")  # kept across the resume, in the history file beside the match
    again.send("\x03")
    again.line("upcard 7h", "ok 3: Hand 1: Ann deals; upcard 7♥")
    again.send("\x04")  # Ctrl-D on an empty line stops
    code, text = again.end()
    assert code == 0 and "Stopped at event 3; 'ginlog record " in plain(text) and "Traceback" not in text


def test_tab_completes_a_name_and_a_card(match: Path) -> None:
    played(match, TO_DISCARD[:5])  # Bob to discard; his hand is not known (a table record)
    t = Table("record", match)
    t.expect("Bob: discard CARD")
    t.mark()
    t.send("discard q\t")  # four queens could be in Bob's hand: the menu shows them
    t.expect("Q♣")
    t.send("c\r")
    t.expect("ok 7: Bob discards Q♣")
    fresh = match.with_name("fresh.jsonl")
    MatchSession.create(fresh, ("Ann", "Bob"), preset("standard"))
    u = Table("record", fresh)
    u.expect("Waiting for the first dealer")
    u.send("dealer b\t\r")  # the only name that starts so: completed in full
    u.expect("ok 2: Bob deals first")
    u.send("upcard 10\t")
    u.expect("10♥")  # the tens, shown as cards
    u.send("\x03")
    u.line("quit", "Stopped at event 2")
    assert u.end()[0] == 0
    rows = [json.loads(x) for x in fresh.read_text().splitlines()]
    assert rows[1]["dealer"] == "Bob"
    t.line("quit", "Stopped")
    t.end()


def test_the_status_line_shows_the_turn_the_stock_and_the_score(match: Path) -> None:
    played(match, TO_DISCARD[:4])
    t = Table("record", match)
    t.expect("Hand 1 · Bob to draw · stock 31 · pile 7♥ · Ann 0, Bob 0 (to 100)")
    t.line("stock", "ok 6:")
    t.expect("Hand 1 · Bob to discard, knock or go gin · stock 30")
    t.send("\x04")
    assert t.end()[0] == 0


@pytest.mark.slow  # (the default run's budget: the history and the questions keep in-process tests in test_prompt and test_recorder)
def test_the_question_re_asks_on_junk_and_takes_an_entry_instead(match: Path) -> None:
    played(match, [*TO_DISCARD[:5], "knock qc"])
    t = Table("record", match)
    t.expect("Bob: show CARD")
    t.line(SHOWS[0], "Accept Bob's hand as arranged (event 8)? [Y/n] (Enter = yes)")
    t.line("maybe", "Answer y or n (Enter = yes)")
    t.expect("(event 8)? [Y/n]")
    t.line("show [2h 3h 4h] [8c 8d 8s] [5s 6s 7s] ad", "taken as your entry instead: show [2h 3h 4h]")
    t.expect("ok 8: Bob shows")
    t.line("quit", "Stopped at event 8")
    assert t.end()[0] == 0
    last = json.loads(match.read_text().splitlines()[-1])
    assert last["type"] == "hand_shown" and last["melds"] is not None  # the melds typed, not the proposal


def test_undo_names_the_move_it_undoes_and_one_recalled_by_up_asks_again(match: Path) -> None:
    """Issue 21: inside a hand, Up then Enter re-ran 'undo' and undid a show; now it asks, naming the event."""
    played(match, TO_DISCARD)
    t = Table("record", match)
    t.expect("Ann: stock")
    t.line("undo", "Undo event 7, Bob discards Q♣? [y/N]")
    t.line("y", "undone: event 7, Bob discards Q♣")
    t.mark()
    t.send("\x1b[A\r")  # Up recalls 'undo' (the answer 'y' is not kept), Enter runs it: it asks
    t.expect("Undo event 6, Bob draws from the stock? [y/N]")
    t.line("", "Not written.")  # Enter is no
    t.line("quit", "Stopped at event 8")
    assert t.end()[0] == 0
    assert len(match.read_text().splitlines()) == 8


def test_the_recorder_stays_open_at_the_end_and_undo_there_asks_and_reopens(over: Path) -> None:
    t = Table("record", over)
    t.expect("Winner: Bob")
    t.expect("'undo' reopens it")
    t.expect("Match over (Bob won")  # the status line says so too
    t.line("undo", "The match is over (Bob won")
    t.expect("Undo event 9, Ann shows")
    t.expect("it? [y/N]")  # (the line wraps at 100 columns)
    t.line("", "Not undone.")  # Enter is no
    assert read_match(str(over)).state.finished  # type: ignore[union-attr] # read_match raises rather than give None
    t.line("undo", "it? [y/N]")
    t.line("y", "undone: event 9, Ann shows")
    t.expect("Ann: show CARD")  # reopened: Ann to show again
    t.line(SHOWS[1], "(event 9)? [Y/n]")
    t.line("y", "Winner: Bob")
    t.line(f"rematch {over.with_name('next.jsonl')}", "a rematch of")
    t.expect("Waiting for the first dealer")  # now recording the rematch
    t.line("dealer Bob", "ok 2: Bob deals first")
    t.line("quit", "Stopped at event 2")
    code, _ = t.end()
    assert code == 0
    state = read_match(str(over.with_name("next.jsonl"))).state
    assert state is not None and state.players == ("Ann", "Bob") and state.rules.game_target == 50


@pytest.mark.parametrize("keys", ["\x03\x03", pytest.param("abc\x03\x03\x03", marks=pytest.mark.slow), pytest.param("\x04", marks=pytest.mark.slow)],
                         ids=["ctrl-c-twice", "clear-then-twice", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_stop_with_the_resume_line(match: Path, keys: str) -> None:
    played(match, TO_DISCARD[:2])
    t = Table("record", match)
    t.expect("Bob: take")
    t.mark()
    t.send(keys[:-1])
    if keys[:-1].endswith("\x03"):
        t.expect("Ctrl-C again or Ctrl-D stops")
    t.send(keys[-1])
    code, text = t.end()
    assert code == 0
    assert plain(text).rstrip().endswith(f"Stopped at event 3; 'ginlog record {match}' resumes.")
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert read_match(str(match)).lines == 3  # nothing written, nothing lost


def hostile_file(path: Path, hostile: str) -> Path:
    session = MatchSession.write(path, [E.MatchStarted(players=("Ann", "Bob"), rules=preset("standard"), title=hostile)])
    session.append([partial(parse_entry, e) for e in ["dealer Ann", "upcard 7h", f"note {hostile}"]])
    return path


def test_hostile_text_reaches_the_terminal_in_visible_form(tmp_path: Path) -> None:
    from test_terminal import HOSTILE

    path = hostile_file(tmp_path / "h.jsonl", HOSTILE)
    (tmp_path / ".h.jsonl.history").write_text(f"\n# 2026-01-01\n+note {HOSTILE}\n", encoding="utf-8")
    t = Table("record", path)
    t.expect("Bob: take")
    t.line("undo", "? [y/N]")  # the question names the note, shown (its text is the record's)
    t.line("y", "ok 5: Correction: event 4 undone")
    t.expect("undone: event 4, Note: gg␛[2J␛[H␛]0;owned␇")  # the undone note, from the record
    t.mark()
    t.send("\x1b[A\x1b[A")  # past 'undo', a hostile line in the history file comes back shown
    t.expect("note gg␛[2J")
    t.send("\x03")
    t.send("\x1b[200~" + f"note {HOSTILE}" + "\x1b[201~")  # pasted at the prompt: shown as it is edited
    t.expect("<U+202E>evil")
    t.send("\r")
    # prompt_toolkit takes a pasted carriage return as a new line of the entry, kept as such
    t.expect("ok 6: Note: gg␛[2J␛[H␛]0;owned␇␤␛[1A␛[2KWinner: Mallory")
    t.line("quit", "Stopped at event 6")
    code, text = t.end()
    assert code == 0
    assert_harmless_editor(text)
    assert json.loads(path.read_bytes().splitlines()[-1])["text"] == HOSTILE.replace("\r", "\n")  # kept as pasted


def test_piped_entries_never_start_the_editor(match: Path) -> None:
    """Standard input not a terminal: no prompt_toolkit, no history file, the plain conversation."""
    from test_cli import exe

    p = exe("record", match, input="dealer Ann\nquit\n")  # (forked where it can be: tests/forked.py)
    assert p.returncode == 0 and "\x1b" not in p.stdout and "ok 2: Ann deals first" in p.stdout
    assert not (match.parent / ".friday.jsonl.history").exists()


def test_ginlog_undo_of_a_finished_match_asks_at_a_terminal(over: Path) -> None:
    before = over.read_bytes()
    t = Table("undo", over)
    t.expect("The match is over (Bob won 61-0). Undo event 9, Ann shows")
    t.expect("it? [y/N]")  # (the line wraps at 100 columns)
    t.send("\r")  # Enter is no: nothing written
    code, text = t.end()
    assert code == 1 and "Not undone." in plain(text) and over.read_bytes() == before
    t = Table("undo", over)
    t.expect("it? [y/N]")
    t.send("y\r")
    code, text = t.end()
    assert code == 0 and "undone: event 9, Ann shows" in plain(text)
    state = read_match(str(over)).state
    assert state is not None and not state.finished


@pytest.mark.parametrize("bracketed", [pytest.param(False, marks=pytest.mark.slow), True], ids=["key by key", "bracketed"])
def test_a_huge_paste_is_cut_at_the_longest_entry_at_once(match: Path, bracketed: bool) -> None:
    """A 200,000-character paste froze the recorder (a minute, 2 GB): the line now stops at the longest legal
    entry, says so, drops the rest (key by key: everything waiting too), and Enter still refuses the entry."""
    from ginlog.app.record.language import MAX_ENTRY

    before = match.read_bytes()
    t = Table("record", match)
    t.expect("Choose the first dealer")  # the status line: the editor is up (the terminal in raw mode)
    t.mark()
    text = "note " + "x" * (2 * MAX_ENTRY)  # (200,000 in the benchmark of the recorder's keys: the same path)
    t.send(f"\x1b[200~{text}\x1b[201~" if bracketed else text)
    # (read in blocks: the line is drawn again as it grows, more than Table.expect's one character at a time can
    # read within its timeout; 30 s here stands for "never a hang", not for a speed)
    want, shown, deadline = f"An entry is at most {MAX_ENTRY:,} characters: the rest was not taken.", "", 30.0
    while want not in plain(shown):
        try:
            shown += t.child.read_nonblocking(1 << 16, timeout=deadline)
        except pexpect.TIMEOUT:
            raise AssertionError(f"never said; the terminal shows:\n{plain(shown)[-800:]}") from None
        if CPR.search(shown.encode()):
            t.send("\x1b[30;1R")
            shown = CPR.sub(b"", shown.encode()).decode()
    assert plain(shown).count("x") < 2 * MAX_ENTRY  # the line was never drawn longer than the cut
    t.mark()
    t.send("\r")
    t.expect("refused: text is longer than")
    t.line("quit", "Stopped at event 1")
    assert t.end()[0] == 0
    assert match.read_bytes() == before


def test_at_the_end_the_recorder_offers_seal_and_says_the_command(over: Path) -> None:
    """Issue 24: when a match ends the status line offers ``seal``; the entry says the command to run (the
    recorder never touches a key) and writes nothing."""
    before = over.read_bytes()
    t = Table("record", over)
    t.expect("Winner: Bob")
    t.expect("seal")
    t.line("seal", "--key KEY --as NAME")
    t.send("quit\r")
    code, shown = t.end()
    assert code == 0 and "each player in a shell: ginlog seal" in plain(shown)
    assert over.read_bytes() == before
