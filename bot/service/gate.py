"""Who may make which move, from where: one table, consulted by every entry.

A request to change a game is a move (its ``Kind``), made by somebody (their ``Actor``
roles in that game: one person can be the player at turn and the game's creator at once)
through an ``Entry`` (a command, a panel, the web board, a vote, ...).  ``ALLOWED`` lists
every (kind, actor, entry) that may go ahead; anything else is refused before the engine
is asked, with ``refusal`` saying why (a ``Refused``: facts, no words).  Whether an allowed move is legal
in the game as it stands stays the engine's business.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from bot.service.refusals import Refusal, Refused
from engine.moves import (
    Abandon,
    Complete,
    EndTurn,
    Move,
    Place,
    Release,
    Remove,
    Skip,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
)


class Kind(enum.Enum):
    PLACE = "place"
    MUSEUM = "museum"
    ARTIST = "artist"
    USE = "use"
    COMPLETE = "complete"
    ABANDON = "abandon"
    RELEASE = "release"
    SWITCH = "switch"
    END = "end"
    UNDO = "undo"
    SKIP = "skip"
    REMOVE = "remove"


_KINDS: dict[type, Kind] = {
    Place: Kind.PLACE,
    ToMuseum: Kind.MUSEUM,
    ToArtist: Kind.ARTIST,
    UseArtist: Kind.USE,
    Complete: Kind.COMPLETE,
    Abandon: Kind.ABANDON,
    Release: Kind.RELEASE,
    Switch: Kind.SWITCH,
    EndTurn: Kind.END,
    Undo: Kind.UNDO,
    Skip: Kind.SKIP,
    Remove: Kind.REMOVE,
}


def kind_of(move: Move) -> Kind:
    return _KINDS[type(move)]


class Actor(enum.Enum):
    AT_TURN = "the player at turn"
    SEATED = "another seated player"
    SPECTATOR = "a spectator"
    CREATOR = "the game's creator"  # whoever holds the creator's powers now
    ADMIN = "a server admin"  # Manage Channels where the game is
    VOTE = "a vote's outcome"
    CLOCK = "a timer"
    COMPUTER = "a computer seat"  # at turn


class Entry(enum.Enum):
    COMMAND = "/cubist move"  # and its shortcuts (end, undo)
    PANEL = "panel buttons"
    HINT = "the hint's Play this"
    WEB = "the web board"
    VOTE = "a vote"
    ADMIN = "an admin command"  # /cubist table skip (confirmed) and /cubist table kick
    JOB = "the bot's own work"  # turn clocks and computer turns


PLAYING = frozenset(Kind) - {Kind.SKIP, Kind.REMOVE}  # a turn's own moves
TABLE = frozenset({Kind.SKIP, Kind.REMOVE})  # moves about a player, never by them
BY_HAND = frozenset({Entry.COMMAND, Entry.PANEL, Entry.HINT, Entry.WEB})


def _table() -> frozenset[tuple[Kind, Actor, Entry]]:
    allowed: set[tuple[Kind, Actor, Entry]] = set()
    allowed |= set(product(PLAYING, [Actor.AT_TURN], BY_HAND))
    allowed |= set(product(PLAYING, [Actor.COMPUTER], [Entry.JOB]))
    allowed |= set(product(TABLE, [Actor.VOTE], [Entry.VOTE]))
    allowed |= set(product(TABLE, [Actor.CREATOR, Actor.ADMIN], [Entry.ADMIN]))
    allowed |= set(product(TABLE, [Actor.CLOCK], [Entry.JOB]))
    return frozenset(allowed)


ALLOWED = _table()


def allowed(kind: Kind, actor: Actor, entry: Entry) -> bool:
    return (kind, actor, entry) in ALLOWED


@dataclass(frozen=True, slots=True)
class Roles:
    """What somebody is in one game at one moment (``GameService`` works it out)."""

    actors: frozenset[Actor]

    @classmethod
    def of(cls, actors: Iterable[Actor]) -> Roles:
        return cls(frozenset(actors))

    def may(self, kind: Kind, entry: Entry) -> bool:
        return any(allowed(kind, actor, entry) for actor in self.actors)


def refusal(kind: Kind, roles: Roles, entry: Entry, *, playing: str) -> Refused:
    """Why ``roles`` may not make a move of ``kind`` through ``entry`` (``playing``: the name
    of the player at turn)."""
    if kind in TABLE:
        if entry is Entry.ADMIN:
            return Refused(Refusal.ADMINS_ONLY)
        return Refused(Refusal.TABLE_MOVE)
    if Actor.SPECTATOR in roles.actors:
        return Refused(Refusal.NOT_PLAYING)
    if Actor.SEATED in roles.actors:
        return Refused(Refusal.NOT_YOUR_TURN, name=playing)
    return Refused(Refusal.NOT_A_TURN_MOVE)
