"""Fidelity against a foreign engine: fresh hands played by the engine, imported, and compared figure by figure.

Run by hand (not a test), with the engine installed in the same Python as ginlog::

    python benchmarks/bench_fidelity.py [--engine openspiel] [--n 200] [--seed 1] [--keep DIR]

For each rule set (the engine's parameters) ``--n`` hands are played to the
end by the engine itself (seeded policies, drawn per hand: uniform among the
legal actions, or greedy, knocking at once or late, so knocks, gins,
undercuts, lay-offs and every void come up), serialised as the engine
serialises them, imported through ginlog's importer (the reducer the only
judge) and compared with the engine's own terminal state:

- ``net``: ginlog's net for P0 against the engine's return for player 0;
- ``points``: the hand's points against the return's size;
- ``winner``: nobody when the returns are 0, else the seat with the positive return;
- ``outcome``: void without a knock; else undercut when the knocker's return is
  below 0, gin when the knocker's deadwood is 0, knock otherwise;
- ``deadwood``: both players' final deadwood after a knock (the engine's
  ``deadwood()``) against ginlog's.

A hand ginlog refuses that the engine finished is a difference too. The
table has one row per rule set and the count that agree on each figure; the
first difference of each rule set is printed in one line (its seed, which
figure, both values), and with ``--keep DIR`` its record is written there, so
the next difference is found by running this one command. Exit status: 0 all
agree, 1 a difference, 2 the engine is not installed.

RLCard (``--engine rlcard``): for each of its settings that ginlog reads
(RLCard's defaults, a knock at 5, a dead stock of 10, a 40-move limit, the
picked-up card discardable) ``--n`` games are played by RLCard's engine
(the fixture generator's seeded policies, ``tests/data/rlcard/make_games.py``),
written by the snippet of ``docs/IMPORTS.md`` and imported game by game
(``ginlog.app.importers.rlcard.line_events``); the figures:

- ``read``: the game imports (its payoffs and scored deadwood are checked
  by the importer itself, so a reward or deadwood RLCard and ginlog disagree
  on is a game that does not read);
- ``outcome``: the engine's way out (its move sheet's gin, knock or dead
  hand) against ginlog's ``how``;
- ``deadwood``: both players' deadwood as RLCard scored them against the
  shown hands' in ginlog's state;
- ``reward``: RLCard's payoffs against ginlog's reward of its own result.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

#: (name, the engine's parameters): the fixtures' three and the edges the importer reads.
OPENSPIEL_RULES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("default", {}),
    ("oklahoma", {"oklahoma": True}),
    ("bonus20u10", {"gin_bonus": 20, "undercut_bonus": 10}),
    ("knock7", {"knock_card": 7}),
    ("gin0", {"gin_bonus": 0}),
    ("undercut0", {"undercut_bonus": 0}),
)
FIGURES: tuple[str, ...] = ("net", "points", "winner", "outcome", "deadwood")
KNOCK, MELD_BASE = 55, 56


@attrs.frozen
class Difference:
    """The first figure on which ginlog and the engine part, for one hand."""

    rules: str
    seed: int
    figure: str
    ginlog: object
    engine: object
    record: str


@attrs.frozen
class Row:
    """One rule set's counts: hands played, and how many agree on each figure (and are read at all)."""

    rules: str
    hands: int
    agree: dict[str, int]
    read: int
    first: Difference | None
    outcomes: dict[str, int] = attrs.field(factory=dict)  # the engine's, so the counts are seen to cover each kind


def play(game: Any, rng: random.Random) -> Any:
    """One hand to its end by the engine, under a policy drawn per hand: ``uniform`` among the legal actions
    (the loops and voids), or greedy (take the upcard when it lowers the deadwood, discard what leaves the least,
    lay melds and lay-offs) knocking as soon as it may (``eager``) or only at 3 or less (``patient``); 10% noise."""
    policy = rng.choice(("uniform", "eager", "eager", "patient"))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        if policy == "uniform" or rng.random() < 0.1:
            state.apply_action(rng.choice(legal))
            continue
        p = state.current_player()

        def after(action: int) -> int:
            child = state.clone()
            child.apply_action(action)
            return int(child.deadwood()[p])

        if KNOCK in legal and (policy == "eager" or int(state.deadwood()[p]) <= 3):
            action = KNOCK
        elif any(a >= MELD_BASE for a in legal):
            action = max(a for a in legal if a >= MELD_BASE)
        elif 52 in legal and 53 in legal:  # draw: the upcard when it helps
            action = 52 if after(52) < int(state.deadwood()[p]) else 53
        elif any(a < 52 for a in legal):  # a discard, a knock's face-down card or a lay-off: the least deadwood left
            action = min((a for a in legal if a < 52), key=lambda a: (after(a), rng.random()))
        else:
            action = rng.choice(legal)
        state.apply_action(action)
    return state


