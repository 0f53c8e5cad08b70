"""Seals read and checked inside the one reading (``ginlog.match.seals``), and what the audit says of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (Encoding, NoEncryption, PrivateFormat, PublicFormat,
                                                          load_ssh_private_key)
from sealing import ED_L, KEYS, ed_scalar, finished_match, public_line, seal
from test_cli import exe

from ginlog.app.check.audit import audit_file
from ginlog.app.check.signers import allowed_signers_from
from ginlog.game.rules import preset
from ginlog.log import sshsig
from ginlog.errors import GinlogError
from ginlog.log import writer
from ginlog.log.events import CardDrawn, Correction, Note, Seal, event_item
from ginlog.match.reading import FinalState, read
from ginlog.match.session import MatchSession
from ginlog.play.simulate import simulate_match


def club(tmp_path: Path, ann: str = "ann_ed25519", bob: str = "bob_ecdsa") -> Path:
    path = tmp_path / "allowed_signers"
    path.write_text(f"# the club\nAnn {public_line(ann)} ann@club\n"
                    f'Bob namespaces="git,ginlog" {public_line(bob)}\n')
    return path


def forged(path: Path, key: str = "ann_ed25519", **changes: Any) -> None:
    """Append a seal of ``path``'s head as it stands, signed properly, then ``changes`` made to its fields."""
    v = FinalState()
    read(str(path), v)
    private = load_ssh_private_key((KEYS / key).read_bytes(), None)
    at = "2026-12-05T21:04:00.000Z"
    assert v.seals.first is not None and v.seals.head is not None
    sig = sshsig.sign(private, sshsig.statement(v.seals.first, v.seals.head, v.seals.last, at))
    fp = sshsig.fingerprint(sshsig.parse(sig).key)
    s = Seal(player="Ann", seat=0, fingerprint=fp, line=v.seals.last, head=v.seals.head, at=at, signature=sig)
    s = attrs.evolve(s, **changes)
    # appended by the store itself, not a session: a session reads the file first, and it may hold a bad seal
    writer.append_many(path, [event_item(s)], expect=len(path.read_bytes().splitlines()), ts=at)


def rules_of(path: Path, **kw: Any) -> list[str]:
    return [e["rule"] for e in audit_file(str(path), **kw).errors]


def test_two_players_seal_one_head_and_the_audit_names_them(tmp_path: Path) -> None:
    m = finished_match(tmp_path / "m.jsonl")
    a = seal(m, "ann_ed25519", "Ann")
    b = seal(m, "bob_ecdsa", "bob")  # any case, or a unique start: as at the table
    assert a.seal.line == b.seal.line == a.lineno - 1 and b.lineno == a.lineno + 1  # the same head, whatever the order
    signed = audit_file(str(m))
    assert signed.ok and not signed.warnings
    assert signed.sealed == (f"signed by key {a.seal.fingerprint}, {b.seal.fingerprint} at event {a.seal.line},"
                             " not checked against a club's keys")
    keyring = allowed_signers_from(club(tmp_path).read_text(), "allowed_signers")
    sealed = audit_file(str(m), keyring=keyring, require="all")
    assert sealed.ok, sealed.errors
    assert sealed.sealed == f"sealed by Ann and Bob at event {a.seal.line}"
    assert [(c.player, c.principal, c.verdict) for c in sealed.seals] == [("Ann", "Ann", "sealed"), ("Bob", "Bob", "sealed")]


def test_a_seal_after_more_play_seals_the_new_head_and_what_follows_is_unsealed(tmp_path: Path) -> None:
    events = list(simulate_match(preset("standard"), seed=3))
    hand_two = next(i for i, e in enumerate(events) if type(e).__name__ == "HandDealt" and i > 5)
    m = tmp_path / "m.jsonl"
    MatchSession.write(m, events[:hand_two])  # between hands
    first = seal(m, "ann_ed25519", "Ann")
    session = MatchSession.open(m)
    session.append([Note(text="coffee")])
    keyring = allowed_signers_from(club(tmp_path).read_text(), "a")
    r = audit_file(str(m), keyring=keyring)
    assert r.ok and [w["rule"] for w in r.warnings] == ["unsealed-lines"]
    assert audit_file(str(m)).warnings == ()  # no policy: no seal warning
    second = seal(m, "ann_ed25519", "Ann")
    assert second.seal.line == first.lineno + 1  # the note's line: seals are skipped, notes are not
    assert audit_file(str(m), keyring=keyring).warnings == ()
    assert rules_of(m, keyring=keyring, require="all") == ["seals-required"]  # Bob never sealed


