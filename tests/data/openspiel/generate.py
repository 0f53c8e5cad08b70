#!/usr/bin/env python3
"""Generate OpenSpiel ``gin_rummy`` hand records for ginlog's importer tests.

Every hand is played to the end by the REAL engine (``pyspiel``) and written as
``<config>-<NNN>.txt`` containing exactly
``pyspiel.serialize_game_and_state(game, terminal_state)``.  A ``returns.json``
beside them maps each file name to::

    {"returns": [r0, r1],            # state.returns() of the terminal state
     "params": {...},                # game.get_parameters() (all 7 params)
     "effective_knock_card": int,    # state.knock_card() (differs in Oklahoma)
     "tags": [...],                  # what the hand shows, read from the engine
     "policy": str, "seed": int}     # provenance (re-run => same hand)

pyspiel is NOT a ginlog dependency.  Run with a scratch venv::

    python3 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel
    /tmp/osvenv/bin/python tests/data/openspiel/generate.py \
        tests/data/openspiel/records [--per-config 72] [--melds melds.json]

Output is deterministic for a given open_spiel version and --base-seed.

Tags (all derived from engine state / the phase in which each action was
played, never guessed):
  knock              someone knocked (state.knocked())
  gin                knocker's final deadwood is 0
  undercut           knocker's return < 0 (defender deadwood < knocker's)
  tie                knock, deadwood equal -> returns [0, 0]
  layoff             defender laid off >= 1 card (state.layoffs() non-empty)
  wall_knock         the knock (action 55) was played in the Wall phase
  void_stock         no knock; ended by Pass (54) in the Wall phase (stock = 2)
  void_upcard_limit  no knock; ended by the 50th Draw-phase upcard draw (52)
  void_upcard_loop   no knock; ended by a discard equal to the drawn upcard,
                     right after the opponent did the same
  first_upcard_taken a player took the very first upcard (FirstUpcard phase)
  both_passed_first  both passed the first upcard; player 0 drew from stock
  gin_only           Oklahoma with an ace upcard: effective knock card 0
  first_upcard_bounce  (--first-bounce) the void_upcard_loop whose first bounce
                     was the very first upcard, taken in the FirstUpcard phase

``--first-bounce`` adds ``firstbounce-*.txt``: uniform-random hands that hit
that case (OpenSpiel's ``ApplyFirstUpcardAction`` sets ``prev_upcard_``, so
the bounce counts toward the repeated-move void; the 50-take limit still
counts only Draw-phase takes)::

    /tmp/osvenv/bin/python tests/data/openspiel/generate.py tests/data/openspiel/records --first-bounce

``--zero-point`` adds ``zeropoint-*.txt`` (issue 22): deals chosen so that
P0 goes gin and P1 melds all ten cards under ``gin_bonus=0``, played by the
engine (every action one it lists as legal): OpenSpiel returns 0 and 0, so
nobody won the hand. ``mutate.py`` beside this makes ``refused/``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import pyspiel

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
MAX_UPCARD_DRAWS = 50  # kMaxNumDrawUpcardActions in gin_rummy.h

CONFIGS = {
    "default": {},
    "oklahoma": {"oklahoma": True},
    "bonus20u10": {"gin_bonus": 20, "undercut_bonus": 10},
}

# (policy name, weight).  See Player below for what each does.
POLICIES = [
    ("greedy_knock", 6),      # knock as soon as legal, best lay-out
    ("gin_hunter", 2),        # knock only with gin (deadwood 0)
    ("never_knock", 3),       # never knock -> stock runs down to the wall
    ("wall_knocker", 1),      # never knock before the wall, knock at the wall
    ("upcard_cycle", 2),      # always draw the upcard, discard another card
    ("upcard_loop", 2),       # draw the upcard and discard it straight back
    ("sloppy_defender", 2),   # greedy knock, defender lays off/melds randomly
    ("tie_seeker", 4),        # greedy knock, defender aims for equal deadwood
]

RANKS, SUITS = "A23456789TJQK", "SCDH"


def card_text(card: int) -> str:
    """Card id -> text in ginlog style (rank + upper-case suit), e.g. 0 -> 'AS'."""
    return RANKS[card % 13] + SUITS[card // 13]


def phase_name(state: Any) -> str:
    # e.g. Phase.FIRST_UPCARD -> "FIRST_UPCARD"
    return str(state.current_phase()).split(".")[-1]


class Player:
    """A seeded, biased policy driven entirely by the engine (via clones)."""

    def __init__(self, policy: str, rng: random.Random) -> None:
        self.policy = policy
        self.rng = rng
        # Turn (own decisions in the Draw phase) after which the upcard
        # policies start cycling/looping; before that they play greedily.
        self.switch_turn = rng.randint(0, 6)
        self.turns = [0, 0]

    # -- helpers -----------------------------------------------------------
    @staticmethod
    def _after(state: Any, action: int) -> Any:
        child = state.clone()
        child.apply_action(action)
        return child

    def _deadwood_after(self, state: Any, action: int, p: int) -> Any:
        return self._after(state, action).deadwood()[p]

    def _cycling(self, p: int) -> bool:
        return (self.policy in ("upcard_cycle", "upcard_loop")
                and self.turns[p] >= self.switch_turn)

    def _may_knock(self, state: Any, p: int, wall: bool = False) -> bool:
        pol = self.policy
        if pol in ("never_knock", "upcard_cycle", "upcard_loop"):
            return False
        if pol == "wall_knocker":
            return wall
        if pol == "gin_hunter":
            # Only with gin (deadwood 0 is "knock with nothing").
            return state.deadwood()[p] == 0 or wall
        return True

    # -- decisions ---------------------------------------------------------
    def act(self, state: Any) -> Any:
        p = state.current_player()
        legal = state.legal_actions()
        ph = phase_name(state)
        if ph == "FIRST_UPCARD":
            if legal == [DRAW_STOCK]:
                return DRAW_STOCK
            take = self._deadwood_after(state, DRAW_UPCARD, p) < state.deadwood()[p]
            if self.rng.random() < 0.15:
                take = not take
            return DRAW_UPCARD if take else PASS
        if ph == "DRAW":
            self.turns[p] += 1
            if self._cycling(p):
                return DRAW_UPCARD
            take = self._deadwood_after(state, DRAW_UPCARD, p) < state.deadwood()[p]
            if self.rng.random() < 0.1:
                take = not take
            return DRAW_UPCARD if take else DRAW_STOCK
        if ph == "DISCARD":
            if KNOCK in legal and self._may_knock(state, p):
                return KNOCK
            cards = [a for a in legal if a < 52]
            if self._cycling(p):
                drawn = state.prev_upcard()  # the upcard just taken
                if self.policy == "upcard_loop" and drawn in cards:
                    return drawn
                cards = [c for c in cards if c != drawn] or cards
            return self._best_discard(state, p, cards)
        if ph == "WALL":
            if KNOCK in legal and self._may_knock(state, p, wall=True):
                return KNOCK
            return PASS
        if ph == "KNOCK":
            return self._best_line(state, p)[1]
        if ph == "LAYOFF":
            if self.policy == "sloppy_defender" and self.rng.random() < 0.5:
                return self.rng.choice(legal)
            if self.policy == "tie_seeker":
                knocker_dw = state.deadwood()[1 - p]  # final once we act
                return self._best_line(state, p, target=knocker_dw)[1]
            return self._best_line(state, p)[1]
        raise RuntimeError(f"unexpected phase {ph}")

    def _best_discard(self, state: Any, p: int, cards: list[int]) -> int:
        scored = [(self._deadwood_after(state, c, p), self.rng.random(), c)
                  for c in cards]
        if self.rng.random() < 0.08:  # a little noise
            return self.rng.choice(cards)
        return min(scored)[2]

    def _best_line(self, state: Any, p: int, memo: dict[Any, Any] | None = None,
                   target: int | None = None) -> Any:
        """Exhaustive search over the current player's knock/lay-off/meld
        actions; returns (score, first action) where score is the final
        deadwood of p (or, with target, (|deadwood - target|, deadwood)).
        Ties broken by preferring melds/lay-offs over Pass."""
        if memo is None:
            memo = {}
        if state.is_terminal() or state.current_player() != p:
            dw = state.deadwood()[p]
            return ((dw if target is None else (abs(dw - target), dw)), None)
        key = (phase_name(state), tuple(sorted(state.hands()[p])),
               state.finished_layoffs(), tuple(sorted(state.layoffs())))
        if key in memo:
            return memo[key]
        best: tuple[Any, int, int] | None = None
        for a in state.legal_actions():
            val = self._best_line(self._after(state, a), p, memo, target)[0]
            cand = (val, 1 if a == PASS else 0, a)
            if best is None or cand < best:
                best = cand
        assert best is not None, "a player to move has a legal action"
        memo[key] = (best[0], best[2])
        return memo[key]


def play_hand(game: Any, seed: int, policy: str) -> tuple[Any, list[tuple[str, int, int]]]:
    """Play one hand; returns (terminal state, list of (phase, player, action))."""
    rng = random.Random(seed)
    player = Player(policy, rng)
    state = game.new_initial_state()
    trace = []
    while not state.is_terminal():
        ph = phase_name(state)
        if state.is_chance_node():
            outcomes = sorted(a for a, _ in state.chance_outcomes())
            action = rng.choice(outcomes)
            pl = -1
        else:
            pl = state.current_player()
            action = player.act(state)
        trace.append((ph, pl, action))
        state.apply_action(action)
    return state, trace


def expected_returns(state: Any, game_params: dict[str, Any]) -> list[int]:
    """Re-derive the returns with the documented formula (sanity check of
    FORMAT.md against the engine)."""
    knocked, dw = state.knocked(), state.deadwood()
    r = [0, 0]
    for k in (0, 1):
        if knocked[k]:
            v = dw[1 - k] - dw[k]
            if dw[k] == 0:
                v += game_params["gin_bonus"]
            if v < 0:
                v -= game_params["undercut_bonus"]
            r[k], r[1 - k] = v, -v
    return r


def tags_for(state: Any, trace: list[tuple[str, int, int]], game_params: dict[str, Any]) -> list[str]:
    tags = []
    knocked = state.knocked()
    last_phase, _, last_action = trace[-1]
    if any(knocked):
        k = 0 if knocked[0] else 1
        dw = state.deadwood()
        ret = state.returns()
        tags.append("knock")
        if dw[k] == 0:
            tags.append("gin")
        if ret[k] < 0:
            tags.append("undercut")
        if dw[k] == dw[1 - k]:
            # Equal deadwood scores 0 -- except with gin, where the gin
            # bonus still applies (defender also at 0 => "gin_vs_zero").
            tags.append("tie" if dw[k] > 0 else "gin_vs_zero")
            assert ret == ([0.0, 0.0] if dw[k] > 0 else ret), ret
        if state.layoffs():
            tags.append("layoff")
        if any(ph == "WALL" and a == KNOCK for ph, _, a in trace):
            tags.append("wall_knock")
    else:
        if last_phase == "WALL" and last_action == PASS:
            tags.append("void_stock")
            assert state.stock_size() == 2
        elif last_phase == "DRAW" and last_action == DRAW_UPCARD:
            tags.append("void_upcard_limit")
            n = sum(1 for ph, _, a in trace if ph == "DRAW" and a == DRAW_UPCARD)
            assert n == MAX_UPCARD_DRAWS, n
        elif last_phase == "DISCARD" and last_action < 52:
            tags.append("void_upcard_loop")
        else:
            raise AssertionError(f"unknown hand end {trace[-1]}")
        assert state.returns() == [0.0, 0.0]
    if any(ph == "FIRST_UPCARD" and a == DRAW_UPCARD for ph, _, a in trace):
        tags.append("first_upcard_taken")
    if any(ph == "FIRST_UPCARD" and a == DRAW_STOCK for ph, _, a in trace):
        tags.append("both_passed_first")
    if game_params["oklahoma"] and state.knock_card() == 0:
        tags.append("gin_only")
    return tags


QUOTA_TAGS = ["knock", "gin", "undercut", "tie", "layoff", "wall_knock",
              "void_stock", "void_upcard_limit", "void_upcard_loop"]


def generate(out_dir: Path, per_config: int, quota: int, base_seed: int,
             max_tries: int) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = {}
    weighted = [name for name, w in POLICIES for _ in range(w)]
    for ci, (cname, cparams) in enumerate(CONFIGS.items()):
        game = pyspiel.load_game("gin_rummy", cparams)
        gparams = game.get_parameters()
        counts = {t: 0 for t in QUOTA_TAGS}
        kept = 0
        for i in range(max_tries):
            seed = base_seed + ci * 1_000_000 + i
            policy = weighted[random.Random(seed).randrange(len(weighted))]
            state, trace = play_hand(game, seed, policy)
            tags = tags_for(state, trace, gparams)
            assert expected_returns(state, gparams) == state.returns(), seed
            needed = any(t in counts and counts[t] < quota for t in tags)
            # Fill the quotas first, then top up with whatever comes.
            missing = sum(max(0, quota - c) for c in counts.values())
            if not needed and kept + missing >= per_config:
                if missing == 0 and kept >= per_config:
                    break
                continue
            name = f"{cname}-{kept:03d}.txt"
            text = pyspiel.serialize_game_and_state(game, state)
            (out_dir / name).write_text(text)
            manifest[name] = {
                "returns": [int(r) for r in state.returns()],
                "params": gparams,
                "effective_knock_card": state.knock_card(),
                "tags": tags,
                "policy": policy,
                "seed": seed,
            }
            for t in tags:
                if t in counts:
                    counts[t] += 1
            kept += 1
        print(f"{cname}: {kept} hands after {i + 1} tries; {counts}",
              file=sys.stderr)
    with open(out_dir / "returns.json", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


def write_melds(path: Path) -> None:
    """Dump the meld action table straight from the engine's ActionToString."""
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    rows = []
    for action in range(MELD_BASE, MELD_BASE + 185):
        text = state.action_to_string(0, action).split("Action: ")[1]
        cards = [text[i:i + 2] for i in range(0, len(text), 2)]
        ids = ["A23456789TJQK".index(c[0]) + 13 * "scdh".index(c[1])
               for c in cards]
        rows.append({"action": action,
                     "cards": [card_text(c) for c in ids]})
    # One meld per line keeps the file diffable and greppable.
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")


