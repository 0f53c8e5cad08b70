"""Every rule of play that crosses the rule modules, by example, through the reducer's public API (start / apply /
fold): going out and its scoring, the stock running out, Oklahoma and big gin, OpenSpiel's matches.

The rules of one module are in its own file: ``tests/test_setup.py``, ``tests/test_turns.py``,
``tests/test_endings.py``, ``tests/test_timeline.py``; the helpers they share are ``tests/reducing.py``.
"""

from __future__ import annotations

import attrs

from ginlog.game.cards import Card, DECK
from ginlog.game.rules import Oklahoma, preset
from ginlog.log.events import BigGin, HandVoid, MatchStarted
from ginlog.play.state import Timeline

from reducing import (
    ANN_CARDS, BOB_SHOWS, EX_ANN, EX_BOB, GIN_ANN, GIN_BOB, TO_KNOCK, by_name, c, cs, discard, example_knocked,
    full, full_deal, full_passed, gin, gin_ready, hand_of, knock, last_hand, more, opening, pass_, play, result,
    rule_of, show, shown_by, stock, table_deal, who,
)


# ---------------------------------------------------------------------------
# Going out


def test_knock_over_the_limit_is_refused_at_the_knock_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, knock("Bob", "5S")) == "knock-limit"  # leaves 5+6+7+9+10 = 37
    tl = more(tl, knock("Bob", "JH"))  # leaves 9C: 9
    assert hand_of(tl).phase == "show"


def test_knock_at_exactly_the_limit_is_allowed() -> None:
    tl = more(example_knocked(), show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD"))
    assert hand_of(tl).phase == "defend"


def test_knock_over_the_limit_is_refused_at_the_show_in_table_view() -> None:
    tl = example_knocked()
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S AD KH")) == "knock-limit"  # 22
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S JD AS")) == "hand-size"


def test_newspaper_knock_limit_is_nine() -> None:
    tl = example_knocked("newspaper")
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD")) == "knock-limit"
    assert hand_of(more(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9H"))).phase == "defend"


def test_gin_with_deadwood_is_refused_at_the_gin_in_full_information() -> None:
    tl = full_passed(stock("Bob", "KH"))
    assert rule_of(tl, gin("Bob", "JH")) == "not-gin"


def test_gin_with_deadwood_is_refused_at_the_show_in_table_view() -> None:
    tl = play([*opening(), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob"), gin("Bob", "QC")])
    assert rule_of(tl, show("Bob", EX_BOB)) == "not-gin"


def test_a_knock_with_no_deadwood_is_scored_as_gin() -> None:
    tl = more(gin_ready(), knock("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"))
    assert rule_of(tl, show("Ann", GIN_ANN, layoffs="9S")) == "layoff-after-gin"
    tl = more(tl, show("Ann", GIN_ANN))
    fh = last_hand(tl)
    assert (fh.result.how, fh.score.outcome, who(fh.score.winner), fh.score.points) == ("gin", "gin", "Bob", 20 + 53)
    assert shown_by(fh, "Ann").layoffs == ()  # 9S would extend 5S-8S, but not after gin


def test_gin_scores_the_bonus_plus_the_defenders_deadwood() -> None:
    tl = more(gin_ready(), gin("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"), show("Ann", GIN_ANN))
    assert (last_hand(tl).score.points, by_name(tl.state.tally.totals())) == (73, {"Ann": 0, "Bob": 73})
    assert who(tl.state.dealer) == "Bob"  # the winner deals next


def test_layoff_after_gin_is_refused() -> None:
    tl = more(gin_ready(), gin("Bob", "9C"), show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"))
    assert rule_of(tl, show("Ann", GIN_ANN, layoffs="9S")) == "layoff-after-gin"
    assert rule_of(tl, show("Ann", GIN_ANN, melds=["AD 2D 3D"], layoffs="9S 4S")) == "layoff-after-gin"


def test_the_knocker_never_lays_off() -> None:
    tl = full_passed(stock("Bob", "KH"), knock("Bob", "JH"))
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH 9C", layoffs="9C")) == "knocker-layoff"


def test_declared_melds_must_be_melds_of_the_shown_cards() -> None:
    tl = full("standard", *TO_KNOCK)
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["KC KD AC"])) == "bad-meld"
    assert rule_of(tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["5S 6S 7S 8S"])) == "meld-not-in-hand"
    assert rule_of(
        tl, show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["2H 3H 4H", "KC KD KH", "KH KD KC"])
    ) == "meld-overlap"


def test_a_declared_arrangement_is_scored_as_declared() -> None:
    # Bob declares only the spade run and the kings: 2H 3H 4H and AC are his deadwood (10).
    tl = more(full("standard", *TO_KNOCK),
              show("Bob", "5S 6S 7S 2H 3H 4H KC KD KH AC", melds=["5S 6S 7S", "KC KD KH"]))
    ending = hand_of(tl).ending
    assert ending is not None and ending.knocker is not None
    assert ending.knocker.deadwood_value == 10


def test_declared_layoffs_must_come_in_an_order_that_works() -> None:
    tl = more(full("standard", *TO_KNOCK), BOB_SHOWS)
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="9S 8S")) == "bad-layoff"
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="9S")) == "bad-layoff"
    assert rule_of(tl, show("Ann", ANN_CARDS, layoffs="QC")) == "bad-layoff"  # onto nothing
    tl = more(tl, show("Ann", ANN_CARDS, melds=["AD 2D 3D 4D", "4C 5C 6C"], layoffs="8S 9S"))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("8S 9S")
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 10 - 1)


