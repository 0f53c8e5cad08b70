"""Import RLCard ``gin_rummy`` games (one JSON object a line) as ginlog matches, one match a game.

The importer is :class:`RLCard` (``ginlog import rlcard``) on the
:class:`~ginlog.app.importers.base.Importer` base. A line is what the
snippet in docs/IMPORTS.md writes for a finished ``GinRummyGame``:
``settings`` (RLCard's ``Setting`` names and values), ``dealer`` (0 North, 1
South), ``moves`` (``str`` of each move of ``round.move_sheet``, the deal
first) and ``payoffs`` (the scorer's two rewards). Players are ``N`` and
``S``, RLCard's names, seats 0 and 1.

Each move becomes a ginlog event checked by the reducer under the ``rlcard``
rules (RLCard's quirks are knobs: ``deal_eleven``, ``dead_stock_pickups``,
``move_limit``, ``may_go_out_with_taken_card``, ``gin_compulsory``,
``layoffs``), so nothing here decides legality. What RLCard states rather
than plays is checked, never copied: each ``score`` move's deadwood, and the
rewards, recomputed from ginlog's facts by RLCard's formula
(``get_payoff_gin_rummy_v1``: 1 for gin, 0.2 for a knock, else
-deadwood/100). A setting that changes legal play and has no knob is refused
when it is not RLCard's default, naming it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Final, TextIO

import attrs

from ginlog.app.importers.base import Importer, importer, read_record_text
from ginlog.errors import ForeignRecordError, GinlogError
from ginlog.game.cards import Card, cards_mask, mask_cards, parse_card
from ginlog.game.melds import deadwood_of_mask
from ginlog.game.rules import Rules, preset
from ginlog.log.events import (
    CardDiscarded,
    CardDrawn,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandShown,
    HandVoid,
    Knocked,
    MatchStarted,
)
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline

__all__ = ["RLCard", "SETTINGS", "SUPPORTED", "rules_for", "line_events", "reward"]

PLAYERS: Final = ("N", "S")

#: RLCard's settings (``utils/settings.py`` ``Setting.default_setting``): name -> (default, the knob it sets
#: and the values read, or None: only the default is read). ``dealer_for_round`` changes no legal play (the
#: dealer is in the record).
SETTINGS: Final[dict[str, tuple[Any, tuple[str, int, int] | str | None]]] = {
    "dealer_for_round": (2, "dealer"),
    "stockpile_dead_card_count": (2, ("void_stock_size", 0, 31)),
    "going_out_deadwood_count": (10, ("knock_limit", 0, 10)),
    "max_drawn_card_count": (52, None),
    "max_move_count": (200, ("move_limit", 1, 100_000)),
    "is_allowed_knock": (True, None),
    "is_allowed_gin": (True, None),
    "is_allowed_pick_up_discard": (True, None),
    "is_allowed_to_discard_picked_up_card": (False, "may_discard_taken_card"),
    "is_always_knock": (False, None),
    "is_south_never_knocks": (False, None),
}
#: What a record's settings may hold, in the words of ``--help`` and docs/IMPORTS.md.
SUPPORTED: Final = (
    "Supported settings: "
    + ", ".join(f"{k} {v[1][1]} to {v[1][2]}" for k, v in SETTINGS.items() if isinstance(v[1], tuple))
    + ", is_allowed_to_discard_picked_up_card and dealer_for_round any; "
    + ", ".join(f"{k} {json.dumps(v[0])}" for k, v in SETTINGS.items() if v[1] is None)
    + " only (RLCard's defaults). A record with any other value is refused, naming the setting."
)


def _error(message: str, rule: str, path: str, line: int | None, move: int | None = None) -> ForeignRecordError:
    return ForeignRecordError(message, rule=rule, path=path, line=line, seq=move)


def rules_for(settings: Any, path: str = "<record>", line: int | None = None) -> Rules:
    """The ``rlcard`` preset under a record's settings; a setting ginlog cannot play is refused by name."""
    if not isinstance(settings, dict):
        raise _error("settings must be an object of RLCard's Setting names", "setting", path, line)
    rules = preset("rlcard")
    knobs: dict[str, Any] = {}
    for name, value in settings.items():
        if name not in SETTINGS:
            raise _error(f"unknown RLCard setting {name!r}", "setting", path, line)
        default, knob = SETTINGS[name]
        if type(value) is not type(default):
            raise _error(f"setting {name} must be {type(default).__name__}, not {value!r}", "setting", path, line)
        if knob is None:
            if value != default:
                raise _error(f"setting {name}={value!r} is not supported (only RLCard's default {default!r})", "setting", path, line)
        elif isinstance(knob, tuple):
            field, lo, hi = knob
            if not lo <= value <= hi:
                raise _error(f"setting {name}={value!r} is not supported ({lo} to {hi})", "setting", path, line)
            knobs[field] = value
        elif knob != "dealer":
            knobs[knob] = value
        elif value not in (0, 1, 2):
            raise _error(f"setting {name}={value!r} is not 0, 1 or 2", "setting", path, line)
    return attrs.evolve(rules, **knobs)


