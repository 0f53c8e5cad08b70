"""The reducer: ``apply(state, event) -> state``, and every rule of play it enforces.

Pure: no files, no clock, no terminal. The same events always give the same
state, so a replay to any event is just a fold over a prefix. An illegal event
raises :class:`~ginlog.errors.IllegalMove` naming the rule (``rule``) and
what was expected; the caller (the log reader, the recorder) adds the place.

The rules live by topic: :mod:`~ginlog.play.setup` (the first dealer, the
deal), :mod:`~ginlog.play.turns` (the offer, draws, discards, going out),
:mod:`~ginlog.play.endings` (the show, lay-offs, voids, score-pad hands, the
score); :mod:`~ginlog.play.rulebook` says which rule each event type goes to,
:mod:`~ginlog.play.timeline` applies one event (corrections included) and
:mod:`~ginlog.play.fold` a whole log. This module is their public face.

Players are seats inside (``state.hand.turn`` is 0 or 1); an event's player
name becomes a seat once, as the event comes in (:mod:`ginlog.play.guards`).

Recording is the same path: an entry becomes a candidate event, :func:`apply`
checks it against the current state, and only then is it written.

>>> from ginlog.log.events import *
>>> from ginlog.game.rules import preset
>>> from ginlog.game.cards import parse_card as c
>>> tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
>>> tl = apply(tl, FirstDealer(dealer="Ann", how="agreed"), 2)
>>> tl = apply(tl, HandDealt(dealer="Ann", upcard=c("7h")), 3)
>>> tl.state.hand.turn, tl.state.hand.phase, tl.state.hand.stock  # seat 1 (Bob) to act
(1, 'offer', 31)
>>> apply(tl, CardDrawn(player="Ann", source="pile"), 4)
Traceback (most recent call last):
...
ginlog.errors.IllegalMove: it is Bob's turn, not Ann's [turn-order]
"""

from __future__ import annotations

from collections.abc import Iterable

from ginlog.log.events import Event
from ginlog.play.fold import SNAPSHOT_EVERY, Fold, Rewind
from ginlog.play.state import MatchState, Timeline
from ginlog.play.timeline import UNDO_DEPTH, apply, start, step

__all__ = ["start", "apply", "step", "fold", "Fold", "Rewind", "UNDO_DEPTH", "SNAPSHOT_EVERY", "legal_actions"]


def fold(events: Iterable[Event]) -> Timeline:
    """Apply a whole list of events (numbered from 1) and return the final timeline."""
    it = iter(events)
    tl = start(next(it))
    for seq, ev in enumerate(it, start=2):
        tl = apply(tl, ev, seq)
    return tl


def legal_actions(state: MatchState) -> list[str]:
    """What the player to act may do now, in words for the recorder's prompt (cards as the log shows them, K♦).

    The words are the entry language's (``ginlog.app.record.language``, whose tests hold these to its table).
    """
    if state.phase == "setup":
        return ["dealer NAME", "cut NAME CARD NAME CARD"]
    if state.phase == "ready":
        return ["upcard CARD (or the card alone: deal the next hand)", "result ... or NAME +POINTS (a score-pad hand)"]
    if state.phase in ("over", "abandoned"):
        return []
    hand = state.hand
    assert hand is not None
    top = hand.pile_top.pretty if hand.pile_top is not None else "nothing"
    if hand.phase == "offer":
        return [f"take (the upcard {top})", "pass"]
    if hand.phase == "wall":
        return [f"take ({top}) only to knock or go gin", "pass (the hand is void)"]
    if hand.phase == "draw":
        # The draw and the turn's ending may go on one line: 's d 7h', or the card alone (ginlog.app.record.entry).
        alone = "CARD (alone: s d CARD)"
        if hand.passes == 2 and hand.stock == 31:
            return ["stock [CARD] [d|k|g CARD]", alone]
        return ["stock [CARD] [d|k|g CARD]", f"take ({top} from the pile) [d|k|g CARD]", alone]
    if hand.phase == "discard" and hand.wall:
        return ["knock CARD", "gin CARD"]
    if hand.phase == "discard":
        acts = ["discard CARD (or the card alone)", "knock CARD", "gin CARD"]
        if state.rules.big_gin_bonus is not None:
            acts.append("biggin")
        return acts
    return ["show CARD... (the whole hand; 'show' may be left out)"]
