"""The score sheet for the terminal: a rich renderable that tells the match's story.

Built from the ``score --json`` shape (:func:`ginlog.app.views.match_json.score_json`),
so the terminal and the JSON never disagree: every hand with its date, both
players' deadwood and the running totals; under Hollywood scoring the three
games; the running totals drawn as a small chart (block characters, one
column a hand); the bonuses, totals and winner; and the head hash, once, with
what it is for. Nothing here prints: the CLI gives the renderable to its
console.

Every piece of record text (names, the title, a file name) goes through
:func:`ginlog.text.visible` into a :class:`rich.text.Text`, never into markup,
so a name like ``[red]Ann`` is shown as typed.

>>> import io
>>> from rich.console import Console
>>> from ginlog.app.views.match_json import score_json
>>> from ginlog.game.rules import preset
>>> from ginlog.play.reducer import fold
>>> from ginlog.play.simulate import simulate_match
>>> state = fold(simulate_match(preset("standard"), seed=3)).state
>>> console = Console(width=100, record=True, color_system=None, file=io.StringIO())
>>> console.print(score_sheet(state, score_json(state, "ab" * 32)))
>>> text = console.export_text()
>>> text.count("ab" * 32), "Running totals" in text, "Deadwood" in text
(1, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ginlog.play.state import MatchState
from ginlog.text import visible

__all__ = ["score_sheet", "hands_table", "games_table", "totals_chart", "sparkline", "head_text", "BLOCKS"]

#: The chart's nine heights, from nothing to full.
BLOCKS: Final = " ▁▂▃▄▅▆▇█"

#: Columns the chart gives the hands at most (more hands share a column: its last total).
CHART_WIDTH: Final = 60


def _t(text: str, style: str = "") -> Text:
    """Record text as a Text (never markup), made visible by :func:`shown`."""
    return Text(visible(text), style=style)


def _date(ts: str | None, day: bool = True) -> str:
    """``2026-11-29 19:56`` (UTC; without the day: ``19:56``) from a line's ``ts``; ``-`` when not known."""
    if not ts or len(ts) < 16:
        return "-"
    return f"{ts[:10]} {ts[11:16]}" if day else ts[11:16]


def _one_day(hands: Sequence[dict[str, Any]]) -> str | None:
    """The day every hand ended on, when they all ended on one (then the rows give only the time)."""
    days = {(h.get("date") or "")[:10] for h in hands}
    day = days.pop() if len(days) == 1 else ""
    return day if len(day) == 10 else None


def _result(h: dict[str, Any], hollywood: bool = False) -> Text:
    """``undercut Bob +11``, ``void``: how the hand ended and who scored what.

    Under Hollywood, the games the points went into (``gin Dev +28 in games 2,
    3``: each of those games' totals moves by 28, their sum by 56).
    """
    outcome = h["outcome"].replace("_", " ")
    if not h["winner"]:
        return Text(outcome if outcome == "void" else f"{outcome}, nobody scores")
    out = Text.assemble(f"{outcome} ", _t(h["winner"]), f" +{h['points']}")
    if hollywood:
        games = h["in_games"]
        out.append(f" in game{'s' if len(games) > 1 else ''} {', '.join(map(str, games))}" if games else " in no game")
    return out


def hands_table(state: MatchState, data: dict[str, Any], width: int = 100) -> Table:
    """Every hand: number, date, (dealer,) result, both players' deadwood, the running totals.

    Under Hollywood the totals are the three games' (``game 1 2 3``). The
    dealer has a column when ``width`` (the console's) leaves room for it.
    Times are UTC: when every hand ended on one day, the day is said once,
    under the table (no column at all when no hand has a date).
    """
    players = state.players
    hollywood = bool(data.get("games"))
    title = state.title or f"{players[0]} v {players[1]}"
    day = _one_day(data["hands"])
    dated = any(h.get("date") for h in data["hands"])
    caption = None if not dated else f"every hand ended on {day}; times are UTC" if day else "dates and times are UTC"
    table = Table(title=_t(title), caption=caption, show_lines=False)
    dealer = width >= (100 if hollywood else 80)
    table.add_column("Hand", justify="right")
    if dated:
        table.add_column("Time" if day else "Date", no_wrap=True)
    if dealer:
        table.add_column("Dealer")
    table.add_column("Result")
    table.add_column(Text.assemble("Deadwood\n", _t(players[0]), " · ", _t(players[1])), justify="right")
    for p in players:
        table.add_column(Text.assemble(_t(p), "\ngame 1 2 3") if hollywood else _t(p), justify="right")
    for h in data["hands"]:
        dw = h["deadwood"]
        deadwood = f"{dw[players[0]]:>2} · {dw[players[1]]:>2}" if all(p in dw for p in players) else "-"
        cells: list[Text | str] = [str(h["number"])]
        if dated:
            cells.append(_date(h.get("date"), day is None))
        if dealer:
            cells.append(_t(h["dealer"]))
        cells += [_result(h, hollywood), deadwood]
        if hollywood:
            cells += [" ".join(f"{g.get(p, 0):>3}" for g in h["game_totals"]) for p in players]
        else:
            cells += [str(h["totals"][p]) for p in players]
        table.add_row(*cells)
    return table


