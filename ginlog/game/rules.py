"""Rule knobs and presets: every value the rule book leaves open is a field here.

A match file records its :class:`Rules` in full (not just a preset name), so a
record made today replays the same way after a preset changes. Presets are
just named starting points; ``--set KNOB=VALUE`` changes one knob.

>>> r = preset("standard")
>>> r.knock_limit, r.gin_bonus, r.undercut_bonus, r.undercut_on_tie
(10, 20, 10, True)
>>> newspaper = preset("newspaper")
>>> newspaper == with_knobs(r, knock_limit="9", gin_bonus="25")
True
>>> rules_from_dict(rules_to_dict(preset("modern"))) == preset("modern")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs
import cattrs

from ginlog.game.cards import Card
from ginlog.errors import GinlogError, RulesError
from ginlog.numbers import InRange, shown_int

__all__ = [
    "Rules",
    "Oklahoma",
    "Hollywood",
    "PRESETS",
    "preset",
    "with_knobs",
    "rules_to_dict",
    "all_knobs",
    "rules_from_dict",
    "KNOB_HELP",
    "KNOB_RANGES",
]

NextDealer = Literal["winner", "loser", "alternate"]
BoxTiming = Literal["end", "hand"]
Shutout = Literal["none", "double", "flat"]
AceRule = Literal["gin", "one"]


def _range(lo: int, hi: int) -> InRange:
    """A knob's range: outside it, one :class:`RulesError` ``[rules]`` naming the knob and the range."""
    return InRange(lo, hi, RulesError, "rules")


# The ranges (docs: KNOB_HELP, README "Rules and knobs", rules.schema.json). Wide
# enough for every table's house rules, narrow enough that no score, total or
# message can grow past what a person would ever write down:
#: Ten cards leave at most 98 deadwood (K K Q Q J J T T 9 9 in suits that make
#: no meld), so 100 already means "any hand may knock".
_KNOCK: Final = _range(0, 100)
#: Bonuses: published rules give 10 to 500 (a game bonus); 1000 leaves room for house rules.
_BONUS: Final = _range(0, 1000)
#: The stock holds 31 cards after the deal.
_STOCK: Final = _range(0, 31)
#: A match to 1 point or more (published targets: 100 to 250); up to 10**9, a target
#: no match reaches, for an open-ended series (the replay benchmark's matches); null is one hand.
_TARGET: Final = _range(1, 10**9)
#: OpenSpiel's limit is 50 takes; at least one take, or the knob would void every hand at once.
_TAKES: Final = _range(1, 1000)
#: A run of three can grow by at most ten cards at one end (13 ranks); 0 = no lay-off onto a run's end.
_CHAIN: Final = _range(0, 10)
#: RLCard's max_move_count is 200; the deal is the first move, so 1 would leave only a dead hand at the
#: first draw. 100,000 moves is past any game's length (a hand of pickups at the dead stock is bounded only by it).
_MOVES: Final = _range(1, 100_000)


def _one_of(*choices: str) -> Any:
    def check(_inst: object, attribute: attrs.Attribute[Any], value: str) -> None:
        if value not in choices:
            raise RulesError(
                f"{attribute.name} must be one of {', '.join(choices)}, not {value!r}", rule="rules"
            )

    return check


@attrs.frozen(kw_only=True)
class Oklahoma:
    """Oklahoma gin: the first upcard of a hand sets its knock limit.

    ``ace``: what an ace upcard means, ``"gin"`` (gin only; most tables) or
    ``"one"`` (knock with 1 or less). ``spades_double``: a spade upcard doubles
    the hand's score.
    """

    ace: AceRule = attrs.field(default="gin", validator=_one_of("gin", "one"))
    spades_double: bool = True


