"""Import OpenSpiel ``gin_rummy`` records (``pyspiel.serialize_game_and_state``) as ginlog matches.

The importer is :class:`OpenSpiel` (``ginlog import openspiel``), on the
:class:`~ginlog.app.importers.base.Importer` base, which finds the records,
reads each safely and writes the files; this module is the mapping alone.

An OpenSpiel record is a header, the game's parameters, and the bare list of
action ids, chance outcomes included: who played what is implicit in the
engine's phase machine. The importer maps each action to a ginlog event
*using the reducer's own state* (whose turn, which phase), so the reducer,
under the ``openspiel`` rules, is the single judge of legality, and the result
is ginlog's, not copied from the record. Players are ``P0`` and ``P1``, as in
OpenSpiel; ``P0`` acts first, so ``P1`` is the dealer.

The mapping, action by action (see tests/data/openspiel/FORMAT.md):

- actions 1-20 deal ten cards to P0 then to P1, action 21 is the upcard;
- ``52`` takes the upcard (``card_drawn`` from the pile), ``53`` draws from the
  stock and the next (chance) action names the card, ``54`` passes;
- a card id ends a turn (``card_discarded``), or after ``55`` is the knock's
  face-down card (``knocked``);
- the knocker then lays melds (``56 + m``) and passes: one ``hand_shown`` with
  those melds; the defender lays off card ids, passes, lays melds, passes: one
  ``hand_shown`` with melds and lay-offs. At the two-card stock ``55`` takes the
  upcard to knock and ``54`` ends the hand void.

>>> text = (Path(__file__).parent.parent / "tests/data/openspiel/records/default-050.txt")
>>> events = record_events(*parse_record(text.read_text(), "default-050")) if text.exists() else None
>>> from ginlog.play.reducer import fold
>>> fold(events).state.hands[0].score.points if events else 55
55
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final, TextIO

import attrs

from ginlog.game.cards import DECK, Card
from ginlog.app.importers.base import Importer, importer, read_record_text
from ginlog.errors import ForeignRecordError, GinlogError
from ginlog.log.events import (
    CardDiscarded,
    CardDrawn,
    Event,
    FirstDealer,
    HandDealt,
    HandShown,
    Knocked,
    MatchStarted,
    UpcardPassed,
)
from ginlog.play.reducer import apply, start
from ginlog.game.rules import Oklahoma, Rules, preset
from ginlog.play.state import Timeline

__all__ = ["OpenSpiel", "parse_record", "record_events", "rules_for", "MELDS", "import_file", "import_files", "PLAYERS"]

PLAYERS: Final = ("P0", "P1")
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
PARAMS: Final[dict[str, tuple[type, Any]]] = {
    "gin_bonus": (int, 25),
    "hand_size": (int, 10),
    "knock_card": (int, 10),
    "num_ranks": (int, 13),
    "num_suits": (int, 4),
    "oklahoma": (bool, False),
    "undercut_bonus": (int, 25),
}
_FIXED: Final = {"hand_size": 10, "num_ranks": 13, "num_suits": 4}
#: The whole-number parameters ginlog reads, and their ranges: the bonuses as the rule knobs take them;
#: knock_card as ``knock_limit`` does (10 cards leave at most 98 deadwood, so 100 already lets any hand knock).
RANGES: Final = {"gin_bonus": (0, 1000), "undercut_bonus": (0, 1000), "knock_card": (0, 100)}
#: What a record may hold, in the words ``ginlog import openspiel --help``, the README and docs/IMPORTS.md use.
SUPPORTED: Final = (
    "Supported parameters: "
    + ", ".join(f"{k} {lo} to {hi}" for k, (lo, hi) in RANGES.items())
    + ", oklahoma True or False; "
    + ", ".join(f"{k}" for k in _FIXED)
    + " only at "
    + ", ".join(str(v) for v in _FIXED.values())
    + " (the standard deck, 10-card hands). A record with any other value is refused, naming the parameter."
)


def _card(i: int) -> Card:
    """OpenSpiel card id (suit*13 + rank, suits s c d h) to a Card."""
    return DECK[i]  # DECK is in the same order


def _meld_table() -> dict[int, tuple[Card, ...]]:
    """OpenSpiel's meld numbering (``MeldToInt``): 65 rank melds, then runs of 3, 4 and 5."""
    table: dict[int, tuple[Card, ...]] = {}
    for rank in range(13):
        for k in range(5):
            suits = [s for s in range(4) if s != k]  # k = the suit left out; 4 = all four
            table[rank * 5 + k] = tuple(_card(s * 13 + rank) for s in suits)
    base = 65
    for length in (3, 4, 5):
        starts = 13 - length + 1
        for suit in range(4):
            for low in range(starts):
                table[base + suit * starts + low] = tuple(_card(suit * 13 + low + j) for j in range(length))
        base += 4 * starts
    return table


#: meld number (action - 56) -> its cards; 185 melds.
MELDS: Final = _meld_table()


def _error(name: str, message: str, position: int | None = None, rule: str = "import") -> ForeignRecordError:
    where = f"action {position}: " if position is not None else ""
    return ForeignRecordError(f"{where}{message}", rule=rule, path=name)


