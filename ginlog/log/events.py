"""Events and their JSON form: the registry's derived sets, the strict converter, versions and the line decoder.

A match file is a list of events (the classes: :mod:`ginlog.log.event_types`,
re-exported here), one JSON object a line. Each line also carries an
*envelope*: ``seq`` (1, 2, 3, ...), ``ts`` (UTC time it was recorded),
``type`` (which event), ``v`` (the schema version it was written in) and
``prev`` (the SHA-256 of the previous line's bytes), followed by the event's
own fields. Cards are their canonical text, players their names.

>>> ev = CardDiscarded(player="Ann", card=parse_card("7h"))
>>> event_type(ev), event_fields(ev)
('card_discarded', {'player': 'Ann', 'card': '7H'})
>>> event_from_fields("card_drawn", {"player": "Bob", "source": "stock"})
CardDrawn(player='Bob', source='stock', card=None)

Each event type is declared once: its class, registered under its
``type`` with its traits by :func:`~ginlog.log.registry.registered` (the
description is the docstring's first line), and a member of the
:data:`Event` union (checked at import). :data:`EVENT_KINDS` lists them;
the sets of classes that code handles in bulk (:data:`BEGINS_HAND`,
:data:`TAKES_BACK`, :data:`CHANGES_NOTHING`, :data:`MAY_FOLLOW_END`, :data:`NEVER_UNDONE`) are
derived from the traits, and everything else that must know every type is
checked against the registry (see :func:`~ginlog.log.registry.registered`).

>>> sorted(k.__name__ for k in MAY_FOLLOW_END)
['MatchAbandoned', 'Note', 'Seal']

All (de)serialisation goes through one cattrs converter that is strict on
purpose: a record is evidence, so ``"10"`` is not silently an int and an
unknown field is an error, not something to drop.

Versions: lines written today have ``v`` = :data:`SCHEMA_VERSION`. An older
line is brought up to date by the upcasters in :data:`UPCASTERS` before it is
structured, so the reducer only ever sees current events.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import cattrs

from ginlog.errors import EventError
from ginlog.game.cards import DECK, Card, parse_card
from ginlog.game.rules import Rules, rules_from_dict, rules_to_dict
from ginlog.log.event_types import (
    MAX_NAME,
    MAX_TEXT,
    BigGin,
    CardDiscarded,
    CardDrawn,
    Cards,
    Correction,
    Event,
    FirstDealer,
    Gin,
    HandDealt,
    HandResultOnly,
    HandShown,
    HandVoid,
    Knocked,
    MatchAbandoned,
    MatchStarted,
    Note,
    Seal,
    UpcardPassed,
    _name,  # noqa: F401 - the field validators, here too for the schema tests that map them
    _text,  # noqa: F401
)
from ginlog.log import times
from ginlog.log.format import ENVELOPE_KEYS, short_repr
from ginlog.log.registry import EventKind, Traits, having, kinds, registered
from ginlog.log.versioning import newer_version

__all__ = [
    "SCHEMA_VERSION",
    "MAX_NAME",
    "MAX_TEXT",
    "Cards",
    "Event",
    "EVENT_TYPES",
    "EVENT_KINDS",
    "EventKind",
    "Traits",
    "registered",
    "BEGINS_HAND",
    "TAKES_BACK",
    "CHANGES_NOTHING",
    "MAY_FOLLOW_END",
    "NEVER_UNDONE",
    "MatchStarted",
    "FirstDealer",
    "HandDealt",
    "UpcardPassed",
    "CardDrawn",
    "CardDiscarded",
    "Knocked",
    "Gin",
    "BigGin",
    "HandShown",
    "HandResultOnly",
    "HandVoid",
    "Note",
    "Correction",
    "MatchAbandoned",
    "Seal",
    "event_type",
    "event_fields",
    "event_item",
    "event_from_fields",
    "event_from_line",
    "LineDecoder",
    "upcast",
    "UPCASTERS",
]

#: The version of the event schema this code writes.
SCHEMA_VERSION: Final = 2
#: The envelope's keys as a set, to tell them from an event's own fields (their order: ``format.ENVELOPE_KEYS``).
_ENVELOPE: Final = frozenset(ENVELOPE_KEYS)
#: A UTC timestamp as the writer writes it (:mod:`ginlog.log.times`: one rule both ways); the JSON Schema uses it.
TS_PATTERN: Final = times.TS_PATTERN

#: Every event type, in the order they were registered (the order of :mod:`ginlog.log.event_types`).
EVENT_KINDS: Final[tuple[EventKind, ...]] = kinds()
#: ``type`` -> event class.
EVENT_TYPES: Final[dict[str, type]] = {k.name: k.cls for k in EVENT_KINDS}
_TYPE_OF: Final = {k.cls: k.name for k in EVENT_KINDS}
if set(typing.get_args(Event)) != set(_TYPE_OF):  # pragma: no cover - a mistake made while adding an event type
    raise TypeError(f"the Event union and the registered event classes differ: {set(typing.get_args(Event)) ^ set(_TYPE_OF)}")

# The sets of event classes code handles in bulk, each derived from the traits
# declared at registration (never listed by hand: ginlog.log.registry.Traits).
#: The first line of a hand: ``hand_dealt``, ``hand_result``.
BEGINS_HAND: Final = having(lambda t: t.begins_hand, EVENT_KINDS)
#: Undoes the last effective event: ``correction``.
TAKES_BACK: Final = having(lambda t: t.takes_back, EVENT_KINDS)
#: No rule of play, no state change: ``note``.
CHANGES_NOTHING: Final = having(lambda t: t.changes_nothing, EVENT_KINDS)
#: Never finishes nor begins a hand, so may come after the line that finished one: ``note``, ``match_abandoned``.
MAY_FOLLOW_END: Final = having(lambda t: t.may_follow_end, EVENT_KINDS)
#: Never undone, kept out of the undo history (the timeline and the fold skip it): ``seal``.
NEVER_UNDONE: Final = having(lambda t: not t.undoable, EVENT_KINDS)
if TAKES_BACK != {Correction}:  # pragma: no cover - a mistake made while adding an event type
    # The timeline and the fold know one way to take an event back (``undoes``):
    # a second one needs their code, not only a trait.
    raise TypeError(f"only Correction may take events back, not {sorted(c.__name__ for c in TAKES_BACK)}")


# ---------------------------------------------------------------------------
# The converter


def _strict(kind: type, label: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _t: Any) -> Any:
        if type(value) is not kind:
            raise EventError(f"expected {label}, got {_json_kind(value)}", rule="event")
        return value

    return hook


def _json_kind(value: Any) -> str:
    return {
        bool: "true/false", int: "a number", float: "a number", str: "text",
        list: "a list", dict: "an object", type(None): "null",
    }.get(type(value), type(value).__name__) + (f" {value!r}" if isinstance(value, (str, int, float)) and len(repr(value)) < 30 else "")


_CARD_BY_TEXT: Final = {str(c): c for c in DECK}


def _card(value: Any, _t: Any) -> Card:
    card = _CARD_BY_TEXT.get(value) if type(value) is str else None
    if card is None:
        raise EventError(f"expected a card like 7H or TD, got {_json_kind(value)}", rule="event")
    return card


def _cards(value: Any, _t: Any) -> Cards:
    if type(value) is not list:
        raise EventError(f"expected a list of cards, got {_json_kind(value)}", rule="event")
    try:
        out = tuple(map(_CARD_BY_TEXT.__getitem__, value))
    except (KeyError, TypeError):
        out = tuple(_card(v, None) for v in value)  # raises, naming the bad value
    if len(set(value)) != len(out):  # canonical texts: one per card
        raise EventError("a card is listed twice", rule="duplicate-card")
    return out


def _meld_list(value: Any, _t: Any) -> tuple[Cards, ...]:
    if type(value) is not list:
        raise EventError(f"expected a list of melds, got {_json_kind(value)}", rule="event")
    return tuple(_cards(v, None) for v in value)


_text_hook: Final = _strict(str, "text")


def _player_cards(value: Any, _t: Any) -> dict[str, Cards]:
    if type(value) is not dict:
        raise EventError(f"expected an object of player -> cards, got {_json_kind(value)}", rule="event")
    return {_text_hook(k, None): _cards(v, None) for k, v in value.items()}


def _player_card(value: Any, _t: Any) -> dict[str, Card]:
    if type(value) is not dict:
        raise EventError(f"expected an object of player -> card, got {_json_kind(value)}", rule="event")
    return {_text_hook(k, None): _card(v, None) for k, v in value.items()}


def _players(value: Any, _t: Any) -> tuple[str, str]:
    if type(value) is not list or len(value) != 2 or any(type(v) is not str for v in value):
        raise EventError("players must be a list of two names", rule="event")
    return (value[0], value[1])


def _rules(value: Any, _t: Any) -> Rules:
    if type(value) is not dict:
        raise EventError(f"rules must be an object of knobs, got {_json_kind(value)}", rule="event")
    return rules_from_dict(value)


def _is_optional(t: Any) -> bool:
    args = getattr(t, "__args__", ())
    return len(args) == 2 and type(None) in args and isinstance(t, types.UnionType)


def _is(generic: Any) -> Callable[[Any], bool]:
    """A cattrs predicate: the type is exactly ``generic``."""
    return lambda t: bool(t == generic)


def _make_converter(detailed: bool, forbid_extra_keys: bool = True) -> cattrs.Converter:
    """The strict converter. Per-class functions are generated by cattrs on first use.

    That keeps ``import ginlog.log.events`` cheap (a scripted ``ginlog play`` pays
    only for the event types its file holds).
    """
    conv = cattrs.Converter(
        forbid_extra_keys=forbid_extra_keys, omit_if_default=True, detailed_validation=detailed
    )
    conv.register_structure_hook(int, _strict(int, "a whole number"))
    conv.register_structure_hook(str, _text_hook)
    conv.register_structure_hook(bool, _strict(bool, "true or false"))
    conv.register_structure_hook(Card, _card)
    for generic, hook in (
        (Cards, _cards),
        (tuple[Cards, ...], _meld_list),
        (dict[str, Cards], _player_cards),
        (dict[str, Card], _player_card),
        (tuple[str, str], _players),
    ):
        conv.register_structure_hook_func(_is(generic), hook)
    conv.register_structure_hook(Rules, _rules)

    def optional(t: Any) -> Callable[[Any, Any], Any]:
        # ``X | None``: look X's hook up once, not on every value as cattrs' generic one does.
        (inner,) = (a for a in t.__args__ if a is not type(None))
        hook = conv.get_structure_hook(inner)
        return lambda value, _t: None if value is None else hook(value, inner)

    conv.register_structure_hook_factory(_is_optional, optional)
    conv.register_unstructure_hook(Card, str)
    conv.register_unstructure_hook(Rules, rules_to_dict)
    return conv


# For whole lines: the envelope keys ride along and are ignored, so no copy of
# the line's dict is made; the keys are checked against _LINE_KEYS instead.
_LINE = _make_converter(detailed=False, forbid_extra_keys=False)
_strict_conv: cattrs.Converter | None = None
_detailed: cattrs.Converter | None = None


def _strict_converter() -> cattrs.Converter:
    """The converter that refuses unknown keys, for fields given without an envelope (built on first use)."""
    global _strict_conv
    if _strict_conv is None:
        _strict_conv = _make_converter(detailed=False)
    return _strict_conv


def _detailed_converter() -> cattrs.Converter:
    """The converter with cattrs' detailed errors, built only when a line is bad."""
    global _detailed
    if _detailed is None:
        _detailed = _make_converter(detailed=True)
    return _detailed


