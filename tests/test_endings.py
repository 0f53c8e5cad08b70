"""How a hand ends (:mod:`ginlog.play.endings`), by example through the reducer: the shown hands checked against
what the table saw, score-pad results and their arithmetic, the match ending at its target.

Going out and its scoring, through a turn and a show together, is in ``tests/test_reducer.py``.
"""

from __future__ import annotations

import pytest

from ginlog.errors import IllegalMove
from ginlog.log.events import HandShown
from ginlog.play.reducer import apply

from reducing import (
    EX_BOB, by_name, c, cs, example_knocked, last_hand, more, opening, play, result, rule_of, show, table_knocked,
    who,
)


# ---------------------------------------------------------------------------
# Table-view consistency at the show


def test_table_view_show_of_the_wrong_size() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S")) == "hand-size"
    assert rule_of(tl, show("Bob", EX_BOB + " AC")) == "hand-size"


def test_table_view_show_of_a_card_discarded_earlier() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S KS")) == "card-elsewhere"  # Ann threw KS
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 7H")) == "card-elsewhere"  # the upcard


def test_table_view_show_of_a_card_the_other_player_took() -> None:
    tl = table_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9D")) == "card-elsewhere"


def test_table_view_a_card_taken_from_the_pile_must_be_shown() -> None:
    tl = more(table_knocked(), show("Bob", EX_BOB))
    assert rule_of(tl, show("Ann", "5H 6H 8H JC QH KD 9S 9C 4C TD")) == "card-not-shown"
    tl = more(tl, show("Ann", "5H 6H 8H JC QH KD 9D 9C 4C TD"))
    assert tl.state.phase == "ready"


def test_the_defender_cannot_show_the_knockers_cards() -> None:
    tl = more(table_knocked(), show("Bob", EX_BOB))
    assert rule_of(tl, show("Ann", "5H 6H 8H JC QH KD 9D 9C 4C AD")) == "card-elsewhere"


# ---------------------------------------------------------------------------
# Score-pad hands


@pytest.mark.parametrize(
    ("how", "k", "d", "outcome", "winner", "points"),
    [
        ("knock", 6, 14, "knock", "Ann", 8),
        ("knock", 8, 5, "undercut", "Bob", 13),
        ("knock", 7, 7, "undercut", "Bob", 10),
        ("knock", 0, 12, "gin", "Ann", 32),
        ("gin", 0, 30, "gin", "Ann", 50),
    ],
)
def test_score_pad_arithmetic(how: str, k: int, d: int, outcome: str, winner: str, points: int) -> None:
    tl = play([*opening(), result(how, "Ann", k, d)])
    fh = last_hand(tl)
    assert (fh.recorded, fh.score.outcome, who(fh.score.winner), fh.score.points) == ("result", outcome, winner, points)
    assert by_name(tl.state.tally.totals())[winner] == points
    assert who(tl.state.dealer) == winner


def test_score_pad_claims_must_match() -> None:
    tl = play(opening())
    assert rule_of(tl, result("knock", "Ann", 6, 14, points=9)) == "points-mismatch"
    assert rule_of(tl, result("knock", "Ann", 8, 5, winner="Ann")) == "points-mismatch"
    assert rule_of(tl, result("void", winner="Ann")) == "points-mismatch"
    assert by_name(more(tl, result("knock", "Ann", 6, 14, points=8, winner="Ann")).state.tally.totals())["Ann"] == 8


def test_score_pad_rules() -> None:
    tl = play(opening())
    assert rule_of(tl, result("knock", "Ann", 11, 30)) == "knock-limit"
    assert rule_of(tl, result("gin", "Ann", 3, 30)) == "not-gin"
    assert rule_of(tl, result("big_gin", "Ann", 0, 30)) == "big-gin-off"
    assert rule_of(tl, result("knock", None, 3, 30)) == "result"
    tl = more(tl, result("void"))
    assert (last_hand(tl).score.outcome, who(tl.state.dealer)) == ("void", "Ann")


def test_score_pad_modern_big_gin_and_undercut() -> None:
    tl = play([*opening("modern"), result("big_gin", "Bob", 0, 20), result("knock", "Ann", 9, 4)])
    assert [fh.score.points for fh in tl.state.hands] == [31 + 20, 9 - 4 + 25]
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 51 + 30}


def test_openspiel_tie_scores_nothing() -> None:
    tl = play([*opening("openspiel"), result("knock", "Ann", 7, 7)])
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", None, 0)
    assert tl.state.phase == "over" and who(tl.state.winner) is None


# ---------------------------------------------------------------------------
# The match ends


def test_the_match_ends_at_the_target_not_before() -> None:
    tl = play([*opening(), result("gin", "Ann", 0, 79)])
    assert tl.state.phase == "ready" and by_name(tl.state.tally.totals())["Ann"] == 99
    tl = play([*opening(), result("gin", "Ann", 0, 80)])
    assert tl.state.phase == "over"


# ---------------------------------------------------------------------------
# Regressions: bugs found while writing the reducer's tests, now fixed


def test_a_shown_hand_listing_a_card_twice_is_refused() -> None:
    tl = example_knocked()
    twice = HandShown(player="Bob", cards=cs("2H 3H 4H 8C 8D 8S 5S 6S 7S") + (c("2H"),))
    with pytest.raises(IllegalMove) as info:
        apply(tl, twice)
    assert info.value.rule == "duplicate-card"


def test_score_pad_oklahoma_ace_accepts_a_knock_with_no_deadwood_as_gin() -> None:
    # The score pad treats it so too.
    tl = play([*opening("oklahoma"), result("knock", "Ann", 0, 20, upcard=c("AH"))])
    assert (last_hand(tl).score.outcome, last_hand(tl).score.points) == ("gin", 40)
