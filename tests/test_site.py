"""``ginlog html DIR -o SITE/``: the index lists every match with its winner, score and verdict; each page is there and self-contained."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import attrs
import pytest

from ginlog.app.cli import data as cli_data
from ginlog.app.pages.site import page_name
from ginlog.app.views.match_json import score_json
from ginlog.play.reducer import fold
from ginlog.text import visible

from data_matches import EPOCH, Generated, corpus, ts_at, write
from page_matches import HOSTILE_NAMES, HOSTILE_TITLE, hostile_events

HOSTILE_FILE = '"><img src=x onerror=alert(9)>.jsonl'


class Tables(HTMLParser):
    """The text of every cell of every table, and every link, by table id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.links: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self.tags: list[str] = []
        self.urls: list[str] = []  # every src and href of an element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        self.urls += [v or "" for k, v in attrs if k in ("src", "href", "action", "srcset")]
        if tag == "table":
            self._table = a.get("id") or "?"
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Generated], list[Path], int]:
    folder = tmp_path_factory.mktemp("site")
    made, bad = corpus(folder / "games")
    events = hostile_events()
    hostile = write(folder / "games" / "valid" / HOSTILE_FILE, events, EPOCH)
    made.append(Generated(hostile, tuple(events), EPOCH))
    site = folder / "out"
    code = cli_data.site(str(folder / "games"), str(site))
    return folder / "games", site, made, bad, code


def parse(path: Path) -> Tables:
    t = Tables()
    t.feed(path.read_text(encoding="utf-8"))
    return t


def test_index_lists_every_match(built: Any) -> None:
    root, site, made, bad, code = built
    assert code == 1  # invalid files among them
    t = parse(site / "index.html")
    rows = {r[-1]: r for r in t.tables["matches"][1:]}
    assert set(rows) == {visible(str(g.path)) for g in made} | {str(p) for p in bad}
    for g in made:
        state = fold(list(g.events)).state
        sheet = score_json(state, None)
        date, _match, players, winner, score, hands, verdict, _file = rows[visible(str(g.path))]
        assert date == ts_at(g.start)[:10] + " " + ts_at(g.start)[11:16]
        assert players == f"{visible(state.players[0])} v {visible(state.players[1])}"
        assert winner == (visible(sheet["winner"]) if sheet["winner"] else "abandoned" if state.phase == "abandoned" else "unfinished")
        assert score == " \u00b7 ".join(f"{visible(p)} {sheet['totals'][p]}" for p in state.players)
        assert hands == str(len(state.hands)) and verdict == "valid"
    for p in bad:
        assert rows[str(p)][6].startswith("invalid: ")
    # The standings: one row per player of the valid files, as stats computes them.
    standings = {r[0]: r for r in t.tables["standings"][1:]}
    assert set(standings) == {"Ann", "Bob", "Cy", "Dee", *(visible(n) for n in HOSTILE_NAMES)}
    # issue 21: hand points, bonus points and their total, the total being the player's match totals added up
    head = t.tables["standings"][0]
    points, bonus, total = (head.index(h) for h in ("Points", "Bonus points", "Total"))
    want: dict[str, int] = {}
    for g in made:
        sheet = score_json(fold(list(g.events)).state, None)
        for p, v in sheet["totals"].items():
            want[visible(p)] = want.get(visible(p), 0) + v
    assert {n: int(r[total]) for n, r in standings.items()} == want
    assert all(int(r[points]) + int(r[bonus]) == int(r[total]) for r in standings.values())


def test_each_page_exists_and_is_self_contained(built: Any) -> None:
    root, site, made, bad, _code = built
    t = parse(site / "index.html")
    pages = sorted((site / "matches").iterdir())
    # One page per readable file (the edited file still has its first lines; the empty and garbage ones have none).
    readable = [g.path for g in made] + [p for p in bad if p.name == "edited.jsonl"]
    assert sorted(p.name for p in pages) == sorted(page_name(str(p), str(root)) for p in readable)
    assert sorted(t.links) == sorted(f"matches/{p.name}" for p in pages)
    for p in [site / "index.html", *pages]:
        text = p.read_text(encoding="utf-8")
        urls = parse(p).urls
        assert all(not re.match(r"[a-z]+:|//", u) or u.startswith("data:") for u in urls), (p, urls)
        assert "Content-Security-Policy" in text and "default-src 'none'" in text
    for p in pages:
        assert re.fullmatch(r"[A-Za-z0-9_-]+-[0-9a-f]{10}\.html", p.name), p.name


