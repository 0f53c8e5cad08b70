"""The SSHSIG envelope (``ginlog.log.sshsig``) against OpenSSH itself: ginlog's signatures verify with
``ssh-keygen -Y verify``, and ``ssh-keygen -Y sign``'s verify in ginlog, for Ed25519, ECDSA and RSA keys."""

from __future__ import annotations

import base64
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import load_ssh_private_key
from sealing import KEYS, private_copy, public_line

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


def _blob(key_type: bytes, sig_type: bytes, namespace: bytes = b"ginlog", hash_: bytes = b"sha512") -> str:
    def s(b: bytes) -> bytes:
        return struct.pack(">I", len(b)) + b

    return sshsig.armor(b"SSHSIG" + struct.pack(">I", 1) + s(s(key_type) + s(b"k" * 32)) + s(namespace) + s(b"")
                        + s(hash_) + s(s(sig_type) + s(b"x" * 64)))


@pytest.mark.parametrize(("text", "rule"), [
    ("", "seal-armor"),
    ("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----", "seal-armor"),  # truncated
    ("-----BEGIN SSH SIGNATURE-----\n%%%%\n-----END SSH SIGNATURE-----", "seal-armor"),  # not base64
    ("-----BEGIN SSH SIGNATURE-----\n" + "QUFB\n" * 3000 + "-----END SSH SIGNATURE-----", "seal-armor"),  # huge
    (_blob(b"sk-ssh-ed25519@openssh.com", b"sk-ssh-ed25519@openssh.com"), "seal-algorithm"),  # FIDO: refused
    (_blob(b"ssh-dss", b"ssh-dss"), "seal-algorithm"),
    (_blob(b"ssh-ed25519", b"rsa-sha2-512"), "seal-algorithm"),  # the signature's algorithm is not the key's
    (_blob(b"ssh-ed25519", b"ssh-ed25519", hash_=b"md5"), "seal-algorithm"),
    (_blob(b"ssh-ed25519", b"ssh-ed25519", namespace=b"file"), "seal-namespace"),
])
def test_a_malformed_signature_is_one_error_with_its_rule(text: str, rule: str) -> None:
    with pytest.raises(sshsig.SealError) as err:
        sshsig.verify(sshsig.parse(text), STATEMENT)
    assert err.value.rule == rule
    assert "\n" not in err.value.message and len(err.value.message) < 200


def test_the_fingerprint_is_openssh_s() -> None:
    kind, b64 = public_line("ann_ed25519").split()
    assert sshsig.fingerprint(base64.b64decode(b64)) == "SHA256:jSEUu2xIPAXwmBcErwpK7iJsqilx/0ny0XFInOtdmoQ"
    assert kind == "ssh-ed25519"