def event_type(event: Event) -> str:
    """The ``type`` written in the envelope for this event."""
    return _TYPE_OF[type(event)]


def event_fields(event: Event) -> dict[str, Any]:
    """The event's own fields as plain JSON values (defaults left out, to keep lines short).

    MatchStarted always keeps its tool, so a record says what wrote it.
    """
    out: dict[str, Any] = _LINE.unstructure(event)
    if isinstance(event, MatchStarted):
        out = {"players": list(event.players), "rules": rules_to_dict(event.rules), "tool": event.tool} | (
            {"title": event.title} if event.title is not None else {}
        ) | ({"match_id": event.match_id} if event.match_id is not None else {})
    return out


def event_item(event: Event) -> tuple[str, int, dict[str, Any]]:
    """The ``(type, v, fields)`` a writer hands the store for one event, in this code's schema version.

    >>> event_item(Note(text="hello"))
    ('note', 2, {'text': 'hello'})
    """
    return (event_type(event), SCHEMA_VERSION, event_fields(event))


def event_from_fields(type_: str, fields: Mapping[str, Any]) -> Event:
    """Structure one event from its type and fields; raise :class:`EventError` saying what is wrong.

    >>> event_from_fields("card_discarded", {"player": "Ann", "card": "10h"})
    Traceback (most recent call last):
    ...
    ginlog.errors.EventError: card_discarded: card: expected a card like 7H or TD, got text '10h' [event]
    """
    cls = EVENT_TYPES.get(type_)
    if cls is None:
        raise EventError(f"unknown event type {type_!r}", rule="unknown-event")
    try:
        event: Event = _strict_converter().structure(fields, cls)
        return event
    except Exception:
        pass
    try:
        _detailed_converter().structure(fields, cls)
    except Exception as exc:  # noqa: BLE001 - every failure becomes one EventError
        raise _explain(type_, exc) from None
    raise EventError(f"{type_}: not a valid event", rule="event")  # pragma: no cover


