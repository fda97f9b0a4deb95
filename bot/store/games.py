"""The game store: lobbies, seats, moves, snapshots, reminders and results in SQLite.

See the package docstring (``bot.store``) for the design and the durability measurements.

Every public method is one transaction, written as a plain synchronous function of a
``sqlite3.Connection`` and run, whole, on the aiosqlite connection's own thread.  That makes
each transaction atomic with respect to the other asyncio tasks (aiosqlite runs one call at a
time per connection) and to cancellation (a cancelled caller only loses the result; the
function still commits or rolls back), and costs one thread hand-off instead of one per
statement (a hand-off measured 0.1-0.4 ms here, more than the SQL itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from engine import Game, GameOptions, dump_game

from . import db as dbmod
from . import locales as locales_db
from . import meta as meta_db
from . import outbox as outbox_db
from . import stats as stats_db
from .errors import (
    CannotWrite,
    ChannelBusy,
    CorruptGame,
    GameNotFound,
    GameStateError,
    SchemaTooNew,
    SeatError,
    StaleGame,
    StoreError,
    TableFull,
    cannot_write,
)
from .records import (
    OPEN_STATUSES,
    DueReminder,
    GameRecord,
    MoveRecord,
    ReminderPrefs,
    ResultRecord,
    SeatRecord,
    Status,
    TurnClock,
)
from .verify import check_replay, snapshot_game

T = TypeVar("T")

# Chosen by measurement; see the package docstring.
DEFAULT_SYNCHRONOUS = "NORMAL"
DEFAULT_CHECKPOINT_INTERVAL = 1.0  # seconds: bounds what a power cut can take back
DEFAULT_CACHE_SIZE = 256

log = logging.getLogger(__name__)

_OPEN = "('lobby', 'active')"
_SEAT_COLUMNS = (
    "game_id", "seat", "user_id", "display_name", "colour", "is_computer", "ai_level", "dm_reachable",
    "reminders_enabled", "reminder_interval", "quiet_start", "quiet_end", "time_zone", "snoozed_until", "joined_at",
)  # fmt: skip
_INSERT_SEAT = f"INSERT INTO seats ({', '.join(_SEAT_COLUMNS)}) VALUES ({', '.join('?' * len(_SEAT_COLUMNS))})"


async def _on_thread(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Runs ``fn(raw connection)`` on the aiosqlite connection's worker thread, in order with
    the connection's other calls.  (Uses aiosqlite's ``_execute``/``_conn``: aiosqlite has no
    public "run this function" call; the version is pinned in pyproject.toml and the store's
    tests exercise this path on every run.)"""
    call = asyncio.ensure_future(db._execute(lambda: fn(db._conn)))
    try:
        return await asyncio.shield(call)
    except asyncio.CancelledError:
        # The function runs to its end on the thread anyway (committing or rolling back).
        # Wait for that, so that once the cancellation reaches the caller, its next read
        # sees the outcome; then pass the cancellation on.
        with contextlib.suppress(Exception):
            await call
        raise


