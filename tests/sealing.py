"""Helpers for the seal tests: the test keys (``tests/data/seals``), a finished match, sealing it.

(A module of helpers, not a test file: several test files and the hostile campaign share it.)
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from ginlog.app.record.sealing import Sealed, load_signer, seal_match
from ginlog.game.rules import preset
from ginlog.match.session import MatchSession
from ginlog.play.simulate import simulate_match

__all__ = [
    "KEYS", "EXAMPLE_SEAL", "finished_match", "seal", "private_copy", "public_line", "ED_P", "ED_L", "ED_B", "IDENTITY",
    "ed_add", "ed_mul", "ed_point", "ed_encode", "ed_scalar", "ed_challenge", "small_order_encodings",
]

KEYS = Path(__file__).parent / "data" / "seals"

#: A seal's fields, its signature made by ``ann_ed25519`` over the statement of match "0"*64, head "1"*64, line 1.
EXAMPLE_SEAL: dict[str, Any] = {
    "player": "Ann", "seat": 0, "fingerprint": "SHA256:jSEUu2xIPAXwmBcErwpK7iJsqilx/0ny0XFInOtdmoQ", "line": 1,
    "head": "1" * 64, "at": "2026-11-29T19:56:25.123Z",
    "signature": "-----BEGIN SSH SIGNATURE-----\n"
    "U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAguWIlRNTcSRp6ZDuG03D5+Nh4EJCn2eRM\n"
    "QBUEWfATFcQAAAAGZ2lubG9nAAAAAAAAAAZzaGE1MTIAAABTAAAAC3NzaC1lZDI1NTE5AAAAQL8+\n"
    "07mHKbUzc+uS3wvXZfG6cJPm490lIfVDCstazbHYH71zPuDXPhUAei9xpf+2Uh2jF2CqwN59QWcc\n"
    "t7mN4Ag=\n-----END SSH SIGNATURE-----",
}


def finished_match(path: Path, seed: int = 3, hands: int | None = None) -> Path:
    """A simulated match (played to its end, or ``hands`` hands), written by the one write path."""
    events = list(simulate_match(preset("standard"), seed=seed, max_hands=hands))
    MatchSession.write(path, events)
    return path


def seal(path: Path, key: str, as_: str, clock: Any = None) -> Sealed:
    """Seal ``path`` with the test key ``key`` (a name in ``tests/data/seals``) for ``as_``."""
    signer = load_signer(str(KEYS / key), lambda: None)
    return seal_match(str(path), signer, as_) if clock is None else seal_match(str(path), signer, as_, clock)


def private_copy(key: str, folder: Path) -> Path:
    """The test key copied with mode 0600 (``ssh-keygen`` refuses a private key others can read)."""
    out = folder / key
    shutil.copyfile(KEYS / key, out)
    os.chmod(out, 0o600)
    return out


def public_line(key: str) -> str:
    """The test key's public half, ``TYPE BASE64`` (no comment)."""
    return " ".join((KEYS / f"{key}.pub").read_text().split()[:2])


# --------------------------------------------------------------------------- Ed25519 by hand
# The arithmetic of edwards25519 in plain Python (RFC 8032), to make the signatures no honest signer makes:
# by keys of small order, with R of small order, S not reduced, keys and R with a torsion part. Slow (a
# millisecond a multiplication) and for tests only: independent of both libraries whose verdicts they test.

#: The field's prime, the curve's d, the base point's order, a square root of -1.
ED_P = 2**255 - 19
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
ED_L = 2**252 + 27742317777372353535851937790883648493
_SQRT_M1 = pow(2, (ED_P - 1) // 4, ED_P)
Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z
IDENTITY: Point = (0, 1, 1, 0)


def ed_add(p: Point, q: Point) -> Point:
    """p + q (the unified addition of RFC 8032, 5.1.4)."""
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a, b = (y1 - x1) * (y2 - x2) % ED_P, (y1 + x1) * (y2 + x2) % ED_P
    c, d = 2 * t1 * t2 * ED_D % ED_P, 2 * z1 * z2 % ED_P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % ED_P, g * h % ED_P, f * g % ED_P, e * h % ED_P


def ed_mul(k: int, p: Point) -> Point:
    """[k]p."""
    q = IDENTITY
    while k:
        if k & 1:
            q = ed_add(q, p)
        p, k = ed_add(p, p), k >> 1
    return q


def ed_point(y: int, sign: int) -> Point | None:
    """The point with this y (mod p) and x's low bit ``sign``, or None when there is none (RFC 8032, 5.1.3)."""
    y %= ED_P
    u, v = (y * y - 1) % ED_P, (ED_D * y * y + 1) % ED_P
    x = u * pow(v, 3, ED_P) * pow(u * pow(v, 7, ED_P), (ED_P - 5) // 8, ED_P) % ED_P
    if (v * x * x - u) % ED_P:
        x = x * _SQRT_M1 % ED_P
    if (v * x * x - u) % ED_P or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = ED_P - x
    return x, y, 1, x * y % ED_P


def ed_encode(p: Point) -> bytes:
    """A point's 32 bytes: y, and x's low bit in the top bit."""
    zi = pow(p[2], -1, ED_P)
    x, y = p[0] * zi % ED_P, p[1] * zi % ED_P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _base() -> Point:
    b = ed_point(4 * pow(5, -1, ED_P), 0)
    assert b is not None
    return b


#: The base point B.
ED_B = _base()


def ed_scalar(seed: bytes) -> int:
    """The secret scalar of the Ed25519 key made from ``seed`` (its hash, clamped: RFC 8032, 5.1.5)."""
    return int.from_bytes(hashlib.sha512(seed).digest()[:32], "little") & ((1 << 254) - 8) | (1 << 254)


def ed_challenge(r: bytes, public: bytes, data: bytes) -> int:
    """k = SHA-512(R || A || M) mod L, which the equation [S]B = R + [k]A uses."""
    return int.from_bytes(hashlib.sha512(r + public + data).digest(), "little") % ED_L


def small_order_encodings() -> list[bytes]:
    """Every 32 bytes that decode to a point of small order (the eight of the torsion subgroup, [L]P for a point
    P of order 8L; each as encoded, and its other encodings: x's bit set where x is 0, y + p where that fits)."""
    y = 2
    while True:  # a point whose [L] multiple has order 8 generates the torsion subgroup
        p = ed_point(y, 0)
        t = None if p is None else ed_mul(ED_L, p)
        if t is not None and ed_encode(ed_mul(4, t)) != ed_encode(IDENTITY):
            break
        y += 1
    out = set()
    for k in range(8):
        enc = ed_encode(ed_mul(k, t))
        n = int.from_bytes(enc, "little")
        y_, sign = n & (2**255 - 1), n >> 255
        out.add(enc)
        if y_ in (1, ED_P - 1):  # x is 0: its bit set too
            out.add((n | 1 << 255).to_bytes(32, "little"))
        if y_ + ED_P < 2**255:  # y + p fits in 255 bits: y not reduced, with either bit
            out.update(((y_ + ED_P) | s << 255).to_bytes(32, "little") for s in (0, 1))
    assert len(out) == 14, len(out)
    return sorted(out)