def test_ginlog_finds_the_defenders_chained_layoffs() -> None:
    tl = more(full("standard", *TO_KNOCK), BOB_SHOWS, show("Ann", ANN_CARDS))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("8S 9S")
    assert fh.score.points == 9


def test_undercut_gives_the_defender_the_difference_and_the_bonus() -> None:
    # Bob knocks with 10 (TD); Ann shows 1 (AC) after her melds.
    tl = more(example_knocked(), show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S TD"),
              show("Ann", "AC 2S 3S 4S JS QS KS 9D 9C 9H"))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").deadwood_value == 1
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("undercut", "Ann", 10 - 1 + 10)
    assert who(tl.state.dealer) == "Ann"


def test_the_issues_worked_example() -> None:
    tl = more(example_knocked(), show("Bob", EX_BOB), show("Ann", EX_ANN))
    fh = last_hand(tl)
    ann = shown_by(fh, "Ann")
    assert set(ann.layoffs) == set(cs("5H 6H 8H"))
    assert ann.layoffs.index(c("5H")) < ann.layoffs.index(c("6H"))  # the chain, inside out
    assert (shown_by(fh, "Bob").deadwood_value, ann.deadwood_value) == (1, 62)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 61)
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 61}
    assert who(tl.state.dealer) == "Bob"


# Bob can meld his four 7s with 8H 9H TH as [7777][8H 9H TH] or [777][7H 8H 9H TH]: 6 deadwood
# (AS 2C 3D) either way. Only the second lets Ann lay off 6H then 5H.
CHOICE_BOB = "7S 7C 7D 7H 8H 9H TH AS 2C 3D"
CHOICE_ANN = "5H 6H KC QD JS 9C 8D 4S 3C 2D"  # no melds: 67 deadwood


def choice_knocked() -> Timeline:
    return play([*opening(), table_deal("KD"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "JD")])


def test_when_ginlog_arranges_the_knocker_it_leaves_the_defender_least_to_lay_off() -> None:
    tl = more(choice_knocked(), show("Bob", CHOICE_BOB), show("Ann", CHOICE_ANN))
    fh = last_hand(tl)
    bob, ann = shown_by(fh, "Bob"), shown_by(fh, "Ann")
    assert cs("7S 7C 7D 7H") in [m.cards for m in bob.melds]
    assert ann.layoffs == () and ann.deadwood_value == 67
    assert fh.score.points == 67 - 6


