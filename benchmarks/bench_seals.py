"""What verifying a seal adds to the audit of a typical match: one 200-event match, unsealed and sealed.

    python benchmarks/bench_seals.py [--events 200] [--rounds 7] [--reads 50] [--base REV]

A warm process (the imports, ginlog's audit and the seal libraries', done once and timed apart). Each round
audits each file ``--reads`` times in a row, as a club's folder is read, one file after another like it (one
reading of each file in turn would charge the unsealed file for the caches the seals' checks took); the files
in turn, each round beginning with the next, each block after an untimed reading (so that neither the
machine's drift, on a shared machine most of the spread, nor what ran just before favours one). The files:
the unsealed match, the same match sealed once by Ann's Ed25519 key, once by Bob's ECDSA P-256 key, and twice
(both), with the test keys of ``tests/data/seals``; the two one-seal files again with the signature check
replaced by nothing, which leaves ginlog's own work a seal (the line read, the envelope parsed, the seal
checked against the chain, its report made); the two-seal file against a club's keys (an
``allowed_signers`` of Ann's and Bob's); and, when libsodium checks Ed25519 here, the Ed25519 file checked by
OpenSSL instead (as without PyNaCl), so that the second library's worth is measured in the same run. Then, in the same round, the signature checks alone in a tight loop:
ginlog's ``sshsig.verify`` of each file's seal, and under it the bare primitive, libsodium's Ed25519 (PyNaCl,
when installed), OpenSSL's Ed25519 and OpenSSL's ECDSA P-256 (``cryptography``); and two parts of ginlog's own
work, the envelope's parse and a seal's principal among a club's keys. Each figure is its best round.
With ``--base REV``, the unsealed and one-seal files are also read by revision REV's ginlog (``git archive``)
and by this tree's, each in a process of its own, their rounds alternating: the change, in the same run.

Nothing of one reading is kept for the next: each reading parses each seal's envelope afresh and checks its
signature (only each key's library object is made once a process, as a club has few keys).

Printed: the figures, the cost of each seal and its parts (ginlog's own work; the check, as it costs inside
the audit, where it finds its tables out of the caches, and in a tight loop), each one-seal file's ratio
against the target, a seal adding at most 10% (issue 24: "verifying a seal adds at most 10% to the audit of a
typical 200-event match"), and each primitive's cost as a share of the unsealed audit: the floor no reading
of ours goes under.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent))

TARGET = 1.10
FLOOR_CALLS = 200


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


@contextlib.contextmanager
def _unchecked() -> Iterator[None]:
    """The signature check replaced by nothing: what a reading costs then is ginlog's own work."""
    from ginlog.log import sshsig

    real = sshsig.verify
    sshsig.verify = lambda envelope, message: None
    try:
        yield
    finally:
        sshsig.verify = real


@contextlib.contextmanager
def _checked_by(backend: str) -> Iterator[None]:
    """Ed25519 checked by ``backend`` (``openssl``: as without PyNaCl), whichever this process chose."""
    from ginlog.log import sshsig

    chosen = sshsig._backend
    equation = sshsig.ed25519_backends()[backend]
    sshsig._backend = lambda: (backend, equation)  # type: ignore[assignment]
    try:
        yield
    finally:
        sshsig._backend = chosen


