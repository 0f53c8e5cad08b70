"""The registries at the seams: event traits, and the sets of event classes derived from them.

Why these tests: a new no-op event once passed the whole checklist, with the
suite green, and made ``score`` date a hand's end one line late on the fast
path only, because what "changes nothing" or "may follow a hand's end" meant
was listed by hand in four modules. Now each event type declares its traits
where it is registered; these tests hold the registry to that.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any


import attrs
import pytest
from sealing import EXAMPLE_SEAL


from ginlog.errors import ForeignRecordError, GinlogError
from ginlog.game.rules import preset
from ginlog.log import registry
from ginlog.log.events import (
    BEGINS_HAND,
    CHANGES_NOTHING,
    EVENT_KINDS,
    MAY_FOLLOW_END,
    NEVER_UNDONE,
    TAKES_BACK,
    Correction,
    HandDealt,
    HandResultOnly,
    MatchAbandoned,
    Note,
    Seal,
    event_from_fields,
)
from ginlog.log.registry import Traits, registered
from ginlog.play.reducer import fold
from ginlog.play.rulebook import RULES
from ginlog.play.simulate import simulate_match
from ginlog.play.timeline import apply

ROOT = Path(__file__).resolve().parent.parent

#: One event of each type, as fields, between hands of a match of Ann and Bob (``test_every_type_has_an_example``).
BETWEEN_HANDS: dict[str, dict[str, Any]] = {
    "match_started": {"players": ["Ann", "Bob"], "rules": {}},
    "first_dealer": {"dealer": "Ann", "how": "agreed"},
    "hand_dealt": {"dealer": "Ann", "upcard": "7H"},
    "upcard_passed": {"player": "Bob"},
    "card_drawn": {"player": "Bob", "source": "stock"},
    "card_discarded": {"player": "Bob", "card": "9C"},
    "knocked": {"player": "Ann", "card": "KH"},
    "gin": {"player": "Ann", "card": "KH"},
    "big_gin": {"player": "Ann"},
    "hand_shown": {"player": "Ann", "cards": ["AS", "2S", "3S"]},
    "hand_result": {"how": "knock", "out": "Ann", "knocker_deadwood": 7, "defender_deadwood": 30},
    "hand_void": {"reason": "misdeal"},
    "note": {"text": "coffee"},
    "correction": {"undoes": 2},
    "match_abandoned": {"reason": "rain"},
    "seal": EXAMPLE_SEAL,
}


def _shrug() -> type:
    class Shrug:
        """Someone shrugs."""

    return Shrug


def test_a_registration_without_traits_fails() -> None:
    with pytest.raises(TypeError):
        registered("shrug")(_shrug())  # type: ignore[call-arg]  # what the type checker refuses too
    with pytest.raises(TypeError):
        Traits(begins_hand=False, takes_back=False, changes_nothing=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):  # whether nothing undoes it must be said too (issue 24's seal)
        Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="five true/false flags"):
        registered("shrug", (False, False, True, True, True))  # type: ignore[arg-type]
    assert all(k.name != "shrug" for k in registry.kinds())


@pytest.mark.parametrize(
    "traits",
    [
        Traits(begins_hand=False, takes_back=False, changes_nothing=True, may_follow_end=False, undoable=True),  # a no-op after an end
        Traits(begins_hand=True, takes_back=False, changes_nothing=True, may_follow_end=True, undoable=True),
        Traits(begins_hand=False, takes_back=True, changes_nothing=True, may_follow_end=True, undoable=True),
        Traits(begins_hand=True, takes_back=False, changes_nothing=False, may_follow_end=True, undoable=True),
        Traits(begins_hand=False, takes_back=False, changes_nothing=False, may_follow_end=False, undoable=False),  # a move nothing undoes
        Traits(begins_hand=False, takes_back=True, changes_nothing=False, may_follow_end=False, undoable=False),
    ],
)
def test_traits_that_contradict_each_other_are_refused(traits: Traits) -> None:
    with pytest.raises(TypeError, match="'shrug'"):
        registered("shrug", traits)


def test_every_registered_type_declares_its_traits() -> None:
    for kind in EVENT_KINDS:
        assert isinstance(kind.traits, Traits), kind.name


def test_the_sets_are_the_traits() -> None:
    assert BEGINS_HAND == {HandDealt, HandResultOnly}
    assert TAKES_BACK == {Correction}
    assert CHANGES_NOTHING == {Note, Seal}
    assert MAY_FOLLOW_END == {Note, MatchAbandoned, Seal}
    assert NEVER_UNDONE == {Seal}


def test_what_nothing_undoes_is_the_trait_not_a_type() -> None:
    """The timeline and the fold skip what the registry says nothing undoes, never a class they name."""
    for name in ("ginlog/play/fold.py", "ginlog/play/timeline.py"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "NEVER_UNDONE" in text and not re.search(r"\bis Seal\b|isinstance\(\w+, Seal\)", text), name


def test_no_module_lists_event_classes_by_hand() -> None:
    """The modules that once kept their own sets now take them from the registry."""
    import ginlog.match.dated as dated

    assert dated._STARTS == BEGINS_HAND | TAKES_BACK
    assert dated._AFTER_END == MAY_FOLLOW_END
    listing = re.compile(r"frozenset\(\((?:[A-Z]\w+, )+|is (?:not )?Note\b|isinstance\(\w+, \((?:HandDealt|Note)")
    for name in ("ginlog/match/dated.py", "ginlog/play/fold.py", "ginlog/play/timeline.py", "ginlog/app/pages/page_data.py"):
        assert not listing.search((ROOT / name).read_text(encoding="utf-8")), name


def test_the_rules_agree_with_the_traits() -> None:
    """A type has a rule of play exactly when it is a move: neither a no-op nor a take-back."""
    for kind in EVENT_KINDS:
        moves = not (kind.traits.changes_nothing or kind.traits.takes_back)
        assert (kind.cls in RULES) == moves, kind.name


def test_every_type_has_an_example() -> None:
    assert set(BETWEEN_HANDS) == {k.name for k in EVENT_KINDS}


def test_what_is_legal_after_a_hand_ended_is_declared_so() -> None:
    """Right after the line that finished a hand, an event that is legal and leaves the sheet alone may follow an end.

    This is what the fast path of ``ginlog score`` relies on to find that line;
    an event type declared as a move that is legal there (a no-op given a
    do-nothing rule) would be dated as the hand's end.
    """
    events = simulate_match(preset("standard"), seed=5, max_hands=1)
    tl = fold(events)
    assert len(tl.state.hands) == 1 and not tl.state.finished
    for kind in EVENT_KINDS:
        event = event_from_fields(kind.name, BETWEEN_HANDS[kind.name])
        try:
            after = apply(tl, event, len(events) + 1)
        except GinlogError:
            continue  # not legal here: it cannot follow an end
        if kind.traits.begins_hand or kind.traits.takes_back:
            continue
        assert len(after.state.hands) == 1, kind.name
        assert kind.traits.may_follow_end, f"{kind.name} is legal after a hand's end: declare may_follow_end"


def test_a_page_styles_events_by_their_traits() -> None:
    from ginlog.app.pages.page_data import frame
    from ginlog.match.visitors import Step
    from ginlog.play.reducer import start

    events = [*simulate_match(preset("standard"), seed=5, max_hands=1), Note(text="x")]
    events.append(Correction(undoes=len(events)))
    tl = start(events[0], 1)
    kinds = [frame(Step(1, 1, events[0], tl, "0" * 64), None)["kind"]]
    for seq, event in enumerate(events[1:], start=2):
        before, tl = tl.state, apply(tl, event, seq)
        kinds.append(frame(Step(seq, seq, event, tl, "0" * 64), before)["kind"])
    assert kinds[-2:] == ["note", "correction"] and set(kinds[:-2]) == {"play"}


def test_every_module_is_of_a_readable_size() -> None:
    """Issue 19: no module over 600 lines (the event classes and their registry among them)."""
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "ginlog").rglob("*.py")}
    assert {"ginlog/log/events.py", "ginlog/log/event_types.py", "ginlog/log/registry.py"} <= set(sizes)
    assert {name: n for name, n in sizes.items() if n > 600} == {}
    assert all(attrs.has(k.cls) for k in EVENT_KINDS)


# ---------------------------------------------------------------------------
# Names


def test_the_schemas_name_modules_that_exist() -> None:
    """Every ``ginlog.x.y`` a schema file names can be imported (they once named ``ginlog.log.store``)."""
    for path in sorted((ROOT / "schemas").glob("*.json")):
        text = json.dumps(json.loads(path.read_text(encoding="utf-8")))
        for dotted in set(re.findall(r"(?<![/\w.])ginlog(?:\.[a-z_]+)+", text)):
            _resolve(dotted)


def _resolve(dotted: str) -> object:
    """The module, or the module's attribute, that ``dotted`` names (``ginlog.log.event_types._name``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            found = getattr(found, attr)
        return found
    raise AssertionError(f"{dotted} names nothing")


