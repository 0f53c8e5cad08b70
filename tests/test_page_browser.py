"""The replay page in headless Chromium: keys, the table's cards, the chart, and a hostile record kept inert.

Driven by Playwright with Debian's ``chromium`` (``executable_path``; Playwright's own browser
download is never used). Every expectation is computed from the reducer's states through the
public API, never written down. Without Playwright or a Chromium the tests skip, saying which.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli.data import page as html_command
from ginlog.app.pages.page import write_page
from ginlog.app.pages.page_data import Verdict
from ginlog.game.cards import cards_mask, mask_cards
from ginlog.game.rules import preset
from ginlog.log.events import Correction, HandDealt
from ginlog.match.reading import Step
from ginlog.text import visible

from browsing import watched
from page_matches import (
    HOSTILE_NAMES, HOSTILE_NOTES, HOSTILE_REASON, HOSTILE_TITLE, SAMPLES, full_frames, hostile_match, long_match, noted_match, steps_of,
)

pytestmark = pytest.mark.browser


#: One evaluation per step: what the page shows, counted the way a person would see it.
PROBE = """() => {
  const all = (s) => Array.from(document.querySelectorAll(s));
  const top = all('#pile [data-top]');
  return {
    step: document.getElementById('step').textContent,
    score: document.getElementById('score').textContent,
    stock: document.getElementById('stock-count').textContent,
    hands: [0, 1].map((i) => all('#hand-' + i + ' [data-card]').map((e) => e.dataset.card)),
    backs: [0, 1].map((i) => all('#hand-' + i + ' .back').length),
    pile: all('#pile [data-card]').map((e) => e.dataset.card),
    top: top.map((e) => e.dataset.card),
    current: all('#events [aria-current="step"]').map((e) => e.dataset.seq),
  };
}"""


@pytest.fixture
def open_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """``open_page(match_path, width=..)``: the match's page loaded from file://, ready, with its console kept."""
    pages: list[Any] = []

    def load(match: Path | str, width: int = 1280, height: int = 900) -> Any:
        out = tmp_path / (Path(match).stem + ".html")
        assert html_command(str(match), str(out)) == 0
        page = watched(browser, width, height)
        page.goto(out.as_uri())
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
        pages.append(page)
        return page

    yield load
    for page in pages:
        page.close()


def score_text(step: Step) -> str:
    st = step.state
    totals = st.totals()
    a, b = st.players
    return f"{visible(a)} {totals[0]} \u00b7 {visible(b)} {totals[1]}"


def expected(step: Step, view: int | None = None) -> dict[str, Any]:
    """What the table must show after ``step``: seen by both (None) or by one seat."""
    st = step.state
    h = st.hand
    if h is None:
        hands: list[list[str]] = [[], []]
        if st.hands:
            for x in st.hands[-1].shown:
                hands[x.player] = sorted(str(c) for c in x.cards)
        return {"step": str(step.seq), "score": score_text(step), "stock": "\u2013", "hands": hands, "backs": [0, 0], "pile": [], "top": []}
    hands, backs = [], []
    for i in range(2):
        mask = h.known[i]
        if view is not None and view != i:
            mask = h.seen[i]
            if h.ending is not None and h.ending.knocker is not None and h.ending.knocker.player == i:
                mask |= cards_mask(h.ending.knocker.cards)
        hands.append([str(c) for c in mask_cards(mask)])
        backs.append(h.sizes[i] - mask.bit_count())
    pile = [str(c) for c in h.pile]
    return {"step": str(step.seq), "score": score_text(step), "stock": str(h.stock), "hands": hands, "backs": backs, "pile": pile, "top": pile[-1:]}


def check(page: Any, step: Step, view: int | None = None) -> None:
    compare(page.evaluate(PROBE), step, view)


def compare(shown_now: dict[str, Any], step: Step, view: int | None = None) -> None:
    want = expected(step, view)
    got = {k: shown_now[k] for k in want}
    if step.state.hand is None:
        got["hands"] = [sorted(h) for h in got["hands"]]
    assert got == want, f"event {step.seq}"
    assert shown_now["current"] == [str(step.seq)]


#: Every event in one evaluation: the same keydown the keyboard sends, then the probe (a key press
#: from Playwright costs a round trip and a frame; the real keys are pressed in the tests below).
WALK = """(view) => {
  const probe = %s;
  if (view !== null) document.querySelector('#seeas button[data-view="' + view + '"]').click();
  const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
  key('Home');
  const out = [probe()];
  for (let i = 1; i < Number(document.getElementById('count').dataset.frames); i++) { key('ArrowRight'); out.push(probe()); }
  return out;
}""" % PROBE


