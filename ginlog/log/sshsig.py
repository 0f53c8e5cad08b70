"""A seal's bytes: the statement a player signs, and OpenSSH's SSHSIG signatures made and checked in-process.

A seal (:class:`ginlog.log.event_types.Seal`) is a signature in OpenSSH's
SSHSIG format (``PROTOCOL.sshsig``; what ``ssh-keygen -Y sign`` writes and
git's SSH signing uses) with the namespace ``ginlog``, over a short
:func:`statement` that names the match (its first line's SHA-256), the head
sealed (a line's SHA-256, which carries every line before it through the
chain), that line's number and the seal's own time. Anyone can check one
with OpenSSH alone (``ssh-keygen -Y verify -n ginlog ...``, the statement
on standard input).

*Why by hand on* ``cryptography`` *and not the* ``sshsig`` *package:* we
evaluated ``sshsig`` 0.3.1. It verifies only (no signing), handles Ed25519
and RSA but not ECDSA, reads the armor leniently (lines outside the markers
are skipped, any base64 that decodes is taken), and its allowed-signers
verification checks neither principals against patterns nor
``valid-after``/``valid-before``. The envelope is ~60 lines over
``cryptography``'s key classes, and every malformed seal then fails with a
rule of ours, never another library's exception. ``cryptography`` is
imported only when a seal is signed or checked (the ``ginlog[seal]``
extra), so a file without seals costs nothing.

>>> text = statement("ab" * 32, "cd" * 32, 214, "2026-12-05T21:04:00.000Z")
>>> text.splitlines()[0], text.splitlines()[2], len(text)
(b'ginlog seal 1', b'line 214', 192)
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
import struct
from typing import Any, Final

import attrs

from ginlog.errors import EventError

__all__ = [
    "NAMESPACE", "MAX_ARMOR", "BEGIN", "END", "statement", "armor", "dearmor", "Envelope", "parse", "fingerprint",
    "verify", "sign", "public_blob", "SealError", "missing_extra",
]

#: The namespace every ginlog seal is signed in (``ssh-keygen -Y ... -n ginlog``).
NAMESPACE: Final = "ginlog"
#: The longest armored signature a seal may hold: an RSA-16384 signature is about 5 KB armored.
MAX_ARMOR: Final = 8192
BEGIN: Final = "-----BEGIN SSH SIGNATURE-----"
END: Final = "-----END SSH SIGNATURE-----"
_B64_LINE: Final = re.compile(r"[A-Za-z0-9+/]{1,76}={0,2}")
#: What a signature's algorithm may be, and the key type it must come from.
_SIG_FOR_KEY: Final = {
    "ssh-ed25519": ("ssh-ed25519",),
    "ssh-rsa": ("rsa-sha2-512", "rsa-sha2-256"),
    "ecdsa-sha2-nistp256": ("ecdsa-sha2-nistp256",),
    "ecdsa-sha2-nistp384": ("ecdsa-sha2-nistp384",),
    "ecdsa-sha2-nistp521": ("ecdsa-sha2-nistp521",),
}


class SealError(EventError):
    """A seal that cannot be what it says: one line, with the rule that says which way (``seal-armor``,
    ``seal-namespace``, ``seal-algorithm``, ``seal-signature``...)."""

    default_rule = "seal"


def missing_extra() -> SealError:
    """The one line for a seal met without the ``cryptography`` library installed."""
    return SealError("seals need the cryptography library: pip install 'ginlog[seal]'", rule="seal-extra")


def statement(match: str, head: str, line: int, at: str) -> bytes:
    """The bytes a seal signs: the match (its first line's SHA-256), the head sealed, its line, the seal's time.

    Short (about 170 bytes) and plain, so that a person can read what they
    signed and OpenSSH can check it given these bytes on standard input.
    """
    return f"ginlog seal 1\nmatch {match}\nline {line}\nhead {head}\nat {at}\n".encode()


def armor(blob: bytes) -> str:
    """``blob`` armored as ``ssh-keygen -Y sign`` writes it (76 base64 characters a line, no final newline)."""
    text = base64.b64encode(blob).decode("ascii")
    return "\n".join([BEGIN, *(text[i:i + 76] for i in range(0, len(text), 76)), END])


def dearmor(text: str) -> bytes:
    """The SSHSIG blob of an armored signature, strictly: the markers, then only base64 lines (rule ``seal-armor``)."""
    if len(text) > MAX_ARMOR:
        raise SealError(f"the signature is {len(text):,} characters: a seal's is at most {MAX_ARMOR:,}", rule="seal-armor")
    lines = text.strip("\n").split("\n")
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SealError("the signature is not an armored SSH signature (-----BEGIN SSH SIGNATURE----- ... END)",
                        rule="seal-armor")
    body = lines[1:-1]
    if not all(_B64_LINE.fullmatch(b) for b in body):
        raise SealError("the signature's armor holds something that is not base64", rule="seal-armor")
    try:
        return base64.b64decode("".join(body), validate=True)
    except (binascii.Error, ValueError):
        raise SealError("the signature's base64 is cut short or padded wrongly", rule="seal-armor") from None


class _Reader:
    """SSH wire format: ``uint32`` lengths, ``string``\\ s; running out is rule ``seal-armor`` (truncated)."""

    __slots__ = ("data", "at")

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise SealError("the signature is truncated", rule="seal-armor")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def u32(self) -> int:
        n: int = struct.unpack(">I", self.take(4))[0]
        return n

    def string(self) -> bytes:
        return self.take(self.u32())

    def text(self) -> str:
        raw = self.string()
        if not raw.isascii():
            raise SealError("the signature names an algorithm or namespace that is not ASCII", rule="seal-armor")
        return raw.decode("ascii")

    def done(self) -> None:
        if self.at != len(self.data):
            raise SealError("the signature has bytes after its end", rule="seal-armor")


def _string(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


@attrs.frozen
class Envelope:
    """The parts of an SSHSIG blob: the signer's public key (its wire blob), namespace, hash, signature."""

    key: bytes
    key_type: str
    namespace: str
    hash_algorithm: str
    sig_algorithm: str
    sig: bytes


#: The envelopes last parsed, by their armored text: a seal's signature is parsed when its event is made
#: (the shape, :class:`~ginlog.log.event_types.Seal`) and again when it is checked (the key, the
#: signature: :mod:`ginlog.match.seals`), one line apart; an Envelope is a value, so the second is a look-up.
_PARSED: Final[dict[str, Envelope]] = {}
_PARSED_SIZE: Final = 64


def parse(text: str) -> Envelope:
    """An armored SSHSIG signature's parts, or a :class:`SealError` saying what is wrong with it (each text
    parsed once while it is among the last few: :data:`_PARSED`; an error is never kept, so it is raised again).

    >>> parse("-----BEGIN SSH SIGNATURE-----\\nAAAA\\n-----END SSH SIGNATURE-----")
    Traceback (most recent call last):
    ...
    ginlog.log.sshsig.SealError: the signature is truncated [seal-armor]
    """
    envelope = _PARSED.get(text)
    if envelope is None:
        envelope = _parse(text)
        if len(_PARSED) >= _PARSED_SIZE:
            _PARSED.clear()
        _PARSED[text] = envelope
    return envelope


def _parse(text: str) -> Envelope:
    r = _Reader(dearmor(text))
    if r.take(6) != b"SSHSIG":
        raise SealError("the signature does not begin with SSHSIG", rule="seal-armor")
    if r.u32() != 1:
        raise SealError("the signature is of an SSHSIG version other than 1", rule="seal-armor")
    key = r.string()
    namespace, _reserved, hash_algorithm, sig_blob = r.text(), r.string(), r.text(), r.string()
    r.done()
    kr = _Reader(key)
    key_type = kr.text()
    sr = _Reader(sig_blob)
    sig_algorithm, sig = sr.text(), sr.string()
    if key_type.startswith("sk-") or sig_algorithm.startswith("sk-"):
        raise SealError("a security-key (sk-) signature: ginlog does not check FIDO seals; seal with an Ed25519, "
                        "ECDSA or RSA key", rule="seal-algorithm")
    if namespace != NAMESPACE:
        raise SealError(f"the signature is for the namespace {namespace[:40]!r}, not {NAMESPACE!r}",
                        rule="seal-namespace")
    if hash_algorithm not in ("sha512", "sha256"):
        raise SealError(f"the signature hashes with {hash_algorithm[:40]!r}: SSHSIG allows sha256 and sha512",
                        rule="seal-algorithm")
    allowed = _SIG_FOR_KEY.get(key_type)
    if allowed is None:
        raise SealError(f"a key of type {key_type[:40]!r}: a seal's is Ed25519, ECDSA or RSA", rule="seal-algorithm")
    if sig_algorithm not in allowed:
        raise SealError(f"a {key_type} key cannot have made a {sig_algorithm[:40]!r} signature", rule="seal-algorithm")
    return Envelope(key, key_type, namespace, hash_algorithm, sig_algorithm, sig)


def fingerprint(key: bytes) -> str:
    """A public key's fingerprint as OpenSSH prints it: ``SHA256:`` and the unpadded base64 of its blob's hash."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(key).digest()).decode("ascii").rstrip("=")


#: The hashes SSHSIG allows, by name (a constructor: ``hashlib.new(name)`` looks the name up each call).
_HASHES: Final = {"sha512": hashlib.sha512, "sha256": hashlib.sha256}


def _signed_data(message: bytes, hash_algorithm: str) -> bytes:
    digest = _HASHES[hash_algorithm](message).digest()
    return b"SSHSIG" + b"".join(map(_string, (NAMESPACE.encode(), b"", hash_algorithm.encode(), digest)))


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
    except ImportError:  # pragma: no cover - the extra is in the test extra
        raise missing_extra() from None
    return serialization


@functools.lru_cache(maxsize=256)
def _public(key_type: str, key: bytes) -> Any:
    """A signer's public key as a ``cryptography`` object, made once per key (a club has few; loading one costs
    more than checking a signature with it)."""
    serialization = _crypto()
    try:
        return serialization.load_ssh_public_key(key_type.encode() + b" " + base64.b64encode(key))
    except (ValueError, TypeError):  # cryptography's UnsupportedAlgorithm is a subclass of neither: caught below
        raise SealError("the signature's public key cannot be read", rule="seal-armor") from None
    except Exception:
        raise SealError(f"the signature's {key_type} key is not supported here", rule="seal-algorithm") from None


@functools.lru_cache(maxsize=1)
def _primitives() -> Any:
    """``cryptography``'s modules a check needs, imported once (an import statement costs each call)."""
    import types

    from cryptography import exceptions
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa, utils

    return types.SimpleNamespace(exceptions=exceptions, hashes=hashes, ec=ec, ed25519=ed25519, padding=padding,
                                 rsa=rsa, utils=utils)