@attrs.frozen(kw_only=True)
class Hollywood:
    """Hollywood scoring: three games at once (the rules: :mod:`ginlog.game.hollywood`).

    A player's first winning hand scores in game 1, the second in games 1 and
    2, the third and later in every open game; each game closes at
    ``game_target`` with its own game bonus, boxes and shutout (the other
    knobs); the match is over when all three are closed. Source: the Hollywood
    Gin rules of rummy-games.com (rules/hollywood-gin.html).

    ``shut_out_moves_on``: "If a player was shut out in one game, his next
    score is entered as the first score in the next game in progress" (the
    source; true). False counts strictly: a player's n-th winning hand scores
    only in the open games among games 1 to n.

    Two choices the rule books leave open, stated here (issue 21; the
    module :mod:`ginlog.game.hollywood` says them in full): after a shut-out
    the player's count starts again in the game they enter (their next win
    scores in it and the game after), and the match goes to the higher sum of
    the three games' final totals, not to whoever won more games.
    """

    shut_out_moves_on: bool = True


@attrs.frozen(kw_only=True)
class Rules:
    """Every rule value, with the how-to guide's choices as defaults."""

    knock_limit: int = attrs.field(default=10, validator=_KNOCK)
    gin_bonus: int = attrs.field(default=20, validator=_BONUS)
    big_gin_bonus: int | None = attrs.field(default=None, validator=_BONUS)
    undercut_bonus: int = attrs.field(default=10, validator=_BONUS)
    undercut_on_tie: bool = True
    may_discard_taken_card: bool = False
    void_stock_size: int = attrs.field(default=2, validator=_STOCK)
    game_target: int | None = attrs.field(default=100, validator=_TARGET)
    next_dealer: NextDealer = attrs.field(default="winner", validator=_one_of("winner", "loser", "alternate"))
    game_bonus: int = attrs.field(default=0, validator=_BONUS)
    box_bonus: int = attrs.field(default=0, validator=_BONUS)
    box_timing: BoxTiming = attrs.field(default="end", validator=_one_of("end", "hand"))
    shutout: Shutout = attrs.field(default="none", validator=_one_of("none", "double", "flat"))
    shutout_bonus: int = attrs.field(default=100, validator=_BONUS)
    oklahoma: Oklahoma | None = None
    upcard_take_limit: int | None = attrs.field(default=None, validator=_TAKES)
    void_on_upcard_loop: bool = False
    wall_knock: bool = False
    layoff_chain_limit: int | None = attrs.field(default=None, validator=_CHAIN)
    # Added after schema 2: recorded only when set (SCHEMA_2_KNOBS, docs/VERSIONING.md).
    hollywood: Hollywood | None = None
    loop_counts_first_upcard: bool = False
    # RLCard's game (issue 22): each defaults to the play before it existed.
    deal_eleven: bool = False
    dead_stock_pickups: bool = False
    move_limit: int | None = attrs.field(default=None, validator=_MOVES)
    may_go_out_with_taken_card: bool = False
    gin_compulsory: bool = False
    layoffs: bool = True

    def __attrs_post_init__(self) -> None:
        # Oklahoma's knock limit comes from the first upcard, which an 11/10 deal does not turn.
        if self.deal_eleven and self.oklahoma is not None:
            raise RulesError("deal_eleven deals no upcard, and Oklahoma needs one: set oklahoma off", rule="rules")

    def knock_limit_for(self, first_upcard: Card) -> int:
        """The knock limit of a hand; under Oklahoma it comes from the first upcard.

        >>> from ginlog.game.cards import parse_card
        >>> ok = preset("oklahoma")
        >>> ok.knock_limit_for(parse_card("7h")), ok.knock_limit_for(parse_card("KS")), ok.knock_limit_for(parse_card("AD"))
        (7, 10, 0)
        """
        if self.oklahoma is None:
            return self.knock_limit
        if first_upcard.rank == 1:
            return 0 if self.oklahoma.ace == "gin" else 1
        return first_upcard.value

    def multiplier_for(self, first_upcard: Card) -> int:
        """2 when Oklahoma's spade doubling applies to this hand, else 1."""
        if self.oklahoma is not None and self.oklahoma.spades_double and first_upcard.suit == "S":
            return 2
        return 1

    @property
    def single_hand(self) -> bool:
        """A match of exactly one hand (OpenSpiel's records): no target."""
        return self.game_target is None


