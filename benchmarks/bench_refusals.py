"""Does ginlog refuse every OpenSpiel record that OpenSpiel's own engine refuses? A differential mutation run.

Run by hand (not a test), with pyspiel installed in the same Python as ginlog's dependencies::

    PYTHONPATH=. /tmp/osvenv/bin/python benchmarks/bench_refusals.py [--records tests/data/openspiel/records]
        [--per-position 3] [--seed 1] [--keep DIR]

For every record, every action taken in the knock and lay-off phases (where
the importer reads OpenSpiel's order of melds, lay-offs and passes) is
mutated: replaced by the pass (54), by a random card, by a random meld id, by
a meld the engine lists as legal there, deleted, or repeated (``--per-position``
random replacements of each kind). Each mutated record is given to the
engine (``deserialize_game_and_state``) and to ginlog's importer
(``OpenSpiel.read``). The two must agree: a record the engine refuses must be
refused by ginlog, and so must one whose actions are not all among the engine's legal actions
where they were taken (the engine's reading does not check them all); a record the engine plays to
its end with legal actions must be read by ginlog
(a record the engine accepts but leaves unfinished is not counted: ginlog
refuses a hand without its end, by design). Prints the counts, each
disagreement's first few in one line (with ``--keep DIR`` the records), and
exits 0 when there is none, 1 otherwise, 2 without pyspiel.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASS, MELD_BASE, MELD_END = 54, 56, 241


def _mutate() -> Any:
    """``tests/data/openspiel/mutate.py`` (the refused fixtures' maker: its ``phase_name`` and ``text_of``), once
    pyspiel is known to be there (it imports pyspiel)."""
    sys.path.insert(0, str(ROOT / "tests" / "data" / "openspiel"))
    import mutate

    return mutate


def mutations(game: Any, actions: list[int], rng: random.Random, per: int) -> list[tuple[str, list[int]]]:
    """(kind, mutated actions) at every action of the knock and lay-off phases."""
    out: list[tuple[str, list[int]]] = []
    state = game.new_initial_state()
    for i, a in enumerate(actions):
        if not state.is_chance_node() and _mutate().phase_name(state) in ("KNOCK", "LAYOFF"):
            legal = [x for x in state.legal_actions() if x != a]
            subs = [("pass", PASS)] if a != PASS else []
            subs += [("card", rng.randrange(52)) for _ in range(per)]
            subs += [("meld", rng.randrange(MELD_BASE, MELD_END)) for _ in range(per)]
            subs += [("legal", rng.choice(legal)) for _ in range(per) if legal]
            for kind, b in subs:
                out.append((kind, actions[:i] + [b] + actions[i + 1 :]))
            out.append(("deleted", actions[:i] + actions[i + 1 :]))
            out.append(("repeated", actions[: i + 1] + [a] + actions[i + 1 :]))
        state.apply_action(a)
    return out


def engine_verdict(pyspiel: Any, text: str) -> str:
    """``refused``, ``illegal``, ``finished`` or ``unfinished``: what OpenSpiel makes of the record.

    ``refused``: its own reading (``deserialize_game_and_state``) fails. ``illegal``: it reads, but some
    action was not among the engine's legal actions where it was taken (the engine's reading does not check
    every action: a meld of cards not in the hand goes through it, and ginlog refuses it). Otherwise the
    record ends the hand (``finished``) or not.
    """
    try:
        game, state = pyspiel.deserialize_game_and_state(text)
    except Exception:  # pyspiel raises RuntimeError (SpielFatalError)
        return "refused"
    replay = game.new_initial_state()
    for a in state.history():
        if not replay.is_chance_node() and a not in replay.legal_actions():
            return "illegal"
        replay.apply_action(a)
    return "finished" if state.is_terminal() else "unfinished"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=Path, default=ROOT / "tests" / "data" / "openspiel" / "records")
    ap.add_argument("--per-position", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many records (0: all)")
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("bench_refusals: pyspiel is not installed (pip install open_spiel)", file=sys.stderr)
        return 2
    from ginlog.app.importers.openspiel import OpenSpiel
    from ginlog.errors import GinlogError

    importer = OpenSpiel()
    rng = random.Random(args.seed)
    counts = {"refused-both": 0, "illegal-refused-both": 0, "read-both": 0, "unfinished": 0,
              "ginlog-reads-engine-refuses": 0, "ginlog-reads-illegal": 0, "ginlog-refuses-engine-finishes": 0}
    kinds: dict[str, int] = {}
    shown: list[str] = []
    records = sorted(args.records.glob("*.txt"))[: args.limit or None]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutated.txt"
        for rec in records:
            text = rec.read_text()
            game, state = pyspiel.deserialize_game_and_state(text)
            for kind, mutated in mutations(game, list(state.history()), rng, args.per_position):
                new = _mutate().text_of(text, mutated)
                kinds[kind] = kinds.get(kind, 0) + 1
                engine = engine_verdict(pyspiel, new)
                if engine == "unfinished":
                    counts["unfinished"] += 1
                    continue
                path.write_text(new)
                try:
                    importer.read(str(path))
                    ours, why = "read", ""
                except GinlogError as exc:
                    ours, why = "refused", exc.one_line()
                if engine in ("refused", "illegal") and ours == "refused":
                    counts["refused-both" if engine == "refused" else "illegal-refused-both"] += 1
                elif engine == "finished" and ours == "read":
                    counts["read-both"] += 1
                else:
                    which = {"refused": "ginlog-reads-engine-refuses", "illegal": "ginlog-reads-illegal"}.get(
                        engine, "ginlog-refuses-engine-finishes")
                    counts[which] += 1
                    if len(shown) < 10:
                        shown.append(f"{rec.name} ({kind}): {which}{': ' + why if why else ''}")
                        if args.keep is not None:
                            args.keep.mkdir(parents=True, exist_ok=True)
                            (args.keep / f"{rec.stem}-{len(shown)}.txt").write_text(new)
    total = sum(kinds.values())
    print(f"{len(records)} records, {total:,} mutated records ({', '.join(f'{k} {v:,}' for k, v in sorted(kinds.items()))}), "
          f"{time.perf_counter() - t0:.1f} s")
    for k, v in counts.items():
        print(f"  {k:<32}{v:>9,}")
    for line in shown:
        print("  " + line)
    bad = counts["ginlog-reads-engine-refuses"] + counts["ginlog-reads-illegal"] + counts["ginlog-refuses-engine-finishes"]
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
