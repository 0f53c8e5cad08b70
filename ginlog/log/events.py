"""Events: one small frozen class per thing that happens at the table, and their JSON form.

A match file is a list of these, one JSON object a line. Each line also
carries an *envelope*: ``seq`` (1, 2, 3, ...), ``ts`` (UTC time it was
recorded), ``type`` (which event), ``v`` (the schema version it was written
in) and ``prev`` (the SHA-256 of the previous line's bytes), followed by the
event's own fields. Cards are their canonical text, players their names.

>>> ev = CardDiscarded(player="Ann", card=parse_card("7h"))
>>> event_type(ev), event_fields(ev)
('card_discarded', {'player': 'Ann', 'card': '7H'})
>>> event_from_fields("card_drawn", {"player": "Bob", "source": "stock"})
CardDrawn(player='Bob', source='stock', card=None)

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
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeAlias

import attrs
import cattrs

from ginlog import __version__
from ginlog.game.cards import DECK, Card, parse_card
from ginlog.errors import EventError
from ginlog.game.rules import Rules, rules_from_dict, rules_to_dict

__all__ = [
    "SCHEMA_VERSION",
    "ENVELOPE_KEYS",
    "Event",
    "EVENT_TYPES",
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
    "event_type",
    "event_fields",
    "event_item",
    "event_from_fields",
    "event_from_line",
    "event_from_body",
    "upcast",
    "UPCASTERS",
]

#: The version of the event schema this code writes.
SCHEMA_VERSION: Final = 2
ENVELOPE_KEYS: Final = frozenset({"seq", "ts", "type", "v", "prev"})
#: A UTC timestamp: month 01-12, day 01-31, hour 00-23, minutes and seconds
#: 00-59, up to microseconds. The JSON Schema uses this same text.
TS_PATTERN: Final = (
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,6})?Z"
)
_TS_RE: Final = re.compile(TS_PATTERN + r"\Z")

Cards: TypeAlias = tuple[Card, ...]
MAX_NAME = 40
MAX_TEXT = 2000


def _name(_i: object, a: attrs.Attribute[Any], v: str | None) -> None:
    if v is not None and not (0 < len(v) <= MAX_NAME and v.strip() == v and v.isprintable()):
        raise EventError(f"{a.name} must be a name of 1 to {MAX_NAME} printable characters, not {v!r}", rule="event")


def _text(_i: object, a: attrs.Attribute[Any], v: str | None) -> None:
    if v is not None and len(v) > MAX_TEXT:
        raise EventError(f"{a.name} is longer than {MAX_TEXT} characters", rule="event")


def _deadwood(_i: object, a: attrs.Attribute[Any], v: int) -> None:
    if not 0 <= v <= 200:
        raise EventError(f"{a.name} must be between 0 and 200, not {v}", rule="event")


def _positive(_i: object, a: attrs.Attribute[Any], v: int | None) -> None:
    if v is not None and v < 1:
        raise EventError(f"{a.name} must be 1 or more, not {v}", rule="event")


def _non_negative(_i: object, a: attrs.Attribute[Any], v: int | None) -> None:
    if v is not None and not 0 <= v <= 1_000_000:
        raise EventError(f"{a.name} must be between 0 and 1000000, not {v}", rule="event")


@attrs.frozen(kw_only=True)
class MatchStarted:
    """The first line of every match: who plays, under exactly which rules, recorded by what."""

    players: tuple[str, str] = attrs.field(validator=attrs.validators.deep_iterable(_name))
    rules: Rules
    tool: str = f"ginlog {__version__}"
    title: str | None = attrs.field(default=None, validator=_text)

    def __attrs_post_init__(self) -> None:
        if self.players[0] == self.players[1]:
            raise EventError("the two players need different names", rule="event")


@attrs.frozen(kw_only=True)
class FirstDealer:
    """Who deals the first hand, and how that was decided (``cut`` records both cut cards)."""

    dealer: str = attrs.field(validator=_name)
    how: Literal["cut", "agreed", "random"]
    cuts: dict[str, Card] | None = None


@attrs.frozen(kw_only=True)
class HandDealt:
    """A new hand: dealer and upcard always; both hands and the stock order only where known."""

    dealer: str = attrs.field(validator=_name)
    upcard: Card
    hands: dict[str, Cards] | None = None
    stock: Cards | None = None


@attrs.frozen(kw_only=True)
class UpcardPassed:
    """The player to act declines the first upcard."""

    player: str = attrs.field(validator=_name)


@attrs.frozen(kw_only=True)
class CardDrawn:
    """A draw from the stock or the pile (taking the upcard is a draw from the pile).

    ``card`` is given when it is known: always for the pile (it is face up), for
    the stock only when the deal or the drawer's hand is being recorded.
    """

    player: str = attrs.field(validator=_name)
    source: Literal["stock", "pile"]
    card: Card | None = None


@attrs.frozen(kw_only=True)
class CardDiscarded:
    """A card put face up on the pile, ending a turn."""

    player: str = attrs.field(validator=_name)
    card: Card


@attrs.frozen(kw_only=True)
class Knocked:
    """A knock: ``card`` goes face down; the knocker's hand is then shown (:class:`HandShown`)."""

    player: str = attrs.field(validator=_name)
    card: Card


