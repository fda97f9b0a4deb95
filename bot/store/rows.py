"""Reading and checking the rows of ``games`` and ``seats`` inside a transaction: the helpers
every room that touches a game shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.connection import Tx
from bot.store.errors import CorruptGame, GameNotFound, GameStateError
from bot.store.records import GameRecord, ResultRecord, SeatRecord, Status
from bot.store.verify import snapshot_game
from engine import Game, GameOptions

OPEN_SQL = "('lobby', 'active')"
SEAT_COLUMNS = (
    "game_id", "seat", "user_id", "display_name", "colour", "is_computer", "ai_level", "dm_reachable",
    "reminders_enabled", "reminder_interval", "quiet_start", "quiet_end", "time_zone", "snoozed_until", "joined_at",
)  # fmt: skip
INSERT_SEAT = f"INSERT INTO seats ({', '.join(SEAT_COLUMNS)}) VALUES ({', '.join('?' * len(SEAT_COLUMNS))})"


async def game_row(tx: Tx, game_id: int) -> Any:
    row = await tx.one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    return row


def need(row: Any, *statuses: Status) -> None:
    if row["status"] not in statuses:
        raise GameStateError(row["id"], row["status"], " or ".join(statuses))


async def seat_rows(tx: Tx, game_id: int) -> list[Any]:
    return await tx.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))


async def record(tx: Tx, game_id: int, row: Any = None) -> GameRecord:
    row = row if row is not None else await game_row(tx, game_id)
    try:
        return GameRecord.from_row(row, tuple(SeatRecord.from_row(r) for r in await seat_rows(tx, game_id)))
    except ValueError as e:  # a damaged status or options column
        raise CorruptGame(game_id, f"unreadable game or seat row: {str(e)[:300]}") from None


async def records(tx: Tx, rows: list[Any]) -> list[GameRecord]:
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    by_game: dict[int, list[SeatRecord]] = {i: [] for i in ids}
    sql = f"SELECT * FROM seats WHERE game_id IN ({tx.dialect.params(len(ids))}) ORDER BY game_id, seat"
    for s in await tx.all(sql, ids):
        by_game[s["game_id"]].append(SeatRecord.from_row(s))
    return [GameRecord.from_row(r, tuple(by_game[r["id"]])) for r in rows]


async def records_of(tx: Tx, sql: str, params: Sequence[Any]) -> list[GameRecord]:
    """The records (with seats) of the games a query selects (``SELECT g.* ...``)."""
    return await records(tx, await tx.all(sql, params))


def result(r: Any) -> ResultRecord:
    return ResultRecord(
        r["game_id"], r["seat"], r["user_id"], r["score"], r["museum_dice"], r["rank"], bool(r["winner"])
    )


async def replay_moves(tx: Tx, row: Any) -> Game:
    """The game replayed from its move list (the source of truth)."""
    game_id = row["id"]
    game = Game.new(row["players"], row["seed"], GameOptions.model_validate_json(row["options"]))
    for i, m in enumerate(await tx.all("SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)), 1):
        if m["ply"] != i:
            raise CorruptGame(game_id, f"ply {i} is missing from the move list")
        try:
            game.apply_text(m["move"])
        except ValueError as e:
            raise CorruptGame(game_id, f"move {i} {m['move']!r} does not replay: {e}") from None
    return game


async def game_at(tx: Tx, row: Any, cached: tuple[int, Game] | None) -> Game:
    """A private copy of the game at the row's version: cloned from ``cached`` when that is
    the same version, else parsed from the snapshot (and checked against the row)."""
    if cached is not None and cached[0] == row["version"]:
        return cached[1].clone()
    snap = await tx.one("SELECT version, json FROM snapshots WHERE game_id = ?", (row["id"],))
    return snapshot_game(row["id"], row, snap and snap["version"], snap and snap["json"])
