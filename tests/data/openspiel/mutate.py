#!/usr/bin/env python3
"""Records OpenSpiel refuses: the fixtures in ``records/`` mutated in their show and lay-off phases.

Issue 22: a defender who laid a meld without first passing (54) to end the
lay-offs was accepted by ginlog and refused by OpenSpiel's own
``deserialize_game_and_state`` (``ApplyLayoffAction`` takes only a card id
or 54 before the pass; a meld id is no card of the hand: ``SPIEL_CHECK``).
This script makes such records with the real engine and keeps, in
``refused/``, only those the engine itself refuses, each with the engine's
message in ``refused/refused.json``::

    {"<name>.txt": {"source": "default-050.txt", "kind": "meld-before-pass",
                    "position": 34, "openspiel": "<the engine's error>"}}

``position`` is the 1-based action that is wrong (the first one the engine
cannot apply). Kinds:

* ``meld-before-pass``: the lay-off pass (54) removed, so the defender's
  first meld comes while the lay-offs are open (the issue's case);
* ``meld-for-pass``: the lay-off pass replaced by a meld the defender could
  lay after it, then 54;
* ``knocker-extra``: after the knocker's pass, a meld of the knocker's again;
* ``layoff-after-melds``: a card laid off after the defender's first meld.

Needs pyspiel (a scratch venv, as ``generate.py``)::

    /tmp/osvenv/bin/python tests/data/openspiel/mutate.py tests/data/openspiel [--per-kind 12]

Deterministic for a given open_spiel version: the fixtures are taken in name order.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspiel

PASS, MELD_BASE = 54, 56
HEADER_END = "[State]\n"


def phase_name(state: Any) -> str:
    """``Phase.LAYOFF`` -> ``"LAYOFF"``."""
    return str(state.current_phase()).split(".")[-1]


def text_of(text: str, actions: list[int]) -> str:
    """The record's text with its actions replaced (the header kept byte for byte)."""
    head = text[: text.index(HEADER_END) + len(HEADER_END)]
    return head + "".join(f"{a}\n" for a in actions) + "\n"


def walk(game: Any, actions: list[int]) -> list[tuple[str, int, bool, Any]]:
    """(phase, player, finished_layoffs, state before) for each action of a record the engine accepts."""
    state = game.new_initial_state()
    out = []
    for a in actions:
        fin = False if state.is_chance_node() else bool(state.finished_layoffs())
        out.append((phase_name(state), state.current_player(), fin, state.clone()))
        state.apply_action(a)
    return out


def mutations(game: Any, actions: list[int]) -> Iterator[tuple[str, int, list[int]]]:
    """(kind, 0-based index of the wrong action, mutated actions) for one record."""
    steps = walk(game, actions)
    for i, (ph, _pl, fin, before) in enumerate(steps):
        if ph != "LAYOFF" or fin or actions[i] != PASS:
            continue
        after = before.clone()
        after.apply_action(PASS)
        rest = actions[i + 1 :]
        if rest and rest[0] >= MELD_BASE:
            yield "meld-before-pass", i, actions[:i] + rest
        melds = [a for a in after.legal_actions() if a >= MELD_BASE]
        if melds:
            yield "meld-for-pass", i, actions[:i] + [melds[0], PASS]
    for i, (ph, _pl, _fin, _before) in enumerate(steps):
        if ph == "KNOCK" and actions[i] == PASS and i + 1 < len(steps):
            knocker_melds = [actions[j] for j in range(i) if steps[j][0] == "KNOCK" and actions[j] >= MELD_BASE]
            if knocker_melds:
                yield "knocker-extra", i + 1, actions[: i + 1] + [knocker_melds[0]] + actions[i + 1 :]
    for i, (ph, _pl, fin, before) in enumerate(steps):
        if ph == "LAYOFF" and fin and actions[i] >= MELD_BASE:
            after = before.clone()
            after.apply_action(actions[i])
            cards = sorted(after.hands()[after.current_player()])
            if cards:  # any card of the hand: after a meld, the engine takes only melds and 54
                yield "layoff-after-melds", i + 1, actions[: i + 1] + [cards[0]] + actions[i + 1 :]
            break


def refused_by_engine(text: str) -> str | None:
    """The engine's error when ``deserialize_game_and_state`` refuses the record, else None."""
    try:
        pyspiel.deserialize_game_and_state(text)
    except Exception as exc:  # pyspiel raises RuntimeError (SpielFatalError)
        return str(exc).strip().splitlines()[-1][:200]
    return None


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="tests/data/openspiel")
    ap.add_argument("--per-kind", type=int, default=12)
    args = ap.parse_args(argv)
    out = args.data / "refused"
    out.mkdir(exist_ok=True)
    manifest: dict[str, dict[str, Any]] = {}
    kept: dict[str, int] = {}
    for path in sorted((args.data / "records").glob("*.txt")):
        text = path.read_text()
        game, state = pyspiel.deserialize_game_and_state(text)
        for kind, index, mutated in mutations(game, list(state.history())):
            if kept.get(kind, 0) >= args.per_kind:
                continue
            new = text_of(text, mutated)
            why = refused_by_engine(new)
            if why is None:
                continue
            name = f"{kind}-{kept.get(kind, 0):03d}.txt"
            (out / name).write_text(new)
            manifest[name] = {"source": path.name, "kind": kind, "position": index + 1, "openspiel": why}
            kept[kind] = kept.get(kind, 0) + 1
    (out / "refused.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"refused: {kept}", file=sys.stderr)


if __name__ == "__main__":
    main()