def test_hostile_text_is_text_in_the_index(built: Any) -> None:
    _root, site, _made, _bad, _code = built
    text = (site / "index.html").read_text(encoding="utf-8")
    t = parse(site / "index.html")
    assert "script" not in t.tags and "img" not in t.tags and "svg" not in t.tags
    for raw in (*HOSTILE_NAMES, HOSTILE_TITLE, HOSTILE_FILE):
        assert raw not in text
    assert html.escape(visible(HOSTILE_TITLE)) in text
    cells = [c for r in t.tables["matches"] for c in r]
    assert visible(HOSTILE_TITLE) in cells and any(c.endswith(HOSTILE_FILE) for c in cells)


def test_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_data.site(str(tmp_path / "nope"), str(tmp_path / "out")) == 2
    (tmp_path / "file").write_text("x")
    assert cli_data.site(str(tmp_path), str(tmp_path / "file")) == 2


@pytest.mark.parametrize("where", ["long name", "matches is a file"])
def test_a_site_that_cannot_be_written_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """A site folder that cannot be made or written: one line naming it, exit 2 (was a traceback)."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "m.jsonl").write_bytes((Path(__file__).parents[1] / "sample_games" / "standard-match.jsonl").read_bytes())
    out = tmp_path / ("x" * 300) if where == "long name" else tmp_path / "site"
    if where == "matches is a file":
        out.mkdir()
        (out / "matches").write_text("mine")
    assert cli_data.site(str(tmp_path / "in"), str(out)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ginlog: cannot write {out}: ") and len(err.splitlines()) == 1, err
    assert not [p for p in tmp_path.rglob("*") if ".tmp" in p.name]


def test_an_empty_folder_makes_an_empty_index(tmp_path: Path) -> None:
    """A folder with no match file: an index saying so (no standings), and exit 1 as for audit (issue 13)."""
    (tmp_path / "in").mkdir()
    assert cli_data.site(str(tmp_path / "in"), str(tmp_path / "out")) == 1
    t = parse(tmp_path / "out" / "index.html")
    assert "standings" not in t.tables and "no match file" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert json.dumps(t.tables)  # parsed


def test_the_index_says_who_sealed_each_match(tmp_path: Path) -> None:
    """A sealed file's verdict says which keys signed it (the site has no club's keys: never a person's name),
    escaped like every record text; an unsealed one says nothing of seals."""
    from sealing import finished_match, seal

    from ginlog.app.pages.site import SiteEntry, index_row, read_entry

    games, site = tmp_path / "games", tmp_path / "out"
    games.mkdir()
    m = finished_match(games / "m.jsonl")
    a = seal(m, "ann_ed25519", "Ann")
    finished_match(games / "u.jsonl", seed=4)
    assert cli_data.site(str(games), str(site)) == 0
    rows = {r[-1]: r for r in parse(site / "index.html").tables["matches"][1:]}
    assert rows[str(games / "m.jsonl")][6] == (f"valid{'signed by key ' + a.seal.fingerprint} at event {a.seal.line},"
                                             " not checked against a club's keys")
    assert rows[str(games / "u.jsonl")][6] == "valid" and "sealed by" not in (site / "index.html").read_text()
    entry = read_entry(str(m), str(games), str(site))
    hostile = attrs.evolve(entry, sealed="sealed by <img src=x onerror=alert(1)>\x1b[2J at event 3")
    row = index_row(hostile, "matches/m.html")
    assert "<img" not in row and "\x1b" not in row and html.escape(visible(hostile.sealed or "")) in row
    assert isinstance(hostile, SiteEntry)