def parse_record(text: str, name: str = "<record>") -> tuple[dict[str, Any], tuple[int, ...], str]:
    """Read the serialised text: check the header, parse the parameters and the actions."""
    lines = [ln.strip() for ln in text.splitlines()]
    content = [ln for ln in lines if ln and not ln.startswith("#")]
    try:
        meta = content.index("[Meta]")
        game = content.index("[Game]")
        state = content.index("[State]")
    except ValueError:
        raise _error(name, "not an OpenSpiel record: it needs [Meta], [Game] and [State] sections", rule="header") from None
    if not meta < game < state or game + 2 != state:
        raise _error(name, "the [Meta], [Game] and [State] sections are out of order", rule="header")
    if "Version: 1" not in content[meta + 1 : game]:
        raise _error(name, "only serialisation 'Version: 1' is known", rule="header")
    params = _parse_game(content[game + 1], name)
    actions = []
    for n, ln in enumerate(content[state + 1 :], start=1):
        if not re.fullmatch(r"\d{1,3}", ln):
            raise _error(name, f"{ln[:20]!r} is not an action id", n, rule="action")
        actions.append(int(ln))
    return params, tuple(actions), name


def _parse_game(line: str, name: str) -> dict[str, Any]:
    m = re.fullmatch(r"gin_rummy\((.*)\)", line)
    if m is None:
        raise _error(name, f"the game is {line[:40]!r}, not gin_rummy(...)", rule="header")
    params = {k: default for k, (_t, default) in PARAMS.items()}
    if m.group(1):
        for item in m.group(1).split(","):
            key, sep, value = item.partition("=")
            if not sep or key not in PARAMS:
                raise _error(name, f"unknown gin_rummy parameter {key[:40]!r}", rule="parameter")
            kind = PARAMS[key][0]
            if kind is bool:
                if value not in ("True", "False", "true", "false"):
                    cut = f"{value[:20]!r}" + ("..." if len(value) > 20 else "")  # thousands of characters: the start
                    raise _error(name, f"{key} must be True or False, not {cut}", rule="parameter")
                params[key] = value in ("True", "true")
            else:
                if not re.fullmatch(r"-?\d+", value):
                    raise _error(name, f"{key} must be a whole number, not {value[:20]!r}", rule="parameter")
                digits = value.lstrip("-").lstrip("0") or "0"
                if len(digits) > 9:  # no supported value is near this; int() of 4,300+ digits raises
                    raise _error(name, f"{key}={value[:12]}... ({len(value):,} digits) is out of range", rule="parameter")
                params[key] = -int(digits) if value.startswith("-") else int(digits)
    for key, fixed in _FIXED.items():
        if params[key] != fixed:
            raise _error(name, f"{key}={params[key]} is not supported (only {key}={fixed}: the standard deck and 10-card hands)", rule="parameter")
    for key, (lo, hi) in RANGES.items():
        if not lo <= params[key] <= hi:
            raise _error(name, f"{key}={params[key]} is out of range (ginlog reads {lo} to {hi})", rule="parameter")
    return params


def rules_for(params: dict[str, Any]) -> Rules:
    """ginlog's rules for an OpenSpiel game: the ``openspiel`` preset with the record's parameters.

    Under Oklahoma the engine takes the knock card from the upcard (an ace
    means gin only) and doubles nothing.
    """
    return attrs.evolve(
        preset("openspiel"),
        knock_limit=params["knock_card"],
        gin_bonus=params["gin_bonus"],
        undercut_bonus=params["undercut_bonus"],
        oklahoma=Oklahoma(ace="gin", spades_double=False) if params["oklahoma"] else None,
    )


