"""The live recorder behind ``ginlog record``: prompt, check, append, report.

It resumes whatever the file holds, says whose turn it is and what they may
do, and takes one entry at a time. Each entry is checked by the reducer
before anything is written; a refused entry writes nothing. Lines come from
a :data:`~ginlog.app.record.prompt.ReadLine`: a real line editor at a terminal
(:class:`~ginlog.app.record.prompt.LineEditor`), plain lines from a pipe (then it
answers every proposal with yes and exits 1 if any entry was refused, so a
script notices), or whatever a test passes in.

When the match ends the recorder stays open: it shows the final sheet and
takes ``undo`` (which reopens the match, after a question), ``rematch
NEW.jsonl`` (a new match with the same players and rules, recorded next) or
``quit``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from ginlog.app.record import language
from ginlog.app.record.completion import ENTRY_WORDS, words_now
from ginlog.app.record.entry import parse_entry
from ginlog.app.record.prompt import ReadLine, piped, yes_no
from ginlog.app.record.rematch import start_rematch
from ginlog.app.record.status import seal_command
from ginlog.app.record.undoing import reopen_question, reopens, undo_target, undone_text
from ginlog.app.shell.terminal import Terminal
from ginlog.app.views.match import describe, final_sheet, hand_summary, pretty, score_line, table_text
from ginlog.errors import Conflict, GinlogError
from ginlog.game.seats import Seat
from ginlog.log.events import Correction, Event, HandShown, HandVoid, MatchAbandoned
from ginlog.match.session import MatchSession
from ginlog.match.visitors import Step
from ginlog.play.reducer import legal_actions
from ginlog.play.state import MatchState, Shown, Timeline
from ginlog.text import split_words

__all__ = ["run_recorder", "Recorder"]

#: ``help`` at the recorder: the entry language's table (ginlog.app.record.language), then the recorder's words.
HELP = language.help_text((
    ("table | help | quit", "the table now; this list; stop (resume later with 'ginlog record')"),
)) + ("\nCards: 7h, 10h, th, 7\u2665 ...; a list: 2h 3h 4h, 2h3h4h or 234h (ranks before the suit they share)."
   "\nAt a terminal: Tab completes what may be legal now, Up/Down recall, Ctrl-C clears the line.")

AFTER_HELP = """The match is over. Now:
  undo                 undo the last event (reopens the match; asks first)
  rematch NEW.jsonl    a new match with the same players and rules, recorded next
  seal                 how each player seals the record with their SSH key (ginlog seal, in a shell)
  table | help | quit"""


def run_recorder(
    path: str,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO | None = None,
    *,
    read_line: ReadLine | None = None,
    ask: ReadLine | None = None,
    interactive: bool | None = None,
) -> int:
    """Run the recorder until 'quit', a stop or the end of the input. Returns the exit code.

    Problems with the file itself go to ``stderr`` as one line; refused
    entries are part of the conversation and go to ``stdout``. ``read_line``
    and ``ask`` (for questions) default to the line editor when standard
    input and output are a terminal, else to lines read from ``stdin``;
    ``interactive`` (default: both are a terminal) says whether questions are
    asked at all.
    """
    if interactive is None:
        interactive = stdin.isatty() and stdout.isatty()
    rec = Recorder(stdout, stderr or sys.stderr, interactive=interactive)
    if read_line is not None:
        rec.read_line, rec.ask = read_line, ask or read_line
    elif interactive:
        rec.editors = rec.line_editor
    else:
        rec.read_line = rec.ask = piped(stdin)
    return rec.run(path)


class Recorder:
    """One run of the recorder: the session it writes through, and how it talks to the table.

    An imperative shell (it writes files and the terminal); what it says is
    built by the pure views.
    """

    def __init__(self, stdout: TextIO, stderr: TextIO, *, interactive: bool) -> None:
        self.stdout, self.stderr, self.interactive = stdout, stderr, interactive
        self.terminal = Terminal(stdout, stderr)  # every line said goes through the sink
        self.read_line: ReadLine = lambda prompt: None
        self.ask: ReadLine = self.read_line
        #: Makes the line reader and the question reader for a match file (a new editor per file: its history).
        self.editors: Callable[[str], tuple[ReadLine, ReadLine]] | None = None
        self.session: MatchSession | None = None
        self.refused = 0
        self.failed = False  # the file could not be read again: exit 1 whatever the mode

    # ------------------------------------------------------------------ what the editor asks

    def state(self) -> MatchState:
        assert self.session is not None
        return self.session.state

    def words(self) -> Sequence[str]:
        """The first words Tab offers: those that may be legal now (completion.words_now)."""
        return words_now(self.session.state) if self.session is not None else ENTRY_WORDS

    def say(self, text: str = "") -> None:
        # Through the sink, every line made visible: record text reaches the terminal seen, never acted on.
        self.terminal.line(text, flush=True)

    # ------------------------------------------------------------------ the conversation

    def run(self, path: str) -> int:
        """Record ``path`` (and any rematch started from it) until a stop; the exit code."""
        while True:
            if not self._open(path):
                return 1
            nxt = self._record(path)
            if nxt is None:
                break
            path = nxt
        return 1 if self.failed or (self.refused and not self.interactive) else 0

    def _open(self, path: str) -> bool:
        try:
            self.session = session = MatchSession.open(path)
        except GinlogError as exc:
            self.terminal.err(exc.one_line())
            return False
        if self.editors is not None:
            self.read_line, self.ask = self.editors(path)
        state = session.state
        self.say(f"{path}: {state.players[0]} v {state.players[1]}" + (f", resuming at event {session.seq}" if session.seq > 1 else ""))
        self.say(table_text(state))
        if state.finished:
            self._ended()
        return True

    def line_editor(self, path: str) -> tuple[ReadLine, ReadLine]:
        """The terminal's line editor for ``path``, its history kept beside the match file."""
        from ginlog.app.record.prompt import LineEditor, history_path

        editor = LineEditor(self.state, history=history_path(path), words=self.words)
        return editor.read_line, editor.ask

    def _record(self, path: str) -> str | None:
        """Take lines until a stop (None) or a rematch (its path)."""
        session = self.session
        assert session is not None
        try:
            nxt = self._lines()
        except KeyboardInterrupt:  # Ctrl-C from a plain reader: stop cleanly; what was written stays
            self.say("")
            nxt = None
        if nxt is None and not self.failed and not session.state.finished:
            self.say(f"Stopped at event {session.seq}; 'ginlog record {path}' resumes.")
        return nxt

    def _lines(self) -> str | None:
        session = self.session
        assert session is not None
        while True:
            st = session.state
            if self.interactive and not st.finished:
                acts = legal_actions(st)
                turn = st.players[st.hand.turn] if st.hand is not None else None
                self.say((f"{turn}: " if turn else "") + " | ".join(acts))
            raw = self.read_line("over> " if st.finished else "> ")
            if raw is None:
                return None
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            word = text.split()[0].lower()
            if word in ("quit", "exit", "q"):
                return None
            if word in ("help", "?", "h"):
                self.say(AFTER_HELP if st.finished else HELP)
                continue
            if word in ("table", "status"):
                self.say(table_text(st))
                continue
            if st.finished:
                nxt = self._after_end(text, word)
                if nxt is not None or self.failed:
                    return nxt
                continue
            if not self._entry(text) and not self._sound():
                return None

    def _sound(self) -> bool:
        """After a conflict the file is read again; False (said on stderr) if it cannot be."""
        assert self.session is not None
        try:
            self.session.reload()
        except GinlogError as err:
            self.terminal.err(err.one_line())
            self.failed = True
            return False
        return True

    def _entry(self, text: str, *, asked: bool = False) -> bool:
        """Check and append one entry (asking about a proposal at a terminal); False after a conflict.

        At a terminal an entry that takes something back or ends something (``undo``, ``void``, ``abandon``) is
        asked about first, naming what it does: one recalled from the history by Up and re-run by Enter undid a
        show (issue 21). ``asked``: the question was asked already (an undo that reopens a finished match).
        """
        session = self.session
        assert session is not None
        tl = session.timeline
        try:
            events = parse_entry(text, tl)
            if self.interactive and not asked and (question := self._destructive(tl, events)) is not None:
                answer = self.ask(question)
                if answer is None or yes_no(answer, default=False) is not True:
                    self.say("Not written.")
                    return True
            if self.interactive and any(isinstance(e, HandShown) and e.melds is None for e in events):
                events = self._confirm(tl, events)
                if not events:
                    return True
                tl = session.timeline
            undone = undone_text(session.path, tl) if any(isinstance(e, Correction) for e in events) else None
            steps = session.append(events)
        except Conflict as exc:
            self.say(f"refused: {exc.one_line()}; re-reading the file")
            self.refused += 1
            return False
        except GinlogError as exc:
            self.refused += 1
            self.say(f"refused: {' '.join(exc.message.split())} [{exc.rule}] (nothing written)")
            return True
        self._report(tl, steps, undone)
        return True

    def _report(self, tl: Timeline, steps: Sequence[Step], undone: str | None) -> None:
        """``ok N: what happened`` for each line written, each told against the state just before it."""
        session = self.session
        assert session is not None
        before = tl.state
        prev = before
        for step in steps:
            self.say(f"ok {step.seq}: {describe(step.event, prev, step.state)}")
            prev = step.state
        if undone is not None:
            self.say(undone)
        _after(session.state, before, self.say)
        if session.state.finished:
            self._ended()

    def _destructive(self, tl: Timeline, events: Sequence[Event]) -> str | None:
        """The question to ask before ``events`` are written, naming what they take back or end; None: none."""
        assert self.session is not None
        for e in events:
            if isinstance(e, Correction):
                target = undo_target(self.session.path, tl)
                return f"Undo {target}? [y/N] " if target else None  # nothing to undo: the reducer says so
            if isinstance(e, HandVoid) and tl.state.hand is not None:
                return f"Void hand {tl.state.hand.number} ({e.reason}): it is dealt again? [y/N] "
            if isinstance(e, MatchAbandoned):
                return f"Abandon the match here ({e.reason}): no more hands? [y/N] "
        return None

    def _confirm(self, tl: Timeline, events: list[Event]) -> list[Event]:
        """The proposal for a shown hand: the events to write (an entry typed instead may replace them), or none."""
        assert self.session is not None
        self.say(_proposal(tl, self.session.check(events)))
        shown = next(e for e in events if isinstance(e, HandShown))
        while True:
            answer = self.ask(f"Accept {shown.player}'s hand as arranged (event {tl.seq + len(events)})? [Y/n] (Enter = yes) ")
            if answer is None:
                self.say("Not written.")
                return []
            ok = yes_no(answer)
            if ok is True:
                return events
            if ok is False:
                self.say("Not written. Enter the show with melds: show [C C C] [C C C] C lay C")
                return []
            try:
                instead = parse_entry(answer, tl)
            except GinlogError:
                self.say("Answer y or n (Enter = yes), or type the entry to record instead.")
                continue
            self.say(f"taken as your entry instead: {answer.strip()}")
            return instead

    # ------------------------------------------------------------------ after the end

    def _ended(self) -> None:
        assert self.session is not None
        self.say(_final(self.session.state))
        if self.interactive:
            self.say("The match is over: 'undo' reopens it, 'rematch NEW.jsonl' starts the next, 'quit' stops.")
            self.say(f"Each player may seal it: {seal_command(self.session.path)}")

    def _after_end(self, text: str, word: str) -> str | None:
        """``undo``, ``rematch NEW.jsonl`` or ``seal`` (how to) once the match is over; the rematch's path to record next."""
        session = self.session
        assert session is not None
        if word in ("undo", "u"):
            if not reopens(session.timeline, [text]):  # the last effective event is a note after the end
                if not self._entry(text):
                    self._sound()
                return None
            if not self.interactive:
                self.refused += 1
                self.say(f"refused: the match is over and undo would reopen it; 'ginlog undo {session.path} --reopen' does (nothing written)")
                return None
            answer = self.ask(reopen_question(session.state, undo_target(session.path, session.timeline)))
            if answer is None or yes_no(answer, default=False) is not True:
                self.say("Not undone.")
                return None
            if not self._entry(text, asked=True):
                self._sound()
            return None
        if word == "rematch":
            try:
                words = split_words(text)
            except GinlogError:
                words = []
            if len(words) != 2:
                self.refused += 1
                self.say("refused: 'rematch NEW.jsonl' names the new match file (nothing written)")
                return None
            try:
                new = start_rematch(words[1], session.state)
            except GinlogError as exc:
                self.refused += 1
                self.say(f"refused: {exc.one_line()} (nothing written)")
                return None
            self.say(f"{new.path}: new match, {new.state.players[0]} v {new.state.players[1]}, a rematch of {session.path}")
            return new.path
        if word == "seal":  # offered, not done here: a seal is a player's, with their own key and passphrase
            self.say(f"To seal the record, each player in a shell: {seal_command(session.path)}"
                     " ('ginlog audit --allowed-signers FILE' then checks the seals against the club's keys)")
            return None
        self.refused += 1
        self.say("refused: the match is over: 'undo', 'rematch NEW.jsonl', 'seal' or 'quit' (nothing written)")
        return None


