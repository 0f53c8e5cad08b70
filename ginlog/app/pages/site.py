"""A static site of many matches: ``ginlog html DIR -o SITE/``.

``SITE/index.html`` holds the standings (:class:`~ginlog.app.data.stats.Standings`)
and every match file found under ``DIR`` (its date, players, winner, score
and verdict), each linking to its replay page ``SITE/matches/NAME.html``
(:func:`ginlog.app.pages.page.match_page`, the page ``ginlog html MATCH`` makes).
Every page is self-contained and needs no network: the index is plain HTML
with an inline style allowed by its hash in a Content-Security-Policy that
forbids everything else (no script at all).

Record text is never markup: every string from a record passes through
:func:`ginlog.text.visible` (control and invisible characters made visible)
and :func:`html.escape`. A page's file name is made from the match file's
path, never used as given: the stem with everything but ``A-Z a-z 0-9 _ -``
replaced, cut to 40 characters, then 10 hex digits of the SHA-256 of the
path relative to ``DIR`` (:func:`page_name`), so no name can leave
``SITE/matches`` or collide with another.

Files are read through the one many-file loop (:func:`~ginlog.app.check.verdicts.verdicts`),
each by :func:`read_entry` (one :class:`~ginlog.match.dated.DatedSteps`
reading under the reading policy, which the page needs anyway; it writes
the page and hands back a small :class:`SiteEntry`); the index's rows are
spooled to a temporary file as they are made and the standings written
above them at the end, so memory does not grow with the number of files.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import html
import io
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Final

import attrs

from ginlog import __version__
from ginlog.match.policy import POLICY, Policy
from ginlog.text import visible

from ginlog.match.dated import DatedSteps
from ginlog.app.check.verdicts import Failed
from ginlog.app.check.verdicts import Verdict as FileVerdict
from ginlog.app.data.copies import Copy, counted_once
from ginlog.app.data.players import NO_PLAYERS, Players
from ginlog.match.reading import Step
from ginlog.app.pages.page import csp_hash, page_of_file
from ginlog.app.shell.outputs import RecordInTheWay, Replacement, enter_folder, is_match_record, sweep, write_whole
from ginlog.app.data.stats import MatchSummary, Standings, summarise
from ginlog.match.seals import sealed_words

__all__ = [
    "page_name", "SiteEntry", "read_entry", "build_site", "index_row", "index_page", "INDEX_CSS",
    "SiteFolder", "MANIFEST",
]

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_-]+")


def page_name(path: str, root: str) -> str:
    """The file name of ``path``'s page: a safe stem and a short hash of the path relative to ``root``.

    >>> page_name("games/friday night.jsonl", "games")
    'friday_night-34640a934a.html'
    >>> page_name("games/../../etc/passwd.jsonl", "games")[:7], "/" in page_name("x/<script>.jsonl", "x")
    ('passwd-', False)
    """
    rel = os.path.relpath(path, root)
    stem = _UNSAFE.sub("_", Path(path).stem).strip("_")[:40] or "match"
    return f"{stem}-{hashlib.sha256(rel.encode('utf-8', 'surrogateescape')).hexdigest()[:10]}.html"


def _esc(text: str | None) -> str:
    return "" if text is None else html.escape(visible(text))


def _date(ts: str | None) -> str:
    """``2026-11-29T19:56:25.123Z`` as ``2026-11-29 19:56`` (UTC)."""
    return "" if not ts else _esc(ts[:10] + " " + ts[11:16])


@attrs.frozen
class SiteEntry:
    """One match file as the site shows it: its summary, its page's link (None: no page) and first problem."""

    summary: MatchSummary
    href: str | None
    problem: str | None
    #: who sealed it (:func:`~ginlog.match.seals.sealed_words`: a person only under a club's keys), or None
    sealed: str | None = None


