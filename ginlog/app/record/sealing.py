"""Sealing a match: a player signs its head with an SSH key, and the seal is appended (``ginlog seal``).

The edge of sealing: key files, passphrases, ``ssh-keygen`` and the clock
are here; the statement and the SSHSIG envelope are
:mod:`ginlog.log.sshsig`'s, and checking a seal is the reading's
(:mod:`ginlog.match.seals`). A private key file is read and used in-process
(``cryptography``; ``bcrypt`` for a passphrase, asked at the terminal). A
public key file (``id_ed25519.pub``) or a security key (``sk-``) is signed
for by ``ssh-keygen -Y sign``, which asks ``ssh-agent`` or the hardware:
the private key never needs to be a file ginlog can read.

The head sealed is the last line that is not a seal, so that both players
seal the same line whichever seals first; a seal is refused inside a hand,
on a file that does not read, and twice by one key on one head.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from typing import Any, Literal, Protocol

import attrs

from ginlog.errors import GinlogError, IllegalMove, StoreError
from ginlog.log import sshsig
from ginlog.log.event_types import Seal
from ginlog.log.times import now_ts

__all__ = ["Signer", "InProcess", "Keygen", "load_signer", "seal_match", "Sealed", "KeyError_"]

#: The largest key file read (an RSA-16384 private key is about 13 KB).
MAX_KEY_FILE = 64 * 1024


class KeyError_(GinlogError):
    """A key that cannot sign: unreadable, not an SSH key, a wrong passphrase (rule ``seal-key-file``)."""

    default_rule = "seal-key-file"


class Signer(Protocol):
    """What signs a statement: an armored SSHSIG signature in the ``ginlog`` namespace."""

    def sign(self, message: bytes) -> str: ...


@attrs.frozen
class InProcess:
    """A private key held by this process (a ``cryptography`` key object)."""

    private: Any

    def sign(self, message: bytes) -> str:
        return sshsig.sign(self.private, message)


@attrs.frozen
class Keygen:
    """``ssh-keygen -Y sign -n ginlog -f KEY``: through ``ssh-agent`` for a public key file, or a security key."""

    path: str

    def sign(self, message: bytes) -> str:
        exe = shutil.which("ssh-keygen")
        if exe is None:
            raise KeyError_(f"{self.path}: signing with it needs OpenSSH's ssh-keygen, which is not installed")
        try:
            done = subprocess.run([exe, "-q", "-Y", "sign", "-n", sshsig.NAMESPACE, "-f", self.path],
                                  input=message, capture_output=True, timeout=300, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise KeyError_(f"{self.path}: ssh-keygen could not sign: {exc}") from None
        if done.returncode != 0:
            why = " ".join(done.stderr.decode("utf-8", "replace").split())[:200] or f"exit {done.returncode}"
            raise KeyError_(f"{self.path}: ssh-keygen could not sign: {why}")
        return done.stdout.decode("ascii", "replace").strip()


def load_signer(path: str, passphrase: Callable[[], str | None]) -> Signer:
    """The signer for the key file ``path``: in-process for a private key, ``ssh-keygen`` for a public key file
    (its private half in ``ssh-agent``) or a security key. ``passphrase`` is asked only for an encrypted key
    (None: there is no one to ask)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_KEY_FILE + 1)
    except OSError as exc:
        raise KeyError_(f"{path}: cannot read the key: {exc.strerror or exc}") from None
    if len(data) > MAX_KEY_FILE:
        raise KeyError_(f"{path}: over {MAX_KEY_FILE // 1024} KB: not an SSH key")
    text = data.strip()
    if text.startswith((b"ssh-", b"ecdsa-", b"sk-")):  # a public key: its private half is in the agent
        return Keygen(path)
    if not text.startswith(b"-----BEGIN "):
        raise KeyError_(f"{path}: not an SSH key file (a private key, or a public key whose private half is in"
                        " ssh-agent)")
    try:
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives import serialization
    except ImportError:  # pragma: no cover - the extra is in the test extra
        raise sshsig.missing_extra() from None
    load = serialization.load_ssh_private_key if b"OPENSSH" in text[:40] else serialization.load_pem_private_key
    try:
        try:
            private = load(data, None)
        except TypeError:  # encrypted: needs its passphrase
            secret = passphrase()
            if secret is None:
                raise KeyError_(f"{path}: the key has a passphrase and there is no terminal to ask for it: add it to"
                                " ssh-agent and give its .pub file") from None
            private = load(data, secret.encode())
    except UnsupportedAlgorithm:  # a security key (sk-): the hardware signs, through ssh-keygen
        return Keygen(path)
    except ValueError as exc:
        raise KeyError_(f"{path}: the key cannot be read ({' '.join(str(exc).split())[:120]}): a wrong passphrase,"
                        " or not an SSH private key") from None
    sshsig.public_blob(private)  # a key type that has no SSH form fails here
    return InProcess(private)


@attrs.frozen
class Sealed:
    """What ``ginlog seal`` did: the seal appended, on which line."""

    seal: Seal
    lineno: int


def seal_match(path: str, signer: Signer, as_name: str | None, clock: Callable[[], str] = now_ts) -> Sealed:
    """Sign the head of the match file ``path`` for the player ``as_name`` and append the seal.

    The file is read whole first (any problem is raised: an invalid record is not sealed); the seal is
    checked as the reading checks one before it is written, so a seal this writes always reads back.
    """
    from ginlog.match.reading import FinalState, read
    from ginlog.match.session import MatchSession
    from ginlog.text import match_player

    visitor = FinalState()
    report = read(path, visitor)
    state = report.state
    seals = visitor.seals
    if state is None or seals.first is None or seals.head is None:
        raise IllegalMove("the file holds no match to seal", rule="first-event", path=path)
    if state.phase == "hand":
        raise IllegalMove(f"hand {len(state.hands) + 1} is being played: a record is sealed between hands or at the"
                          " end (nothing written)", rule="seal-in-hand", path=path)
    if as_name is None:
        raise IllegalMove(f"say who seals: --as {state.players[0]!r} or --as {state.players[1]!r}", rule="seal-player",
                          path=path)
    seat: Literal[0, 1] = 0 if match_player(as_name, state.players) == 0 else 1
    at = clock()
    statement = sshsig.statement(seals.first, seals.head, seals.last, at)
    signature = signer.sign(statement)
    try:
        envelope = sshsig.parse(signature)
        sshsig.verify(envelope, statement)
    except GinlogError as exc:
        raise KeyError_(f"the key's signature does not check: {exc.message}", rule=exc.rule, path=path) from None
    fp = sshsig.fingerprint(envelope.key)
    if any(c.valid and c.fingerprint == fp and c.head == seals.head for c in seals.checks):
        raise IllegalMove(f"key {fp} has sealed line {seals.last} already (nothing written)", rule="seal-duplicate",
                          path=path)
    seal = Seal(player=state.players[seat], seat=seat, fingerprint=fp, line=seals.last, head=seals.head, at=at,
                signature=signature)
    session = MatchSession.open(path)
    if session.head != report.head:
        raise StoreError("the file changed while it was being sealed: seal again", rule="conflict", path=path)
    steps = session.append([seal])
    return Sealed(seal, steps[-1].line)


def ask_passphrase(path: str) -> Callable[[], str | None]:
    """The passphrase of ``path``, asked at the terminal (None when there is none)."""
    def ask() -> str | None:
        if not os.isatty(0):
            return None
        import getpass

        try:
            return getpass.getpass(f"Passphrase for {path}: ")
        except EOFError:  # Ctrl-C is the runner's, as in every command (one line, exit 130)
            return None
    return ask