def verify(envelope: Envelope, message: bytes) -> None:
    """Check that ``envelope``'s key signed ``message`` (rule ``seal-signature`` if not)."""
    public = _public(envelope.key_type, envelope.key)
    c = _primitives()
    data = _signed_data(message, envelope.hash_algorithm)
    try:
        if isinstance(public, c.ed25519.Ed25519PublicKey):
            public.verify(envelope.sig, data)
        elif isinstance(public, c.rsa.RSAPublicKey):
            h = c.hashes.SHA512() if envelope.sig_algorithm == "rsa-sha2-512" else c.hashes.SHA256()
            public.verify(envelope.sig, data, c.padding.PKCS1v15(), h)
        elif isinstance(public, c.ec.EllipticCurvePublicKey):
            r = _Reader(envelope.sig)
            rs = c.utils.encode_dss_signature(int.from_bytes(r.string(), "big"), int.from_bytes(r.string(), "big"))
            size = public.curve.key_size
            h2 = c.hashes.SHA256() if size <= 256 else c.hashes.SHA384() if size <= 384 else c.hashes.SHA512()
            public.verify(rs, data, c.ec.ECDSA(h2))
        else:  # pragma: no cover - parse() lets no other key type through
            raise SealError("an unsupported key", rule="seal-algorithm")
    except c.exceptions.InvalidSignature:
        raise SealError("the signature does not verify: the seal was not made over this statement by this key"
                        " (forged, or the record changed before it)", rule="seal-signature") from None