def test_a_declared_knocker_arrangement_is_kept_even_if_worse_for_the_knocker() -> None:
    tl = more(choice_knocked(), show("Bob", CHOICE_BOB, melds=["7S 7C 7D", "7H 8H 9H TH"]), show("Ann", CHOICE_ANN))
    fh = last_hand(tl)
    assert shown_by(fh, "Ann").layoffs == cs("6H 5H")
    assert fh.score.points == 67 - 11 - 6


# ---------------------------------------------------------------------------
# The stock runs out


def run_down(turns: int, dealer: str = "Ann") -> tuple[Timeline, list[Card]]:
    """A table-view hand where both pass and then ``turns`` turns each draw from the stock and discard.

    Bob's cards at the end are AS 2S 3S 4C 5C 6C 7D 8D 9D 2H, Ann's KC KD KH 9S 9C 9H 5S 5D 5H TS;
    the upcard is AH and the discards come from the other 31 cards, in deck order.
    """
    keep = set(cs("AS 2S 3S 4C 5C 6C 7D 8D 9D 2H KC KD KH 9S 9C 9H 5S 5D 5H TS AH"))
    spare = [card for card in DECK if card not in keep]
    other = "Bob" if dealer == "Ann" else "Ann"
    tl = play([*opening(dealer=dealer), table_deal("AH", dealer), pass_(other), pass_(dealer)])
    player = other
    for card in spare[:turns]:
        tl = more(tl, stock(player), discard(player, str(card)))
        player = dealer if player == other else other
    return tl, spare


def test_the_hand_is_void_when_a_discard_leaves_two_cards_in_the_stock() -> None:
    tl, spare = run_down(28)
    assert hand_of(tl).stock == 3 and tl.state.phase == "hand"
    tl = more(tl, stock("Bob"))
    assert hand_of(tl).stock == 2
    tl = more(tl, discard("Bob", str(spare[28])))
    fh = last_hand(tl)
    assert tl.state.hand is None and tl.state.phase == "ready"
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("void", None, 0)
    assert fh.void_reason is not None and "stock" in fh.void_reason
    assert by_name(tl.state.tally.totals()) == {"Ann": 0, "Bob": 0}


def test_the_same_dealer_deals_again_after_a_void() -> None:
    tl, spare = run_down(29)
    assert last_hand(tl).score.outcome == "void"
    assert who(tl.state.dealer) == "Ann"
    assert rule_of(tl, table_deal("7H", dealer="Bob")) == "dealer"
    assert hand_of(more(tl, table_deal("7H", dealer="Ann"))).number == 2


def test_a_knock_on_the_last_turn_still_counts() -> None:
    tl, spare = run_down(28)
    tl = more(tl, stock("Bob"), knock("Bob", str(spare[28])))
    assert hand_of(tl).phase == "show"
    tl = more(tl, show("Bob", "AS 2S 3S 4C 5C 6C 7D 8D 9D 2H"), show("Ann", "KC KD KH 9S 9C 9H 5S 5D 5H TS"))
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("knock", "Bob", 10 - 2)


def test_a_hand_void_event_keeps_the_dealer() -> None:
    tl = more(play([*opening(), table_deal("7H"), pass_("Bob")]), HandVoid(reason="misdeal: Bob had 11 cards"))
    assert last_hand(tl).score.outcome == "void" and who(tl.state.dealer) == "Ann"


# ---------------------------------------------------------------------------
# Oklahoma, big gin


def test_oklahoma_ace_upcard_means_gin_only() -> None:
    base = [*opening("oklahoma"), table_deal("AS"), pass_("Bob"), pass_("Ann"), stock("Bob")]
    tl = play(base)
    assert hand_of(tl).knock_limit == 0
    # In table view the hand is unknown at the knock: the show decides, and 1 deadwood is over 0.
    assert rule_of(more(tl, knock("Bob", "QC")), show("Bob", EX_BOB)) == "knock-limit"
    tl = more(tl, gin("Bob", "QC"), show("Bob", "AH 2H 3H 8C 8D 8S 5S 6S 7S 4S"))
    assert hand_of(tl).phase == "defend"


