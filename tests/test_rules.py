"""Rule knobs and presets: the rule book's table, (de)serialisation, text knobs, Oklahoma."""

from __future__ import annotations

import json
from typing import Any

import attrs
import cattrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginlog.game.cards import DECK, parse_card
from ginlog.errors import RulesError
from ginlog.game.rules import (
    PRESETS,
    SCHEMA_2_KNOBS,
    Hollywood,
    Oklahoma,
    Rules,
    preset,
    rules_from_dict,
    rules_to_dict,
    with_knobs,
)

# ---------------------------------------------------------------------------
# The preset table of RULES.md, cell by cell

TABLE: dict[str, dict[str, Any]] = {
    # knob: how-to guide (standard) | newspaper | modern | classic | OpenSpiel
    "knock_limit": {"standard": 10, "newspaper": 9, "modern": 10, "classic": 10, "openspiel": 10},
    "gin_bonus": {"standard": 20, "newspaper": 25, "modern": 25, "classic": 20, "openspiel": 25},
    "big_gin_bonus": {"standard": None, "newspaper": None, "modern": 31, "classic": None, "openspiel": None},
    "undercut_bonus": {"standard": 10, "newspaper": 10, "modern": 25, "classic": 10, "openspiel": 25},
    "undercut_on_tie": {"standard": True, "newspaper": True, "modern": True, "classic": True, "openspiel": False},
    "may_discard_taken_card": {
        "standard": False, "newspaper": False, "modern": False, "classic": False, "openspiel": True,
    },
    "next_dealer": {"standard": "winner", "newspaper": "winner", "modern": "winner", "classic": "winner"},
    "game_target": {"standard": 100, "newspaper": 100, "modern": 100, "classic": 100, "openspiel": None},
    "game_bonus": {"standard": 0, "newspaper": 0, "modern": 100, "classic": 100, "openspiel": 0},
    "box_bonus": {"standard": 0, "newspaper": 0, "modern": 25, "classic": 20, "openspiel": 0},
    "shutout": {"standard": "none", "newspaper": "none", "modern": "double", "classic": "flat", "openspiel": "none"},
}
CELLS = [(knob, name, value) for knob, row in TABLE.items() for name, value in row.items()]


def test_presets_exist() -> None:
    assert set(PRESETS) >= {"standard", "newspaper", "modern", "classic", "oklahoma", "openspiel"}
    for name in ("standard", "newspaper", "modern", "classic", "oklahoma", "openspiel"):
        assert isinstance(preset(name), Rules)
        assert preset(name) is PRESETS[name]


@pytest.mark.parametrize(("knob", "name", "value"), CELLS, ids=[f"{n}-{k}" for k, n, _ in CELLS])
def test_preset_table_cell(knob: str, name: str, value: Any) -> None:
    assert getattr(preset(name), knob) == value


def test_classic_shutout_is_flat_100() -> None:
    assert preset("classic").shutout_bonus == 100


def test_openspiel_extras() -> None:
    # Its loop voids: void on the 50th take of the upcard, and on the take-and-return loop.
    ops = preset("openspiel")
    assert ops.upcard_take_limit == 50
    assert ops.void_on_upcard_loop is True
    assert ops.single_hand is True
    assert preset("standard").single_hand is False
    for name in ("standard", "newspaper", "modern", "classic", "oklahoma"):
        assert preset(name).upcard_take_limit is None
        assert preset(name).void_on_upcard_loop is False


def test_oklahoma_preset() -> None:
    ok = preset("oklahoma")
    assert ok.oklahoma == Oklahoma(ace="gin", spades_double=True)
    assert ok.game_target == 150  # "games often go to 150"
    # Otherwise the how-to guide's values.
    assert attrs.evolve(ok, oklahoma=None, game_target=100) == preset("standard")
    for name in ("standard", "newspaper", "modern", "classic", "openspiel"):
        assert preset(name).oklahoma is None


def test_newspaper_is_standard_with_knock_9_and_gin_25() -> None:
    assert preset("newspaper") == attrs.evolve(preset("standard"), knock_limit=9, gin_bonus=25)
    assert preset("newspaper") == with_knobs(preset("standard"), knock_limit="9", gin_bonus="25")
    assert preset("newspaper") != preset("standard")


def test_defaults_are_the_how_to_guide() -> None:
    assert Rules() == preset("standard")


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as info:
        preset("tournament")
    assert info.value.rule == "rules"
    assert "'tournament'" in info.value.message
    assert "standard" in info.value.message  # lists the names


