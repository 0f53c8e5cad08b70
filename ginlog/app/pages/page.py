"""The replay page: one self-contained HTML file that steps through a match (``ginlog html``).

Like lichess's embeddable game viewer, the page draws the table at every
event, lists the events (notes and corrections marked; click one to jump)
and steps with the keys. It needs nothing outside itself: the data, the
script and the style are inline, a Content-Security-Policy ``<meta>`` lets
only that script and that style run (by their hashes) and forbids every
fetch, so it opens the same from ``file://``, a mail attachment or a server.

The page is written as the match is read (:func:`write_page`): the head, then
the data element with one compact frame per event
(:class:`~ginlog.app.pages.page_data.CompactFrames`: what changed since the
event before; the script rebuilds the frames), then, once the last event is
read, the match-level part, the chart and the script. Memory does not grow
with the match, and the page is a fraction of the frames' full size.

Record text is never markup here. The data (:mod:`ginlog.app.pages.page_data`, the
only reader of the state) goes in a ``<script type="application/json">`` with
``<``, ``>``, ``&``, U+2028 and U+2029 written as ``\\u003c`` and so on, so no
string can close the element; the script builds the page with
``textContent`` and ``createElement`` only; and the few things Python writes
as markup (the title, the chart's names) pass through :func:`html.escape`.

>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.play.reducer import start, apply
>>> from ginlog.game.rules import preset
>>> from ginlog.match.reading import Step
>>> events = simulate_match(preset("standard"), seed=3, max_hands=1)
>>> tl, steps = start(events[0], 1), []
>>> for n, e in enumerate(events, 1):
...     tl = tl if n == 1 else apply(tl, e, n)
...     steps.append(Step(n, n, e, tl, "%064x" % n))
>>> page = match_page(steps, verdict=Verdict(head=steps[-1].digest))
>>> page.startswith("<!doctype html>"), "https:" in page, 'id="ginlog-data"' in page
(True, False, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import resources
from typing import IO, Any, Final

from ginlog import __version__
from ginlog.app.check.verdicts import Verdict as FileVerdict
from ginlog.errors import EventError, GinlogError, StoreError
from ginlog.log.reader import Source
from ginlog.match.policy import POLICY
from ginlog.match.reading import Step, walk
from ginlog.match.visitors import Steps
from ginlog.play.state import MatchState

from ginlog.app.pages.page_data import TEXTS_KEPT, CompactFrames, Verdict, frame, match_data, match_part, page_title, visible

__all__ = ["match_page", "write_page", "page_of_file", "embed_json", "chart_svg", "csp_hash", "Verdict", "frame", "match_data"]

#: What :func:`embed_json` writes as ``\\uXXXX``: whatever could end a script element or an HTML comment
#: (``</script``, ``<!--``), and the two line separators old JavaScript parsers choke on.
_JSON_ESCAPES: Final = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _escaped(text: str) -> str:
    """JSON text with what could end a script element written as ``\\uXXXX`` (see :func:`embed_json`)."""
    # One str.replace per character, not str.translate: on a page's JSON (tens of KB) it is
    # about 17x faster, and no replacement holds a character another one replaces.
    for char, escape in _JSON_ESCAPES.items():
        text = text.replace(char, escape)
    return text


def embed_json(data: Any) -> str:
    """``data`` as JSON that is safe inside ``<script type="application/json">``.

    The characters replaced only ever occur inside JSON strings, where the
    escape means the same character, so ``JSON.parse`` gives back ``data``.

    >>> embed_json({"note": "</script><b>&"})
    '{"note":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    >>> json.loads(embed_json({"note": "</script>\\u2028"})) == {"note": "</script>\\u2028"}
    True
    """
    return _escaped(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def csp_hash(text: str) -> str:
    """The CSP source expression for an inline element's text: ``'sha256-<base64>'``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _asset(name: str) -> str:
    return resources.files("ginlog.app.pages").joinpath("page_assets", name).read_text(encoding="utf-8")


