"""``ginlog serve``'s HTTP API through Starlette's TestClient: taps write what the terminal writes, through the one
write path; the token, the origin and the limits guard every request; a bad request is a clear 4xx that changes
nothing; a tap sent again gets its first answer, after a restart too; the other phone's tap wins a race.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")

from ginlog.app.cli.record import play
from ginlog.app.record.language import TABLE
from ginlog.app.serve import page_state
from ginlog.app.serve.hub import TAP_BURST, Hub
from ginlog.app.serve.routes import MAX_BODY, MAX_CONNECTIONS, MAX_STREAMS, Served, build_app
from ginlog.app.serve.stream import updates
from ginlog.app.serve.tokens import kept_token, token_path
from ginlog.app.views.match_json import games_json
from ginlog.match.session import MatchSession
from ginlog.play.reducer import legal_actions
from ginlog.text import visible

from serving import HAND_ENTRIES, HAND_TAPS, TOKEN, bodies, client, new_match, tap

ASSETS = Path(__file__).resolve().parent.parent / "ginlog" / "app" / "serve" / "assets"


def tapped_hand(c: Any) -> list[Any]:
    answers = []
    for body in HAND_TAPS:
        r = tap(c, body)
        assert r.status_code == 200, (body, r.json())
        answers.append(r.json())
    return answers


def test_a_hand_tapped_through_is_the_file_the_terminal_makes(tmp_path: Path) -> None:
    tapped = new_match(tmp_path / "tapped.jsonl")
    typed = tmp_path / "typed.jsonl"
    typed.write_bytes(tapped.read_bytes())  # the same first line (its match id)
    answers = tapped_hand(client([tapped]))
    assert play(str(typed), HAND_ENTRIES) == 0
    assert bodies(tapped) == bodies(typed)
    assert [a["entry"] for a in answers] == ["dealer Ann", "upcard 7H", "pass", "pass", "stock", "knock QC",
                                             "show 2H 3H 4H 8C 8D 8S 5S 6S 7S AD", "show 5H 6H 8H JC QH KD 9D 9C 4C TD"]
    assert "Bob" in answers[-1]["said"][-1] and "61" in answers[-1]["said"][-1]
    state = client([tapped]).get("/api/m/0/state").json()
    assert state["totals"] == {"Ann": 0, "Bob": 61} and state["phase"] == "ready"


def test_a_show_is_previewed_as_ginlog_arranges_it_and_nothing_is_written(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    for body in HAND_TAPS[:6]:
        assert tap(c, body).status_code == 200
    before = m.read_bytes()
    r = c.post("/api/m/0/preview", json=HAND_TAPS[6], headers={"x-ginlog-token": TOKEN, "origin": c.origin})
    assert r.status_code == 200 and m.read_bytes() == before
    assert r.json()["proposal"] == "Bob: [5♠ 6♠ 7♠] [8♠ 8♣ 8♦] [2♥ 3♥ 4♥] deadwood A♦ = 1"
    bad = c.post("/api/m/0/preview", json={"word": "show", "cards": ["2H"]}, headers={"x-ginlog-token": TOKEN, "origin": c.origin})
    assert bad.status_code == 422 and m.read_bytes() == before


def test_every_request_needs_the_token(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    stranger = client([m], joined=False)
    for path in ("/", "/api/matches", "/api/m/0/state", "/api/m/0/events", "/assets/serve.js", "/api/m/0/replay"):
        r = stranger.get(path)
        assert r.status_code == 403 and "join" in r.json()["error"], path
        assert stranger.get(path, headers={"x-ginlog-token": "x" * 43}).status_code == 403
    wrong = stranger.get("/?t=" + "x" * 43, follow_redirects=False)
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    assert tap(stranger, {"word": "dealer", "player": 0}, expect=1, token="x" * 43).status_code == 403
    assert len(m.read_text().splitlines()) == 1


def test_the_join_link_sets_a_strict_cookie_and_leaves_the_address_bar(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m], joined=False)
    r = c.get(f"/?t={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"ginlog_join={TOKEN};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    page = c.get("/")
    assert page.status_code == 200 and f'content="{TOKEN}"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"] and page.headers["referrer-policy"] == "no-referrer"
    assert c.get("/assets/serve.js").headers["content-type"].startswith("text/javascript")


def test_a_write_needs_the_header_and_this_servers_origin(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    body = {"id": "tap-00000001", "expect": 1, "word": "dealer", "player": 0}
    for headers in ({"origin": c.origin},  # the cookie alone: what a cross-site form would send
                    {"x-ginlog-token": TOKEN},  # no origin
                    {"x-ginlog-token": TOKEN, "origin": "http://evil.example"},
                    {"x-ginlog-token": TOKEN, "origin": "https://127.0.0.1:8025"}):
        r = c.post("/api/m/0/tap", json=body, headers=headers)
        assert r.status_code == 403, headers
    assert len(m.read_text().splitlines()) == 1
    assert c.post("/api/m/0/tap", json=body, headers={"x-ginlog-token": TOKEN, "origin": c.origin}).status_code == 200


def test_bad_requests_are_one_clear_4xx_and_change_nothing(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    before = m.read_bytes()
    h = {"x-ginlog-token": TOKEN, "origin": c.origin}
    cases = [
        (c.post("/api/m/0/tap", content=b"{not json", headers={**h, "content-type": "application/json"}), 400),
        (c.post("/api/m/0/tap", content=b"[]", headers={**h, "content-type": "application/json"}), 400),
        (c.post("/api/m/0/tap", content=b"word=dealer", headers={**h, "content-type": "application/x-www-form-urlencoded"}), 415),
        (c.post("/api/m/0/tap", content=b"{" + b" " * MAX_BODY + b"}", headers={**h, "content-type": "application/json"}), 413),
        (c.post("/api/m/9/tap", json={"id": "tap-00000001", "expect": 1, "word": "pass"}, headers=h), 404),
        (c.post("/api/m/0/tap", json={"expect": 1, "word": "pass"}, headers=h), 400),
        (c.post("/api/m/0/tap", json={"id": "../../etc", "expect": 1, "word": "pass"}, headers=h), 400),
        (c.post("/api/m/0/tap", json={"id": "tap-00000002", "word": "pass"}, headers=h), 400),
        (c.post("/api/m/0/tap", json={"id": "tap-00000003", "expect": 1, "word": "rm -rf"}, headers=h), 422),
        (c.post("/api/m/0/tap", json={"id": "tap-00000004", "expect": 1, "word": "pass"}, headers=h), 422),
        (c.post("/api/m/0/tap", json={"id": "tap-00000005", "expect": 1, "word": "dealer", "player": 7}, headers=h), 422),
        (c.post("/api/m/0/tap", json={"id": "tap-00000006", "expect": 1, "word": "note", "text": "x" * 5000}, headers=h), 422),
        (c.put("/api/m/0/tap", json={}, headers=h), 405),
        (c.get("/assets/..%2F..%2Fpyproject.toml"), 404),
        (c.get("/assets/index.html"), 404),
        (c.get("/api/m/0/../../../etc/passwd"), 404),
        (c.get("/api/m/-1/state"), 404),
        (c.get("/nothing"), 404),
    ]
    for r, status in cases:
        assert r.status_code == status, (r.request.url, r.text)
        assert r.json()["ok"] is False and len((r.json().get("error") or r.json().get("refused")).splitlines()) == 1
    assert m.read_bytes() == before


def test_a_tap_sent_again_gets_its_first_answer_also_after_a_restart(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    first = tap(client([m]), {"word": "dealer", "player": 0}, expect=1, tap_id="tap-again-01")
    again = tap(client([m]), {"word": "dealer", "player": 0}, expect=1, tap_id="tap-again-01")  # a new server
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    refused = tap(client([m]), {"word": "pass"}, expect=2, tap_id="tap-again-02")
    assert refused.status_code == 422
    assert tap(client([m]), {"word": "pass"}, expect=2, tap_id="tap-again-02").json() == refused.json()
    assert len(m.read_text().splitlines()) == 2


def test_the_other_phones_tap_wins_and_this_one_is_refused_beside_it(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    ann, bob = client([m]), client([m])
    assert tap(ann, {"word": "dealer", "player": 0}, expect=1).status_code == 200
    lost = tap(bob, {"word": "dealer", "player": 1}, expect=1)
    assert lost.status_code == 409
    a = lost.json()
    assert a["conflict"] and a["seq"] == 2 and a["won"] == [{"seq": 2, "text": "Ann deals first (agreed)"}]
    assert len(m.read_text().splitlines()) == 2


def test_a_line_written_by_the_terminal_is_read_before_a_tap(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    assert c.get("/api/m/0/state").json()["seq"] == 1
    assert play(str(m), ["dealer Bob"]) == 0
    assert c.get("/api/m/0/state").json()["says"] == "Bob deals hand 1"
    r = tap(c, {"word": "dealer", "player": 0}, expect=1)
    assert r.status_code == 409 and r.json()["won"][0]["text"] == "Bob deals first (agreed)"


def test_entries_a_second_are_bounded(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    codes = [tap(c, {"word": "note", "text": f"n{i}"}, expect=1 + i).status_code for i in range(int(TAP_BURST) + 2)]
    assert codes[: int(TAP_BURST) - 1] == [200] * (int(TAP_BURST) - 1) and 429 in codes
    assert len(m.read_text().splitlines()) == 1 + codes.count(200)


def test_connections_and_streams_are_bounded(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    from serving import TestClient

    served = Served.of([str(m)], token=TOKEN)
    c = TestClient(build_app(served), base_url="http://127.0.0.1:8025")
    h = {"x-ginlog-token": TOKEN}
    served.streams = MAX_STREAMS
    assert c.get("/api/m/0/events", headers=h).status_code == 503
    served.connections = MAX_CONNECTIONS
    assert c.get("/api/m/0/state", headers=h).status_code == 503
    served.connections = 0
    assert c.get("/api/m/0/state", headers=h).status_code == 200


def test_the_stream_sends_the_state_then_each_change() -> None:
    async def scenario(path: str) -> list[int]:
        hub = Hub(0, path)
        seen: list[int] = []
        stop = False

        async def run(f: Any) -> Any:
            return f()

        async def follow() -> None:
            async for m in updates(hub, run, lambda: stop, beat=0.05):
                if m.startswith("event: state"):
                    seen.append(json.loads(m.split("data: ", 1)[1])["seq"])

        async def until(n: int) -> None:  # (a busy machine may take a while; a broken stream never gets there)
            for _ in range(200):
                if len(seen) >= n:
                    return
                await asyncio.sleep(0.01)

        task = asyncio.create_task(follow())
        await until(1)
        assert hub.tap({"id": "tap-stream-1", "expect": 1, "word": "dealer", "player": 0})[0] == 200
        await until(2)
        assert play(path, ["upcard 7h"]) == 0  # the terminal's line: seen at the next beat
        await until(3)
        stop = True
        await asyncio.wait_for(task, 1)
        return seen

    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = str(new_match(Path(d) / "m.jsonl"))
        assert asyncio.run(scenario(path)) == [1, 2, 3]


def test_the_buttons_are_the_entry_table() -> None:
    """Parity: every entry the terminal takes has its button (or the row says why it is two taps or a confirmation)."""
    for e in TABLE:
        key = e.word or e.shapes[0]
        assert key in page_state.BUTTONS or key in page_state.NOT_BUTTONS or (key == "NAME +POINTS" and "pad" in page_state.BUTTONS), key
    table_words = {e.word for e in TABLE if e.word}
    assert set(page_state.BUTTONS) - {"pad"} == table_words


def test_the_buttons_now_are_the_legal_actions(tmp_path: Path) -> None:
    ticks = iter(range(10**6))  # a second between taps (the entries-a-second bound is tested apart)
    hub = Hub(0, str(new_match(tmp_path / "m.jsonl")), clock=lambda: float(next(ticks)))
    for n, body in enumerate([*HAND_TAPS, {"word": "upcard", "cards": ["2C"]}]):
        st = hub.session.state
        # (the hints also name the terminal's terse forms, a card alone: no button of their own, NOT_BUTTONS)
        legal = {a.split()[0] for a in legal_actions(st)} - set(page_state.NOT_BUTTONS)
        shown = {b["word"] for b in page_state.buttons(st, hub.session.seq)}
        extra = {"note", "undo", "abandon", "void", "pad"}
        assert legal <= shown and shown - legal <= extra, (st.phase, shown, legal)
        assert hub.tap({"id": f"tap-legal-{n:04d}", "expect": hub.session.seq, **body})[0] == 200


def test_the_card_picker_offers_only_cards_that_could_be_there(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    for body in [*HAND_TAPS[:2], {"word": "take"}]:  # Bob takes the 7♥
        assert tap(c, body).status_code == 200
    buttons = {b["word"]: b for b in c.get("/api/m/0/state").json()["buttons"]}
    assert "7H" in buttons["discard"]["choosable"] and len(buttons["discard"]["choosable"]) == 52
    assert tap(c, {"word": "discard", "cards": ["2C"]}).status_code == 200
    buttons = {b["word"]: b for b in c.get("/api/m/0/state").json()["buttons"]}
    stock = set(buttons["stock"]["choosable"])  # Ann draws: not the 2♣ (the pile's) nor the 7♥ (Bob's)
    assert len(stock) == 50 and not stock & {"2C", "7H"}
    assert tap(c, {"word": "stock", "cards": ["7H"]}).status_code == 422


def test_undo_after_the_end_asks_before_it_reopens(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    tap(c, {"word": "dealer", "player": 0})
    assert tap(c, {"word": "abandon", "text": "rain"}).status_code == 200
    r = tap(c, {"word": "undo"})
    assert r.status_code == 409 and r.json()["reopen"] and len(m.read_text().splitlines()) == 3
    assert tap(c, {"word": "undo", "reopen": True}).status_code == 200
    assert c.get("/api/m/0/state").json()["phase"] == "ready"


HOSTILE = "<img src=x onerror=alert(1)>\u202e\x1b[2J"


def test_record_text_reaches_the_page_escaped(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl", players=("<b>Ann</b>", "Bob&amp;<script>"))
    c = client([m])
    assert tap(c, {"word": "note", "text": HOSTILE}).status_code == 200
    raw = c.get("/api/m/0/state").content.decode()
    assert "\u202e" not in raw and "\x1b" not in raw and "\\u202e" not in raw
    state = json.loads(raw)
    assert state["recent"][-1]["text"] == visible("Note: " + " ".join(HOSTILE.split()))
    assert state["players"] == ["<b>Ann</b>", "Bob&amp;<script>"]  # data: the page sets it as text
    js = (ASSETS / "serve.js").read_text()
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function", js)
    assert "http:" not in js.replace('"http://', "") and "https:" not in js  # nothing fetched from elsewhere


def test_the_replay_page_is_linked_and_states_its_own_policy(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    assert tap(c, {"word": "dealer", "player": 0}).status_code == 200
    r = c.get("/api/m/0/replay")
    assert r.status_code == 200 and r.text.startswith("<!doctype html>")
    assert "content-security-policy" not in r.headers and 'http-equiv="Content-Security-Policy"' in r.text


def test_the_token_is_kept_mode_0600_and_a_planted_link_is_not_followed(tmp_path: Path) -> None:
    match = str(tmp_path / "m.jsonl")
    where = token_path(match)
    target = tmp_path / "elsewhere"
    target.write_text("keep me")
    os.symlink(target, where)
    token = kept_token(where)
    assert target.read_text() == "keep me" and not os.path.islink(where)
    assert os.stat(where).st_mode & 0o777 == 0o600 and kept_token(where) == token
    os.chmod(where, 0o644)  # readable by others: no longer a secret, so a new one
    assert kept_token(where) != token


def test_a_rematch_is_made_once_by_the_server_and_served(tmp_path: Path) -> None:
    m = new_match(tmp_path / "friday.jsonl")
    ann = client([m])
    h = {"x-ginlog-token": TOKEN, "origin": ann.origin}
    tap(ann, {"word": "dealer", "player": 0})
    assert ann.post("/api/m/0/rematch", json={}, headers=h).status_code == 409  # not over yet
    tap(ann, {"word": "abandon", "text": "rain"})
    assert "rematch" in [b["word"] for b in ann.get("/api/m/0/state").json()["buttons"]]
    first = ann.post("/api/m/0/rematch", json={}, headers=h)
    again = ann.post("/api/m/0/rematch", json={}, headers=h)  # the other phone asks too
    assert first.status_code == again.status_code == 200 and first.json() == again.json() == {"ok": True, "match": 1, "label": "friday-2.jsonl"}
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["friday-2.jsonl", "friday.jsonl"]
    assert [x["label"] for x in ann.get("/api/matches").json()] == ["friday.jsonl", "friday-2.jsonl"]
    assert ann.get("/api/m/1/state").json()["says"] == "Who deals first?"
    assert tap(ann, {"word": "dealer", "player": 1}, match=1).status_code == 200


def test_score_pad_taps_and_hollywoods_three_games_reach_the_page(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl", rules="hollywood")
    c = client([m])
    assert [len(s["games"]) for s in [c.get("/api/m/0/state").json()]] == [3]
    answers = [tap(c, body).json() for body in (
        {"word": "dealer", "player": 1},
        {"word": "pad", "player": 0, "number": 25},
        {"word": "result", "how": "knock", "player": 1, "numbers": [4, 30]},
    )]
    assert [a["entry"] for a in answers] == ["dealer Bob", "Ann +25", "result knock Bob 4 30"]
    games = c.get("/api/m/0/state").json()["games"]
    assert [g["totals"] for g in games] == [g["totals"] for g in games_json(MatchSession.open(m).state)]
    assert games[0]["totals"] == {"Ann": 25, "Bob": 26}  # each first win scores in the first game only
    assert tap(c, {"word": "pad", "player": 0, "number": -5}).status_code == 422


def test_the_defenders_show_is_previewed_with_the_lay_offs_ginlog_proposes(tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    c = client([m])
    for body in HAND_TAPS[:7]:
        assert tap(c, body).status_code == 200
    r = c.post("/api/m/0/preview", json=HAND_TAPS[7], headers={"x-ginlog-token": TOKEN, "origin": c.origin})
    assert r.json()["proposal"].endswith("Ann lays off 5♥ 6♥ 8♥ and has 62: Bob scores 61.")
