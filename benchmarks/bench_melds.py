"""Benchmark the meld solver: per-hand time of least deadwood and best arrangement, against OpenSpiel on the same hands.

Run by hand (not a test)::

    python benchmarks/bench_melds.py [--n 10000] [--seed 1] [--repeat 20] [--no-openspiel]

Two sets of 10-card hands: uniformly random hands (which rarely hold a meld)
and "meld-rich" hands built around one to three melds plus filler. For each
hand the call is repeated ``--repeat`` times and the mean taken, so timer
resolution does not dominate; the table shows the median and 90th percentile
of those per-hand times, in microseconds, for

- ``deadwood_of_mask(mask)``: ginlog's hot path, on precomputed masks;
- ``min_deadwood(cards)``: ginlog's public call, on tuples of Card;
- ``best_arrangement(cards)``: the arrangement itself, with Meld objects.

When ``pyspiel`` (``pip install open_spiel``) is importable, OpenSpiel's C++
``GinRummyUtils.min_deadwood`` and ``best_meld_group`` are timed on the very
same hands in the same run, called from Python through their pybind11 binding
on precomputed lists of card numbers (so each call includes the binding's
conversion of the list, as ginlog's ``min_deadwood`` includes the conversion
of its cards to a mask). The calls take turns hand by hand, so the machine's
drift in speed falls on all of them alike. Before anything is timed, every
hand's deadwood is checked to be the same from every call, ginlog's and
OpenSpiel's: the two are compared like with like. The ratio column is
ginlog's median over OpenSpiel's (below 1: ginlog is faster), against
``min_deadwood`` for the deadwood calls and ``best_meld_group`` for
``best_arrangement``. ``--no-openspiel`` (or no pyspiel) times ginlog alone.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ginlog.game.cards import DECK, Card, cards_mask
from ginlog.game.melds import best_arrangement, deadwood_of_mask, min_deadwood

#: The issue's figures for RLCard (pure Python), µs per hand (random, meld-rich): quoted, never measured here.
RLCARD_QUOTED_US = {"random": 11.0, "meld-rich": 40.0}
TARGET_US = 5.0  # median, meld-rich hands

HAND_SIZE = 10

#: ginlog's call -> the OpenSpiel call it is compared with.
COUNTERPART = {
    "deadwood_of_mask": "min_deadwood",
    "min_deadwood": "min_deadwood",
    "best_arrangement": "best_meld_group",
}


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


class OpenSpiel:
    """OpenSpiel's gin rummy utilities (C++, through pybind11), with its card numbering."""

    def __init__(self, pyspiel: Any) -> None:
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, HAND_SIZE)  # ranks, suits, hand size
        try:
            self.version = importlib.metadata.version("open_spiel")
        except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a build from source
            self.version = "unknown version"

    def cards(self, hand: Sequence[Card]) -> list[int]:
        """OpenSpiel's numbers for ``hand``, through its own parser ("7h": rank then lower-case suit)."""
        return list(self.utils.card_strings_to_card_ints([str(c)[0] + str(c)[1].lower() for c in hand]))

    def arrangement_deadwood(self, cards: list[int]) -> int:
        """The deadwood ``best_meld_group`` leaves: the hand's value less the melded cards'."""
        melded = {c for meld in self.utils.best_meld_group(cards) for c in meld}
        return sum(self.utils.card_value(c) for c in cards if c not in melded)


def load_openspiel(wanted: bool) -> tuple[OpenSpiel | None, str]:
    """OpenSpiel's utilities when wanted and installed, else None and why not."""
    if not wanted:
        return None, "OpenSpiel: not measured (--no-openspiel); ginlog's figures only"
    try:
        import pyspiel
    except ImportError:
        return None, "OpenSpiel: not measured (pyspiel is not installed: pip install open_spiel); ginlog's figures only"
    os_ = OpenSpiel(pyspiel)
    return os_, f"OpenSpiel {os_.version} (C++ through pybind11) timed on the same hands in this run"


def per_hand_us(cases: Sequence[tuple[Callable[[Any], object], Sequence[Any]]], repeat: int) -> list[list[float]]:
    """Mean time in µs of each case's ``fn(x)`` on each input, over ``repeat`` back-to-back calls.

    The cases take turns on each input (input 1 with every call, then input 2...),
    so a change in the machine's speed during the run falls on all of them alike.
    """
    out: list[list[float]] = [[] for _ in cases]
    clock = time.perf_counter_ns
    loop = range(repeat)
    for i in range(len(cases[0][1])):
        for (fn, inputs), times in zip(cases, out):
            x = inputs[i]
            t0 = clock()
            for _ in loop:
                fn(x)
            times.append((clock() - t0) / repeat / 1000.0)
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest-rank on sorted values."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[k]


