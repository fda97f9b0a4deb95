"""Errors the game store raises.  All derive from StoreError."""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """Base class of the store's own errors."""


class GameNotFound(StoreError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class GameStateError(StoreError):
    """The game is not in a status that allows the operation (e.g. a move in a lobby)."""

    def __init__(self, game_id: int, status: str, wanted: str) -> None:
        super().__init__(f"game {game_id} is {status}; this needs a game that is {wanted}")
        self.game_id = game_id
        self.status = status


class StaleGame(StoreError):
    """Optimistic concurrency: the game moved on since the caller read it.  Nothing was written;
    reload the game and decide again."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}: somebody moved first")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class CorruptGame(StoreError):
    """A game whose stored rows are unreadable or disagree with each other.  Only this game is
    affected; the rest of the database keeps working."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} is corrupt: {reason}")
        self.game_id = game_id
        self.reason = reason


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or in play (one open game per channel)."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        which = f"game {game_id}" if game_id is not None else "another game"
        super().__init__(f"channel {channel_id} already has an open game ({which})")
        self.channel_id = channel_id
        self.game_id = game_id


class TooManyGames(StoreError):
    """The member has the most open games (lobbies and games in play) allowed already."""

    def __init__(self, user_id: int, count: int, most: int) -> None:
        super().__init__(f"user {user_id} has {count} open games; the most is {most}")
        self.user_id, self.count, self.most = user_id, count, most


class TooSoon(StoreError):
    """A lobby was opened under this channel (in it, or in one of its threads) moments ago."""

    def __init__(self, channel_id: int, wait: float) -> None:
        super().__init__(f"channel {channel_id}: a lobby was opened {wait:.0f} s too recently")
        self.channel_id, self.wait = channel_id, wait


class SeatError(StoreError):
    """A lobby seat operation that cannot be done (table full, already seated, colour taken...)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; this code refuses to touch it."""

    def __init__(self, path: str, db_version: int, code_version: int) -> None:
        super().__init__(
            f"database {path} has schema version {db_version}, but this code only knows versions up "
            f"to {code_version}: refusing to start (run the newer bot, or restore a backup)"
        )
        self.db_version = db_version
        self.code_version = code_version


class MigrationError(StoreError):
    """A migration failed; the database was left at its previous schema version."""


class TableFull(SeatError):
    """Every seat of the lobby is taken."""


class CannotWrite(StoreError):
    """The database cannot be written now (disk full, a file-size limit, a read-only or
    immutable file, an I/O error): nothing was written; retrying will not help until an
    operator fixes the disk."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot write the database {path}: {reason}")
        self.path = path
        self.reason = reason


# SQLite's result codes that mean "the file cannot take writes", not "this data is wrong".
CANNOT_WRITE_CODES = ("SQLITE_READONLY", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM")


def cannot_write(error: BaseException) -> bool:
    name = getattr(error, "sqlite_errorname", "") or ""
    return isinstance(error, sqlite3.Error) and name.startswith(CANNOT_WRITE_CODES)
