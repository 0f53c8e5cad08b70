"""Issue 24's hostile seals, attacked as a cheat or a broken tool would (registered in :mod:`hostile_campaign`).

Each input is a finished match sealed properly by Ann, then one seal made wrong in one way: truncated,
signed for another namespace, with a hash algorithm SSHSIG does not allow, huge, not base64, a seal of
another file's head, a seal inside a hand, the same seal twice, or a club's ``allowed_signers`` whose key
comment holds escape codes. ``ginlog audit`` (forked from this process, as issue 20's classes run) must
refuse each with a clear one-line error naming its rule, exit 1 (2 for a keys file it cannot use), with no
traceback and no raw escape on standard error; and the good seal, under the hostile comment, still holds.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import hostile_campaign as hc
from hostile_campaign import Cmd, Ctx, basic, campaign_of, raw_problems
from hostile_checks import write_file
from hostile_inputs import chain

sys.path.append(str(Path(__file__).parents[1]))
from sealing import KEYS, finished_match, public_line, seal  # noqa: E402  (tests/sealing.py)

from ginlog.log import sshsig  # noqa: E402

#: Each hostile seal, and the rules that may refuse it (the first is the one the issue means).
VARIANTS: dict[str, tuple[str, ...]] = {
    "truncated": ("seal-armor",),
    "namespace": ("seal-namespace",),
    "algorithm": ("seal-algorithm",),
    "huge": ("seal-armor",),
    "not-base64": ("seal-armor",),
    "other-head": ("seal-head", "seal-moved"),
    "in-hand": ("seal-in-hand",),
    "duplicated": ("seal-duplicate",),
    "comment": ("allowed-signers",),
}
#: What a key comment, a principal or a message could carry to the terminal.
ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe"


def _fields(armored: str) -> list[bytes]:
    """An SSHSIG blob's five strings after its magic and version (key, namespace, reserved, hash, signature)."""
    blob = sshsig.dearmor(armored)
    out, i = [], 10
    while i < len(blob):
        (n,) = struct.unpack(">I", blob[i:i + 4])
        out.append(blob[i + 4:i + 4 + n])
        i += 4 + n
    return out


def _rebuilt(fields: list[bytes]) -> str:
    return sshsig.armor(b"SSHSIG" + struct.pack(">I", 1) + b"".join(struct.pack(">I", len(f)) + f for f in fields))


def _objs(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_bytes().splitlines()]