def _nice_step(top: int) -> int:
    """A grid step that gives four to eight lines up to ``top``."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 8:
            return step
    return max(1, top // 8)


def chart_svg(match: dict[str, Any]) -> str:
    """The running totals by hand as an inline ``<svg id="chart">``: one polyline per player.

    Built from :func:`match_data`'s ``match`` part only (the score sheet's
    rows); each line has a point for the start (0) and one per finished hand.
    Under Hollywood scoring there is a line per player and game (``data-game``
    1 to 3, each game its own dash), against the target each game closes at,
    and each game's close is marked at its hand (``.closed``, ``game 2
    closed``), so no summed line crosses the target long before the match
    ends. Names are escaped; nothing else in it comes from the record.
    """
    players = match["players"]
    sheet = match["sheet"]
    rows = sheet["hands"]
    target = sheet["rules"].get("game_target")
    games = sheet.get("games") or []
    if games:
        series = [(i, g + 1, [0] + [int(r["game_totals"][g].get(p, 0)) for r in rows])
                  for g in range(len(games)) for i, p in enumerate(players)]
    else:
        series = [(i, 0, [0] + [int(r["totals"][p]) for r in rows]) for i, p in enumerate(players)]
    width, height, left, right, top, bottom = 640, 240, 44, 16, 30, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max([1, target or 0, *(v for _, _, values in series for v in values)])
    grid = _nice_step(peak)
    ymax = -(-peak // grid) * grid
    n = max(1, len(rows))
    dx = plot_w / n

    def x(k: int) -> float:
        return round(left + k * dx, 1)

    def y(v: int) -> float:
        return round(top + plot_h * (1 - v / ymax), 1)

    title = "Running totals of the three games after each hand" if games else "Running totals after each hand"
    out = [
        f'<svg id="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title" '
        f'data-left="{left}" data-dx="{round(dx, 3)}" data-hands="{len(rows)}">',
        f'<title id="chart-title">{title}</title>',
    ]
    for v in range(0, ymax + 1, grid):
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}"/>')
        out.append(f'<text class="tick" x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{v}</text>')
    label_every = max(1, -(-len(rows) // 16))
    for k in range(0, len(rows) + 1):
        if k % label_every == 0 or k == len(rows):
            out.append(f'<text class="tick" x="{x(k)}" y="{height - bottom + 16}" text-anchor="middle">{k}</text>')
    if target:
        out.append(f'<line class="target" x1="{left}" x2="{width - right}" y1="{y(target)}" y2="{y(target)}"/>')
    numbers = [int(r["number"]) for r in rows]
    for g in games:
        if g["closed_at"] is None or g["closed_at"] not in numbers:
            continue
        k = numbers.index(g["closed_at"]) + 1
        out.append(f'<line class="closed" data-game="{g["number"]}" x1="{x(k)}" x2="{x(k)}" y1="{top}" y2="{height - bottom}"/>')
        out.append(f'<text class="closed-label" x="{x(k) - 3}" y="{top + 10 + 11 * (g["number"] - 1)}" '
                   f'text-anchor="end">game {g["number"]} closed</text>')
    out.append(f'<line id="chart-now" class="now" x1="{left}" x2="{left}" y1="{top}" y2="{height - bottom}"/>')
    for i, game, values in series:
        points = " ".join(f"{x(k)},{y(v)}" for k, v in enumerate(values))
        cls, attrs = (f"line p{i} g{game}", f' data-game="{game}"') if game else (f"line p{i}", "")
        out.append(f'<polyline class="{cls}" data-player="{i}"{attrs} points="{points}"/>')
        for k, v in enumerate(values[1:], 1):
            out.append(f'<circle class="dot p{i}" cx="{x(k)}" cy="{y(v)}" r="{2 if game else 3}"/>')
    for i, name in enumerate(players):
        lx = left + i * 200
        out.append(f'<line class="line p{i}" x1="{lx}" x2="{lx + 22}" y1="12" y2="12"/>')
        out.append(f'<text class="legend" x="{lx + 28}" y="16">{html.escape(name)}</text>')
    if games:
        out.append(f'<text class="tick" x="{left + 290}" y="16">game 1 solid, 2 dashed, 3 dotted</text>')
    out.append(f'<text class="tick" x="{width - right}" y="16" text-anchor="end">hand</text>')
    out.append("</svg>")
    return "\n".join(out)


#: The page up to its frames (the data element opened: the frames follow, then :data:`_TAIL`).
_HEAD: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ginlog {version}">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<script type="application/json" id="ginlog-data">{{"frames":["""