def reward(how: str, out: int | None, deadwood: tuple[int, int]) -> tuple[float, float]:
    """RLCard's ``get_payoff_gin_rummy_v1`` from the facts: 1 to who went gin, 0.2 to who knocked, else
    -deadwood/100 (a dead hand: both).

    >>> reward("knock", 0, (4, 31))
    (0.2, -0.31)
    """
    def one(seat: int) -> float:
        if out == seat and how in ("gin", "big_gin"):
            return 1
        if out == seat and how == "knock":
            return 0.2
        return -deadwood[seat] / 100

    return one(0), one(1)


def _cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def line_events(text: str, path: str = "<record>", line: int | None = None) -> list[Event]:
    """The events of one game (one line of JSON), each checked by the reducer; claims checked against ginlog."""
    try:
        rec = json.loads(text)
    except ValueError as exc:
        raise _error(f"not a JSON object: {exc}", "record", path, line) from None
    if not isinstance(rec, dict) or set(rec) != {"settings", "dealer", "moves", "payoffs"}:
        raise _error("a game is an object of settings, dealer, moves and payoffs", "record", path, line)
    rules = rules_for(rec["settings"], path, line)
    moves, payoffs, dealer_id = rec["moves"], rec["payoffs"], rec["dealer"]
    if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
        raise _error("moves must be RLCard's move sheet: a list of texts, the deal first", "record", path, line)
    if dealer_id not in (0, 1) or type(dealer_id) is not int:
        raise _error(f"dealer must be 0 (N) or 1 (S), not {dealer_id!r}", "record", path, line)
    ok_pay = isinstance(payoffs, list) and len(payoffs) == 2
    if not ok_pay or not all(type(p) in (int, float) for p in payoffs):
        raise _error("payoffs must be two numbers, N's then S's", "record", path, line)

    tl: Timeline | None = None
    events: list[Event] = []

    def emit(ev: Event, move: int) -> None:
        nonlocal tl
        try:
            tl = start(ev) if tl is None else apply(tl, ev)
        except GinlogError as exc:
            raise _error(f"move {move} ({moves[move]}): {exc.message}", exc.rule, path, line, move) from None
        events.append(ev)

    deal_words = moves[0].split(" ", 2)
    if len(deal_words) != 3 or deal_words[1] != "deal" or not deal_words[2].startswith("shuffled_deck=["):
        raise _error(f"move 0 ({moves[0]}): the move sheet begins with the deal", "record", path, line, 0)
    dealer = PLAYERS[dealer_id]
    if deal_words[0] != dealer:
        raise _error(f"move 0: {deal_words[0]} deals, but the record's dealer is {dealer}", "record", path, line, 0)
    try:
        deck = _cards(deal_words[2][len("shuffled_deck=["):].rstrip("]"))
    except GinlogError as exc:
        raise _error(f"move 0: {exc.message}", "record", path, line, 0) from None
    if len(deck) != 52 or cards_mask(deck).bit_count() != 52:
        raise _error("move 0: the shuffled deck is not 52 different cards", "record", path, line, 0)
    other = PLAYERS[1 - dealer_id]
    random_dealer = rec["settings"].get("dealer_for_round", 2) == 2
    emit(MatchStarted(players=PLAYERS, rules=rules, title=f"RLCard {Path(path).name}:{line}"), 0)
    emit(FirstDealer(dealer=dealer, how="random" if random_dealer else "agreed"), 0)
    # RLCard's dealer pops from the end: 11 to the non-dealer, 10 to the dealer; the stock is drawn from the end.
    hands = {other: tuple(reversed(deck[41:])), dealer: tuple(reversed(deck[31:41]))}
    emit(HandDealt(dealer=dealer, hands=hands, stock=tuple(reversed(deck[:31]))), 0)

    dead: tuple[int, ...] = (0, 0)  # each seat's deadwood at the end, as RLCard's scorer counts it (no lay-offs)
    scores: dict[int, tuple[int, int, list[list[str]]]] = {}  # seat -> (move, claimed deadwood, melds)
    for n, text_move in enumerate(moves[1:], start=1):
        words = text_move.split(" ")
        if words[0] not in PLAYERS or len(words) < 2:
            raise _error(f"move {n} ({text_move}): not an RLCard move", "record", path, line, n)
        player, verb = words[0], words[1]
        if verb == "score":
            parts = text_move.split(" ", 4)
            try:
                melds = ast.literal_eval(parts[4]) if len(parts) == 5 else None
                claimed = int(parts[3])
            except (ValueError, SyntaxError, IndexError):
                melds = None
            if not isinstance(melds, list) or parts[2] != player:
                raise _error(f"move {n} ({text_move}): not an RLCard score move", "record", path, line, n)
            scores[PLAYERS.index(player)] = (n, claimed, melds)
            continue
        if scores:
            raise _error(f"move {n} ({text_move}): a move after the scores", "action", path, line, n)
        try:
            card = parse_card(words[2]) if len(words) == 3 else None
        except GinlogError as exc:
            raise _error(f"move {n} ({text_move}): {exc.message}", "record", path, line, n) from None
        ev: Event
        if verb == "draw_card" and card is not None:
            ev = CardDrawn(player=player, source="stock", card=card)
        elif verb == "pick_up_discard" and card is not None:
            ev = CardDrawn(player=player, source="pile", card=card)
        elif verb == "discard" and card is not None:
            ev = CardDiscarded(player=player, card=card)
        elif verb == "knock" and card is not None:
            ev = Knocked(player=player, card=card)
        elif verb == "gin" and len(words) == 2:
            ev = Gin(player=player, card=_gin_card(tl, player, moves, n, path, line))
        elif verb == "declare_dead_hand" and len(words) == 2:
            ev = HandVoid(reason="declared dead (RLCard)")
        else:
            raise _error(f"move {n} ({text_move}): not an RLCard move", "record", path, line, n)
        if isinstance(ev, HandVoid):
            assert tl is not None and tl.state.hand is not None
            dead = tuple(deadwood_of_mask(m) for m in tl.state.hand.known)
        emit(ev, n)
        if isinstance(ev, (Knocked, Gin)):
            assert tl is not None and tl.state.hand is not None
            known = tl.state.hand.known
            out = PLAYERS.index(player)
            for seat in (out, 1 - out):
                emit(HandShown(player=PLAYERS[seat], cards=tuple(mask_cards(known[seat]))), n)
    assert tl is not None
    state = tl.state
    last = len(moves) - 1
    if state.phase != "over" or len(scores) != 2:
        raise _error("the game stops before both hands are scored", "truncated", path, line, last)
    finished = state.hands[0]
    result = finished.result
    if result.how != "void":
        by_seat = {s.player: s.deadwood_value for s in finished.shown}
        dead = (by_seat[0], by_seat[1])
    for seat, (n, claimed, _melds) in sorted(scores.items()):
        if claimed != dead[seat]:
            raise _error(
                f"move {n} ({moves[n]}): RLCard says {claimed} deadwood, but the best arrangement leaves {dead[seat]}",
                "deadwood-mismatch", path, line, n,
            )
    expected = reward(result.how, result.out, (dead[0], dead[1]))
    if tuple(float(p) for p in payoffs) != expected:
        raise _error(
            f"payoffs {payoffs} are not RLCard's reward for this hand, {list(expected)} ({result.how})",
            "reward-mismatch", path, line, last,
        )
    return events


