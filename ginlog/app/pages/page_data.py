"""What the replay page shows, as plain JSON data: one frame per event and the match around them.

This is the only module of the page that reads the match state: :func:`frame`
turns one step of a match file into a dict of names, numbers and card texts
(``"7H"``), :class:`CompactFrames` writes each frame as what changed since the
one before (the page's script rebuilds the frames), and :func:`match_part` is
the match-level part (players, rules, score sheet, verdict, every finished
hand); :func:`match_data` is the whole at once. The page itself
(:mod:`ginlog.app.pages.page`) and its script see nothing but this data, so a change
to the state's shape is adapted here and nowhere else.

Every string that reaches the data passes through :func:`ginlog.text.visible`
(:func:`visible`), so a control, bidi or invisible character from the record
is seen as ``␛`` or ``<U+202E>`` in the page and never acts on it.

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import start, apply
>>> from ginlog.game.rules import preset
>>> events = simulate_match(preset("standard"), seed=3, max_hands=1)
>>> tl = start(events[0], 1)
>>> f = frame(Step(1, 1, events[0], tl, "0" * 64), None)
>>> f["n"], f["text"], f["phase"]
(1, 'Match between Ann and Bob (ginlog 0.1.0)', 'setup')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from ginlog.app.check.verdicts import Verdict as FileVerdict
from ginlog.caveats import Caveat
from ginlog.errors import EventError, GinlogError, StoreError
from ginlog.game.cards import Card, cards_mask, mask_cards
from ginlog.game.rules import PRESETS, Rules, rules_to_dict
from ginlog.game.scoring import Tally
from ginlog.log.events import CHANGES_NOTHING, TAKES_BACK, Correction, HandDealt, event_type
from ginlog.log.reader import Source
from ginlog.match.policy import POLICY
from ginlog.match.reading import Step, walk
from ginlog.match.visitors import Steps
from ginlog.play.state import FinishedHand, MatchState
from ginlog.text import visible as visible_text

from ginlog.app.views.match import describe, hand_summary, winner_name

from ginlog.app.views.match_json import score_json

__all__ = [
    "Verdict", "frame", "match_data", "match_part", "page_title", "CompactFrames", "compact_frames", "visible", "read_steps",
    "CODES", "SEAT_CODES", "TEXTS_KEPT",
]


@attrs.frozen
class Verdict:
    """The audit's word on the file the page shows: problems (with their places) and the head hash."""

    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    head: str | None = None
    #: who sealed the record, in :func:`~ginlog.match.seals.sealed_words`' words (``sealed by Ann and Bob at
    #: event 214`` under a club's keys, else ``signed by key SHA256:..., not checked against a club's keys``), or
    #: None without a valid seal: the page says it beside the verdict, as ``score`` and ``audit`` do.
    sealed: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @classmethod
    def of(cls, errors: Sequence[GinlogError], head: str | None, warnings: Sequence[Caveat] = ()) -> Verdict:
        """From what a collecting read gathered, each problem and warning as its one line (place, message, rule)."""
        return cls(tuple(e.one_line() for e in errors), tuple(w.one_line() for w in warnings), head)

    @classmethod
    def of_file(cls, verdict: FileVerdict, head: str | None, sealed: str | None = None) -> Verdict:
        """From the file's :class:`~ginlog.app.check.verdicts.Verdict` (what every command says of it): the
        problems and warnings kept, each in one line, and a line for those counted but not kept; ``sealed``, who
        sealed it (:attr:`sealed`)."""
        from ginlog.app.check.audit import error_line

        errors = [error_line(e) for e in verdict.errors]
        more = verdict.errors_total - len(verdict.errors)
        if more > 0:
            by_rule = ", ".join(f"{k} {v:,}" for k, v in verdict.errors_by_rule.items())
            errors.append(f"{verdict.path}: {more:,} more problems not listed; by rule: {by_rule} [max-errors]")
        return cls(tuple(errors), tuple(verdict.warning_lines()), head, sealed)


def _cards(cards: Sequence[Card] | int) -> list[str]:
    """Canonical card texts; a mask comes out sorted by suit and rank."""
    if isinstance(cards, int):
        cards = mask_cards(cards)
    return [str(c) for c in cards]


