"""What verifying a seal adds to the audit of a typical match: one 200-event match, unsealed and sealed.

    python benchmarks/bench_seals.py [--events 200] [--rounds 7] [--reads 50]

A warm process (the imports, ``cryptography``'s among them, done once and timed apart): each round audits,
``--reads`` times each, in turn (so the machine's drift hits all alike), the unsealed file and the same match
sealed once by Ann's Ed25519 key, once by Bob's ECDSA P-256 key, and twice (both), the test keys of
``tests/data/seals``; the best round's per-file CPU time is kept for each. Also timed alone: the signature
check itself (``cryptography``'s ``verify`` of one signature), the floor no reading of ours goes under.
Printed: the figures, the cost of each seal, and each one-seal file's ratio against the target, a seal adding
at most 10% (issue 24: "verifying a seal adds at most 10% to the audit of a typical 200-event match").
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


def _floors(ed: Path, ec: Path) -> dict[str, float]:
    """The best time of ``cryptography``'s check of each file's one signature, alone (the envelope parsed once)."""
    import json

    from ginlog.log import sshsig
    from ginlog.log.event_types import Seal
    from ginlog.log.format import digest

    out = {}
    for name, path in (("ed25519", ed), ("ecdsa", ec)):
        lines = path.read_bytes().splitlines()
        body = json.loads(lines[-1])
        seal = Seal(**{k: body[k] for k in ("player", "seat", "fingerprint", "line", "head", "at", "signature")})
        envelope = sshsig.parse(seal.signature)
        statement = sshsig.statement(digest(lines[0]), seal.head, seal.line, seal.at)
        sshsig.verify(envelope, statement)  # (it verifies: the floor is of a real check)
        best = float("inf")
        for _ in range(7):
            t = time.process_time()
            for _ in range(200):
                sshsig.verify(envelope, statement)
            best = min(best, (time.process_time() - t) / 200)
        out[name] = best
    return out


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
        files = {name: _match(Path(folder) / f"{name}.jsonl", a.events) for name in ("unsealed", "ed25519", "ecdsa", "both")}
        seal(files["ed25519"], "ann_ed25519", "Ann")
        seal(files["ecdsa"], "bob_ecdsa", "Bob")
        seal(files["both"], "ann_ed25519", "Ann")
        seal(files["both"], "bob_ecdsa", "Bob")
        lines = len(files["unsealed"].read_bytes().splitlines())
        floors = _floors(files["ed25519"], files["ecdsa"])
        for f in files.values():
            _per_file(str(f), 2)  # warm: the known bodies, the caches
        best = {name: float("inf") for name in files}
        for _ in range(a.rounds):
            for name, f in files.items():
                best[name] = min(best[name], _per_file(str(f), a.reads))
    plain = best["unsealed"]
    print(f"a match of {lines} events; best of {a.rounds} rounds of {a.reads} audits each (CPU, warm process)")
    print(f"imports (ginlog's audit and cryptography), once: {imports * 1e3:.1f} ms")
    print(f"unsealed: {plain * 1e3:.3f} ms a file")
    met = True
    for name, label in (("ed25519", "one Ed25519 seal"), ("ecdsa", "one ECDSA P-256 seal")):
        ratio = best[name] / plain
        met = met and ratio <= TARGET
        print(f"{label}: {best[name] * 1e3:.3f} ms a file, {(best[name] - plain) * 1e6:.0f} µs the seal"
              f" (of which the signature check alone {floors[name] * 1e6:.0f} µs): {ratio:.3f} ×")
    print(f"two seals (both): {best['both'] * 1e3:.3f} ms a file, {best['both'] / plain:.3f} ×")
    print(f"target: a seal adds at most {TARGET - 1:.0%}: {'MET' if met else 'MISSED'}"
          f" (the signature check alone is {floors['ed25519'] / plain:.1%} and {floors['ecdsa'] / plain:.1%}"
          " of the unsealed audit)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
