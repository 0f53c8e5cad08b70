"""The page's state as data, its buttons (one per entry of the entry table) and the entry each tap types.

Pure: a function of the match state. Why the buttons come from
:data:`ginlog.app.record.language.TABLE`: a tap must be an entry the
terminal takes, typed for the player by :func:`entry_text` and parsed by the
same :func:`~ginlog.app.record.entry.parse_entry`, so the file is the same
whichever way it was recorded; a word added to the table without a button
fails a parity test. Which buttons are shown now follows the reducer's
:func:`~ginlog.play.reducer.legal_actions` (its prompts begin with the
table's words), and the card picker offers only cards that could be where
the entry says (a card known to be elsewhere is dimmed).

Record text leaves here shown (:func:`ginlog.text.visible`) and the page puts
it in the DOM as text, never as markup.

>>> from ginlog.play.reducer import start, apply
>>> from ginlog.log.events import MatchStarted, FirstDealer, HandDealt
>>> from ginlog.game.rules import preset
>>> from ginlog.game.cards import parse_card
>>> tl = start(MatchStarted(players=("Ann", "Mary Lee"), rules=preset("standard")))
>>> [b["word"] for b in buttons(tl.state, 1)]
['dealer', 'cut', 'note', 'abandon']
>>> entry_text({"word": "dealer", "player": 1}, tl.state)
"dealer 'Mary Lee'"
>>> tl = apply(apply(tl, FirstDealer(dealer="Ann", how="agreed")), HandDealt(dealer="Ann", upcard=parse_card("7h")))
>>> [b["word"] for b in buttons(tl.state, 3)]
['take', 'pass', 'void', 'note', 'undo', 'abandon']
>>> entry_text({"word": "take"}, tl.state), entry_text({"word": "note", "text": "Bob's deal"}, tl.state)
('take', "note Bob's deal")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ginlog.app.record.retype import entry_for
from ginlog.app.record.language import TABLE
from ginlog.app.views.match import named, score_line, winner_name
from ginlog.app.views.match_json import games_json, table_json
from ginlog.errors import GinlogError
from ginlog.game.cards import Card, mask_cards, parse_card
from ginlog.log.event_types import MAX_TEXT
from ginlog.log.events import FirstDealer, HandResultOnly
from ginlog.play.reducer import legal_actions
from ginlog.play.state import ALL_CARDS, MatchState
from ginlog.text import visible

__all__ = ["BUTTONS", "NOT_BUTTONS", "buttons", "entry_text", "page_state", "TapError", "ALWAYS"]


class TapError(GinlogError):
    """A tap that does not make an entry (a missing card, a number out of range): refused, nothing written."""


#: One button per word of the entry table (and ``pad`` for its ``NAME +POINTS`` row): its label, and what the
#: page asks for before sending it: ``card`` (one, ``optional`` or not), ``cards`` (two for a cut, a hand for a
#: show), ``player``, ``number`` (points), ``result`` (how, who, deadwood) or ``text``.
BUTTONS: Final[dict[str, dict[str, Any]]] = {
    "dealer": {"label": "Deals first", "needs": "player"},
    "cut": {"label": "Cut for deal", "needs": "cut"},
    "upcard": {"label": "Deal: the upcard", "needs": "card"},
    "take": {"label": "Take the upcard / pile", "needs": ""},
    "pass": {"label": "Pass", "needs": ""},
    "stock": {"label": "Draw from stock", "needs": "card", "optional": True},
    "discard": {"label": "Discard", "needs": "card"},
    "knock": {"label": "Knock", "needs": "card"},
    "gin": {"label": "Gin", "needs": "card"},
    "biggin": {"label": "Big gin", "needs": ""},
    "show": {"label": "Show the hand", "needs": "hand"},
    "result": {"label": "Score-pad result", "needs": "result"},
    "pad": {"label": "Score pad: points", "needs": "points"},
    "void": {"label": "Throw in (void)", "needs": "text", "optional": True},
    "note": {"label": "Note", "needs": "text"},
    "undo": {"label": "Undo", "needs": ""},
    "abandon": {"label": "Abandon the match", "needs": "text", "optional": True},
}
#: The table's rows that are no button of their own, and why (the parity test holds every other row to a button).
NOT_BUTTONS: Final[dict[str, str]] = {
    "s d 7h": "a whole turn is two taps: the draw, then its end",
    "show [C C C] [C C C] C lay C C": "the hand is tapped; ginlog arranges it and proposes the lay-offs, the players confirm",
    "CARD": "a card alone is the terminal's shortcut for the phase's one card entry: on the page that entry's button"
            " takes the card",
    "NAME ENTRY": "the page knows whose turn it is and names the player on every button; it never types a name",
}
#: After the end, as at the recorder's ``over>`` prompt: a rematch (not an entry: it starts the next match's file).
AFTER_END: Final[dict[str, dict[str, Any]]] = {"rematch": {"word": "rematch", "label": "Rematch", "needs": "rematch"}}
#: Buttons offered whenever the match is on, whatever the phase (undo needs something to undo).
ALWAYS: Final = ("note", "undo", "abandon")


def _seat(state: MatchState, tap: Mapping[str, Any]) -> str:
    p = tap.get("player")
    if not isinstance(p, int) or isinstance(p, bool) or p not in (0, 1):  # (0.0 == 0, but is no seat)
        raise TapError("say which player (0 or 1)", rule="tap")
    return state.players[p]


def _cards(tap: Mapping[str, Any], low: int, high: int) -> list[Card]:
    raw = tap.get("cards", [])
    if not isinstance(raw, list) or not low <= len(raw) <= high or not all(isinstance(c, str) and len(c) <= 4 for c in raw):
        raise TapError(f"tap {low} to {high} card(s)" if low != high else f"tap {low} card(s)", rule="tap")
    return [parse_card(c) for c in raw]


def _number(value: object, what: str, top: int = 9999) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise TapError(f"{what}: a whole number from 0 to {top}", rule="tap")
    return value


def _text(tap: Mapping[str, Any], required: bool) -> str:
    text = tap.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise TapError(f"a text of at most {MAX_TEXT:,} characters", rule="tap")
    try:  # (JSON's "\ud800" is a lone surrogate, which no line can carry: refused here, where a preview meets it too)
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TapError("a text holds a lone surrogate (\\uD800 to \\uDFFF alone), which is no character", rule="tap") from None
    text = " ".join(text.split())  # one line, as a terminal's
    if required and not text:
        raise TapError("write the text first", rule="tap")
    return text


def entry_text(tap: Mapping[str, Any], state: MatchState) -> str:
    """The entry a tap types: the terminal's words, names quoted as the entry language quotes them.

    Raises :class:`TapError` for a tap that is not a whole entry; whether the
    entry is legal is the parser's and the reducer's to say, as at a terminal.

    >>> from ginlog.play.reducer import start
    >>> from ginlog.log.events import MatchStarted
    >>> from ginlog.game.rules import preset
    >>> st = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard"))).state
    >>> entry_text({"word": "cut", "cards": ["5h", "kd"]}, st), entry_text({"word": "pad", "player": 1, "number": 25}, st)
    ('cut Ann 5H Bob KD', 'Bob +25')
    >>> entry_text({"word": "result", "how": "knock", "player": 0, "numbers": [7, 30]}, st)
    'result knock Ann 7 30'
    """
    word = tap.get("word")
    if not isinstance(word, str) or word not in BUTTONS:
        raise TapError("no such button", rule="tap")
    try:
        if word == "dealer":
            return entry_for(FirstDealer(dealer=_seat(state, tap), how="agreed")) or ""
        if word == "cut":
            a, b = _cards(tap, 2, 2)
            return f"cut {_typed(state.players[0])} {a} {_typed(state.players[1])} {b}"
        if word in ("upcard", "stock", "gin"):
            cards = _cards(tap, 0, 1)
            return " ".join([word, *map(str, cards)])
        if word in ("discard", "knock"):
            return f"{word} {_cards(tap, 1, 1)[0]}"
        if word == "show":
            return "show " + " ".join(map(str, _cards(tap, 1, 11)))
        if word == "pad":
            points = _number(tap.get("number"), "points")
            return entry_for(HandResultOnly(how="points", winner=_seat(state, tap), points=points)) or ""
        if word == "result":
            return _result(state, tap)
        if word in ("note", "void", "abandon"):
            text = _text(tap, required=word == "note")
            return f"{word} {text}" if text else word
        return word  # take, pass, biggin, undo
    except (ValueError, TypeError) as exc:  # an attrs validator's refusal of a value
        raise TapError(f"not an entry: {exc}", rule="tap") from None


def _typed(name: str) -> str:
    """A name as the entry language types it (quoted when it holds a space): ``entry_for``'s own quoting."""
    return (entry_for(FirstDealer(dealer=name, how="agreed")) or "")[len("dealer "):]