def read_entry(path: str, root: str, site: str, policy: Policy | None = None) -> SiteEntry:
    """Read one match file under the reading policy, writing its replay page into ``SITE/matches`` as it is
    read, and give back its summary and link: the reading the many-file loop hands each path of ``root``
    (module-level, small result: a worker can run it)."""
    visitor = DatedSteps(policy=POLICY if policy is None else policy)  # (a policy with the club's keys: seals by name)
    name = page_name(path, root)
    last, verdict = _write_page(site, name, lambda out: page_of_file(path, path, out, visitor=visitor))
    if last is None:
        return SiteEntry(MatchSummary(verdict), None, verdict.one_line())
    report = visitor.report()
    summary = summarise(visitor.dated(report))
    return SiteEntry(summary, f"matches/{name}", verdict.one_line(), sealed_words(report.seals))


def index_row(entry: SiteEntry, href: str | None, counts: bool = True) -> str:
    """One match in the index's table, every record string escaped (a valid copy that does not count, another
    copy of its match counting: marked so, with why as its title)."""
    s = entry.summary
    if s.players is None:
        players = score = winner = ""
    else:
        players = f"{_esc(s.players[0])} v {_esc(s.players[1])}"
        score = " &middot; ".join(f"{_esc(p)} {t}" for p, t in zip(s.players, s.totals))
        winner = _esc(s.winner_name) if s.winner_name else ("abandoned" if s.phase == "abandoned" else "unfinished" if s.phase != "over" else "nobody")
    if s.ok and not counts:
        why = next((w["message"] for w in s.verdict.warnings if w["rule"] == "copy"), "")
        verdict = f'<td class="copy" title="{_esc(why)}">a copy: counted once</td>'
    elif s.ok:
        verdict = '<td class="ok">valid</td>'
    else:
        n = s.verdict.errors_total
        verdict = f'<td class="bad" title="{_esc(entry.problem)}">invalid: {n} problem{"s" if n != 1 else ""}</td>'
    if entry.sealed is not None:  # who vouches for the record (its words name a person only under a club's keys)
        verdict = verdict[:-5] + f'<br><span class="sealed">{_esc(entry.sealed)}</span></td>'
    title = _esc(s.title) if s.title else players
    link = f'<a href="{html.escape(href)}">{title or _esc(os.path.basename(s.file))}</a>' if href else (title or _esc(s.file))
    return (
        f"<tr><td>{_date(s.start)}</td><td>{link}</td><td>{players}</td><td>{winner}</td>"
        f"<td>{score}</td><td class=\"n\">{s.hands}</td>{verdict}<td class=\"file\">{_esc(s.file)}</td></tr>\n"
    )


INDEX_CSS: Final = """
body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#222;background:#fafaf7}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
th{background:#eee}td.n,th.n{text-align:right}
td.ok{color:#176b2c}.sealed{color:#555;font-weight:400;font-size:.85em}td.copy{color:#666}td.bad{color:#a31515;font-weight:600}td.file{color:#666;font-size:.85em;word-break:break-all}
a{color:#1a4f9c}footer{margin-top:2rem;color:#666;font-size:.85em}
"""

_STANDING_COLUMNS: Final = (
    ("Player", "name"), ("Matches", "matches"), ("Won", "matches_won"), ("Hands", "hands"),
    ("Hands won", "hands_won"), ("Points", "points"), ("Bonus points", "bonus_points"), ("Total", "total_points"),
    ("Gins", "gins"), ("Knocks", "knocks"),
    ("Undercuts", "undercuts"), ("Rating", "rating"),
)


def _standings_html(standings: Standings) -> str:
    head = "".join(f'<th{"" if key == "name" else " class=n"}>{label}</th>' for label, key in _STANDING_COLUMNS)
    rows = []
    for p in standings.players():
        cells = []
        for _label, key in _STANDING_COLUMNS:
            v = p[key]
            cells.append(f"<td>{_esc(v)}</td>" if key == "name" else f'<td class="n">{"" if v is None else v}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    if not rows:
        return "<p>No valid match yet.</p>"
    return f"<table id=\"standings\"><thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>"


def _index_head(title: str) -> str:
    csp = f"default-src 'none'; style-src {csp_hash(INDEX_CSS)}; img-src data:; base-uri 'none'; form-action 'none'"
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_esc(title)}</title>\n<style>{INDEX_CSS}</style>\n</head>\n<body>\n<h1>{_esc(title)}</h1>\n"
    )


