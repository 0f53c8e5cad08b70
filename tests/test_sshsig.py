"""The SSHSIG envelope (``ginlog.log.sshsig``) against OpenSSH itself: ginlog's signatures verify with
``ssh-keygen -Y verify``, and ``ssh-keygen -Y sign``'s verify in ginlog, for Ed25519, ECDSA and RSA keys."""

from __future__ import annotations

import base64
import contextlib
import re
import shutil
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import (Encoding, NoEncryption, PrivateFormat, PublicFormat,
                                                          load_ssh_private_key)
from benchmarking import loaded
from sealing import (ED_B, ED_L, ED_P, EXAMPLE_SEAL, KEYS, ed_add, ed_challenge, ed_encode, ed_mul, ed_point, ed_scalar,
                     private_copy, public_line, small_order_encodings)

from ginlog.log import sshsig

KEYGEN = shutil.which("ssh-keygen")
needs_keygen = pytest.mark.skipif(KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed")
STATEMENT = sshsig.statement("a" * 64, "b" * 64, 214, "2026-12-05T21:04:00.000Z")
KEYS_USED = ["ann_ed25519", "bob_ecdsa", "cy_rsa"]


def private(key: str) -> object:
    return load_ssh_private_key((KEYS / key).read_bytes(), None)


@needs_keygen
@pytest.mark.parametrize("key", KEYS_USED)
def test_openssh_verifies_what_ginlog_signs(key: str, tmp_path: Path) -> None:
    sig = tmp_path / "sig"
    sig.write_text(sshsig.sign(private(key), STATEMENT) + "\n")
    allowed = tmp_path / "allowed"
    allowed.write_text(f'"Ann Lee" namespaces="ginlog" {public_line(key)}\n')
    assert KEYGEN is not None
    done = subprocess.run([KEYGEN, "-Y", "verify", "-n", "ginlog", "-f", str(allowed), "-I", "Ann Lee", "-s", str(sig)],
                          input=STATEMENT, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert b'Good "ginlog" signature for Ann Lee' in done.stdout
    done = subprocess.run([KEYGEN, "-Y", "verify", "-n", "ginlog", "-f", str(allowed), "-I", "Ann Lee", "-s", str(sig)],
                          input=STATEMENT + b"x", capture_output=True, check=False)
    assert done.returncode != 0  # and OpenSSH refuses another statement, as ginlog does


@needs_keygen
@pytest.mark.parametrize("key", KEYS_USED)
def test_ginlog_verifies_what_openssh_signs(key: str, tmp_path: Path) -> None:
    assert KEYGEN is not None
    done = subprocess.run([KEYGEN, "-q", "-Y", "sign", "-n", "ginlog", "-f", str(private_copy(key, tmp_path))],
                          input=STATEMENT, capture_output=True, check=True)
    envelope = sshsig.parse(done.stdout.decode())
    sshsig.verify(envelope, STATEMENT)
    assert sshsig.fingerprint(envelope.key) in subprocess.run(
        [KEYGEN, "-lf", str(KEYS / f"{key}.pub")], capture_output=True, text=True, check=True).stdout
    with pytest.raises(sshsig.SealError) as err:
        sshsig.verify(envelope, STATEMENT.replace(b"214", b"215"))
    assert err.value.rule == "seal-signature"


@needs_keygen
def test_another_namespace_is_refused(tmp_path: Path) -> None:
    assert KEYGEN is not None
    done = subprocess.run([KEYGEN, "-q", "-Y", "sign", "-n", "git", "-f", str(private_copy("ann_ed25519", tmp_path))],
                          input=STATEMENT, capture_output=True, check=True)
    with pytest.raises(sshsig.SealError) as err:
        sshsig.parse(done.stdout.decode())
    assert err.value.rule == "seal-namespace"


def _s(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def _blob(key_type: bytes, sig_type: bytes, namespace: bytes = b"ginlog", hash_: bytes = b"sha512",
          key: bytes | None = None, after: bytes = b"") -> str:
    key = _s(key_type) + _s(b"k" * 32) if key is None else key
    return sshsig.armor(b"SSHSIG" + struct.pack(">I", 1) + _s(key) + _s(namespace) + _s(b"")
                        + _s(hash_) + _s(_s(sig_type) + _s(b"x" * 64) + after))


MALFORMED = [
    ("", "seal-armor"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----", "seal-armor"),  # truncated
    ("-----BEGIN SSH SIGNATURE-----\n%%%%\n-----END SSH SIGNATURE-----", "seal-armor"),  # not base64
    ("-----BEGIN SSH SIGNATURE-----\n" + "QUFB\n" * 3000 + "-----END SSH SIGNATURE-----", "seal-armor"),  # huge
    (_blob(b"sk-ssh-ed25519@openssh.com", b"sk-ssh-ed25519@openssh.com"), "seal-algorithm"),  # FIDO: refused
    (_blob(b"ssh-dss", b"ssh-dss"), "seal-algorithm"),
    (_blob(b"ssh-ed25519", b"rsa-sha2-512"), "seal-algorithm"),  # the signature's algorithm is not the key's
    (_blob(b"ssh-ed25519", b"ssh-ed25519", hash_=b"md5"), "seal-algorithm"),
    (_blob(b"ssh-ed25519", b"ssh-ed25519", namespace=b"file"), "seal-namespace"),
    (_blob(b"ssh-ed25519", b"ssh-ed25519", after=b"\0\0\0\0"), "seal-armor"),  # bytes after the signature
    (_blob(b"ssh-ed25519", b"ssh-ed25519", key=struct.pack(">I", 19) + b"ssh-ed25519"), "seal-armor"),  # key cut short
]


@pytest.mark.parametrize(("text", "rule"), MALFORMED)
def test_a_malformed_signature_is_one_error_with_its_rule(text: str, rule: str) -> None:
    with pytest.raises(sshsig.SealError) as err:
        sshsig.verify(sshsig.parse(text), STATEMENT)
    assert err.value.rule == rule
    assert "\n" not in err.value.message and len(err.value.message) < 200


def test_the_fingerprint_is_openssh_s() -> None:
    kind, b64 = public_line("ann_ed25519").split()
    assert sshsig.fingerprint(base64.b64decode(b64)) == "SHA256:jSEUu2xIPAXwmBcErwpK7iJsqilx/0ny0XFInOtdmoQ"
    assert kind == "ssh-ed25519"


# --------------------------------------------------------------------------- Ed25519: one verdict, whichever library

BACKENDS = sorted(sshsig.ed25519_backends())
#: Ann's key, as the vectors sign with it: its seed, secret scalar and public key.
def _ed25519_key(name: str) -> Ed25519PrivateKey:
    key = load_ssh_private_key((KEYS / name).read_bytes(), None)
    assert isinstance(key, Ed25519PrivateKey)
    return key


_ANN = _ed25519_key("ann_ed25519")
_SEED = _ANN.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
_A = _ANN.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
_a = ed_scalar(_SEED)
DATA = sshsig._signed_data(STATEMENT, "sha512")


def _le(n: int) -> bytes:
    return n.to_bytes(32, "little")


def _message_where(r: bytes, public: bytes, order: int) -> bytes:
    """DATA with a suffix that makes the challenge a multiple of ``order`` (so [k] kills a torsion part)."""
    n = 0
    while ed_challenge(r, public, DATA + b"%d" % n) % order:
        n += 1
    return DATA + b"%d" % n


def _vectors() -> list[tuple[str, bytes, bytes, bytes, bool]]:
    """(what, key, signature, data, ginlog's verdict): honest signatures, and those no honest signer makes."""
    sig = _ANN.sign(DATA)
    s = int.from_bytes(sig[32:], "little")
    out = [("honest", _A, sig, DATA, True), ("another message", _A, sig, DATA + b"x", False),
           ("S + L", _A, sig[:32] + _le(s + ED_L), DATA, False),  # (OpenSSH's own code takes it: docs/DESIGN.md)
           ("short", _A, sig[:63], DATA, False), ("long", _A, sig + b"\0", DATA, False), ("empty", _A, b"", DATA, False)]
    for t in small_order_encodings():
        # a key of small order has no secret: R = A (= [a]B) and S = a make [S]B = R + [k]T whenever 8 divides k
        data = _message_where(_A, t, 8)
        out.append((f"key of small order {t.hex()[:8]}..{t.hex()[-2:]}", t, _A + _le(_a % ED_L), data, False))
        # R of small order: [S]B - [k]A with S = k a is the identity, which only R = 01 00.. encodes as it is
        out.append((f"R of small order {t.hex()[:8]}..{t.hex()[-2:]}", _A, t + _le(ed_challenge(t, _A, DATA) * _a % ED_L),
                    DATA, False))
    # a key with a torsion part (A + T8): a signer who knows a signs for it when 8 divides k (cofactorless)
    t8 = ed_point(int.from_bytes(small_order_encodings()[4], "little") & (2**255 - 1), 0)
    a_point = ed_point(int.from_bytes(_A, "little") & (2**255 - 1), _A[31] >> 7)
    assert t8 is not None and a_point is not None
    mixed = ed_encode(ed_add(a_point, t8))
    r = 12345
    rb = ed_encode(ed_mul(r, ED_B))
    data = _message_where(rb, mixed, 8)
    out.append(("key with a torsion part", mixed, rb + _le((r + ed_challenge(rb, mixed, data) * _a) % ED_L), data, True))
    # R with a torsion part: a cofactored check takes it, a cofactorless one (both libraries') does not
    rt = ed_encode(ed_add(ed_mul(r, ED_B), t8))
    out.append(("R with a torsion part", _A, rt + _le((r + ed_challenge(rt, _A, DATA) * _a) % ED_L), DATA, False))
    for y in range(2, 19):  # y + p: keys not reduced (whoever made them cannot sign: no verdict differs)
        out.append((f"key y + p, y = {y}", _le(y + ED_P), sig, DATA, False))
    return out


VECTORS = _vectors()


@pytest.mark.parametrize("backend", BACKENDS)
def test_ed25519_verdicts_are_ginlog_s_whichever_library_checks(backend: str) -> None:
    equation = sshsig.ed25519_backends()[backend]
    got = {what: sshsig.ed25519_valid(key, sig, data, equation) for what, key, sig, data, _ in VECTORS}
    assert got == {what: verdict for what, _, _, _, verdict in VECTORS}


def test_the_libraries_differ_only_where_ginlog_s_rules_decide() -> None:
    """libsodium refuses keys of small order and R = identity, OpenSSL takes them: ginlog's rules refuse them
    before either computes anything (if a library changes its mind, this says where)."""
    if BACKENDS != ["libsodium", "openssl"]:
        pytest.skip("needs both PyNaCl and cryptography (the seal extra)")
    both = sshsig.ed25519_backends()
    differ = {what: {name: eq(key, sig, data) for name, eq in both.items()}
              for what, key, sig, data, _ in VECTORS if len({eq(key, sig, data) for eq in both.values()}) > 1}
    assert set(differ) == {w for w, *_ in VECTORS if w.startswith("key of small order")} | {"R of small order 01000000..00"}
    assert all(v == {"libsodium": False, "openssl": True} for v in differ.values())


@needs_keygen
def test_seals_made_by_ginlog_and_by_openssh_verify_with_each_library(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert KEYGEN is not None
    done = subprocess.run([KEYGEN, "-q", "-Y", "sign", "-n", "ginlog", "-f", str(private_copy("ann_ed25519", tmp_path))],
                          input=STATEMENT, capture_output=True, check=True)
    made = {"openssh": sshsig.parse(done.stdout.decode()), "ginlog": sshsig.parse(sshsig.sign(_ANN, STATEMENT))}
    for backend, equation in sshsig.ed25519_backends().items():
        monkeypatch.setattr(sshsig, "_backend", lambda b=backend, e=equation: (b, e))
        for envelope in made.values():
            sshsig.verify(envelope, STATEMENT)
            with pytest.raises(sshsig.SealError) as err:
                sshsig.verify(envelope, STATEMENT.replace(b"214", b"215"))
            assert err.value.rule == "seal-signature"


def test_the_usual_envelope_read_by_slices_is_the_one_read_field_by_field() -> None:
    """``_usual`` (slices) gives what ``_parse_blob`` (field by field) gives, or leaves the blob to it: on real
    blobs, every byte of them changed, every cut, and the malformed blobs above."""
    blobs = [sshsig.dearmor(sshsig.sign(private(key), STATEMENT)) for key in KEYS_USED]
    blobs.append(sshsig.dearmor(EXAMPLE_SEAL["signature"]))
    for blob in blobs:
        assert sshsig._usual(blob) == sshsig._parse_blob(blob)
    spoilt = [blob[:n] for blob in blobs for n in range(len(blob))] + [blob + b"\0" for blob in blobs]
    spoilt += [blob[:i] + bytes((blob[i] ^ x,)) + blob[i + 1:] for blob in blobs for i in range(min(len(blob), 160))
               for x in (1, 0x80)]
    for text, _ in MALFORMED:
        with contextlib.suppress(sshsig.SealError):
            spoilt.append(sshsig.dearmor(text))
    for blob in spoilt:
        fast = sshsig._usual(blob)
        if fast is not None:
            assert fast == sshsig._parse_blob(blob)
        else:
            with contextlib.suppress(sshsig.SealError):
                sshsig._parse_blob(blob)


def _crafted() -> dict[str, tuple[str, str, str]]:
    """Signatures of STATEMENT changed or made by hand: (armored, the key's type, the key's base64)."""
    def armored(key: bytes, algorithm: bytes, sig: bytes, after: bytes = b"") -> str:
        return sshsig.armor(b"SSHSIG" + struct.pack(">I", 1) + _s(key) + _s(b"ginlog") + _s(b"") + _s(b"sha512")
                            + _s(_s(algorithm) + _s(sig) + after))

    kind, key = sshsig.public_blob(_ANN)
    sig = sshsig.parse(sshsig.sign(_ANN, STATEMENT)).sig
    s = int.from_bytes(sig[32:], "little")
    identity = _le(1)
    no_secret = _s(b"ssh-ed25519") + _s(identity)
    out = {
        "ed25519": (armored(key, b"ssh-ed25519", sig), kind, key),
        "ed25519, bytes after the signature": (armored(key, b"ssh-ed25519", sig, b"\0\0\0\0"), kind, key),
        "ed25519, S + L": (armored(key, b"ssh-ed25519", sig[:32] + _le(s + ED_L)), kind, key),
        "ed25519, R the identity": (armored(key, b"ssh-ed25519", identity + _le(ed_challenge(identity, _A, DATA) * _a % ED_L)),
                                    kind, key),
        "ed25519, the key the identity": (armored(no_secret, b"ssh-ed25519", _A + _le(_a % ED_L)), kind, no_secret),
    }
    bob = private("bob_ecdsa")
    kind, key = sshsig.public_blob(bob)
    for _ in range(64):  # an r whose top bit is set, so written with a zero before it
        sig = sshsig.parse(sshsig.sign(bob, STATEMENT)).sig
        r, at = sshsig._field(sig, 0)
        if r[0] == 0:
            break
    s_ = sshsig._field(sig, at)[0]
    out |= {
        "ecdsa": (armored(key, kind.encode(), sig), kind, key),
        "ecdsa, bytes after r and s": (armored(key, kind.encode(), sig + b"\0\0\0\0"), kind, key),
        "ecdsa, r negative (its zero dropped)": (armored(key, kind.encode(), _s(r[1:]) + _s(s_)), kind, key),
        "ecdsa, r with a zero more": (armored(key, kind.encode(), _s(b"\0" + r) + _s(s_)), kind, key),
    }
    return {what: (text, k, base64.b64encode(b).decode()) for what, (text, k, b) in out.items()}


@needs_keygen
def test_ginlog_takes_no_signature_openssh_refuses(tmp_path: Path) -> None:
    """Against ``ssh-keygen -Y verify``: what ginlog takes, OpenSSH takes; what OpenSSH refuses, ginlog refuses;
    and ginlog refuses more (Ed25519's S not reduced, R or the key of small order, which OpenSSH's code takes)."""
    assert KEYGEN is not None
    verdicts = {}
    for what, (text, kind, b64) in _crafted().items():
        (tmp_path / "sig").write_text(text + "\n")
        (tmp_path / "allowed").write_text(f"ann {kind} {b64}\n")
        openssh = subprocess.run([KEYGEN, "-Y", "verify", "-n", "ginlog", "-f", str(tmp_path / "allowed"), "-I", "ann",
                                  "-s", str(tmp_path / "sig")], input=STATEMENT, capture_output=True, check=False)
        try:
            sshsig.verify(sshsig.parse(text), STATEMENT)
            ours = "takes"
        except sshsig.SealError as err:
            ours = err.rule
        verdicts[what] = (openssh.returncode == 0, ours)
    assert all(openssh for openssh, ours in verdicts.values() if ours == "takes"), verdicts
    assert {what: ours for what, (_, ours) in verdicts.items()} == {
        "ed25519": "takes", "ed25519, bytes after the signature": "seal-armor", "ed25519, S + L": "seal-signature",
        "ed25519, R the identity": "seal-signature", "ed25519, the key the identity": "seal-signature",
        "ecdsa": "takes", "ecdsa, bytes after r and s": "seal-armor", "ecdsa, r negative (its zero dropped)": "seal-signature",
        "ecdsa, r with a zero more": "takes",  # (as OpenSSH: an ECDSA signature has other forms, as (r, n - s))
    }


@pytest.fixture
def bench_seals() -> Iterator[ModuleType]:
    yield from loaded("bench_seals")


def test_the_cost_benchmark_runs_small_and_prints_its_figures(bench_seals: ModuleType,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/bench_seals.py`` end to end on a tiny match (no timing asserted: only that each figure is
    printed, and that the check it times is the backend's, the primitive under it each library's)."""
    assert bench_seals.main(["--events", "20", "--rounds", "1", "--reads", "1"]) == 0
    out = capsys.readouterr().out
    assert f"Ed25519 checked by {sshsig.ed25519_backend()}" in out
    for label in ("one Ed25519 seal", "one ECDSA P-256 seal"):
        assert re.search(rf"^{label}: [\d.]+ ms a file, -?\d+ µs the seal: [\d.]+ ×; the rounds' medians: -?\d+ µs"
                         r" the seal, [\d.]+ ×$", out, re.M), out
    assert len(re.findall(r"^    of which ginlog's own work -?\d+ µs .* and the check -?\d+ µs .*, of which \S+"
                          r" (ed25519|ecdsa) \d+ µs$", out, re.M)) == 2, out
    assert all(f"{backend} ed25519" in out for backend in BACKENDS) and "openssl ecdsa" in out
    if sshsig.ed25519_backend() == "libsodium":  # the second library's worth, in the same run
        assert re.search(r"^one Ed25519 seal checked by openssl instead \(as without PyNaCl\): [\d.]+ ms a file", out, re.M)
    assert re.search(r"^the parts, in a tight loop: the envelope's parse [\d.]+ µs \(Ed25519\), [\d.]+ µs \(ECDSA\);"
                     r" a seal's principal among a club's keys [\d.]+ µs$", out, re.M), out
    assert re.search(r"^target: a seal adds at most 10%: (MET|MISSED) by the best rounds \([\d., ]+ ×\);"
                     r" (MET|MISSED) by the rounds' medians \([\d., ]+ ×\)$", out, re.M), out


@pytest.mark.parametrize("curve", ["SECP256R1", "SECP384R1", "SECP521R1"])
def test_each_ecdsa_curve_signs_with_its_own_hash_and_verifies(curve: str) -> None:
    """RFC 5656: P-256 signs with SHA-256, P-384 with SHA-384, P-521 with SHA-512 (the check hashes the data
    itself and gives OpenSSL the hash): ginlog's own signatures verify, and no other statement."""
    key = ec.generate_private_key(getattr(ec, curve)())
    envelope = sshsig.parse(sshsig.sign(key, STATEMENT))
    sshsig.verify(envelope, STATEMENT)
    with pytest.raises(sshsig.SealError) as err:
        sshsig.verify(envelope, STATEMENT + b"\n")
    assert err.value.rule == "seal-signature"
    r, at = sshsig._field(envelope.sig, 0)
    s = sshsig._field(envelope.sig, at)[0]
    h = {"SECP256R1": hashes.SHA256(), "SECP384R1": hashes.SHA384(), "SECP521R1": hashes.SHA512()}[curve]
    key.public_key().verify(encode_dss_signature(int.from_bytes(r, "big"), int.from_bytes(s, "big")),
                            sshsig._signed_data(STATEMENT, "sha512"), ec.ECDSA(h))  # the curve's own hash


@pytest.mark.slow  # (two more interpreters and a git archive: about a CPU-second)
def test_the_cost_benchmark_compares_against_a_revision(bench_seals: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("git") is None or not (Path(__file__).parents[1] / ".git").exists():
        pytest.skip("the benchmark takes the revision before from git")
    assert bench_seals.main(["--events", "20", "--rounds", "2", "--reads", "1", "--base", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^against [0-9a-f]{12} \(.*\): unsealed [\d.]+ → [\d.]+ ms a file; one Ed25519 seal [\d.]+ → [\d.]+ ×;"
                     r" one ECDSA P-256 seal [\d.]+ → [\d.]+ ×$", out, re.M), out