def games_table(state: MatchState, data: dict[str, Any]) -> Table | None:
    """Hollywood's three games: each one's totals, bonuses, final totals and winner (None when Hollywood is off)."""
    games = data.get("games")
    if not games:
        return None
    players = state.players
    target = state.rules.game_target
    table = Table(title="Hollywood: three games" + (f", each to {target}" if target else ""))
    table.add_column("Game", justify="right")
    for p in players:
        table.add_column(_t(p), justify="right")
    table.add_column("Bonuses")
    for p in players:
        table.add_column(Text.assemble(_t(p), "\nfinal"), justify="right")
    table.add_column("Winner")
    for g in games:
        bonus = Text("; ").join(
            Text.assemble(f"{key} ", Text(", ").join(Text.assemble(_t(p), f" {v}") for p, v in g["bonuses"][key].items()))
            for key in ("game", "boxes", "shutout")
            if g["bonuses"][key]
        )
        if g["winner"] is not None:
            winner = Text.assemble(_t(g["winner"], "bold"), f" (hand {g['closed_at']})")
        else:
            winner = Text("open", style="dim")
        table.add_row(
            str(g["number"]),
            *(str(g["totals"].get(p, 0)) for p in players),
            bonus or "-",
            *(str(g["final"].get(p, 0)) if g["winner"] is not None else "-" for p in players),
            winner,
        )
    return table


def sparkline(values: Sequence[int], top: int, width: int = CHART_WIDTH) -> str:
    """``values`` as block characters, ``top`` the full height; more values than ``width`` share columns.

    A shared column shows its last value (the totals run, so that is where
    the column ends up).

    >>> sparkline([0, 25, 50, 100], 100)
    ' ▂▄█'
    >>> len(sparkline(list(range(500)), 500, width=50))
    50
    """
    if not values:
        return ""
    n = len(values)
    if n > width:
        values = [values[min(n - 1, (i + 1) * n // width - 1)] for i in range(width)]
    top = max(top, 1)
    levels = len(BLOCKS) - 1
    return "".join(BLOCKS[max(0, min(levels, -(-v * levels // top)))] for v in values)


def totals_chart(state: MatchState, data: dict[str, Any], width: int = CHART_WIDTH) -> Text | None:
    """The running totals, hand by hand, one line a player (under Hollywood, one a player and game).

    All lines share one scale: the target, or the highest total when that is
    higher. None before the first hand.
    """
    hands = data["hands"]
    if not hands:
        return None
    players = state.players
    series: list[tuple[Text, list[int]]] = []
    if data.get("games"):
        for i in range(len(data["games"])):
            for p in players:
                series.append((Text.assemble(_t(p), f" game {i + 1}"), [h["game_totals"][i].get(p, 0) for h in hands]))
    else:
        for p in players:
            series.append((_t(p), [h["totals"].get(p, 0) for h in hands]))
    top = max([state.rules.game_target or 0] + [max(v) for _, v in series])
    label_width = max(cell_len(label.plain) for label, _ in series)
    out = Text("Running totals" + (f" (the target {state.rules.game_target} is full height)"
                                   if top == state.rules.game_target else f" (full height {top})"))
    for label, values in series:
        out.append("\n")
        out.append_text(label)
        out.append(" " * (label_width - cell_len(label.plain)) + "  ")
        out.append(sparkline(values, top, width), style="cyan")
        out.append(f"  {values[-1]}")
    return out


def head_text(head: str | None, path: str | None = None) -> Text | None:
    """The head hash, once, and one line saying what it is for (None for an empty file)."""
    if not head:
        return None
    return Text.assemble(
        "Head: ", (head, "bold"), "\n",
        "keep this hash: ", ("ginlog audit ", "italic"), (visible(path) if path else "FILE", "italic"),
        (" --anchor HASH", "italic"), " proves no line was cut off the end",
    )


def score_sheet(state: MatchState, data: dict[str, Any], path: str | None = None, width: int = 80) -> Group:
    """The whole sheet: hands, games (Hollywood), chart, bonuses, totals, winner, head.

    ``data`` is ``score_json(state, head, dates)``; ``path`` the file's name
    for the audit hint; ``width`` the console's (a wide one shows the dealers too).
    """
    players = state.players
    parts: list[RenderableType] = [hands_table(state, data, width)]
    games = games_table(state, data)
    if games is not None:
        parts.append(games)
    chart = totals_chart(state, data)
    if chart is not None:
        parts.append(chart)
    lines = Text()
    b = data["bonuses"]
    for label, key in (("Game bonus", "game"), ("Boxes", "boxes"), ("Shutout", "shutout")):
        if b[key]:
            lines.append(f"{label}: ")
            lines.append_text(Text(", ").join(Text.assemble(_t(p), f" {v}") for p, v in b[key].items()))
            lines.append("\n")
    totals = data["totals"]
    lines.append("Totals: ")
    lines.append_text(Text(", ").join(Text.assemble(_t(p), f" {totals[p]}") for p in players))
    if data["winner"]:
        lines.append_text(Text.assemble("\nWinner: ", _t(data["winner"], "bold")))
    elif state.phase == "over":
        lines.append("\nMatch over: a tie, nobody wins.")
    elif state.phase == "abandoned":
        lines.append_text(Text.assemble("\nAbandoned: ", _t(state.abandoned or "")))
    else:
        lines.append("\nMatch in progress.")
    parts.append(lines)
    head = head_text(data["head"], path)
    if head is not None:
        parts.append(head)
    return Group(*parts)