KNOB_HELP: Final[dict[str, str]] = {
    "knock_limit": "most deadwood a knock may leave (how-to guide 10; newspaper 'under ten' = 9)",
    "gin_bonus": "bonus for gin, on top of the defender's deadwood",
    "big_gin_bonus": "bonus for big gin (11 cards melded, no discard); null = big gin not played",
    "undercut_bonus": "bonus to a defender whose deadwood is lower than (or equal to) the knocker's",
    "undercut_on_tie": "equal deadwood after a knock is an undercut (false: nobody scores)",
    "may_discard_taken_card": "a card taken from the pile may be discarded in the same turn",
    "void_stock_size": "the hand is void when a discard leaves this many cards in the stock",
    "game_target": "points that win the match; null = a single hand (OpenSpiel)",
    "next_dealer": "who deals after a scored hand: winner, loser or alternate",
    "game_bonus": "bonus to the match winner",
    "box_bonus": "bonus for each hand a player won",
    "box_timing": "boxes added at the end of the match, or at once after each hand (counting toward the target)",
    "shutout": "when the loser scored nothing: none, double (the winner's total, bonuses included) or flat",
    "shutout_bonus": "the flat shutout bonus",
    "oklahoma": "Oklahoma gin: the first upcard sets the knock limit ({ace: gin|one, spades_double})",
    "upcard_take_limit": "OpenSpiel: the hand is void on this many takes of the upcard",
    "void_on_upcard_loop": "OpenSpiel: void when both players in turn take the upcard and discard it straight back",
    "wall_knock": "OpenSpiel: at the two-card stock the next player may still take the upcard to knock (else void)",
    "layoff_chain_limit": "OpenSpiel: most cards laid off at one end of a run; null = no limit",
    "hollywood": "Hollywood scoring: three games at once, each to the target with its bonuses "
    "({shut_out_moves_on}); null = one game",
    "loop_counts_first_upcard": "OpenSpiel: the first upcard taken and discarded straight back counts toward "
    "void_on_upcard_loop (the take limit still counts only later takes)",
    "deal_eleven": "RLCard: 11 cards to the non-dealer and 10 to the dealer, no upcard; the non-dealer starts by "
    "discarding (or knocking, or going gin)",
    "dead_stock_pickups": "RLCard: at void_stock_size the hand goes on: the player to draw may take the discard "
    "(never the stock) or declare the hand dead (hand_void), and a hand is declared dead only then or at move_limit",
    "move_limit": "RLCard: a turn that begins with this many moves made (the deal is the first, then each draw "
    "and discard) may only declare the hand dead; null = no limit",
    "may_go_out_with_taken_card": "RLCard: the card taken from the pile may be the knock or gin card of the same "
    "turn, though not a plain discard (under may_discard_taken_card false)",
    "gin_compulsory": "RLCard: a player who can go gin must: a discard or a knock that could have been gin is "
    "refused (checked when the whole hand is known)",
    "layoffs": "the defender lays off cards on the knocker's melds (false: RLCard, no lay-offs)",
}

#: knob -> (lowest, highest) whole number it may hold (a nullable knob may also be null).
KNOB_RANGES: Final[dict[str, tuple[int, int]]] = {
    f.name: (f.validator.lo, f.validator.hi) for f in attrs.fields(Rules) if isinstance(f.validator, InRange)
}
for _knob, (_lo, _hi) in KNOB_RANGES.items():
    _nullable = "None" in str(attrs.fields_dict(Rules)[_knob].type)
    KNOB_HELP[_knob] += f" [{_lo}..{_hi}{' or null' if _nullable else ''}]"
del _knob, _lo, _hi, _nullable

STANDARD: Final = Rules()

PRESETS: Final[dict[str, Rules]] = {
    "standard": STANDARD,
    "newspaper": attrs.evolve(STANDARD, knock_limit=9, gin_bonus=25),
    "modern": attrs.evolve(
        STANDARD,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        game_bonus=100,
        box_bonus=25,
        shutout="double",
    ),
    "classic": attrs.evolve(STANDARD, game_bonus=100, box_bonus=20, shutout="flat", shutout_bonus=100),
    "oklahoma": attrs.evolve(STANDARD, oklahoma=Oklahoma(), game_target=150),
    "openspiel": attrs.evolve(
        STANDARD,
        gin_bonus=25,
        undercut_bonus=25,
        undercut_on_tie=False,
        may_discard_taken_card=True,
        game_target=None,
        upcard_take_limit=50,
        void_on_upcard_loop=True,
        wall_knock=True,
        layoff_chain_limit=2,
        loop_counts_first_upcard=True,
    ),
    "rlcard": attrs.evolve(
        STANDARD,
        game_target=None,
        deal_eleven=True,
        dead_stock_pickups=True,
        move_limit=200,
        may_go_out_with_taken_card=True,
        gin_compulsory=True,
        layoffs=False,
    ),
    "hollywood": attrs.evolve(
        STANDARD, game_bonus=100, box_bonus=20, shutout="flat", shutout_bonus=100, hollywood=Hollywood()
    ),
}

