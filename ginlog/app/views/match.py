"""Views: the match in words, tables and JSON. Pure functions of the state.

Nothing here prints; the CLI decides where text goes. Cards are shown with
suit symbols (``10♥``) for people and canonical text (``TH``) in JSON.

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import fold
>>> from ginlog.game.rules import preset
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> sheet = score_json(state, head=None)
>>> sorted(sheet)[:5], sheet["winner"] in state.players, sheet["games"]
(['bonuses', 'complete', 'games', 'hands', 'head'], True, [])

The state says who by seat (0, 1); these views are where seats become names
(``state.players[seat]``), so a name shown is always one of the match's two.

Text for people is plain ``str`` in which every piece of record text (names,
notes, reasons, title, tool) has passed through :func:`ginlog.text.visible`: a
control or bidi character in a record is seen, never emitted. It is still
text, not markup: whoever prints it with rich wraps it in ``rich.text.Text``.
The JSON shapes hold the record's text as it is (data; see
:func:`ginlog.text.json_escaped` for printing them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, assert_never

from ginlog.game.bonuses import FinalBonuses
from ginlog.game.cards import Card, mask_cards
from ginlog.game.scoring import Tally, running
from ginlog.game.seats import OTHER, SEATS
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
    Seal,
    UpcardPassed,
)
from ginlog.play.state import FinishedHand, MatchState
from ginlog.text import visible

__all__ = [
    "pretty", "describe", "hand_summary", "table_text", "score_json", "score_rows", "score_line", "named",
    "winner_name", "games_json", "SCORE_JSON_KEYS", "table_json", "pile_text",
]

SCORE_JSON_KEYS = (
    "players", "rules", "hands", "totals", "net", "winner", "bonuses", "head", "complete", "phase", "games",
)


def pretty(cards: Iterable[Card]) -> str:
    """``A♠ 2♠ 10♥``, sorted."""
    return " ".join(c.pretty for c in sorted(cards))


def describe(event: Event, before: MatchState | None, after: MatchState) -> str:
    """One event in words, e.g. ``Bob takes 7♥ from the pile``.

    Exhaustive over the event types (the type checker proves it): a new event
    type without words here does not pass ``mypy``. Record text is shown
    (:func:`ginlog.text.visible`): ``Note: gg␛[2J``.
    """
    return visible(_words(event, before, after))


def _words(event: Event, before: MatchState | None, after: MatchState) -> str:
    match event:
        case MatchStarted():
            return f"Match between {event.players[0]} and {event.players[1]} ({event.tool})"
        case FirstDealer():
            if event.how == "cut" and event.cuts:
                cuts = ", ".join(f"{p} cuts {c.pretty}" for p, c in event.cuts.items())
                return f"{cuts}: {event.dealer} deals first"
            return f"{event.dealer} deals first ({event.how})"
        case HandDealt():
            known = " (hands and stock recorded)" if event.stock else " (hands recorded)" if event.hands else ""
            n = len(after.hands) + (1 if after.hand is not None else 0)
            up = f"upcard {event.upcard.pretty}" if event.upcard is not None else "11 cards to the non-dealer, no upcard"
            return f"Hand {n}: {event.dealer} deals; {up}{known}"
        case UpcardPassed():
            return f"{event.player} passes the upcard"
        case CardDrawn():
            if event.source == "pile":
                card = event.card or (before.hand.pile_top if before and before.hand else None)
                return f"{event.player} takes {card.pretty if card else 'the top card'} from the pile"
            return f"{event.player} draws from the stock" + (f" ({event.card.pretty})" if event.card else "")
        case CardDiscarded():
            return f"{event.player} discards {event.card.pretty}"
        case Knocked():
            return f"{event.player} knocks, {event.card.pretty} face down"
        case Gin():
            return f"{event.player} goes gin, {event.card.pretty} face down"
        case BigGin():
            return f"{event.player} goes big gin"
        case HandShown():
            return f"{event.player} shows {pretty(event.cards)}"
        case HandResultOnly():
            if event.how == "void":
                return "Score pad: void hand"
            if event.how == "points":
                return f"Score pad: {event.winner} +{event.points} (points only)"
            return (
                f"Score pad: {event.out} {event.how.replace('_', ' ')}s"
                + (f" with {event.knocker_deadwood}" if event.how == "knock" else "")
                + f", defender {event.defender_deadwood}"
            )
        case HandVoid():
            return f"Hand thrown in: {event.reason}"
        case Note():
            return f"Note: {event.text}"
        case Seal():  # who holds the key is the audit's to say, against a club's keys (ginlog audit --allowed-signers)
            return f"Seal of line {event.line} for {event.player}, signed by key {event.fingerprint}"
        case Correction():
            return f"Correction: event {event.undoes} undone" + (f" ({event.reason})" if event.reason else "")
        case MatchAbandoned():
            return f"Match abandoned: {event.reason}"
        case _:
            assert_never(event)


def hand_summary(h: FinishedHand, players: Sequence[str]) -> str:
    """What happened in a finished hand and what it scored, in one sentence (``players``: the match's, by seat)."""
    return visible(_summary(h, players))


def _summary(h: FinishedHand, players: Sequence[str]) -> str:
    s = h.score
    r = h.result
    if s.outcome == "void":
        reason = f" ({h.void_reason})" if h.void_reason else ""
        return f"Hand {h.number} is void{reason}; {players[h.dealer]} deals again."
    if s.outcome == "points" and s.winner is not None:
        return f"Hand {h.number}: {players[h.dealer]} dealt; the score pad says {players[s.winner]} scores {s.points}."
    parts = []
    knocker = next((x for x in h.shown if x.player == r.out), None)
    defender = next((x for x in h.shown if x.player != r.out), None)
    how = {"knock": "knocks", "gin": "goes gin", "big_gin": "goes big gin"}[r.how] if r.how != "void" else ""
    if r.how == "knock" and s.outcome != "gin":
        how += f" with {r.knocker_deadwood}"
    parts.append(f"Hand {h.number}: {'?' if r.out is None else players[r.out]} {how}")
    if knocker is not None:
        parts[-1] += f" ({' '.join('[' + pretty(m.cards) + ']' for m in knocker.melds)}" + (
            f" {pretty(knocker.deadwood)})" if knocker.deadwood else ")"
        )
    if defender is not None:
        lay = f" lays off {pretty(defender.layoffs)} and" if defender.layoffs else ""
        parts.append(f"{players[defender.player]}{lay} has {r.defender_deadwood}")
    else:
        parts.append(f"the defender has {r.defender_deadwood}")
    if s.winner is None:
        # a tie under undercut_on_tie=false, or a hand priced at 0 (gin with gin_bonus=0 against no deadwood)
        tail = f"nobody scores ({'equal deadwood' if s.outcome == 'knock' else 'it scores 0'})"
    else:
        label = {"undercut": "undercut! ", "gin": "", "big_gin": "", "knock": ""}[s.outcome]
        tail = f"{label}{players[s.winner]} scores {s.points}"
    return "; ".join(parts) + f": {tail}."


def named(players: Sequence[str], per_seat: Sequence[int | None]) -> dict[str, int]:
    """A per-seat pair as a dict by player name, in seat order, leaving out None.

    >>> named(("Ann", "Bob"), (3, None))
    {'Ann': 3}
    """
    return {p: v for p, v in zip(players, per_seat) if v is not None}


def score_line(state: MatchState) -> str:
    """``Ann 0, Bob 61``: the running totals (with the bonuses once the match is over)."""
    return visible(", ".join(f"{p} {t}" for p, t in zip(state.players, state.totals())))


def winner_name(state: MatchState) -> str | None:
    """The match winner's name, once there is one."""
    w = state.winner
    return None if w is None else state.players[w]


def _cards_of(mask: int) -> str:
    return pretty(mask_cards(mask)) or "-"


def pile_text(pile: Sequence[Card], last: int = 3) -> str:
    """The pile's last cards in pile order, bottom to top, never sorted: ``9♣ 2♥ 7♠ (top last)``.

    >>> from ginlog.game.cards import parse_cards
    >>> pile_text(parse_cards("KD 9C 2H 7S")), pile_text(parse_cards("KD")), pile_text(())
    ('9♣ 2♥ 7♠ (top last)', 'K♦', '-')
    """
    if not pile:
        return "-"
    cards = " ".join(c.pretty for c in pile[-last:])
    return cards + " (top last)" if len(pile) > 1 else cards


def table_text(state: MatchState, as_player: str | None = None) -> str:
    """The table as text: score, hand, turn, pile, what is known of each hand.

    ``as_player`` limits it to what that player could see: their own known
    cards, the pile, and the opponent's cards taken from the pile.
    """
    return "\n".join(map(visible, _table(state, as_player)))


def _table(state: MatchState, as_player: str | None) -> list[str]:
    lines = []
    players = state.players
    target = state.rules.game_target
    lines.append(f"Score: {score_line(state)}" + (f" (to {target})" if target else " (one hand)"))
    if state.phase == "setup":
        lines.append("Waiting for the first dealer: 'dealer NAME' or 'cut NAME CARD NAME CARD'.")
        return lines
    if state.phase == "abandoned":
        lines.append(f"Abandoned: {state.abandoned}")
        return lines
    if state.phase == "over":
        lines.append(f"Match over. Winner: {winner_name(state) or 'nobody'}")
        return lines
    hand = state.hand
    if hand is None:
        dealer = "?" if state.dealer is None else players[state.dealer]
        lines.append(f"Next hand: {len(state.hands) + 1}, {dealer} deals ('upcard CARD').")
        return lines
    lines.append(
        f"Hand {hand.number}: {players[hand.dealer]} dealt; knock limit {hand.knock_limit}; stock {hand.stock}; "
        f"pile {pile_text(hand.pile)}"
    )
    for i, p in zip(SEATS, players):
        if as_player is not None and p != as_player:
            # The opponent: only cards seen taken from the pile (or shown).
            seen = hand.seen[i]
            lines.append(f"  {p}: {hand.sizes[i]} cards; seen taking {_cards_of(seen)}")
            continue
        hidden = hand.sizes[i] - hand.known[i].bit_count()
        if not hidden:
            lines.append(f"  {p}: {_cards_of(hand.known[i])}")
        elif hidden == hand.sizes[i]:  # table view: nobody said which cards they hold
            lines.append(f"  {p}: {hidden} unknown cards")
        else:
            lines.append(f"  {p}: {_cards_of(hand.known[i])} and {hidden} unknown {'card' if hidden == 1 else 'cards'}")
    if hand.ending is not None:
        lines.append(f"  {players[hand.ending.player]} {hand.ending.how.replace('_', ' ')}s; {players[hand.turn]} to show.")
    else:
        verb = {"offer": "take or pass the upcard", "draw": "draw", "discard": "discard, knock or go gin"}.get(
            hand.phase, hand.phase
        )
        lines.append(f"  {players[hand.turn]} to {verb}.")
    return lines


def table_json(state: MatchState, as_player: str | None = None) -> dict[str, Any]:
    """The table as data, the ``show --json`` shape (documented in the README): what
    :func:`table_text` says, with cards in canonical text and the pile bottom first, top last.

    ``hands`` gives each player's ``known`` cards (sorted) and how many are
    ``hidden``; with ``as_player`` the opponent's known cards are only those seen
    taken from the pile. Outside a hand, the hand's keys are null (``pile`` empty).

    >>> from ginlog.play.reducer import start, apply
    >>> from ginlog.log.events import MatchStarted, FirstDealer, HandDealt
    >>> from ginlog.game.rules import preset
    >>> from ginlog.game.cards import parse_card
    >>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    >>> tl = apply(apply(tl, FirstDealer(dealer="Ann", how="agreed")), HandDealt(dealer="Ann", upcard=parse_card("7h")))
    >>> t = table_json(tl.state, "Ann")
    >>> t["phase"], t["turn"], t["to"], t["stock"], t["pile"], t["hands"]["Bob"]
    ('hand', 'Bob', 'offer', 31, ['7H'], {'known': [], 'hidden': 10})
    """
    players = state.players
    hand = state.hand
    out: dict[str, Any] = {
        "players": list(players),
        "phase": state.phase,
        "as": as_player,
        "score": named(players, state.totals()),
        "hand": None,
        "dealer": None if state.dealer is None else players[state.dealer],
        "turn": None,
        "to": None,
        "stock": None,
        "pile": [],
        "hands": None,
        "winner": winner_name(state),
        "abandoned": state.abandoned,
    }
    if hand is None:
        return out
    hands: dict[str, Any] = {}
    for i, p in zip(SEATS, players):
        mask = hand.seen[i] if as_player is not None and p != as_player else hand.known[i]
        hands[p] = {"known": [str(c) for c in sorted(mask_cards(mask))], "hidden": hand.sizes[i] - mask.bit_count()}
    out.update(
        hand=hand.number,
        dealer=players[hand.dealer],
        turn=players[hand.turn],
        to=hand.phase,
        stock=hand.stock,
        pile=[str(c) for c in hand.pile],
        hands=hands,
    )
    return out


def score_rows(state: MatchState, dates: Sequence[str | None] = ()) -> list[dict[str, Any]]:
    """One dict per finished hand, in the ``score --json`` shape: the seats named, here and only here.

    ``dates[i]`` is when hand ``i + 1``'s last line was written (its ``ts``;
    :func:`ginlog.match.dated.read_dated` reads them: ``hand_ends``), None when not known.
    Under Hollywood scoring each row also says which games the hand scored in
    (``in_games``: numbers 1 to 3) and the three games' running totals
    (``game_totals``); both are ``[]`` otherwise.
    """
    return _rows(state, _tallies(state), dates)


def _tallies(state: MatchState) -> list[Tally]:
    """The tally after each finished hand, derived again from the hands' scores."""
    return list(running(state.rules, (h.score for h in state.hands)))


def _rows(state: MatchState, tallies: Sequence[Tally], dates: Sequence[str | None]) -> list[dict[str, Any]]:
    players = state.players
    rules = state.rules
    rows = []
    previous = Tally().hollywood_games(rules)
    for i, (h, tally) in enumerate(zip(state.hands, tallies)):
        s = h.score
        r = h.result
        net = dict.fromkeys(players, 0)
        if s.winner is not None:
            for seat, p in zip(SEATS, players):
                net[p] = s.points if seat == s.winner else -s.points
        deadwood = {}
        if r.out is not None:
            deadwood = {players[r.out]: r.knocker_deadwood, players[OTHER[r.out]]: r.defender_deadwood}
        games = tally.hollywood_games(rules)
        entered = [n for n, (g, b) in enumerate(zip(games, previous), start=1) if g.hands_won != b.hands_won]
        previous = games
        rows.append(
            {
                "number": h.number,
                "dealer": players[h.dealer],
                "outcome": s.outcome,
                "out": None if r.out is None else players[r.out],
                "winner": None if s.winner is None else players[s.winner],
                "points": s.points,
                "net": net,
                "deadwood": deadwood,
                "recorded": h.recorded,
                "totals": named(players, h.totals),
                "void_reason": h.void_reason,
                "date": dates[i] if i < len(dates) else None,
                "in_games": entered,
                "game_totals": [named(players, g.points) for g in games],
            }
        )
    return rows


def _bonuses_json(players: Sequence[str], bonuses: FinalBonuses) -> dict[str, dict[str, int]]:
    return {
        "game": named(players, bonuses.game),
        "boxes": named(players, bonuses.boxes),
        "shutout": named(players, bonuses.shutout),
    }


def games_json(state: MatchState, tallies: Sequence[Tally] | None = None) -> list[dict[str, Any]]:
    """Hollywood's three games for ``score --json`` (``[]`` when Hollywood is off).

    Each: ``number`` (1 to 3), ``totals`` (hand points by player, bonuses
    apart), ``bonuses`` (as the top level's, once the game is closed),
    ``final`` (totals with those bonuses), ``winner`` (null while the game is
    open) and ``closed_at`` (the number of the hand that closed it, or null).
    """
    players = state.players
    rules = state.rules
    tallies = _tallies(state) if tallies is None else tallies
    out = []
    for i, g in enumerate(state.tally.hollywood_games(rules)):
        closed_at = next((h.number for h, t in zip(state.hands, tallies) if t.hollywood_games(rules)[i].closed), None) if g.closed else None
        out.append(
            {
                "number": i + 1,
                "totals": named(players, g.points),
                "bonuses": _bonuses_json(players, g.bonuses(rules)),
                "final": named(players, g.final_totals(rules)),
                "winner": None if g.winner is None else players[g.winner],
                "closed_at": closed_at,
            }
        )
    return out


def score_json(state: MatchState, head: str | None, dates: Sequence[str | None] = ()) -> dict[str, Any]:
    """The stable ``ginlog score --json`` shape (documented in the README); ``dates`` as :func:`score_rows`'."""
    from ginlog.game.rules import rules_to_dict

    players = state.players
    tallies = _tallies(state)
    rows = _rows(state, tallies, dates)
    return {
        "players": list(players),
        "rules": rules_to_dict(state.rules),
        "hands": rows,
        "totals": named(players, state.totals()),
        "net": {p: sum(r["net"][p] for r in rows) for p in players},
        "winner": winner_name(state),
        "bonuses": _bonuses_json(players, state.tally.bonuses(state.rules)),
        "head": head,
        "complete": state.phase == "over",
        "phase": state.phase,
        "games": games_json(state, tallies),
    }