def _arranged(st: MatchState, shown: Shown) -> str:
    """A hand as ginlog arranged it: ``Ann's hand: [9♦ 10♦ J♦] lays off 5♥ 6♥, deadwood 4♣ Q♥ = 14``."""
    melds = " ".join(f"[{pretty(m.cards)}]" for m in shown.melds)
    lay = f" lays off {pretty(shown.layoffs)}," if shown.layoffs else ""
    dead = f" deadwood {pretty(shown.deadwood)} = {shown.deadwood_value}" if shown.deadwood else " (gin)"
    return f"ginlog arranges {st.players[shown.player]}'s hand: {melds or '(no melds)'}{lay}{dead}"


def _proposal(before: Timeline, after: Timeline) -> str:
    """What ginlog made of a hand shown without melds, melds and lay-offs named, before the table accepts it."""
    st = after.state
    if st.hand is not None and st.hand.ending is not None and st.hand.ending.knocker is not None and before.state.hand is not None and before.state.hand.phase == "show":
        return _arranged(st, st.hand.ending.knocker)
    if len(st.hands) > len(before.state.hands):
        h = st.hands[-1]
        out = h.result.out
        defender = next((x for x in h.shown if x.player != out), None)  # the defender's melds, not only the sum
        summary = hand_summary(h, st.players, st.rules, before.state.tally)
        return "\n".join([*([_arranged(st, defender)] if defender is not None else []), summary])
    return "ginlog arranges the hand"


def _after(st: MatchState, before: MatchState, say: Callable[[str], None]) -> None:
    """What the table is told after an entry: a hand's summary and the score, or who deals first."""
    if len(st.hands) > len(before.hands):
        say(hand_summary(st.hands[-1], st.players, st.rules, before.tally))
        say("Score: " + score_line(st))
        if not st.finished:
            say(f"Next: {_name(st, st.dealer)} deals hand {len(st.hands) + 1} ('upcard CARD').")
    elif st.phase == "ready" and before.phase == "setup":
        say(f"{_name(st, st.dealer)} deals the first hand ('upcard CARD').")


def _name(st: MatchState, seat: Seat | None) -> str | None:
    return None if seat is None else st.players[seat]


def _final(st: MatchState) -> str:
    return final_sheet(st)  # the views' (headings, Hollywood's games)
