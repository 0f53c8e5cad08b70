"""The players' rating (:mod:`ginlog.app.data.rating`): Elo in time order, against a naive Elo written here.

The figures ``stats`` prints (ratings among them) are checked against a naive recount from the events in
``tests/test_stats.py``; here the rating itself: sorted in chunks and merged as one stable sort would, and ties at
the same millisecond broken by the match, not by the order the matches were read.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import cast

import pytest

from ginlog.app.data import rating
from ginlog.game.seats import Seat


def naive_elo(matches: list[tuple[str, str, str, Seat]]) -> dict[str, float]:
    """FIDE's formula by hand (K 32, scale 400, 1500 to start), the matches in the order given."""
    by_hand: dict[str, float] = defaultdict(lambda: 1500.0)
    for _ts, a, b, w in matches:
        win, lose = (a, b) if w == 0 else (b, a)
        gain = 32 * (1 - 1 / (1 + 10 ** ((by_hand[lose] - by_hand[win]) / 400)))
        by_hand[win] += gain
        by_hand[lose] -= gain
    return dict(by_hand)


def test_elo_order_across_sorting_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sorted in chunks and merged: the same order as one stable sort (ties in the order read)."""
    rng = random.Random(4)
    matches = [(f"2026-01-{rng.randrange(1, 29):02d}T00:00:00.000Z", f"P{rng.randrange(6)}", cast(Seat, rng.randrange(2)))
               for _ in range(200)]

    def ratings(chunk: int) -> dict[str, float]:
        monkeypatch.setattr(rating, "CHUNK", chunk)
        elo = rating.Elo()
        for i, (ts, a, w) in enumerate(matches):
            elo.add(ts, a, f"Q{i % 5}", winner=w)
        return elo.ratings()

    order = sorted(range(len(matches)), key=lambda i: matches[i][0])  # stable
    by_hand = naive_elo([(matches[i][0], matches[i][1], f"Q{i % 5}", matches[i][2]) for i in order])
    for chunk in (1, 7, 64, 1 << 16):
        got = ratings(chunk)
        assert got.keys() == by_hand.keys() and all(abs(got[k] - by_hand[k]) < 1e-9 for k in got), chunk


def test_matches_begun_at_the_same_millisecond_are_ordered_by_their_identity_in_any_reading_order() -> None:
    """Ten matches, one start time: the ratings are the naive Elo in identity order, whichever order they come in."""
    ts = "2026-03-01T12:00:00.000Z"
    rng = random.Random(7)
    matches = [(f"{rng.getrandbits(64):016x}", f"P{rng.randrange(3)}", f"Q{rng.randrange(3)}",
                cast(Seat, rng.randrange(2))) for _ in range(10)]
    expected = naive_elo([(ts, a, b, w) for _id, a, b, w in sorted(matches)])
    for _ in range(5):
        rng.shuffle(matches)
        elo = rating.Elo()
        for match_id, a, b, w in matches:
            elo.add(ts, a, b, winner=w, match=match_id)
        got = elo.ratings()
        assert got.keys() == expected.keys() and all(abs(got[k] - expected[k]) < 1e-9 for k in got)
