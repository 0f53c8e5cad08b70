"""Helpers for the seal tests: the test keys (``tests/data/seals``), a finished match, sealing it.

(A module of helpers, not a test file: several test files and the hostile campaign share it.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from ginlog.app.record.sealing import Sealed, load_signer, seal_match
from ginlog.game.rules import preset
from ginlog.match.session import MatchSession
from ginlog.play.simulate import simulate_match

__all__ = ["KEYS", "EXAMPLE_SEAL", "finished_match", "seal", "private_copy", "public_line"]

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