def record_events(params: dict[str, Any], actions: tuple[int, ...], name: str = "<record>") -> list[Event]:
    """The ginlog events of one OpenSpiel hand, checked by the reducer as they are made."""
    events: list[Event] = []
    tl: Timeline

    def emit(ev: Event, position: int | None) -> None:
        nonlocal tl
        try:
            tl = apply(tl, ev)
        except GinlogError as exc:
            raise _error(name, f"{exc.message}", position, rule=exc.rule) from None
        events.append(ev)

    first = MatchStarted(players=PLAYERS, rules=rules_for(params), title=f"OpenSpiel {name}")
    tl = start(first)
    events.append(first)
    emit(FirstDealer(dealer="P1", how="agreed"), None)
    if len(actions) < 21:
        raise _error(name, f"the record ends during the deal ({len(actions)} of 21 cards)", len(actions) or None, rule="truncated")
    deal = actions[:21]
    for pos, a in enumerate(deal, start=1):
        if a > 51:
            raise _error(name, f"{a} is not a card: the deal is 21 chance actions", pos, rule="action")
    if len(set(deal)) != 21:
        raise _error(name, "a card is dealt twice", None, rule="duplicate-card")
    hands = {"P0": tuple(_card(a) for a in deal[:10]), "P1": tuple(_card(a) for a in deal[10:20])}
    emit(HandDealt(dealer="P1", upcard=_card(deal[20]), hands=hands), 21)

    knocking = False  # after 55: the next card is the knock's face-down card
    melds: list[tuple[Card, ...]] = []
    layoffs: list[Card] = []
    laying_off = True
    pos = 21
    it = iter(actions[21:])
    for a in it:
        pos += 1
        st = tl.state
        hand = st.hand
        if hand is None:
            raise _error(name, f"action {a} comes after the hand ended", pos, rule="action")
        seat = hand.turn
        player = st.players[seat]
        phase = hand.phase

        def bad(what: str) -> ForeignRecordError:
            return _error(name, f"{a} is not legal here: {what}", pos, rule="action")

        if phase == "offer":
            if a == DRAW_UPCARD:
                emit(CardDrawn(player=player, source="pile", card=hand.pile_top), pos)
            elif a == PASS:
                emit(UpcardPassed(player=player), pos)
            else:
                raise bad(f"{player} takes (52) or passes (54) the first upcard")
        elif phase == "draw":
            if a == DRAW_UPCARD:
                emit(CardDrawn(player=player, source="pile", card=hand.pile_top), pos)
            elif a == DRAW_STOCK:
                try:
                    c = next(it)
                except StopIteration:
                    raise _error(name, "the record ends before the card drawn from the stock", pos, rule="truncated") from None
                pos += 1
                if c > 51:
                    raise _error(name, f"{c} is not a card: a stock draw is followed by the card drawn", pos, rule="action")
                emit(CardDrawn(player=player, source="stock", card=_card(c)), pos)
            else:
                raise bad(f"{player} draws: the upcard (52) or the stock (53)")
        elif phase == "wall":
            if a == PASS:
                emit(UpcardPassed(player=player), pos)
            elif a == KNOCK:
                emit(CardDrawn(player=player, source="pile", card=hand.pile_top), pos)
                knocking = True
            else:
                raise bad(f"the stock is down to two cards: {player} knocks (55) or passes (54)")
        elif phase == "discard":
            if a == KNOCK and not knocking:
                knocking = True
            elif a <= 51:
                ev: Event = Knocked(player=player, card=_card(a)) if knocking else CardDiscarded(player=player, card=_card(a))
                emit(ev, pos)
                if knocking:
                    melds, layoffs, laying_off = [], [], True
                knocking = False
            else:
                raise bad(f"{player} discards a card" + (" face down" if knocking else " or knocks (55)"))
        elif phase in ("show", "defend"):
            ending = hand.ending
            assert ending is not None
            i = seat
            if a >= MELD_BASE and a - MELD_BASE in MELDS:
                if phase == "defend" and laying_off and ending.how == "knock":
                    # OpenSpiel's lay-off stage takes only cards and 54: its ApplyLayoffAction refuses a meld
                    # there (SPIEL_CHECK), so a meld does not end the lay-offs; the pass (54) does.
                    raise bad(f"{player} lays off cards or ends the lay-offs (54) before laying melds")
                melds.append(MELDS[a - MELD_BASE])
            elif a <= 51 and phase == "defend" and laying_off and ending.how == "knock":
                layoffs.append(_card(a))
            elif a == PASS:
                if phase == "defend" and laying_off and ending.how == "knock":
                    laying_off = False  # the end of the lay-offs
                    continue
                cards = tuple(sorted(c for c in DECK if hand.known[i] & c.bit))
                emit(
                    HandShown(
                        player=player,
                        cards=cards,
                        melds=tuple(melds),
                        layoffs=tuple(layoffs) if phase == "defend" else None,
                    ),
                    pos,
                )
                melds, layoffs, laying_off = [], [], True
            else:
                raise bad(f"{player} lays melds (56+), lays off cards, or passes (54)")
        else:  # pragma: no cover - every phase is handled above
            raise bad(f"unexpected phase {phase}")
    state = tl.state
    if state.hand is not None:
        raise _error(name, f"the record ends in the middle of the hand ({state.hand.phase} phase)", pos, rule="truncated")
    return events


@importer("openspiel")
class OpenSpiel(Importer):
    __doc__ = f"""Read OpenSpiel gin_rummy records and write one ginlog match file each.

    A record that is not valid gets an error naming it and the action's
    position; the other files go on. {SUPPORTED}

    Example: ginlog import openspiel records/*.txt -o imported/
    """

    pattern = "*.txt"

    def read(self, path: str) -> list[Event]:
        params, actions, _ = parse_record(read_record_text(path), path)
        return record_events(params, actions, path)


def import_file(path: str | os.PathLike[str], outdir: str | os.PathLike[str]) -> Path:
    """Import one record file to ``OUTDIR/<stem>.jsonl``; refuse to overwrite (:meth:`Importer.write_one`)."""
    return OpenSpiel().write_one(path, outdir)


def import_files(files: Iterable[str], outdir: str | os.PathLike[str], err: TextIO | None = None) -> tuple[int, int]:
    """Import many records, a folder searched for ``*.txt`` (:meth:`Importer.write`). Returns (ok, failed)."""
    return OpenSpiel().write(files, outdir, err)