def run(n: int, seed: int, repeat: int, openspiel: OpenSpiel | None = None) -> list[dict[str, Any]]:
    """One row per (hand set, call): ginlog's calls, then OpenSpiel's when given, with the ratios."""
    rng = random.Random(seed)
    sets = {
        "random": [random_hand(rng) for _ in range(n)],
        "meld-rich": [meld_rich_hand(rng) for _ in range(n)],
    }
    rows: list[dict[str, Any]] = []
    for name, hands in sets.items():
        masks = [cards_mask(h) for h in hands]
        # Like with like: every call gives every hand the same deadwood before anything is timed.
        for h, m in zip(hands, masks):
            d = deadwood_of_mask(m)
            assert d == min_deadwood(h) == best_arrangement(h).deadwood_value, h
        cases: list[tuple[str, str, Callable[[Any], object], Sequence[Any]]] = [
            ("ginlog", "deadwood_of_mask", deadwood_of_mask, masks),
            ("ginlog", "min_deadwood", min_deadwood, hands),
            ("ginlog", "best_arrangement", best_arrangement, hands),
        ]
        if openspiel is not None:
            numbers = [openspiel.cards(h) for h in hands]
            for h, m, c in zip(hands, masks, numbers):
                back = [text.upper() for text in openspiel.utils.card_ints_to_card_strings(c)]
                assert back == [str(card) for card in h], (h, back)  # the same ten cards
                d = deadwood_of_mask(m)
                assert openspiel.utils.min_deadwood(c) == d, (h, openspiel.utils.min_deadwood(c), d)
                assert openspiel.arrangement_deadwood(c) == d, (h, openspiel.arrangement_deadwood(c), d)
            cases += [
                ("OpenSpiel", "min_deadwood", openspiel.utils.min_deadwood, numbers),
                ("OpenSpiel", "best_meld_group", openspiel.utils.best_meld_group, numbers),
            ]
        timed = per_hand_us([(fn, inputs) for _, _, fn, inputs in cases], repeat)
        medians = {(who, call): statistics.median(times) for (who, call, _, _), times in zip(cases, timed)}
        for (who, call, _, _), times in zip(cases, timed):
            other = medians.get(("OpenSpiel", COUNTERPART.get(call, ""))) if who == "ginlog" else None
            rows.append(
                {
                    "hands": name,
                    "who": who,
                    "call": call,
                    "median": medians[(who, call)],
                    "p90": percentile(times, 90),
                    "vs_openspiel": None if other is None else medians[(who, call)] / other,
                    "openspiel_call": None if other is None else COUNTERPART[call],
                }
            )
    return rows


def render(rows: Sequence[dict[str, Any]], n: int, seed: int, repeat: int, openspiel_note: str) -> str:
    compared = any(r["vs_openspiel"] is not None for r in rows)
    lines = [
        f"ginlog meld solver: {n} hands per set, seed {seed}, {repeat} calls per hand "
        f"(Python {sys.version.split()[0]})",
        openspiel_note,
        "times are per hand in µs"
        + ("; ratio = ginlog's median ÷ OpenSpiel's on the same hands (below 1 = ginlog faster)" if compared else ""),
        "",
        f"{'hands':<10} {'call':<26} {'median':>9} {'p90':>9}" + (f" {'÷ OpenSpiel':>12}  vs" if compared else ""),
        "-" * (80 if compared else 57),
    ]
    for r in rows:
        line = f"{r['hands']:<10} {r['who'] + ' ' + r['call']:<26} {r['median']:>9.2f} {r['p90']:>9.2f}"
        if r["vs_openspiel"] is not None:
            line += f" {r['vs_openspiel']:>12.2f}  {r['openspiel_call']}"
        lines.append(line)
    lines.append("-" * (80 if compared else 57))
    lines.append(
        f"quoted, not measured: RLCard (pure Python) {RLCARD_QUOTED_US['random']:g} / "
        f"{RLCARD_QUOTED_US['meld-rich']:g} µs (random / meld-rich), the issue's figures on other hands"
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
    parser.add_argument(
        "--no-openspiel", action="store_true", help="time ginlog alone, even when pyspiel is installed"
    )
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.error("--n and --repeat must be at least 1")
    openspiel, note = load_openspiel(not args.no_openspiel)
    rows = run(args.n, args.seed, args.repeat, openspiel)
    print(render(rows, args.n, args.seed, args.repeat, note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
