"""The replay page, without a browser: self-contained, its data faithful to the states, record text inert.

The browser half (keys, cards on screen, a hostile record in Chromium) is ``test_page_browser.py``.
"""

from __future__ import annotations

import html.parser
import io
import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginlog.app.cli.data import page as html_command
from ginlog.app.pages.page import chart_svg, csp_hash, embed_json, match_page, write_page
from ginlog.app.pages.page_data import Verdict, frame, match_data
from ginlog.game.cards import cards_mask, mask_cards
from ginlog.game.rules import preset
from ginlog.match.reading import Step
from ginlog.text import visible

from page_matches import (
    HOSTILE_NAMES, HOSTILE_NOTES, HOSTILE_REASON, HOSTILE_TITLE, SAMPLES, decoded_frames, full_frames, hostile_match, long_match,
    noted_match, steps_of,
)

ASSETS = Path(__file__).resolve().parent.parent / "ginlog" / "app" / "pages" / "page_assets"
SAMPLE_FILES = sorted(SAMPLES.glob("*.jsonl"))


class Parsed(html.parser.HTMLParser):
    """Every start tag with its attributes, and the text of each script and style element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[int, str] = {}
        self._open: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._open = len(self.tags) - 1
            self.texts[self._open] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self.texts[self._open] += data

    def elements(self, tag: str) -> list[tuple[dict[str, str | None], str]]:
        return [(a, self.texts.get(i, "")) for i, (t, a) in enumerate(self.tags) if t == tag]


def parse(page: str) -> Parsed:
    p = Parsed()
    p.feed(page)
    p.close()
    return p


def page_of(path: Path | str, title: str | None = None) -> tuple[str, list[Any]]:
    steps, errors = steps_of(path)
    return match_page(steps, verdict=Verdict.of(errors, steps[-1].digest), title=title), steps


def embedded(page: str) -> tuple[str, Any]:
    """The raw text of the data element, and what it parses to."""
    ((attrs, text),) = [(a, t) for a, t in parse(page).elements("script") if a.get("id") == "ginlog-data"]
    assert attrs["type"] == "application/json"
    return text, json.loads(text)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any]]:
    return page_of(hostile_match(tmp_path_factory.mktemp("hostile") / "h.jsonl"))


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_page_is_self_contained(path: Path) -> None:
    page, _ = page_of(path)
    # No URL of any kind (the CSP's base64 hashes may hold "//" by chance: left out).
    assert not re.search(r"https?:|ftp:|//", re.sub(r"'sha256-[A-Za-z0-9+/=]+'", "", page))
    p = parse(page)
    for tag, attrs in p.tags:
        for name in ("src", "href", "action", "srcset", "data", "poster"):
            value = attrs.get(name)
            assert value is None or value.startswith(("data:", "#")), (tag, name, value)
    assert [t for t, _ in p.tags if t in ("link", "img", "iframe", "object", "embed")] == ["link"]  # the data: icon
    assert len(p.elements("script")) == 2 and len(p.elements("style")) == 1


def test_csp_allows_exactly_the_inline_script_and_style() -> None:
    page, _ = page_of(SAMPLES / "standard-match.jsonl")
    p = parse(page)
    (csp,) = [a["content"] for t, a in p.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp is not None
    policy = dict((d.split(" ", 1) + [""])[:2] for d in csp.split("; "))
    assert policy["default-src"] == "'none'" and policy["base-uri"] == "'none'"
    (code,) = [t for a, t in p.elements("script") if "type" not in a]
    ((_, style),) = p.elements("style")
    assert policy["script-src"] == csp_hash(code) and policy["style-src"] == csp_hash(style)
    assert code == (ASSETS / "viewer.js").read_text(encoding="utf-8")
    assert "unsafe" not in csp
    # The CSP meta comes before anything it governs.
    tags = [t for t, _ in p.tags]
    assert tags.index("meta", tags.index("head")) < tags.index("style") < tags.index("script")


def test_script_never_parses_markup() -> None:
    js = (ASSETS / "viewer.js").read_text(encoding="utf-8")
    for api in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "setTimeout(\"", "DOMParser", "createContextualFragment"):
        assert api not in js.replace("no innerHTML, insertAdjacentHTML, document.write or eval", ""), api


def test_embed_json_escapes_what_could_end_the_script() -> None:
    tricky = {"a": "</script><!-- <script>", "b": "x & y > z", "c": "\u2028\u2029", "</script>": 1}
    text = embed_json(tricky)
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == tricky


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_data_round_trips_and_follows_the_states(path: Path) -> None:
    page, steps = page_of(path)
    _, data = embedded(page)
    steps2, errors = steps_of(path)
    assert data == json.loads(json.dumps(match_data(steps2, Verdict.of(errors, steps2[-1].digest))))
    frames = decoded_frames(data)
    assert [f["n"] for f in frames] == [s.seq for s in steps]
    before = None
    for s, f in zip(steps, frames):
        st = s.state
        assert f == json.loads(json.dumps(frame(s, before)))
        assert f["totals"] == list(st.totals())
        assert f["done"] == len(st.hands)
        h = st.hand
        if h is not None:
            assert f["stock"] == h.stock and f["pile"] == [str(c) for c in h.pile] and f["turn"] == st.players[h.turn]
            for i in range(2):
                seat = f["seats"][i]
                assert seat["known"] == [str(c) for c in mask_cards(h.known[i])]
                assert len(seat["known"]) + seat["hidden"] == h.sizes[i]
                assert set(seat["public"]) <= set(seat["known"]) and cards_mask(mask_cards(h.seen[i])) & ~h.known[i] == 0
                assert {str(c) for c in mask_cards(h.seen[i])} <= set(seat["public"])
        elif st.hands:
            last = st.hands[-1]
            assert f["result"]["number"] == last.number and f["result"]["points"] == last.score.points
            for x in last.shown:
                r = f["result"]["shown"][[y.player for y in last.shown].index(x.player)]
                laid = [c for m in r["melds"] for c in m] + r["layoffs"] + r["deadwood"]
                assert sorted(laid) == sorted(str(c) for c in x.cards), "melds, lay-offs and deadwood are the hand"
        before = st
    sheet = data["match"]["sheet"]
    assert [r["number"] for r in sheet["hands"]] == [h["number"] for h in data["match"]["hands"]]
    assert data["match"]["verdict"] == {"ok": True, "errors": [], "warnings": [], "head": steps[-1].digest,
                                       "sealed": None}


def test_chart_has_a_point_per_hand_and_start() -> None:
    page, steps = page_of(SAMPLES / "standard-match.jsonl")
    p = parse(page)
    lines = [a for t, a in p.tags if t == "polyline"]
    assert [a["data-player"] for a in lines] == ["0", "1"]
    final = steps[-1].state
    for i, a in enumerate(lines):
        points = [tuple(map(float, xy.split(","))) for xy in (a["points"] or "").split()]
        assert len(points) == len(final.hands) + 1
        ys = [y for _, y in points]
        totals = [0] + [h.totals[i] for h in final.hands]
        # Higher totals are drawn higher (smaller y); equal totals at the same height.
        for k in range(1, len(ys)):
            assert (ys[k] < ys[k - 1]) == (totals[k] > totals[k - 1]) and (ys[k] == ys[k - 1]) == (totals[k] == totals[k - 1])


def test_a_hollywood_chart_has_a_line_per_game_and_marks_each_close() -> None:
    """Issue 21: under Hollywood a line per player and game, each game's running points (never the sum, which
    crossed the 100 line at hand 5 of 9), and each game's close marked at the hand that closed it; the hands'
    summaries say which games each scored in."""
    from ginlog.app.views.match_json import score_json

    page, steps = page_of(SAMPLES / "hollywood-match.jsonl")
    final = steps[-1].state
    sheet = score_json(final, None)
    p = parse(page)
    lines = [a for t, a in p.tags if t == "polyline"]
    assert [(a["data-game"], a["data-player"]) for a in lines] == [(g, s) for g in "123" for s in "01"]
    for a in lines:
        game, seat = int(a["data-game"] or 0), int(a["data-player"] or 0)
        ys = [float(xy.split(",")[1]) for xy in (a["points"] or "").split()]
        values = [0] + [h["game_totals"][game - 1].get(final.players[seat], 0) for h in sheet["hands"]]
        for k in range(1, len(ys)):
            assert (ys[k] < ys[k - 1]) == (values[k] > values[k - 1])
    closes = [(a["data-game"], a["x1"]) for t, a in p.tags if t == "line" and (a.get("class") or "") == "closed"]
    assert [g for g, _ in closes] == ["1", "2", "3"]
    numbers = [h["number"] for h in sheet["hands"]]
    xs = [float(x or 0) for _, x in closes]
    assert xs == sorted(xs) and len(set(xs)) == 3
    assert [g["closed_at"] for g in sheet["games"]] == [numbers[i] for i in (6, 10, 17)]  # hands 7, 11 and 18
    _, data = embedded(page)
    summaries = [h["summary"] for h in data["match"]["hands"]]
    assert summaries[6].endswith("in games 1, 2 and 3; game 1 closes, won by Iris 104-0.")
    assert summaries[7].endswith("Jack scores 10 in game 2.")


def test_hostile_text_stays_data(hostile: tuple[str, list[Any]]) -> None:
    page, steps = hostile
    raw, data = embedded(page)
    for bad in ("<", ">", "&", "\u2028", "\u2029", "\x1b", "\u202e"):
        assert bad not in raw
    p = parse(page)
    # Exactly the elements the template makes: no script, image, frame, style or handler from the record.
    assert len(p.elements("script")) == 2 and len(p.elements("style")) == 1 and len(p.elements("svg")) == 1
    assert not [t for t, _ in p.tags if t in ("img", "iframe", "a", "object", "embed")]
    assert [a.get("id") for t, a in p.tags if t == "b"] == ["step"]
    assert not [a for _, a in p.tags if any(k.startswith("on") for k in a)]
    # The text is all there, made visible where it holds controls.
    assert data["match"]["players"] == list(HOSTILE_NAMES) and data["match"]["title"] == visible(HOSTILE_TITLE)
    texts = [f["text"] for f in decoded_frames(data)]
    for note in HOSTILE_NOTES:
        assert "Note: " + visible(note) in texts
    assert any(HOSTILE_REASON in t for t in texts)
    assert "\u241b[2J\u241b[31mred\u2407 and <U+202E>gnp.exe" in " ".join(texts)
    # What Python itself writes as markup is escaped.
    assert html_escaped(HOSTILE_TITLE) in page and HOSTILE_TITLE not in page
    assert chart_svg(data["match"]).count("&lt;img src=x onerror=alert(2)&gt;") == 1


def html_escaped(text: str) -> str:
    import html as _html

    return _html.escape(visible(text))


def test_html_command_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.html"
    assert html_command(str(SAMPLES / "table-view-match.jsonl"), str(out)) == 0
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert html_command(str(SAMPLES / "table-view-match.jsonl"), None) == 0
    assert capsys.readouterr().out == out.read_text(encoding="utf-8")


def test_html_command_shows_an_invalid_record_with_its_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bad.html"
    assert html_command(str(SAMPLES / "invalid" / "wrong-turn.jsonl"), str(out)) == 1
    err = capsys.readouterr().err
    assert "[turn-order]" in err
    _, data = embedded(out.read_text(encoding="utf-8"))
    v = data["match"]["verdict"]
    assert not v["ok"] and any("[turn-order]" in e and "event 8" in e for e in v["errors"])
    assert 8 not in [f["n"] for f in decoded_frames(data)], "the illegal event is not shown as played"
    # Nothing readable: no page, a message.
    assert html_command(str(tmp_path / "missing.jsonl"), str(tmp_path / "none.html")) == 1
    assert not (tmp_path / "none.html").exists() and capsys.readouterr().err


@pytest.mark.parametrize("where", ["folder", "missing folder", "long name"])
def test_html_command_that_cannot_write_says_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """-o a folder, into a missing folder, or a name too long: one line naming it, exit 2 (as export), no temporary
    file left (found by the hostile campaign's output class: each was a traceback, the folder one left its .tmp file)."""
    (tmp_path / "dir").mkdir()
    out = {"folder": tmp_path / "dir", "missing folder": tmp_path / "no" / "p.html", "long name": tmp_path / ("x" * 300)}[where]
    assert html_command(str(SAMPLES / "table-view-match.jsonl"), str(out)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ginlog: cannot write {out}: ") and len(err.splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"] and not any((tmp_path / "dir").iterdir())


def test_a_16_hand_page_stays_small(tmp_path: Path) -> None:
    page, steps = page_of(long_match(tmp_path / "long.jsonl"))
    assert len(steps[-1].state.hands) == 16
    size = len(page.encode("utf-8"))
    assert size < 1_000_000, f"{size} bytes"
    assert re.search(r'<svg id="chart"', page)


@pytest.fixture(scope="module")
def noted(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two matches with many notes and corrections (some undo a hand's last line, some two events at once):
    standard rules, and Hollywood played to its end."""
    folder = tmp_path_factory.mktemp("noted")
    return [noted_match(folder / "standard.jsonl", 700, seed=3), noted_match(folder / "hollywood.jsonl", 600, seed=4, rules=preset("hollywood"))]


def test_the_compact_frames_rebuild_the_reducers_frames(noted: list[Path]) -> None:
    """The frames the page carries (what changed since the event before) decode to :func:`frame`'s for every
    step, through a decoder written from the format's description; the page is a fraction of the full frames."""
    for path in noted:
        steps, errors = steps_of(path)
        assert not errors
        kinds = [type(s.event).__name__ for s in steps]
        assert kinds.count("Note") > 30 and kinds.count("Correction") > 20, path.name
        page, _ = page_of(path)
        _, data = embedded(page)
        full = full_frames(steps)
        assert decoded_frames(data) == full, path.name
        compact = json.dumps(data["frames"], ensure_ascii=False, separators=(",", ":"))
        assert len(compact) * 3 < len(json.dumps(full, ensure_ascii=False, separators=(",", ":"))), path.name
    assert steps[-1].state.phase == "over" and steps[-1].state.rules.hollywood is not None


def test_texts_past_the_numbered_ones_are_written_out(noted: list[Path]) -> None:
    """A page numbers its first distinct texts only (memory stays bounded); the rest are written in full each time."""
    steps, _ = steps_of(noted[0])
    out = io.BytesIO()
    write_page(steps, out, lambda last: Verdict(head=last.digest), texts_kept=7)
    _, data = embedded(out.getvalue().decode("utf-8"))
    assert data["texts"] == 7 and decoded_frames(data) == full_frames(steps)
    numbered = [f["x"] for f in data["frames"] if isinstance(f["x"], int)]
    assert numbered and max(numbered) == 6


def test_the_page_is_written_as_the_match_is_read(tmp_path: Path) -> None:
    """Frames go out in chunks while the steps are still coming (no list of every frame), and the page of a
    match with many notes and corrections is smaller than its file (it was 2.7 times the file)."""
    path = noted_match(tmp_path / "n.jsonl", 2500, seed=5)
    steps, errors = steps_of(path)
    read = 0

    def counted() -> Iterator[Step]:
        nonlocal read
        for s in steps:
            read += 1
            yield s

    class Out(io.BytesIO):
        seen: list[int] = []

        def write(self, b: Any) -> int:
            self.seen.append(read)
            return super().write(b)

    out = Out()
    assert write_page(counted(), out, lambda last: Verdict.of(errors, last.digest)) is steps[-1]
    assert len(out.seen) > 3 and out.seen[1] < len(steps) // 2, out.seen
    page = out.getvalue().decode("utf-8")
    assert page == page_of(path)[0]
    assert len(out.getvalue()) < path.stat().st_size, (len(out.getvalue()), path.stat().st_size)
    # Every chunk escaped: the notes' markup and line separators stay inside the data, as text.
    raw, data = embedded(page)
    assert not set(raw) & set("<>&\u2028\u2029") and len(parse(page).elements("script")) == 2
    notes = [f["text"] for f in decoded_frames(data) if f["type"] == "note"]
    assert sum("</script>" in t for t in notes) > 20 and any("<U+2028>" in t for t in notes)  # made visible


class Failing(io.BytesIO):
    """A stream that gives ``good`` bytes of a file, then fails as a disk does."""

    def __init__(self, data: bytes, good: int) -> None:
        super().__init__(data)
        self.good = good

    def read1(self, n: int | None = -1) -> bytes:
        if self.tell() >= self.good:
            raise OSError(5, "Input/output error")
        return super().read1(min(self.good if n is None or n < 0 else n, self.good - self.tell()))

    def read(self, n: int | None = -1) -> bytes:
        return self.read1(n)


def test_a_reading_that_stops_leaves_no_page(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The page is written as the file is read; a file that cannot be read to its end leaves nothing at -o
    (and nothing on standard output), as when the page was made after the reading."""
    path = noted_match(tmp_path / "n.jsonl", 2000, seed=6)
    data = path.read_bytes()
    stdin = types.SimpleNamespace(buffer=Failing(data, len(data) // 2))
    monkeypatch.setattr(sys, "stdin", stdin)
    out = tmp_path / "p.html"
    assert html_command("-", str(out)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.jsonl"]
    assert capsys.readouterr().err == "<stdin>: cannot read <stdin>: Input/output error [file]\n"
    stdin.buffer = Failing(data, len(data) // 2)
    assert html_command("-", None) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err == "<stdin>: cannot read <stdin>: Input/output error [file]\n"


@pytest.mark.slow
def test_a_200000_event_page_is_bounded(tmp_path: Path) -> None:
    """Issue 20: ``ginlog html`` of a legal 200,000-event match with many notes and corrections (40 MB) took
    2.9 GB and wrote a page 2.7 times the file; now under 400 MB, and a page under twice the file
    (``benchmarks/bench_page.py --memory 200000`` prints the figures)."""
    from benchmarking import loaded

    match, page = tmp_path / "long.jsonl", tmp_path / "long.html"
    for bench in loaded("bench_page"):
        size = bench.write_events(match, bench.noted_events(200_000, 1))
        peak, _cpu, code = bench.html_in_child(match, page, bench.ROOT)
    assert code == 0
    assert peak < 400, f"{peak:.0f} MB"
    assert page.stat().st_size < 2 * size, (page.stat().st_size, size)


def test_the_page_says_who_sealed_the_record(tmp_path: Path) -> None:
    """Without a club's keys a seal is a key, never a person; under the club's keys it names the players."""
    import io as _io

    from sealing import finished_match, public_line, seal

    from ginlog.app.check.signers import allowed_signers_from
    from ginlog.app.pages.page import page_of_file
    from ginlog.match.policy import Policy
    from ginlog.match.visitors import Steps

    m = finished_match(tmp_path / "m.jsonl")
    a, b = seal(m, "ann_ed25519", "Ann"), seal(m, "bob_ecdsa", "Bob")
    out = _io.BytesIO()
    page_of_file(str(m), "m.jsonl", out)
    page = out.getvalue().decode()
    sealed = embedded(page)[1]["match"]["verdict"]["sealed"]
    assert sealed == (f"signed by key {a.seal.fingerprint}, {b.seal.fingerprint} at event {a.seal.line},"
                      " not checked against a club's keys")
    club = allowed_signers_from(f"Ann {public_line('ann_ed25519')}\nBob {public_line('bob_ecdsa')}\n", "club")
    out = _io.BytesIO()
    page_of_file(str(m), "m.jsonl", out, visitor=Steps(policy=Policy(keyring=club)))
    assert embedded(out.getvalue().decode())[1]["match"]["verdict"]["sealed"] == f"sealed by Ann and Bob at event {a.seal.line}"
    unsealed = finished_match(tmp_path / "u.jsonl")
    out = _io.BytesIO()
    page_of_file(str(unsealed), "u.jsonl", out)
    assert embedded(out.getvalue().decode())[1]["match"]["verdict"]["sealed"] is None
    # The script shows it as text, never as markup (what it says is data like the rest).
    script = (ASSETS / "viewer.js").read_text()
    assert 'el("p", "sealed", v.sealed)' in script  # textContent (test_script_never_parses_markup)


def test_the_seal_words_are_made_visible_like_every_record_text() -> None:
    steps, _ = steps_of(SAMPLES / "table-view-match.jsonl")
    page = match_page(steps, verdict=Verdict(head=steps[-1].digest, sealed="sealed by A\x1b[2J<b>\u202e at event 3"))
    raw, data = embedded(page)
    assert data["match"]["verdict"]["sealed"] == visible("sealed by A\x1b[2J<b>\u202e at event 3")
    assert "\x1b" not in raw and "<b>" not in raw and "\u202e" not in raw