def test_no_two_modules_share_the_colliding_names() -> None:
    """``_CANONICAL`` (cards by text) and ``ENVELOPE_KEYS`` were each defined twice with different meanings."""
    import ginlog.errors
    import ginlog.log.events as events
    from ginlog.log import format

    assert not hasattr(events, "_CANONICAL")
    assert getattr(events, "ENVELOPE_KEYS", format.ENVELOPE_KEYS) is format.ENVELOPE_KEYS  # one, in the format
    assert not hasattr(ginlog.errors, "ImportError_")


# ---------------------------------------------------------------------------
# Importers


def test_every_importer_module_registers_one_importer_with_its_command() -> None:
    import pkgutil

    import typer.main

    import ginlog.app.importers as package
    from ginlog.app.cli import build_app
    from ginlog.app.importers.base import importers

    registered_ = importers()
    modules = {m.name for m in pkgutil.iter_modules(package.__path__)} - {"base"}
    assert {cls.__module__.rsplit(".", 1)[1] for cls in registered_.values()} == modules
    group = typer.main.get_command(build_app()).commands["import"]  # type: ignore[attr-defined]
    assert set(group.commands) == set(registered_)


def test_an_importer_that_cannot_read_is_refused() -> None:
    from ginlog.app.importers.base import IMPORTERS, Importer, importer

    class Half(Importer):
        """Reads nothing."""

        pattern = "*.half"

    with pytest.raises(TypeError, match="leaves out read"):
        importer("half")(Half)
    assert "half" not in IMPORTERS


