"""What verifying seals adds to the audit of a typical match: one 200-event match, unsealed and sealed twice.

    python benchmarks/bench_seals.py [--events 200] [--rounds 7] [--reads 50]

A warm process (the imports, ``cryptography``'s among them, done once and timed apart): each round audits
the unsealed file ``--reads`` times, then the same match with two seals (Ann's Ed25519 and Bob's ECDSA keys,
the test keys of ``tests/data/seals``), in turn, so the machine's drift hits both alike; the best round's
per-file CPU time is kept for each. Printed: both figures, the cost per seal, and the ratio against the
target, sealed ≤ 1.10 × unsealed (issue 24).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent))

TARGET = 1.10


def _match(path: Path, events: int) -> Path:
    """A match cut at a hand's end near ``events`` lines (a seal is made between hands)."""
    from ginlog.game.rules import preset
    from ginlog.log.events import HandDealt
    from ginlog.match.session import MatchSession
    from ginlog.play.simulate import simulate_match

    evs = list(simulate_match(preset("standard"), seed=7))
    cut = max(i for i, e in enumerate(evs) if isinstance(e, HandDealt) and i <= events) if len(evs) > events else len(evs)
    MatchSession.write(path, evs[:cut])
    return path


def _per_file(path: str, reads: int) -> float:
    from ginlog.app.check.audit import audit_file

    t = time.process_time()
    for _ in range(reads):
        r = audit_file(path)
        assert r.ok, r.errors
    return (time.process_time() - t) / reads


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=200)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--reads", type=int, default=50)
    a = p.parse_args(argv)
    t = time.process_time()
    import cryptography.hazmat.primitives.asymmetric.ed25519  # noqa: F401 - the library's import, timed apart

    import ginlog.app.check.audit  # noqa: F401
    imports = time.process_time() - t
    from sealing import seal

    with tempfile.TemporaryDirectory() as folder:
        plain = _match(Path(folder) / "plain.jsonl", a.events)
        sealed = _match(Path(folder) / "sealed.jsonl", a.events)
        seal(sealed, "ann_ed25519", "Ann")
        seal(sealed, "bob_ecdsa", "Bob")
        lines = len(plain.read_bytes().splitlines())
        _per_file(str(plain), 2), _per_file(str(sealed), 2)  # warm: the known bodies, the caches
        best_plain = best_sealed = float("inf")
        for _ in range(a.rounds):
            best_plain = min(best_plain, _per_file(str(plain), a.reads))
            best_sealed = min(best_sealed, _per_file(str(sealed), a.reads))
    ratio = best_sealed / best_plain
    print(f"a match of {lines} events; best of {a.rounds} rounds of {a.reads} audits each (CPU, warm process)")
    print(f"imports (ginlog's audit and cryptography), once: {imports * 1e3:.1f} ms")
    print(f"unsealed: {best_plain * 1e3:.3f} ms a file")
    print(f"sealed (2 seals): {best_sealed * 1e3:.3f} ms a file, {(best_sealed - best_plain) / 2 * 1e6:.0f} µs a seal")
    print(f"target: sealed ≤ {TARGET:.2f} × unsealed: {ratio:.3f} ×, {'MET' if ratio <= TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