def _checks(ed: Path, ec: Path) -> dict[str, Callable[[], object]]:
    """Each seal's check alone, as ginlog's ``sshsig.verify`` makes it and as each library's primitive (the
    envelope parsed once, the data signed built once: only the signature's check is repeated)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec as ec_keys
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    from ginlog.log import sshsig
    from ginlog.log.format import digest

    out: dict[str, Callable[[], object]] = {}
    for name, path in (("ed25519", ed), ("ecdsa", ec)):
        lines = path.read_bytes().splitlines()
        body = json.loads(lines[-1])
        envelope = sshsig.parse(body["signature"])
        statement = sshsig.statement(digest(lines[0]), body["head"], body["line"], body["at"])
        sshsig.verify(envelope, statement)  # (it verifies: each figure is of a real check)
        out[f"verify {name}"] = functools.partial(sshsig.verify, envelope, statement)
        out[f"parse {name}"] = functools.partial(sshsig._parse, body["signature"])  # (what a reading parses, once)
        if name == "ecdsa":
            from sealing import public_line

            from ginlog.app.check.signers import allowed_signers_from

            club = allowed_signers_from(f"Ann {public_line('ann_ed25519')}\nBob {public_line('bob_ecdsa')}\n", "club")
            assert club.principal("Bob", envelope.key_type, envelope.key, body["at"]) == "Bob"
            out["principal"] = functools.partial(club.principal, "Bob", envelope.key_type, envelope.key, body["at"])
        data = sshsig._signed_data(statement, envelope.hash_algorithm)
        if name == "ed25519":
            public = sshsig._ed25519_public(envelope.key)
            for backend, equation in sshsig.ed25519_backends().items():
                assert equation(public, envelope.sig, data)
                out[f"{backend} ed25519"] = functools.partial(equation, public, envelope.sig, data)
        else:
            key = sshsig._public(envelope.key_type, envelope.key)[0]
            assert isinstance(key, ec_keys.EllipticCurvePublicKey)
            r, at = sshsig._field(envelope.sig, 0)
            s = sshsig._field(envelope.sig, at)[0]
            der = encode_dss_signature(int.from_bytes(r, "big"), int.from_bytes(s, "big"))
            algorithm = ec_keys.ECDSA(hashes.SHA256())  # (cryptography's own call: it hashes the data itself)
            key.verify(der, data, algorithm)
            out["openssl ecdsa"] = functools.partial(key.verify, der, data, algorithm)
    return out


def _rounds(files: dict[str, Path], checks: dict[str, Callable[[], object]], rounds: int,
            reads: int) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Each variant's best round (per file reading, or per check), and each round's figures."""
    from ginlog.app.check.audit import audit_file

    from sealing import public_line

    from ginlog.app.check.signers import allowed_signers_from

    club = allowed_signers_from(f"Ann {public_line('ann_ed25519')}\nBob {public_line('bob_ecdsa')}\n", "club")
    plain: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext
    variants: list[tuple[str, str, Callable[[], contextlib.AbstractContextManager[None]], Any]] = [
        (name, str(path), plain, None) for name, path in files.items()]
    variants += [(f"{name} own", str(files[name]), _unchecked, None) for name in ("ed25519", "ecdsa")]
    variants.append(("both, the club's keys", str(files["both"]), plain, club))
    from ginlog.log import sshsig

    if sshsig.ed25519_backend() != "openssl":
        variants.append(("ed25519 by openssl", str(files["ed25519"]), functools.partial(_checked_by, "openssl"), None))
    clock = time.process_time
    for _name, path, _how, keyring in variants:  # warm: the known bodies, the keys' objects, the caches
        audit_file(path, keyring=keyring)
    per_round: dict[str, list[float]] = {name: [] for name in [v[0] for v in variants] + list(checks)}
    for k in range(rounds):
        for name, path, how, keyring in variants[k % len(variants):] + variants[:k % len(variants)]:
            with how():
                audit_file(path, keyring=keyring)  # (untimed: the block starts warm, whatever ran before it)
                t = clock()
                for _ in range(reads):
                    r = audit_file(path, keyring=keyring)
                per_round[name].append((clock() - t) / reads)
            assert r.ok and not r.warnings, (r.errors, r.warnings)
        for name, check in checks.items():
            t = clock()
            for _ in range(FLOOR_CALLS):
                check()
            per_round[name].append((clock() - t) / FLOOR_CALLS)
    return {name: min(xs) for name, xs in per_round.items()}, per_round


#: One tree's reader of the files, in a process of its own (``--base``): on each line in, a round (each file's
#: block of readings after an untimed one, as :func:`_rounds`), out the seconds a reading of each file.
_WORKER = """
import json, sys, time
from ginlog.app.check.audit import audit_file
files, reads = json.loads(sys.argv[1]), int(sys.argv[2])
for f in files:
    audit_file(f)
for _ in sys.stdin:
    out = []
    for f in files:
        audit_file(f)
        t = time.process_time()
        for _ in range(reads):
            r = audit_file(f)
        out.append((time.process_time() - t) / reads)
        assert r.ok, r.errors
    print(json.dumps(out), flush=True)
"""


