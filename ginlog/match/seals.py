"""Seals checked as a match is read: each :class:`~ginlog.log.event_types.Seal` against the chain, its signature,
and a club's keys when the reading policy has them.

:class:`Seals` is a component every match visitor holds (as it holds
:class:`~ginlog.match.unverified.Unverified`): the visitor tells it each line
that is not a seal (:meth:`Seals.see`: the first line's hash names the
match, the last one is the head a seal must name) and each seal with the
state before it (:meth:`Seals.seal`), so the seals are checked inside the
one reading of the file, never in a second pass. A seal fails with its own
rule: ``seal-in-hand`` (sealed while a hand was being played),
``seal-player`` (its seat is not its player's), ``seal-moved`` (it names
another line than the last one before it: copied or moved), ``seal-head``
(the line it names has another hash: another file's head, or the record
changed), ``seal-key`` (the fingerprint is not the signature's key's),
``seal-signature`` (forged), ``seal-duplicate`` (the same key sealed that
head already), and, against a club's keys (:class:`Keyring`),
``seal-signer`` (a key not allowed for that player's name at the seal's
time). With a policy (a keyring or ``require``) it also says what no seal
covers: ``unsealed`` (a file with no valid seal) and ``unsealed-lines``
(lines after the last), warnings, or ``seals-required`` errors under
``require`` (``any``: one valid seal of the last head; ``all``: both
players'). Without a policy a valid seal is only *signed*: the key is
named, never a person.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

import attrs

from ginlog.caveats import Caveat
from ginlog.errors import GinlogError
from ginlog.log import sshsig
from ginlog.log.event_types import Seal
from ginlog.play.state import MatchState

__all__ = ["Keyring", "SealCheck", "Seals", "Require", "sealed_words"]

Require = Literal["all", "any"]


class Keyring(Protocol):
    """A club's keys (an ``allowed_signers`` file, or the players file's ``keys``): who may seal with which key.

    :meth:`principal` returns the principal that allows ``key`` for the
    player called ``name`` at ``at`` (the seal's signed time), or raises a
    :class:`~ginlog.log.sshsig.SealError` (rule ``seal-signer``) saying why
    not. An implementation must be picklable: it travels with the policy to
    the processes that read files.
    """

    def principal(self, name: str, key_type: str, key: bytes, at: str) -> str: ...


@attrs.frozen
class SealCheck:
    """One seal of a file, as checked: where it is, whom it is for, the line it seals, and the verdict.

    ``verdict`` is ``sealed`` (a valid signature by a key the club allows
    for that player), ``signed`` (a valid signature, no club's keys to check
    it against) or ``refused`` (``rule`` and ``message`` say why). The exact
    ``statement`` and armored ``signature`` let anyone check it with OpenSSH alone.
    """

    line: int
    seq: int
    player: str
    seat: int
    fingerprint: str
    sealed: int
    head: str
    at: str
    verdict: Literal["sealed", "signed", "refused"]
    statement: str
    signature: str
    principal: str | None = None
    rule: str | None = None
    message: str | None = None

    @property
    def valid(self) -> bool:
        return self.verdict != "refused"

    def to_dict(self) -> dict[str, Any]:
        """A seal in ``audit --json``."""
        return {
            "line": self.line, "event": self.seq, "player": self.player, "seat": self.seat,
            "principal": self.principal, "fingerprint": self.fingerprint, "sealed_line": self.sealed,
            "head": self.head, "at": self.at, "verdict": self.verdict, "rule": self.rule, "message": self.message,
            "statement": self.statement, "signature": self.signature,
        }


class Seals:
    """The seals of one reading (see the module's docstring); problems go to ``error``, warnings to ``warning``."""

    __slots__ = ("_error", "_warning", "keyring", "require", "label", "first", "last", "head", "checks", "_seen",
                 "_players")

    def __init__(
        self,
        error: Callable[[GinlogError], None],
        warning: Callable[[Caveat], None],
        keyring: Keyring | None = None,
        require: Require | None = None,
    ) -> None:
        self._error, self._warning = error, warning
        self.keyring, self.require = keyring, require
        self.label: str | None = None
        self.first: str | None = None  # the first line's hash: names the match
        self.last = 0  # the last line that is not a seal, and its hash
        self.head: str | None = None
        self.checks: list[SealCheck] = []
        self._seen: set[tuple[str, str]] = set()  # (fingerprint, head) of each valid seal
        self._players: tuple[str, str] | None = None

    @property
    def policy(self) -> bool:
        """Whether the reading has a seal policy: only then does it warn of what no seal covers."""
        return self.keyring is not None or self.require is not None

    def see(self, lineno: int, digests: Sequence[str]) -> None:
        """Lines ``lineno``, ``lineno + 1``... (none of them a seal) have these hashes."""
        if lineno == 1:
            self.first = digests[0]
        self.last, self.head = lineno + len(digests) - 1, digests[-1]

    def seal(self, lineno: int, seq: int, seal: Seal, state: MatchState | None) -> None:
        """Line ``lineno`` (event ``seq``) holds ``seal``; ``state`` is the match before it."""
        statement = sshsig.statement(self.first or "", seal.head, seal.line, seal.at)
        principal = None
        try:
            principal = self._check(seal, statement, state)
        except GinlogError as exc:
            err = exc.at(path=self.label, line=lineno, seq=seq)
            self.checks.append(self._made(lineno, seq, seal, statement, "refused", None, err))
            self._error(err)
            return
        self._seen.add((seal.fingerprint, seal.head))
        verdict: Literal["sealed", "signed"] = "signed" if self.keyring is None else "sealed"
        self.checks.append(self._made(lineno, seq, seal, statement, verdict, principal, None))

    def _check(self, seal: Seal, statement: bytes, state: MatchState | None) -> str | None:
        fail = sshsig.SealError
        if state is None:
            raise fail("a seal before the match began", rule="seal-moved")
        self._players = state.players
        if state.phase == "hand":
            raise fail(f"a seal inside hand {len(state.hands) + 1}: a record is sealed between hands or at the end",
                       rule="seal-in-hand")
        if state.players[seal.seat] != seal.player:
            raise fail(f"the seal is for seat {seal.seat}, which is {state.players[seal.seat]!r}, not"
                       f" {seal.player!r}", rule="seal-player")
        if seal.line != self.last:
            raise fail(f"the seal names line {seal.line}, but the last line before it is {self.last}: a seal seals the"
                       " head it follows (moved or copied here)", rule="seal-moved")
        if seal.head != self.head:
            raise fail(f"the seal names line {seal.line} with the hash {seal.head[:12]}..., but that line's is"
                       f" {(self.head or '')[:12]}...: another file's head, or the record changed", rule="seal-head")
        envelope = sshsig.take(seal.signature)  # as the event's validator parsed it, this reading
        if sshsig.fingerprint(envelope.key) != seal.fingerprint:
            raise fail(f"the seal says key {seal.fingerprint}, but its signature is by"
                       f" {sshsig.fingerprint(envelope.key)}", rule="seal-key")
        sshsig.verify(envelope, statement)
        if (seal.fingerprint, seal.head) in self._seen:
            raise fail(f"key {seal.fingerprint} has sealed line {seal.line} already", rule="seal-duplicate")
        if self.keyring is None:
            return None
        return self.keyring.principal(seal.player, envelope.key_type, envelope.key, seal.at)

    def _made(self, lineno: int, seq: int, seal: Seal, statement: bytes,
              verdict: Literal["sealed", "signed", "refused"], principal: str | None,
              err: GinlogError | None) -> SealCheck:
        return SealCheck(
            lineno, seq, seal.player, seal.seat, seal.fingerprint, seal.line, seal.head, seal.at, verdict,
            statement.decode(), seal.signature, principal,
            None if err is None else err.rule, None if err is None else err.message,
        )

    def ended(self) -> None:
        """The reading is over: under a policy, what no seal covers (warnings, or errors under ``require``)."""
        if not self.policy or self.first is None:
            return
        valid = [c for c in self.checks if c.valid]
        on_head = {c.player for c in valid if c.sealed == self.last}
        if self.require is not None:
            players = self._players
            wanted = 1 if self.require == "any" else 2
            if len(on_head) < wanted:
                who = " and ".join(players) if players is not None and self.require == "all" else "a player"
                self._error(sshsig.SealError(
                    f"--require-seals {self.require}: line {self.last} (the last) is sealed by"
                    f" {len(on_head)} player{'s' if len(on_head) != 1 else ''}; it needs {who}",
                    rule="seals-required", path=self.label))
            return
        if not valid:
            self._warning(Caveat("unsealed", "no valid seal: nobody has signed this record").at(path=self.label))
        elif max(c.sealed for c in valid) < self.last:
            upto = max(c.sealed for c in valid)
            self._warning(Caveat("unsealed-lines", f"lines {upto + 1} to {self.last} come after the last seal"
                                 f" (of line {upto}): no seal covers them", line=upto + 1).at(path=self.label))


def sealed_words(checks: Sequence[SealCheck]) -> str | None:
    """What a page or a score sheet says of a file's seals, or None without any:
    ``sealed by Ann and Bob at event 214`` against a club's keys; without them ``signed by key SHA256:..., not
    checked against a club's keys``, never a person's name.

    >>> c = SealCheck(9, 9, "Ann", 0, "SHA256:" + "A" * 43, 8, "0" * 64, "t", "sealed", "", "", "Ann")
    >>> sealed_words([c, attrs.evolve(c, player="Bob", principal="bob")])
    'sealed by Ann and Bob at event 8'
    >>> sealed_words([attrs.evolve(c, verdict="signed")])[:27]
    'signed by key SHA256:AAAAAA'
    """
    valid = [c for c in checks if c.valid]
    if not valid:
        return None
    last = max(c.sealed for c in valid)
    on = [c for c in valid if c.sealed == last]
    sealed = list(dict.fromkeys(c.player for c in on if c.verdict == "sealed"))
    if sealed:
        return f"sealed by {' and '.join(sealed)} at event {last}"
    keys = ", ".join(dict.fromkeys(c.fingerprint for c in on))
    return f"signed by key {keys} at event {last}, not checked against a club's keys"
