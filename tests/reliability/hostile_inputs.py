"""Inputs for the hostile campaign: files forged from valid matches, and the hypothesis strategies.

A forged file starts as a legal match made through the public API
(:func:`ginlog.play.simulate.simulate_match`, written by the store), is
parsed back into JSON objects, has hostile content put in (names, notes,
reasons, title, tool, huge numbers), and gets its hash chain recomputed by
:func:`chain`, so only the hostile content is wrong.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ginlog.game.rules import preset, rules_to_dict
from ginlog.log.events import Event
from ginlog.play.simulate import simulate_match

sys.path.insert(0, str(Path(__file__).parent))
import reliability_campaigns as rc  # noqa: E402


# =============================================================================
# Forged files: valid matches through the public API, hostile content injected, chain re-forged


def dumps(obj: Any) -> bytes:
    """One line as ginlog would write it; a lone surrogate kept as its JSON escape (no UTF-8 holds one)."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, separators=(",", ":")).encode("ascii")


def chain(objs: Sequence[dict[str, Any]]) -> bytes:
    """The lines of ``objs`` with every ``prev`` recomputed, so only the content is wrong."""
    out, prev = [], None
    for o in objs:
        o = dict(o, prev=prev) if "prev" in o else o
        raw = dumps(o)
        out.append(raw)
        prev = hashlib.sha256(raw).hexdigest()
    return b"".join(r + b"\n" for r in out)


def objs_of(events: Sequence[Event], work: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in rc.match_bytes(events, work).splitlines()]


def rename(obj: Any, names: dict[str, str]) -> Any:
    """Every string value and key equal to a key of ``names`` replaced (players, dealers, cuts, hands)."""
    if isinstance(obj, str):
        return names.get(obj, obj)
    if isinstance(obj, list):
        return [rename(x, names) for x in obj]
    if isinstance(obj, dict):
        return {(names.get(k, k) if k not in ("type", "how", "source") else k): (v if k in ("type", "how", "source", "ts", "prev") else rename(v, names)) for k, v in obj.items()}
    return obj


@functools.lru_cache(maxsize=64)
def base_events(name: str = "standard", seed: int = 1, mode: str = "full", hands: int = 2, target: int = 30) -> tuple[Event, ...]:
    """A legal simulated match (short: a low game target), Ann v Bob."""
    return tuple(simulate_match(rc.short_rules(preset(name), target), seed=seed, mode=mode, max_hands=hands))  # type: ignore[arg-type]


INT_KNOBS = tuple(k for k, v in rules_to_dict(preset("standard")).items() if type(v) is int)


# =============================================================================
# Generators

#: Hostile pieces for the terminal: escape sequences, C1, bidi, zero-width, fillers, markup.
TERMINAL_PIECES = (
    "\x1b[2J", "\x1b]0;pwned\x07", "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\", "\x1b[1A", "\x1b[31m",
    "\x9b31m", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\u3164", "\u115f", "\x07", "\x08", "\x7f", "\t",
    "\u2028", "\U000e0041", "\ue000", "\x85", "\x00", "\r", "\n", "\x1bP1;2|x\x1b\\", "\x1b[6n", "\x1b[?1049h",
    "[/]", "[red]x[/red]", "[link=http://evil.example]here[/link]", "[bold]", "[/bold]", ":warning:", "[dim]",
)
#: Ordinary text from many scripts, confusables, combining marks.
PLAIN_PIECES = (
    "Ann", "Bob", "Zoë", "Zoe\u0308", "\u0410nn", "王", "😀", "שלום", "مرحبا", "Ἀθηνᾶ", "ǅ", "ﬁ", "Ａｎｎ", " ", "  ",
    "O'Brien", "Mary Ann", "x" * 40, "e\u0301\u0301",
)


def free_text(max_len: int = 2000) -> st.SearchStrategy[str]:
    """A note, reason, title or tool: hostile pieces, other scripts, any character, sometimes very long."""
    piece = st.one_of(
        st.sampled_from(TERMINAL_PIECES),
        st.sampled_from(PLAIN_PIECES),
        st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=6),
        st.integers(50, 700).map(lambda n: "long " * (n // 5)),
    )
    return st.lists(piece, min_size=1, max_size=7).map("".join).map(lambda s: s[:max_len]).filter(lambda s: s.strip() != "")


def name_text() -> st.SearchStrategy[str]:
    """A player's name: mostly one the reader takes (markup, scripts, confusables, fillers), sometimes not (controls)."""
    readable = [p for p in TERMINAL_PIECES + PLAIN_PIECES[:-3] if p.isprintable() or p in ("\u3164", "\u115f")]
    mostly = st.lists(st.one_of(st.sampled_from(readable), st.text(st.characters(exclude_categories=("Cs", "Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cn")),
                                                                   min_size=1, max_size=4)), min_size=1, max_size=3)
    hostile = st.lists(st.sampled_from(TERMINAL_PIECES + PLAIN_PIECES), min_size=1, max_size=4)  # up to 80: too long too
    return st.integers(0, 9).flatmap(
        lambda k: (hostile.map(lambda p: "".join(p).strip()[:80]) if k == 9 else mostly.map(lambda p: "".join(p).strip()[:40].strip()))
    ).filter(bool)


def cli_safe(s: str) -> str:
    """What can go on a command line: no NUL, no surrogate."""
    return "".join(ch for ch in s if ch != "\x00" and not 0xD800 <= ord(ch) <= 0xDFFF)


_CONFUSABLE = {"A": "\u0410", "a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "B": "\u0412",
               "H": "\u041d", "K": "\u039a", "M": "\u041c", "T": "\u0422", "O": "\u039f", "x": "\u0445", "y": "\u0443",
               "i": "\u0456", "l": "I", "I": "l", "0": "O", "1": "l"}
_INVISIBLE = ("\u3164", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u115f", "\u1160", "\uffa0", "\u034f", "\u180e", "\u2800", "\xad")


@st.composite
def clash_pair(draw: Any) -> tuple[str, str, str]:
    """Two names one could take for each other, and how they differ."""
    base = draw(st.sampled_from(["Ann", "Bob", "Zoë", "Mary Ann", "Kim", "Olga", "Élodie", "Chloé", "Paco", "Ida"]))
    how = draw(st.sampled_from(["case", "confusable", "nfd", "invisible", "compat", "spaces"]))
    if how == "case":
        other = draw(st.sampled_from([base.lower(), base.upper(), base.swapcase()]).filter(lambda s: s != base))
    elif how == "confusable":
        spots = [i for i, ch in enumerate(base) if ch in _CONFUSABLE]
        i = draw(st.sampled_from(spots)) if spots else 0
        other = base[:i] + _CONFUSABLE.get(base[i], "\u0430") + base[i + 1 :]
    elif how == "nfd":
        import unicodedata

        base = base if unicodedata.normalize("NFD", base) != base else base + "\u00eb"
        other = unicodedata.normalize("NFD", base)
    elif how == "invisible":
        i = draw(st.integers(1, len(base)))
        other = base[:i] + draw(st.sampled_from(_INVISIBLE)) + base[i:]
    elif how == "compat":
        other = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in base)
    else:
        other = base.replace(" ", "\u00a0") if " " in base else base + "\u3000"
    return base, other, how