def test_a_second_importer_is_one_class(tmp_path: Path) -> None:
    """A toy engine's importer: its class alone gives ``ginlog import pad``, folders searched, files written."""
    from typer.testing import CliRunner

    from ginlog.app.cli.imports import import_app
    from ginlog.app.importers.base import IMPORTERS, Importer, importer, read_record_text
    from ginlog.log.events import Event

    @importer("pad")
    class Pad(Importer):
        """A toy record: the seed of a simulated match.

        Example: ginlog import pad pads/ -o imported/
        """

        pattern = "*.pad"

        def read(self, path: str) -> list[Event]:
            text = read_record_text(path)
            if not text.isdigit():
                raise ForeignRecordError(f"{text!r} is not a seed", rule="import", path=path)
            return simulate_match(preset("standard"), seed=int(text), max_hands=1)

    try:
        (tmp_path / "pads").mkdir()
        (tmp_path / "pads" / "one.pad").write_text("3")
        (tmp_path / "pads" / "two.pad").write_text("x")
        (tmp_path / "pads" / "skip.txt").write_text("4")
        result = CliRunner().invoke(import_app(), ["pad", str(tmp_path / "pads"), "-o", str(tmp_path / "out")])
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output  # not a traceback
        assert "two.pad: 'x' is not a seed [import]" in result.output  # one failed, said in one line; the other written
        assert "imported 1 record(s)" in result.output
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["one.jsonl"]
    finally:
        del IMPORTERS["pad"]


def test_the_cli_does_not_load_the_importers_until_asked() -> None:
    import subprocess
    import sys

    code = "import sys; from ginlog.app.cli import build_app; build_app(); print('ginlog.play.reducer' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
