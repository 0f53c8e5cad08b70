"""The replay's fast path: lines as ginlog writes them, whose body was seen before, are not parsed.

Most lines of a match repeat a few hundred *bodies* (``Ann`` draws from the
stock, ``Bob`` discards ``7H``); only the envelope (seq, time, link) differs.
For a line *as ginlog writes it* (compact, the five envelope keys first in
their order: see :func:`ginlog.log.format.encode`) the reader knows the seq
and the link the line must carry, so it compares those bytes instead of
parsing them, checks the time's shape, and looks the rest up: the bytes of
``type`` and ``v``, and what follows ``prev`` (the fields and the closing
brace). If the body is known, the line is not parsed at all.

:class:`KnownBodies` is that fast path as one object, passed to the reader
(:func:`ginlog.log.reader.read_runs`) and to the match reader
(:func:`ginlog.match.reading.read`); without one, every line is parsed and
checked the plain way. It owns the canonical line's bytes, the bulk check of
a block, the remembered bodies (bounded) and the readers of the first line,
the deal and the shown hands off their bytes. Events are values and depend on nothing but
the body, so one instance may serve every file a process reads.

>>> from ginlog.log.format import digest, encode
>>> from ginlog.log.events import Note
>>> known = KnownBodies()
>>> raw = encode(1, "2026-11-29T19:56:25.123Z", "note", 2, None, {"text": "hi"})
>>> known.key(raw)
(b'","type":"note","v":2', b'"text":"hi"}')
>>> known.learn(raw, Note(text="hi")); len(known)
1
>>> known.check([raw], [digest(raw)], None, 1)  # the events, and the lines to read one by one: none
([Note(text='hi', player=None)], [])
>>> known.check([raw], [digest(raw)], None, 2)  # not the seq it must have: read the plain way
([None], [0])
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable, Sequence
from typing import Final, TypeAlias

from ginlog.errors import EventError, GinlogError
from ginlog.game.cards import DECK, Card
from ginlog.game.rules import Rules, rules_from_dict
from ginlog.log import times
from ginlog.log.events import SCHEMA_VERSION, Event, HandDealt, HandShown, MatchStarted, Seal
from ginlog.log.format import parse_line
from ginlog.log.times import valid_ts_bytes

__all__ = ["BodyKey", "KnownBodies", "KNOWN_SIZE"]

#: A body key: the bytes of a line's ``type`` and ``v`` (from the ``"`` closing
#: its time), and of what follows its ``prev`` (the fields and the closing brace).
#: The same key always stands for the same JSON apart from the envelope: the
#: fields' bytes are equal, the envelope keys all come before them, and no key repeats.
BodyKey: TypeAlias = tuple[bytes, bytes]

#: How many bodies a :class:`KnownBodies` remembers at most (then it starts again).
KNOWN_SIZE: Final = 4096

#: A time as :func:`~ginlog.log.times.now_ts` writes it (:mod:`ginlog.log.times`: the one rule), so what the
#: fast path accepts the event layer accepts; the days of the month are checked apart (:func:`valid_ts_bytes`).
_TS_SHAPE: Final = times.TS_PATTERN.encode("ascii")
#: A line as :func:`~ginlog.log.format.encode` writes it: groups seq, the ``type``
#: and ``v`` between the time and ``prev``, prev, and what follows prev (the
#: fields and the closing brace); groups 2 and 4 are its body key.
_CANONICAL: Final = re.compile(
    rb'\{"seq":([1-9][0-9]{0,14}),"ts":"' + _TS_SHAPE + rb'(","type":"[a-z_]{1,40}","v":[1-9][0-9]{0,5}),'
    rb'"prev":(?:"([0-9a-f]{64})"|null),("[^\n]{0,200}\})'
).fullmatch
_START_BYTES: Final = b'{"seq":%d,"ts":"'  # a line ginlog writes begins so, then 24 bytes of time
_START: Final = _START_BYTES.__mod__
#: ... and has `,"prev":` between type and v and its fields, then the link: the digest of the line
#: before, quoted, and a comma (67 bytes; the first line of a file: null and a comma).
_QUOTED: Final = b'"%s",'.__mod__
_LINK_BYTES: Final = operator.itemgetter(slice(67))
_AFTER_LINK: Final = operator.itemgetter(slice(67, None))
#: For a seq of each width (digits): the cuts of the part before `,"prev":` into the beginning, the time and
#: the type and v (made once, not per block).
_CUTS: Final = tuple(
    (operator.itemgetter(slice(14 + w)), operator.itemgetter(slice(14 + w, 38 + w)), operator.itemgetter(slice(38 + w, None)))
    for w in range(16)
)
#: Times joined end to end, each of the shape a time has (which says each is 24 bytes only if their lengths
#: add up to 24 a time: see check).
_TIMES: Final = re.compile(rb"(?:" + _TS_SHAPE + rb")*").fullmatch


class KnownBodies:
    """Bodies already structured, and their events; the bulk check of a block of lines against them.

    ``size`` bounds the bodies remembered (when full, it forgets them all and
    starts again: a match's few hundred come straight back). ``decode=False``
    turns off the readers of the first line, the deal and the shown hands (see
    :meth:`read_body`), leaving only what was remembered.
    """

    __slots__ = ("_bodies", "size", "decode")

    #: What :meth:`check` may give that the reader hands on as a run of its own line: a seal, which is checked
    #: with the match's state before it, never inside a run (:mod:`ginlog.match.seals`).
    alone: Final[frozenset[type]] = frozenset({Seal})

    def __init__(self, size: int = KNOWN_SIZE, *, decode: bool = True) -> None:
        self._bodies: dict[BodyKey, Event] = {}
        self.size = size
        self.decode = decode

    def __len__(self) -> int:
        return len(self._bodies)

    def clear(self) -> None:
        """Forget every body."""
        self._bodies.clear()

    def key(self, raw: bytes) -> BodyKey | None:
        """The body key of a line as ginlog writes it, or None (another form, a list, too long to be worth it).

        A line holding a list (a hand, the stock) is not remembered: it will not come back.
        """
        if b"[" in raw:
            return None
        m = _CANONICAL(raw)
        return None if m is None else (m.group(2), m.group(4))

    def learn(self, raw: bytes, event: Event) -> None:
        """Remember ``event`` as the meaning of the body of ``raw``, a line parsed and structured the plain way."""
        if type(event) is Seal:
            return  # each seal's body is its own (a signature): never worth remembering, and a seal is always
            # handed to a visitor alone, with the state before it (ginlog.match.seals)
        key = self.key(raw)
        if key is not None:
            self.remember(key, event)

    def remember(self, key: BodyKey, event: Event) -> None:
        """Remember ``event`` under ``key`` (forgetting everything first if full); never a seal (see :attr:`alone`)."""
        if type(event) in self.alone:
            return
        bodies = self._bodies
        if len(bodies) >= self.size:
            bodies.clear()
        bodies[key] = event

    def check(
        self,
        lines: Sequence[bytes],
        digests: Sequence[str],
        prev: str | None,
        seq: int,
        stamps: list[bytes] | None = None,
    ) -> tuple[list[Event | None], list[int]] | None:
        """For each line of a block, its event if the line is as ginlog writes it and its body is known, else None;
        and the lines the reader takes one by one, in order: those without an event and those of a class in
        :attr:`alone` (none, the usual case: the whole block is then one run).

        ``prev`` is the digest before the block and ``seq`` the seq its first
        line must have (the lines after it ``seq + 1``, ...). A line qualifies
        when it is exactly ``{"seq":N,"ts":"`` + a valid time + the type and v
        of a known body + the link to the line before + the rest of that
        body: then it is the JSON of a line that was parsed and checked
        before, with only the envelope changed, and that envelope is right.
        Every step is one call over the whole block, so the cost per line is
        a few C-level operations. Returns None, without looking, when nothing
        can be known (no body remembered, no body reader).

        ``stamps``, a list, receives each line's time as its bytes (24 of
        them, ``2026-11-29T19:56:25.123Z``), meaningful for the lines whose
        event is returned: the reader compares them for the time order.
        """
        if not self._bodies and not self.decode:
            return None
        n = len(lines)
        # Each line cut at its first `,"prev":` (a short separator: cutting at the whole link, a
        # different 75 bytes a line, cost three times as much). In a line as ginlog writes it that
        # is the envelope's, as nothing before it can hold one (its seq and time are checked below,
        # and its type and v are a known body's); what follows must be the link, then the fields.
        befores, _, afters = zip(*map(bytes.partition, lines, itertools.repeat(b',"prev":')))
        wrong: list[int] = []  # lines whose envelope is not right: a wrong seq, or not the link they must have
        fields = list(map(_AFTER_LINK, afters))
        if prev is None:  # the block begins the file: the first line's prev is null
            if afters[0][:5] != b"null,":
                wrong.append(0)
            fields[0] = afters[0][5:]
            first, hexes = 1, list(digests[: n - 1])
        else:
            first, hexes = 0, [prev, *digests[: n - 1]]
        # All the links at once: joined, they are the digests before them, quoted and joined, or some line is wrong.
        if hexes and b"".join(map(_LINK_BYTES, afters[first:])) != ('"' + '","'.join(hexes) + '",').encode():
            links = map(_QUOTED, map(str.encode, hexes))
            wrong += itertools.compress(
                range(first, n), map(operator.not_, map(bytes.startswith, afters[first:], links))
            )
        mids: list[bytes] = []
        if stamps is None:
            stamps = []
        at = 0
        while at < n:  # the seq's width sets where the time ends: one slice per width
            width = len(str(seq + at))
            upto = min(n, 10**width - seq)
            span = befores[at:upto] if at or upto < n else befores
            begins, times, types = _CUTS[width] if width < len(_CUTS) else _CUTS[0]  # (too wide: refused below)
            mids += map(types, span)
            stamps += map(times, span)
            # All the beginnings at once: joined, they are the expected ones joined, or some line is wrong.
            if b"".join(map(begins, span)) != (_START_BYTES * (upto - at)) % tuple(range(seq + at, seq + upto)):
                starts = map(_START, range(seq + at, seq + upto))
                wrong += itertools.compress(range(at, upto), map(operator.not_, map(bytes.startswith, span, starts)))
            at = upto
        rejected = set(wrong)  # an envelope that is not right: whatever the body, the line is read in full
        # The distinct times at once: joined, each of the shape of a time and none on a day past the 28th (whose
        # month must be looked at), or each checked on its own. Joined, they are cut into times only if each is 24
        # bytes: the times of lines cut short (shorter) would shift the cuts, and a bad time between two of them
        # could then be read as the ends of two good ones.
        distinct = set(stamps)
        joined = b"".join(distinct)
        if (
            len(joined) != 24 * len(distinct)
            or _TIMES(joined) is None
            or b"-29T" in joined
            or b"-30T" in joined
            or b"-31T" in joined
        ):
            bad = {stamp for stamp in distinct if not valid_ts_bytes(stamp)}
            if bad:
                rejected.update(i for i, stamp in enumerate(stamps) if stamp in bad)
        # (the keys looked up as zip makes them: it reuses its one tuple when the lookup keeps none)
        bodies: list[Event | None] = list(map(self._bodies.get, zip(mids, fields)))
        alone: list[int] = []  # (lines without an event, found by identity: `None in bodies` is an __eq__ a line)
        decode, single = self.decode, self.alone
        for i in itertools.compress(range(n), map(operator.is_, bodies, itertools.repeat(None))):
            if decode and i not in rejected:
                body = bodies[i] = self.read_body((mids[i], fields[i]))
                if body is not None and type(body) not in single:
                    continue
            alone.append(i)
        if rejected:
            for i in rejected:
                bodies[i] = None
            alone = sorted(rejected.union(alone))
        return bodies, alone

    @staticmethod
    def read_body(key: BodyKey) -> Event | None:
        """The event of a line as ginlog writes it, read straight off its bytes, or None to leave it to JSON.

        The lines that never repeat (a match's first line, each hand's deal and
        its two shown hands) are most of the JSON a full replay would still
        parse; their usual form (plain player names, cards, plain text and
        nothing else) is read here by one regular expression instead. Anything
        else, and anything wrong, gives None, so every error is still found
        and worded by the JSON path (``tests/test_bodies.py`` and
        ``tests/test_known_imported.py`` hold the two to the same events and
        errors).

        >>> key = (b'","type":"hand_shown","v":2', b'"player":"Ann","cards":["7S","7C","7H"]}')
        >>> KnownBodies.read_body(key)
        HandShown(player='Ann', cards=(Card('7S'), Card('7C'), Card('7H')), melds=None, layoffs=None)
        >>> KnownBodies.read_body((key[0], b'"player":"Ann","cards":["7S","7S","7H"]}')) is None  # JSON says why
        True
        """
        reader = _BODY_READERS.get(key[0])
        if reader is None:
            return None
        try:
            return reader(key[1])
        except GinlogError:
            return None


# --------------------------------------------------------------------------- the first line, the deal and the shown hands


_CARD_BYTES: Final = {b'"%s"' % str(c).encode(): c for c in DECK}
_CARD_RE: Final = rb'"[A2-9TJQK][SHDC]"'
_CARDS_RE: Final = rb"\[(" + _CARD_RE + rb"(?:," + _CARD_RE + rb")*)\]"
_NAME_RE: Final = rb'"([A-Za-z0-9]{1,40})"'  # plain names only; any other takes the JSON path
_DEALT: Final = re.compile(
    rb'"dealer":' + _NAME_RE + rb',"upcard":(' + _CARD_RE + rb")"
    rb'(?:,"hands":\{' + _NAME_RE + rb":" + _CARDS_RE + rb"," + _NAME_RE + rb":" + _CARDS_RE + rb"\})?"
    rb'(?:,"stock":' + _CARDS_RE + rb")?\}"
).fullmatch
_CARDS_NC: Final = rb"\[" + _CARD_RE + rb"(?:," + _CARD_RE + rb")*\]"
#: A shown hand: the cards, and the melds and lay-offs if declared (an importer's, a recorder's
#: ``show`` with melds): empty lists too, each group None when the key is left out.
_SHOWN: Final = re.compile(
    rb'"player":' + _NAME_RE + rb',"cards":' + _CARDS_RE
    + rb'(?:,"melds":\[((?:' + _CARDS_NC + rb"(?:," + _CARDS_NC + rb")*)?)\])?"
    + rb'(?:,"layoffs":\[((?:' + _CARD_RE + rb"(?:," + _CARD_RE + rb")*)?)\])?\}"
).fullmatch


def _card_list(text: bytes) -> tuple[Card, ...]:
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
    player, cards, melds, layoffs = m.groups()
    return HandShown(
        player=player.decode(),
        cards=_card_list(cards),
        melds=None if melds is None else tuple(map(_card_list, melds[1:-1].split(b"],["))) if melds else (),
        layoffs=None if layoffs is None else _card_list(layoffs) if layoffs else (),
    )


#: Text that means the same in JSON and as its bytes: printable ASCII without a quote or a backslash.
_PLAIN_TEXT_RE: Final = rb'"([ !#-\[\]-~]*)"'
#: A match's first line as ginlog writes it: the players, the rules (an object holding scalars and
#: objects of scalars, as every :class:`Rules` is written), the tool (always written: the reader
#: names it in errors, :mod:`ginlog.log.versioning`), the title if given and the match id if there is one.
_STARTED: Final = re.compile(
    rb'"players":\[' + _NAME_RE + rb"," + _NAME_RE + rb'\],"rules":(\{[^\[\]{}]*(?:\{[^\[\]{}]*\}[^\[\]{}]*)*\})'
    rb',"tool":' + _PLAIN_TEXT_RE + rb'(?:,"title":' + _PLAIN_TEXT_RE + rb')?(?:,"match_id":"([0-9a-f]{32})")?\}'
).fullmatch
#: The :class:`Rules` of each ``rules`` object's bytes already read (every file of a club's or an
#: import's plays the same rules); only those that were valid; bounded.
_RULES_BYTES: Final[dict[bytes, Rules]] = {}
_RULES_BYTES_SIZE: Final = 256


def _rules_of(text: bytes) -> Rules:
    """The rules of a ``rules`` object's bytes: parsed and checked as the JSON path does, once per distinct bytes.

    Whatever bytes the pattern cut out, they are the rules only if they parse as one
    JSON object on their own (an object has one end, so a cut in the wrong place fails
    here); any error leaves the line to the JSON path.
    """
    rules = _RULES_BYTES.get(text)
    if rules is None:
        data = parse_line(text)
        rules = rules_from_dict(data)
        if len(_RULES_BYTES) >= _RULES_BYTES_SIZE:
            _RULES_BYTES.clear()
        _RULES_BYTES[text] = rules
    return rules


#: The longest first line's body read off its bytes: far more than any ginlog writes (its rules are about
#: 600 bytes, a title at most 2,000 characters), far less than MAX_LINE_BYTES, so a line the plain path
#: refuses as too long (JSON white space in the rules pads it out) is never read here.
_STARTED_MAX: Final = 8192


def _started(text: bytes) -> Event | None:
    if len(text) > _STARTED_MAX:
        return None
    m = _STARTED(text)
    if m is None:
        return None
    p1, p2, rules, tool, title, match_id = m.groups()
    # The constructor's validators check the names (a name twice included) and the title, as for a
    # line read through JSON; an error there leaves the line to JSON, which words it.
    return MatchStarted(
        players=(p1.decode(), p2.decode()),
        rules=_rules_of(rules),
        tool=tool.decode(),
        title=None if title is None else title.decode(),
        match_id=None if match_id is None else match_id.decode(),
    )


#: A seal's body as :class:`~ginlog.log.event_types.Seal` is written: its fields in their order, a plain
#: player's name, and the armored signature whose only escapes are its line breaks (``\n``: base64, ``=``,
#: the armor's dashes, capitals and spaces otherwise), so its JSON string is its bytes with those two
#: bytes for each newline. Anything else (another escape, another order, a key more) takes the JSON path;
#: a signature too long is refused by the constructor (then the JSON path words it). Possessive: one pass.
_SEALED: Final = re.compile(
    rb'"player":' + _NAME_RE + rb',"seat":([01]),"fingerprint":"(SHA256:[A-Za-z0-9+/]{43})","line":([1-9][0-9]{0,14}),'
    rb'"head":"([0-9a-f]{64})","at":"(' + _TS_SHAPE + rb')","signature":"([A-Za-z0-9+/= -]*+(?:\\n[A-Za-z0-9+/= -]*+)*+)"\}'
).fullmatch


def _sealed(text: bytes) -> Event | None:
    """A seal read off its bytes (4.6 µs, where JSON and cattrs took 15: docs/PERFORMANCE.md): the constructor's
    validators check the fields and the signature's shape as for a line read through JSON."""
    m = _SEALED(text)
    if m is None:
        return None
    player, seat, fingerprint, line, head, at, signature = m.groups()
    return Seal(player=player.decode(), seat=int(seat), fingerprint=fingerprint.decode(), line=int(line),
                head=head.decode(), at=at.decode(), signature=signature.replace(b"\\n", b"\n").decode())


#: Per ``type`` and ``v`` as a line's bytes give them: a reader of the rest of that line's bytes.
_BODY_READERS: Final[dict[bytes, Callable[[bytes], Event | None]]] = {
    b'","type":"match_started","v":%d' % SCHEMA_VERSION: _started,
    b'","type":"hand_dealt","v":%d' % SCHEMA_VERSION: _dealt,
    b'","type":"hand_shown","v":%d' % SCHEMA_VERSION: _shown,
    b'","type":"seal","v":%d' % SCHEMA_VERSION: _sealed,
}
