"""The independent brute-force solver's answers (shared/vectors), every line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typing import Any

from ginlog import Meld, best_arrangement, best_defence, min_deadwood, parse_cards
from ginlog.game.melds import check_arrangement

DATA = Path(__file__).parent / "data" / "vectors"


def _load(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


DEADWOOD = _load("deadwood.jsonl")
LAYOFF = _load("layoff.jsonl")


def test_vector_files_are_complete() -> None:
    assert len(DEADWOOD) == 492 and len(LAYOFF) == 250


@pytest.mark.parametrize("case", DEADWOOD, ids=lambda c: " ".join(c["hand"]))
def test_min_deadwood(case: dict[str, Any]) -> None:
    hand = parse_cards(case["hand"])
    assert min_deadwood(hand) == case["min_deadwood"]
    arrangement = best_arrangement(hand)
    # The arrangement returned is a real one of these cards and reaches the minimum.
    again = check_arrangement(hand, arrangement.melds)
    assert again.deadwood_value == arrangement.deadwood_value == case["min_deadwood"]
    # The example arrangement given is itself valid and reaches the same number.
    example = check_arrangement(hand, case["example_melds"])
    assert example.deadwood_value == case["min_deadwood"]


@pytest.mark.parametrize("case", LAYOFF, ids=lambda c: " ".join(c["defender_hand"]))
def test_layoff(case: dict[str, Any]) -> None:
    melds = [Meld.of(m) for m in case["knocker_melds"]]
    hand = parse_cards(case["defender_hand"])
    assert min_deadwood(hand) == case["defender_deadwood_without_layoff"]
    defence = best_defence(hand, melds)
    assert defence.deadwood_value == case["defender_deadwood_after_layoff"]
    # What is shown is consistent: own melds + lay-offs + deadwood are exactly the hand.
    shown = [c for m in defence.melds for c in m.cards] + list(defence.layoffs) + list(defence.deadwood)
    assert sorted(shown) == sorted(hand)
