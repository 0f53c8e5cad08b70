"""The club's keys are read as OpenSSH reads them: ginlog's principal matching (patterns ``*`` and ``?``,
negation ``!``, comma lists, quoted principals), ``namespaces`` and ``valid-after``/``valid-before`` give the
same answer as ``ssh-keygen -Y verify`` (with ``-Overify-time=``) on the same allowed_signers line.

One signature is made once (by the test key ``ann_ed25519``); each case is one allowed_signers line, the
name asked for and the seal's time, checked by both. Skipped without ``ssh-keygen``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import load_ssh_private_key
from sealing import KEYS, public_line

from ginlog.app.check.signers import allowed_signers_from
from ginlog.log import sshsig

KEYGEN = shutil.which("ssh-keygen")
pytestmark = pytest.mark.skipif(KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed")

STATEMENT = b"ginlog seal 1\nmatch " + b"0" * 64 + b"\nline 214\nhead " + b"1" * 64 + b"\nat 2026-12-05T21:04:00.000Z\n"
AT = "2026-12-05T21:04:00.000Z"  # the seal's time, as ssh-keygen's -Overify-time gives it below
VERIFY_TIME = "20261205210400Z"

#: (the line's principals and options, the name asked for): patterns, negation, lists, quotes, case.
PRINCIPALS = [
    ("Ann", "Ann"), ("Ann", "ann"), ("Ann", "Bob"), ("*", "Ann"), ("*", "Ann Lee"), ("A?n", "Ann"), ("A?n", "Aann"),
    ("?", "A"), ("*n", "Ann"), ("a*", "Ann"), ("Ann,Bob", "Bob"), ("Ann,Bob", "Cy"), ("*,!Bob", "Ann"),
    ("*,!Bob", "Bob"), ("!Bob,*", "Bob"), ("!Bob,*", "Ann"), ("!Bob", "Ann"), ("B*,!Bo?", "Bob"), ("B*,!Bo?", "Bert"),
    ('"Ann Lee"', "Ann Lee"), ('"Ann Lee"', "Ann"), ('"Ann Lee,B*"', "Bert"), ('"Ann Lee,B*"', "Lee"),
    ("Ann*,Bob", "Annabel"),
]
#: (the options, written before the key): namespaces as patterns, and the times around the seal's.
OPTIONS = [
    'namespaces="ginlog"', 'namespaces="git"', 'namespaces="git,gin*"', 'namespaces="*,!ginlog"',
    'valid-after="20261205"', 'valid-after="20261206"', 'valid-after="20261205210400Z"',
    'valid-after="20261205210401Z"', 'valid-before="20261205210400Z"', 'valid-before="20261205210359Z"',
    'valid-before="20270101"', 'valid-after="20260101Z",valid-before="20261205210500Z"',
    'valid-after="202612052104Z"', 'valid-before="202612052103Z"',
]


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, sshsig.Envelope]:
    d = tmp_path_factory.mktemp("openssh")
    sig = sshsig.sign(load_ssh_private_key((KEYS / "ann_ed25519").read_bytes(), None), STATEMENT)
    (d / "sig").write_text(sig + "\n")
    (d / "statement").write_bytes(STATEMENT)
    return d, d / "sig", sshsig.parse(sig)


def _both(signed: tuple[Path, Path, sshsig.Envelope], line: str, name: str) -> tuple[bool, bool]:
    """Whether ginlog allows the seal for ``name`` under ``line``, and whether ssh-keygen verifies it."""
    d, sig, envelope = signed
    allowed = d / "allowed_signers"
    allowed.write_text(line + "\n")
    try:
        allowed_signers_from(line, "allowed").principal(name, envelope.key_type, envelope.key, AT)
        ours = True
    except sshsig.SealError:
        ours = False
    assert KEYGEN is not None
    done = subprocess.run([KEYGEN, "-Y", "verify", "-n", "ginlog", "-f", str(allowed), "-I", name, "-s", str(sig),
                           f"-Overify-time={VERIFY_TIME}"], input=STATEMENT, capture_output=True, check=False)
    return ours, done.returncode == 0


@pytest.mark.parametrize(("principals", "name"), PRINCIPALS)
def test_principals_match_as_openssh_matches_them(signed: tuple[Path, Path, sshsig.Envelope], principals: str,
                                                  name: str) -> None:
    ours, openssh = _both(signed, f"{principals} {public_line('ann_ed25519')}", name)
    assert ours == openssh, f"{principals!r} for {name!r}: ginlog {ours}, ssh-keygen {openssh}"


@pytest.mark.parametrize("options", OPTIONS)
def test_namespaces_and_times_hold_as_openssh_holds_them(signed: tuple[Path, Path, sshsig.Envelope],
                                                         options: str) -> None:
    ours, openssh = _both(signed, f"Ann {options} {public_line('ann_ed25519')}", "Ann")
    assert ours == openssh, f"{options!r}: ginlog {ours}, ssh-keygen {openssh}"


def test_the_cases_are_not_all_one_answer(signed: tuple[Path, Path, sshsig.Envelope]) -> None:
    """(A comparison where both always say yes, or always no, would prove nothing.)"""
    answers = {_both(signed, f"{p} {public_line('ann_ed25519')}", n)[1] for p, n in PRINCIPALS[:3]}
    assert answers == {True, False}
