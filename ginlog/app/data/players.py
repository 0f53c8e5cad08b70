"""Players across files: a club's players file (``--players FILE``), and names that look alike in different files.

Within one match file two names that could be taken for each other are
refused (:func:`ginlog.text.names_clash`: case, compatibility characters,
UTS #39 skeletons). Across files nothing can be refused, since each file is
right on its own, so :class:`Lookalikes` says it instead: ``Ann`` in one file,
``ann`` in another and Cyrillic ``Аnn`` in a third are kept apart in the
standings, and a ``player-clash`` warning names them and a file of each.

A club makes two spellings one player with a players file (TOML), read by
:func:`load_players`, the one door every name in it goes through
(:func:`ginlog.text.clean_name`, as a recorded name)::

    # players.toml
    [[player]]
    name = "Ann Lee"
    aliases = ["ann", "Ann", "A. Lee"]
    keys = ["ssh-ed25519 AAAA... ann@home"]  # her SSH public keys: seals (ginlog audit --players)

    [[player]]
    name = "Bob"

:meth:`Players.canonical` maps an alias to its player's name (anything else
is itself); ``stats``, the ratings, ``export`` and the site use it. Two
entries whose names or aliases could be taken for each other are refused
(the file is a usage error, exit 2), except a player's own aliases, which
are there to look like it.

>>> roster = players_from({"player": [{"name": "Ann", "aliases": ["ann", "Аnn"]}, {"name": "Bob"}]}, "p.toml")
>>> roster.canonical("ann"), roster.canonical("Аnn"), roster.canonical("Cy")
('Ann', 'Ann', 'Cy')
>>> seen = Lookalikes()
>>> for name, file in (("Ann", "a.jsonl"), ("ann", "b.jsonl"), ("Bob", "a.jsonl")):
...     seen.see(name, file)
>>> [w["message"] for w in seen.warnings()]
["players 'Ann' (a.jsonl) and 'ann' (b.jsonl) could be taken for each other ('ann' differs from 'Ann' only in letter case): kept apart; a players file (--players) makes them one"]
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Final

import attrs

from ginlog.app.check.signers import AllowedSigners, SignerLine, SignersFileError, key_of
from ginlog.errors import GinlogError
from ginlog.text import clean_name, name_key, names_clash, quoted, skeleton

__all__ = ["Players", "PlayersFileError", "load_players", "players_from", "Lookalikes", "NO_PLAYERS"]

#: The keys a ``[[player]]`` entry may have (``keys``: the player's SSH public keys, which may seal for them).
ENTRY_KEYS: Final = frozenset({"name", "aliases", "keys"})
#: The most players (and aliases) a players file may list: a club's, not a census.
MAX_ENTRIES: Final = 100_000


class PlayersFileError(GinlogError):
    """A players file that cannot be used: one line naming the file, the entry and what is wrong (rule ``players``)."""


@attrs.frozen
class Player:
    """One player of the players file: the name the standings use, the other spellings, the reserved keys."""

    name: str
    aliases: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()  # each an OpenSSH public key line: ``ssh-ed25519 AAAA... comment``

    def key_blobs(self, path: str) -> list[tuple[str, bytes]]:
        """Each key's type and wire blob (a key that is not one: :class:`PlayersFileError`)."""
        out = []
        for k in self.keys:
            parts = k.split()
            try:
                if len(parts) < 2:
                    raise SignersFileError("a key is KEYTYPE BASE64 [COMMENT], as in a .pub file")
                out.append((parts[0], key_of(parts[0], parts[1], "key")))
            except SignersFileError as exc:
                raise _fail(path, f"player {quoted(self.name)}: {exc.message}") from None
        return out


@attrs.frozen
class Players:
    """A club's players: each alias to its player's name (an empty roster maps every name to itself)."""

    players: tuple[Player, ...] = ()
    path: str | None = None
    _to: Mapping[str, str] = attrs.field(factory=dict, repr=False)

    def canonical(self, name: str) -> str:
        return self._to.get(name, name)

    def __bool__(self) -> bool:
        return bool(self.players)

    def keyring(self, signers: AllowedSigners | None = None) -> AllowedSigners | None:
        """The club's keys for checking seals: ``signers`` (an allowed_signers file) and each player's ``keys``
        (allowed for that player's name alone), names in records mapped to the players' names; None without any."""
        own = tuple(
            SignerLine(p.name, kind, blob, where=f"{self.path}: {p.name}", exact=True)
            for p in self.players for kind, blob in p.key_blobs(self.path or "")
        )
        if signers is None and not own:
            return None
        base = signers if signers is not None else AllowedSigners((), self.path or "")
        return attrs.evolve(base, entries=base.entries + own, aliases=dict(self._to),
                            path=" and ".join(x for x in (signers.path if signers else None,
                                                           self.path if own else None) if x))


#: No players file: every name is itself.
NO_PLAYERS: Final = Players()


def _fail(path: str, message: str) -> PlayersFileError:
    return PlayersFileError(message, rule="players", path=path)