PRESET_HELP: Final[dict[str, str]] = {
    "standard": "the how-to guide: knock 10, gin 20, undercut 10, to 100, no end-of-game bonuses",
    "newspaper": "the newspaper guide: standard with knock 'under ten' (9) and gin 25",
    "modern": "modern tournament: gin 25, big gin 31, undercut 25; game 100, box 25, shutout doubles",
    "classic": "classic (Bicycle): 10/20/10; game 100, box 20, shutout +100",
    "oklahoma": "Oklahoma gin: the first upcard sets the knock limit (ace: gin only), spades double, to 150",
    "openspiel": "OpenSpiel gin_rummy: one hand, gin 25, undercut 25, tie scores 0, its loop voids (a bounce of the first upcard counts), wall knock, 2-card lay-off chains",
    "rlcard": "RLCard gin_rummy: one hand, 11/10 deal without upcard, pickups at the two-card stock until declared "
    "dead, 200 moves at most, knock with the card taken, compulsory gin, no lay-offs; standard's points",
    "hollywood": "Hollywood (rummy-games.com's Hollywood Gin page; the seeds have no Hollywood): classic's 10/20/10 "
    "and bonuses, in three games at once, each to 100; the match to the higher sum of the three",
}

_converter = cattrs.Converter(forbid_extra_keys=True)


def preset(name: str) -> Rules:
    """A named rule set; raise :class:`RulesError` listing the names on a typo."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"no preset named {name!r}; presets are {', '.join(PRESETS)}", rule="rules"
        ) from None


#: The knobs of schema version 2: every match_started records each of them.
#: A knob added later must default to the play before it existed and is
#: recorded only when it differs from that default, so an older ginlog still
#: reads every file that does not use it (docs/VERSIONING.md).
SCHEMA_2_KNOBS: Final = frozenset({
    "knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "undercut_on_tie", "may_discard_taken_card",
    "void_stock_size", "game_target", "next_dealer", "game_bonus", "box_bonus", "box_timing", "shutout",
    "shutout_bonus", "oklahoma", "upcard_take_limit", "void_on_upcard_loop", "wall_knock", "layoff_chain_limit",
})
#: The knobs added since, with their defaults as JSON values: ``hollywood``,
#: ``loop_counts_first_upcard`` (OpenSpiel's repeated-move void also counts a bounce of the very first upcard),
#: and RLCard's (``deal_eleven`` to ``layoffs``).
LATER_KNOBS: Final = tuple(
    (f.name, _converter.unstructure(f.default)) for f in attrs.fields(Rules) if f.name not in SCHEMA_2_KNOBS
)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Plain JSON-ready dict with every knob, for the match file (a knob newer than schema 2 only when set).

    >>> sorted(rules_to_dict(preset("standard"))) == sorted(SCHEMA_2_KNOBS)
    True
    """
    data: dict[str, Any] = _converter.unstructure(rules)
    for name, default in LATER_KNOBS:
        if data[name] == default:
            del data[name]
    return data


