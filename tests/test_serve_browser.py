"""``ginlog serve``'s page in headless Chromium with a phone's viewport and touch: a hand tapped through (the same
file as the terminal's), the layout at phone and tablet sizes; behind ``--run-slow``, a whole match from two phones,
the other phone's tap winning, a dropped connection, and the server killed and started again.

Servers listen on 127.0.0.1 only and are stopped by the test that started them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from ginlog.app.cli.record import play
from ginlog.match.session import MatchSession

from serving import HAND_ENTRIES, TOKEN, ServeProcess, bodies, new_match, server_thread

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}

#: What the layout check measures: sideways overflow, and every visible button's size.
LAYOUT = """() => {
  const small = [];
  for (const b of document.querySelectorAll('button, select, a')) {
    const r = b.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < 44 || r.height < 44) small.push((b.textContent || b.tagName) + ' ' + r.width + 'x' + r.height);
  }
  return {overflow: document.documentElement.scrollWidth - window.innerWidth, small: small};
}"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """``phone(base_url, size=PHONE)``: a new touch context that followed the join link; its page, problems kept."""
    contexts: list[Any] = []

    def join(base: str, size: dict[str, int] = PHONE, token: str = TOKEN, deaf: bool = False) -> Any:
        ctx = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
        contexts.append(ctx)
        if deaf:  # the event stream never gets through: this phone hears nothing of the other's taps
            ctx.route("**/api/m/0/events", lambda route: route.abort())
        page = ctx.new_page()
        page.problems = []
        page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" and "Failed to load" not in m.text else None)
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        page.on("request", lambda r: page.problems.append("request " + r.url) if not r.url.startswith(base) else None)
        page.goto(f"{base}/?t={token}")
        page.wait_for_selector("#buttons button")
        return page

    yield join
    for ctx in contexts:
        ctx.close()


def at(page: Any, seq: int) -> None:
    """Wait until the page shows line ``seq`` as the newest."""
    page.wait_for_function("n => { const li = document.querySelector('#recent li'); return li && li.value >= n; }", arg=seq)


def press(page: Any, word: str) -> None:
    page.tap(f"#buttons button[data-word={word}]")


def tap_cards(page: Any, cards: list[str]) -> None:
    for c in cards:
        page.tap(f'#panel button[data-card="{c}"]')


def tap_hand(pages: list[Any], start: int = 1) -> int:
    """The walkthrough hand tapped on ``pages`` in turn (one phone, or two taking turns); the last seq."""
    seq = start
    n = 0

    def who() -> Any:
        nonlocal n
        n += 1
        return pages[(n - 1) % len(pages)]

    def step(page: Any) -> None:
        nonlocal seq
        seq += 1
        at(page, seq)
        for p in pages:
            at(p, seq)

    p = who(); press(p, "dealer"); p.tap("#panel button.go >> text=Ann"); step(p)
    p = who(); press(p, "upcard"); tap_cards(p, ["7H"]); step(p)
    p = who(); press(p, "pass"); step(p)
    p = who(); press(p, "pass"); step(p)
    p = who(); press(p, "stock"); p.tap("#panel button >> text=Card not seen"); step(p)
    p = who(); press(p, "knock"); tap_cards(p, ["QC"]); step(p)
    for hand in ("2H 3H 4H 8C 8D 8S 5S 6S 7S AD", "5H 6H 8H JC QH KD 9D 9C 4C TD"):
        p = who()
        press(p, "show")
        tap_cards(p, hand.split())
        p.tap("#panel button >> text=Preview")
        p.wait_for_selector("#panel .proposal")
        p.tap("#panel button >> text=Confirm")
        step(p)
    return seq


def layout_ok(page: Any) -> None:
    got = page.evaluate(LAYOUT)
    assert got["overflow"] <= 0 and got["small"] == [], got


def test_a_hand_tapped_through_on_a_phone_is_the_terminals_file(phone: Any, tmp_path: Path) -> None:
    tapped = new_match(tmp_path / "tapped.jsonl")
    typed = tmp_path / "typed.jsonl"
    typed.write_bytes(tapped.read_bytes())
    with server_thread([tapped]) as base:
        page = phone(base)
        layout_ok(page)
        tap_hand([page])
        assert page.text_content("#score") == "Ann 0, Bob 61"
        press(page, "upcard")
        layout_ok(page)  # the card picker open: 52 cards, each at least 44 px
        assert page.is_disabled('#panel button[data-card="7H"]') is False
        assert page.problems == []
    assert play(str(typed), HAND_ENTRIES) == 0
    assert bodies(tapped) == bodies(typed)


@pytest.mark.slow
@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_screenshots_at_phone_and_tablet_sizes_fit(phone: Any, tmp_path: Path, size: dict[str, int]) -> None:
    m = new_match(tmp_path / "m.jsonl", players=("Mary Ann Featherstonehaugh", "Bob"))
    with server_thread([m]) as base:
        page = phone(base, size)
        for word in ("dealer", "cut"):
            press(page, word)
            layout_ok(page)
            shot = page.screenshot(path=str(tmp_path / f"{word}-{size['width']}.png"), full_page=True)
            assert shot[:8] == b"\x89PNG\r\n\x1a\n"
            page.tap("#panel button >> text=Cancel")
        assert page.problems == []


@pytest.mark.slow
def test_a_whole_match_from_two_phones(phone: Any, tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    with server_thread([m]) as base:
        ann, bob = phone(base), phone(base)
        seq = tap_hand([ann, bob])
        press(bob, "result")
        bob.tap("#panel button.how-gin")
        bob.fill("#panel input[aria-label=\"defender's deadwood\"]", "30")
        bob.tap("#panel button >> text=out: Bob")
        at(ann, seq + 1)
        assert "over" in ann.text_content("#says") and "Bob wins" in ann.text_content("#says")
        assert ann.text_content("#score") == bob.text_content("#score")
        assert ann.query_selector_all("#buttons button[data-word=undo]")
        press(ann, "rematch")  # the next match's file, named by the server, served on the same page
        ann.wait_for_function("() => document.getElementById('says').textContent === 'Who deals first?'")
        assert ann.is_visible("#match") and "m-2.jsonl" in ann.text_content("#label")
        assert ann.problems == [] and bob.problems == []
    assert MatchSession.open(m).state.phase == "over"
    assert MatchSession.open(tmp_path / "m-2.jsonl").state.phase == "setup"


@pytest.mark.slow
def test_the_other_phones_tap_wins_and_this_one_is_offered_again(phone: Any, tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    with server_thread([m]) as base:
        ann, bob = phone(base), phone(base, deaf=True)
        press(ann, "dealer"); ann.tap("#panel button.go >> text=Ann"); at(ann, 2)
        press(bob, "dealer"); bob.tap("#panel button.go >> text=Bob")
        bob.wait_for_selector("#answer.bad")
        said = bob.text_content("#answer")
        assert "other phone" in said and "won: 2. Ann deals first (agreed)" in said
        assert len(m.read_text().splitlines()) == 2
        bob.tap("#answer button.retry")
        bob.wait_for_selector("#answer.bad >> text=refused")  # offered again, and refused by the rules: Ann deals
        assert len(m.read_text().splitlines()) == 2


@pytest.mark.slow
def test_a_tap_through_a_dropped_connection_is_written_once(phone: Any, tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    with server_thread([m]) as base:
        page = phone(base)
        page.context.set_offline(True)
        press(page, "dealer"); page.tap("#panel button.go >> text=Ann")
        page.wait_for_selector("#link >> text=sending again")
        page.context.set_offline(False)
        at(page, 2)
        page.wait_for_timeout(1500)  # any second sending would have landed by now
        assert [b["type"] for b in bodies(m)] == ["match_started", "first_dealer"]


@pytest.mark.slow
def test_the_server_killed_and_started_again_keeps_the_phone_joined(phone: Any, tmp_path: Path) -> None:
    m = new_match(tmp_path / "m.jsonl")
    server = ServeProcess(str(m))
    try:
        page = phone(server.base, token=server.token)
        press(page, "dealer"); page.tap("#panel button.go >> text=Ann"); at(page, 2)
        server.kill()
        page.wait_for_selector("#link.down")
        server = ServeProcess(str(m), port=server.port)
        page.wait_for_selector("#link.live")
        press(page, "upcard"); tap_cards(page, ["7H"]); at(page, 3)
        assert [b["type"] for b in bodies(m)] == ["match_started", "first_dealer", "hand_dealt"]
    finally:
        code, out, err = server.stop()
    assert code == 130 and "interrupted" in err
