"""Cards: forgiving input, one canonical text, interning, masks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginlog.game.cards import (
    DECK,
    Card,
    cards_mask,
    format_cards,
    mask_cards,
    parse_card,
    parse_cards,
)
from ginlog.errors import CardError, GinlogError

# The canonical texts written out independently of ginlog: rank + suit, T for ten,
# suits in the order spades, clubs, diamonds, hearts.
RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "SCDH"
CANONICAL = [r + s for s in SUIT_TEXT for r in RANK_TEXT]


def sort_key(text: str) -> tuple[int, int]:
    """Suit then rank, as a player sorts a hand (computed here, not by ginlog)."""
    return SUIT_TEXT.index(text[1]), RANK_TEXT.index(text[0])


# ---------------------------------------------------------------------------
# Forgiving input


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("7h", "7H"),
        ("7H", "7H"),
        ("7♥", "7H"),
        ("7♡", "7H"),
        (" 7h ", "7H"),
        ("\t7H\n", "7H"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("Th", "TH"),
        ("th", "TH"),
        ("TH", "TH"),
        ("10♥", "TH"),
        ("q♠", "QS"),
        ("Q♤", "QS"),
        ("qs", "QS"),
        ("as", "AS"),
        ("A♣", "AC"),
        ("a♧", "AC"),
        ("k♦", "KD"),
        ("K♢", "KD"),
        ("jd", "JD"),
        ("2c", "2C"),
    ],
)
def test_forgiving_input_gives_the_canonical_card(typed: str, canonical: str) -> None:
    card = parse_card(typed)
    assert str(card) == canonical
    assert card is parse_card(canonical)


def test_seven_of_hearts_every_spelling_is_one_object() -> None:
    spellings = ["7h", "7H", "7♥", "7♡", "  7h", "7H  "]
    cards = {id(parse_card(s)) for s in spellings}
    assert len(cards) == 1


def test_card_attributes() -> None:
    seven = parse_card("7h")
    assert (seven.rank, seven.suit, seven.value) == (7, "H", 7)
    assert parse_card("AS").value == 1
    assert [parse_card(t).value for t in ("TS", "JS", "QS", "KS")] == [10, 10, 10, 10]
    assert parse_card("TH").pretty == "10♥"
    assert parse_card("AS").pretty == "A♠"


def test_parse_card_accepts_a_card() -> None:
    card = parse_card("9D")
    assert parse_card(card) is card


def test_interning() -> None:
    assert parse_card("7h") is parse_card("7H")
    assert parse_card("10s") is parse_card("TS")
    assert parse_cards("QH KH") == (parse_card("qh"), parse_card("kh"))


# ---------------------------------------------------------------------------
# Canonical text and the deck


def test_deck_has_52_distinct_cards_in_canonical_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert [str(c) for c in DECK] == CANONICAL


@pytest.mark.parametrize("text", CANONICAL)
def test_every_card_round_trips_through_str(text: str) -> None:
    card = parse_card(text)
    assert str(card) == text
    assert parse_card(str(card)) is card
    assert parse_card(text.lower()) is card
    assert parse_card(card.pretty) is card  # the pretty form reads back too
    assert repr(card) == f"Card({text!r})"


# ---------------------------------------------------------------------------
# Bad cards


@pytest.mark.parametrize(
    ("bad", "fragments"),
    [
        ("1h", ["'1h'", "rank '1'", "ace is A"]),
        ("7x", ["'7x'", "suit 'x'"]),
        ("11s", ["'11s'", "rank '11'"]),
        ("77h", ["'77h'", "rank '77'"]),
        ("h", ["'h'", "rank"]),
        ("", ["empty"]),
        ("  ", ["empty"]),
        ("0s", ["'0s'", "rank '0'"]),
        ("7", ["'7'", "suit '7'"]),
        ("Zh", ["'Zh'", "rank 'Z'"]),
    ],
)
def test_bad_card_text_raises_card_error_saying_what_is_wrong(bad: str, fragments: list[str]) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    err = info.value
    assert err.rule == "card"
    for fragment in fragments:
        assert fragment in err.message, (fragment, err.message)
    assert isinstance(err, GinlogError) and isinstance(err, ValueError)
    assert "\n" not in str(err)


@pytest.mark.parametrize("bad", [7, None, 7.5, b"7h", ["7h"]])
def test_non_text_is_not_a_card(bad: object) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)  # type: ignore[arg-type]
    assert info.value.rule == "card"
    assert repr(bad) in info.value.message
    assert "expected text" in info.value.message


def test_bad_card_inside_parse_cards() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("7h 8h 1h")
    assert info.value.rule == "card"
    assert "'1h'" in info.value.message


# ---------------------------------------------------------------------------
# Several cards


def test_parse_cards_separators_and_iterables() -> None:
    expected = (parse_card("7H"), parse_card("8H"), parse_card("9H"))
    assert parse_cards("7h 8h 9h") == expected
    assert parse_cards("7h,8h, 9h") == expected
    assert parse_cards("  7h\t8♥ 9♡ ") == expected
    assert parse_cards(["7h", parse_card("8H"), "9♥"]) == expected
    assert parse_cards("") == ()


def test_duplicate_card_in_parse_cards() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("7h 8h 7H")
    assert info.value.rule == "duplicate-card"
    assert "7H" in info.value.message
    with pytest.raises(CardError) as info2:
        parse_cards(["TS", "10s"])
    assert info2.value.rule == "duplicate-card"
    assert "TS" in info2.value.message


def test_duplicates_allowed_when_asked() -> None:
    assert parse_cards("7h 7H", allow_duplicates=True) == (parse_card("7H"), parse_card("7H"))


def test_format_cards_is_sorted_by_suit_then_rank() -> None:
    assert format_cards(parse_cards("3h as 2s kc")) == "AS 2S KC 3H"
    assert format_cards(parse_cards("th 9d")) == "9D TH"
    assert format_cards(parse_cards("th 9d"), pretty=True) == "9♦ 10♥"
    assert format_cards(()) == ""


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CANONICAL), unique=True, max_size=20), st.randoms(use_true_random=False))
def test_format_cards_property(texts: list[str], rnd: random.Random) -> None:
    shuffled = list(texts)
    rnd.shuffle(shuffled)
    out = format_cards(parse_cards(shuffled))
    assert out == " ".join(sorted(texts, key=sort_key))
    assert parse_cards(out) == tuple(sorted(parse_cards(texts)))


# ---------------------------------------------------------------------------
# Masks


def test_card_bits_are_distinct_and_sixteen_per_suit() -> None:
    bits = [c.bit for c in DECK]
    assert len(set(bits)) == 52
    assert all(b & (b - 1) == 0 for b in bits)  # one bit each
    assert parse_card("AS").bit == 1
    assert parse_card("KS").bit == 1 << 12
    assert parse_card("AC").bit == 1 << 16
    assert parse_card("KH").bit == 1 << 60
    assert cards_mask(DECK).bit_count() == 52


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(DECK)))
def test_cards_mask_round_trip(subset: set[Card]) -> None:
    mask = cards_mask(subset)
    assert mask.bit_count() == len(subset)
    back = mask_cards(mask)
    assert back == tuple(c for c in DECK if c in subset)  # in deck order
    assert cards_mask(back) == mask


def test_mask_cards_of_empty_mask() -> None:
    assert mask_cards(0) == ()
    assert cards_mask([]) == 0