def test_oklahoma_ace_may_be_a_knock_limit_of_one() -> None:
    rules = attrs.evolve(preset("oklahoma"), oklahoma=Oklahoma(ace="one"))
    tl = play([*opening(rules), table_deal("AS"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    assert hand_of(more(tl, show("Bob", EX_BOB))).phase == "defend"  # 1 deadwood (AD)


def test_oklahoma_ace_a_knock_with_no_deadwood_is_gin() -> None:
    deal = full_deal(GIN_BOB, GIN_ANN, "AH", "8S")
    tl = more(gin_ready("oklahoma", deal), knock("Bob", "9C"))
    tl = more(tl, show("Bob", "5S 6S 7S 8S 2H 3H 4H KC KD KH"), show("Ann", GIN_ANN))
    assert last_hand(tl).score.outcome == "gin"


def test_oklahoma_knock_limit_is_the_upcard_value() -> None:
    tl = play([*opening("oklahoma"), table_deal("7H"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    assert hand_of(tl).knock_limit == 7
    assert rule_of(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 9H")) == "knock-limit"
    assert hand_of(more(tl, show("Bob", "2H 3H 4H 8C 8D 8S 5S 6S 7S 7C"))).phase == "defend"


def test_oklahoma_spade_upcard_doubles_the_hand() -> None:
    tl = play([*opening("oklahoma"), table_deal("KS"), pass_("Bob"), pass_("Ann"), stock("Bob"), knock("Bob", "QC")])
    tl = more(tl, show("Bob", EX_BOB), show("Ann", EX_ANN))
    assert last_hand(tl).score.points == 2 * 61


BIG_BOB = "AS 2S 3S 4S 7C 7D 7H 9D TD JD"
BIG_ANN = "5H 6C 8S KH QC JS 2H 4D 9C 3C"  # no melds: 67 deadwood
BIG_DEAL = full_deal(BIG_BOB, BIG_ANN, "2C", "QD")


def test_big_gin_under_modern() -> None:
    tl = play([*opening("modern"), BIG_DEAL, pass_("Bob"), pass_("Ann"), stock("Bob", "QD"), BigGin(player="Bob")])
    assert rule_of(tl, show("Bob", BIG_BOB)) == "hand-size"  # all eleven are shown
    tl = more(tl, show("Bob", BIG_BOB + " QD"), show("Ann", BIG_ANN))
    fh = last_hand(tl)
    assert (fh.score.outcome, who(fh.score.winner), fh.score.points) == ("big_gin", "Bob", 31 + 67)


def test_big_gin_is_refused_under_standard() -> None:
    tl = play([*opening(), BIG_DEAL, pass_("Bob"), pass_("Ann"), stock("Bob", "QD")])
    assert rule_of(tl, BigGin(player="Bob")) == "big-gin-off"


def test_big_gin_needs_eleven_melded_cards() -> None:
    tl = full("modern", pass_("Bob"), pass_("Ann"), stock("Bob", "KH"))
    assert rule_of(tl, BigGin(player="Bob")) == "not-gin"


def test_big_gin_needs_a_draw_first() -> None:
    tl = play([*opening("modern"), BIG_DEAL, pass_("Bob"), pass_("Ann")])
    assert rule_of(tl, BigGin(player="Bob")) == "draw-first"


# ---------------------------------------------------------------------------
# Regressions: bugs found while writing these tests, now fixed


def test_an_openspiel_match_started_reads_back() -> None:
    # Was a bug (rules._check_types refused game_target null); fixed in ginlog/rules.py meanwhile.
    from ginlog.log.events import event_fields, event_from_fields

    ev = MatchStarted(players=("Ann", "Bob"), rules=preset("openspiel"))
    assert event_from_fields("match_started", event_fields(ev)) == ev


def test_an_openspiel_match_is_one_hand() -> None:
    tl = play([*opening("openspiel"), result("knock", "Bob", 3, 20)])
    assert (tl.state.phase, who(tl.state.winner), last_hand(tl).score.points) == ("over", "Bob", 17)
    assert rule_of(tl, table_deal("7H", dealer="Bob")) == "match-over"