def index_page(title: str, standings: Standings, rows: IO[str], counts: tuple[int, int], out: IO[str]) -> None:
    """Write the index: the standings, then the match rows copied from ``rows``; ``counts`` = (valid, invalid)."""
    valid, invalid = counts
    out.write(_index_head(title))
    out.write(f"<h2>Standings</h2>\n<p>{valid} valid match file{'s' if valid != 1 else ''}"
              + (f", {invalid} invalid (left out of the standings)" if invalid else "") + ".</p>\n")
    out.write(_standings_html(standings))
    out.write(
        "\n<h2>Matches</h2>\n<table id=\"matches\"><thead><tr><th>Date (UTC)</th><th>Match</th><th>Players</th>"
        "<th>Winner</th><th>Score</th><th class=n>Hands</th><th>Verdict</th><th>File</th></tr></thead><tbody>\n"
    )
    shutil.copyfileobj(rows, out)
    out.write(
        "</tbody></table>\n<footer><p>Ratings: Elo, everyone from 1500, K = 32, finished matches in the order they began. "
        f"Made by ginlog {__version__}; these pages need no network.</p></footer>\n</body>\n</html>\n"
    )


def _write_page(site: str, name: str, write: Callable[[IO[bytes]], tuple[Step | None, FileVerdict]]) -> tuple[Step | None, FileVerdict]:
    """Put one page in ``SITE/matches`` as ``write`` writes it (nothing when it gives no last step), entering
    both folders without following a link (a worker does this on its own: the client has made and checked
    them, and a link put there since is refused, not followed)."""
    fd = os.open(site, _FOLDER)
    try:
        matches = os.open("matches", _FOLDER, dir_fd=fd)
        try:
            out = Replacement(name, dir_fd=matches, swept=True)  # SiteFolder swept it
            try:
                last, verdict = write(out.file)
            except BaseException:
                out.abandon()
                raise
            if last is None:
                out.abandon()
            else:
                out.done()
            return last, verdict
        finally:
            os.close(matches)
    finally:
        os.close(fd)


def _parts(entry: SiteEntry) -> tuple[FileVerdict, Copy | None]:
    return entry.summary.parts()


def build_site(
    entries: Iterable[SiteEntry | Failed],
    site: str,
    *,
    title: str = "ginlog matches",
    done: Callable[[MatchSummary], None] | None = None,
    players: Players = NO_PLAYERS,
) -> Standings:
    """Write the site's index for ``entries`` (what :func:`read_entry` made of each file, its page written,
    or a file that could not be read) into ``site``.

    ``entries`` is taken lazily, after the folder is entered: the many-file
    loop over :func:`read_entry` (``functools.partial(read_entry, root=DIR,
    site=SITE)``). ``done`` is called with each file's
    summary once every file is in (to list the invalid files and the copies). Returns the standings
    (their ``valid``, ``invalid`` and ``copies`` counts too).

    Each match counts once, and the index lists the files in the order the
    matches began, whatever the order they were read in
    (:func:`~ginlog.app.data.copies.counted_once`); ``players`` names each
    player as the club's players file does.

    The site's folder and its ``matches/`` are entered without following a
    link (:class:`SiteFolder`); every file goes in through
    :class:`~ginlog.app.shell.outputs.Replacement`, never over a match record;
    the pages of matches no longer among the inputs are removed at the end
    (the manifest says which pages this site wrote), and nothing else is.
    """
    with SiteFolder(site) as folder:
        standings = Standings()
        written: list[str] = []
        with tempfile.TemporaryFile("w+", encoding="utf-8") as rows:
            read = (SiteEntry(MatchSummary(item.verdict), None, item.verdict.one_line()) if isinstance(item, Failed) else item
                    for item in entries)
            for entry, verdict, counts in counted_once(read, _parts):
                summary = attrs.evolve(entry.summary, verdict=verdict).renamed(players)
                entry = attrs.evolve(entry, summary=summary, problem=summary.verdict.one_line())
                if entry.href is not None:
                    written.append(entry.href.removeprefix("matches/"))
                standings.add(summary, counts=counts and summary.ok)
                rows.write(index_row(entry, entry.href, counts or not summary.ok))
                if done is not None:
                    done(summary)
            rows.seek(0)
            with Replacement("index.html", dir_fd=folder.fd) as index:
                out = io.TextIOWrapper(index.file, encoding="utf-8")
                index_page(title, standings, rows, (standings.valid, standings.invalid), out)
                out.flush()
                out.detach()  # the file stays the Replacement's to put in place
        folder.keep(written)
    return standings


