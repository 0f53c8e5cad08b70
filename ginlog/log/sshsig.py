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

*Ed25519 is checked by libsodium when PyNaCl is installed* (it is in the
extra), else by OpenSSL through ``cryptography``: libsodium's check takes
about 0.6 times OpenSSL's, and a seal's cost is mostly that check
(``docs/PERFORMANCE.md``). The library is chosen once a process
(:func:`ed25519_backend`), and :func:`ed25519_valid` applies ginlog's rules
before either library's equation, so that the verdict is the same whichever
computes it: the two differ on keys and commitments of small order, which
libsodium refuses and OpenSSL takes (``docs/DESIGN.md``).

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
from collections.abc import Callable
from typing import Any, Final, NoReturn

import attrs

from ginlog.errors import EventError

__all__ = [
    "NAMESPACE", "MAX_ARMOR", "BEGIN", "END", "statement", "armor", "dearmor", "Envelope", "parse", "take",
    "fingerprint", "verify", "Equation", "ed25519_valid", "ed25519_backend", "ed25519_backends", "sign", "public_blob",
    "SealError", "missing_extra",
]

#: The namespace every ginlog seal is signed in (``ssh-keygen -Y ... -n ginlog``).
NAMESPACE: Final = "ginlog"
#: The longest armored signature a seal may hold: an RSA-16384 signature is about 5 KB armored.
MAX_ARMOR: Final = 8192
BEGIN: Final = "-----BEGIN SSH SIGNATURE-----"
END: Final = "-----END SSH SIGNATURE-----"
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
    """The SSHSIG blob of an armored signature, strictly: the markers, then only base64 lines (rule ``seal-armor``).

    One regular expression says whether the armor is right (each seal is read so, once a reading); only a
    wrong one goes through the checks one by one, which say what is wrong with it.
    """
    if len(text) > MAX_ARMOR:
        raise SealError(f"the signature is {len(text):,} characters: a seal's is at most {MAX_ARMOR:,}", rule="seal-armor")
    m = _ARMOR(text)
    if m is None:
        _refuse_armor(text)
    try:
        return binascii.a2b_base64(m.group(1).replace("\n", ""), strict_mode=True)  # (base64.b64decode's, validate=True)
    except (binascii.Error, ValueError):
        raise SealError("the signature's base64 is cut short or padded wrongly", rule="seal-armor") from None


#: A whole armor as :func:`dearmor` takes it: the markers on their own lines, between them base64 lines of
#: 1 to 76 characters and up to two ``=``, newlines around it (what :func:`_refuse_armor` checks one by one).
_ARMOR: Final = re.compile(
    r"\n*" + re.escape(BEGIN) + r"\n((?:[A-Za-z0-9+/]{1,76}={0,2}\n)+)" + re.escape(END) + r"\n*"
).fullmatch


def _refuse_armor(text: str) -> NoReturn:
    """Why ``text`` is not an armored signature (:data:`_ARMOR` did not match it): its first fault, one line."""
    lines = text.strip("\n").split("\n")
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SealError("the signature is not an armored SSH signature (-----BEGIN SSH SIGNATURE----- ... END)",
                        rule="seal-armor")
    raise SealError("the signature's armor holds something that is not base64", rule="seal-armor")


def _field(data: bytes, at: int) -> tuple[bytes, int]:
    """The SSH wire ``string`` at ``at`` in ``data`` (a ``uint32`` length, then the bytes) and where the next begins;
    running out is rule ``seal-armor`` (truncated). A function, not a reader object: a seal is parsed once a
    reading, and method calls were most of what that cost."""
    start = at + 4
    end = start + int.from_bytes(data[at:start], "big")
    if start > len(data) or end > len(data):
        raise SealError("the signature is truncated", rule="seal-armor")
    return data[start:end], end


def _text(raw: bytes) -> str:
    if not raw.isascii():
        raise SealError("the signature names an algorithm or namespace that is not ASCII", rule="seal-armor")
    return raw.decode("ascii")


def _ended(data: bytes, at: int) -> None:
    if at != len(data):
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
#: (the shape, :class:`~ginlog.log.event_types.Seal`) and checked one line later (the key, the signature:
#: :mod:`ginlog.match.seals`, which :func:`take`\\ s it back, so that each reading parses it once and a
#: second reading of the same file, a warm benchmark's, parses it again).
_PARSED: Final[dict[str, Envelope]] = {}
_PARSED_SIZE: Final = 64