def all_knobs(rules: Rules) -> dict[str, Any]:
    """Every knob as JSON values, a later one too when at its default: what a person is shown (``ginlog rules``).

    A match file records :func:`rules_to_dict` instead.

    >>> "hollywood" in all_knobs(preset("standard")), "hollywood" in rules_to_dict(preset("standard"))
    (True, False)
    """
    data: dict[str, Any] = _converter.unstructure(rules)
    return data


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """Rebuild :class:`Rules`; a knob left out takes its default.

    An unknown knob is a :class:`RulesError` with rule ``unknown-knob`` (it may
    come from a newer ginlog: :mod:`ginlog.log.versioning` words that); a wrong
    type or value is one with rule ``rules``.
    """
    key = _memo_key(data)
    if key is not None:
        known = _FROM_DICT.get(key)
        if known is not None:
            return known
    try:
        _check_types(data)
        rules = _converter.structure(dict(data), Rules)
    except RulesError:
        raise
    except Exception as exc:  # cattrs reports through exception groups
        own = _first_ginlog_error(exc)
        if own is not None:  # a knob's validator: its one error names the knob and its range
            raise own from None
        raise RulesError(f"rules are not valid: {_cattrs_reason(exc)}", rule="rules") from None
    if key is not None:
        if len(_FROM_DICT) >= _FROM_DICT_SIZE:
            _FROM_DICT.clear()
        _FROM_DICT[key] = rules
    return rules


#: Rules already rebuilt, by :func:`_memo_key` of the dict they came from (every file of a
#: club's or an import's plays the same rules: their check and structuring cost more than the
#: rest of a one-hand file's first line). Only dicts that were valid are here; bounded.
_FROM_DICT: Final[dict[tuple[Any, ...], Rules]] = {}
_FROM_DICT_SIZE: Final = 256
_SCALARS: Final = (bool, int, str, type(None))