#: The manifest: which pages this site wrote (so a rebuild removes those of matches gone since, and nothing else).
MANIFEST: Final = ".ginlog-site.json"
#: A page's name as :func:`page_name` makes it.
_PAGE: Final = re.compile(r"\A[A-Za-z0-9_-]{1,40}-[0-9a-f]{10}\.html\Z")
#: Open a folder of the site: never through a link.
_FOLDER: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
#: The mark every replay page carries near its top.
_MARK: Final = b'<meta name="generator" content="ginlog '


class SiteFolder:
    """A site's folder and its ``matches/``, opened without following links and locked while a build runs.

    The folder the user named may sit under links (they are followed up to
    it); the folder itself and ``matches/`` must not be links, or the build
    stops before writing anything (a planted ``SITE/matches`` link would
    send pages anywhere). A second build of the same site waits for none:
    it stops, since the first one's pages are not yet all written.
    :meth:`keep` writes the manifest and removes the pages the last build
    wrote that this one did not.
    """

    def __init__(self, site: str) -> None:
        self.site = site
        self.fd = enter_folder(site, None, site)
        try:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise BlockingIOError(errno.EWOULDBLOCK, "another ginlog is writing this site", site) from None
            if is_match_record("index.html", dir_fd=self.fd):  # before any page is made
                index = os.path.join(site, "index.html")
                raise RecordInTheWay(errno.EEXIST, f"{index} is a match record: ginlog never writes over one")
            self.matches = enter_folder("matches", self.fd, os.path.join(site, "matches"))
            sweep(None, self.fd)  # once a folder: what killed builds left (its pages are written swept=True)
            sweep(None, self.matches)
        except BaseException:
            os.close(self.fd)
            raise
        self._before = self._manifest()

    def _manifest(self) -> list[str]:
        try:
            fd = os.open(MANIFEST, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=self.fd)
        except OSError:
            return []
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return []
            data = json.loads(os.read(fd, 64 << 20))
        except (OSError, ValueError):
            return []
        finally:
            os.close(fd)
        pages = data.get("pages") if isinstance(data, dict) else None
        return [p for p in pages if isinstance(p, str) and _PAGE.match(p)] if isinstance(pages, list) else []

    def keep(self, written: list[str]) -> list[str]:
        """Record ``written`` as the site's pages; remove the earlier build's others (the names removed)."""
        keep = set(written)
        removed = [name for name in self._before if name not in keep and _remove_page(name, self.matches)]
        body = json.dumps({"ginlog_site": 1, "pages": sorted(keep)}, indent=0).encode("utf-8")
        write_whole(MANIFEST, body + b"\n", dir_fd=self.fd)
        return removed

    def __enter__(self) -> SiteFolder:
        return self

    def __exit__(self, *_: object) -> None:
        for fd in (self.matches, self.fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def _remove_page(name: str, dir_fd: int) -> bool:
    """Remove an old page only if it is surely one this site wrote: a regular file, not a link, one link,
    ours, marked as a ginlog page, not a match record."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_uid != os.geteuid():
            return False
        if _MARK not in os.read(fd, 4096) or is_match_record(name, dir_fd=dir_fd):
            return False
    finally:
        os.close(fd)
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        return False
    return True