# ---------------------------------------------------------------------------
# rules_to_dict / rules_from_dict


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_round_trip(name: str) -> None:
    rules = preset(name)
    data = rules_to_dict(rules)
    # Every knob of schema 2 is written out; a knob added later only when it is set (docs/VERSIONING.md).
    later = {f.name for f in attrs.fields(Rules) if f.name not in SCHEMA_2_KNOBS and getattr(rules, f.name) != f.default}
    assert set(data) == SCHEMA_2_KNOBS | later
    assert rules_from_dict(data) == rules
    # Through JSON text too, as in a match file.
    assert rules_from_dict(json.loads(json.dumps(data))) == rules


RULES_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "knock_limit": st.integers(0, 60),
    "gin_bonus": st.integers(0, 200),
    "big_gin_bonus": st.none() | st.integers(0, 200),
    "undercut_bonus": st.integers(0, 200),
    "undercut_on_tie": st.booleans(),
    "may_discard_taken_card": st.booleans(),
    "void_stock_size": st.integers(0, 31),
    "game_target": st.none() | st.integers(1, 1000),
    "next_dealer": st.sampled_from(["winner", "loser", "alternate"]),
    "game_bonus": st.integers(0, 500),
    "box_bonus": st.integers(0, 100),
    "box_timing": st.sampled_from(["end", "hand"]),
    "shutout": st.sampled_from(["none", "double", "flat"]),
    "shutout_bonus": st.integers(0, 500),
    "oklahoma": st.none() | st.builds(Oklahoma, ace=st.sampled_from(["gin", "one"]), spades_double=st.booleans()),
    "upcard_take_limit": st.none() | st.integers(1, 100),
    "void_on_upcard_loop": st.booleans(),
    "wall_knock": st.booleans(),
    "layoff_chain_limit": st.none() | st.integers(1, 5),
    "hollywood": st.none() | st.builds(Hollywood, shut_out_moves_on=st.booleans()),
    "loop_counts_first_upcard": st.booleans(),
    "deal_eleven": st.booleans(),
    "dead_stock_pickups": st.booleans(),
    "move_limit": st.none() | st.integers(1, 100_000),
    "may_go_out_with_taken_card": st.booleans(),
    "gin_compulsory": st.booleans(),
    "layoffs": st.booleans(),
}


def any_rules() -> st.SearchStrategy[Rules]:
    # An 11/10 deal turns no upcard, so it never goes with Oklahoma (refused: test_deal_eleven_refuses_oklahoma).
    knobs = st.fixed_dictionaries(RULES_FIELDS).filter(lambda d: not (d["deal_eleven"] and d["oklahoma"]))
    return knobs.map(lambda d: Rules(**d))


def test_generated_rules_cover_every_knob() -> None:
    # A knob added to Rules must be added to RULES_FIELDS, so the round trip covers it.
    assert set(RULES_FIELDS) == set(attrs.fields_dict(Rules))


@settings(max_examples=200, deadline=None)
@given(any_rules())
def test_round_trip_generated_rules(rules: Rules) -> None:
    data = rules_to_dict(rules)
    assert rules_from_dict(data) == rules
    assert rules_from_dict(json.loads(json.dumps(data))) == rules


def test_partial_dicts_take_defaults() -> None:
    assert rules_from_dict({}) == preset("standard")
    assert rules_from_dict({"knock_limit": 9, "gin_bonus": 25}) == preset("newspaper")
    assert rules_from_dict({"oklahoma": {"ace": "one"}}).oklahoma == Oklahoma(ace="one", spades_double=True)
    assert rules_from_dict({"big_gin_bonus": None}).big_gin_bonus is None
    assert rules_from_dict({"big_gin_bonus": 31}).big_gin_bonus == 31