def _name(value: object, path: str, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, f"{where}: a name is text, not {type(value).__name__}")
    try:
        return clean_name(value)
    except GinlogError as exc:
        raise _fail(path, f"{where}: {exc.message}") from None


def players_from(data: Mapping[str, Any], path: str) -> Players:
    """The :class:`Players` of a parsed players file (``{"player": [{"name": ..., "aliases": [...]}, ...]}``)."""
    unknown = sorted(set(data) - {"player"})
    if unknown:
        raise _fail(path, f"unknown table or key {quoted(unknown[0])}: a players file holds [[player]] entries")
    entries = data.get("player", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _fail(path, "player must be a list of [[player]] tables")
    if len(entries) > MAX_ENTRIES:
        raise _fail(path, f"{len(entries):,} players: at most {MAX_ENTRIES:,}")
    players: list[Player] = []
    spelled: list[tuple[str, int]] = []  # every name and alias, with its player's index
    for i, entry in enumerate(entries, start=1):
        where = f"player {i}"
        extra = sorted(set(entry) - ENTRY_KEYS)
        if extra:
            raise _fail(path, f"{where}: unknown key {quoted(extra[0])} (a player has name, aliases and keys)")
        if "name" not in entry:
            raise _fail(path, f"{where}: no name")
        name = _name(entry["name"], path, where)
        aliases = entry.get("aliases", [])
        keys = entry.get("keys", [])
        if not isinstance(aliases, list) or not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise _fail(path, f"{where} ({quoted(name)}): aliases and keys are lists of text")
        kept = tuple(dict.fromkeys(_name(a, path, f"{where} ({quoted(name)}), alias") for a in aliases))
        players.append(player := Player(name, tuple(a for a in kept if a != name), tuple(keys)))
        player.key_blobs(path)
        spelled.extend((n, i - 1) for n in (name, *kept))
        if len(spelled) > MAX_ENTRIES:
            raise _fail(path, f"more than {MAX_ENTRIES:,} names and aliases")
    _refuse_lookalikes(spelled, players, path)
    to = {alias: p.name for p in players for alias in p.aliases}
    return Players(tuple(players), path, to)


def _refuse_lookalikes(spelled: list[tuple[str, int]], players: list[Player], path: str) -> None:
    """Two players of the file, by any of their spellings, that could be taken for each other: refused."""
    for key_of in (name_key, skeleton):
        by_key: dict[str, tuple[str, int]] = {}
        for name, owner in spelled:
            seen = by_key.setdefault(key_of(name), (name, owner))
            if seen[1] != owner:
                why = names_clash(name, seen[0]) or f"{quoted(name)} looks like {quoted(seen[0])}"
                raise _fail(path, f"players {quoted(players[seen[1]].name)} and {quoted(players[owner].name)} "
                                  f"could be taken for each other: {why}")


def load_players(path: str) -> Players:
    """Read a players file (TOML, at most 16 MB), or raise :class:`PlayersFileError` saying why in one line."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            raw = fh.read(16 * 1024 * 1024 + 1)
    except OSError as exc:
        raise _fail(path, f"cannot read it: {exc.strerror or exc}") from None
    if len(raw) > 16 * 1024 * 1024:
        raise _fail(path, "it is over 16 MB: a players file lists a club's players")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _fail(path, "it is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise _fail(path, f"not TOML: {exc}") from None
    return players_from(data, path)


class Lookalikes:
    """Names seen across files that could be taken for each other: :meth:`see` each (name, file), then
    :meth:`warnings`. Keeps, per distinct name, the first file by path that holds it, so what it says is the
    same whatever order the files came in."""

    def __init__(self) -> None:
        self._file: dict[str, str] = {}

    def see(self, name: str, file: str) -> None:
        known = self._file.get(name)
        if known is None or file < known:
            self._file[name] = file

    def warnings(self) -> list[dict[str, Any]]:
        """One ``player-clash`` warning for each pair of names that look alike, in order of the names."""
        names = sorted(self._file)
        groups: dict[str, list[str]] = {}
        for key_of in (name_key, skeleton):
            by_key: dict[str, list[str]] = {}
            for n in names:
                by_key.setdefault(key_of(n), []).append(n)
            for same in by_key.values():
                if len(same) > 1:
                    groups.setdefault(same[0], []).extend(same)
        out: list[dict[str, Any]] = []
        said: set[tuple[str, str]] = set()
        for same in groups.values():
            for a, b in itertools.combinations(sorted(set(same)), 2):
                if (a, b) in said:
                    continue
                said.add((a, b))
                why = names_clash(b, a)
                fa, fb = self._file[a], self._file[b]
                out.append({
                    "file": fb, "line": None, "event": None, "rule": "player-clash",
                    "message": f"players {quoted(a)} ({fa}) and {quoted(b)} ({fb}) could be taken for each other"
                               f"{f' ({why})' if why else ''}: kept apart; a players file (--players) makes them one",
                })
        return out