@attrs.frozen(kw_only=True)
class Gin:
    """Going gin: discard ``card``, all ten others melded."""

    player: str = attrs.field(validator=_name)
    card: Card


@attrs.frozen(kw_only=True)
class BigGin:
    """All eleven cards melded after the draw, no discard (when the rules play it)."""

    player: str = attrs.field(validator=_name)


@attrs.frozen(kw_only=True)
class HandShown:
    """A hand laid out at the end: the knocker's first, then the defender's.

    ``melds`` declares the arrangement; left out, ginlog finds the best one.
    ``layoffs`` (defender only) are cards laid off onto the knocker's melds, in
    the order made; left out together with ``melds``, ginlog finds the best.
    """

    player: str = attrs.field(validator=_name)
    cards: Cards
    melds: tuple[Cards, ...] | None = None
    layoffs: Cards | None = None


@attrs.frozen(kw_only=True)
class HandResultOnly:
    """A hand kept on a score pad: how it ended and each side's deadwood, no moves.

    ``points`` and ``winner``, when given, are what the pad claims; ginlog
    prices the hand itself and reports a mismatch.
    """

    how: Literal["knock", "gin", "big_gin", "void"]
    out: str | None = attrs.field(default=None, validator=_name)
    knocker_deadwood: int = attrs.field(default=0, validator=_deadwood)
    defender_deadwood: int = attrs.field(default=0, validator=_deadwood)
    upcard: Card | None = None
    points: int | None = attrs.field(default=None, validator=_non_negative)
    winner: str | None = attrs.field(default=None, validator=_name)


@attrs.frozen(kw_only=True)
class HandVoid:
    """The players agree to throw in the current hand (a misdeal, say); the same dealer deals again."""

    reason: str = attrs.field(validator=_text)


@attrs.frozen(kw_only=True)
class Note:
    """Free text, kept in the record; changes nothing."""

    text: str = attrs.field(validator=_text)
    player: str | None = attrs.field(default=None, validator=_name)


@attrs.frozen(kw_only=True)
class Correction:
    """Undo the last effective event (``undoes`` names it). The file keeps both."""

    undoes: int = attrs.field(validator=_positive)
    reason: str | None = attrs.field(default=None, validator=_text)


@attrs.frozen(kw_only=True)
class MatchAbandoned:
    """The match stops here, unfinished."""

    reason: str = attrs.field(validator=_text)


