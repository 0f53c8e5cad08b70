"""The checks every rule starts with (:mod:`ginlog.play.guards`): is the match ready for a hand, whose turn it is.

Each guard is asked about every state of generated matches (table view and full information, a match run to its
end and one abandoned) and held to what the frozen state itself says: its phase, its hand, whose turn.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ginlog.errors import IllegalMove
from ginlog.game.rules import preset, with_knobs
from ginlog.log.events import MatchAbandoned
from ginlog.play.guards import refuse_turn, require_ready, turn_hand
from ginlog.play.reducer import apply, start
from ginlog.play.simulate import simulate_match
from ginlog.play.state import MatchState
from ginlog.play.working import thaw

#: What a match that is not between hands says, by phase (None: it is ready).
NOT_READY = {"ready": None, "setup": "first-dealer", "hand": "hand-in-progress", "over": "match-over",
             "abandoned": "match-over"}


def states() -> Iterator[MatchState]:
    """Every state of two short matches, one played to its target, one abandoned in its second hand."""
    for mode, events in (
        ("full", simulate_match(with_knobs(preset("standard"), game_target="40"), seed=2)),
        ("table", [*simulate_match(preset("standard"), seed=9, mode="table", max_hands=2)[:-3],
                   MatchAbandoned(reason="rain")]),
    ):
        tl = start(events[0])
        yield tl.state
        for ev in events[1:]:
            tl = apply(tl, ev)
            yield tl.state
        assert tl.state.phase == ("over" if mode == "full" else "abandoned")


def rule_of(call: object) -> str | None:
    assert callable(call)
    try:
        call()
    except IllegalMove as e:
        return e.rule
    return None


def test_a_match_is_ready_for_a_hand_only_between_hands() -> None:
    seen = set()
    for state in states():
        seen.add(state.phase)
        assert rule_of(lambda: require_ready(thaw(state), "a new hand")) == NOT_READY[state.phase], state.phase
    assert seen == set(NOT_READY)


@pytest.mark.parametrize("player", ["Ann", "Bob", "Cy"])
def test_only_the_player_whose_turn_it_is_passes(player: str) -> None:
    for state in states():
        work = thaw(state)
        hand = state.hand
        if hand is not None and state.players[hand.turn] == player:
            assert turn_hand(work, player, "draw") is work.hand
            continue
        if hand is None:
            expected = "match-over" if state.phase in ("over", "abandoned") else "no-hand"
        else:
            expected = "unknown-player" if player not in state.players else "turn-order"
        assert rule_of(lambda: turn_hand(work, player, "draw")) == expected
        assert rule_of(lambda: refuse_turn(work, player, "draw")) == expected