def test_a_file_without_seals_warns_only_under_a_policy(tmp_path: Path) -> None:
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    assert audit_file(str(m)).warnings == ()
    keyring = allowed_signers_from(club(tmp_path).read_text(), "a")
    assert [w["rule"] for w in audit_file(str(m), keyring=keyring).warnings] == ["unsealed"]
    assert rules_of(m, require="any") == ["seals-required"]


@pytest.mark.parametrize(("changes", "rule"), [
    ({"at": "2026-12-05T21:04:01.000Z"}, "seal-signature"),  # the signed time changed: forged
    ({"line": 3}, "seal-moved"),
    ({"head": "f" * 64}, "seal-head"),
    ({"seat": 1}, "seal-player"),
    ({"fingerprint": "SHA256:" + "A" * 43}, "seal-key"),
])
def test_a_seal_that_is_not_what_it_says_is_an_error_with_its_rule(tmp_path: Path, changes: dict[str, Any],
                                                                   rule: str) -> None:
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    forged(m, **changes)
    assert rules_of(m) == [rule]


def test_a_seal_inside_a_hand_a_duplicate_and_another_file_s_seal_are_refused(tmp_path: Path) -> None:
    events = list(simulate_match(preset("standard"), seed=3, max_hands=1))
    mid = next(i for i, e in enumerate(events) if isinstance(e, CardDrawn)) + 1
    m = tmp_path / "m.jsonl"
    MatchSession.write(m, events[:mid])
    forged(m)
    assert rules_of(m) == ["seal-in-hand"]
    d = finished_match(tmp_path / "d.jsonl", hands=1)
    seal(d, "ann_ed25519", "Ann")
    line = d.read_bytes().splitlines()[-1]
    forged(d)  # the same key, the same head
    assert rules_of(d) == ["seal-duplicate"]
    other = finished_match(tmp_path / "o.jsonl", seed=4, hands=1)
    body = json.loads(line)
    fields = {k: v for k, v in body.items() if k not in ("seq", "ts", "type", "v", "prev")}
    fields["line"] = len(other.read_bytes().splitlines())
    forged(other, **fields)  # another file's seal, renumbered to this file's last line
    assert rules_of(other) == ["seal-head"]


def test_a_key_the_club_does_not_allow_for_that_name_is_refused(tmp_path: Path) -> None:
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    seal(m, "bob_ecdsa", "Ann")  # Bob's key, sealing as Ann
    keyring = allowed_signers_from(club(tmp_path).read_text(), "a")
    assert rules_of(m, keyring=keyring) == ["seal-signer"]
    late = allowed_signers_from(f'Ann valid-after="29990101" {public_line("bob_ecdsa")}', "late")
    assert rules_of(m, keyring=late) == ["seal-signer"]
    other = allowed_signers_from(f'Ann namespaces="git" {public_line("bob_ecdsa")}', "git-only")
    assert rules_of(m, keyring=other) == ["seal-signer"]
    assert rules_of(m) == []  # without the club's keys, only the signature is checked