def engine_figures(state: Any) -> dict[str, object]:
    """The figures as the engine's terminal state gives them."""
    r0, r1 = (int(r) for r in state.returns())
    knocked = list(state.knocked())
    winner = None if r0 == 0 else ("P0" if r0 > 0 else "P1")
    figures: dict[str, object] = {"net": r0, "points": abs(r0), "winner": winner}
    if not any(knocked):
        figures.update(outcome="void", deadwood=None)
        return figures
    k = 0 if knocked[0] else 1
    dw = [int(d) for d in state.deadwood()]
    outcome = "undercut" if (r0, r1)[k] < 0 else "gin" if dw[k] == 0 else "knock"
    figures.update(outcome=outcome, deadwood={"P0": dw[0], "P1": dw[1]})
    return figures


def ginlog_figures(text: str) -> dict[str, object]:
    """The same figures from ginlog's reading of the record (a refused record raises its one-line error)."""
    from ginlog.app.importers.openspiel import parse_record, record_events
    from ginlog.app.views.match_json import score_json
    from ginlog.play.reducer import fold

    state = fold(record_events(*parse_record(text, "fresh"))).state
    (hand,) = score_json(state, None)["hands"]
    void = hand["outcome"] == "void"
    return {
        "net": hand["net"]["P0"], "points": hand["points"], "winner": hand["winner"], "outcome": hand["outcome"],
        "deadwood": None if void else hand["deadwood"],
    }


def run_rules(pyspiel: Any, name: str, params: dict[str, Any], n: int, seed: int) -> Row:
    """``n`` fresh hands under one rule set, compared."""
    from ginlog.errors import GinlogError

    game = pyspiel.load_game("gin_rummy", params)
    agree = dict.fromkeys(FIGURES, 0)
    read = 0
    first: Difference | None = None
    outcomes: dict[str, int] = {}
    for i in range(n):
        hand_seed = seed * 1_000_003 + i
        state = play(game, random.Random(f"{name}/{hand_seed}"))
        text = pyspiel.serialize_game_and_state(game, state)
        want = engine_figures(state)
        kind = str(want["outcome"]) + (" 0" if want["outcome"] != "void" and want["points"] == 0 else "")
        outcomes[kind] = outcomes.get(kind, 0) + 1
        try:
            got = ginlog_figures(text)
        except GinlogError as exc:
            if first is None:
                first = Difference(name, hand_seed, "read", exc.one_line(), "finished", text)
            continue
        read += 1
        for fig in FIGURES:
            if got[fig] == want[fig]:
                agree[fig] += 1
            elif first is None:
                first = Difference(name, hand_seed, fig, got[fig], want[fig], text)
    return Row(name, n, agree, read, first, outcomes)


def report(rows: Sequence[Row], seconds: float, out: Any, figures: Sequence[str] = FIGURES) -> None:
    """The table, then each rule set's first difference in one line."""
    head = f"{'rules':<12}{'hands':>7}{'read':>7}" + "".join(f"{f:>10}" for f in figures) + "  the engine's outcomes"
    print(head, file=out)
    for r in rows:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(r.outcomes.items()))
        print(f"{r.rules:<12}{r.hands:>7}{r.read:>7}" + "".join(f"{r.agree[f]:>10}" for f in figures) + f"  {kinds}", file=out)
    total = sum(r.hands for r in rows)
    whole = sum(1 for r in rows if r.first is None)
    print(f"{total} hands, {len(rows)} rule sets, {seconds:.1f} s; rule sets in full agreement: {whole} of {len(rows)}", file=out)
    for r in rows:
        if r.first is not None:
            d = r.first
            print(f"first difference: {d.rules} seed {d.seed}: {d.figure}: ginlog {d.ginlog!r}, engine {d.engine!r}", file=out)


#: (name, RLCard's settings by name) that ginlog reads: its defaults and the other supported values.
RLCARD_RULES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("default", {}),
    ("knock5", {"going_out_deadwood_count": 5}),
    ("dead10", {"stockpile_dead_card_count": 10}),
    ("moves40", {"max_move_count": 40}),
    ("discard", {"is_allowed_to_discard_picked_up_card": True}),
)
RLCARD_FIGURES: tuple[str, ...] = ("outcome", "deadwood", "reward")


