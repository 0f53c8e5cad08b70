"""The live recorder behind ``ginlog record``: prompt, check, append, report.

It resumes whatever the file holds, says whose turn it is and what they may
do, and takes one entry at a time. Each entry is checked by the reducer
before anything is written; a refused entry writes nothing. It reads
standard input line by line, so it works the same at a terminal and with
entries piped in (then it answers every proposal with yes and exits 1 if any
entry was refused, so a script notices).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ginlog.app.entry import parse_entry
from ginlog.app.views import describe, hand_summary, named, pretty, score_line, table_text, winner_name
from ginlog.errors import Conflict, GinlogError
from ginlog.game.seats import Seat
from ginlog.log.events import HandShown
from ginlog.match.session import MatchSession
from ginlog.play.reducer import legal_actions
from ginlog.play.state import MatchState, Timeline
from ginlog.text import shown

__all__ = ["run_recorder"]

HELP = """Entries (whose turn it is comes from the table):
  dealer NAME | cut NAME CARD NAME CARD     first dealer
  upcard CARD                               deal the next hand (CARD turned up)
  take | pass                               the upcard offer; 'take' also takes the pile's top card
  stock [CARD]                              draw from the stock
  discard CARD | knock CARD | gin [CARD] | biggin
  show CARD...                              the hand at the end; ginlog arranges it
  show [C C C] [C C C] C lay C C            melds given, deadwood, lay-offs in order
  result knock NAME K D | result gin NAME D | result void     a score-pad hand
  note TEXT | undo | void REASON | abandon REASON
  table | help | quit
Cards: 7h, 10h, th, 7♥ ..."""


def run_recorder(path: str, stdin: TextIO, stdout: TextIO, stderr: TextIO | None = None) -> int:
    """Run the recorder until the match ends, the input ends, or 'quit'. Returns the exit code.

    Problems with the file itself go to ``stderr`` as one line; refused
    entries are part of the conversation and go to ``stdout``.
    """
    import sys

    stderr = stderr or sys.stderr
    interactive = stdin.isatty() and stdout.isatty()

    def say(text: str = "") -> None:
        # Every line shown (ginlog.text.shown): record text reaches the terminal seen, never acted on.
        stdout.write("\n".join(map(shown, text.split("\n"))) + "\n")
        stdout.flush()

    try:
        session = MatchSession.open(path)
    except GinlogError as exc:
        stderr.write(exc.one_line() + "\n")
        return 1
    refused = 0
    state = session.state
    say(f"{path}: {state.players[0]} v {state.players[1]}" + (f", resuming at event {session.seq}" if session.seq > 1 else ""))
    say(table_text(state))
    try:
        while not session.state.finished:
            tl = session.timeline
            if interactive:
                acts = legal_actions(tl.state)
                turn = tl.state.players[tl.state.hand.turn] if tl.state.hand is not None else None
                stdout.write(shown((f"{turn}: " if turn else "") + " | ".join(acts)) + "\n> ")
                stdout.flush()
            raw = stdin.readline()
            if not raw:
                break
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            word = text.split()[0].lower()
            if word in ("quit", "exit", "q"):
                break
            if word in ("help", "?", "h"):
                say(HELP)
                continue
            if word in ("table", "status"):
                say(table_text(tl.state))
                continue
            try:
                events = parse_entry(text, tl)
                if interactive and any(isinstance(e, HandShown) and e.melds is None for e in events):
                    say(_proposal(tl, session.check(events)))
                    stdout.write("Accept? [Y/n] ")
                    stdout.flush()
                    answer = stdin.readline().strip().lower()
                    if answer in ("n", "no"):
                        say("Not written. Enter the show with melds: show [C C C] [C C C] C lay C")
                        continue
                session.append(events)
            except Conflict as exc:
                say(f"refused: {exc.one_line()}; re-reading the file")
                refused += 1
                try:
                    session.reload()
                except GinlogError as err:
                    stderr.write(err.one_line() + "\n")
                    return 1
                continue
            except GinlogError as exc:
                refused += 1
                say(f"refused: {' '.join(exc.message.split())} [{exc.rule}] (nothing written)")
                continue
            before = tl.state
            for ev in events:
                say(f"ok {session.seq}: {describe(ev, before, session.state)}")
            _after(session.state, before, say)
    except KeyboardInterrupt:  # Ctrl-C at the table: stop cleanly; what was written stays
        say("")

    if session.state.finished:
        say(_final(session.state))
    else:
        say(f"Stopped at event {session.seq}; 'ginlog record {path}' resumes.")
    return 1 if refused and not interactive else 0


def _proposal(before: Timeline, after: Timeline) -> str:
    st = after.state
    if st.hand is not None and st.hand.ending is not None and st.hand.ending.knocker is not None and before.state.hand is not None and before.state.hand.phase == "show":
        k = st.hand.ending.knocker
        return f"ginlog arranges {st.players[k.player]}'s hand: " + " ".join(f"[{pretty(m.cards)}]" for m in k.melds) + (
            f" deadwood {pretty(k.deadwood)} = {k.deadwood_value}" if k.deadwood else " (gin)"
        )
    if len(st.hands) > len(before.state.hands):
        return "ginlog arranges: " + hand_summary(st.hands[-1], st.players)
    return "ginlog arranges the hand"


def _after(st: MatchState, before: MatchState, say: Callable[[str], None]) -> None:
    """What the table is told after an entry: a hand's summary and the score, or who deals first."""
    if len(st.hands) > len(before.hands):
        say(hand_summary(st.hands[-1], st.players))
        say("Score: " + score_line(st))
        if not st.finished:
            say(f"Next: {_name(st, st.dealer)} deals hand {len(st.hands) + 1} ('upcard CARD').")
    elif st.phase == "ready" and before.phase == "setup":
        say(f"{_name(st, st.dealer)} deals the first hand ('upcard CARD').")


def _name(st: MatchState, seat: Seat | None) -> str | None:
    return None if seat is None else st.players[seat]


def _final(st: MatchState) -> str:
    if st.phase == "abandoned":
        return f"Match abandoned: {st.abandoned}"
    b = st.tally.bonuses(st.rules)
    lines = ["Final sheet:"]
    for h in st.hands:
        won = _name(st, h.score.winner) or "-"
        lines.append(f"  {h.number:>2}. {st.players[h.dealer]:<8} {h.score.outcome:<9} {won:<8} {h.score.points:>4}")
    for label, part in (("game bonus", b.game), ("boxes", b.boxes), ("shutout", b.shutout)):
        for p, v in named(st.players, part).items():
            lines.append(f"  {label}: {p} +{v}")
    lines.append("  Totals: " + score_line(st))
    lines.append(f"Winner: {winner_name(st) or 'nobody'}")
    return "\n".join(lines)