def _result(state: MatchState, tap: Mapping[str, Any]) -> str:
    how = tap.get("how")
    if how == "void":
        return "result void"
    if how not in ("knock", "gin", "biggin"):
        raise TapError("a result is knock, gin, biggin or void", rule="tap")
    numbers = tap.get("numbers")
    need = 2 if how == "knock" else 1
    if not isinstance(numbers, list) or len(numbers) != need:
        raise TapError(f"give {need} deadwood count(s)", rule="tap")
    counts = [_number(n, "deadwood", 200) for n in numbers]
    return f"result {how} {_typed(_seat(state, tap))} " + " ".join(map(str, counts))


def _mask_text(mask: int) -> list[str]:
    return [str(c) for c in mask_cards(mask)]


def _picker(word: str, state: MatchState) -> dict[str, Any]:
    """Which cards the picker offers for ``word`` now, which are already chosen, and how many to choose."""
    hand = state.hand
    if word in ("upcard", "cut") or hand is None:
        return {"choosable": _mask_text(ALL_CARDS), "chosen": [], "count": 2 if word == "cut" else 1}
    free = ALL_CARDS & ~hand.placed_mask()  # in the stock or hidden in a hand, as far as the record says
    if word == "stock":
        return {"choosable": _mask_text(free), "chosen": [], "count": 1}
    i = hand.turn
    mine = hand.known[i]
    could = mine | (free if mine.bit_count() < hand.sizes[i] else 0)
    if word == "show":
        return {"choosable": _mask_text(could), "chosen": _mask_text(mine), "count": hand.sizes[i]}
    return {"choosable": _mask_text(could), "chosen": [], "count": 1}


