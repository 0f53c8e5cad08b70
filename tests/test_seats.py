"""Seats inside, names at the edges: the score sheet is zero-sum and names only the match's players.

The state says who by seat (0 and 1); only ``MatchState.players`` holds names,
and the views turn seats into names. The bug this replaces: with names
throughout, a record whose players' names changed (an experiment with a
rename event) gave ``net {"Anne": -15, "Bob": -15}`` and ``deadwood {"Ann": 5,
"Anne": 20}``. These tests check the sheet over generated matches, and that
renaming the players renames the whole sheet and nothing else.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginlog.app.cli import command
from ginlog.app.views.match import describe, hand_summary, table_text
from ginlog.app.views.match_json import score_json
from ginlog.errors import IllegalMove
from ginlog.game.cards import DECK
from ginlog.game.rules import PRESETS, Rules, preset
from ginlog.log import writer
from ginlog.log.events import (
    SCHEMA_VERSION,
    Event,
    FirstDealer,
    HandResultOnly,
    MatchStarted,
    event_fields,
    event_type,
)
from ginlog.play.reducer import fold, start, step
from ginlog.play.simulate import simulate_hand, simulate_match
from ginlog.play.state import MatchState

from test_cli import invoke

NAME = st.text(alphabet=string.ascii_letters + string.digits + " '-", min_size=1, max_size=12).map(str.strip).filter(bool)
PLAYERS = st.lists(NAME, min_size=2, max_size=2, unique=True).map(tuple)


def pad_hand(state: MatchState, rng: random.Random) -> HandResultOnly:
    """A score-pad hand that is legal under the state's rules."""
    rules = state.rules
    upcard = rng.choice(DECK)
    hows = ["knock", "knock", "gin", "void"] + (["big_gin"] if rules.big_gin_bonus is not None else [])
    how = rng.choice(hows)
    if how == "void":
        return HandResultOnly(how="void", upcard=upcard)
    out = rng.choice(state.players)
    k = rng.randrange(rules.knock_limit_for(upcard) + 1) if how == "knock" else 0
    return HandResultOnly(how=how, out=out, knocker_deadwood=k, defender_deadwood=rng.randrange(60), upcard=upcard)  # type: ignore[arg-type]


def generated_match(rules: Rules, players: tuple[str, str], seed: int, hands: int, pads: float) -> list[Event]:
    """Up to ``hands`` hands, each simulated (full or table view) or kept on a score pad."""
    rng = random.Random(seed)
    first = MatchStarted(players=players, rules=rules)
    events: list[Event] = [first, FirstDealer(dealer=rng.choice(players), how="random")]
    state = step(start(first).state, events[1])
    for _ in range(hands):
        if state.phase != "ready":
            break
        if rng.random() < pads:
            ev = pad_hand(state, rng)
            try:
                state = step(state, ev)
            except IllegalMove:  # e.g. a knock under an Oklahoma ace: the next hand instead
                continue
            events.append(ev)
        else:
            more, state = simulate_hand(state, rng, mode=rng.choice(["full", "table"]))
            events += more
    return events


def check_sheet(sheet: dict[str, Any], players: tuple[str, str]) -> None:
    """Every name on the sheet is one of the two players, and every hand is zero-sum."""
    names = set(players)
    assert sheet["players"] == list(players)
    for row in sheet["hands"]:
        assert set(row["net"]) == names and sum(row["net"].values()) == 0, row
        assert set(row["deadwood"]) == (names if row["out"] is not None else set()), row
        assert row["dealer"] in names and {row["out"], row["winner"]} <= names | {None}, row
        assert set(row["totals"]) == names, row
        if row["winner"] is not None:
            assert row["net"][row["winner"]] == row["points"]
    assert set(sheet["totals"]) == names and set(sheet["net"]) == names
    assert sum(sheet["net"].values()) == 0
    assert sheet["winner"] in names | {None}
    for award in sheet["bonuses"].values():
        assert set(award) <= names


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(PRESETS)),
    players=PLAYERS,
    seed=st.integers(0, 2**32 - 1),
    hands=st.integers(1, 10),
    pads=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_every_finished_hand_is_zero_sum_and_names_only_the_players(
    name: str, players: tuple[str, str], seed: int, hands: int, pads: float
) -> None:
    events = generated_match(preset(name), players, seed, hands, pads)
    state = fold(events).state
    assert state.hands
    sheet = score_json(state, head=None)
    check_sheet(sheet, players)
    assert len(sheet["hands"]) == len(state.hands)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(PRESETS)), players=PLAYERS, seed=st.integers(0, 2**32 - 1))
def test_score_json_names_only_the_players(tmp_path: Path, name: str, players: tuple[str, str], seed: int) -> None:
    events = simulate_match(preset(name), seed=seed, players=players, mode="table")
    path = tmp_path / f"m{seed}.jsonl"
    path.unlink(missing_ok=True)
    writer.create(path, event_type(events[0]), SCHEMA_VERSION, event_fields(events[0]))
    writer.append_many(path, [(event_type(e), SCHEMA_VERSION, event_fields(e)) for e in events[1:]], expect=1)
    result = invoke(command(), ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    check_sheet(sheet, players)
    assert sheet["complete"]


def test_renaming_the_players_renames_the_whole_sheet() -> None:
    """The issue's experiment without a rename event: change ``players`` and nothing else.

    With names throughout the state, the finished hands and the tally kept
    saying "Ann", so the sheet came out with ``net {"Anne": -n, "Bob": -n}``.
    With seats the names are read from ``players`` alone.
    """
    events = simulate_match(preset("modern"), seed=4, max_hands=6)
    state = fold(events).state
    renamed = attrs.evolve(state, players=("Anne", "Bob"))
    before, after = score_json(state, None), score_json(renamed, None)
    check_sheet(after, ("Anne", "Bob"))
    assert "Ann" not in json.dumps(after).replace("Anne", "")
    assert json.dumps(after) == json.dumps(before).replace('"Ann"', '"Anne"')
    scored = next(h for h in renamed.hands if h.score.winner == 0)
    assert hand_summary(scored, renamed.players).count("Anne") >= 1
    assert "Ann " not in hand_summary(scored, renamed.players).replace("Anne", "")
    assert "Ann" not in table_text(renamed).replace("Anne", "")
    # An event still says its player by name: the words come from the event.
    assert describe(events[0], None, renamed).startswith("Match between Ann and Bob")


def test_the_sheet_names_a_bonus_of_nothing_as_before() -> None:
    from ginlog.game.rules import with_knobs

    rules = with_knobs(preset("classic"), shutout_bonus="0")
    events: list[Event] = [
        MatchStarted(players=("Gus", "Hana"), rules=rules),
        FirstDealer(dealer="Gus", how="agreed"),
        HandResultOnly(how="gin", out="Hana", defender_deadwood=90),
    ]
    bonuses = score_json(fold(events).state, None)["bonuses"]
    assert bonuses == {"game": {"Hana": rules.game_bonus}, "boxes": {"Hana": 20}, "shutout": {"Hana": 0}}
