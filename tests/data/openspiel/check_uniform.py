#!/usr/bin/env python3
"""The big check: uniform-random OpenSpiel hands through ginlog's importer, against the engine's returns.

    python tests/data/openspiel/check_uniform.py [--hands 20000] [--seed 1] [--params '{}'] [--find-first-bounce N]

Every decision picks uniformly among the legal actions, chance too (the way
issue 13 found the hands ginlog's importer refused). Each hand is serialised
by the engine, imported with ``parse_record`` + ``record_events`` (every
event checked by the reducer) and scored; the result must equal
``state.returns()``. Prints how many hands failed, by rule, and the first
few seeds of each. ``--find-first-bounce N`` also prints the first N seeds
whose hand took the very first upcard and discarded it straight back
(OpenSpiel's ``prev_upcard_`` is set by that take, so the bounce counts
toward its repeated-move void) and then ended in that void, the case the
fixtures ``records/firstbounce-*.txt`` hold.

Needs pyspiel (``pip install open_spiel``); not a ginlog dependency.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys

import pyspiel

from ginlog.app.importers.openspiel import parse_record, record_events
from ginlog.app.views.match_json import score_json
from ginlog.errors import GinlogError
from ginlog.play.reducer import fold

DRAW_UPCARD, PASS = 52, 54


def play_uniform(game: pyspiel.Game, seed: int) -> tuple[pyspiel.State, list[tuple[str, int]]]:
    """One hand, every action uniform among the legal ones; also (phase, action) of each step."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    trace = []
    while not state.is_terminal():
        phase = str(state.current_phase()).rsplit(".", 1)[-1]
        if state.is_chance_node():
            action = rng.choice([a for a, _p in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        trace.append((phase, action))
        state.apply_action(action)
    return state, trace


def first_bounce(trace: list[tuple[str, int]]) -> bool:
    """The very first upcard taken and discarded straight back, then taken and discarded back by the other
    player: the hand void by OpenSpiel's repeated move, the first bounce counted."""
    upcard = trace[20][1]
    for k, (phase, action) in enumerate(trace):
        if phase == "FIRST_UPCARD" and action == DRAW_UPCARD:
            return (len(trace) == k + 4 and trace[k + 1][1] == upcard
                    and trace[k + 2] == ("DRAW", DRAW_UPCARD) and trace[k + 3] == ("DISCARD", upcard))
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--params", default="{}", help="game parameters as JSON")
    ap.add_argument("--find-first-bounce", type=int, default=0)
    args = ap.parse_args(argv)
    game = pyspiel.load_game("gin_rummy", json.loads(args.params))
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[int]] = collections.defaultdict(list)
    bounces: list[int] = []
    for seed in range(args.seed, args.seed + args.hands):
        state, trace = play_uniform(game, seed)
        if len(bounces) < args.find_first_bounce and first_bounce(trace):
            bounces.append(seed)
        text = pyspiel.serialize_game_and_state(game, state)
        try:
            events = record_events(*parse_record(text, f"seed {seed}"))
            net = score_json(fold(events).state, None)["hands"][0]["net"]
            if [net["P0"], net["P1"]] != [int(r) for r in state.returns()]:
                raise GinlogError(f"scored {net}, OpenSpiel {state.returns()}", rule="wrong-score")
        except GinlogError as exc:
            failures[exc.rule] += 1
            if len(examples[exc.rule]) < 5:
                examples[exc.rule].append(seed)
    total = sum(failures.values())
    print(f"{args.hands} uniform-random hands (seeds {args.seed}..{args.seed + args.hands - 1}, "
          f"params {args.params}): {total} failed ({100 * total / args.hands:.2f}%)")
    for rule, n in failures.most_common():
        print(f"  {rule}: {n} (seeds {', '.join(map(str, examples[rule]))} ...)")
    if args.find_first_bounce:
        print(f"first-upcard bounce voids: seeds {bounces}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
