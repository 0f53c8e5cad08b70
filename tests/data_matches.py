"""Generated match files for the tests of stats, export, the site and the streaming audit summary.

Not a test module (no ``test_`` prefix). Each file is written line by line with
``format.encode``, every line its own ``ts`` (the match's start plus a second a
line), so the times the readers find can be checked.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Literal
from pathlib import Path

import attrs

from ginlog.game.rules import preset
from ginlog.log.events import (
    SCHEMA_VERSION, CardDiscarded, Correction, Event, FirstDealer, HandResultOnly, MatchAbandoned, MatchStarted,
    event_fields, event_type,
)
from ginlog.log.format import digest, encode
from ginlog.play.simulate import simulate_match

EPOCH = datetime(2026, 3, 1, 12, 0, 0, tzinfo=timezone.utc)
# A score pad's hands, knocks twice as often as the others.
HOWS: list[Literal["knock", "gin", "big_gin", "void"]] = ["knock", "knock", "gin", "big_gin", "void"]


def ts_at(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def line_ts(start: datetime, seq: int) -> str:
    """The ts of line ``seq`` of a match that began at ``start``."""
    return ts_at(start + timedelta(seconds=seq - 1))


def encode_match(events: list[Event], start: datetime) -> bytes:
    out, prev = [], None
    for seq, ev in enumerate(events, start=1):
        raw = encode(seq, line_ts(start, seq), event_type(ev), SCHEMA_VERSION, prev, event_fields(ev))
        prev = digest(raw)
        out.append(raw + b"\n")
    return b"".join(out)


def write(path: Path, events: list[Event], start: datetime) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_match(events, start))
    return path


def score_pad(seed: int, players: tuple[str, str], hands: int) -> list[Event]:
    """A match kept on a score pad (modern rules: big gin is played): knocks, gins, big gins and voids, no moves."""
    rng = random.Random(seed)
    rules = attrs.evolve(preset("modern"), game_target=10**6)
    events: list[Event] = [MatchStarted(players=players, rules=rules), FirstDealer(dealer=players[0], how="agreed")]
    for _ in range(hands):
        how = rng.choice(HOWS)
        if how == "void":
            events.append(HandResultOnly(how="void"))
            continue
        out = players[rng.randrange(2)]
        k = rng.randrange(1, rules.knock_limit + 1) if how == "knock" else 0
        events.append(HandResultOnly(how=how, out=out, knocker_deadwood=k, defender_deadwood=rng.randrange(0, 60)))
    return events


def with_correction(events: list[Event]) -> list[Event]:
    """The first discard of the match undone by a correction and made again (the record stays legal)."""
    out: list[Event] = []
    done = False
    for e in events:
        out.append(e)
        if not done and isinstance(e, CardDiscarded):
            out.append(Correction(undoes=len(out), reason="slip"))
            out.append(e)
            done = True
    return out


@attrs.frozen
class Generated:
    path: Path
    events: tuple[Event, ...]
    start: datetime


def corpus(folder: Path) -> tuple[list[Generated], list[Path]]:
    """Valid matches of several presets, seeds and players (begun in an order unlike their names'), and invalid files."""
    people = ("Ann", "Bob", "Cy", "Dee")
    specs: list[tuple[str, list[Event]]] = []
    for i, name in enumerate(("standard", "newspaper", "modern", "classic", "oklahoma", "openspiel")):
        for seed in (1, 2):
            a, b = people[(i + seed) % 4], people[(i + 2 * seed + 1) % 4]
            if a == b:
                b = people[(people.index(a) + 1) % 4]
            specs.append((f"{name}-{seed}", simulate_match(preset(name), seed=seed * 7 + i, players=(a, b))))
    specs.append(("partial", simulate_match(preset("standard"), seed=40, players=("Bob", "Ann"), max_hands=3)))
    abandoned = simulate_match(preset("standard"), seed=41, players=("Cy", "Ann"), max_hands=2)
    specs.append(("abandoned", [*abandoned, MatchAbandoned(reason="rain")]))
    specs.append(("table-mode", simulate_match(preset("standard"), seed=42, players=("Dee", "Bob"), mode="table")))
    specs.append(("corrected", with_correction(simulate_match(preset("standard"), seed=43, players=("Ann", "Dee")))))
    specs.append(("pad", score_pad(44, ("Bob", "Cy"), 12)))
    order = list(range(len(specs)))
    random.Random(5).shuffle(order)
    made = []
    for k, (name, events) in enumerate(specs):
        start = EPOCH + timedelta(days=order[k])  # distinct days, not in the files' order
        made.append(Generated(write(folder / "valid" / f"{name}.jsonl", events, start), tuple(events), start))
    bad = folder / "bad"
    bad.mkdir(parents=True, exist_ok=True)
    data = bytearray(made[0].path.read_bytes())
    cut = data.index(b"\n", len(data) // 2) + 30
    data[cut] = ord("X") if data[cut] != ord("X") else ord("Y")
    (bad / "edited.jsonl").write_bytes(bytes(data))
    (bad / "empty.jsonl").write_bytes(b"")
    (bad / "garbage.jsonl").write_bytes(b"not json\n")
    return made, sorted(bad.iterdir())