# Whole-match browser runs (every event, three views) are --run-slow but for the score pad's short match.
@pytest.mark.parametrize("name", [pytest.param("standard-match.jsonl", marks=pytest.mark.slow),
                                  pytest.param("table-view-match.jsonl", marks=pytest.mark.slow), "score-pad-match.jsonl"])
def test_every_event_shows_the_reducers_table(open_page: Any, name: str) -> None:
    steps, _ = steps_of(SAMPLES / name)
    page = open_page(SAMPLES / name)
    for view in (None, 0, 1):  # both hands, then as each player
        walked = page.evaluate(WALK, view)
        assert len(walked) == len(steps)
        for s, shown_now in zip(steps, walked):
            compare(shown_now, s, view)
    assert not page.problems and not page.dialogs


@pytest.mark.parametrize("name", [pytest.param("standard-match.jsonl", marks=pytest.mark.slow), "table-view-match.jsonl"])
def test_arrow_keys_home_and_end(open_page: Any, name: str) -> None:
    steps, _ = steps_of(SAMPLES / name)
    page = open_page(SAMPLES / name)
    check(page, steps[0])
    assert page.text_content("#count") == str(steps[-1].seq)
    for s in steps[1:40]:
        page.keyboard.press("ArrowRight")
        check(page, s)
    page.keyboard.press("End")
    check(page, steps[-1])
    page.keyboard.press("ArrowRight")  # past the end: stays
    check(page, steps[-1])
    for s in reversed(steps[-12:-1]):
        page.keyboard.press("ArrowLeft")
        check(page, s)
    page.keyboard.press("Home")
    check(page, steps[0])
    page.keyboard.press("ArrowLeft")  # before the start: stays
    check(page, steps[0])
    assert not page.problems and not page.dialogs


def test_page_keys_go_hand_by_hand(open_page: Any) -> None:
    steps, _ = steps_of(SAMPLES / "standard-match.jsonl")
    deals = [i for i, s in enumerate(steps) if isinstance(s.event, HandDealt)]
    page = open_page(SAMPLES / "standard-match.jsonl")
    for i in deals:
        page.keyboard.press("PageDown")
        check(page, steps[i])
    page.keyboard.press("PageDown")  # no hand after the last: the end
    check(page, steps[-1])
    for i in reversed(deals):
        page.keyboard.press("PageUp")
        check(page, steps[i])
    page.keyboard.press("PageUp")
    check(page, steps[0])
    # From just before a deal to it, from just after one back to it.
    for i in deals[1:]:
        page.click('#events li[data-seq="%d"]' % steps[i - 1].seq)
        page.keyboard.press("PageDown")
        check(page, steps[i])
        page.keyboard.press("ArrowRight")
        page.keyboard.press("PageUp")
        check(page, steps[i])
    # Clicking an event in the list jumps to it.
    page.click('#events li[data-seq="%d"]' % steps[deals[1] + 3].seq)
    check(page, steps[deals[1] + 3])


def test_see_as_buttons_switch_the_view(open_page: Any) -> None:
    steps, _ = steps_of(SAMPLES / "standard-match.jsonl")
    page = open_page(SAMPLES / "standard-match.jsonl")
    for view in (0, 1):
        page.click(f'#seeas button[data-view="{view}"]')
        assert page.get_attribute(f'#seeas button[data-view="{view}"]', "aria-pressed") == "true"
        assert page.text_content(f'#seeas button[data-view="{view}"]') == steps[-1].state.players[view]
        page.keyboard.press("Home")
        for s in steps[1:30]:
            page.keyboard.press("ArrowRight")
            check(page, s, view)
    page.click('#seeas button[data-view="both"]')
    check(page, steps[29])


