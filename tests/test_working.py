"""The reducer's working copy mirrors the frozen state exactly, and thawing never leaks."""

from __future__ import annotations

from typing import Any, cast

import attrs
import pytest

from ginlog.log.events import CardDrawn
from ginlog.play.reducer import fold
from ginlog.play.rulebook import RULES
from ginlog.game.rules import preset
from ginlog.play.simulate import simulate_match
from ginlog.play.state import HandState, MatchState
from ginlog.game.cards import Card, cards_mask
from ginlog.play import working
from ginlog.play.working import WorkingHand, WorkingMatch, thaw


def test_working_copies_have_exactly_the_frozen_fields_in_order() -> None:
    derived = tuple(working.DERIVED["WorkingHand"])
    assert WorkingHand.__slots__ == tuple(a.name for a in attrs.fields(HandState)) + derived
    assert WorkingMatch.__slots__ == tuple(a.name for a in attrs.fields(MatchState))


@pytest.mark.parametrize("mode", ["full", "table", "hands"])
def test_the_working_piles_mask_is_kept_by_the_rules_at_every_event(mode: str) -> None:
    """The one field of the working copy alone (``DERIVED``) is what thawing would make of it after every rule."""
    events = simulate_match(preset("oklahoma"), seed=5, mode=mode, max_hands=3)  # type: ignore[arg-type]
    work = thaw(fold(events[:1]).state)
    piles = 0
    for ev in events[1:]:
        RULES[type(ev)](work, ev)
        if work.hand is not None:
            assert work.hand.pile_mask == cards_mask(work.hand.pile), ev
            piles += len(work.hand.pile) > 1
    assert piles  # (the piles grew: the mask was kept through discards and draws)


@attrs.frozen
class Frozen:
    n: int
    pile: tuple[Card, ...]
    pair: tuple[int, int] = (0, 0)


def mirror_of(**fields: Any) -> type:
    return attrs.make_class("Working", fields, eq=False)


def field(annotation: str, **kw: Any) -> Any:
    """An attrs field annotated as a string, as ``from __future__ import annotations`` leaves it."""
    return attrs.field(type=cast(type, annotation), **kw)


def test_a_mirror_that_does_not_match_the_frozen_class_is_refused() -> None:
    ok = {"n": field("int"), "pile": field("list[Card]"), "pair": field("list[int]", default=[0, 0])}
    assert "list(f.pile)" in working._mirror(mirror_of(**ok), Frozen)
    broken = {
        "a field left out": {k: v for k, v in ok.items() if k != "pair"},
        "another order": {"pile": ok["pile"], "n": ok["n"], "pair": ok["pair"]},
        "a type with no copy": ok | {"pile": field("set[Card]")},
        "another item type": ok | {"pair": field("list[str]", default=[0, 0])},
        "another default": ok | {"pair": field("list[int]", default=[0, 1])},
    }
    for what, fields in broken.items():
        with pytest.raises(TypeError):
            working._mirror(mirror_of(**fields), Frozen)
            raise AssertionError(f"a mirror with {what} was accepted")


def test_the_generated_copies_are_plain_code() -> None:
    assert "w.pile = list(f.pile)" in working.SOURCE
    assert "(w.known[0], w.known[1])" in working.SOURCE  # a pair is rebuilt, not tuple()d


@pytest.mark.parametrize("mode", ["full", "table", "hands"])
def test_thaw_then_freeze_gives_back_an_equal_state_at_every_event(mode: str) -> None:
    events = simulate_match(preset("modern"), seed=7, mode=mode, max_hands=2)  # type: ignore[arg-type]
    for n in range(1, len(events) + 1):
        state = fold(events[:n]).state
        assert thaw(state).freeze() == state


def test_editing_a_working_copy_leaves_the_frozen_state_alone() -> None:
    events = simulate_match(preset("standard"), seed=3, mode="full", max_hands=1)
    first_draw = next(i for i, ev in enumerate(events) if isinstance(ev, CardDrawn))
    state = fold(events[:first_draw]).state
    assert state.hand is not None
    before = attrs.asdict(state.hand, recurse=False)
    work = thaw(state)
    assert work.hand is not None
    work.hand.pile.append(work.hand.pile[0])
    work.hand.known[0] |= 1
    work.hand.sizes[1] += 5
    work.hand.seen[1] = 7
    work.phase = "over"
    assert attrs.asdict(state.hand, recurse=False) == before and state.phase == "hand"
