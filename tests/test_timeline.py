"""Corrections (:mod:`ginlog.play.timeline`), by example through the reducer: a correction takes back the last
effective event, and the state is as if it had never been; notes count as events and change nothing.

Corrections around the fold's snapshots are in ``tests/test_fold.py``.
"""

from __future__ import annotations

from ginlog.game.rules import preset
from ginlog.log.events import Correction, Event, MatchStarted, Note
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline

from reducing import (
    ANN_CARDS, BOB_SHOWS, FULL, TO_KNOCK, by_name, discard, hand_of, opening, pass_, play, rule_of, show, stock,
    who,
)


# ---------------------------------------------------------------------------
# Corrections


DISCARD_JH: list[Event] = [pass_("Bob"), pass_("Ann"), stock("Bob", "KH"), discard("Bob", "JH")]


def numbered(events: list[Event]) -> Timeline:
    """Fold with seq numbers as a file gives them (1, 2, ...), corrections included."""
    tl = start(events[0])
    for seq, ev in enumerate(events[1:], start=2):
        tl = apply(tl, ev, seq)
    return tl


def test_a_correction_undoes_a_discard() -> None:
    events = [*opening(), FULL, *DISCARD_JH]  # the discard is event 7
    tl = numbered([*events, Correction(undoes=7)])
    assert tl.state == play(events[:-1]).state
    assert tl.seq == 6 and hand_of(tl).phase == "discard" and who(hand_of(tl).turn) == "Bob"


def test_a_corrected_discard_re_entered_is_as_if_the_mistake_never_happened() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered([*events, Correction(undoes=7, reason="it was 9C"), discard("Bob", "9C")])
    assert tl.state == play([*events[:-1], discard("Bob", "9C")]).state
    assert tl.seq == 9


def test_two_corrections_undo_two_events() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered([*events, Correction(undoes=7), Correction(undoes=6)])
    assert tl.state == play(events[:-2]).state
    assert tl.seq == 5


def test_a_correction_must_name_the_last_effective_event() -> None:
    events = [*opening(), FULL, *DISCARD_JH]
    tl = numbered(events)
    assert rule_of(tl, Correction(undoes=6)) == "correction"
    tl = apply(tl, Correction(undoes=7), 8)
    assert rule_of(tl, Correction(undoes=7)) == "correction"  # 7 is gone: 6 is last now


def test_a_correction_can_undo_a_finished_hand() -> None:
    events = [*opening(), FULL, *TO_KNOCK, BOB_SHOWS, show("Ann", ANN_CARDS)]
    tl = numbered([*events, Correction(undoes=len(events))])
    assert tl.state == play(events[:-1]).state
    assert tl.state.hands == () and by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 0}


def test_a_note_changes_nothing_and_is_an_effective_event() -> None:
    events = [*opening(), FULL, pass_("Bob")]
    tl = numbered([*events, Note(text="Bob thinks a while")])
    assert tl.state == play(events).state and tl.seq == 5
    assert numbered([*events, Note(text="x"), Correction(undoes=5)]).seq == 4


def test_there_is_nothing_to_undo_at_the_start() -> None:
    tl = start(MatchStarted(players=("Ann", "Bob"), rules=preset("standard")))
    assert rule_of(tl, Correction(undoes=1)) == "correction"