def _hostile(variant: str, size: int, d: Path) -> tuple[Path, list[str]]:
    """The file of one hostile seal (and the audit's extra arguments)."""
    m = finished_match(d / "m.jsonl", seed=3, hands=2)
    seal(m, "ann_ed25519", "Ann")
    objs = _objs(m)
    good = objs[-1]
    sig = good["signature"]
    args: list[str] = []
    if variant == "truncated":
        body = sig.split("\n")[1:-1]
        cut = "".join(body)[: max(4, (size * 4) % (len("".join(body)) - 4))]
        cut = cut[: len(cut) // 4 * 4]
        good["signature"] = "\n".join([sshsig.BEGIN, cut, sshsig.END])
    elif variant in ("namespace", "algorithm"):
        f = _fields(sig)
        f[1 if variant == "namespace" else 3] = b"git" if variant == "namespace" else b"sha1"
        good["signature"] = _rebuilt(f)
    elif variant == "huge":
        body = base64.b64encode(b"\0" * (6200 + size * 97)).decode()
        good["signature"] = "\n".join([sshsig.BEGIN, *(body[i:i + 76] for i in range(0, len(body), 76)), sshsig.END])
    elif variant == "not-base64":
        lines = sig.split("\n")
        k = 1 + size % (len(lines) - 2)
        lines[k] = lines[k][:10] + "!*\u00e9" + lines[k][13:]
        good["signature"] = "\n".join(lines)
    elif variant == "other-head":
        # the same match played again (its head another, on the same line: seal-head), or another (seal-moved)
        other = finished_match(d / "other.jsonl", seed=3 if size % 2 else 4 + size % 5, hands=2)
        seal(other, "ann_ed25519", "Ann")
        theirs = _objs(other)[-1]  # their seal, line for line, in our file
        objs[-1] = {**theirs, "seq": good["seq"], "prev": good["prev"]}
        good = objs[-1]
    elif variant == "in-hand":
        deal = max(i for i, o in enumerate(objs) if o["type"] == "hand_dealt")
        keep = objs[: deal + 1 + size % 4]
        cut_file = write_file(d / "cut.jsonl", chain(keep))
        from cryptography.hazmat.primitives.serialization import load_ssh_private_key

        private = load_ssh_private_key((KEYS / "ann_ed25519").read_bytes(), None)
        lines = cut_file.read_bytes().splitlines()
        first, head = hashlib.sha256(lines[0]).hexdigest(), hashlib.sha256(lines[-1]).hexdigest()
        signed = sshsig.sign(private, sshsig.statement(first, head, len(lines), good["at"]))
        objs = [*keep, {**good, "seq": len(lines) + 1, "line": len(lines), "head": head, "signature": signed}]
    elif variant == "duplicated":
        objs.append({**good, "seq": good["seq"] + 1})
    else:  # comment: the club's keys file, Ann's key with a hostile comment, and a broken key with one too
        keys = d / "allowed_signers"
        keys.write_text(f"Ann {public_line('ann_ed25519')} ann{ESCAPES}@club\n", encoding="utf-8")
        broken = d / "broken_signers"
        broken.write_text(f"Ann{ESCAPES} ssh-ed25519 AAAA{ESCAPES} x{ESCAPES}\n", encoding="utf-8")
        return m, ["--allowed-signers"]
    return write_file(d / f"{variant}.jsonl", chain(objs)), args


@campaign_of("seals")
def seals(ctx: Ctx, n: int, seed: int) -> None:
    def body(case: list[tuple[str, int]]) -> None:
        if ctx.once("seals"):  # the issue's own: every hostile seal once
            case = [(v, 7) for v in VARIANTS] + [("other-head", 8)] + case
        cmds, made = [], []
        for k, (variant, size) in enumerate(case):
            d = ctx.dir(f"seal-{variant}-{k}")
            path, extra = _hostile(variant, size, d)
            if variant == "comment":
                cmds += [Cmd(["audit", path.name, *extra, "allowed_signers"], cwd=d, fork=True),
                         Cmd(["audit", path.name, *extra, "broken_signers"], cwd=d, fork=True)]
            else:
                cmds.append(Cmd(["audit", path.name], cwd=d, fork=True))
            made.append((variant, size))
        runs = ctx.run(*cmds)
        it = iter(runs)
        for variant, size in made:
            repro = f"a sealed match with a hostile seal ({variant}, {size}): (cd FOLDER; ginlog audit FILE)"
            if variant == "comment":
                good, broken = next(it), next(it)
                for r, code in ((good, 0), (broken, 2)):
                    ctx.check("no-crash", basic(r, (code,)) + raw_problems(r.err, colour=False)
                              + raw_problems(r.out, colour=False), f"{repro}: {r.cmd.shell()}")
                said = good.out.decode("utf-8", "replace")
                ctx.check("refused", [] if "signed by" not in said and "sealed by Ann" in said else
                          [f"the good seal under a hostile key comment: {said[-300:]!r}"], repro)
                lines = broken.err.decode("utf-8", "replace").strip().splitlines()
                ctx.check("one-line", [] if len(lines) == 1 and "allowed-signers" in lines[0] else
                          [f"a keys file it cannot use: {lines[:3]!r}"], repro)
                continue
            r = next(it)
            ctx.check("no-crash", basic(r, (1,)) + raw_problems(r.err, colour=False), f"{repro}: {r.cmd.shell()}")
            lines = [ln for ln in r.err.decode("utf-8", "replace").splitlines() if ln.endswith("]")]
            rules = [ln.rsplit("[", 1)[1][:-1] for ln in lines]
            ctx.check("refused", [] if rules and rules[0] in VARIANTS[variant] else
                      [f"refused with {rules!r}, not {VARIANTS[variant]!r}"], repro)
            ctx.check("one-line", [] if len([x for x in rules if x.startswith("seal")]) == 1
                      and all(len(ln) < 400 for ln in lines) else [f"the seal's problem in {lines[:3]!r}"], repro)

    variant = st.tuples(st.sampled_from(sorted(VARIANTS)), st.integers(0, 200))
    hc.drive(ctx, st.lists(variant, min_size=1, max_size=2), n, seed, body)