def _now(state: MatchState) -> list[str]:
    """The table's words legal now: the first word of each of the reducer's prompts."""
    words: list[str] = []
    for act in legal_actions(state):
        w = act.split()[0]
        if w not in words:
            words.append(w)
    if "result" in words:
        words.append("pad")
    return words


def buttons(state: MatchState, seq: int) -> list[dict[str, Any]]:
    """The buttons to show now, in the table's order of play, each with its picker when it needs cards."""
    if state.finished:  # the recorder's words after the end: undo (which reopens, once confirmed) and rematch
        return [_button("undo", state), AFTER_END["rematch"]] if seq > 1 else [AFTER_END["rematch"]]
    words = _now(state)
    if state.hand is not None:
        words.append("void")
    words.extend(w for w in ALWAYS if w != "undo" or seq > 1)
    return [_button(w, state) for w in words if w in BUTTONS]


def _button(word: str, state: MatchState) -> dict[str, Any]:
    b = {"word": word, **BUTTONS[word]}
    if b["needs"] in ("card", "cut", "hand"):
        b.update(_picker(word, state))
    if word == "gin" and state.hand is not None:
        i = state.hand.turn
        b["optional"] = state.hand.known[i].bit_count() == state.hand.sizes[i]  # the solver picks the card
    if word == "upcard" and state.rules.deal_eleven:
        b["optional"] = True
    return b


def _table_words() -> list[str]:
    """Every word of the entry table and the shapes of its wordless rows (for the parity test)."""
    return [e.word or e.shapes[0] for e in TABLE]


def page_state(state: MatchState, seq: int, label: str, recent: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """What the page draws: the table (``show --json``'s shape), the score and Hollywood's games, the recent
    lines (already described, so shown), whose turn and what they may do, and the buttons."""
    players = state.players
    table = table_json(state)
    hand = state.hand
    says = ""
    if state.phase == "setup":
        says = "Who deals first?"
    elif state.phase == "ready":
        says = f"{players[state.dealer]} deals hand {len(state.hands) + 1}" if state.dealer is not None else ""
    elif hand is not None:
        verb = {"offer": "take or pass the upcard", "wall": "take only to knock or go gin, or pass",
                "draw": "draw", "discard": "discard, knock or go gin", "show": "show the hand"}.get(hand.phase, hand.phase)
        says = f"{players[hand.turn]} to {verb}"
    elif state.phase == "over":
        says = f"The match is over: {winner_name(state) or 'nobody'} wins"
    elif state.phase == "abandoned":
        says = f"Match abandoned: {state.abandoned}"
    return {
        "label": visible(label),
        "seq": seq,
        "players": [visible(p) for p in players],
        "phase": state.phase,
        "finished": state.finished,
        "says": visible(says),
        "score": score_line(state),
        "totals": {visible(k): v for k, v in named(players, state.totals()).items()},
        "games": [{"number": g["number"], "totals": {visible(k): v for k, v in g["totals"].items()},
                   "winner": None if g["winner"] is None else visible(g["winner"])} for g in games_json(state)],
        "table": {"hand": table["hand"], "dealer": _shown(table["dealer"]), "turn": _shown(table["turn"]),
                  "to": table["to"], "stock": table["stock"], "pile": table["pile"][-3:],
                  "hands": None if table["hands"] is None else [
                      {"player": visible(p), **h} for p, h in table["hands"].items()]},
        "hands_done": len(state.hands),
        "recent": [{"seq": s, "text": t} for s, t in recent],
        "buttons": buttons(state, seq),
    }


def _shown(name: str | None) -> str | None:
    return None if name is None else visible(name)