def play_uniform(game: Any, seed: int) -> tuple[Any, list[tuple[str, int, int]]]:
    """One hand, every action (chance too) uniform among the legal ones; (terminal state, trace)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    trace = []
    while not state.is_terminal():
        ph = phase_name(state)
        if state.is_chance_node():
            action, pl = rng.choice([a for a, _ in state.chance_outcomes()]), -1
        else:
            pl = state.current_player()
            action = rng.choice(state.legal_actions())
        trace.append((ph, pl, action))
        state.apply_action(action)
    return state, trace


def first_upcard_bounce(trace: list[tuple[str, int, int]]) -> bool:
    """The very first upcard taken (FirstUpcard phase) and discarded straight back, then taken
    (Draw phase) and discarded straight back by the other player: the repeated-move void, its
    first bounce the first upcard's (ApplyFirstUpcardAction sets prev_upcard_)."""
    upcard = trace[20][2]
    for k, (ph, _pl, a) in enumerate(trace):
        if ph == "FIRST_UPCARD" and a == DRAW_UPCARD:
            return (len(trace) == k + 4 and trace[k + 1][2] == upcard
                    and (trace[k + 2][0], trace[k + 2][2]) == ("DRAW", DRAW_UPCARD)
                    and (trace[k + 3][0], trace[k + 3][2]) == ("DISCARD", upcard))
    return False


