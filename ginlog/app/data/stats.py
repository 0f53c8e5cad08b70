"""Standings and statistics over many matches, folded one match at a time (``ginlog stats``).

Two steps, both pure. :func:`summarise` turns one read file
(:class:`~ginlog.match.dated.DatedReport`, read under the reading policy:
:func:`summary_of` is the reading the many-file loop hands each path) into a
small :class:`MatchSummary`: its verdict (:class:`~ginlog.app.check.verdicts.Verdict`,
the one every command gives), who played, who won, and each seat's figures
in that match (:class:`SeatFigures`). :class:`Standings` folds summaries into per-player
and per-pair accumulators and an :class:`~ginlog.app.data.rating.Elo`, so memory
grows with the players, not with the files (the rating keeps 16 bytes a
rated match: see :mod:`ginlog.app.data.rating`). An invalid file is counted and
its verdict kept by the caller, but none of its figures enter the standings.

What each figure counts, per player, over the valid files they play in:

``matches`` / ``matches_finished`` / ``matches_won``
    files; those whose match is over; those they won. ``match_win_rate`` is
    won / finished.
``hands`` / ``hands_won``
    hands played (void hands included) / hands they scored. ``hand_win_rate``.
``points`` / ``bonus_points`` / ``total_points``
    points of the hands they won / everything else in their total (game
    bonus, boxes, shutout; under Hollywood a hand's points in its second and
    third games too) / the two together, their match totals added up.
    ``points_per_hand`` = points / hands.
``gins``
    hands they went gin or big gin in: out with no deadwood, however
    recorded (a knock that leaves none is a gin, not a knock), won or not
    (a gin that scores 0 is still one). ``gin_rate`` = gins / hands.
``knocks``
    hands they knocked in with deadwood (1 or more), undercut or not: a
    hand is a knock or a gin, never both (:func:`~ginlog.game.scoring.went_out`,
    the export's ``how``). ``knock_rate``.
``undercuts`` / ``was_undercut``
    hands they won by undercutting the knocker / hands they knocked in and
    were undercut. ``undercut_rate`` = undercuts / the opponent's knocks.
``avg_deadwood_knocking`` / ``avg_deadwood_defending``
    mean deadwood over their knocks (so gins apart, each 1 or more) / mean deadwood, after
    lay-offs, when the opponent went out (knock, gin or big gin).
``rating`` / ``rated_matches``
    Elo (:mod:`ginlog.app.data.rating`) over the finished matches with a winner.

Rates are None where their denominator is 0, and rounded to 4 places.

>>> from ginlog.game.rules import preset
>>> from ginlog.play.reducer import fold
>>> from ginlog.play.simulate import simulate_match
>>> from ginlog.match.visitors import MatchReport
>>> from ginlog.match.dated import DatedReport
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> s = summarise(DatedReport(MatchReport("m.jsonl", state, (), 9, None), "2026-01-01T00:00:00.000Z", None, None))
>>> table = Standings()
>>> table.add(s)
>>> [p["name"] for p in table.players()] == sorted(state.players, key=lambda n: n != s.winner_name)
True
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import Any, Final

import attrs

from ginlog.app.check.verdicts import STDIN, Failed, Verdict
from ginlog.errors import GinlogError
from ginlog.game.rules import PRESETS, Rules, rules_to_dict
from ginlog.game.scoring import went_out
from ginlog.game.seats import OTHER, SEATS, Seat
from ginlog.play.state import MatchState

from ginlog.match.dated import DatedReport
from ginlog.app.data.copies import Copy, Differ, counted_once, first_difference
from ginlog.app.data.players import NO_PLAYERS, Lookalikes, Players
from ginlog.app.data.rating import Elo
from ginlog.text import quoted

__all__ = [
    "SeatFigures", "MatchSummary", "summarise", "summary_of", "read_for_data", "seat_figures", "rules_short", "Standings",
    "PLAYER_KEYS", "folded",
]

#: The keys of one player's object in ``stats --json`` (and the columns of ``--csv``), in order.
PLAYER_KEYS: Final = (
    "name", "matches", "matches_finished", "matches_won", "match_win_rate",
    "hands", "hands_won", "hand_win_rate", "points", "bonus_points", "total_points",
    "points_per_hand", "gins", "gin_rate", "knocks", "knock_rate", "undercuts", "was_undercut", "undercut_rate",
    "avg_deadwood_knocking", "avg_deadwood_defending", "rating", "rated_matches",
)


@attrs.frozen
class SeatFigures:
    """One seat's counts in one match (the sums behind the player's figures)."""

    hands: int = 0
    hands_won: int = 0
    points: int = 0
    bonus_points: int = 0
    gins: int = 0
    knocks: int = 0
    undercuts: int = 0  # won by undercutting
    undercut: int = 0  # knocked and was undercut
    knock_deadwood: int = 0  # summed over knocks
    defences: int = 0  # hands the other seat went out in
    defence_deadwood: int = 0  # summed over those
    opponent_knocks: int = 0

    def counts(self) -> tuple[int, ...]:
        """The fields in order (``attrs.astuple`` without its recursion: this is per match and per seat).

        >>> f = SeatFigures(*range(len(attrs.fields(SeatFigures))))
        >>> f.counts() == attrs.astuple(f)
        True
        """
        return (
            self.hands, self.hands_won, self.points, self.bonus_points, self.gins, self.knocks, self.undercuts,
            self.undercut, self.knock_deadwood, self.defences, self.defence_deadwood, self.opponent_knocks,
        )


def seat_figures(state: MatchState, seat: Seat) -> SeatFigures:
    """What ``seat`` did in the match ``state`` (its finished hands; the bonuses once it is over)."""
    other = OTHER[seat]
    hands_won = points = gins = knocks = undercuts = undercut = knock_dw = defences = defence_dw = opp_knocks = 0
    for h in state.hands:
        s, r = h.score, h.result
        if s.winner == seat:
            hands_won += 1
            points += s.points
            if s.outcome == "undercut":
                undercuts += 1
        out = went_out(r)  # the one definition of a knock and a gin (ginlog.game.scoring.went_out)
        if out is None:
            continue
        if r.out == seat:
            if out == "knock":
                knocks += 1
                knock_dw += r.knocker_deadwood
                if s.outcome == "undercut":
                    undercut += 1
            else:  # gin or big gin, won or not: a gin that scores 0 (gin_bonus=0 against no deadwood) is still one
                gins += 1
        elif r.out == other:
            defences += 1
            defence_dw += r.defender_deadwood
            if out == "knock":
                opp_knocks += 1
    bonus = state.totals()[seat] - points
    return SeatFigures(
        len(state.hands), hands_won, points, bonus, gins, knocks, undercuts, undercut, knock_dw, defences, defence_dw,
        opp_knocks,
    )


_SHORT: dict[Rules, str] = {}


def rules_short(rules: Rules) -> str:
    """The rules in a few words: a preset's name, or the nearest preset and the knobs that differ.

    >>> import attrs
    >>> from ginlog.game.rules import preset
    >>> rules_short(preset("modern")), rules_short(attrs.evolve(preset("standard"), knock_limit=7))
    ('modern', 'standard knock_limit=7')
    """
    short = _SHORT.get(rules)
    if short is None:
        knobs = rules_to_dict(rules)
        best: tuple[int, str, list[str]] | None = None
        for name, r in PRESETS.items():
            theirs = rules_to_dict(r)
            diff = [f"{k}={_knob(v)}" for k, v in knobs.items() if theirs.get(k) != v]
            if best is None or len(diff) < best[0]:
                best = (len(diff), name, diff)
        assert best is not None
        short = " ".join([best[1], *best[2]])
        if len(_SHORT) < 256:
            _SHORT[rules] = short
    return short


def _knob(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@attrs.frozen
class MatchSummary:
    """One file, as the standings need it: its verdict, the match in a line, each seat's figures.

    A file that could not be read (:class:`~ginlog.app.check.verdicts.Failed`)
    is its verdict alone: ``MatchSummary(failed.verdict)``.
    """

    verdict: Verdict
    players: tuple[str, str] | None = None
    phase: str | None = None
    winner: Seat | None = None
    totals: tuple[int, int] = (0, 0)
    hands: int = 0
    events: int = 0
    start: str | None = None
    end: str | None = None
    title: str | None = None
    rules: str | None = None
    match_id: str | None = None  # which match: its match_id, or (older files) its first line's SHA-256, 16 hex digits
    head: str | None = None
    figures: tuple[SeatFigures, SeatFigures] | None = None

    @property
    def file(self) -> str:
        return self.verdict.path

    @property
    def errors(self) -> tuple[dict[str, Any], ...]:
        return self.verdict.errors

    @property
    def ok(self) -> bool:
        return self.verdict.ok and self.players is not None

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None or self.players is None else self.players[self.winner]

    def copy(self) -> Copy | None:
        """The file as one copy of its match (:mod:`ginlog.app.data.copies`), if it is a valid one."""
        if not self.ok or self.match_id is None or self.head is None:
            return None
        return Copy(self.file, self.match_id, self.events, self.head, self.start)

    def parts(self) -> tuple[Verdict, Copy | None]:
        """Its verdict and its copy: what :func:`~ginlog.app.data.copies.counted_once` asks of each file."""
        return self.verdict, self.copy()

    def renamed(self, players: Players) -> MatchSummary:
        """The summary with each player by the players file's name for them; both players made one by the
        players file: an error (rule ``players``), and the file does not count."""
        if not players or self.players is None:
            return self
        a, b = players.canonical(self.players[0]), players.canonical(self.players[1])
        if (a, b) == self.players:
            return self
        if a == b:
            said = {"file": self.file, "line": None, "event": None, "rule": "players",
                    "message": f"the players file ({players.path}) makes both players of this match {quoted(a)}"}
            return attrs.evolve(self, verdict=self.verdict.adding((said,)))
        return attrs.evolve(self, players=(a, b))

    def entry(self) -> dict[str, Any]:
        """The file's entry in ``stats --json``'s ``files``: its verdict and the match in a line."""
        players = list(self.players) if self.players is not None else None
        verdict = self.verdict.to_dict()
        del verdict["ok"]
        return {
            "file": self.file,
            "ok": self.ok,
            "players": players,
            "phase": self.phase,
            "winner": self.winner_name,
            "totals": dict(zip(self.players, self.totals)) if self.players is not None else {},
            "hands": self.hands,
            "events": self.events,
            "start": self.start,
            "end": self.end,
            "match": self.match_id,
            "head": self.head,
            **verdict,
        }


def summarise(dated: DatedReport) -> MatchSummary:
    """The summary of one read file (its errors as dicts, with their places)."""
    report = dated.report
    state = report.state
    verdict = Verdict.of(report)
    if state is None:
        return MatchSummary(verdict)  # (a reading without a first event always has a problem to say so)
    return MatchSummary(
        verdict,
        players=state.players,
        phase=state.phase,
        winner=state.winner,
        totals=state.totals(),
        hands=len(state.hands),
        events=report.lines,
        start=dated.start,
        end=dated.end,
        title=state.title,
        rules=rules_short(state.rules),
        match_id=dated.identity,
        head=report.head,
        figures=(seat_figures(state, 0), seat_figures(state, 1)),
    )


# --------------------------------------------------------------------------- the fold


@attrs.define
class _Player:
    matches: int = 0
    finished: int = 0
    won: int = 0
    sums: list[int] = attrs.Factory(lambda: [0] * len(attrs.fields(SeatFigures)))


@attrs.define
class _Pair:
    matches: int = 0
    finished: int = 0
    wins: list[int] = attrs.Factory(lambda: [0, 0])
    hands: int = 0
    hands_won: list[int] = attrs.Factory(lambda: [0, 0])
    points: list[int] = attrs.Factory(lambda: [0, 0])


def _rate(n: float, d: float) -> float | None:
    return round(n / d, 4) if d else None


class Standings:
    """Per-player and per-pair figures, folded one :class:`MatchSummary` at a time.

    Only valid summaries count (:meth:`add` counts the others in
    :attr:`invalid` and keeps nothing of them).
    """

    def __init__(self) -> None:
        self._players: dict[str, _Player] = {}
        self._pairs: dict[tuple[str, str], _Pair] = {}
        self.elo = Elo()
        self.valid = 0
        self.invalid = 0
        self.copies = 0  # valid files not counted: another copy of their match counts
        self.warnings: list[dict[str, Any]] = []  # beyond any one file's (names that look alike across files)

    def add(self, s: MatchSummary, counts: bool = True) -> None:
        """Fold one file's summary in: an invalid one is counted in :attr:`invalid`, a valid one that does not
        count (``counts`` false: another copy of its match does) in :attr:`copies`; neither adds a figure.

        The figures are sums and the ratings are played in an order of the matches' own (start, then match),
        so they are the same whatever order the summaries are added in."""
        if not s.ok or s.players is None or s.figures is None:
            self.invalid += 1
            return
        if not counts:
            self.copies += 1
            return
        self.valid += 1
        over = s.phase == "over"
        for seat in SEATS:
            name = s.players[seat]
            p = self._players.get(name)
            if p is None:
                p = self._players[name] = _Player()
            p.matches += 1
            p.finished += over
            p.won += s.winner == seat
            p.sums = list(map(operator.add, p.sums, s.figures[seat].counts()))
        a, b = s.players
        flip = a > b
        key = (b, a) if flip else (a, b)
        pair = self._pairs.get(key)
        if pair is None:
            pair = self._pairs[key] = _Pair()
        pair.matches += 1
        pair.finished += over
        pair.hands += s.hands
        for seat in SEATS:
            side = seat ^ flip  # the seat's place in the sorted pair
            pair.hands_won[side] += s.figures[seat].hands_won
            pair.points[side] += s.figures[seat].points
            if s.winner == seat:
                pair.wins[side] += 1
        if over and s.winner is not None:
            self.elo.add(s.start, a, b, winner=s.winner, match=s.match_id)

    def players(self) -> list[dict[str, Any]]:
        """One object per player (keys :data:`PLAYER_KEYS`): by matches won, then hand points, then name."""
        ratings = self.elo.ratings()
        rated = self._rated()
        out: list[dict[str, Any]] = []
        for name, p in self._players.items():
            f = SeatFigures(*p.sums)
            rating = ratings.get(name)
            out.append({
                "name": name,
                "matches": p.matches,
                "matches_finished": p.finished,
                "matches_won": p.won,
                "match_win_rate": _rate(p.won, p.finished),
                "hands": f.hands,
                "hands_won": f.hands_won,
                "hand_win_rate": _rate(f.hands_won, f.hands),
                "points": f.points,
                "bonus_points": f.bonus_points,
                "total_points": f.points + f.bonus_points,
                "points_per_hand": _rate(f.points, f.hands),
                "gins": f.gins,
                "gin_rate": _rate(f.gins, f.hands),
                "knocks": f.knocks,
                "knock_rate": _rate(f.knocks, f.hands),
                "undercuts": f.undercuts,
                "was_undercut": f.undercut,
                "undercut_rate": _rate(f.undercuts, f.opponent_knocks),
                "avg_deadwood_knocking": _rate(f.knock_deadwood, f.knocks),
                "avg_deadwood_defending": _rate(f.defence_deadwood, f.defences),
                "rating": None if rating is None else round(rating, 1),
                "rated_matches": rated.get(name, 0),
            })
        out.sort(key=lambda r: (-r["matches_won"], -r["points"], r["name"]))
        return out

    def _rated(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for (a, b), pair in self._pairs.items():
            n = pair.wins[0] + pair.wins[1]
            if n:
                counts[a] = counts.get(a, 0) + n
                counts[b] = counts.get(b, 0) + n
        return counts

    def head_to_head(self) -> list[dict[str, Any]]:
        """One object per pair of players who met, the names in sorted order."""
        out = []
        for (a, b), pair in sorted(self._pairs.items()):
            out.append({
                "players": [a, b],
                "matches": pair.matches,
                "matches_finished": pair.finished,
                "wins": {a: pair.wins[0], b: pair.wins[1]},
                "hands": pair.hands,
                "hands_won": {a: pair.hands_won[0], b: pair.hands_won[1]},
                "points": {a: pair.points[0], b: pair.points[1]},
            })
        return out


def read_for_data(path: str) -> DatedReport | Failed:
    """One file read under the reading policy for the standings and the export (``-``: standard input,
    called ``<stdin>``): its dated report, each hand dated by its begin, or why it could not be read."""
    from ginlog.match.dated import read_dated
    from ginlog.match.policy import POLICY

    from ginlog.app.check.sources import opened

    name = STDIN if path == "-" else path
    try:
        with opened(path) as source:  # a path, standard input, or an fsspec URL's bytes
            return read_dated(source, POLICY, ends=False, name=name)
    except GinlogError as exc:
        return Failed.of(exc, name)


def summary_of(path: str) -> MatchSummary:
    """The reading ``stats`` hands the many-file loop (:func:`~ginlog.app.check.verdicts.verdicts`): one file's
    small summary, whatever the file holds (a worker sends back this, never the match)."""
    dated = read_for_data(path)
    return MatchSummary(dated.verdict) if isinstance(dated, Failed) else summarise(dated)


def folded(
    items: Iterable[MatchSummary | Failed], standings: Standings, players: Players = NO_PLAYERS,
    differ: Differ = first_difference,
) -> Iterator[MatchSummary]:
    """Each file's summary as the standings take it, once every file is in: in the order of the matches' content
    (:func:`~ginlog.app.data.copies.counted_once`: each match counted once, a copy named in a warning, a fork an
    error; copies compared by ``differ``, on a cluster's worker under ``--scheduler``), each player by the
    players file's name, folded into ``standings`` as it is given. At the end the standings'
    :attr:`~Standings.warnings` hold the names that look alike across files.
    """
    lookalikes = Lookalikes()
    summaries = (MatchSummary(item.verdict) if isinstance(item, Failed) else item for item in items)
    for s, verdict, counts in counted_once(summaries, MatchSummary.parts, differ):
        s = attrs.evolve(s, verdict=verdict).renamed(players)
        if counts and s.ok and s.players is not None:
            for name in s.players:
                lookalikes.see(name, s.file)
        standings.add(s, counts=counts and s.ok)
        yield s
    standings.warnings = lookalikes.warnings()