#: The page after its frames: the rest of the data, the body, the script.
_TAIL: Final = """],"types":{types},"texts":{texts},"match":{match}}}</script>
<header class="top">
<h1 id="title">{title}</h1>
<p id="players"></p>
<p id="verdict-badge"></p>
</header>
<main>
<section id="board" aria-label="The table">
<div class="bar">
<nav id="nav" class="controls" aria-label="Step through the events">
<button type="button" id="first" title="First event (Home)">|&lsaquo;</button>
<button type="button" id="prev-hand" title="Previous hand (PageUp)">&laquo;</button>
<button type="button" id="prev" title="Previous event (ArrowLeft)">&lsaquo;</button>
<span class="where">event <b id="step">1</b> of <span id="count">1</span></span>
<button type="button" id="next" title="Next event (ArrowRight)">&rsaquo;</button>
<button type="button" id="next-hand" title="Next hand (PageDown)">&raquo;</button>
<button type="button" id="last" title="Last event (End)">&rsaquo;|</button>
</nav>
<p id="score" aria-live="polite"></p>
</div>
<div id="seeas" class="controls" role="group" aria-label="See the table as">
<span>see as</span>
<button type="button" data-view="both" aria-pressed="true">both</button>
<button type="button" data-view="0" aria-pressed="false"></button>
<button type="button" data-view="1" aria-pressed="false"></button>
</div>
<p id="status"></p>
<div id="felt">
<div class="seat" id="seat-0"><p class="who"></p><div class="hand" id="hand-0"></div></div>
<div class="middle">
<div id="stock" class="zone"><p class="label">stock</p><div class="stack"><span class="card back"></span></div><p id="stock-count"></p></div>
<div id="pile" class="zone"><p class="label">pile</p><div class="cards" id="pile-cards"></div></div>
<div id="facedown" class="zone"><p class="label">face down</p><div class="cards" id="facedown-card"></div></div>
</div>
<div class="seat" id="seat-1"><p class="who"></p><div class="hand" id="hand-1"></div></div>
</div>
<p id="event-text"></p>
<div id="result" hidden></div>
</section>
<section id="list" aria-label="Events">
<h2>Events</h2>
<ol id="events"></ol>
</section>
</main>
<section id="hands"><h2>Hands</h2><div id="hand-results"></div></section>
<section id="sheet"><h2>Score sheet</h2><div class="scroll"><table id="score-sheet"></table></div><p id="sheet-notes"></p></section>
<section id="chart-box"><h2>Running totals</h2>
{chart}
</section>
<section id="audit"><h2>Audit</h2><div id="verdict"></div></section>
<section id="rules"><h2>Rules</h2><p id="rules-summary"></p><details><summary>every rule</summary><table id="rules-table"></table></details></section>
<footer><p>Keys: &larr; &rarr; one event, Home/End first/last, PageUp/PageDown one hand. Made by ginlog {version}; this file needs no network.</p></footer>
<script>{js}</script>
</body>
</html>
"""


#: How many characters of compact frames are gathered before they are written out.
_CHUNK: Final = 1 << 16


def _csp(css: str, js: str) -> str:
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src {csp_hash(js)}",
            f"style-src {csp_hash(css)}",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