def test_chart_and_score_sheet(open_page: Any) -> None:
    steps, _ = steps_of(SAMPLES / "standard-match.jsonl")
    final = steps[-1].state
    page = open_page(SAMPLES / "standard-match.jsonl")
    lines = page.eval_on_selector_all("svg#chart polyline", "ls => ls.map(l => [l.dataset.player, l.points.numberOfItems])")
    assert lines == [["0", len(final.hands) + 1], ["1", len(final.hands) + 1]]
    rows = page.eval_on_selector_all("#score-sheet tbody tr", "rs => rs.map(r => Array.from(r.cells).slice(-2).map(c => Number(c.textContent)))")
    assert rows == [list(h.totals) for h in final.hands]
    final_row = page.eval_on_selector("#score-sheet tfoot tr:last-child", "r => Array.from(r.cells).slice(-2).map(c => Number(c.textContent))")
    assert final_row == list(final.totals())
    assert page.text_content("#verdict .head code") == steps[-1].digest
    assert page.get_attribute("#verdict-badge", "class") == "ok"
    # Issue 21: editing the address's #eN jumps there (hashchange), and a 10 under the pile's next card keeps
    # both digits in sight (it read "1").
    covered = next(s.seq for s in steps if s.state.hand is not None and any(c.rank == 10 for c in s.state.hand.pile[:-1]))
    page.evaluate(f"location.hash = '#e{covered}'")
    page.wait_for_function(f"document.getElementById('step').textContent === '{covered}'", timeout=5_000)
    gaps = page.eval_on_selector_all('#pile .card.under[data-card^="T"]',
                                     "cs => cs.map(c => c.nextElementSibling.getBoundingClientRect().left - c.querySelector('.r').getBoundingClientRect().right)")
    assert gaps and all(g >= 0 for g in gaps), gaps


def test_a_hollywood_page_shows_three_games_and_who_undercut_whom(open_page: Any, tmp_path: Path) -> None:
    """Issue 21 (a score pad's Hollywood match: cheap to load): the sheet's columns per game, where each hand's
    points went and who undercut whom (was "Ann undercut"), the score line per game once they closed."""
    from ginlog.app.views.match_json import score_json
    from ginlog.log.events import Event, FirstDealer, HandResultOnly, MatchStarted

    from page_matches import write_match

    def knock(player: str, k: int, d: int) -> HandResultOnly:
        return HandResultOnly(how="knock", out=player, knocker_deadwood=k, defender_deadwood=d)

    # Ann 40 three times (game 1 closes at hand 3), Bob undercuts Ann (8 v 5: 13, game 2), then Ann closes the rest.
    events: list[Event] = [MatchStarted(players=("Ann", "Bob"), rules=preset("hollywood")), FirstDealer(dealer="Ann", how="agreed"),
              knock("Ann", 1, 41), knock("Ann", 1, 41), knock("Ann", 1, 41), knock("Ann", 8, 5), knock("Ann", 1, 41),
              knock("Ann", 1, 41)]
    path = write_match(tmp_path / "holly.jsonl", events)
    steps, _ = steps_of(path)
    final = steps[-1].state
    sheet = score_json(final, None)
    assert final.phase == "over"
    page = open_page(path)
    head = page.eval_on_selector("#score-sheet thead tr", "r => Array.from(r.cells).map(c => c.textContent)")
    assert head[4:] == [f"game {g} \u00b7 {p}" for g in (1, 2, 3) for p in ("Ann", "Bob")] + ["Ann", "Bob"]
    rows = page.eval_on_selector_all("#score-sheet tbody tr", "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent))")
    for row, h in zip(rows, sheet["hands"]):
        assert row[3].startswith(f"{h['winner']} +{h['points']} in game")
        assert [int(c.split()[0]) for c in row[4:10]] == [g[p] for g in h["game_totals"] for p in ("Ann", "Bob")]
    assert rows[3][2:4] == ["Bob undercuts Ann", "Bob +13 in game 2"]
    assert rows[2][3] == "Ann +40 in games 1, 2, 3; closes game 1"
    page.keyboard.press("End")
    assert page.text_content("#score") == "".join(
        f"game {g['number']}: Ann {g['totals']['Ann']} \u00b7 Bob {g['totals']['Bob']} (closed: {g['winner']})"
        for g in sheet["games"])


