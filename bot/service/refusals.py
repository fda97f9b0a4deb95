"""Why the service will not do what was asked, as facts: a ``Refusal`` kind and its values
(a count, the most allowed, a game id, a player's name, the engine's own refusal), never
words.  Whoever shows it to a person chooses the words (``bot.refusal_words``)."""

from __future__ import annotations

import enum
from typing import Any


class UserError(Exception):
    """A request that cannot be done; nothing was changed.  The service raises ``Refused``;
    the Discord side raises it with the words it chose itself (a ``bot.i18n.Message``)."""


class Refusal(enum.Enum):
    """Every reason the service refuses, with the names of the facts that go with it."""

    facts: frozenset[str]

    def __new__(cls, *facts: str) -> Refusal:
        member = object.__new__(cls)
        member._value_ = len(cls.__members__) + 1
        member.facts = frozenset(facts)
        return member

    # finding the game
    NO_GAME = ()
    NO_GAME_HERE_BUT_THREADS = ("threads",)  # the channel ids of the threads its games are in
    NOT_STARTED = ("count",)  # players in the lobby
    NO_SUCH_GAME = ()  # a button naming a game that cannot exist
    WRONG_CHANNEL = ("game",)
    GAME_GONE = ()
    GAME_DAMAGED = ()
    # what a click asks of its game
    PANEL_GAME_OVER = ()
    NOT_IN_THIS_GAME = ()
    NOT_IN_PLAY_ANY_MORE = ()
    NOT_PLAYING = ()  # a spectator: may watch
    CANCELLED = ("game",)
    OVER = ()
    NOT_IN_PLAY = ()
    # statistics
    STATS_DM_OWN_ONLY = ()
    LEADERBOARD_IN_DM = ()
    # opening and joining
    COMPUTERS_LEAVE_NO_SEAT = ("computers", "count", "max", "most")
    BAD_LEVEL = ("level", "levels")
    DM_SOLO_ONLY = ("players", "computers")
    TOO_MANY_GAMES = ("max", "count")
    COOLDOWN = ("seconds",)
    BUSY_LOBBY = ()
    BUSY_PLAY = ()
    ALREADY_STARTED_WATCH = ()
    ALREADY_JOINED = ()
    FULL = ("max",)
    JOIN_CHANGED = ()
    CANNOT_LEAVE = ()
    NOT_IN_LOBBY = ()
    CREATOR_LEAVE = ()
    ALREADY_STARTED = ()
    CREATOR_STARTS = ()
    TWO_PLAYERS = ()
    CANCEL_DENIED = ()
    ALREADY_OVER = ()
    REMATCH_NOT_FINISHED = ()
    REMATCH_PLAYERS_ONLY = ()
    REMATCH_ALONE = ()
    REMATCH_CAP = ("name", "count", "max")
    # moves
    NOT_A_MOVE = ("text", "reason")  # reason: the engine's MoveSyntaxError
    NOTHING_TO_UNDO = ()
    CANNOT_BE_DONE = ("move", "reason")  # reason: the engine's IllegalMove
    ILLEGAL = ("move", "reason", "legal")  # legal: the moves allowed instead, as typed
    STALE = ()
    STALE_CHOICE = ()
    CANNOT_SAVE = ()
    NOT_YOUR_TURN = ("name",)  # name: the player at turn
    NOT_A_TURN_MOVE = ()
    # votes, skips and kicks
    ADMINS_ONLY = ()
    TABLE_MOVE = ()
    VOTE_VOID = ()
    ALREADY_COMPUTER = ("name",)
    TOO_LATE = ("turn",)
    TURN_OVER = ("turn",)
    BAD_VOTE = ("choice",)
    VOTE_ENDED = ()
    VOTERS_ONLY = ()
    OWN_TURN = ()
    VOTER_LEFT = ()
    CLOCK_RUNNING = ()
    # settings
    NO_OPEN_GAME = ()
    BAD_PICTURES = ("style",)


class Refused(UserError):
    """The service's refusal: its kind and facts.  Raising it with other facts than its kind
    names is a bug, caught where it is raised."""

    def __init__(self, refusal: Refusal, /, **facts: Any) -> None:
        if set(facts) != refusal.facts:
            raise TypeError(f"{refusal.name} takes {sorted(refusal.facts)}, not {sorted(facts)}")
        super().__init__(refusal, facts)
        self.refusal = refusal
        self.facts: dict[str, Any] = facts

    def __str__(self) -> str:  # for the log
        return f"{self.refusal.name} {self.facts}" if self.facts else self.refusal.name


class StaleChoice(Refused):
    """The move was chosen on a panel (or hint) drawn at another version of the game: a
    second press of the same button, or a press after somebody else moved.  Nothing was
    stored; the panel is redrawn as the game stands."""