FIRST_BOUNCE_CONFIGS = {"default": 8, "oklahoma": 2, "bonus20u10": 2}


def generate_first_bounce(out_dir: Path, base_seed: int, max_tries: int) -> None:
    """``firstbounce-NNN.txt``: uniform-random hands (issue 13: 0.33% of them) that end in the
    repeated-move void through a bounce of the very first upcard; added to returns.json."""
    manifest = json.loads((out_dir / "returns.json").read_text())
    kept = 0
    for ci, (cname, want) in enumerate(FIRST_BOUNCE_CONFIGS.items()):
        game = pyspiel.load_game("gin_rummy", CONFIGS[cname])
        gparams = game.get_parameters()
        found = 0
        for i in range(max_tries):
            seed = base_seed + ci * 1_000_000 + i
            state, trace = play_uniform(game, seed)
            if not first_upcard_bounce(trace):
                continue
            tags = tags_for(state, trace, gparams) + ["first_upcard_bounce"]
            assert "void_upcard_loop" in tags and state.returns() == [0.0, 0.0], (seed, tags)
            name = f"firstbounce-{kept:03d}.txt"
            (out_dir / name).write_text(pyspiel.serialize_game_and_state(game, state))
            manifest[name] = {
                "returns": [int(r) for r in state.returns()],
                "params": gparams,
                "effective_knock_card": state.knock_card(),
                "tags": tags,
                "policy": "uniform",
                "seed": seed,
            }
            kept += 1
            found += 1
            if found == want:
                break
        print(f"firstbounce {cname}: {found} hands after {i + 1} tries", file=sys.stderr)
    with open(out_dir / "returns.json", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


#: (name, parameters, P0's ten cards, P1's ten cards, the upcard): hands dealt on purpose, played by the engine.
ZERO_POINT_DEALS = [
    # Gin against a defender who melds all ten cards, with gin_bonus=0: OpenSpiel returns 0 and 0 (issue 22).
    ("zeropoint-000.txt", {"gin_bonus": 0}, list(range(0, 10)), list(range(39, 49)), 38),
    ("zeropoint-001.txt", {"gin_bonus": 0, "undercut_bonus": 0}, list(range(13, 23)), list(range(26, 36)), 51),
]


def generate_zero_point(out_dir: Path) -> None:
    """``zeropoint-NNN.txt``: P0 takes the upcard, knocks with gin, discards it and lays the rest; P1 melds all
    ten cards: a hand that scores 0 (no winner). Each action is one the engine lists as legal; added to returns.json."""
    manifest = json.loads((out_dir / "returns.json").read_text())
    for name, params, p0, p1, upcard in ZERO_POINT_DEALS:
        game = pyspiel.load_game("gin_rummy", params)
        state = game.new_initial_state()
        trace: list[tuple[str, int, int]] = []

        def act(action: int) -> None:
            assert action in state.legal_actions(), (name, phase_name(state), action)
            trace.append((phase_name(state), state.current_player(), action))
            state.apply_action(action)

        for card in [*p0, *p1, upcard]:
            act(card)
        act(DRAW_UPCARD)
        act(KNOCK)
        act(upcard)  # the knock's face-down card: the upcard just taken
        while not state.is_terminal():  # each side lays its longest legal meld (the highest id) until none is left
            melds = [a for a in state.legal_actions() if a >= MELD_BASE]
            act(max(melds) if melds else PASS)
        assert state.returns() == [0.0, 0.0] and list(state.deadwood()) == [0, 0], (name, state.returns(), state.deadwood(), trace[21:])
        gparams = game.get_parameters()
        (out_dir / name).write_text(pyspiel.serialize_game_and_state(game, state))
        manifest[name] = {
            "returns": [0, 0],
            "params": gparams,
            "effective_knock_card": state.knock_card(),
            "tags": tags_for(state, trace, gparams) + ["zero_point"],
            "policy": "dealt",
            "seed": 0,
        }
    with open(out_dir / "returns.json", "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--per-config", type=int, default=72)
    ap.add_argument("--quota", type=int, default=4,
                    help="min hands per quota tag per config (if reachable)")
    ap.add_argument("--base-seed", type=int, default=20240601)
    ap.add_argument("--max-tries", type=int, default=4000)
    ap.add_argument("--melds", type=Path, help="also write melds.json here")
    ap.add_argument("--first-bounce", action="store_true",
                    help="only add the firstbounce-*.txt hands (uniform-random play) to out_dir")
    ap.add_argument("--zero-point", action="store_true",
                    help="only add the zeropoint-*.txt hands (dealt on purpose: gin scoring 0) to out_dir")
    args = ap.parse_args(argv)
    if args.zero_point:
        generate_zero_point(args.out_dir)
        return
    if args.first_bounce:
        generate_first_bounce(args.out_dir, args.base_seed, max(args.max_tries, 100_000))
        return
    generate(args.out_dir, args.per_config, args.quota, args.base_seed,
             args.max_tries)
    if args.melds:
        write_melds(args.melds)


if __name__ == "__main__":
    main()
