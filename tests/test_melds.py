"""Melds by example: validity, least deadwood, the best discard, declared checks, where a lay-off fits.

Laying off (the defence, declared lay-offs) is in ``tests/test_layoffs.py``.

Expected numbers are worked out by hand in the comments, never taken from ginlog.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ginlog.game.cards import Card, parse_card, parse_cards
from ginlog.errors import CardError, MeldError
from ginlog.game.melds import (
    Meld,
    best_arrangement,
    best_discard,
    check_arrangement,
    is_big_gin,
    is_meld,
    layoff_fits,
    min_deadwood,
)


def texts(cards: Sequence[Card]) -> list[str]:
    return sorted(str(c) for c in cards)


def value(text: str) -> int:
    return sum(c.value for c in parse_cards(text))


# ---------------------------------------------------------------------------
# What is a meld


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7S 7C 7D", True),
        ("7S 7C 7D 7H", True),
        ("7h 7d 7s", True),
        ("AS 2S 3S", True),
        ("3S AS 2S", True),
        ("JH QH KH", True),
        ("9D TD JD QD KD", True),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", True),
        ("7S 7C", False),
        ("7S", False),
        ("", False),
        ("QS KS AS", False),  # ace is low only
        ("KS AS 2S", False),  # no wrapping
        ("QH KH AH 2H", False),
        ("5S 6S 8S", False),  # gap
        ("7S 8C 9D", False),  # consecutive but mixed suits
        ("7S 8S 9C", False),
        ("7S 7C 8S", False),
        ("7S 7C 7D 8S", False),
    ],
)
def test_is_meld(cards: str, expected: bool) -> None:
    assert is_meld(cards) is expected


@pytest.mark.parametrize("cards", [["7S", "7S", "7C"], ["7S", "7C", "7D", "7D"], ["7S", "8S", "8S", "9S"], "5h 6h 6H 7h"])
def test_is_meld_duplicates_are_not_a_meld(cards: str | list[str]) -> None:
    assert is_meld(cards) is False


def test_meld_of_sorts_and_classifies() -> None:
    run = Meld.of("8h 6h 7h")
    assert [str(c) for c in run.cards] == ["6H", "7H", "8H"]
    assert run.kind == "run"
    group = Meld.of(["7H", "7S", "7c"])
    assert [str(c) for c in group.cards] == ["7S", "7C", "7H"]
    assert group.kind == "set"
    assert Meld.of("AS 2S 3S").kind == "run"
    assert Meld.of("7S 7C 7D 7H").kind == "set"
    assert Meld.of("7H 8H 6H") == Meld.of("6H 7H 8H")


@pytest.mark.parametrize(
    ("cards", "fragment"),
    [
        ("7S 7C", "at least 3"),
        ("", "at least 3"),
        ("QH KH AH", "consecutive"),
        ("KH AH 2H", "consecutive"),
        ("5S 6S 8S", "consecutive"),
        ("7S 8C 9D", "one rank"),
        ("7S 7C 8C", "one suit"),
    ],
)
def test_meld_of_rejects_non_melds(cards: str, fragment: str) -> None:
    with pytest.raises(MeldError) as info:
        Meld.of(cards)
    assert info.value.rule == "bad-meld"
    assert fragment in info.value.message


def test_meld_of_rejects_duplicate_and_bad_cards() -> None:
    with pytest.raises(CardError) as info:
        Meld.of("7S 7S 7C")
    assert info.value.rule == "duplicate-card"
    with pytest.raises(CardError) as info2:
        Meld.of("7S 7C 7X")
    assert info2.value.rule == "card"


# ---------------------------------------------------------------------------
# Least deadwood


def test_min_deadwood_examples() -> None:
    # No meld at all: every card is deadwood. 2S 5S 9S KC 3C 7D JD 4H 8H QH.
    hand = "2S 5S 9S KC 3C 7D JD 4H 8H QH"
    assert min_deadwood(hand) == 2 + 5 + 9 + 10 + 3 + 7 + 10 + 4 + 8 + 10
    # A-2-3 is a run, but Q-K-A is not: QS KS AS score 10 + 10 + 1.
    assert min_deadwood("AS 2S 3S QH KH AH") == 10 + 10 + 1
    # Everything melds: 7S 7C 7D 7H as a set, 4D 5D 6D and TH JH QH KH as runs.
    assert min_deadwood("7S 7C 7D 7H 4D 5D 6D TH JH QH") == 0
    # The same answer from every input form.
    cards = parse_cards(hand)
    assert min_deadwood(list(cards)) == min_deadwood(hand) == min_deadwood(sum(c.bit for c in cards))
    assert min_deadwood("") == 0


def test_seven_of_hearts_goes_to_the_run_when_that_saves_more() -> None:
    # Set 7S 7C 7H leaves 8H 9H 2D = 19; run 7H 8H 9H leaves 7S 7C 2D = 16.
    hand = parse_cards("7S 7C 7H 8H 9H 2D")
    arr = best_arrangement(hand)
    assert arr.deadwood_value == 16
    assert [str(m) for m in arr.melds] == ["7H 8H 9H"]
    assert texts(arr.deadwood) == texts(parse_cards("7S 7C 2D"))
    assert min_deadwood(hand) == 16


def test_seven_of_hearts_goes_to_the_set_when_that_saves_more() -> None:
    # Set 7S 7C 7H leaves 5H 6H 2D = 13; run 5H 6H 7H leaves 7S 7C 2D = 16.
    hand = parse_cards("7S 7C 7H 5H 6H 2D")
    arr = best_arrangement(hand)
    assert arr.deadwood_value == 13
    assert [str(m) for m in arr.melds] == ["7S 7C 7H"]
    assert texts(arr.deadwood) == texts(parse_cards("5H 6H 2D"))


def test_four_sevens_split_between_a_set_and_a_run() -> None:
    # 7S 7C 7D as a set and 7H 8H 9H as a run leave nothing.
    hand = parse_cards("7S 7C 7D 7H 8H 9H")
    arr = best_arrangement(hand)
    assert arr.deadwood_value == 0
    assert sorted(str(m) for m in arr.melds) == ["7H 8H 9H", "7S 7C 7D"]
    assert check_arrangement(hand, arr.melds).deadwood_value == 0


# ---------------------------------------------------------------------------
# Checking a declared arrangement


def test_check_arrangement_valid() -> None:
    hand = parse_cards("7S 7C 7H 8H 9H 2D 3D 4D KS QC")
    arr = check_arrangement(hand, ["7S 7C 7H", "2d 3d 4d"])
    assert arr.deadwood_value == 8 + 9 + 10 + 10
    assert texts(arr.deadwood) == texts(parse_cards("8H 9H KS QC"))
    assert sorted(arr.cards) == sorted(hand)
    # Meld objects are accepted as well as text.
    assert check_arrangement(hand, [Meld.of("7H 8H 9H")]).deadwood_value == 7 + 7 + 2 + 3 + 4 + 10 + 10
    # No melds: everything is deadwood.
    assert check_arrangement(hand, []).deadwood_value == value("7S 7C 7H 8H 9H 2D 3D 4D KS QC")


def test_check_arrangement_card_not_in_hand() -> None:
    hand = parse_cards("7S 7C 7H 8H 9H 2D")
    with pytest.raises(MeldError) as info:
        check_arrangement(hand, ["7H 8H 9H", "2D 3D 4D"])
    assert info.value.rule == "meld-not-in-hand"
    assert "3D" in info.value.message


def test_check_arrangement_overlap() -> None:
    hand = parse_cards("7S 7C 7H 8H 9H 2D")
    with pytest.raises(MeldError) as info:
        check_arrangement(hand, ["7H 8H 9H", "7S 7C 7H"])
    assert info.value.rule == "meld-overlap"
    assert "7H" in info.value.message


@pytest.mark.parametrize("bad", ["7H 8H", "QH KH AH", "7S 8H 9H"])
def test_check_arrangement_invalid_meld(bad: str) -> None:
    hand = parse_cards("7S 7C 7H 8H 9H 2D QH KH AH")
    with pytest.raises(MeldError) as info:
        check_arrangement(hand, [bad])
    assert info.value.rule == "bad-meld"


# ---------------------------------------------------------------------------
# Best discard and big gin


def test_best_discard_openspiel_counter_example() -> None:
    # Spades A 4 5 6, clubs 3 4 5 6, diamonds 3 5 6. Runs 4S 5S 6S and 3C 4C 5C 6C
    # leave AS 3D 5D 6D = 15; discarding 6D leaves 9. The sets of 5s and 6s leave
    # AS 4S 3C 4C 3D = 15, 11 after a discard; mixes are worse. So 9.
    hand = parse_cards("As4s5s6s3c4c5c6c3d5d6d".replace("s", "s ").replace("c", "c ").replace("d", "d "))
    assert len(hand) == 11
    card, arr = best_discard(hand)
    assert arr.deadwood_value == 9
    assert card in hand
    assert str(card) == "6D"
    rest = [c for c in hand if c is not card]
    assert sorted(arr.cards) == sorted(rest)
    checked = check_arrangement(rest, arr.melds)
    assert checked.deadwood_value == 9
    assert texts(checked.deadwood) == texts(arr.deadwood)


def test_best_discard_throws_the_dead_card() -> None:
    # 2S 3S 4S, 7C 7D 7H and 9D TD JD meld; 5H and KC are dead: throw KC, keep 5.
    card, arr = best_discard("2S 3S 4S 7C 7D 7H 9D TD JD 5H KC")
    assert str(card) == "KC"
    assert arr.deadwood_value == 5
    # Gin after the discard.
    card2, arr2 = best_discard("2S 3S 4S 7C 7D 7H 9D TD JD QD 5H")
    assert str(card2) == "5H" and arr2.deadwood_value == 0


def test_best_discard_of_nothing() -> None:
    with pytest.raises(MeldError):
        best_discard([])


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("AS 2S 3S 4S 7C 7D 7H 9D TD JD QD", True),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", True),
        ("7S 7C 7D 7H 2D 3D 4D TH JH QH KH", True),
        ("AS 2S 3S 4S 7C 7D 7H 9D TD JD", False),  # ten cards, gin but not big gin
        ("AS 2S 3S 4S 7C 7D 7H 9D TD JD KD", False),  # KD is dead
        ("AS 2S 3S 4S 7C 7D 7H 9D TD JD QD KD", False),  # twelve cards
        ("QS KS AS 4C 5C 6C 7D 7H 7S 9H TH", False),  # Q-K-A is no run
    ],
)
def test_is_big_gin(cards: str, expected: bool) -> None:
    assert is_big_gin(cards) is expected


def test_layoff_fits() -> None:
    run = Meld.of("5S 6S 7S")
    assert layoff_fits(run, parse_card("4S")) and layoff_fits(run, parse_card("8S"))
    assert not layoff_fits(run, parse_card("9S"))
    assert not layoff_fits(run, parse_card("8C"))
    assert not layoff_fits(Meld.of("JS QS KS"), parse_card("AS"))
    assert layoff_fits(Meld.of("AS 2S 3S"), parse_card("4S"))
    assert not layoff_fits(Meld.of("AS 2S 3S"), parse_card("KS"))
    assert layoff_fits(Meld.of("9S 9C 9D"), parse_card("9H"))
    assert not layoff_fits(Meld.of("9S 9C 9D"), parse_card("TS"))
    assert run.accepts(parse_card("8S"))
    assert str(run.extended(parse_card("4S"))) == "4S 5S 6S 7S"
