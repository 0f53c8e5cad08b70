"""Views: the match in words, tables and JSON. Pure functions of the state.

Nothing here prints; the CLI decides where text goes. Cards are shown with
suit symbols (``10♥``) for people and canonical text (``TH``) in JSON.

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import fold
>>> from ginlog.game.rules import preset
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> sheet = score_json(state, head=None)
>>> sorted(sheet)[:4], sheet["winner"] in state.players
(['bonuses', 'complete', 'hands', 'head'], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ginlog.game.cards import Card, mask_cards
from ginlog.log.events import (
    BigGin,
    CardDiscarded,
    CardDrawn,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchAbandoned,
    MatchStarted,
    Note,
    UpcardPassed,
)
from ginlog.play.state import FinishedHand, MatchState

__all__ = ["pretty", "describe", "hand_summary", "table_text", "score_json", "score_rows", "SCORE_JSON_KEYS"]

SCORE_JSON_KEYS = ("players", "rules", "hands", "totals", "net", "winner", "bonuses", "head", "complete", "phase")


def pretty(cards: Iterable[Card]) -> str:
    """``A♠ 2♠ 10♥``, sorted."""
    return " ".join(c.pretty for c in sorted(cards))


def describe(event: Event, before: MatchState | None, after: MatchState) -> str:
    """One event in words, e.g. ``Bob takes 7♥ from the pile``."""
    if isinstance(event, MatchStarted):
        return f"Match between {event.players[0]} and {event.players[1]} ({event.tool})"
    if isinstance(event, FirstDealer):
        if event.how == "cut" and event.cuts:
            cuts = ", ".join(f"{p} cuts {c.pretty}" for p, c in event.cuts.items())
            return f"{cuts}: {event.dealer} deals first"
        return f"{event.dealer} deals first ({event.how})"
    if isinstance(event, HandDealt):
        known = " (hands and stock recorded)" if event.stock else " (hands recorded)" if event.hands else ""
        n = len(after.hands) + (1 if after.hand is not None else 0)
        return f"Hand {n}: {event.dealer} deals; upcard {event.upcard.pretty}{known}"
    if isinstance(event, UpcardPassed):
        return f"{event.player} passes the upcard"
    if isinstance(event, CardDrawn):
        if event.source == "pile":
            card = event.card or (before.hand.pile_top if before and before.hand else None)
            return f"{event.player} takes {card.pretty if card else 'the top card'} from the pile"
        return f"{event.player} draws from the stock" + (f" ({event.card.pretty})" if event.card else "")
    if isinstance(event, CardDiscarded):
        return f"{event.player} discards {event.card.pretty}"
    if isinstance(event, Knocked):
        return f"{event.player} knocks, {event.card.pretty} face down"
    if isinstance(event, Gin):
        return f"{event.player} goes gin, {event.card.pretty} face down"
    if isinstance(event, BigGin):
        return f"{event.player} goes big gin"
    if isinstance(event, HandShown):
        return f"{event.player} shows {pretty(event.cards)}"
    if isinstance(event, HandResultOnly):
        if event.how == "void":
            return "Score pad: void hand"
        return (
            f"Score pad: {event.out} {event.how.replace('_', ' ')}s"
            + (f" with {event.knocker_deadwood}" if event.how == "knock" else "")
            + f", defender {event.defender_deadwood}"
        )
    if isinstance(event, HandVoid):
        return f"Hand thrown in: {event.reason}"
    if isinstance(event, Note):
        return f"Note: {event.text}"
    if isinstance(event, Correction):
        return f"Correction: event {event.undoes} undone" + (f" ({event.reason})" if event.reason else "")
    if isinstance(event, MatchAbandoned):
        return f"Match abandoned: {event.reason}"
    return type(event).__name__  # pragma: no cover


def hand_summary(h: FinishedHand) -> str:
    """What happened in a finished hand and what it scored, in one sentence."""
    s = h.score
    r = h.result
    if s.outcome == "void":
        return f"Hand {h.number} is void" + (f" ({h.void_reason})" if h.void_reason else "") + f"; {h.dealer} deals again."
    parts = []
    shown = {x.player: x for x in h.shown}
    out = r.out or "?"
    knocker = shown.get(out)
    defender = next((x for x in h.shown if x.player != out), None)
    how = {"knock": "knocks", "gin": "goes gin", "big_gin": "goes big gin"}[r.how] if r.how != "void" else ""
    if r.how == "knock" and s.outcome != "gin":
        how += f" with {r.knocker_deadwood}"
    parts.append(f"Hand {h.number}: {out} {how}")
    if knocker is not None:
        parts[-1] += f" ({' '.join('[' + pretty(m.cards) + ']' for m in knocker.melds)}" + (
            f" {pretty(knocker.deadwood)})" if knocker.deadwood else ")"
        )
    if defender is not None:
        lay = f" lays off {pretty(defender.layoffs)} and" if defender.layoffs else ""
        parts.append(f"{defender.player}{lay} has {r.defender_deadwood}")
    else:
        parts.append(f"the defender has {r.defender_deadwood}")
    if s.winner is None:
        tail = "nobody scores (equal deadwood)"
    else:
        label = {"undercut": "undercut! ", "gin": "", "big_gin": "", "knock": ""}[s.outcome]
        tail = f"{label}{s.winner} scores {s.points}"
    return "; ".join(parts) + f": {tail}."


def _cards_of(mask: int) -> str:
    return pretty(mask_cards(mask)) or "-"


def table_text(state: MatchState, as_player: str | None = None) -> str:
    """The table as text: score, hand, turn, pile, what is known of each hand.

    ``as_player`` limits it to what that player could see: their own known
    cards, the pile, and the opponent's cards taken from the pile.
    """
    lines = []
    totals = state.totals()
    score = ", ".join(f"{p} {totals[p]}" for p in state.players)
    target = state.rules.game_target
    lines.append(f"Score: {score}" + (f" (to {target})" if target else " (one hand)"))
    if state.phase == "setup":
        lines.append("Waiting for the first dealer: 'dealer NAME' or 'cut NAME CARD NAME CARD'.")
        return "\n".join(lines)
    if state.phase == "abandoned":
        lines.append(f"Abandoned: {state.abandoned}")
        return "\n".join(lines)
    if state.phase == "over":
        lines.append(f"Match over. Winner: {state.winner or 'nobody'}")
        return "\n".join(lines)
    hand = state.hand
    if hand is None:
        lines.append(f"Next hand: {len(state.hands) + 1}, {state.dealer} deals ('upcard CARD').")
        return "\n".join(lines)
    lines.append(
        f"Hand {hand.number}: {hand.dealer} dealt; knock limit {hand.knock_limit}; stock {hand.stock}; "
        f"pile {pretty(hand.pile[-3:]) if hand.pile else '-'}" + (" (top last)" if len(hand.pile) > 1 else "")
    )
    for i, p in enumerate(state.players):
        if as_player is not None and p != as_player:
            # The opponent: only cards seen taken from the pile (or shown).
            seen = hand.seen[i]
            lines.append(f"  {p}: {hand.sizes[i]} cards; seen taking {_cards_of(seen)}")
            continue
        hidden = hand.sizes[i] - hand.known[i].bit_count()
        extra = f" + {hidden} unknown" if hidden else ""
        lines.append(f"  {p}: {_cards_of(hand.known[i])}{extra}")
    if hand.ending is not None:
        lines.append(f"  {hand.ending.player} {hand.ending.how.replace('_', ' ')}s; {hand.turn} to show.")
    else:
        verb = {"offer": "take or pass the upcard", "draw": "draw", "discard": "discard, knock or go gin"}.get(
            hand.phase, hand.phase
        )
        lines.append(f"  {hand.turn} to {verb}.")
    return "\n".join(lines)


def score_rows(state: MatchState) -> list[dict[str, Any]]:
    """One dict per finished hand, in the ``score --json`` shape."""
    rows = []
    for h in state.hands:
        s = h.score
        net = dict.fromkeys(state.players, 0)
        if s.winner is not None:
            for p in state.players:
                net[p] = s.points if p == s.winner else -s.points
        deadwood = {}
        if h.result.out is not None:
            deadwood = {
                h.result.out: h.result.knocker_deadwood,
                next(p for p in state.players if p != h.result.out): h.result.defender_deadwood,
            }
        rows.append(
            {
                "number": h.number,
                "dealer": h.dealer,
                "outcome": s.outcome,
                "out": h.result.out,
                "winner": s.winner,
                "points": s.points,
                "net": net,
                "deadwood": deadwood,
                "recorded": h.recorded,
                "totals": dict(zip(state.players, h.totals)),
                "void_reason": h.void_reason,
            }
        )
    return rows


def score_json(state: MatchState, head: str | None) -> dict[str, Any]:
    """The stable ``ginlog score --json`` shape (documented in the README)."""
    from ginlog.game.rules import rules_to_dict

    bonuses = state.tally.bonuses(state.rules)
    rows = score_rows(state)
    return {
        "players": list(state.players),
        "rules": rules_to_dict(state.rules),
        "hands": rows,
        "totals": state.totals(),
        "net": {p: sum(r["net"][p] for r in rows) for p in state.players},
        "winner": state.winner,
        "bonuses": {"game": bonuses.game, "boxes": bonuses.boxes, "shutout": bonuses.shutout},
        "head": head,
        "complete": state.phase == "over",
        "phase": state.phase,
    }