def write_page(
    steps: Iterable[Step],
    out: IO[bytes],
    verdict: Callable[[Step], Verdict],
    *,
    title: str | None = None,
    texts_kept: int = TEXTS_KEPT,
) -> Step | None:
    """Write the page of ``steps`` (a match file's, in order) to ``out`` as they come; the last step, or None
    (nothing written) when there is none.

    Only one step and the compact frame before are held at a time
    (:class:`~ginlog.app.pages.page_data.CompactFrames`), and the frames go out
    in chunks of about 64 KB. ``verdict`` is asked once the last step is
    read, with it: what reading the file found wrong (the page's audit box).
    ``title`` defaults to the match's own title, then to the players' names;
    ``texts_kept``: how many distinct texts the frames number (the tests make it small).
    """
    it = iter(steps)
    first = next(it, None)
    if first is None:
        return None
    css, js = _asset("viewer.css"), _asset("viewer.js")
    state: MatchState = first.state
    shown_title = html.escape(page_title(state, title))
    out.write(_HEAD.format(csp=_csp(css, js), version=__version__, title=shown_title, css=css).encode("utf-8"))
    frames = CompactFrames(state.players, texts_kept)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    chunk: list[str] = []
    size, sep = 0, ""
    before: MatchState | None = None
    last = first
    for s in _chained(first, it):
        text = dumps(frames.add(visible(frame(s, before))))
        chunk.append(text)
        size += len(text)
        if size >= _CHUNK:
            out.write((sep + _escaped(",".join(chunk))).encode("utf-8"))
            chunk, size, sep = [], 0, ","
        before, last = s.state, s
    if chunk:
        out.write((sep + _escaped(",".join(chunk))).encode("utf-8"))
    match = match_part(last.state, verdict(last), title)
    tail = _TAIL.format(
        types=embed_json(frames.types), texts=texts_kept, match=embed_json(match), version=__version__, title=shown_title,
        chart=chart_svg(match), js=js,
    )
    out.write(tail.encode("utf-8"))
    return last


def _chained(first: Step, rest: Iterator[Step]) -> Iterator[Step]:
    yield first
    yield from rest


def match_page(steps: Sequence[Step], *, verdict: Verdict, title: str | None = None) -> str:
    """The whole page for a match file's ``steps`` (in order, at least the first line), as text.

    ``verdict`` is what reading the file found wrong (shown in the page's
    audit box); ``title`` defaults to the match's own title, then to the
    players' names. Pure: it reads nothing but the packaged script and style.
    """
    if not steps:
        raise ValueError("a match page needs at least the match_started line")
    out = io.BytesIO()
    write_page(steps, out, lambda _last: verdict, title=title)
    return out.getvalue().decode("utf-8")


def page_of_file(
    source: Source, name: str, out: IO[bytes], *, visitor: Steps | None = None, title: str | None = None
) -> tuple[Step | None, FileVerdict]:
    """Read a match file and write its page to ``out`` as it is read; the last step and the file's
    :class:`~ginlog.app.check.verdicts.Verdict`, as every command gives it.

    The last step is None when there is no page: the file has no event, or
    could not be read to its end (what ``out`` holds then is to be thrown
    away; the verdict has the one problem). ``visitor`` (a
    :class:`~ginlog.match.visitors.Steps` under the reading policy by default)
    is read through. An ``OSError`` raised is ``out``'s: writing failed.
    """
    visitor = visitor if visitor is not None else Steps(policy=POLICY)
    stopped: list[GinlogError] = []

    def steps() -> Iterator[Step]:
        try:
            yield from walk(source, visitor, name=name)
        except GinlogError as exc:
            stopped.append(exc if exc.path else exc.at(path=name))
        except OSError as exc:
            stopped.append(StoreError(f"cannot read the file: {exc.strerror or exc}", rule="file", path=name))

    verdicts: list[FileVerdict] = []

    def verdict(last: Step) -> Verdict:
        from ginlog.match.seals import sealed_words

        report = visitor.report()
        verdicts.append(FileVerdict.of(report))
        return Verdict.of_file(verdicts[-1], last.digest, sealed_words(report.seals))

    last = write_page(steps(), out, verdict, title=title)
    if stopped:
        return None, FileVerdict(name, (stopped[0].to_dict(),))
    if last is None:
        report = visitor.report()
        if not report.errors_total:
            empty = EventError("the file is empty: a match file begins with match_started", rule="first-event", path=name)
            return None, FileVerdict(name, (empty.to_dict(),))
        return None, FileVerdict.of(report)
    return last, verdicts[0]
