"""A club's keys: an ``allowed_signers`` file in OpenSSH's (and git's) format, checked as OpenSSH checks it.

Each line is ``PRINCIPALS [OPTIONS] KEYTYPE BASE64 [COMMENT]`` (``ssh-keygen(1)``,
"ALLOWED SIGNERS"): principals are a comma list of patterns (``*`` and ``?``,
``!`` to deny), quoted if they hold spaces; the options are ``namespaces``
(a pattern list the namespace ``ginlog`` must match), ``valid-after`` and
``valid-before`` (``YYYYMMDD[HHMM[SS]]``, UTC with a ``Z``, else local time,
as OpenSSH reads them) and ``cert-authority`` (certificates: refused here,
in one line). :class:`AllowedSigners` is the seal policy's keyring
(:class:`ginlog.match.seals.Keyring`): a key is allowed for a player when a
line with that key has principals that match the player's name (the
players file's canonical name, when there is one) and options that allow
the namespace and the seal's signed time.

>>> key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICOKizryqrxJCj0a7AgyhnZRJJZz1e+ljXWl6JW4hgN0"
>>> signers = allowed_signers_from(f'"Ann Lee,b*" namespaces="git,ginlog" {key} ann@home', "allowed")
>>> kind, blob = signers.entries[0].key_type, signers.entries[0].key
>>> signers.principal("Ann Lee", kind, blob, "2026-12-05T21:04:00.000Z"), signers.principal("bob", kind, blob, "2026-12-05T21:04:00.000Z")
('Ann Lee', 'bob')
>>> matches("Ann", "*,!A*"), matches("Ann", "?nn"), matches("ann", "Ann")
(False, True, False)
"""

from __future__ import annotations

import base64
import binascii
import calendar
import functools
import re
import time
from collections.abc import Callable, Mapping
from typing import Final

import attrs

from ginlog.errors import GinlogError
from ginlog.log import sshsig

__all__ = ["AllowedSigners", "SignerLine", "SignersFileError", "allowed_signers_from", "load_allowed_signers",
           "matches", "key_of"]

#: The largest allowed_signers file read: a club's keys, not a directory.
MAX_FILE: Final = 16 * 1024 * 1024
_TIME: Final = re.compile(r"(\d{8})(\d{4})?(\d{2})?(Z)?")
_KEY_TYPES: Final = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                     "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com")


class SignersFileError(GinlogError):
    """An allowed_signers file (or a players file's key) that cannot be used: one line (rule ``allowed-signers``)."""

    default_rule = "allowed-signers"


def matches(text: str, patterns: str) -> bool:
    """Whether ``text`` matches the comma list ``patterns`` as OpenSSH's ``match_pattern_list`` does: ``*`` any
    run, ``?`` any one character, a ``!`` pattern that matches denies, case-sensitive."""
    got = False
    for negated, pattern in _compiled(patterns):
        if pattern(text):
            if negated:
                return False
            got = True
    return got


@functools.lru_cache(maxsize=1024)
def _compiled(patterns: str) -> tuple[tuple[bool, Callable[[str], object]], ...]:
    """Each pattern of a comma list, whether it denies and its regular expression, made once per list (a seal
    checked against a club's keys matches a name against a line's principals)."""
    out = []
    for pattern in patterns.split(","):
        negated = pattern.startswith("!")
        body = pattern[1:] if negated else pattern
        regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in body)
        out.append((negated, re.compile(regex, re.DOTALL).fullmatch))
    return tuple(out)


def _when(value: str, where: str) -> int:
    """A ``valid-after``/``valid-before`` time as seconds since the epoch."""
    m = _TIME.fullmatch(value)
    if m is None:
        raise SignersFileError(f"{where}: {value!r} is not a time like 20261205 or 202612052104Z")
    day, hm, sec, utc = m.groups()
    try:
        parts = time.strptime(day + (hm or "0000") + (sec or "00"), "%Y%m%d%H%M%S")
    except ValueError:
        raise SignersFileError(f"{where}: {value!r} is not a real time") from None
    return calendar.timegm(parts) if utc else int(time.mktime(parts))


def _at_seconds(at: str) -> int:
    """A seal's signed time (as ginlog writes a time: its event's validator checked it) in seconds since the epoch,
    by slices (``time.strptime`` took 4 µs a seal)."""
    return calendar.timegm((int(at[0:4]), int(at[5:7]), int(at[8:10]), int(at[11:13]), int(at[14:16]), int(at[17:19])))


def key_of(kind: str, b64: str, where: str) -> bytes:
    """The wire blob of a public key given as its type and base64 (the blob must name the same type)."""
    if kind not in _KEY_TYPES:
        raise SignersFileError(f"{where}: {kind[:40]!r} is not an SSH public key type")
    try:
        blob = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise SignersFileError(f"{where}: the key is not base64") from None
    if blob[4:4 + len(kind)] != kind.encode() or int.from_bytes(blob[:4], "big") != len(kind):
        raise SignersFileError(f"{where}: the key's blob is not a {kind} key")
    return blob


@attrs.frozen
class SignerLine:
    """One line of an allowed_signers file: the principals, the key, the options that limit it."""

    principals: str
    key_type: str
    key: bytes
    namespaces: str | None = None
    valid_after: int | None = None
    valid_before: int | None = None
    where: str = ""
    #: The principal is a name, not patterns (a players file's key: a name may hold ``*`` or a comma).
    exact: bool = False

    def allows(self, principal: str) -> bool:
        return principal == self.principals if self.exact else matches(principal, self.principals)