def _result(h: FinishedHand, players: tuple[str, str], rules: Rules | None = None, before: Tally | None = None) -> dict[str, Any]:
    """A finished hand: how it ended, what it scored, and each hand as laid out (melds, lay-offs, deadwood).

    ``rules`` and the tally ``before`` the hand: under Hollywood its summary
    says which games it scored in and which it closed.
    """
    s = h.score
    return {
        "number": h.number,
        "dealer": players[h.dealer],
        "summary": hand_summary(h, players, rules, before),
        "outcome": s.outcome,
        "winner": None if s.winner is None else players[s.winner],
        "points": s.points,
        "totals": list(h.totals),
        "recorded": h.recorded,
        "shown": [
            {
                "seat": x.player,
                "player": players[x.player],
                "melds": [_cards(m.cards) for m in x.melds],
                "layoffs": _cards(x.layoffs),
                "deadwood": _cards(x.deadwood),
                "deadwoodValue": x.deadwood_value,
                "declared": x.declared,
            }
            for x in h.shown
        ],
    }


def frame(step: Step, before: MatchState | None) -> dict[str, Any]:
    """The table after one event, as plain data (``before`` is the state before it, None for the first).

    Keys: ``n`` (event number), ``line``, ``type``, ``text`` (the event in
    words), ``phase`` (the match's), ``totals`` (running, in seat order), ``done``
    (hands finished),
    ``kind`` (``note``/``correction``/``play``), ``undoes`` (a correction's
    target), ``deal`` (a hand starts here). During a hand: ``hand`` (number),
    ``handPhase``, ``turn`` and ``dealer`` (names), ``knockLimit``, ``stock``,
    ``pile`` (bottom first), ``ending`` (how, player, face-down card) and
    ``seats``: per player ``known`` (cards the record places in that hand),
    ``hidden`` (how many more it holds) and ``public`` (what the other player
    has seen of it: cards taken from the pile, and the hand once shown).
    Between hands: ``dealer`` (who deals next) and, once a hand is finished,
    ``result`` (the last finished hand) with ``just`` when this event
    finished it; ``seats`` then hold the hands as shown.
    """
    state, event = step.state, step.event
    players = state.players
    totals = state.totals()
    f: dict[str, Any] = {
        "n": step.seq,
        "line": step.line,
        "type": event_type(event),
        "text": describe(event, before, state),
        "phase": state.phase,
        "totals": list(totals),
        "done": len(state.hands),
        # The list's styles by the event's traits: a no-op reads as a note, a take-back as a correction.
        "kind": "note" if type(event) in CHANGES_NOTHING else "correction" if type(event) in TAKES_BACK else "play",
    }
    if isinstance(event, Correction):
        f["undoes"] = event.undoes
    if isinstance(event, HandDealt):
        f["deal"] = True
    hand = state.hand
    if hand is not None:
        public = list(hand.seen)
        ending = hand.ending
        if ending is not None:
            f["ending"] = {"how": ending.how, "player": players[ending.player], "card": None if ending.card is None else str(ending.card)}
            if ending.knocker is not None:
                public[ending.knocker.player] |= cards_mask(ending.knocker.cards)
        f.update(
            hand=hand.number,
            handPhase=hand.phase,
            turn=players[hand.turn],
            dealer=players[hand.dealer],
            knockLimit=hand.knock_limit,
            stock=hand.stock,
            pile=_cards(hand.pile),
            seats=[
                {
                    "known": _cards(hand.known[i]),
                    "hidden": hand.sizes[i] - hand.known[i].bit_count(),
                    "public": _cards(public[i]),
                }
                for i in range(2)
            ],
        )
        return f
    f["dealer"] = None if state.dealer is None else players[state.dealer]
    if state.hands:
        last = state.hands[-1]
        f["result"] = _result(last, players, state.rules, _tally_before_last(state))
        f["just"] = before is not None and len(before.hands) < len(state.hands)
        if last.shown:
            seats: list[dict[str, Any]] = [{"known": [], "hidden": 0, "public": []} for _ in range(2)]
            for x in last.shown:
                cards = _cards(sorted(x.cards))
                seats[x.player] = {"known": cards, "hidden": 0, "public": cards}
            f["seats"] = seats
    return f


def _tally_before_last(state: MatchState) -> Tally | None:
    """Under Hollywood, the tally before the last finished hand (for its summary's games); None otherwise.

    Derived again from the hands (a Hollywood match is over once its three
    games close, so it has few), and only between hands.
    """
    if state.rules.hollywood is None:
        return None
    tally = Tally()
    for h in state.hands[:-1]:
        tally = tally.add(state.rules, h.score)
    return tally