def public_blob(private: Any) -> tuple[str, bytes]:
    """The key type and wire blob of a ``cryptography`` private key's public half."""
    serialization = _crypto()
    line = private.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    kind, b64 = line.split(b" ")[:2]
    return kind.decode("ascii"), base64.b64decode(b64)


def sign(private: Any, message: bytes) -> str:
    """An armored SSHSIG signature of ``message`` in the ``ginlog`` namespace by a ``cryptography`` private key
    (Ed25519, ECDSA or RSA), as ``ssh-keygen -Y sign -n ginlog`` makes it."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    kind, key = public_blob(private)
    data = _signed_data(message, "sha512")
    if isinstance(private, ed25519.Ed25519PrivateKey):
        algo, sig = "ssh-ed25519", private.sign(data)
    elif isinstance(private, rsa.RSAPrivateKey):
        algo, sig = "rsa-sha2-512", private.sign(data, padding.PKCS1v15(), hashes.SHA512())
    elif isinstance(private, ec.EllipticCurvePrivateKey):
        size = private.curve.key_size
        h = hashes.SHA256() if size <= 256 else hashes.SHA384() if size <= 384 else hashes.SHA512()
        r, s = decode_dss_signature(private.sign(data, ec.ECDSA(h)))
        algo, sig = kind, _string(_mpint(r)) + _string(_mpint(s))
    else:
        raise SealError(f"a {type(private).__name__} cannot seal: use an Ed25519, ECDSA or RSA key", rule="seal-algorithm")
    blob = (b"SSHSIG" + struct.pack(">I", 1) + _string(key) + _string(NAMESPACE.encode()) + _string(b"")
            + _string(b"sha512") + _string(_string(algo.encode()) + _string(sig)))
    return armor(blob)


def _mpint(n: int) -> bytes:
    return n.to_bytes((n.bit_length() + 8) // 8, "big")  # a leading zero byte when the top bit is set, as SSH wants