BAD_DICTS: list[tuple[Any, str]] = [
    # unknown knobs
    ({"knock_limt": 9}, "knock_limt"),
    ({"oklahoma": {"aces": "gin"}}, "aces"),
    # wrong JSON types
    ({"knock_limit": "10"}, "knock_limit"),
    ({"knock_limit": 10.0}, "knock_limit"),
    ({"knock_limit": True}, "knock_limit"),
    ({"undercut_on_tie": 1}, "undercut_on_tie"),
    ({"undercut_on_tie": "true"}, "undercut_on_tie"),
    ({"may_discard_taken_card": 0}, "may_discard_taken_card"),
    ({"big_gin_bonus": "31"}, "big_gin_bonus"),
    ({"game_target": "100"}, "game_target"),
    ({"next_dealer": 1}, "next_dealer"),
    ({"oklahoma": "on"}, "oklahoma"),
    ({"oklahoma": {"spades_double": "yes"}}, "spades_double"),
    ({"oklahoma": {"ace": 1}}, "ace"),
    ({"knock_limit": None}, "knock_limit"),
    # out of range
    ({"knock_limit": -1}, "knock_limit"),
    ({"gin_bonus": -20}, "gin_bonus"),
    ({"big_gin_bonus": -31}, "big_gin_bonus"),
    ({"undercut_bonus": -10}, "undercut_bonus"),
    ({"void_stock_size": -2}, "void_stock_size"),
    ({"game_target": -100}, "game_target"),
    ({"box_bonus": -25}, "box_bonus"),
    # bad enum values
    ({"next_dealer": "nobody"}, "next_dealer"),
    ({"next_dealer": "Winner"}, "next_dealer"),
    ({"box_timing": "never"}, "box_timing"),
    ({"shutout": "triple"}, "shutout"),
    ({"oklahoma": {"ace": "two"}}, "ace"),
]


@pytest.mark.parametrize(("data", "knob"), BAD_DICTS, ids=[json.dumps(d) for d, _ in BAD_DICTS])
def test_rules_from_dict_rejects(data: dict[str, Any], knob: str) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    err = info.value
    assert type(err) is RulesError
    assert not isinstance(err, cattrs.BaseValidationError)
    assert err.rule == ("unknown-knob" if "unknown" in err.message else "rules")  # docs/VERSIONING.md
    assert "\n" not in err.one_line()


@pytest.mark.parametrize(("data", "knob"), BAD_DICTS, ids=[json.dumps(d) for d, _ in BAD_DICTS])
def test_rules_from_dict_error_names_the_knob(data: dict[str, Any], knob: str) -> None:
    # The one line a user sees must say which knob is wrong, in ginlog's words.
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert knob in info.value.message, info.value.message
    assert "typing." not in info.value.message, info.value.message


@pytest.mark.parametrize("data", [[], "standard", 10, None])
def test_rules_from_dict_rejects_non_objects(data: Any) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert type(info.value) is RulesError


def test_rules_from_dict_bad_knob_added_to_a_full_dict() -> None:
    data = rules_to_dict(preset("modern"))
    data["shutout"] = "quadruple"
    with pytest.raises(RulesError):
        rules_from_dict(data)


# ---------------------------------------------------------------------------
# with_knobs: values typed as text (--set KNOB=VALUE)


def test_with_knobs_ints() -> None:
    std = preset("standard")
    assert with_knobs(std, knock_limit="9").knock_limit == 9
    assert with_knobs(std, gin_bonus=" 25 ").gin_bonus == 25
    assert with_knobs(std, knock_limit="0").knock_limit == 0
    assert with_knobs(std, big_gin_bonus="31").big_gin_bonus == 31
    assert with_knobs(std, game_target="150").game_target == 150
    # Only the knob asked for changes.
    assert with_knobs(std, undercut_bonus="25") == attrs.evolve(std, undercut_bonus=25)


@pytest.mark.parametrize(("text", "expected"), [
    ("true", True), ("yes", True), ("on", True), ("1", True), ("TRUE", True),
    ("false", False), ("no", False), ("off", False), ("0", False), ("False", False),
])
def test_with_knobs_bools(text: str, expected: bool) -> None:
    assert with_knobs(preset("standard"), undercut_on_tie=text).undercut_on_tie is expected
    assert with_knobs(preset("openspiel"), may_discard_taken_card=text).may_discard_taken_card is expected


@pytest.mark.parametrize("text", ["null", "off", "none", "NULL"])
def test_with_knobs_null(text: str) -> None:
    assert with_knobs(preset("modern"), big_gin_bonus=text).big_gin_bonus is None
    assert with_knobs(preset("openspiel"), upcard_take_limit=text).upcard_take_limit is None


@pytest.mark.parametrize("text", ["null", "off"])
def test_with_knobs_game_target_null_is_a_single_hand(text: str) -> None:
    # game_target may be null (OpenSpiel's single hand), so it may be set to null.
    rules = with_knobs(preset("standard"), game_target=text)
    assert rules.game_target is None and rules.single_hand


def test_with_knobs_on_openspiel() -> None:
    # Changing any knob of the single-hand preset keeps its null target.
    rules = with_knobs(preset("openspiel"), knock_limit="9")
    assert rules == attrs.evolve(preset("openspiel"), knock_limit=9)