def _explain(type_: str, exc: BaseException) -> EventError:
    """Turn cattrs' nested exception groups into one line naming the field."""
    path, leaf = _first_error(exc, [])
    if isinstance(leaf, cattrs.ForbiddenExtraKeysError):
        names = ", ".join(_shown_name(k) for k in sorted(leaf.extra_fields))
        return EventError(f"{type_}: unknown field(s) {names}", rule="unknown-field")
    if isinstance(leaf, KeyError):
        return EventError(f"{type_}: missing field {leaf.args[0]!r}", rule="event")
    rule = getattr(leaf, "rule", "event")
    message = getattr(leaf, "message", None) or str(leaf)
    if " not in literal " in message:
        choices = message.split("Literal[", 1)[1].rstrip("]")
        message = f"{message.split(' not in literal')[0]!r} is not one of {choices}"
    where = ".".join(path)
    return EventError(f"{type_}: {where + ': ' if where else ''}{message}", rule=rule)


def _shown_name(key: str) -> str:
    """A field name from a line, fit for a one-line message: quoted if it holds a control character.

    >>> _shown_name("colour"), _shown_name("\\rev")
    ('colour', "'\\\\rev'")
    """
    shown = key if key.isprintable() else repr(key)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _first_error(exc: BaseException, path: list[str]) -> tuple[list[str], BaseException]:
    """The first leaf error in a cattrs exception group, with the attribute path to it."""
    if isinstance(exc, BaseExceptionGroup) and not isinstance(exc, cattrs.ForbiddenExtraKeysError):
        sub = exc.exceptions[0]
        step = [str(getattr(n, "name", "")) for n in getattr(sub, "__notes__", []) if getattr(n, "name", None)]
        return _first_error(sub, path + step[:1])
    return path, exc