def _memo_key(data: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """A key equal only for dicts with the same knobs, in the same order, with values of the same
    JSON types and values (``1`` and ``true`` differ, as ``10`` and ``10.0`` do); None if a value is
    not a scalar or an object of scalars (then nothing is remembered).
    """
    if type(data) is not dict:
        return None
    try:  # the usual case, every value a scalar: one C-level pass
        flat = (tuple(data.items()), tuple(map(type, data.values())))
        hash(flat)
    except TypeError:
        pass
    else:
        return flat if all(t in _SCALARS for t in flat[1]) else None
    key: list[Any] = []
    for k, v in data.items():
        t = type(v)
        if t is dict:
            inner = tuple((ik, type(iv), iv) for ik, iv in v.items())
            if any(it not in _SCALARS for _, it, _ in inner):
                return None
            key.append((k, t, inner))
        elif t in _SCALARS:
            key.append((k, t, v))
        else:
            return None
    return tuple(key)


def _check_types(data: Mapping[str, Any]) -> None:
    """cattrs converts "10" to 10 quietly; a record must not, so check JSON types first."""
    if not isinstance(data, Mapping):
        raise RulesError("rules must be an object of knobs", rule="rules")
    fields = attrs.fields_dict(Rules)
    for key, value in data.items():
        if key not in fields:
            raise RulesError(f"unknown rule knob {key!r}", rule="unknown-knob")
        default = fields[key].default
        if key == "oklahoma":
            if value is not None and not isinstance(value, Mapping):
                raise RulesError("oklahoma must be null or an object", rule="rules")
            if isinstance(value, Mapping):
                ok_fields = attrs.fields_dict(Oklahoma)
                for k, v in value.items():
                    if k not in ok_fields:
                        raise RulesError(f"unknown Oklahoma knob {k!r}", rule="unknown-knob")
                    if k == "spades_double" and not isinstance(v, bool):
                        raise RulesError("oklahoma.spades_double must be true or false", rule="rules")
                    if k == "ace" and v not in ("gin", "one"):
                        raise RulesError(f"oklahoma.ace must be one of gin, one, not {_short(v)}", rule="rules")
            continue
        if key == "hollywood":
            _check_hollywood(value)
            continue
        nullable = "None" in str(fields[key].type)
        if value is None:
            if not nullable:
                raise RulesError(f"{key} may not be null", rule="rules")
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise RulesError(f"{key} must be true or false, not {_short(value)}", rule="rules")
        elif isinstance(default, int) or default is None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{key} must be a whole number, not {_short(value)}", rule="rules")
        elif isinstance(default, str):
            if not isinstance(value, str):
                raise RulesError(f"{key} must be text, not {_short(value)}", rule="rules")
            check = fields[key].validator
            if check is not None:
                check(None, fields[key], value)  # names the knob and its choices


def _check_hollywood(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise RulesError("hollywood must be null or an object", rule="rules")
    known = attrs.fields_dict(Hollywood)
    for k, v in value.items():
        if k not in known:
            raise RulesError(f"unknown Hollywood knob {k!r}", rule="unknown-knob")
        if not isinstance(v, bool):
            raise RulesError(f"hollywood.{k} must be true or false", rule="rules")


def _short(value: object) -> str:
    """A value from a file, short enough for a one-line message."""
    text = shown_int(value) if type(value) is int else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _first_ginlog_error(exc: BaseException) -> GinlogError | None:
    """The first of ginlog's own errors inside cattrs' exception groups, if any."""
    if isinstance(exc, GinlogError):
        return exc
    for sub in exc.exceptions if isinstance(exc, BaseExceptionGroup) else ():
        found = _first_ginlog_error(sub)
        if found is not None:
            return found
    return None


def _cattrs_reason(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_cattrs_reason(e) for e in exc.exceptions)
    return str(exc)


def _parse_knob_value(key: str, text: str) -> Any:
    fields = attrs.fields_dict(Rules)
    if key not in fields:
        raise RulesError(f"unknown rule knob {key!r}; knobs are {', '.join(fields)}", rule="rules")
    low = text.strip().lower()
    default = fields[key].default
    if key == "oklahoma":
        if low in ("off", "none", "null", "false", "no"):
            return None
        if low in ("on", "true", "yes", "gin"):
            return {"ace": "gin", "spades_double": True}
        if low == "one":
            return {"ace": "one", "spades_double": True}
        if low in ("nodouble", "gin-nodouble"):
            return {"ace": "gin", "spades_double": False}
        if low == "one-nodouble":
            return {"ace": "one", "spades_double": False}
        raise RulesError("oklahoma takes off, on (ace = gin only), one (ace = knock with 1), or "
                         "gin-nodouble / one-nodouble (no spade doubling)", rule="rules")
    if key == "hollywood":
        if low in ("off", "none", "null", "false", "no"):
            return None
        if low in ("on", "true", "yes"):
            return {"shut_out_moves_on": True}
        if low == "strict":
            return {"shut_out_moves_on": False}
        raise RulesError("hollywood takes off, on (a player shut out of a game enters the next one), or strict "
                         "(a player's n-th win scores only in games 1 to n)", rule="rules")
    if isinstance(default, bool):
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"{key} takes true or false, not {text!r}", rule="rules")
    if isinstance(default, str):
        return low
    if low in ("off", "none", "null", "no"):
        return None
    if len(low) > 20:  # past any knob's range; int() of a long text is slow, and fails past 4,300 digits
        lo, hi = KNOB_RANGES[key]
        shown = low[:17] + f"…({len(low)} characters)"
        raise RulesError(f"{key} must be a whole number from {lo} to {hi}, not {shown}", rule="rules")
    try:
        return int(low)
    except ValueError:
        raise RulesError(f"{key} takes a whole number, not {text!r}", rule="rules") from None


def with_knobs(rules: Rules, **knobs: str) -> Rules:
    """Change knobs given as text (``--set knock_limit=9``), checking each.

    >>> with_knobs(preset("standard"), next_dealer="alternate").next_dealer
    'alternate'
    >>> with_knobs(preset("standard"), knock_limt="9")
    Traceback (most recent call last):
    ...
    ginlog.errors.RulesError: unknown rule knob 'knock_limt'; knobs are knock_limit, gin_bonus, big_gin_bonus, undercut_bonus, undercut_on_tie, may_discard_taken_card, void_stock_size, game_target, next_dealer, game_bonus, box_bonus, box_timing, shutout, shutout_bonus, oklahoma, upcard_take_limit, void_on_upcard_loop, wall_knock, layoff_chain_limit, hollywood, loop_counts_first_upcard, deal_eleven, dead_stock_pickups, move_limit, may_go_out_with_taken_card, gin_compulsory, layoffs [rules]
    """
    data = rules_to_dict(rules)
    for key, text in knobs.items():
        data[key] = _parse_knob_value(key, text)
    return rules_from_dict(data)