Event: TypeAlias = (
    MatchStarted | FirstDealer | HandDealt | UpcardPassed | CardDrawn | CardDiscarded | Knocked
    | Gin | BigGin | HandShown | HandResultOnly | HandVoid | Note | Correction | MatchAbandoned
)

EVENT_TYPES: Final[dict[str, type]] = {
    "match_started": MatchStarted,
    "first_dealer": FirstDealer,
    "hand_dealt": HandDealt,
    "upcard_passed": UpcardPassed,
    "card_drawn": CardDrawn,
    "card_discarded": CardDiscarded,
    "knocked": Knocked,
    "gin": Gin,
    "big_gin": BigGin,
    "hand_shown": HandShown,
    "hand_result": HandResultOnly,
    "hand_void": HandVoid,
    "note": Note,
    "correction": Correction,
    "match_abandoned": MatchAbandoned,
}
_TYPE_OF: Final = {cls: name for name, cls in EVENT_TYPES.items()}


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


_CANONICAL: Final = {str(c): c for c in DECK}


def _card(value: Any, _t: Any) -> Card:
    card = _CANONICAL.get(value) if type(value) is str else None
    if card is None:
        raise EventError(f"expected a card like 7H or TD, got {_json_kind(value)}", rule="event")
    return card


def _cards(value: Any, _t: Any) -> Cards:
    if type(value) is not list:
        raise EventError(f"expected a list of cards, got {_json_kind(value)}", rule="event")
    try:
        out = tuple(map(_CANONICAL.__getitem__, value))
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
        conv.register_structure_hook_func(lambda t, g=generic: t == g, hook)
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
        )
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
        return _strict_converter().structure(fields, cls)  # type: ignore[no-any-return]
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
        return EventError(f"{type_}: unknown field(s) {names}", rule="event")
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
# Versions


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
    if version > SCHEMA_VERSION or version < min(UPCASTERS, default=SCHEMA_VERSION):
        raise EventError(
            f"schema version {version} is not one this ginlog reads (it reads 1 to {SCHEMA_VERSION})",
            rule="version",
        )
    while version < SCHEMA_VERSION:
        fields = UPCASTERS[version](type_, fields)
        version += 1
    return fields


def event_from_line(data: Mapping[str, Any]) -> Event:
    """Check the envelope's ``type``, ``v`` and ``ts`` and structure the event of one decoded line.

    (A reader that meets the same fields again need not call this twice: see
    :func:`ginlog.log.store.read_bodies`.)
    """
    global _last_ts
    type_ = data.get("type")
    v = data.get("v")
    ts = data.get("ts")
    if type(type_) is not str:
        raise EventError("the line has no event type", rule="event")
    if type(v) is not int:
        raise EventError("the line has no schema version 'v'", rule="event")
    if ts != _last_ts:
        if type(ts) is not str or not _TS_RE.match(ts):
            raise EventError(f"ts must be a UTC time like 2026-11-29T19:56:25.123Z, got {ts!r}", rule="event")
        _last_ts = ts
    if v == SCHEMA_VERSION:
        cls = EVENT_TYPES.get(type_)
        if cls is not None and data.keys() <= _LINE_KEYS[cls]:
            hook = _LINE_HOOKS.get(cls)
            if hook is None:
                hook = _LINE_HOOKS[cls] = _LINE.get_structure_hook(cls)
            try:
                return hook(data, cls)  # type: ignore[no-any-return]
            except Exception:  # noqa: BLE001 - redone below for a precise message
                pass
    fields = {k: val for k, val in data.items() if k not in ENVELOPE_KEYS}
    if v != SCHEMA_VERSION:
        fields = upcast(type_, v, fields)
    return event_from_fields(type_, fields)


# The last ts that passed the check (lines written together share one); it
# starts as a value no JSON line can hold, so the first line is always checked.
_last_ts: object = object()
_LINE_HOOKS: dict[type, Callable[[Any, Any], Any]] = {}  # filled on first use of each type
_LINE_KEYS: Final = {cls: frozenset(a.name for a in attrs.fields(cls)) | ENVELOPE_KEYS for cls in EVENT_TYPES.values()}


