"""Views: the match as data, the shapes ``score --json`` and ``show --json`` print (documented in the README).

Pure functions of the state, as :mod:`ginlog.app.views.match` (the match in words); these shapes hold the
record's text as it is (data: :func:`ginlog.text.json_escaped` escapes it where it is printed), with cards
in canonical text (``TH``) and the seats named.

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import fold
>>> from ginlog.game.rules import preset
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> sheet = score_json(state, head=None)
>>> sorted(sheet)[:5], sheet["winner"] in state.players, sheet["games"]
(['bonuses', 'complete', 'games', 'hands', 'head'], True, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ginlog.app.views.match import named, winner_name
from ginlog.game.bonuses import FinalBonuses
from ginlog.game.cards import mask_cards
from ginlog.game.scoring import Tally, running
from ginlog.game.seats import OTHER, SEATS
from ginlog.play.state import MatchState

__all__ = ["score_json", "score_rows", "games_json", "SCORE_JSON_KEYS", "table_json"]

SCORE_JSON_KEYS = (
    "players", "rules", "hands", "totals", "net", "winner", "bonuses", "head", "complete", "phase", "games",
)


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
        "games": games_json(state),
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
    if rules.hollywood is None:
        return []
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