def _write_tx(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    if conn.in_transaction:  # never expected; do not build on someone's half transaction
        conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")  # take the write lock first: no upgrade deadlocks, no stale reads
    try:
        result = fn(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _read_tx(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.execute("BEGIN")  # one consistent view of committed data across the statements
    try:
        return fn(conn)
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _one(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(sql, params).fetchone()
    return row


def _all(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
    return list(conn.execute(sql, params).fetchall())


def _game_row(conn: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    row = _one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    return row


def _need(row: sqlite3.Row, *statuses: Status) -> None:
    if row["status"] not in statuses:
        raise GameStateError(row["id"], row["status"], " or ".join(statuses))


def _seat_rows(conn: sqlite3.Connection, game_id: int) -> list[sqlite3.Row]:
    return _all(conn, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))


def _record(conn: sqlite3.Connection, game_id: int, row: sqlite3.Row | None = None) -> GameRecord:
    row = row if row is not None else _game_row(conn, game_id)
    try:
        return GameRecord.from_row(row, tuple(SeatRecord.from_row(r) for r in _seat_rows(conn, game_id)))
    except ValueError as e:  # a damaged status or options column
        raise CorruptGame(game_id, f"unreadable game or seat row: {str(e)[:300]}") from None


def _records(conn: sqlite3.Connection, rows: list[sqlite3.Row]) -> list[GameRecord]:
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    by_game: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    for s in _all(
        conn, f"SELECT * FROM seats WHERE game_id IN ({','.join('?' * len(ids))}) ORDER BY game_id, seat", ids
    ):
        by_game[s["game_id"]].append(SeatRecord.from_row(s))
    return [GameRecord.from_row(r, tuple(by_game[r["id"]])) for r in rows]


def _set_reminder(conn: sqlite3.Connection, game_id: int, due_at: float | None) -> None:
    if due_at is None:
        conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
    else:
        conn.execute(
            "INSERT INTO reminders (game_id, due_at, sent_count, last_sent_at) VALUES (?, ?, 0, NULL)"
            " ON CONFLICT (game_id) DO UPDATE SET due_at = excluded.due_at, sent_count = 0, last_sent_at = NULL",
            (game_id, due_at),
        )


def _start_turn_clock(conn: sqlite3.Connection, game_id: int, game: Game, now: float, seconds: float) -> None:
    conn.execute(
        "INSERT INTO turn_clocks (game_id, turn, seat, started_at, expires_at, vote_posted) VALUES (?, ?, ?, ?, ?, 0)"
        " ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seat = excluded.seat,"
        " started_at = excluded.started_at, expires_at = excluded.expires_at, vote_posted = 0",
        (game_id, game.state.turn, game.current_player, now, now + seconds),
    )
    conn.execute("DELETE FROM away_votes WHERE game_id = ? AND turn <> ?", (game_id, game.state.turn))


def _result(r: sqlite3.Row) -> ResultRecord:
    return ResultRecord(
        r["game_id"], r["seat"], r["user_id"], r["score"], r["museum_dice"], r["rank"], bool(r["winner"])
    )


def _write_results(conn: sqlite3.Connection, game_id: int, game: Game) -> list[ResultRecord]:
    """Scores, museum dice, ranks (ties share a rank; removed players rank last) and winners."""
    users = {s["seat"]: s["user_id"] for s in _seat_rows(conn, game_id)}
    winners = set(game.winners())
    keys = [(not game.state.players[i].removed, game.score(i), game.museum_dice(i)) for i in range(game.num_players)]
    out = [
        ResultRecord(game_id, i, users.get(i), key[1], key[2], 1 + sum(o > key for o in keys), i in winners)
        for i, key in enumerate(keys)
    ]
    conn.executemany(
        "INSERT INTO results (game_id, seat, user_id, score, museum_dice, rank, winner) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(r.game_id, r.seat, r.user_id, r.score, r.museum_dice, r.rank, int(r.winner)) for r in out],
    )
    stats_db.record_finished(conn, game_id, game, out)  # per-seat details and ratings, same transaction
    return out


def _replay_moves(conn: sqlite3.Connection, row: sqlite3.Row) -> Game:
    game_id = row["id"]
    game = Game.new(row["players"], row["seed"], GameOptions.model_validate_json(row["options"]))
    for i, m in enumerate(_all(conn, "SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)), 1):
        if m["ply"] != i:
            raise CorruptGame(game_id, f"ply {i} is missing from the move list")
        try:
            game.apply(m["move"])
        except ValueError as e:
            raise CorruptGame(game_id, f"move {i} {m['move']!r} does not replay: {e}") from None
    return game


class Store:
    """All access to the games database.  Open with ``await Store.open(path)``; close with
    ``await store.close()`` (or ``async with``).

    Writes go through one connection, one transaction at a time (``BEGIN IMMEDIATE``, so other
    processes are excluded too); reads go through a second connection and see only committed
    data (WAL).  Every public method is safe to call from many asyncio tasks at once.
    """

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        clock: Callable[[], float],
        cache_size: int,
        synchronous: str,
    ) -> None:
        self.path = path
        self.synchronous = synchronous
        self._writer = writer
        self._reader = reader
        self._clock = clock
        # game id -> (version, game).  Entries are never mutated (they are cloned on the way
        # in and out), so worker threads may read them while the event loop replaces them.
        self._cache: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self._cache_size = cache_size
        self._quarantined: dict[int, str] = {}
        self._user_locales: dict[int, str | None] = {}  # see the locales section
        self._guild_languages: dict[int, str | None] = {}
        self._checkpointer: asyncio.Task[None] | None = None

    # --- opening and closing ---------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = DEFAULT_SYNCHRONOUS,
        cache_size: int = DEFAULT_CACHE_SIZE,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
        read_only: bool = False,
        checkpoint_interval: float | None = DEFAULT_CHECKPOINT_INTERVAL,
    ) -> Store:
        """Opens (creating if needed) the database and applies pending migrations.
        Raises SchemaTooNew when the database was written by newer code.  With
        ``migrate=False`` (or ``read_only``) an out-of-date schema is an error instead.
        ``checkpoint_interval``: seconds between background WAL checkpoints (None: none,
        leaving it to SQLite's automatic ones)."""
        path = Path(path)
        writer = await dbmod.connect(path, synchronous=synchronous, read_only=read_only)
        reader: aiosqlite.Connection | None = None
        try:
            if migrate and not read_only:
                await dbmod.migrate(writer, str(path))
            else:
                version = await dbmod.schema_version(writer)
                if version > dbmod.LATEST_VERSION:
                    raise SchemaTooNew(str(path), version, dbmod.LATEST_VERSION)
                if version < dbmod.LATEST_VERSION:
                    raise StoreError(
                        f"database {path} has schema version {version}, older than this code's "
                        f"{dbmod.LATEST_VERSION}: open it with migrations on to upgrade it"
                    )
            reader = await dbmod.connect(path, synchronous=synchronous, read_only=True)
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        store = cls(path, writer, reader, clock=clock, cache_size=cache_size, synchronous=synchronous.upper())
        if checkpoint_interval is not None and not read_only:
            store._checkpointer = asyncio.create_task(store._checkpoint_loop(checkpoint_interval))
        return store

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        await self._reader.close()
        await self._writer.close()

    async def _checkpoint_loop(self, interval: float) -> None:
        """Checkpoints the WAL every ``interval`` seconds on a connection of its own.

        With ``synchronous=NORMAL`` a commit is safe from process crashes at once but only
        reaches the disk for sure at the next checkpoint (which fsyncs the WAL, then the
        database); this bounds that window without an fsync on every move, and keeps the
        WAL short so that commits rarely pay for an automatic checkpoint themselves.
        PASSIVE: never waits for, nor blocks, readers and writers."""
        conn = await dbmod.connect(self.path, synchronous=self.synchronous)
        try:
            while True:
                await asyncio.sleep(interval)
                try:
                    await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as e:  # e.g. busy: try again next time
                    log.warning("WAL checkpoint of %s failed: %s", self.path, e)
        finally:
            await conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await _on_thread(self._writer, lambda conn: _write_tx(conn, fn))
        except sqlite3.Error as e:
            if cannot_write(e):  # disk full, file-size limit, read-only: say so, not "try again"
                log.error("cannot write %s: %s", self.path, e)
                raise CannotWrite(str(self.path), str(e)) from e
            raise

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await _on_thread(self._reader, lambda conn: _read_tx(conn, fn))

    # --- the cache of loaded games -----------------------------------------------------------

    def _cached(self, game_id: int, version: int) -> Game | None:
        """The cached game at exactly this version.  Do not mutate it: clone it."""
        hit = self._cache.get(game_id)
        return hit[1] if hit is not None and hit[0] == version else None

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        """Caches a game nobody else holds a reference to."""
        if self._cache_size <= 0 or game_id in self._quarantined:
            return
        self._cache[game_id] = (version, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _check_quarantine(self, game_id: int) -> None:
        if game_id in self._quarantined:
            raise CorruptGame(game_id, self._quarantined[game_id])

    def _game_at(self, conn: sqlite3.Connection, row: sqlite3.Row, cached: tuple[int, Game] | None) -> Game:
        """A private copy of the game at the row's version: cloned from ``cached`` when that
        is the same version, else parsed from the snapshot (and checked against the row)."""
        if cached is not None and cached[0] == row["version"]:
            return cached[1].clone()
        snap = _one(conn, "SELECT version, json FROM snapshots WHERE game_id = ?", (row["id"],))
        return snapshot_game(row["id"], row, snap and snap["version"], snap and snap["json"])

    # --- lobby ------------------------------------------------------------------------------

    async def create_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        options: GameOptions | None = None,
        settings: str = "{}",
    ) -> GameRecord:
        """A new game in its lobby.  Raises ChannelBusy if the channel already has an open game.
        ``settings`` is the bot's own JSON for the table (player limit, clocks)."""
        options_json = (options or GameOptions()).model_dump_json()
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> GameRecord:
            busy = _one(conn, f"SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}", (channel_id,))
            if busy is not None:
                raise ChannelBusy(channel_id, busy["id"])
            cur = conn.execute(
                "INSERT INTO games"
                " (guild_id, channel_id, creator_id, options, settings, status, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, creator_id, options_json, settings, now, now),
            )
            assert cur.lastrowid is not None
            return _record(conn, cur.lastrowid)

        return await self._write(tx)

    async def join_seat(
        self,
        game_id: int,
        user_id: int | None,
        display_name: str,
        *,
        colour: str | None = None,
        is_computer: bool = False,
        ai_level: int | None = None,
        prefs: ReminderPrefs | None = None,
        colours: Sequence[str] = (),
        max_seats: int = 4,
    ) -> SeatRecord:
        """Takes the lowest free seat of a lobby.  Computer players have no user id.
        ``colours``: the first of these not taken yet is the seat's colour, chosen in the same
        transaction as the seat (two people joining at once never get the same colour).
        ``max_seats``: the table's size; raises SeatError ("full") past it."""
        if is_computer != (user_id is None):
            raise SeatError("a computer player has no user id, and a human needs one")
        prefs = prefs or ReminderPrefs()
        if problems := prefs.problems():
            raise SeatError("; ".join(problems))
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> SeatRecord:
            _need(_game_row(conn, game_id), Status.LOBBY)
            seats = _seat_rows(conn, game_id)
            if user_id is not None and any(s["user_id"] == user_id for s in seats):
                raise SeatError(f"user {user_id} already has a seat in game {game_id}")
            chosen = colour
            if chosen is None and colours:
                taken = {s["colour"] for s in seats}
                chosen = next((c for c in colours if c not in taken), None)
            if chosen is not None and any(s["colour"] == chosen for s in seats):
                raise SeatError(f"colour {chosen} is already taken in game {game_id}")
            free = [i for i in range(4) if i not in {s["seat"] for s in seats}]
            if not free or len(seats) >= max_seats:
                raise TableFull(f"game {game_id} is full")
            conn.execute(
                _INSERT_SEAT,
                (
                    game_id, free[0], user_id, display_name, chosen, int(is_computer), ai_level, None,
                    int(prefs.enabled), prefs.interval, prefs.quiet_start, prefs.quiet_end,
                    prefs.time_zone, prefs.snoozed_until, now,
                ),
            )  # fmt: skip
            conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            row = _one(conn, "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, free[0]))
            assert row is not None
            return SeatRecord.from_row(row)

        return await self._write(tx)

    async def leave_seat(self, game_id: int, seat: int) -> None:
        """Frees a lobby seat (the other seats keep their numbers until the game starts)."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> None:
            _need(_game_row(conn, game_id), Status.LOBBY)
            if conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)).rowcount != 1:
                raise SeatError(f"seat {seat} of game {game_id} is empty")
            conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

        await self._write(tx)

    async def hand_seat_to_computer(self, game_id: int, seat: int, ai_level: int, display_name: str) -> GameRecord:
        """A computer player takes over a seat of a game in play (the away vote): the seat
        loses its user, so reminders and votes no longer concern that person."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> GameRecord:
            _need(_game_row(conn, game_id), Status.ACTIVE)
            cur = conn.execute(
                "UPDATE seats SET user_id = NULL, is_computer = 1, ai_level = ?, display_name = ?,"
                " dm_reachable = NULL WHERE game_id = ? AND seat = ? AND is_computer = 0",
                (ai_level, display_name, game_id, seat),
            )
            if cur.rowcount != 1:
                raise SeatError(f"seat {seat} of game {game_id} is empty or already a computer player")
            conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return _record(conn, game_id)

        return await self._write(tx)

    async def start_game(
        self,
        game_id: int,
        seed: int,
        seating: Sequence[int] | None = None,
        *,
        reminder: float | None = None,
        turn_seconds: float | None = None,
    ) -> tuple[GameRecord, Game]:
        """Starts a lobby: ``seating`` lists the lobby seat numbers in playing order (default:
        their current order); seats are renumbered 0..n-1, the engine game is created with
        ``seed`` and its first snapshot stored.  ``reminder`` is when to first remind the
        player to move (None: no reminder); ``turn_seconds`` starts the first turn's clock."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> tuple[GameRecord, Game]:
            row = _game_row(conn, game_id)
            _need(row, Status.LOBBY)
            seats = {s["seat"]: s for s in _seat_rows(conn, game_id)}
            order = list(seating) if seating is not None else sorted(seats)
            if sorted(order) != sorted(seats):
                raise SeatError(f"seating {order} must list each occupied seat {sorted(seats)} once")
            if not 2 <= len(order) <= 4:
                raise SeatError(f"Cubist needs 2 to 4 players; game {game_id} has {len(order)}")
            game = Game.new(len(order), seed, GameOptions.model_validate_json(row["options"]))
            conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for new, old in enumerate(order):
                values = [seats[old][c] for c in _SEAT_COLUMNS]
                values[1] = new
                conn.execute(_INSERT_SEAT, values)
            conn.execute(
                "UPDATE games SET status = 'active', seed = ?, players = ?, version = 0, started_at = ?,"
                " updated_at = ?, current_seat = ?, turn = ? WHERE id = ?",
                (seed, len(order), now, now, game.current_player, game.state.turn, game_id),
            )
            conn.execute("INSERT INTO snapshots (game_id, version, json) VALUES (?, 0, ?)", (game_id, dump_game(game)))
            _set_reminder(conn, game_id, reminder)
            if turn_seconds is not None:
                _start_turn_clock(conn, game_id, game, now, turn_seconds)
            return _record(conn, game_id), game

        record, game = await self._write(tx)
        self._remember(game_id, 0, game.clone())
        return record, game

    # --- moves --------------------------------------------------------------------------------

    async def apply_move(
        self,
        game_id: int,
        expected_version: int,
        move: str,
        user_id: int | None = None,
        *,
        reminder: float | None = None,
        keep_reminder: bool = False,
        turn_seconds: float | None = None,
    ) -> tuple[Game, int]:
        """Applies one move in one transaction and returns the new game and its version.

        Raises StaleGame if the game is no longer at ``expected_version`` (someone moved first),
        IllegalMove/MoveSyntaxError if the engine refuses the move, GameStateError if the game
        is not in play, CorruptGame if its snapshot is bad; in all these cases nothing is
        written.  ``reminder`` is the new due time of the game's reminder (None: none); it
        resets the sent count.  The move that ends the game also marks it finished and writes
        its results, in the same transaction.  With ``keep_reminder`` a move that does not
        begin a new turn leaves the reminder schedule alone; ``turn_seconds`` (re)starts the
        turn clock, and forgets the old turn's votes, when a new turn begins.
        """
        game, _, _ = await self._apply_move(
            game_id, expected_version, move, user_id, reminder, keep_reminder, turn_seconds, with_record=False
        )
        return game, expected_version + 1

    async def apply_move_record(
        self,
        game_id: int,
        expected_version: int,
        move: str,
        user_id: int | None = None,
        *,
        reminder: float | None = None,
        keep_reminder: bool = False,
        turn_seconds: float | None = None,
    ) -> tuple[GameRecord, Game]:
        """``apply_move``, returning the game's record (as committed, with its seats) instead
        of the version: saves the caller a read round trip after every move."""
        record, game, _queued = await self.apply_move_queued(
            game_id, expected_version, move, user_id, reminder=reminder, keep_reminder=keep_reminder,
            turn_seconds=turn_seconds, queue=None,
        )  # fmt: skip
        return record, game

    async def apply_move_queued(
        self,
        game_id: int,
        expected_version: int,
        move: str,
        user_id: int | None = None,
        *,
        reminder: float | None = None,
        keep_reminder: bool = False,
        turn_seconds: float | None = None,
        queue: Callable[[Game], dict[str, Any]] | None = None,
    ) -> tuple[GameRecord, Game, outbox_db.Queued]:
        """``apply_move_record``; with ``queue`` (game -> the turn post's payload), a move that ends a
        turn also queues, in the same transaction, the turn's channel post and the next
        player's turn-start DM in the outbox (``bot/outbox.py`` sends them)."""
        game, record, queued = await self._apply_move(
            game_id, expected_version, move, user_id, reminder, keep_reminder, turn_seconds,
            with_record=True, queue=queue,
        )  # fmt: skip
        assert record is not None
        return record, game, queued

    async def _apply_move(
        self,
        game_id: int,
        expected_version: int,
        move: str,
        user_id: int | None,
        reminder: float | None,
        keep_reminder: bool,
        turn_seconds: float | None,
        *,
        with_record: bool,
        queue: Callable[[Game], dict[str, Any]] | None = None,
    ) -> tuple[Game, GameRecord | None, outbox_db.Queued]:
        self._check_quarantine(game_id)
        cached = self._cache.get(game_id)
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> tuple[Game, GameRecord | None, outbox_db.Queued]:
            row = _game_row(conn, game_id)
            _need(row, Status.ACTIVE)
            if row["version"] != expected_version:
                raise StaleGame(game_id, expected_version, row["version"])
            game = self._game_at(conn, row, cached)
            game.apply(move)  # raises IllegalMove / MoveSyntaxError: rolled back, nothing written
            version = expected_version + 1
            over = game.is_over
            conn.execute(
                "INSERT INTO moves (game_id, ply, move, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, str(game.log[-1]), user_id, now),  # canonical text, as in the snapshot's log
            )
            conn.execute(
                "UPDATE snapshots SET version = ?, json = ? WHERE game_id = ?", (version, dump_game(game), game_id)
            )
            cur = conn.execute(
                "UPDATE games SET version = ?, updated_at = ?, current_seat = ?, turn = ?, status = ?,"
                " finished_at = ? WHERE id = ? AND version = ?",
                (
                    version, now, game.current_player, game.state.turn, "finished" if over else "active",
                    now if over else None, game_id, expected_version,
                ),
            )  # fmt: skip
            if cur.rowcount != 1:  # cannot happen under BEGIN IMMEDIATE; belt and braces
                raise StaleGame(game_id, expected_version, -1)
            new_turn = game.state.turn != row["turn"]
            if over or new_turn or not keep_reminder:
                _set_reminder(conn, game_id, None if over else reminder)
            if over:
                _write_results(conn, game_id, game)
                conn.execute("DELETE FROM turn_clocks WHERE game_id = ?", (game_id,))
            elif new_turn and turn_seconds is not None:
                _start_turn_clock(conn, game_id, game, now, turn_seconds)
            queued = outbox_db.Queued()
            if queue is not None and (over or new_turn):  # the turn's post and the next DM, same transaction
                queued = outbox_db.queue_turn(conn, game_id, version, game, queue(game), now)
            return game, (_record(conn, game_id) if with_record else None), queued

        game, record, queued = await self._write(tx)
        if game.is_over:
            self._cache.pop(game_id, None)  # finished: nobody moves in it any more
        else:
            self._remember(game_id, expected_version + 1, game.clone())
        return game, record, queued

    # --- loading ------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record (any status), with its seats."""
        return await self._read(lambda conn: _record(conn, game_id))

    async def load_game(self, game_id: int) -> tuple[GameRecord, Game]:
        """The record and engine game of a started game (active, finished, or cancelled after
        starting); the caller may mutate the game.  Raises CorruptGame if the stored snapshot
        is unreadable or disagrees with the game's row (or the game failed verification)."""
        self._check_quarantine(game_id)
        cached = self._cache.get(game_id)

        def tx(conn: sqlite3.Connection) -> tuple[GameRecord, Game, bool]:
            row = _game_row(conn, game_id)
            if row["seed"] is None:
                raise GameStateError(game_id, row["status"], "started")
            hit = cached is not None and cached[0] == row["version"]
            return _record(conn, game_id, row), self._game_at(conn, row, cached), hit

        record, game, hit = await self._read(tx)
        if not hit and record.status == Status.ACTIVE:  # only games in play are worth caching
            self._remember(game_id, record.version, game.clone())
        return record, game

    async def active_game_for_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (in its lobby or in play), if any."""

        def tx(conn: sqlite3.Connection) -> GameRecord | None:
            row = _one(conn, f"SELECT * FROM games WHERE channel_id = ? AND status IN {_OPEN}", (channel_id,))
            return None if row is None else _record(conn, row["id"], row)

        return await self._read(tx)

    async def games_waiting_on(self, user_id: int) -> list[GameRecord]:
        """Games in play whose current seat is this user's, longest-waiting first."""
        sql = (
            "SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat"
            " WHERE g.status = 'active' AND s.user_id = ? ORDER BY g.updated_at"
        )
        return await self._read(lambda conn: _records(conn, _all(conn, sql, (user_id,))))

    async def list_games(
        self, statuses: Sequence[Status] = OPEN_STATUSES, *, guild_id: int | None = None, limit: int = 1000
    ) -> list[GameRecord]:
        """Games with the given statuses, newest first, optionally of one guild."""
        sql = f"SELECT * FROM games WHERE status IN ({','.join('?' * len(statuses))})"
        params: list[Any] = [str(s) for s in statuses]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
        return await self._read(lambda conn: _records(conn, _all(conn, sql, params)))

    # --- history -------------------------------------------------------------------------------

    async def last_moves(self, game_id: int, n: int = 10) -> list[MoveRecord]:
        """The last ``n`` moves of a game, oldest first."""
        sql = "SELECT * FROM (SELECT * FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT ?) ORDER BY ply"
        rows = await self._read(lambda conn: _all(conn, sql, (game_id, n)))
        return [MoveRecord(r["game_id"], r["ply"], r["move"], r["user_id"], r["created_at"]) for r in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        sql = "SELECT * FROM results WHERE game_id = ? ORDER BY seat"
        return [_result(r) for r in await self._read(lambda conn: _all(conn, sql, (game_id,)))]

    async def user_results(self, user_id: int, limit: int = 50) -> list[ResultRecord]:
        """A user's results in finished games, most recent first."""
        sql = (
            "SELECT r.* FROM results r JOIN games g ON g.id = r.game_id WHERE r.user_id = ?"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ?"
        )
        return [_result(r) for r in await self._read(lambda conn: _all(conn, sql, (user_id, limit)))]

    # --- ending ----------------------------------------------------------------------------------

    async def finish(self, game_id: int) -> list[ResultRecord]:
        """Marks an over game finished and writes its results.  ``apply_move`` already does
        this for the move that ends a game; this call is for recovery (say the game was left
        active by older code) and is idempotent.  It works from the move list, the source of
        truth, and rewrites the snapshot if that disagrees."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> list[ResultRecord]:
            row = _game_row(conn, game_id)
            if row["status"] == Status.FINISHED:
                rows = _all(conn, "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
                return [_result(r) for r in rows]
            _need(row, Status.ACTIVE)
            game = _replay_moves(conn, row)
            if not game.is_over:
                raise GameStateError(game_id, "still in play", "over")
            version = len(game.log)
            conn.execute(
                "UPDATE snapshots SET version = ?, json = ? WHERE game_id = ?", (version, dump_game(game), game_id)
            )
            conn.execute(
                "UPDATE games SET status = 'finished', finished_at = ?, updated_at = ?, version = ?,"
                " current_seat = ?, turn = ? WHERE id = ?",
                (now, now, version, game.current_player, game.state.turn, game_id),
            )
            _set_reminder(conn, game_id, None)
            conn.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            return _write_results(conn, game_id, game)

        results = await self._write(tx)
        self._quarantined.pop(game_id, None)
        self._cache.pop(game_id, None)
        return results

    async def cancel(self, game_id: int) -> GameRecord:
        """Cancels a lobby or a game in play (its moves stay, for the record)."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> GameRecord:
            _need(_game_row(conn, game_id), *OPEN_STATUSES)
            conn.execute("UPDATE games SET status = 'cancelled', updated_at = ? WHERE id = ?", (now, game_id))
            _set_reminder(conn, game_id, None)
            conn.execute("DELETE FROM turn_clocks WHERE game_id = ?", (game_id,))
            return _record(conn, game_id)

        record = await self._write(tx)
        self._cache.pop(game_id, None)  # a cancelled game is not played any more
        return record

    # --- reminders and preferences ----------------------------------------------------------------

    async def due_reminders(self, before: float, limit: int = 100) -> list[DueReminder]:
        """Reminders of games in play due before ``before``, earliest first, with the seat the
        game waits on and its preferences (quiet hours and snoozing are the caller's call)."""
        sql = (
            "SELECT s.*, r.due_at, r.sent_count, r.last_sent_at, g.version, g.guild_id, g.channel_id"
            " FROM reminders r JOIN games g ON g.id = r.game_id"
            " JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat"
            " WHERE r.due_at < ? AND g.status = 'active' ORDER BY r.due_at LIMIT ?"
        )
        out = []
        for r in await self._read(lambda conn: _all(conn, sql, (before, limit))):
            seat = SeatRecord.from_row(r)
            out.append(
                DueReminder(
                    game_id=r["game_id"], version=r["version"], guild_id=r["guild_id"], channel_id=r["channel_id"],
                    seat=seat.seat, user_id=seat.user_id, due_at=r["due_at"], sent_count=r["sent_count"],
                    last_sent_at=r["last_sent_at"], dm_reachable=seat.dm_reachable, prefs=seat.prefs,
                )
            )  # fmt: skip
        return out

    async def mark_reminder_sent(
        self, game_id: int, version: int, next_due: float | None, *, expected_count: int | None = None
    ) -> bool:
        """Records that a reminder went out and schedules the next (None: no more).  Does
        nothing and returns False if the game moved since the reminder was listed (or, with
        ``expected_count``, if another sender already counted this reminder)."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> bool:
            row = _one(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None or row["version"] != version:
                return False
            if expected_count is not None:
                rem = _one(conn, "SELECT sent_count FROM reminders WHERE game_id = ?", (game_id,))
                if rem is None or rem["sent_count"] != expected_count:
                    return False
            if next_due is None:
                cur = conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            else:
                cur = conn.execute(
                    "UPDATE reminders SET sent_count = sent_count + 1, last_sent_at = ?, due_at = ? WHERE game_id = ?",
                    (now, next_due, game_id),
                )
            return cur.rowcount == 1

        return await self._write(tx)

    async def set_reminder(self, game_id: int, due_at: float | None) -> None:
        """Reschedules (or with None removes) a game's reminder without a move; resets the count."""

        def tx(conn: sqlite3.Connection) -> None:
            _game_row(conn, game_id)
            _set_reminder(conn, game_id, due_at)

        await self._write(tx)

    async def reminder(self, game_id: int) -> tuple[float, int, float | None] | None:
        """(due_at, sent_count, last_sent_at) of a game's pending reminder, if any."""
        r = await self._read(lambda conn: _one(conn, "SELECT * FROM reminders WHERE game_id = ?", (game_id,)))
        return None if r is None else (r["due_at"], r["sent_count"], r["last_sent_at"])

    async def set_seat_preferences(self, game_id: int, seat: int, prefs: ReminderPrefs) -> SeatRecord:
        """Replaces a seat's reminder preferences (use ``dataclasses.replace`` on ``seat.prefs``)."""
        if problems := prefs.problems():
            raise SeatError("; ".join(problems))

        def tx(conn: sqlite3.Connection) -> SeatRecord:
            cur = conn.execute(
                "UPDATE seats SET reminders_enabled = ?, reminder_interval = ?, quiet_start = ?, quiet_end = ?,"
                " time_zone = ?, snoozed_until = ? WHERE game_id = ? AND seat = ?",
                (
                    int(prefs.enabled), prefs.interval, prefs.quiet_start, prefs.quiet_end,
                    prefs.time_zone, prefs.snoozed_until, game_id, seat,
                ),
            )  # fmt: skip
            if cur.rowcount != 1:
                raise SeatError(f"game {game_id} has no seat {seat}")
            row = _one(conn, "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            assert row is not None
            return SeatRecord.from_row(row)

        return await self._write(tx)

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        """Whether the bot can DM this user, on all their seats in open games.  Returns the
        number of seats updated."""
        sql = (
            f"UPDATE seats SET dm_reachable = ? WHERE user_id = ?"
            f" AND game_id IN (SELECT id FROM games WHERE status IN {_OPEN})"
        )
        return await self._write(lambda conn: conn.execute(sql, (int(reachable), user_id)).rowcount)

    # --- asynchronous play: rescheduling, turn clocks, away votes, table posts --------------------

    async def reschedule_reminder(self, game_id: int, version: int, due_at: float) -> bool:
        """Moves a pending reminder to ``due_at`` keeping its sent count (quiet hours, snooze).
        Does nothing and returns False if the game moved since ``version``."""

        def tx(conn: sqlite3.Connection) -> bool:
            row = _one(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None or row["version"] != version:
                return False
            cur = conn.execute("UPDATE reminders SET due_at = ? WHERE game_id = ?", (due_at, game_id))
            return cur.rowcount == 1

        return await self._write(tx)

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        r = await self._read(lambda conn: _one(conn, "SELECT * FROM turn_clocks WHERE game_id = ?", (game_id,)))
        return None if r is None else TurnClock.from_row(r)

    async def expired_turn_clocks(self, before: float, limit: int = 100) -> list[TurnClock]:
        """Clocks of turns still in play that ran out before ``before`` and whose vote was not
        posted yet, earliest first."""
        sql = (
            "SELECT t.* FROM turn_clocks t JOIN games g ON g.id = t.game_id"
            " WHERE t.vote_posted = 0 AND t.expires_at < ? AND g.status = 'active' AND g.turn = t.turn"
            " ORDER BY t.expires_at LIMIT ?"
        )
        return [TurnClock.from_row(r) for r in await self._read(lambda conn: _all(conn, sql, (before, limit)))]

    async def claim_turn_vote(self, game_id: int, turn: int) -> bool:
        """Marks the vote of this turn as posted; False if it already was or the turn is over."""
        sql = (
            "UPDATE turn_clocks SET vote_posted = 1 WHERE game_id = ? AND turn = ? AND vote_posted = 0"
            " AND turn = (SELECT turn FROM games WHERE id = ? AND status = 'active')"
        )
        return await self._write(lambda conn: conn.execute(sql, (game_id, turn, game_id)).rowcount == 1)

    async def expire_turn_clock(self, game_id: int, turn: int, at: float) -> bool:
        """Ends a turn's clock early (the player is known to be gone)."""
        sql = "UPDATE turn_clocks SET expires_at = min(expires_at, ?) WHERE game_id = ? AND turn = ?"
        return await self._write(lambda conn: conn.execute(sql, (at, game_id, turn)).rowcount == 1)

    async def cast_vote(self, game_id: int, turn: int, voter_seat: int, choice: str) -> dict[str, int]:
        """Records (or changes) a player's vote on the away player of ``turn``; returns the
        counts per choice.  Raises GameStateError if that turn is no longer in play."""
        now = self._clock()

        def tx(conn: sqlite3.Connection) -> dict[str, int]:
            row = _game_row(conn, game_id)
            _need(row, Status.ACTIVE)
            if row["turn"] != turn:
                raise GameStateError(game_id, f"at turn {row['turn']}", f"at turn {turn}")
            conn.execute(
                "INSERT INTO away_votes (game_id, turn, voter_seat, choice, created_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, turn, voter_seat) DO UPDATE SET choice = excluded.choice,"
                " created_at = excluded.created_at",
                (game_id, turn, voter_seat, choice, now),
            )
            sql = "SELECT choice, count(*) AS n FROM away_votes WHERE game_id = ? AND turn = ? GROUP BY choice"
            return {r["choice"]: r["n"] for r in _all(conn, sql, (game_id, turn))}

        return await self._write(tx)

    async def votes(self, game_id: int, turn: int) -> dict[int, str]:
        """Voter seat -> choice for a turn."""
        sql = "SELECT voter_seat, choice FROM away_votes WHERE game_id = ? AND turn = ?"
        rows = await self._read(lambda conn: _all(conn, sql, (game_id, turn)))
        return {r["voter_seat"]: r["choice"] for r in rows}

    async def set_table_post(self, game_id: int, message_id: int, version: int) -> None:
        """Remembers the newest table message of a game."""
        sql = (
            "INSERT INTO table_posts (game_id, message_id, version) VALUES (?, ?, ?) ON CONFLICT (game_id)"
            " DO UPDATE SET message_id = excluded.message_id, version = excluded.version"
            " WHERE excluded.version >= table_posts.version"  # a late outbox post never hides a newer one
        )
        await self._write(lambda conn: conn.execute(sql, (game_id, message_id, version)))

    async def table_post(self, game_id: int) -> tuple[int, int] | None:
        """(message id, game version) of the newest table message of a game."""
        sql = "SELECT message_id, version FROM table_posts WHERE game_id = ?"
        r = await self._read(lambda conn: _one(conn, sql, (game_id,)))
        return None if r is None else (int(r["message_id"]), int(r["version"]))

    async def last_lobby_opened(self, channel_id: int) -> float | None:
        """When the newest game of this channel was opened (None: never)."""
        sql = "SELECT max(created_at) AS at FROM games WHERE channel_id = ?"
        row = await self._read(lambda conn: _one(conn, sql, (channel_id,)))
        return None if row is None or row["at"] is None else float(row["at"])

    async def open_games_of(self, user_id: int) -> list[GameRecord]:
        """Open games (lobby or in play) in which this user has a seat, oldest first."""
        sql = (
            f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id"
            f" WHERE s.user_id = ? AND g.status IN {_OPEN} ORDER BY g.id"
        )
        return await self._read(lambda conn: _records(conn, _all(conn, sql, (user_id,))))

    # --- verification and repair -------------------------------------------------------------------

    async def verify_game(self, game_id: int) -> Game | None:
        """Checks that the game's snapshot equals the replay of its move list, and the other
        cross-checks of ``bot.store.verify``.  Raises CorruptGame naming the game; until it
        verifies again (or is rebuilt) load_game and apply_move refuse it.  Returns the game
        (None for a game that never started)."""

        def tx(conn: sqlite3.Connection) -> tuple[sqlite3.Row, sqlite3.Row | None, list[tuple[int, str]]]:
            row = _game_row(conn, game_id)
            snap = _one(conn, "SELECT version, json FROM snapshots WHERE game_id = ?", (game_id,))
            moves = _all(conn, "SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
            return row, snap, [(m["ply"], m["move"]) for m in moves]

        row, snap, moves = await self._read(tx)

        def check() -> Game | None:
            if row["seed"] is None:
                if moves or snap is not None:
                    raise CorruptGame(game_id, "a game that never started has moves or a snapshot")
                if row["status"] not in ("lobby", "cancelled"):
                    raise CorruptGame(game_id, f"a game with no seed has status {row['status']!r}")
                return None
            game = snapshot_game(game_id, row, snap and snap["version"], snap and snap["json"])
            return check_replay(game_id, row, game, moves)

        try:
            game = await asyncio.to_thread(check)  # replaying is CPU work: keep the event loop free
        except CorruptGame as e:
            self._quarantined[game_id] = e.reason
            self._cache.pop(game_id, None)
            raise
        self._quarantined.pop(game_id, None)
        return game

    async def verify_all(self, statuses: Sequence[Status] | None = (Status.ACTIVE,)) -> list[CorruptGame]:
        """Verifies every game with these statuses (at start-up: the active ones; None: every
        game).  Returns the problems (one CorruptGame per bad game) instead of raising."""
        if statuses is None:
            sql, params = "SELECT id FROM games ORDER BY id", []
        else:
            sql = f"SELECT id FROM games WHERE status IN ({','.join('?' * len(statuses))}) ORDER BY id"
            params = [str(s) for s in statuses]
        ids = [r["id"] for r in await self._read(lambda conn: _all(conn, sql, params))]
        problems = []
        for game_id in ids:
            try:
                await self.verify_game(game_id)
            except CorruptGame as e:
                problems.append(e)
        return problems

    async def rebuild_snapshot(self, game_id: int) -> Game:
        """Admin repair: rewrites a game's snapshot and derived columns from its move list (the
        source of truth).  Raises CorruptGame if the moves themselves do not replay."""

        def tx(conn: sqlite3.Connection) -> Game:
            row = _game_row(conn, game_id)
            if row["seed"] is None:
                raise GameStateError(game_id, row["status"], "started")
            game = _replay_moves(conn, row)
            version = len(game.log)
            conn.execute(
                "INSERT INTO snapshots (game_id, version, json) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET version = excluded.version, json = excluded.json",
                (game_id, version, dump_game(game)),
            )
            conn.execute(
                "UPDATE games SET version = ?, current_seat = ?, turn = ? WHERE id = ?",
                (version, game.current_player, game.state.turn, game_id),
            )
            return game

        game = await self._write(tx)
        self._quarantined.pop(game_id, None)
        self._cache.pop(game_id, None)
        return game

    async def integrity_check(self) -> list[str]:
        """SQLite's own check of the file; an empty list means fine."""
        rows = await self._read(lambda conn: _all(conn, "PRAGMA integrity_check"))
        return [r[0] for r in rows if r[0] != "ok"]

    # --- backup ---------------------------------------------------------------------------------

    async def backup(self, dest: str | Path) -> Path:
        """An online copy of the database at ``dest`` (see ``backup_database``); games keep
        being served meanwhile."""
        return await asyncio.to_thread(backup_database, self.path, dest)

    # --- statistics -------------------------------------------------------------------------------
    # Written when a game finishes (``_write_results``); the queries live in ``stats.py``.

    async def player_stats(self, guild_id: int | None, user_id: int) -> stats_db.PlayerStats | None:
        """A person's statistics over the finished games of a server (None: no finished game)."""
        return await self._read(lambda conn: stats_db.player_stats(conn, guild_id, user_id))

    async def leaderboard(self, guild_id: int | None, limit: int = 15) -> list[stats_db.RatingEntry]:
        """A server's rating table, best first; computer levels included."""
        return await self._read(lambda conn: stats_db.leaderboard(conn, guild_id, limit))

    async def rating_changes(self, game_id: int) -> list[stats_db.RatingChange]:
        """Each seat's rating change from a finished game (empty: not rated)."""
        return await self._read(lambda conn: stats_db.rating_changes(conn, game_id))

    # --- locales ---------------------------------------------------------------------------------
    # Users' last seen Discord locales (DMs follow them) and servers' chosen language for
    # channel posts; the SQL is in ``locales.py``.  Both are read for every channel post and
    # DM and written by this process only, so they are kept in memory once read or written.

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        """Records the user's Discord locale; writes only when it changed."""
        locale = locale[: locales_db.MAX_LOCALE_LENGTH]
        if self._user_locales.get(user_id) == locale:
            return
        now = self._clock()
        await self._write(lambda conn: locales_db.set_user_locale(conn, user_id, locale, now))
        self._user_locales[user_id] = locale

    async def user_locale(self, user_id: int) -> str | None:
        """The Discord locale of the user's last interaction ('fr', 'en-US'...), or None."""
        if user_id not in self._user_locales:
            self._user_locales[user_id] = await self._read(lambda conn: locales_db.user_locale(conn, user_id))
        return self._user_locales[user_id]

    # --- the outbox (migration 0008; bot/outbox.py sends it) -------------------------------------

    async def outbox_claim(self, row_id: int, owner: str, lease: float) -> bool:
        """Claims an outbox row for sending (atomic): True means the caller sends it, then calls
        ``outbox_done`` (or ``outbox_release`` on failure).  False: sent, or claimed by another
        sender whose lease has not run out."""
        now = self._clock()
        return await self._write(lambda conn: outbox_db.claim(conn, row_id, owner, now, lease))

    async def outbox_release(self, row_id: int, owner: str) -> None:
        await self._write(lambda conn: outbox_db.release(conn, row_id, owner))

    async def outbox_done(self, row_id: int, message_id: int | None = None) -> None:
        now = self._clock()
        await self._write(lambda conn: outbox_db.done(conn, row_id, now, message_id))

    async def outbox_retry(self, row_id: int, owner: str, error: str) -> bool:
        now = self._clock()
        return await self._write(lambda conn: outbox_db.retry(conn, row_id, owner, now, error))

    async def outbox_postpone(self, row_id: int, due_at: float) -> None:
        await self._write(lambda conn: outbox_db.postpone(conn, row_id, due_at))

    async def outbox_due(self, lease: float, limit: int = 50) -> list[outbox_db.OutboxRow]:
        now = self._clock()
        return await self._read(lambda conn: outbox_db.due(conn, now, lease, limit))

    async def outbox_counts(self) -> dict[str, int]:
        return await self._read(outbox_db.counts)

    async def game_at(self, game_id: int, version: int) -> Game:
        """The game as it was at ``version`` (a replay of its first ``version`` moves): what an
        outbox post shows even when the game moved on before it was sent."""

        def tx(conn: sqlite3.Connection) -> tuple[sqlite3.Row, list[str]]:
            row = _game_row(conn, game_id)
            sql = "SELECT move FROM moves WHERE game_id = ? AND ply <= ? ORDER BY ply"
            return row, [m["move"] for m in _all(conn, sql, (game_id, version))]

        row, moves = await self._read(tx)

        def replay() -> Game:
            game = Game.new(row["players"], row["seed"], GameOptions.model_validate_json(row["options"]))
            for m in moves:
                game.apply(m)
            return game

        cached = self._cache.get(game_id)
        if cached is not None and cached[0] == version:
            return cached[1].clone()
        return await asyncio.to_thread(replay)

    # --- the bot's own facts and people's DM status (migration 0007) -----------------------------

    async def meta(self, key: str) -> str | None:
        return await self._read(lambda conn: meta_db.get(conn, key))

    async def set_meta(self, key: str, value: str) -> None:
        now = self._clock()
        await self._write(lambda conn: meta_db.put(conn, key, value, now))

    async def dm_status(self, user_id: int) -> tuple[bool, float] | None:
        """(reachable, when last tried) of a person's DMs, across all games; None: never tried."""
        return await self._read(lambda conn: meta_db.dm_status(conn, user_id))

    async def set_dm_status(self, user_id: int, reachable: bool) -> None:
        now = self._clock()
        await self._write(lambda conn: meta_db.set_dm_status(conn, user_id, reachable, now))

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """A server's language for channel posts (None: follow the server's own locale)."""
        now = self._clock()
        await self._write(lambda conn: locales_db.set_guild_language(conn, guild_id, language, now))
        self._guild_languages[guild_id] = language

    async def guild_language(self, guild_id: int) -> str | None:
        if guild_id not in self._guild_languages:
            self._guild_languages[guild_id] = await self._read(lambda conn: locales_db.guild_language(conn, guild_id))
        return self._guild_languages[guild_id]


def backup_database(src: str | Path, dest: str | Path) -> Path:
    """Copies a live database with SQLite's backup API.

    The copy is made in one step from its own connection, i.e. inside one read transaction,
    so it is a consistent snapshot of committed data; in WAL mode writers carry on meanwhile.
    It is written to ``dest.partial``, checked, switched to a self-contained rollback journal,
    fsynced and renamed over ``dest``, so ``dest`` is never a half-written file.
    """
    src, dest = Path(src), Path(dest)
    if not src.exists():
        raise FileNotFoundError(f"no database at {src}")
    tmp = dest.with_name(dest.name + ".partial")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        p.unlink(missing_ok=True)
    source = sqlite3.connect(src, timeout=dbmod.BUSY_TIMEOUT_S)
    try:
        target = sqlite3.connect(tmp)
        try:
            source.backup(target)  # pages=-1: everything in one step
            target.execute("PRAGMA journal_mode=DELETE")
            problems = [r[0] for r in target.execute("PRAGMA quick_check") if r[0] != "ok"]
            if problems:
                raise StoreError(f"the backup of {src} failed its check: {problems[:5]}")
        finally:
            target.close()
    finally:
        source.close()
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, dest)
    with contextlib.suppress(OSError):  # make the rename itself durable
        fd = os.open(dest.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return dest