def _results(state: MatchState) -> list[dict[str, Any]]:
    """Every finished hand's :func:`_result`, the tally kept along (each hand's summary says its games)."""
    out, tally, rules = [], Tally(), state.rules
    for h in state.hands:
        out.append(_result(h, state.players, rules, tally))
        if not tally.over:
            tally = tally.add(rules, h.score)
    return out


def _rules(state: MatchState) -> dict[str, Any]:
    preset = next((name for name, r in PRESETS.items() if r == state.rules), None)
    return {"preset": preset, "knobs": rules_to_dict(state.rules)}


def page_title(state: MatchState, title: str | None = None) -> str:
    """The page's title: ``title``, else the match's own, else the players' names (visible)."""
    players = state.players
    return visible_text(title or state.title or f"{players[0]} v {players[1]}")


def match_part(state: MatchState, verdict: Verdict, title: str | None = None) -> dict[str, Any]:
    """The match-level part of the page's data (title, players, rules, score sheet, hands, verdict), visible."""
    players = state.players
    part = {
        "title": page_title(state, title),
        "players": list(players),
        "tool": state.tool,
        "rules": _rules(state),
        "sheet": score_json(state, verdict.head),
        "hands": _results(state),
        "winner": winner_name(state),
        "abandoned": state.abandoned,
        "verdict": {"ok": verdict.ok, "errors": list(verdict.errors), "warnings": list(verdict.warnings), "head": verdict.head,
                    "sealed": verdict.sealed},
    }
    cleaned: dict[str, Any] = visible(part)
    return cleaned


#: A frame's keys that belong to its event, not to the table: never carried over from the frame before.
_EVENT_KEYS: Final = frozenset({"n", "line", "type", "kind", "text", "undoes", "deal"})
#: The table's keys of a frame, by their short name in a compact frame (``seats`` is three keys a seat).
CODES: Final = {
    "phase": "P", "totals": "T", "done": "D", "dealer": "d", "hand": "h", "handPhase": "H", "turn": "t",
    "knockLimit": "L", "stock": "s", "pile": "p", "ending": "e", "result": "r", "just": "j",
}
#: A seat's keys, by their short name (the seat's number follows: ``k0``, ``h1``).
SEAT_CODES: Final = {"known": "k", "hidden": "h", "public": "p"}
#: Keys whose value is a player's name, written as the seat's number (None stays None).
_NAMED: Final = frozenset({"dealer", "turn"})
#: Keys whose value is a list of cards, written as one string of their two-character texts.
_CARDS: Final = frozenset({"pile", "known", "public"})
#: How many distinct texts a page numbers; a text seen again is then written as its number.
TEXTS_KEPT: Final = 4096


class CompactFrames:
    """A match's frames in the page's compact form, one at a time, each as what changed since the one before.

    A compact frame (a JSON object) holds: ``x``, the event in words, or the
    number of a text given before (texts are numbered in the order they first
    come, the first ``texts_kept`` distinct ones: the page says how many); ``y``, the event's
    number in :attr:`types` (its ``type``, ``kind`` and whether it ``deal``\\ s)
    when it differs from the frame before's; ``n`` and ``l`` (the event's
    number and line) only when not one more than the frame before's;
    ``u``, a correction's ``undoes``; then each of the table's keys
    (:data:`CODES`, :data:`SEAT_CODES` with the seat's number) whose value
    changed, and ``-``, the table's keys the frame before had and this one has
    not. Names of the players are their seat's number, lists of cards one
    string (``"7H8C"``). The page's script rebuilds every frame from these
    (``viewer.js``: ``expand``); the tests hold a decoder of their own to
    :func:`frame` for every step.

    Only the frame before is kept (and the numbered texts), so a page is
    written as the match is read, in memory that does not grow with it.
    """

    def __init__(self, players: Sequence[str], texts_kept: int = TEXTS_KEPT) -> None:
        self.players = [visible_text(p) for p in players]
        self.texts_kept = texts_kept
        self.types: list[dict[str, Any]] = []
        self._type_numbers: dict[tuple[str, str, bool], int] = {}
        self._texts: dict[str, int] = {}
        self._table: dict[str, Any] = {}
        self._type = -1
        self._n = self._line = 0

    def _seat(self, name: str | None) -> int | None:
        return None if name is None else self.players.index(name)

    def _flat(self, f: dict[str, Any]) -> dict[str, Any]:
        table: dict[str, Any] = {}
        for key, value in f.items():
            if key in _EVENT_KEYS:
                continue
            if key == "seats":
                for i, seat in enumerate(value):
                    for k, code in SEAT_CODES.items():
                        table[f"{code}{i}"] = "".join(seat[k]) if k in _CARDS else seat[k]
            elif key in _NAMED:
                table[CODES[key]] = self._seat(value)
            elif key in _CARDS:
                table[CODES[key]] = "".join(value)
            else:
                table[CODES[key]] = value  # a key of the frame's that has no code is a KeyError: give it one
        return table

    def add(self, f: dict[str, Any]) -> dict[str, Any]:
        """The compact form of ``f`` (a :func:`frame` made :func:`visible`), given the frames added before."""
        d: dict[str, Any] = {}
        if f["n"] != self._n + 1:
            d["n"] = f["n"]
        if f["line"] != self._line + 1:
            d["l"] = f["line"]
        self._n, self._line = f["n"], f["line"]
        kind = (f["type"], f["kind"], bool(f.get("deal")))
        number = self._type_numbers.get(kind)
        if number is None:
            number = self._type_numbers[kind] = len(self.types)
            self.types.append({"type": kind[0], "kind": kind[1], "deal": kind[2]})
        if number != self._type:
            d["y"] = self._type = number
        text = f["text"]
        said = self._texts.get(text)
        if said is None:
            d["x"] = text
            if len(self._texts) < self.texts_kept:
                self._texts[text] = len(self._texts)
        else:
            d["x"] = said
        if "undoes" in f:
            d["u"] = f["undoes"]
        before, table = self._table, self._flat(f)
        for key, value in table.items():
            if key not in before or before[key] != value:
                d[key] = value
        gone = [key for key in before if key not in table]
        if gone:
            d["-"] = gone
        self._table = table
        return d


