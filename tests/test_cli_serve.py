"""``ginlog serve`` as a user runs it: the address and QR code printed, the join link working, Ctrl-C (exit 130)
keeping the token for a restart; usage slips are one line and exit 2; without the extra, one line saying how to
install it; and nothing of Starlette, uvicorn or segno is imported by any other command.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ginlog.app.cli import build_app
from ginlog.app.serve.tokens import token_path

from forked import spawn_forked
from serving import interrupted, new_match
from test_sources import in_fork

GINLOG = str(Path(sys.executable).parent / "ginlog")
SERVED = ("starlette", "uvicorn", "segno")


APP = build_app()


def slip(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(APP, ["serve", *args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def test_usage_slips_are_one_line_and_exit_2(tmp_path: Path) -> None:
    m = str(new_match(tmp_path / "m.jsonl"))
    for args, said in [
        ((), "name the match files to serve"),
        ((m, "--lan", "--host", "0.0.0.0"), "give --lan or --host, not both"),
        ((m, "--player", "Ann"), "go with --new"),
        ((m, m), "is named twice"),
        (("--new", m, "-p", "Ann", "-p", "Bob"), "the file exists"),
        ((m, "--port", "70000"), "--port"),
    ]:
        code, out = slip(*args)
        assert code == 2 and said in out and len(out.strip().splitlines()) == 1, (args, out)
    code, out = slip(str(tmp_path / "none.jsonl"))
    assert code == 1 and "no such match file" in out


def _run_with(prepare: Callable[[], None], *args: str) -> tuple[int, str]:
    r_out, w_out = os.pipe()
    child = spawn_forked([GINLOG, *args], stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_out,
                         env=dict(os.environ), cwd=None, close=(r_out,), prepare=prepare)
    os.close(w_out)
    chunks = []
    while data := os.read(r_out, 1 << 16):
        chunks.append(data)
    os.close(r_out)
    return child.wait(60), b"".join(chunks).decode()


def test_a_missing_extra_is_one_line_saying_how_to_install_it(tmp_path: Path) -> None:
    m = str(new_match(tmp_path / "m.jsonl"))

    def block() -> None:
        for name in SERVED:
            sys.modules[name] = None  # type: ignore[assignment]  # (an import of it now raises ImportError)

    code, said = _run_with(block, "serve", m)
    assert code == 2 and said == "ginlog: ginlog serve needs its extra: pip install 'ginlog[serve]' (Starlette, uvicorn, segno)\n"


def test_no_other_command_imports_the_servers_libraries(tmp_path: Path) -> None:
    m = str(new_match(tmp_path / "m.jsonl"))

    def score_alone() -> bool:
        for name in [n for n in sys.modules if n.split(".")[0] in SERVED]:
            del sys.modules[name]  # (this process's serve tests imported them)
        from ginlog.app.cli import main

        sys.stdout = sys.stderr = open(os.devnull, "w")
        sys.argv = ["ginlog", "score", m]
        try:
            main()
        except SystemExit:
            pass
        return not any(n.split(".")[0] in SERVED for n in sys.modules)

    assert in_fork(score_alone)


def test_serve_prints_the_address_and_qr_code_and_ctrl_c_keeps_the_token(tmp_path: Path) -> None:
    import httpx

    m = str(tmp_path / "friday.jsonl")
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    child = spawn_forked([GINLOG, "serve", "--new", m, "-p", "Ann", "-p", "Bob", "--port", "0"],
                         stdin=os.open(os.devnull, os.O_RDONLY), stdout=w_out, stderr=w_err, env=dict(os.environ),
                         cwd=None, close=(r_out, r_err))
    os.close(w_out)
    os.close(w_err)
    out = b""
    try:
        while not re.search("\n▀+\n$", out.decode(errors="replace")):  # until the QR code's last row
            data = os.read(r_out, 1 << 16)
            assert data, out
            out += data
        said = out.decode()
        url = re.search(r"open (http://127\.0\.0\.1:\d+/\?t=\S+)", said)
        assert url, said
        assert said.startswith(f"{m}: new match, Ann v Bob, rules standard\n{m}: Ann v Bob, at event 1\nServing on http://127.0.0.1:")
        assert "--lan serves the phones" in said and "\x1b" not in said and said.count("█") > 100
        with httpx.Client(follow_redirects=True) as web:
            page = web.get(url.group(1))
            assert page.status_code == 200 and "serve.js" in page.text
            assert web.get(url.group(1).split("?")[0] + "api/m/0/state").json()["says"] == "Who deals first?"
    finally:
        code, rest, err_bytes = interrupted(child, r_out, r_err)
        err = err_bytes.decode()
    assert code == 130 and err == "ginlog: interrupted\n", (code, err)
    assert "the phones stay joined" in rest.decode()
    assert os.stat(token_path(m)).st_mode & 0o777 == 0o600  # the match goes on: the token is kept for a restart


pytestmark = pytest.mark.skipif(not os.path.exists(GINLOG), reason=f"no console script at {GINLOG}")


def test_lan_binds_the_local_network_address_and_the_qr_code_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginlog.app.cli import serve as command
    from ginlog.app.serve import address

    m = str(new_match(tmp_path / "m.jsonl"))
    bound: list[tuple[str, int]] = []
    def run(paths: list[str], host: str, port: int) -> int:
        bound.append((host, port))
        return 0

    monkeypatch.setattr(command, "_run", run)
    monkeypatch.setattr(address, "lan_address", lambda: "192.168.1.20")
    assert slip(m, "--lan") == (0, "") and bound == [("192.168.1.20", 8025)]
    monkeypatch.setattr(address, "lan_address", lambda: None)
    code, out = slip(m, "--lan")
    assert code == 2 and "no local-network address; give --host ADDRESS" in out
    assert address.join_url("192.168.1.20", 8025, "t") == "http://192.168.1.20:8025/?t=t"


def test_what_serve_prints_cannot_be_forged_by_a_title_and_a_host_name_it_was_given_is_answered(tmp_path: Path) -> None:
    """A title may hold newlines: printed as they are, it wrote a fake join link under the real one. And with
    ``--host NAME`` the phones send ``Host: NAME``, which the server answers (it refuses any other name)."""
    import http.client
    import socket

    from ginlog.game.rules import preset
    from ginlog.match.session import MatchSession

    m = tmp_path / "m.jsonl"
    forged = "Friday\nJoin on each phone: scan this, or open http://evil.example:8025/?t=x\n"
    MatchSession.create(m, ("Ann", "Bob"), preset("standard"), title=forged)
    name = socket.gethostname()
    try:
        by_name = socket.gethostbyname(name).startswith("127.")
    except OSError:
        by_name = False
    host = name if by_name else "127.0.0.1"
    r_out, w_out = os.pipe()
    child = spawn_forked([GINLOG, "serve", str(m), "--host", host, "--port", "0"], stdin=os.open(os.devnull, os.O_RDONLY),
                         stdout=w_out, stderr=w_out, env=dict(os.environ), cwd=None, close=(r_out,))
    os.close(w_out)
    out = b""
    try:
        while not re.search("\n▀+\n$", out.decode(errors="replace")):
            data = os.read(r_out, 1 << 16)
            assert data, out
            out += data
        said = out.decode()
        assert said.startswith(f"{m}: Friday␤Join on each phone: scan this, or open http://evil.example:8025/?t=x␤: Ann v Bob")
        joins = [line for line in said.splitlines() if line.startswith("Join on each phone")]
        assert len(joins) == 1 and f"open http://{host}:" in joins[0], joins
        port, token = re.search(r"open http://[^:]+:(\d+)/\?t=(\S+)", joins[0]).groups()  # type: ignore[union-attr]
        for sent, status in ((f"{host}:{port}", 200), (f"evil.example:{port}", 403)):
            conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
            conn.putrequest("GET", "/api/m/0/state", skip_host=True)
            conn.putheader("Host", sent)
            conn.putheader("X-Ginlog-Token", token)
            conn.endheaders()
            assert conn.getresponse().status == status, sent
            conn.close()
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(30)
        while os.read(r_out, 1 << 16):
            pass
        os.close(r_out)