def test_with_knobs_text_choices() -> None:
    assert with_knobs(preset("standard"), next_dealer="alternate").next_dealer == "alternate"
    assert with_knobs(preset("standard"), next_dealer="Loser").next_dealer == "loser"
    assert with_knobs(preset("standard"), box_timing="hand").box_timing == "hand"
    assert with_knobs(preset("standard"), shutout="flat").shutout == "flat"


def test_with_knobs_oklahoma() -> None:
    std = preset("standard")
    assert with_knobs(std, oklahoma="on").oklahoma == Oklahoma(ace="gin", spades_double=True)
    assert with_knobs(std, oklahoma="one").oklahoma == Oklahoma(ace="one", spades_double=True)
    assert with_knobs(preset("oklahoma"), oklahoma="off").oklahoma is None
    assert with_knobs(preset("oklahoma"), oklahoma="null").oklahoma is None
    assert with_knobs(std, oklahoma="gin-nodouble").oklahoma == Oklahoma(ace="gin", spades_double=False)
    assert with_knobs(std, oklahoma="one-nodouble").oklahoma == Oklahoma(ace="one", spades_double=False)


@pytest.mark.parametrize(
    ("knob", "text"),
    [
        ("knock_limit", "ten"),
        ("knock_limit", "-1"),
        ("knock_limit", "9.5"),
        ("knock_limit", "null"),
        ("knock_limit", ""),
        ("undercut_on_tie", "maybe"),
        ("undercut_on_tie", "2"),
        ("next_dealer", "nobody"),
        ("box_timing", "sometimes"),
        ("shutout", "triple"),
        ("oklahoma", "two"),
        ("oklahoma", "maybe"),
        ("hollywood", "maybe"),
        ("hollywood", "100"),
        ("knock_limt", "9"),
    ],
)
def test_with_knobs_rejects(knob: str, text: str) -> None:
    with pytest.raises(RulesError) as info:
        with_knobs(preset("standard"), **{knob: text})
    assert type(info.value) is RulesError
    assert info.value.rule == "rules"


def test_with_knobs_leaves_the_original_alone() -> None:
    std = preset("standard")
    with_knobs(std, knock_limit="5")
    assert std.knock_limit == 10 and preset("standard").knock_limit == 10


# ---------------------------------------------------------------------------
# Oklahoma: knock limit and multiplier from the first upcard


@pytest.mark.parametrize("rank_text", list("23456789"))
def test_oklahoma_number_card_sets_the_knock_limit(rank_text: str) -> None:
    ok = preset("oklahoma")
    for suit in "SCDH":
        assert ok.knock_limit_for(parse_card(rank_text + suit)) == int(rank_text)


@pytest.mark.parametrize("rank_text", ["T", "J", "Q", "K"])
def test_oklahoma_ten_and_face_cards_give_10(rank_text: str) -> None:
    assert preset("oklahoma").knock_limit_for(parse_card(rank_text + "H")) == 10


def test_oklahoma_ace() -> None:
    gin_only = preset("oklahoma")
    assert gin_only.oklahoma is not None and gin_only.oklahoma.ace == "gin"
    assert all(gin_only.knock_limit_for(parse_card("A" + s)) == 0 for s in "SCDH")
    one = with_knobs(preset("oklahoma"), oklahoma="one")
    assert all(one.knock_limit_for(parse_card("A" + s)) == 1 for s in "SCDH")


def test_knock_limit_without_oklahoma_ignores_the_upcard() -> None:
    for card in DECK:
        assert preset("standard").knock_limit_for(card) == 10
        assert preset("newspaper").knock_limit_for(card) == 9


def test_multiplier_for_spades() -> None:
    ok = preset("oklahoma")
    for card in DECK:
        assert ok.multiplier_for(card) == (2 if card.suit == "S" else 1)
        assert preset("standard").multiplier_for(card) == 1
    no_double = with_knobs(ok, oklahoma="gin-nodouble")
    assert all(no_double.multiplier_for(card) == 1 for card in DECK)


def test_hollywood_is_credited_to_its_one_source_everywhere() -> None:
    """Issue 21: the README credited rummy-games.com while ``ginlog rules`` said Hoyle; the seeds have no Hollywood,
    so the preset's help, the knob's docs and the README name the page the rules come from, and nothing says Hoyle."""
    from pathlib import Path

    from ginlog.game import hollywood
    from ginlog.game.rules import PRESET_HELP, Hollywood

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for text in (PRESET_HELP["hollywood"], hollywood.__doc__ or "", Hollywood.__doc__ or "", readme):
        assert "rummy-games.com" in text and "Hoyle" not in text
    assert "higher sum of the three" in PRESET_HELP["hollywood"] and "higher sum of the three games" in readme