def parse(text: str) -> Envelope:
    """An armored SSHSIG signature's parts, or a :class:`SealError` saying what is wrong with it (kept for
    :func:`take` while it is among the last few: :data:`_PARSED`; an error is never kept, so it is raised again).

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


def take(text: str) -> Envelope:
    """The envelope :func:`parse` kept for ``text``, no longer kept, or ``text`` parsed now: what the check of a
    seal uses, so that nothing of one reading's seals (never a verdict) is carried to the next."""
    envelope = _PARSED.pop(text, None)
    return _parse(text) if envelope is None else envelope


def _parse(text: str) -> Envelope:
    blob = dearmor(text)
    usual = _usual(blob)
    return _parse_blob(blob) if usual is None else usual


#: The names a usual blob may hold, as bytes, and as text (the parts of an Envelope).
_NAMES: Final = {name.encode(): name for name in {*_SIG_FOR_KEY, *(a for names in _SIG_FOR_KEY.values() for a in names)}}
#: A usual blob's namespace, reserved string and hash name, by hash name.
_MIDDLES: Final = {_string(NAMESPACE.encode()) + _string(b"") + _string(h): h.decode() for h in (b"sha512", b"sha256")}


def _usual(blob: bytes) -> Envelope | None:
    """The envelope of a blob laid out as ginlog and ``ssh-keygen -Y sign`` write them (version 1, the namespace
    ``ginlog``, sha512 or sha256, a key and signature of a type a seal may have, nothing after), read by slices
    (a third of what :func:`_parse_blob` costs, field by field); None for anything else, which
    :func:`_parse_blob` then reads and words. What it accepts, :func:`_parse_blob` accepts alike."""
    if blob[:10] != b"SSHSIG\0\0\0\1":
        return None
    at = 14 + int.from_bytes(blob[10:14], "big")
    key = blob[14:at]
    hash_algorithm = _MIDDLES.get(blob[at:at + 24])
    if hash_algorithm is None or int.from_bytes(blob[at + 24:at + 28], "big") != len(blob) - at - 28:
        return None  # (the signature's string must run to the blob's end)
    at += 28
    end = at + 4 + int.from_bytes(blob[at:at + 4], "big")
    sig_algorithm = _NAMES.get(blob[at + 4:end])
    named = 4 + int.from_bytes(key[:4], "big")
    key_type = _NAMES.get(key[4:named]) if named <= len(key) else None
    if (sig_algorithm is None or key_type is None or sig_algorithm not in _SIG_FOR_KEY.get(key_type, ())
            or int.from_bytes(blob[end:end + 4], "big") != len(blob) - end - 4):
        return None
    return Envelope(key, key_type, NAMESPACE, hash_algorithm, sig_algorithm, blob[end + 4:])


def _parse_blob(blob: bytes) -> Envelope:
    """A blob's envelope read field by field, or the :class:`SealError` of its first fault."""
    if len(blob) < 6:
        raise SealError("the signature is truncated", rule="seal-armor")
    if blob[:6] != b"SSHSIG":
        raise SealError("the signature does not begin with SSHSIG", rule="seal-armor")
    if len(blob) < 10:
        raise SealError("the signature is truncated", rule="seal-armor")
    if blob[6:10] != b"\0\0\0\1":
        raise SealError("the signature is of an SSHSIG version other than 1", rule="seal-armor")
    key, at = _field(blob, 10)
    raw, at = _field(blob, at)
    namespace = _text(raw)
    _reserved, at = _field(blob, at)
    raw, at = _field(blob, at)
    hash_algorithm = _text(raw)
    sig_blob, at = _field(blob, at)
    _ended(blob, at)
    key_type = _text(_field(key, 0)[0])
    raw, at = _field(sig_blob, 0)
    sig_algorithm = _text(raw)
    sig, at = _field(sig_blob, at)
    _ended(sig_blob, at)  # as OpenSSH: bytes after the signature would make one seal many (malleable)
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


