"""What a reading warns of (:mod:`ginlog.match.unverified`): unusual rules, score-pad hands, corrections after the
end, each held to a naive count of what the match holds. The same warnings in every command are in
``tests/test_policy.py`` and ``tests/test_verdicts.py``.
"""

from __future__ import annotations

from ginlog.app.record.entry import parse_entry
from ginlog.caveats import Caveat
from ginlog.game.rules import preset, with_knobs
from ginlog.game.usual import USUAL
from ginlog.log.events import Correction, MatchStarted, Note
from ginlog.match.unverified import Unverified
from ginlog.play.reducer import apply, start
from ginlog.play.state import Timeline


def played(entries: list[str], target: str = "100") -> Timeline:
    tl = start(MatchStarted(players=("Ann", "Bob"), rules=with_knobs(preset("standard"), game_target=target)))
    for e in entries:
        for ev in parse_entry(e, tl):
            tl = apply(tl, ev)
    return tl


def said() -> tuple[Unverified, list[Caveat]]:
    out: list[Caveat] = []
    u = Unverified(out.append)
    u.label = "m.jsonl"
    return u, out


def test_a_warning_for_each_knob_outside_what_tables_play_and_none_for_the_presets() -> None:
    knobs = {"gin_bonus": "5", "game_target": "1000", "knock_limit": "10", "box_bonus": "51"}
    rules = with_knobs(preset("standard"), **knobs)
    u, out = said()
    u.started(rules, 1, 1)
    outside = sorted(k for k, v in knobs.items() if not USUAL[k][0] <= int(v) <= USUAL[k][1])
    assert outside == ["box_bonus", "game_target", "gin_bonus"]  # knock_limit 10 is a usual one
    assert sorted(c.message.split(" ")[0] for c in out) == outside
    assert {(c.rule, c.path, c.line, c.seq) for c in out} == {("unusual-rules", "m.jsonl", 1, 1)}
    for name in ("standard", "modern", "classic", "oklahoma", "newspaper", "hollywood"):
        u.started(preset(name), 1, 1)
    assert len(out) == len(outside)


def test_one_score_pad_warning_naming_the_hands_recorded_as_results() -> None:
    entries = ["dealer Ann", "result gin Ann 20", "Bob +25", "result knock Ann 3 10"]
    tl = played(entries)
    u, out = said()
    u.ended(tl.state)
    pad = [h.number for h in tl.state.hands if h.recorded == "result"]
    bare = [h.number for h in tl.state.hands if h.result.how == "points"]
    assert (pad, bare) == ([1, 2, 3], [2])  # the entries above, counted by hand
    (w,) = out
    assert (w.rule, w.path) == ("score-pad", "m.jsonl")
    assert w.message.startswith(f"{len(pad)} of {len(tl.state.hands)} hands are recorded as results only (hand 1, 2, 3)")
    assert f"{len(bare)} of them give points only (hand 2)" in w.message
    u.ended(played(["dealer Ann"]).state)
    u.ended(None)
    assert len(out) == 1  # nothing more: no pad hand, no state


def test_a_correction_after_the_end_is_said_once_and_nothing_else_is() -> None:
    over = played(["dealer Ann", "result gin Ann 90"])
    going = played(["dealer Ann"])
    assert over.state.finished and not going.state.finished
    u, out = said()
    u.event(Correction(undoes=over.seq), True, 4, 4)
    u.event(Note(text="gg"), True, 5, 5)
    u.event(Correction(undoes=going.seq), False, 6, 6)
    assert [(c.rule, c.line, c.seq) for c in out] == [("reopened", 4, 4)]