# ---------------------------------------------------------------------------
# Versions (what bumps SCHEMA_VERSION and what does not: docs/VERSIONING.md)


def _v1_to_v2(type_: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (the draft format of ginlog 0.0) named things differently.

    - ``match_started`` named a preset (``"preset": "standard"``) plus
      ``"overrides"`` instead of recording every knob.
    - ``card_drawn`` said ``"from": "stock" | "discard"`` instead of ``source``.
    """
    if type_ == "match_started" and "preset" in fields:
        from ginlog.game.rules import preset as _preset  # local: only old files need it

        fields = dict(fields)
        rules = rules_to_dict(_preset(fields.pop("preset")))
        overrides = fields.pop("overrides", {}) or {}
        if not isinstance(overrides, dict):
            raise EventError("match_started (v1): overrides must be an object", rule="event")
        rules.update(overrides)
        fields["rules"] = rules
    elif type_ == "card_drawn" and "from" in fields:
        fields = dict(fields)
        origin = fields.pop("from")
        fields["source"] = {"stock": "stock", "discard": "pile"}.get(origin, origin)
    return fields


#: version -> function turning that version's fields into the next version's.
UPCASTERS: Final[dict[int, Callable[[str, dict[str, Any]], dict[str, Any]]]] = {1: _v1_to_v2}


def upcast(type_: str, version: int, fields: dict[str, Any]) -> dict[str, Any]:
    """Bring an older line's fields up to :data:`SCHEMA_VERSION`.

    >>> upcast("card_drawn", 1, {"player": "Ann", "from": "discard", "card": "7H"})
    {'player': 'Ann', 'card': '7H', 'source': 'pile'}
    """
    lowest = min(UPCASTERS, default=SCHEMA_VERSION)
    if version > SCHEMA_VERSION:
        raise newer_version(version, lowest, SCHEMA_VERSION)  # the reader names the writer (versioning)
    if version < lowest:
        raise EventError(
            f"schema version {version} is not one this ginlog reads (it reads {lowest} to {SCHEMA_VERSION})",
            rule="version",
        )
    while version < SCHEMA_VERSION:
        fields = UPCASTERS[version](type_, fields)
        version += 1
    return fields


class LineDecoder:
    """Structures decoded lines one after another, checking each line's envelope ``type``, ``v`` and ``ts``.

    Lines written together share one ``ts``, so a decoder checks a time only
    when it differs from the last one that passed; that memory is the only
    state, and it is the decoder's (a reader makes one per file).

    >>> decode = LineDecoder()
    >>> line = {"seq": 2, "ts": "2026-11-29T19:56:25.123Z", "type": "note", "v": 2, "prev": None, "text": "hi"}
    >>> decode(line)
    Note(text='hi', player=None)
    """

    __slots__ = ("_last_ts",)

    def __init__(self) -> None:
        # A value no JSON line can hold, so the first line's time is always checked.
        self._last_ts: object = _UNSEEN

    def __call__(self, data: Mapping[str, Any]) -> Event:
        """The event of one decoded line; raise :class:`EventError` saying what is wrong."""
        type_ = data.get("type")
        v = data.get("v")
        ts = data.get("ts")
        if type(type_) is not str:
            raise EventError("the line has no event type", rule="event")
        if type(v) is not int:
            raise EventError("the line has no schema version 'v'", rule="event")
        if ts != self._last_ts:
            if not times.valid_ts(ts):
                raise EventError(
                    f"ts must be a UTC time as ginlog writes it, like {times.TS_EXAMPLE} (a real date, years"
                    f" {times.FIRST_YEAR}-{times.LAST_YEAR}, milliseconds), got {short_repr(ts)}",
                    rule="timestamp",
                )
            self._last_ts = ts
        if v == SCHEMA_VERSION:
            cls = EVENT_TYPES.get(type_)
            if cls is not None and data.keys() <= _LINE_KEYS[cls]:
                hook = _LINE_HOOKS.get(cls)
                if hook is None:
                    hook = _LINE_HOOKS[cls] = _LINE.get_structure_hook(cls)
                try:
                    event: Event = hook(data, cls)
                    return event
                except Exception:  # noqa: BLE001 - redone below for a precise message
                    pass
        fields = {k: val for k, val in data.items() if k not in _ENVELOPE}
        if v != SCHEMA_VERSION:
            fields = upcast(type_, v, fields)
        return event_from_fields(type_, fields)


def event_from_line(data: Mapping[str, Any]) -> Event:
    """Check the envelope's ``type``, ``v`` and ``ts`` and structure the event of one decoded line.

    (A reader of many lines uses one :class:`LineDecoder`; a reader that
    meets the same body again need not call this twice: see
    :mod:`ginlog.log.known`.)
    """
    return LineDecoder()(data)


_UNSEEN: Final = object()
_LINE_HOOKS: dict[type, Callable[[Any, Any], Any]] = {}  # filled on first use of each type
_LINE_KEYS: Final = {cls: frozenset(a.name for a in attrs.fields(cls)) | _ENVELOPE for cls in EVENT_TYPES.values()}