@functools.lru_cache(maxsize=256)
def fingerprint(key: bytes) -> str:
    """A public key's fingerprint as OpenSSH prints it: ``SHA256:`` and the unpadded base64 of its blob's hash
    (once per key: a club has few)."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(key).digest()).decode("ascii").rstrip("=")


#: The hashes SSHSIG allows, by name (a constructor: ``hashlib.new(name)`` looks the name up each call).
_HASHES: Final = {"sha512": hashlib.sha512, "sha256": hashlib.sha256}
#: What SSHSIG signs before the message's hash, by hash (``PROTOCOL.sshsig``: the magic, the namespace, the
#: reserved string, the hash's name, then the hash as a string, whose length is the hash's size).
_SIGNED: Final = {
    name: b"SSHSIG" + _string(NAMESPACE.encode()) + _string(b"") + _string(name.encode())
    + struct.pack(">I", new().digest_size)
    for name, new in _HASHES.items()
}


def _signed_data(message: bytes, hash_algorithm: str) -> bytes:
    return _SIGNED[hash_algorithm] + _HASHES[hash_algorithm](message).digest()


# --------------------------------------------------------------------------- Ed25519: ginlog's rules, one library's equation

#: One library's Ed25519 check: ``(public key, signature, signed data) -> whether [S]B = R + [k]A``, cofactorless,
#: R compared as bytes (libsodium's and OpenSSL's alike); :func:`ed25519_valid` applies ginlog's rules first.
Equation = Callable[[bytes, bytes, bytes], bool]
#: The order of Ed25519's base point, and the field's prime.
_L: Final = 2**252 + 27742317777372353535851937790883648493
_P: Final = 2**255 - 19
#: The points of small order (1, 2, 4, 8) as encoded with the sign bit cleared, canonical or not: the
#: blocklist of libsodium's ``ge25519_has_small_order``. A key among them has no secret (anyone can sign
#: for it), an R among them is no commitment; OpenSSL takes both, libsodium neither.
_SMALL_ORDER: Final = frozenset(bytes.fromhex(h) for h in (
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p - 1: order 2
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p (0, not canonical): order 4
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p + 1 (1, not canonical): the identity
))
_SMALL_PREFIXES: Final = frozenset(point[:31] for point in _SMALL_ORDER)
#: An Ed25519 key's wire blob before its 32 bytes: the type, then the key's length.
_ED25519_KEY: Final = _string(b"ssh-ed25519") + struct.pack(">I", 32)


def _small_order(point: bytes) -> bool:
    return point[:31] in _SMALL_PREFIXES and point[:31] + bytes((point[31] & 0x7F,)) in _SMALL_ORDER


def ed25519_valid(public: bytes, sig: bytes, data: bytes, equation: Equation | None = None) -> bool:
    """Whether ``sig`` is the Ed25519 signature of ``data`` by the 32-byte key ``public``, by ginlog's rules, the
    same whichever library computes the equation (``equation``: the one :func:`ed25519_backend` names, unless
    given): 64 bytes; S canonical (below the group's order: S + L would be a second signature, which OpenSSH's
    own code takes); R and the key not of small order, the key's y below p (libsodium's rules, which OpenSSL
    does not apply: ``docs/DESIGN.md``); then the cofactorless equation.
    """
    if len(public) != 32 or len(sig) != 64 or int.from_bytes(sig[32:], "little") >= _L:
        return False
    if _small_order(sig[:32]) or _small_order(public) or int.from_bytes(public, "little") & (2**255 - 1) >= _P:
        return False
    return (equation or _backend()[1])(public, sig, data)


def _sodium() -> Equation | None:
    """libsodium's equation (through PyNaCl), or None without PyNaCl."""
    try:
        from nacl.bindings import crypto_sign_open
        from nacl.exceptions import BadSignatureError
    except ImportError:
        return None

    def equation(public: bytes, sig: bytes, data: bytes) -> bool:
        # (PyNaCl does not check the key's length: ed25519_valid sees to its 32 bytes.)
        try:
            crypto_sign_open(sig + data, public)
        except BadSignatureError:
            return False
        return True

    return equation


def _openssl() -> Equation | None:
    """OpenSSL's equation (through ``cryptography``), or None without it; each key's object made once."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:  # pragma: no cover - the extra is in the test extra
        return None
    key = functools.lru_cache(maxsize=256)(Ed25519PublicKey.from_public_bytes)

    def equation(public: bytes, sig: bytes, data: bytes) -> bool:
        try:
            key(public).verify(sig, data)
        except InvalidSignature:
            return False
        return True

    return equation


#: Each library that can compute the Ed25519 equation, the quicker first (libsodium: about 0.6 times
#: OpenSSL's time on this project's machine, docs/PERFORMANCE.md).
_EQUATIONS: Final = {"libsodium": _sodium, "openssl": _openssl}


def ed25519_backends() -> dict[str, Equation]:
    """The Ed25519 equations installed here, by library, the one :func:`ed25519_backend` names first."""
    made = {name: make() for name, make in _EQUATIONS.items()}
    return {name: equation for name, equation in made.items() if equation is not None}


@functools.lru_cache(maxsize=1)
def _backend() -> tuple[str, Equation]:
    for name, make in _EQUATIONS.items():  # the first installed, imported only if it is chosen
        equation = make()
        if equation is not None:
            return name, equation
    raise missing_extra()  # pragma: no cover - the extra is in the test extra


def ed25519_backend() -> str:
    """The library that checks Ed25519 seals in this process, chosen once: ``libsodium`` (PyNaCl, in the
    ``seal`` extra) when it is installed, else ``openssl`` (``cryptography``)."""
    return _backend()[0]


def _ed25519_public(key: bytes) -> bytes:
    """The 32 bytes of an Ed25519 key's wire blob (exactly its type and those: anything else cannot be read)."""
    if len(key) != len(_ED25519_KEY) + 32 or not key.startswith(_ED25519_KEY):
        raise SealError("the signature's public key cannot be read", rule="seal-armor")
    return key[len(_ED25519_KEY):]


