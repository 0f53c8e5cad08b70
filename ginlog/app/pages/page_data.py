"""What the replay page shows, as plain JSON data: one frame per event and the match around them.

This is the only module of the page that reads the match state: :func:`frame`
turns one step of a match file into a dict of names, numbers and card texts
(``"7H"``), and :func:`match_data` adds the match-level part (players, rules,
score sheet, verdict, every finished hand). The page itself
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

from collections.abc import Sequence
from typing import Any

import attrs

from ginlog.app.check.verdicts import Verdict as FileVerdict
from ginlog.caveats import Caveat
from ginlog.errors import EventError, GinlogError, StoreError
from ginlog.game.cards import Card, cards_mask, mask_cards
from ginlog.game.rules import PRESETS, rules_to_dict
from ginlog.log.events import CHANGES_NOTHING, TAKES_BACK, Correction, HandDealt, event_type
from ginlog.log.reader import Source
from ginlog.match.policy import POLICY
from ginlog.match.reading import Step, walk
from ginlog.match.visitors import Steps
from ginlog.play.state import FinishedHand, MatchState
from ginlog.text import visible as visible_text

from ginlog.app.views.match import describe, hand_summary, score_json, winner_name

__all__ = ["Verdict", "frame", "match_data", "visible", "read_steps", "read_page"]


@attrs.frozen
class Verdict:
    """The audit's word on the file the page shows: problems (with their places) and the head hash."""

    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    head: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @classmethod
    def of(cls, errors: Sequence[GinlogError], head: str | None, warnings: Sequence[Caveat] = ()) -> Verdict:
        """From what a collecting read gathered, each problem and warning as its one line (place, message, rule)."""
        return cls(tuple(e.one_line() for e in errors), tuple(w.one_line() for w in warnings), head)

    @classmethod
    def of_file(cls, verdict: FileVerdict, head: str | None) -> Verdict:
        """From the file's :class:`~ginlog.app.check.verdicts.Verdict` (what every command says of it): the
        problems and warnings kept, each in one line, and a line for those counted but not kept."""
        from ginlog.app.check.audit import error_line

        errors = [error_line(e) for e in verdict.errors]
        more = verdict.errors_total - len(verdict.errors)
        if more > 0:
            by_rule = ", ".join(f"{k} {v:,}" for k, v in verdict.errors_by_rule.items())
            errors.append(f"{verdict.path}: {more:,} more problems not listed; by rule: {by_rule} [max-errors]")
        return cls(tuple(errors), tuple(verdict.warning_lines()), head)


def _cards(cards: Sequence[Card] | int) -> list[str]:
    """Canonical card texts; a mask comes out sorted by suit and rank."""
    if isinstance(cards, int):
        cards = mask_cards(cards)
    return [str(c) for c in cards]


def _result(h: FinishedHand, players: tuple[str, str]) -> dict[str, Any]:
    """A finished hand: how it ended, what it scored, and each hand as laid out (melds, lay-offs, deadwood)."""
    s = h.score
    return {
        "number": h.number,
        "dealer": players[h.dealer],
        "summary": hand_summary(h, players),
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
        f["result"] = _result(last, players)
        f["just"] = before is not None and len(before.hands) < len(state.hands)
        if last.shown:
            seats: list[dict[str, Any]] = [{"known": [], "hidden": 0, "public": []} for _ in range(2)]
            for x in last.shown:
                cards = _cards(sorted(x.cards))
                seats[x.player] = {"known": cards, "hidden": 0, "public": cards}
            f["seats"] = seats
    return f


def _rules(state: MatchState) -> dict[str, Any]:
    preset = next((name for name, r in PRESETS.items() if r == state.rules), None)
    return {"preset": preset, "knobs": rules_to_dict(state.rules)}


def match_data(steps: Sequence[Step], verdict: Verdict, title: str | None = None) -> dict[str, Any]:
    """Everything the page shows: ``match`` (title, players, rules, score sheet, hands, verdict) and ``frames``.

    ``steps`` are a match file's steps in order (at least one); the score
    sheet is the last state's. Every string is passed through :func:`visible`.
    """
    if not steps:
        raise ValueError("a match page needs at least the match_started line")
    frames = []
    before: MatchState | None = None
    for s in steps:
        frames.append(frame(s, before))
        before = s.state
    state = steps[-1].state
    players = state.players
    data = {
        "match": {
            "title": title or state.title or f"{players[0]} v {players[1]}",
            "players": list(players),
            "tool": state.tool,
            "rules": _rules(state),
            "sheet": score_json(state, verdict.head),
            "hands": [_result(h, players) for h in state.hands],
            "winner": winner_name(state),
            "abandoned": state.abandoned,
            "verdict": {"ok": verdict.ok, "errors": list(verdict.errors), "warnings": list(verdict.warnings), "head": verdict.head},
        },
        "frames": frames,
    }
    cleaned: dict[str, Any] = visible(data)
    return cleaned


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


def read_page(source: Source, name: str, visitor: Steps | None = None) -> tuple[list[Step], FileVerdict]:
    """:func:`read_steps` with the file's :class:`~ginlog.app.check.verdicts.Verdict`, as every command gives it.

    ``visitor`` (a :class:`~ginlog.match.visitors.Steps` under the reading
    policy by default) is read through; what stopped the reading before it
    began (a file that cannot be opened or read) and a file without an event
    are the verdict's one problem.
    """
    visitor = visitor if visitor is not None else Steps(policy=POLICY)
    try:
        steps: list[Step] = list(walk(source, visitor, name=name))
    except GinlogError as exc:
        return [], FileVerdict(name, ((exc if exc.path else exc.at(path=name)).to_dict(),))
    except OSError as exc:
        err = StoreError(f"cannot read the file: {exc.strerror or exc}", rule="file", path=name)
        return [], FileVerdict(name, (err.to_dict(),))
    report = visitor.report()
    if not steps and not report.errors_total:
        empty = EventError("the file is empty: a match file begins with match_started", rule="first-event", path=name)
        return [], FileVerdict(name, (empty.to_dict(),))
    return steps, FileVerdict.of(report)
