"""Benchmark the meld solver: per-hand time of least deadwood and best arrangement.

Run by hand (not a test)::

    python benchmarks/bench_melds.py [--n 10000] [--seed 1] [--repeat 20]

Two sets of 10-card hands: uniformly random hands (which rarely hold a meld)
and "meld-rich" hands built around one to three melds plus filler. For each
hand the call is repeated ``--repeat`` times and the mean taken, so timer
resolution does not dominate; the table shows the median and 90th percentile
of those per-hand times, in microseconds, for

- ``deadwood_of_mask(mask)``: the hot path, on precomputed masks;
- ``min_deadwood(cards)``: the public call, on tuples of Card;
- ``best_arrangement(cards)``: the arrangement itself, with Meld objects.

Ratios compare the medians with the reference figures quoted in the issue:
RLCard (pure Python) 11 µs random / 40 µs meld-rich, OpenSpiel (C++) 1 µs /
3 µs; the target is a median of at most 5 µs on meld-rich hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ginlog.game.cards import DECK, Card, cards_mask
from ginlog.game.melds import best_arrangement, deadwood_of_mask, min_deadwood

#: Reference medians in µs from the issue: (random, meld-rich).
RLCARD_US = {"random": 11.0, "meld-rich": 40.0}
OPENSPIEL_US = {"random": 1.0, "meld-rich": 3.0}
TARGET_US = 5.0  # median, meld-rich hands

HAND_SIZE = 10


def random_hand(rng: random.Random) -> tuple[Card, ...]:
    return tuple(rng.sample(DECK, HAND_SIZE))


def _a_meld(rng: random.Random) -> list[Card]:
    """A random set (3 or 4 of a rank) or run (3 to 6 of a suit)."""
    if rng.random() < 0.5:
        rank = rng.randint(1, 13)
        suits = rng.sample(range(4), rng.choice((3, 4)))
        return [DECK[s * 13 + rank - 1] for s in suits]
    length = rng.randint(3, 6)
    low = rng.randint(1, 14 - length)
    suit = rng.randrange(4)
    return [DECK[suit * 13 + r - 1] for r in range(low, low + length)]


def meld_rich_hand(rng: random.Random) -> tuple[Card, ...]:
    """One to three melds (they may share cards, so a card can be wanted twice), then filler."""
    chosen: list[Card] = []
    for _ in range(rng.randint(1, 3)):
        new = [c for c in _a_meld(rng) if c not in chosen]
        if len(chosen) + len(new) <= HAND_SIZE:
            chosen += new
    rest = [c for c in DECK if c not in chosen]
    chosen += rng.sample(rest, HAND_SIZE - len(chosen))
    return tuple(chosen)


def per_hand_us(fn: Callable[[Any], object], inputs: Sequence[Any], repeat: int) -> list[float]:
    """Mean time of ``fn(x)`` in µs for each input, over ``repeat`` back-to-back calls."""
    out: list[float] = []
    clock = time.perf_counter_ns
    loop = range(repeat)
    for x in inputs:
        t0 = clock()
        for _ in loop:
            fn(x)
        out.append((clock() - t0) / repeat / 1000.0)
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest-rank on sorted values."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[k]


def run(n: int, seed: int, repeat: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    sets = {
        "random": [random_hand(rng) for _ in range(n)],
        "meld-rich": [meld_rich_hand(rng) for _ in range(n)],
    }
    rows: list[dict[str, Any]] = []
    for name, hands in sets.items():
        masks = [cards_mask(h) for h in hands]
        # Sanity: the three calls agree on every hand before anything is timed.
        for h, m in zip(hands, masks):
            d = deadwood_of_mask(m)
            assert d == min_deadwood(h) == best_arrangement(h).deadwood_value, h
        cases: list[tuple[str, Callable[[Any], object], Sequence[Any]]] = [
            ("deadwood_of_mask", deadwood_of_mask, masks),
            ("min_deadwood", min_deadwood, hands),
            ("best_arrangement", best_arrangement, hands),
        ]
        for fn_name, fn, inputs in cases:
            times = per_hand_us(fn, inputs, repeat)
            median = statistics.median(times)
            rows.append(
                {
                    "hands": name,
                    "call": fn_name,
                    "median": median,
                    "p90": percentile(times, 90),
                    "vs_rlcard": median / RLCARD_US[name],
                    "vs_openspiel": median / OPENSPIEL_US[name],
                }
            )
    return rows


def render(rows: Sequence[dict[str, Any]], n: int, seed: int, repeat: int) -> str:
    lines = [
        f"ginlog meld solver: {n} hands per set, seed {seed}, {repeat} calls per hand "
        f"(Python {sys.version.split()[0]})",
        "times are per hand in µs; ratios are ours ÷ reference (below 1 = faster)",
        "",
        f"{'hands':<10} {'call':<17} {'median':>9} {'p90':>9} {'÷ RLCard':>9} {'÷ OpenSpiel':>12}",
        "-" * 70,
    ]
    for r in rows:
        lines.append(
            f"{r['hands']:<10} {r['call']:<17} {r['median']:>9.2f} {r['p90']:>9.2f} "
            f"{r['vs_rlcard']:>9.2f} {r['vs_openspiel']:>12.2f}"
        )
    lines.append("-" * 70)
    lines.append(
        f"reference medians: RLCard {RLCARD_US['random']:g} / {RLCARD_US['meld-rich']:g} µs, "
        f"OpenSpiel {OPENSPIEL_US['random']:g} / {OPENSPIEL_US['meld-rich']:g} µs (random / meld-rich)"
    )
    hot = next(r for r in rows if r["hands"] == "meld-rich" and r["call"] == "deadwood_of_mask")
    verdict = "MET" if hot["median"] <= TARGET_US else "MISSED"
    lines.append(
        f"target: median ≤ {TARGET_US:g} µs on meld-rich hands (deadwood_of_mask): "
        f"{hot['median']:.2f} µs, {verdict}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=10_000, help="hands per set (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeat", type=int, default=20, help="calls per hand, averaged (default 20)")
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.error("--n and --repeat must be at least 1")
    rows = run(args.n, args.seed, args.repeat)
    print(render(rows, args.n, args.seed, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