# ---------------------------------------------------------------------------
# The deal and the shown hands without JSON


_CARD_BYTES: Final = {b'"%s"' % str(c).encode(): c for c in DECK}
_CARD_RE: Final = rb'"[A2-9TJQK][SHDC]"'
_CARDS_RE: Final = rb"\[(" + _CARD_RE + rb"(?:," + _CARD_RE + rb")*)\]"
_NAME_RE: Final = rb'"([A-Za-z0-9]{1,40})"'  # plain names only; any other takes the JSON path
_DEALT: Final = re.compile(
    rb'"dealer":' + _NAME_RE + rb',"upcard":(' + _CARD_RE + rb")"
    rb'(?:,"hands":\{' + _NAME_RE + rb":" + _CARDS_RE + rb"," + _NAME_RE + rb":" + _CARDS_RE + rb"\})?"
    rb'(?:,"stock":' + _CARDS_RE + rb")?\}"
).fullmatch
_SHOWN: Final = re.compile(rb'"player":' + _NAME_RE + rb',"cards":' + _CARDS_RE + rb"\}").fullmatch


def _card_list(text: bytes) -> Cards:
    parts = text.split(b",")
    if len(set(parts)) != len(parts):
        raise EventError("a card is listed twice", rule="duplicate-card")
    return tuple(map(_CARD_BYTES.__getitem__, parts))


def _dealt(text: bytes) -> Event | None:
    m = _DEALT(text)
    if m is None:
        return None
    dealer, upcard, p1, c1, p2, c2, stock = m.groups()
    hands = None
    if p1 is not None:
        if p1 == p2:
            return None  # a key twice: the JSON path words that error
        hands = {p1.decode(): _card_list(c1), p2.decode(): _card_list(c2)}
    return HandDealt(
        dealer=dealer.decode(),
        upcard=_CARD_BYTES[upcard],
        hands=hands,
        stock=None if stock is None else _card_list(stock),
    )


def _shown(text: bytes) -> Event | None:
    m = _SHOWN(text)
    if m is None:
        return None
    player, cards = m.groups()
    return HandShown(player=player.decode(), cards=_card_list(cards))


#: Per ``type`` and ``v`` as a line's bytes give them: a reader of the rest of that line's bytes.
_BODY_READERS: Final[dict[bytes, Callable[[bytes], Event | None]]] = {
    b'","type":"hand_dealt","v":%d' % SCHEMA_VERSION: _dealt,
    b'","type":"hand_shown","v":%d' % SCHEMA_VERSION: _shown,
}


def event_from_body(key: tuple[bytes, bytes]) -> Event | None:
    """The event of a line as ginlog writes it, read straight off its bytes, or None to leave it to JSON.

    ``key`` is a body key of :func:`ginlog.log.store.read_bodies`: the bytes of
    the line's ``type`` and ``v``, and of what follows its ``prev``. The three
    lines of a hand that never repeat (the deal and the two shown hands) are
    most of the JSON a full replay still parses; their usual form (plain
    player names, cards and nothing else) is read here by one regular
    expression instead. Anything else, and anything wrong, gives None, so
    every error is still found and worded by the JSON path
    (``tests/test_bodies.py`` holds the two to the same events and errors).

    >>> key = (b'","type":"hand_shown","v":2', b'"player":"Ann","cards":["7S","7C","7H"]}')
    >>> event_from_body(key)
    HandShown(player='Ann', cards=(Card('7S'), Card('7C'), Card('7H')), melds=None, layoffs=None)
    >>> event_from_body((key[0], b'"player":"Ann","cards":["7S","7S","7H"]}')) is None  # the JSON path says why
    True
    """
    reader = _BODY_READERS.get(key[0])
    if reader is None:
        return None
    try:
        return reader(key[1])
    except EventError:
        return None
