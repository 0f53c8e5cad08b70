"""Lay-offs by example (:mod:`ginlog.game.layoffs`): the defender's best defence, chained and gap-filling lay-offs,
declared lay-offs checked in order, OpenSpiel's chain limit.

Expected numbers are worked out by hand in the comments, never taken from ginlog; the defence against a naive
brute force is in ``tests/test_melds_properties.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ginlog.errors import MeldError
from ginlog.game.cards import Card, parse_cards
from ginlog.game.layoffs import Defence, best_defence, check_layoffs
from ginlog.game.melds import Meld, best_arrangement, check_arrangement, layoff_fits


def texts(cards: Sequence[Card]) -> list[str]:
    return sorted(str(c) for c in cards)


def value(text: str) -> int:
    return sum(c.value for c in parse_cards(text))


def assert_defence_consistent(defender: str, knocker_melds: Sequence[Meld], d: Defence) -> None:
    """Own melds valid and disjoint, lay-offs legal in order, cards exactly the hand."""
    hand = parse_cards(defender)
    laid = set(d.layoffs)
    own = [c for m in d.melds for c in m.cards]
    assert len(own) == len(set(own))
    assert not laid & set(own)
    assert sorted(own + list(d.layoffs) + list(d.deadwood)) == sorted(hand)
    rest = [c for c in hand if c not in laid]
    again = check_arrangement(rest, [str(m) for m in d.melds])
    assert texts(again.deadwood) == texts(d.deadwood)
    assert d.deadwood_value == sum(c.value for c in d.deadwood)
    # The lay-offs, replayed in the order given, are legal.
    extended = check_layoffs(knocker_melds, d.layoffs)
    assert sum(len(m.cards) for m in extended) == sum(len(m.cards) for m in knocker_melds) + len(d.layoffs)


# ---------------------------------------------------------------------------
# Lay-offs


def test_chained_layoffs_onto_a_run() -> None:
    # 8S then 9S extend 5S 6S 7S; 2D 3D 4D is the defender's own run.
    knocker = [Meld.of("5S 6S 7S")]
    defender = "8S 9S 2D 3D 4D KC QC JH TH 5H"
    d = best_defence(defender, knocker)
    assert [str(c) for c in d.layoffs] == ["8S", "9S"]  # the only legal order
    assert [str(m) for m in d.melds] == ["2D 3D 4D"]
    assert d.deadwood_value == value("KC QC JH TH 5H") == 45
    assert_defence_consistent(defender, knocker, d)


def test_chains_at_both_ends_of_a_run() -> None:
    knocker = [Meld.of("5S 6S 7S")]
    defender = "3S 4S 8S KC QD JH 9C 2D TH 6H"
    d = best_defence(defender, knocker)
    assert texts(d.layoffs) == texts(parse_cards("3S 4S 8S"))
    order = [str(c) for c in d.layoffs]
    assert order.index("4S") < order.index("3S")
    assert d.deadwood_value == value("KC QD JH 9C 2D TH 6H")
    assert_defence_consistent(defender, knocker, d)


def test_layoff_onto_a_set_of_three() -> None:
    knocker = [Meld.of("8C 8D 8H")]
    defender = "8S 2D 3D 4D KC QC JH TH 5H 9C"
    d = best_defence(defender, knocker)
    assert [str(c) for c in d.layoffs] == ["8S"]
    assert d.deadwood_value == value("KC QC JH TH 5H 9C") == 54
    assert_defence_consistent(defender, knocker, d)


def test_no_layoff_onto_a_set_of_four() -> None:
    four = Meld.of("8S 8C 8D 8H")
    assert not any(layoff_fits(four, c) for c in parse_cards("7S 9S 7H 9H 8S"))
    defender = "7S 9S 7H 9H 2D 3D 4D KC QC JH"
    d = best_defence(defender, [four])
    assert d.layoffs == ()
    assert d.deadwood_value == value("7S 9S 7H 9H KC QC JH") == 62
    assert_defence_consistent(defender, [four], d)


def test_card_kept_in_own_set_when_that_saves_more() -> None:
    # Own set 8S 8C 8D leaves 9S KH QH 2C 3D 4H 6D = 44; laying off 8S and 9S
    # onto 5S 6S 7S instead leaves 8C 8D plus the same 35 = 51.
    knocker = [Meld.of("5S 6S 7S")]
    defender = "8S 8C 8D 9S KH QH 2C 3D 4H 6D"
    d = best_defence(defender, knocker)
    assert d.layoffs == ()
    assert [str(m) for m in d.melds] == ["8S 8C 8D"]
    assert d.deadwood_value == 44
    assert_defence_consistent(defender, knocker, d)


def test_card_laid_off_when_that_saves_more() -> None:
    # Laying off 8S lets 8C 9C TC be a run: only 8D and 2H 4H 6H KD JD (32) are left = 40.
    # Own set 8S 8C 8D would leave 9C TC + 32 = 51; own run 8C 9C TC with 8S kept, 48.
    knocker = [Meld.of("5S 6S 7S")]
    defender = "8S 8C 8D 9C TC 2H 4H 6H KD JD"
    d = best_defence(defender, knocker)
    assert [str(c) for c in d.layoffs] == ["8S"]
    assert [str(m) for m in d.melds] == ["8C 9C TC"]
    assert d.deadwood_value == 40
    assert_defence_consistent(defender, knocker, d)


def test_tie_between_own_run_and_layoffs_prefers_fewer_layoffs() -> None:
    # 8S 9S TS as own run or laid off onto 5S 6S 7S: 43 left either way.
    knocker = [Meld.of("5S 6S 7S")]
    defender = "8S 9S TS 2H 4H 6H KD JD 8C 3C"
    d = best_defence(defender, knocker)
    assert d.deadwood_value == 43
    assert d.layoffs == ()
    assert_defence_consistent(defender, knocker, d)


def test_gap_between_two_knocker_runs_filled_from_both_sides() -> None:
    # 4H extends AH 2H 3H upward, 6H extends 7H 8H 9H downward; the rest is dead.
    knocker = [Meld.of("AH 2H 3H"), Meld.of("7H 8H 9H")]
    defender = "4H 6H KS QC JD 9C 2S 5C 8D TS"
    d = best_defence(defender, knocker)
    assert texts(d.layoffs) == ["4H", "6H"]
    assert d.deadwood_value == value("KS QC JD 9C 2S 5C 8D TS") == 64
    assert_defence_consistent(defender, knocker, d)


def test_gap_filled_with_a_chain_from_one_side() -> None:
    # 4H then 5H onto AH 2H 3H, 7H onto 8H 9H TH: 66 - 16 = 50 left.
    knocker = [Meld.of("AH 2H 3H"), Meld.of("8H 9H TH")]
    defender = "4H 5H 7H KS QC JD 9C 2S 6C 3D"
    d = best_defence(defender, knocker)
    assert texts(d.layoffs) == ["4H", "5H", "7H"]
    order = [str(c) for c in d.layoffs]
    assert order.index("4H") < order.index("5H")
    assert d.deadwood_value == value("KS QC JD 9C 2S 6C 3D") == 50
    assert_defence_consistent(defender, knocker, d)


def test_gap_of_three_filled_exactly() -> None:
    # Knocker AH 2H 3H and 7H 8H 9H, defender 4H 5H 6H: laid off or melded, nothing of it is left.
    knocker = [Meld.of("AH 2H 3H"), Meld.of("7H 8H 9H")]
    defender = "4H 5H 6H KS QC JD 9C 2S 5C 8D"
    d = best_defence(defender, knocker)
    assert d.deadwood_value == value("KS QC JD 9C 2S 5C 8D") == 54
    assert_defence_consistent(defender, knocker, d)


def test_best_defence_rejects_a_card_in_both_hands() -> None:
    with pytest.raises(MeldError) as info:
        best_defence("8S 9S 2D", [Meld.of("7S 8S 9S")])
    assert info.value.rule == "duplicate-card"


@pytest.mark.parametrize("set_first", [False, True])
def test_layoff_fitting_a_set_and_a_run_whatever_the_meld_order(set_first: bool) -> None:
    # 8H fits both the set 8S 8C 8D (its 4th) and the run 5H 6H 7H; on the run it
    # lets 9H follow. Best: lay off 8H then 9H, leaving KC QC JS TS 5C = 45.
    # (2D 3D 4D is the defender's own run.) The order the knocker listed the melds
    # in must not matter.
    melds = [Meld.of("5H 6H 7H"), Meld.of("8S 8C 8D")]
    if set_first:
        melds.reverse()
    defender = "8H 9H 2D 3D 4D KC QC JS TS 5C"
    d = best_defence(defender, melds)
    assert [str(c) for c in d.layoffs] == ["8H", "9H"]
    assert d.deadwood_value == 45
    assert_defence_consistent(defender, melds, d)


def test_layoffs_onto_the_knockers_best_arrangement() -> None:
    # The knocker's best arrangement lists the set 8S 8C 8D before the run 5H 6H 7H
    # (sorted by cards); the defender's 8H and 9H still go onto the run.
    knocker_hand = parse_cards("8S 8C 8D 5H 6H 7H AC 2C 3C 4S")
    arr = best_arrangement(knocker_hand)
    assert arr.deadwood_value == 4
    defender = "8H 9H 2D 3D 4D KC QC JS TS 5C"
    d = best_defence(defender, arr.melds)
    assert texts(d.layoffs) == ["8H", "9H"]
    assert d.deadwood_value == 45
    assert_defence_consistent(defender, arr.melds, d)


# ---------------------------------------------------------------------------
# Checking declared lay-offs


def test_check_layoffs_accepts_legal_orders() -> None:
    run = Meld.of("5S 6S 7S")
    assert [str(m) for m in check_layoffs([run], parse_cards("8S 9S"))] == ["5S 6S 7S 8S 9S"]
    assert [str(m) for m in check_layoffs([run], parse_cards("4S 8S 3S 9S"))] == ["3S 4S 5S 6S 7S 8S 9S"]
    assert check_layoffs([run], ()) == (run,)
    group = Meld.of("8C 8D 8H")
    (four,) = check_layoffs([group], parse_cards("8S"))
    assert texts(four.cards) == texts(parse_cards("8S 8C 8D 8H"))
    # 8S fits both the set and the run; 9S must still be able to follow on the run.
    for melds in ([group, run], [run, group]):
        after = check_layoffs(melds, parse_cards("8S 9S"))
        assert sorted(len(m.cards) for m in after) == [3, 5]


@pytest.mark.parametrize(
    ("melds", "layoffs", "bad"),
    [
        (["5S 6S 7S"], "9S 8S", "9S"),  # chain out of order
        (["5S 6S 7S"], "8S TS", "TS"),  # gap
        (["5S 6S 7S"], "7S", "7S"),  # already in the meld
        (["5S 6S 7S"], "8H", "8H"),  # wrong suit
        (["8S 8C 8D 8H"], "7S", "7S"),  # a set of four takes nothing
        (["8S 8C 8D"], "8H 9H", "9H"),  # nothing to extend
        (["JS QS KS"], "AS", "AS"),  # no wrapping past the king
    ],
)
def test_check_layoffs_refuses_illegal(melds: list[str], layoffs: str, bad: str) -> None:
    with pytest.raises(MeldError) as info:
        check_layoffs([Meld.of(m) for m in melds], parse_cards(layoffs))
    assert info.value.rule == "bad-layoff"
    assert info.value.message.startswith(bad)


# ---------------------------------------------------------------------------
# OpenSpiel's chain limit: at most N cards laid off beyond each end of a run


def test_best_defence_chain_limit() -> None:
    # 8S 9S onto 5S 6S 7S, and TS TC TD as the defender's own set: only 2H 4H 6H KC JD
    # (32) left. With one card per end, 9S cannot follow 8S: 41 (9S left too).
    knocker = [Meld.of("5S 6S 7S")]
    defender = "8S 9S TS TC TD 2H 4H 6H KC JD"
    assert best_defence(defender, knocker).deadwood_value == 32
    two = best_defence(defender, knocker, chain_limit=2)
    assert two.deadwood_value == 32 and [str(c) for c in two.layoffs] == ["8S", "9S"]
    one = best_defence(defender, knocker, chain_limit=1)
    assert one.deadwood_value == 41
    check_layoffs(knocker, one.layoffs, chain_limit=1)


def test_check_layoffs_chain_limit_accepts_within_the_limit() -> None:
    run = Meld.of("5S 6S 7S")
    assert [str(m) for m in check_layoffs([run], parse_cards("8S 9S"), chain_limit=2)] == ["5S 6S 7S 8S 9S"]
    assert [str(m) for m in check_layoffs([run], parse_cards("4S 8S"), chain_limit=1)] == ["4S 5S 6S 7S 8S"]
    # A set takes its fourth card whatever the limit.
    assert len(check_layoffs([Meld.of("9C 9D 9H")], parse_cards("9S"), chain_limit=1)[0].cards) == 4


@pytest.mark.parametrize(
    ("layoffs", "limit", "bad"),
    [
        ("8S 9S TS", 2, "TS"),  # a third card beyond the high end
        ("4S 3S", 1, "3S"),  # a second card beyond the low end
        ("8S 9S", 1, "9S"),
    ],
)
def test_check_layoffs_chain_limit_refuses_past_the_limit(layoffs: str, limit: int, bad: str) -> None:
    with pytest.raises(MeldError) as info:
        check_layoffs([Meld.of("5S 6S 7S")], parse_cards(layoffs), chain_limit=limit)
    assert info.value.rule == "bad-layoff"
    assert info.value.message.startswith(bad)


def test_one_card_is_laid_off_once() -> None:
    """A card laid off twice would extend a run and then a set (two cards' worth of deadwood gone): refused."""
    with pytest.raises(MeldError, match="5H is laid off twice"):
        check_layoffs([Meld.of("5S 5C 5D"), Meld.of("6H 7H 8H")], parse_cards("5H") * 2)