def test_a_seal_by_a_key_with_no_secret_is_refused_whichever_library_checks(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The Ed25519 key 01 00..00 is the identity: R = [S]B signs any statement for it, and OpenSSL's equation
    (as OpenSSH's) takes that. The audit refuses it, with libsodium or OpenSSL checking (ginlog said "signed")."""
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    ann = load_ssh_private_key((KEYS / "ann_ed25519").read_bytes(), None)
    assert isinstance(ann, Ed25519PrivateKey)
    r = ann.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)  # = [a]B, so S = a
    s = ed_scalar(ann.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())) % ED_L

    def string(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    key = string(b"ssh-ed25519") + string((1).to_bytes(32, "little"))
    sig = sshsig.armor(b"SSHSIG" + (1).to_bytes(4, "big") + string(key) + string(b"ginlog") + string(b"")
                       + string(b"sha512") + string(string(b"ssh-ed25519") + string(r + s.to_bytes(32, "little"))))
    forged(m, signature=sig, fingerprint=sshsig.fingerprint(key))
    for backend, equation in sshsig.ed25519_backends().items():
        monkeypatch.setattr(sshsig, "_backend", lambda b=backend, e=equation: (b, e))
        assert rules_of(m) == ["seal-signature"], backend


def test_each_reading_parses_and_checks_each_seal_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of a seal's check is kept from one reading to the next (a warm process re-reading a file, as the
    cost benchmark does, pays for each seal each time): its envelope is parsed once a reading, its signature
    checked once a reading."""
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    seal(m, "ann_ed25519", "Ann")
    name, equation = sshsig._backend()
    calls = {"parse": 0, "check": 0}
    real_parse = sshsig._parse

    def parse(text: str) -> sshsig.Envelope:
        calls["parse"] += 1
        return real_parse(text)

    def check(public: bytes, sig: bytes, data: bytes) -> bool:
        calls["check"] += 1
        return equation(public, sig, data)

    monkeypatch.setattr(sshsig, "_parse", parse)
    monkeypatch.setattr(sshsig, "_backend", lambda: (name, check))
    assert audit_file(str(m)).ok  # (the sealing, in this process, may have left its envelope for this one)
    calls.update(parse=0, check=0)
    for n in (1, 2, 3):
        assert audit_file(str(m)).ok
        assert calls == {"parse": n, "check": n}


def test_undo_never_undoes_a_seal(tmp_path: Path) -> None:
    events = list(simulate_match(preset("standard"), seed=3))
    hand_two = next(i for i, e in enumerate(events) if type(e).__name__ == "HandDealt" and i > 5)
    m = tmp_path / "m.jsonl"
    MatchSession.write(m, events[:hand_two])  # between hands: the last line is event hand_two
    seal(m, "ann_ed25519", "Ann")
    session = MatchSession.open(m)
    with pytest.raises(GinlogError):
        session.append([Correction(undoes=hand_two + 1)])  # the seal's seq: not an effective event
    session.append([Correction(undoes=hand_two)])  # undo takes back the move before the seal
    r = audit_file(str(m), keyring=allowed_signers_from(club(tmp_path).read_text(), "a"))
    assert r.ok and [w["rule"] for w in r.warnings] == ["unsealed-lines"]  # the correction comes after the seal


def test_the_command_line_seals_audits_and_scores(tmp_path: Path) -> None:
    m = finished_match(tmp_path / "m.jsonl", hands=1)
    signers = club(tmp_path)
    out = exe("seal", m, "--key", KEYS / "evil_ed25519", "--as", "Ann")  # a comment with escape codes: never shown
    assert out.returncode == 0, out.stderr
    assert "signed by key SHA256:" in out.stdout
    bad = exe("audit", m, "--allowed-signers", signers, "--json")
    assert bad.returncode == 1
    seal_json = json.loads(bad.stdout)["files"][0]["seals"][0]
    assert seal_json["rule"] == "seal-signer" and seal_json["verdict"] == "refused"
    assert seal_json["statement"].startswith("ginlog seal 1\nmatch ") and "BEGIN SSH SIGNATURE" in seal_json["signature"]
    m2 = finished_match(tmp_path / "m2.jsonl", hands=1)
    assert exe("seal", m2, "--key", KEYS / "ann_ed25519", "--as", "Ann").returncode == 0
    ok = exe("audit", m2, "--allowed-signers", signers)
    assert ok.returncode == 0 and f"{m2}: sealed by Ann at event" in ok.stdout
    need = exe("audit", m2, "--allowed-signers", signers, "--require-seals", "all")
    assert need.returncode == 1 and "[seals-required]" in need.stderr
    assert exe("audit", m2, "--require-seals", "some").returncode == 2
    score = exe("score", m2)
    assert score.returncode == 0 and "signed by key SHA256:" in score.stdout


def test_html_and_the_site_name_who_sealed_under_the_clubs_keys(tmp_path: Path) -> None:
    """``ginlog html M -o P --allowed-signers FILE`` and ``html DIR -o SITE --allowed-signers FILE``: the page and
    the index say "sealed by" (without the keys: which keys signed, never a person)."""
    from ginlog.app.cli import data as cli_data

    club_dir = tmp_path / "club"
    club_dir.mkdir()
    m = finished_match(club_dir / "m.jsonl")
    a = seal(m, "ann_ed25519", "Ann")
    seal(m, "bob_ecdsa", "Bob")
    signers = club(tmp_path)
    assert cli_data.html(str(m), str(tmp_path / "keyless.html")) == 0
    assert "not checked against a club" in (tmp_path / "keyless.html").read_text(encoding="utf-8")
    assert cli_data.html(str(m), str(tmp_path / "p.html"), allowed_signers=str(signers)) == 0
    assert f"sealed by Ann and Bob at event {a.seal.line}" in (tmp_path / "p.html").read_text(encoding="utf-8")
    assert cli_data.html(str(club_dir), str(tmp_path / "site"), allowed_signers=str(signers)) == 0
    assert "sealed by Ann and Bob" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
