"""Coverage-guided fuzzing of the ginlog reader with atheris (libFuzzer), for ``benchmarks/reliability.py --atheris``.

    python tests/reliability/atheris_child.py RUNS SUMMARY.json

Only ginlog's own modules are instrumented (imported inside
``atheris.instrument_imports``). Each input is raw bytes, or a valid match
file with a chunk replaced (optionally with the hash chain re-made so the
change reaches the events and the reducer); it is checked by
``reliability_campaigns.fuzz_file_check``. libFuzzer ends the process after
RUNS inputs, so the counts go to SUMMARY.json as it runs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def main(runs: int, out: str) -> None:
    # Imported here, not at the top: pytest's --doctest-modules imports this file.
    import atheris

    with atheris.instrument_imports(include=["ginlog"]):
        import ginlog.app.check.audit  # noqa: F401
        import ginlog.game.cards  # noqa: F401
        import ginlog.log.events  # noqa: F401
        import ginlog.match.reading  # noqa: F401
        import ginlog.game.melds  # noqa: F401
        import ginlog.play.reducer  # noqa: F401
        import ginlog.game.rules  # noqa: F401
        import ginlog.log.format  # noqa: F401
        import ginlog.log.known  # noqa: F401
        import ginlog.log.reader  # noqa: F401
        import ginlog.log.writer  # noqa: F401
        import ginlog.match.reading  # noqa: F401
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import reliability_campaigns as rc

    workdir = tempfile.mkdtemp(prefix="ginlog-atheris-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    bases = rc.fuzz_bases(workdir)
    path = os.path.join(workdir, "a.jsonl")
    res = rc.FuzzResult()

    def save() -> None:
        with open(out, "w") as f:
            json.dump(
                {"workdir": workdir, "inputs": res.inputs, "tracebacks": res.tracebacks, "known": dict(res.known),
                 "failures": res.failures[:20], "valid": res.valid, "clean": res.clean_errors},
                f,
            )

    def one(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        how = fdp.ConsumeIntInRange(0, 3)
        if how == 0:
            payload = fdp.ConsumeBytes(fdp.remaining_bytes())
        else:
            base = bases[fdp.ConsumeIntInRange(0, len(bases) - 1)]
            p = fdp.ConsumeIntInRange(0, len(base))
            cut = fdp.ConsumeIntInRange(0, 64)
            payload = base[:p] + fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64)) + base[p + cut :]
            if how == 2:  # keep the chain, so the change reaches the events and the reducer
                payload = rc._join(rc.rechain([ln for ln in payload.split(b"\n") if ln]))
        problems, ok, rules = rc.fuzz_file_check(payload, path)
        res.note(problems, ok=ok, rules=rules)
        if res.inputs % 500 == 0 or res.inputs >= runs:
            save()

    save()
    atheris.Setup([sys.argv[0], f"-runs={runs}", "-max_len=6000", "-rss_limit_mb=4096"], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