def compact_frames(steps: Iterable[Step], players: Sequence[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every step's compact frame (:class:`CompactFrames`), and the types they number."""
    frames = CompactFrames(players)
    out = []
    before: MatchState | None = None
    for s in steps:
        out.append(frames.add(visible(frame(s, before))))
        before = s.state
    return out, frames.types


def match_data(steps: Sequence[Step], verdict: Verdict, title: str | None = None) -> dict[str, Any]:
    """Everything the page shows, as its script reads it: ``frames`` (compact: :class:`CompactFrames`), their
    ``types``, ``texts`` (how many texts are numbered: :data:`TEXTS_KEPT`) and ``match`` (:func:`match_part`).

    ``steps`` are a match file's steps in order (at least one); the score
    sheet is the last state's. Every string is passed through :func:`visible`.
    The page writes the same data as it reads the steps
    (:func:`ginlog.app.pages.page.write_page`); this is the whole of it at once, for small matches and tests.
    """
    if not steps:
        raise ValueError("a match page needs at least the match_started line")
    frames, types = compact_frames(steps, steps[0].state.players)
    return {"frames": frames, "types": types, "texts": TEXTS_KEPT, "match": match_part(steps[-1].state, verdict, title)}


def visible(data: Any) -> Any:
    """``data`` with every string in it (keys too) passed through :func:`ginlog.text.visible`.

    >>> visible({"Ann\\x1b": ["a\\u202eb", 3, None]})
    {'Ann␛': ['a<U+202E>b', 3, None]}
    """
    if isinstance(data, str):
        return visible_text(data)
    if isinstance(data, dict):
        return {visible(k): visible(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [visible(v) for v in data]
    return data


def read_steps(
    source: Source, name: str, visitor: Steps | None = None
) -> tuple[list[Step], list[GinlogError], list[Caveat]]:
    """Every step of a match, for its page, every problem with its place (collected, never raised), and the
    warnings the audit would give (for :meth:`Verdict.of`).

    A page shows the whole match, so the steps come as one list. What stops
    the reading (a file that cannot be opened or read) and a file with no
    event at all are problems like the visitor's own. ``visitor``: a
    :class:`~ginlog.match.visitors.Steps` collecting errors and warnings into
    lists (one that also keeps the times, for the site); a plain one when None.
    """
    visitor = visitor if visitor is not None else Steps(policy=POLICY)
    errors, warnings = visitor.errors, visitor.warnings
    assert errors is not None and warnings is not None, "read_steps collects: give a visitor with both lists"
    try:
        steps: list[Step] = list(walk(source, visitor, name=name))
    except GinlogError as exc:
        errors.append(exc if exc.path else exc.at(path=name))
        steps = []
    except OSError as exc:
        errors.append(StoreError(f"cannot read the file: {exc.strerror or exc}", rule="file", path=name))
        steps = []
    if not steps and not errors:
        errors.append(EventError("the file is empty: a match file begins with match_started", rule="first-event", path=name))
    return steps, errors, warnings
