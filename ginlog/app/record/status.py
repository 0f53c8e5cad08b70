"""The recorder's status line: whose turn, the phase, the stock, the score, in one line.

Pure and shown (:func:`ginlog.text.visible`): names come from the record.
It is the bottom toolbar at a terminal (:mod:`ginlog.app.record.prompt`), so the
table can glance at it instead of asking for ``table``.

>>> from ginlog.game.rules import preset
>>> from ginlog.game.scoring import Tally
>>> from ginlog.play.state import MatchState
>>> status_line(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally()))
'Choose the first dealer: dealer NAME | cut NAME CARD NAME CARD · Ann 0, Bob 0 (to 100)'
"""

from __future__ import annotations

from typing import Final

from ginlog.app.views.match import score_line, target_words, winner_name
from ginlog.play.state import MatchState
from ginlog.text import visible

__all__ = ["status_line", "result_text", "seal_command", "AFTER_HINT"]

#: What the recorder offers once the match is over.
AFTER_HINT: Final = "undo | rematch NEW.jsonl | seal | quit"


def seal_command(path: str) -> str:
    """The command that seals the match at ``path``, as the recorder offers it when the match ends.

    The recorder does not seal itself: a seal is each player's, with their
    own key (a passphrase, an agent, a hardware key), so it names the shell
    command; the path is quoted for a shell and made visible (a path is text
    from outside, shown on the terminal).

    >>> seal_command("club/friday night.jsonl")
    "ginlog seal 'club/friday night.jsonl' --key KEY --as NAME"
    """
    import shlex

    return visible(f"ginlog seal {shlex.quote(path)} --key KEY --as NAME")

_DOING: Final = {
    "offer": "to take or pass the upcard",
    "draw": "to draw",
    "discard": "to discard, knock or go gin",
    "wall": "to take only to knock, or pass",
    "show": "to show their hand",
    "defend": "to show their hand",
}


def result_text(state: MatchState) -> str:
    """How the match ended, for a question or the status line: ``Ann won 112-40``.

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import Tally
    >>> result_text(MatchState(players=("Ann", "Bob"), rules=preset("standard"), tally=Tally(),
    ...                        phase="abandoned", abandoned="rain"))
    'abandoned: rain'
    """
    if state.phase == "abandoned":
        return visible(f"abandoned: {state.abandoned}")
    a, b = state.totals()  # under Hollywood: over the three games, bonuses included
    won = winner_name(state)
    if won is None:
        return visible(f"nobody won, {a}-{b}")
    hi, lo = (a, b) if state.players[0] == won else (b, a)
    return visible(f"{won} won {hi}-{lo}")


def status_line(state: MatchState) -> str:
    """One line: the hand, who is to do what, the stock and the pile's top, the score.

    Under Hollywood scoring the score is the three games, each open or closed
    (:func:`~ginlog.app.views.match.score_line`), never one sum "to 100":

    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.scoring import HandScore, Tally
    >>> rules = preset("hollywood")
    >>> t = Tally().add(rules, HandScore("gin", 1, 104))
    >>> status_line(MatchState(players=("Ann", "Dev"), rules=rules, tally=t, phase="ready", dealer=1))
    'Hand 1: Dev deals (upcard CARD) · game 1 Ann 0, Dev 104 (closed: Dev won, bonuses Dev 220) · game 2 Ann 0, Dev 0 (open) · game 3 Ann 0, Dev 0 (open) (each game to 100)'
    """
    score = f"{score_line(state)} {target_words(state.rules)}"
    players = state.players
    if state.finished:
        return visible(f"Match over ({result_text(state)}) · {AFTER_HINT}")
    if state.phase == "setup":
        return visible(f"Choose the first dealer: dealer NAME | cut NAME CARD NAME CARD · {score}")
    hand = state.hand
    if hand is None:
        dealer = "?" if state.dealer is None else players[state.dealer]
        return visible(f"Hand {len(state.hands) + 1}: {dealer} deals (upcard CARD) · {score}")
    doing = _DOING.get(hand.phase, hand.phase)
    top = f" · pile {hand.pile_top.pretty}" if hand.pile_top is not None else ""
    return visible(f"Hand {hand.number} · {players[hand.turn]} {doing} · stock {hand.stock}{top} · {score}")