def _gin_card(tl: Timeline | None, player: str, moves: list[str], n: int, path: str, line: int | None) -> Card:
    """The card RLCard's gin discards (its move does not name it): the one card whose discard leaves no deadwood,
    or, when there are several, the one missing from the player's scored melds."""
    assert tl is not None and tl.state.hand is not None
    seat = PLAYERS.index(player)
    mask = tl.state.hand.known[seat]
    gins = [c for c in mask_cards(mask) if deadwood_of_mask(mask & ~c.bit) == 0]
    if len(gins) == 1:
        return gins[0]
    for later in moves[n + 1:]:
        parts = later.split(" ", 4)
        if len(parts) == 5 and parts[1] == "score" and parts[0] == player:
            try:
                melded = cards_mask(parse_card(t) for meld in ast.literal_eval(parts[4]) for t in meld)
            except (ValueError, SyntaxError, GinlogError):
                break
            left = mask & ~melded
            if left.bit_count() == 1:
                return mask_cards(left)[0]
    if not gins:
        raise _error(f"move {n} ({moves[n]}): {player} cannot go gin", "not-gin", path, line, n)
    raise _error(f"move {n} ({moves[n]}): which card went with the gin is not in the scores", "record", path, line, n)


@importer("rlcard")
class RLCard(Importer):
    """RLCard gin_rummy games (one JSON line each, docs/IMPORTS.md's snippet) to match files, one a game.

    Rules: the rlcard preset under each game's settings; the rewards and the scored deadwood are checked.

    Example: ginlog import rlcard games.rlcard.jsonl -o matches/
    """

    pattern = "*.rlcard.jsonl"

    def read(self, path: str) -> list[Event]:
        """The events of a file that holds one game (a file of many is imported line by line: :meth:`write_file`)."""
        lines = [(i, t) for i, t in enumerate(read_record_text(path).splitlines(), 1) if t.strip()]
        if len(lines) != 1:
            raise ForeignRecordError(f"holds {len(lines)} games, not one", rule="record", path=path)
        return line_events(lines[0][1], path, lines[0][0])

    def write_file(self, path: str, outdir: str | os.PathLike[str], err: TextIO | None = None) -> tuple[int, int]:
        """One match a line, ``STEM-LINE.jsonl``; a bad line is one line on ``err`` and the others go on."""
        from ginlog.match.session import MatchSession

        ok = bad = 0
        try:
            text = read_record_text(path)
        except GinlogError as exc:
            if err is not None:
                err.write(exc.one_line() + "\n")
            return 0, 1
        stem = Path(path).name.removesuffix(".jsonl").removesuffix(".rlcard")
        for lineno, game in enumerate(text.splitlines(), 1):
            if not game.strip():
                continue
            try:
                events = line_events(game, path, lineno)
                first = events[0]
                assert isinstance(first, MatchStarted)
                digest = hashlib.sha256(b"ginlog import rlcard\0" + game.strip().encode("utf-8")).hexdigest()[:32]
                events[0] = attrs.evolve(first, match_id=digest)
                MatchSession.write(Path(outdir) / f"{stem}-{lineno:04d}.jsonl", events)
                ok += 1
            except GinlogError as exc:
                bad += 1
                if err is not None:
                    err.write(exc.one_line() + "\n")
        return ok, bad