# --------------------------------------------------------------------------- ECDSA and RSA: cryptography (OpenSSL)

def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
    except ImportError:  # pragma: no cover - the extra is in the test extra
        raise missing_extra() from None
    return serialization


@functools.lru_cache(maxsize=256)
def _public(key_type: str, key: bytes) -> tuple[Any, Any, Any]:
    """A signer's ECDSA or RSA key as a ``cryptography`` object, and for ECDSA the hash its curve signs with
    (RFC 5656: SHA-256 up to 256 bits, SHA-384 to 384, else SHA-512: ``hashlib``'s, the data hashed here) and the
    algorithm that takes that hash, made once per key (a club has few; loading one costs more than checking a
    signature with it)."""
    serialization = _crypto()
    try:
        public = serialization.load_ssh_public_key(key_type.encode() + b" " + base64.b64encode(key))
    except (ValueError, TypeError):  # cryptography's UnsupportedAlgorithm is a subclass of neither: caught below
        raise SealError("the signature's public key cannot be read", rule="seal-armor") from None
    except Exception:
        raise SealError(f"the signature's {key_type} key is not supported here", rule="seal-algorithm") from None
    c = _primitives()
    if not isinstance(public, c.ec.EllipticCurvePublicKey):
        return public, None, None
    size = public.curve.key_size
    name = "sha256" if size <= 256 else "sha384" if size <= 384 else "sha512"
    return public, getattr(hashlib, name), c.ec.ECDSA(c.utils.Prehashed(getattr(c.hashes, name.upper())()))


@functools.lru_cache(maxsize=1)
def _primitives() -> Any:
    """``cryptography``'s modules a check needs, imported once (an import statement costs each call)."""
    import types

    from cryptography import exceptions
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa, utils

    return types.SimpleNamespace(exceptions=exceptions, hashes=hashes, ec=ec, padding=padding, rsa=rsa, utils=utils)


def _openssl_valid(envelope: Envelope, data: bytes) -> bool:
    public, digest, ecdsa = _public(envelope.key_type, envelope.key)
    c = _primitives()
    try:
        if ecdsa is not None:
            r, at = _field(envelope.sig, 0)
            s, at = _field(envelope.sig, at)
            _ended(envelope.sig, at)
            if r[:1] >= b"\x80" or s[:1] >= b"\x80":  # negative mpints: OpenSSH refuses them, so does ginlog
                return False
            rs = c.utils.encode_dss_signature(int.from_bytes(r, "big"), int.from_bytes(s, "big"))
            public.verify(rs, digest(data).digest(), ecdsa)
        elif isinstance(public, c.rsa.RSAPublicKey):
            h = c.hashes.SHA512() if envelope.sig_algorithm == "rsa-sha2-512" else c.hashes.SHA256()
            public.verify(envelope.sig, data, c.padding.PKCS1v15(), h)
        else:  # pragma: no cover - parse() lets no other key type through
            raise SealError("an unsupported key", rule="seal-algorithm")
    except c.exceptions.InvalidSignature:
        return False
    return True


def verify(envelope: Envelope, message: bytes) -> None:
    """Check that ``envelope``'s key signed ``message`` (rule ``seal-signature`` if not): Ed25519 by
    :func:`ed25519_valid`, ECDSA and RSA by ``cryptography``."""
    data = _signed_data(message, envelope.hash_algorithm)
    if envelope.key_type == "ssh-ed25519":
        good = ed25519_valid(_ed25519_public(envelope.key), envelope.sig, data)
    else:
        good = _openssl_valid(envelope, data)
    if not good:
        raise SealError("the signature does not verify: the seal was not made over this statement by this key"
                        " (forged, or the record changed before it)", rule="seal-signature")


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