def test_hostile_record_stays_text(open_page: Any, tmp_path: Path) -> None:
    path = hostile_match(tmp_path / "hostile.jsonl")
    steps, errors = steps_of(path)
    assert not errors
    page = open_page(path)
    count = "() => ({all: document.getElementsByTagName('*').length, script: document.scripts.length, img: document.images.length, svg: document.querySelectorAll('svg').length, iframe: document.querySelectorAll('iframe').length, style: document.querySelectorAll('style').length, handlers: document.querySelectorAll('[onload],[onerror],[onclick]').length})"
    at_start = page.evaluate(count)
    assert at_start["script"] == 2 and at_start["img"] == 0 and at_start["svg"] == 1 and at_start["iframe"] == 0
    assert at_start["style"] == 1 and at_start["handlers"] == 0
    for s in steps[1:12]:
        page.keyboard.press("ArrowRight")
        check(page, s)
    for view in (None, 0, 1):  # every event drawn, in each view
        for s, shown_now in zip(steps, page.evaluate(WALK, view)):
            compare(shown_now, s, view)
    after = page.evaluate(count)
    assert {k: after[k] for k in ("script", "img", "svg", "iframe", "style", "handlers")} == {k: at_start[k] for k in ("script", "img", "svg", "iframe", "style", "handlers")}
    assert page.evaluate("() => window.__pwned") is None and page.evaluate("() => parent.__pwned") is None
    assert not page.dialogs and not page.problems, (page.dialogs, page.problems)
    # The text is shown as typed (controls made visible), in the list, the title, the names.
    listed = page.text_content("#events")
    for note in HOSTILE_NOTES:
        assert "Note: " + visible(note) in listed
    assert HOSTILE_REASON in listed
    assert page.text_content("#title") == visible(HOSTILE_TITLE)
    assert page.title() == visible(HOSTILE_TITLE)
    assert page.text_content("#seat-0 .who .name") == HOSTILE_NAMES[0]
    assert page.text_content("#players").startswith(f"{HOSTILE_NAMES[0]} v {HOSTILE_NAMES[1]}")
    assert page.text_content("svg#chart .legend") == HOSTILE_NAMES[0]
    # The correction is marked, the event it undid struck through.
    assert page.locator("#events li.correction").count() == 1 and page.locator("#events li.undone").count() == 1


def test_phone_width_has_no_sideways_scroll(open_page: Any) -> None:
    page = open_page(SAMPLES / "standard-match.jsonl", width=375, height=800)
    for key in ("PageDown", "ArrowRight", "ArrowRight", "End"):
        page.keyboard.press(key)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_print_shows_everything_but_the_controls(open_page: Any) -> None:
    page = open_page(SAMPLES / "standard-match.jsonl")
    page.emulate_media(media="print")
    assert not page.is_visible("#nav") and not page.is_visible("#seeas")
    assert page.evaluate("() => getComputedStyle(document.getElementById('events')).overflowY") == "visible"
    assert page.locator("#hand-results .hand-result").count() == len(steps_of(SAMPLES / "standard-match.jsonl")[0][-1].state.hands)
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF")


def test_a_16_hand_match_reports_when_it_is_ready(open_page: Any, tmp_path: Path) -> None:
    """The page says when it is ready (``data-ready-ms``, what benchmarks/bench_page.py times; no timing here)."""
    path = long_match(tmp_path / "long.jsonl")
    steps, _ = steps_of(path)
    page = open_page(path)
    # Milliseconds from navigation start (performance.now()), so no later than now: not a clock time, not seconds.
    ready = int(page.get_attribute("body", "data-ready-ms") or "-1")
    assert page.get_attribute("body", "data-ready") == "1" and 0 < ready <= page.evaluate("performance.now()"), ready
    page.keyboard.press("End")
    check(page, steps[-1])
    assert page.eval_on_selector_all("svg#chart polyline", "ls => ls.map(l => l.points.numberOfItems)") == [17, 17]


#: Every frame as the page's script rebuilds it: in order, backwards, then jumping about (a fixed shuffle).
FRAMES = """() => {
  const g = window.ginlogFrames, n = g.count, order = [];
  for (let i = 0; i < n; i++) order.push(i);
  for (let i = n - 1; i >= 0; i--) order.push(i);
  let x = 12345;
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; order.push(x % n); }
  return {n: n, order: order, frames: order.map((i) => JSON.stringify(g.frame(i)))};
}"""


def test_the_script_rebuilds_the_reducers_frames(browser: Any, tmp_path: Path) -> None:
    """The page's script, from the compact frames, gives :func:`frame`'s frame for every step of a Hollywood match
    with many notes and corrections (hands finished twice, two events undone at once), stepping on, back and
    jumping; and the texts past the numbered ones too."""
    path = noted_match(tmp_path / "noted.jsonl", 400, seed=4, rules=preset("hollywood"))
    steps, errors = steps_of(path)
    assert not errors and sum(isinstance(s.event, Correction) for s in steps) > 15
    full = full_frames(steps)
    out = tmp_path / "noted.html"
    with open(out, "wb") as fh:  # 40 texts numbered: the later ones are written out each time
        write_page(steps, fh, lambda last: Verdict(head=last.digest), texts_kept=40)
    page = watched(browser)
    page.goto(out.as_uri())
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
    got = page.evaluate(FRAMES)
    assert got["n"] == len(steps)
    for i, text in zip(got["order"], got["frames"]):
        assert json.loads(text) == full[i], f"frame {i}"
    assert not page.problems and not page.dialogs
    page.close()