def run_rlcard(name: str, settings: dict[str, Any], n: int, seed: int) -> Row:
    """``n`` fresh RLCard games under one set of settings, imported and compared."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "data" / "rlcard"))
    import make_games  # the fixtures' generator: RLCard's engine, seeded policies
    from rlcard.games.gin_rummy.utils.move import GinMove, KnockMove, ScoreNorthMove, ScoreSouthMove
    from rlcard.games.gin_rummy.utils.settings import Setting

    from ginlog.app.importers.rlcard import line_events, reward
    from ginlog.errors import GinlogError
    from ginlog.play.reducer import fold

    agree = dict.fromkeys(RLCARD_FIGURES, 0)
    read = 0
    first: Difference | None = None
    outcomes: dict[str, int] = {}
    for i in range(n):
        game_seed = (seed * 1_000_003 + i) % 2**32  # (numpy seeds are 32 bits)
        game = make_games.play(game_seed, {Setting(k): v for k, v in settings.items()} or None,
                               go_out=0.5 if i % 3 else 0.05)
        text = make_games.rlcard_line(game)
        sheet = game.round.move_sheet
        how = next((("gin" if isinstance(m, GinMove) else "knock") for m in sheet if isinstance(m, (GinMove, KnockMove))), "void")
        scored = {0 if isinstance(m, ScoreNorthMove) else 1: int(m.deadwood_count) for m in sheet
                  if isinstance(m, (ScoreNorthMove, ScoreSouthMove))}
        payoffs = tuple(float(p) for p in game.judge.scorer.get_payoffs(game))
        outcomes[how] = outcomes.get(how, 0) + 1
        try:
            state = fold(line_events(text, f"{name}-{game_seed}", 1)).state
        except GinlogError as exc:
            if first is None:
                first = Difference(name, game_seed, "read", exc.one_line(), "finished", text)
            continue
        read += 1
        hand = state.hands[0]
        shown = {s.player: s.deadwood_value for s in hand.shown}
        got = {
            "outcome": hand.result.how if hand.result.how in ("gin", "knock") else "void",
            "deadwood": (shown.get(0), shown.get(1)) if hand.result.how != "void" else (scored.get(0), scored.get(1)),
            "reward": reward(hand.result.how, hand.result.out, (shown.get(0, 0), shown.get(1, 0))) if hand.result.how != "void" else payoffs,
        }
        want = {"outcome": how, "deadwood": (scored.get(0), scored.get(1)), "reward": payoffs}
        for fig in RLCARD_FIGURES:
            if got[fig] == want[fig]:
                agree[fig] += 1
            elif first is None:
                first = Difference(name, game_seed, fig, got[fig], want[fig], text)
    return Row(name, n, agree, read, first, outcomes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=("openspiel", "rlcard"), default="openspiel")
    ap.add_argument("--n", type=int, default=200, help="hands per rule set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", action="append", help="only these rule sets (repeatable)")
    ap.add_argument("--keep", type=Path, help="write each rule set's first differing record here")
    args = ap.parse_args(argv)
    if args.engine == "rlcard":
        try:
            import rlcard  # noqa: F401
        except ImportError:
            print("bench_fidelity: rlcard is not installed (pip install rlcard)", file=sys.stderr)
            return 2
        chosen_r = [(n, p) for n, p in RLCARD_RULES if not args.rules or n in args.rules]
        t0 = time.perf_counter()
        rows = [run_rlcard(name, settings, args.n, args.seed) for name, settings in chosen_r]
        report(rows, time.perf_counter() - t0, sys.stdout, RLCARD_FIGURES)
        return _kept(rows, args.keep, ".rlcard.jsonl")
    try:
        import pyspiel
    except ImportError:
        print("bench_fidelity: pyspiel is not installed (pip install open_spiel)", file=sys.stderr)
        return 2
    chosen = [(n, p) for n, p in OPENSPIEL_RULES if not args.rules or n in args.rules]
    t0 = time.perf_counter()
    rows = [run_rules(pyspiel, name, params, args.n, args.seed) for name, params in chosen]
    report(rows, time.perf_counter() - t0, sys.stdout)
    return _kept(rows, args.keep, ".txt")


def _kept(rows: Sequence[Row], keep: Path | None, suffix: str) -> int:
    """Each rule set's first differing record written to ``keep``; the exit status (0: every figure agrees)."""
    for r in rows:
        if r.first is not None and keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"{r.rules}-{r.first.seed}{suffix}").write_text(r.first.record)
    return 0 if all(r.first is None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