@attrs.frozen
class AllowedSigners:
    """A club's keys, one :class:`SignerLine` each; ``canonical`` maps a name in a record to the club's name."""

    entries: tuple[SignerLine, ...]
    path: str = ""
    aliases: Mapping[str, str] = attrs.field(factory=dict)

    def principal(self, name: str, key_type: str, key: bytes, at: str) -> str:
        """The principal (the player's canonical name) that allows ``key`` for ``name`` at ``at``; else
        :class:`~ginlog.log.sshsig.SealError` (rule ``seal-signer``) saying why not."""
        principal = self.aliases.get(name, name)
        lines = self._by_key.get(key, ())
        fp = sshsig.fingerprint(key)
        if not lines:
            raise sshsig.SealError(f"key {fp} is not among the club's keys ({self.path})", rule="seal-signer")
        mine = [e for e in lines if e.allows(principal)]
        if not mine:
            raise sshsig.SealError(f"key {fp} is not allowed for {principal!r} ({self.path} allows it for"
                                   f" {', '.join(e.principals for e in lines)[:80]!r})", rule="seal-signer")
        spaced = [e for e in mine if e.namespaces is None or matches(sshsig.NAMESPACE, e.namespaces)]
        if not spaced:
            raise sshsig.SealError(f"key {fp} is allowed for {principal!r} only in namespaces"
                                   f" {mine[0].namespaces!r}, not {sshsig.NAMESPACE!r}", rule="seal-signer")
        when = _at_seconds(at)
        for e in spaced:  # both bounds inclusive, as OpenSSH's (sshsig.c: refused only before after, past before)
            if (e.valid_after is None or when >= e.valid_after) and (e.valid_before is None or when <= e.valid_before):
                return principal
        raise sshsig.SealError(f"key {fp} was not allowed for {principal!r} at the seal's time {at} (valid-after,"
                               f" valid-before: {spaced[0].where})", rule="seal-signer")

    @functools.cached_property
    def _by_key(self) -> Mapping[bytes, tuple[SignerLine, ...]]:
        """Each key's lines, in the file's order, found once per club's keys (a club may list hundreds)."""
        out: dict[bytes, tuple[SignerLine, ...]] = {}
        for e in self.entries:
            out[e.key] = (*out.get(e.key, ()), e)
        return out

    def with_aliases(self, aliases: Mapping[str, str]) -> AllowedSigners:
        return attrs.evolve(self, aliases=dict(aliases))


def _principals(line: str, where: str) -> tuple[str, str]:
    if line.startswith('"'):
        end = line.find('"', 1)
        if end < 0:
            raise SignersFileError(f"{where}: the principals' quote is not closed")
        return line[1:end], line[end + 1:].lstrip()
    head, _, rest = line.partition(" ")
    if "\t" in head:
        head, _, more = head.partition("\t")
        rest = more + " " + rest
    return head, rest.lstrip()


_OPTION: Final = re.compile(r'(cert-authority|namespaces="[^"]*"|valid-after="[^"]*"|valid-before="[^"]*")(,|(?=\s))',
                            re.IGNORECASE)


def _line(text: str, where: str) -> SignerLine:
    principals, rest = _principals(text, where)
    if not principals or not rest:
        raise SignersFileError(f"{where}: a line is PRINCIPALS [OPTIONS] KEYTYPE BASE64 [COMMENT]")
    options: dict[str, str] = {}
    if not rest.startswith(_KEY_TYPES):
        while True:
            m = _OPTION.match(rest + " ")
            if m is None:
                raise SignersFileError(f"{where}: {rest.split()[0][:60]!r} is neither a key type nor an option"
                                       " (namespaces, valid-after, valid-before)")
            name, _, value = m.group(1).partition("=")
            if name.lower() == "cert-authority":
                raise SignersFileError(f"{where}: cert-authority: seals are signed by keys, and certificates are"
                                       " not supported")
            if name.lower() in options:
                raise SignersFileError(f"{where}: {name} twice")
            options[name.lower()] = value.strip('"')
            rest = rest[m.end(1):]
            if rest.startswith(","):
                rest = rest[1:]
                continue
            rest = rest.lstrip()
            break
    parts = rest.split()
    if len(parts) < 2:
        raise SignersFileError(f"{where}: no key after the principals")
    key = key_of(parts[0], parts[1], where)
    return SignerLine(
        principals, parts[0], key, options.get("namespaces"),
        None if "valid-after" not in options else _when(options["valid-after"], where),
        None if "valid-before" not in options else _when(options["valid-before"], where),
        where,
    )


def allowed_signers_from(text: str, path: str) -> AllowedSigners:
    """The :class:`AllowedSigners` of a file's text (blank lines and ``#`` comments skipped)."""
    entries = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            entries.append(_line(line, f"{path}:{n}"))
    return AllowedSigners(tuple(entries), path)


def load_allowed_signers(path: str) -> AllowedSigners:
    """Read an allowed_signers file, or raise :class:`SignersFileError` in one line."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except OSError as exc:
        raise SignersFileError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE:
        raise SignersFileError(f"{path}: over 16 MB: an allowed_signers file lists a club's keys")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SignersFileError(f"{path}: not UTF-8 text") from None
    return allowed_signers_from(text, path)