def _against(rev: str, files: list[Path], rounds: int, reads: int) -> tuple[str, list[float], list[float]]:
    """Each file's best reading under revision ``rev``'s ginlog and under this tree's, the two in processes of
    their own, their rounds alternating (who goes first alternating too): the same files, the same loop."""
    import os
    import subprocess

    from revisions import ROOT, extract, git

    commit = git("rev-parse", "--short=12", rev)
    with tempfile.TemporaryDirectory() as base:
        extract(commit, Path(base), "ginlog")
        workers = [subprocess.Popen([sys.executable, "-c", _WORKER, json.dumps([str(f) for f in files]), str(reads)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=base,
                                    env={**os.environ, "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1"})
                   for tree in (base, str(ROOT))]
        best = [[float("inf")] * len(files) for _ in workers]
        try:
            for k in range(rounds):
                for w in (0, 1) if k % 2 == 0 else (1, 0):
                    proc = workers[w]
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write("go\n")
                    proc.stdin.flush()
                    best[w] = [min(x, y) for x, y in zip(best[w], json.loads(proc.stdout.readline()))]
        finally:
            for proc in workers:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()
    return commit, best[0], best[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--events", type=int, default=200)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--reads", type=int, default=50)
    p.add_argument("--base", default=None, metavar="REV",
                   help="also time the one-seal files under revision REV's ginlog against this tree's, rounds alternating")
    a = p.parse_args(argv)
    t = time.process_time()
    import ginlog.app.check.audit  # noqa: F401 - ginlog's audit, timed apart
    ginlog_import = time.process_time() - t
    t = time.process_time()
    from ginlog.log import sshsig

    backend = sshsig.ed25519_backend()  # the Ed25519 library, imported as a check imports it
    sshsig._primitives()  # cryptography's, which an ECDSA or RSA check imports
    libraries = time.process_time() - t
    from sealing import seal

    with tempfile.TemporaryDirectory() as folder:
        files = {name: _match(Path(folder) / f"{name}.jsonl", a.events) for name in ("unsealed", "ed25519", "ecdsa", "both")}
        seal(files["ed25519"], "ann_ed25519", "Ann")
        seal(files["ecdsa"], "bob_ecdsa", "Bob")
        seal(files["both"], "ann_ed25519", "Ann")
        seal(files["both"], "bob_ecdsa", "Bob")
        lines = len(files["unsealed"].read_bytes().splitlines())
        checks = _checks(files["ed25519"], files["ecdsa"])
        best, per_round = _rounds(files, checks, a.rounds, a.reads)
        against = None if a.base is None else _against(a.base, [files[n] for n in ("unsealed", "ed25519", "ecdsa")],
                                                       a.rounds, a.reads)
    plain = best["unsealed"]
    print(f"a match of {lines} events; best of {a.rounds} rounds of {a.reads} audits of each file, the files in turn"
          f" (CPU, warm process); Ed25519 checked by {backend}")
    print(f"imports, once: ginlog's audit {ginlog_import * 1e3:.1f} ms, the seal libraries {libraries * 1e3:.1f} ms")
    print(f"unsealed: {plain * 1e3:.3f} ms a file; 10% of it is {plain * 0.1 * 1e6:.0f} µs")
    def paired(a: str, b: str) -> float:
        """The median over the rounds of ``a``'s figure less ``b``'s in the same round (the drift between rounds
        cancels; a burst in one round moves the median little)."""
        return statistics.median(x - y for x, y in zip(per_round[a], per_round[b]))

    verdicts: dict[str, list[float]] = {"the best rounds": [], "the rounds' medians": []}
    for name, label, primitive in (("ed25519", "one Ed25519 seal", f"{backend} ed25519"),
                                   ("ecdsa", "one ECDSA P-256 seal", "openssl ecdsa")):
        ratio = best[name] / plain
        median_ratio = statistics.median(x / y for x, y in zip(per_round[name], per_round["unsealed"]))
        verdicts["the best rounds"].append(ratio)
        verdicts["the rounds' medians"].append(median_ratio)
        own, check = paired(f"{name} own", "unsealed"), paired(name, f"{name} own")
        print(f"{label}: {best[name] * 1e3:.3f} ms a file, {(best[name] - plain) * 1e6:.0f} µs the seal: {ratio:.3f} ×;"
              f" the rounds' medians: {paired(name, 'unsealed') * 1e6:.0f} µs the seal, {median_ratio:.3f} ×")
        print(f"    of which ginlog's own work {own * 1e6:.0f} µs ({own / plain:.1%}) and the check {check * 1e6:.0f} µs"
              f" ({check / plain:.1%}), the rounds' medians; in a tight loop: sshsig.verify"
              f" {best[f'verify {name}'] * 1e6:.0f} µs, of which {primitive} {best[primitive] * 1e6:.0f} µs")
    if "ed25519 by openssl" in best:
        by = best["ed25519 by openssl"]
        print(f"one Ed25519 seal checked by openssl instead (as without PyNaCl): {by * 1e3:.3f} ms a file,"
              f" {(by - plain) * 1e6:.0f} µs the seal: {by / plain:.3f} ×; the rounds' medians:"
              f" {paired('ed25519 by openssl', 'unsealed') * 1e6:.0f} µs the seal")
    club = best["both, the club's keys"]
    print(f"two seals (both): {best['both'] * 1e3:.3f} ms a file, {best['both'] / plain:.3f} ×; against a club's keys"
          f" (allowed_signers: who sealed) {club * 1e3:.3f} ms, {club / plain:.3f} ×")
    print(f"the parts, in a tight loop: the envelope's parse {best['parse ed25519'] * 1e6:.1f} µs (Ed25519),"
          f" {best['parse ecdsa'] * 1e6:.1f} µs (ECDSA); a seal's principal among a club's keys"
          f" {best['principal'] * 1e6:.1f} µs")
    floors = ", ".join(f"{name} {best[name] * 1e6:.0f} µs ({best[name] / plain:.1%})"
                       for name in checks if name.endswith(("ed25519", "ecdsa")) and name.startswith(("libsodium", "openssl")))
    print(f"the primitives alone, against the unsealed audit: {floors}")
    if against is not None:
        commit, before, after = against
        print(f"against {commit} (its ginlog and this tree's, each in a process of its own, rounds alternating):"
              f" unsealed {before[0] * 1e3:.3f} → {after[0] * 1e3:.3f} ms a file; one Ed25519 seal"
              f" {before[1] / before[0]:.3f} → {after[1] / after[0]:.3f} ×; one ECDSA P-256 seal"
              f" {before[2] / before[0]:.3f} → {after[2] / after[0]:.3f} ×")
    said = "; ".join(f"{'MET' if max(rs) <= TARGET else 'MISSED'} by {how} ({', '.join(f'{r:.3f}' for r in rs)} ×)"
                     for how, rs in verdicts.items())
    print(f"target: a seal adds at most {TARGET - 1:.0%}: {said}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
