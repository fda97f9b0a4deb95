"""Games in play: starting a lobby, applying a move (one transaction: version check, engine,
move row, snapshot, game row, timers, results, outbox), finishing and cancelling."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import outbox as outbox_db
from bot.store import stats as stats_db
from bot.store.changes import Changes, Fresh, notify_in
from bot.store.connection import POSTGRESQL, Tx
from bot.store.errors import GameStateError, SeatError, StaleGame
from bot.store.records import OPEN_STATUSES, GameRecord, ResultRecord, Status
from bot.store.room import Room
from bot.store.rows import INSERT_SEAT, SEAT_COLUMNS, game_at, game_row, need, record, replay_moves, result, seat_rows
from bot.store.timers import TimerSpec, clear_timers, set_timers
from engine import Game, GameOptions, Step, dump_game
from engine.moves import Move


@dataclass(frozen=True, slots=True)
class Played:
    """What one stored move produced."""

    game: Game  # the game after the move (the caller's own copy)
    version: int  # its version (the number of moves applied)
    record: GameRecord | None  # the game's row as committed, with its seats (None when not asked for)
    queued: outbox_db.Queued  # the outbox rows queued with the move
    step: Step  # what the move did (whether it ended the turn, the outcome if it ended the game)


async def write_results(tx: Tx, game_id: int, game: Game) -> list[ResultRecord]:
    """Scores, museum dice, ranks (ties share a rank; removed players rank last) and winners."""
    users = {s["seat"]: s["user_id"] for s in await seat_rows(tx, game_id)}
    winners, ranks = set(game.winners()), game.ranks()
    out = [
        ResultRecord(game_id, i, users.get(i), game.score(i), game.museum_dice(i), ranks[i], i in winners)
        for i in range(game.num_players)
    ]
    await tx.executemany(
        "INSERT INTO results (game_id, seat, user_id, score, museum_dice, rank, winner) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(r.game_id, r.seat, r.user_id, r.score, r.museum_dice, r.rank, int(r.winner)) for r in out],
    )
    await stats_db.record_finished(tx, game_id, game, out)  # per-seat details and ratings, same transaction
    return out


class MovesRoom(Room):
    changes = Changes()  # replaced per store (Store.__init__); told after each commit

    def _changed(self, game_id: int, version: int, fresh: Fresh = None) -> None:
        # PostgreSQL's own NOTIFY (sent in the transaction) reaches this process too.
        # ``fresh``: the game as committed, so that listeners need not read it back.
        if self.db.dialect is not POSTGRESQL:
            self.changes.tell(game_id, version, fresh)

    async def start_game(
        self,
        game_id: int,
        seed: int,
        seating: Sequence[int] | None = None,
        *,
        timers: Callable[[Game, GameRecord], Sequence[TimerSpec]] | None = None,
    ) -> tuple[GameRecord, Game]:
        """Starts a lobby: ``seating`` lists the lobby seat numbers in playing order (default:
        their current order); seats are renumbered 0..n-1, the engine game is created with
        ``seed`` and its first snapshot stored.  ``timers`` (the new game and its record ->
        timers to set) gives the first turn its timers, in the same transaction."""
        now = self.clock()

        async def tx(tx: Tx) -> tuple[GameRecord, Game]:
            row = await game_row(tx, game_id)
            need(row, Status.LOBBY)
            seats = {s["seat"]: s for s in await seat_rows(tx, game_id)}
            order = list(seating) if seating is not None else sorted(seats)
            if sorted(order) != sorted(seats):
                raise SeatError(f"seating {order} must list each occupied seat {sorted(seats)} once")
            if not 2 <= len(order) <= 4:
                raise SeatError(f"Cubist needs 2 to 4 players; game {game_id} has {len(order)}")
            game = Game.new(len(order), seed, GameOptions.model_validate_json(row["options"]))
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for new, old in enumerate(order):
                values = [seats[old][c] for c in SEAT_COLUMNS]
                values[1] = new
                await tx.execute(INSERT_SEAT, values)
            await tx.execute(
                "UPDATE games SET status = 'active', seed = ?, players = ?, version = 0, started_at = ?,"
                " updated_at = ?, current_seat = ?, turn = ? WHERE id = ?",
                (seed, len(order), now, now, game.current_player, game.state.turn, game_id),
            )
            await tx.execute(
                "INSERT INTO snapshots (game_id, version, json) VALUES (?, 0, ?)", (game_id, dump_game(game))
            )
            rec = await record(tx, game_id)
            if timers is not None:
                await set_timers(tx, game_id, timers(game, rec), now)
            await notify_in(tx, game_id, 0)
            return rec, game

        rec, game = await self.db.write(tx)
        self.cache.remember(game_id, 0, game.clone())
        self._changed(game_id, 0)
        return rec, game

    async def apply_move(
        self,
        game_id: int,
        expected_version: int,
        move: Move,
        user_id: int | None = None,
        *,
        timers: Callable[[Game, bool], Sequence[TimerSpec]] | None = None,
        queue: Callable[[Step, Game], dict[str, Any]] | None = None,
        with_record: bool = True,
    ) -> Played:
        """Applies one move in one transaction.

        ``move`` is the engine's (parsed where it was typed or chosen); whether it is allowed
        is decided here, by the engine, on the game as stored.  Raises StaleGame if the game is
        no longer at ``expected_version`` (someone moved first), IllegalMove if the engine
        refuses the move, GameStateError if the game
        is not in play, CorruptGame if its snapshot is bad; in all these cases nothing is
        written.  The move that ends the game also marks it finished, writes its results and
        removes its timers, in the same transaction.  ``timers`` (the game after the move,
        whether a new turn began -> timers to set) schedules what follows the move; a new
        turn also forgets the old turn's away votes.  With ``queue``
        (the step and the game -> the turn post's payload), a move that ends a turn also queues the turn's
        channel post and the next player's turn-start DM in the outbox (``bot/jobs/outbox.py``
        sends them).  ``with_record=False`` skips reading the committed record back.
        """
        self.cache.check(game_id)
        cached = self.cache.get(game_id)
        now = self.clock()

        async def tx(tx: Tx) -> Played:
            row = await game_row(tx, game_id)
            need(row, Status.ACTIVE)
            if row["version"] != expected_version:
                raise StaleGame(game_id, expected_version, row["version"])
            game = await game_at(tx, row, cached)
            step = game.apply(move)  # raises IllegalMove: rolled back, nothing written
            version = expected_version + 1
            over = game.is_over
            await tx.execute(
                "INSERT INTO moves (game_id, ply, move, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, str(game.log[-1]), user_id, now),  # canonical text, as in the snapshot's log
            )
            await tx.execute(
                "UPDATE snapshots SET version = ?, json = ? WHERE game_id = ?", (version, dump_game(game), game_id)
            )
            cur = await tx.execute(
                "UPDATE games SET version = ?, updated_at = ?, current_seat = ?, turn = ?, status = ?,"
                " finished_at = ? WHERE id = ? AND version = ?",
                (
                    version, now, game.current_player, game.state.turn, "finished" if over else "active",
                    now if over else None, game_id, expected_version,
                ),
            )  # fmt: skip
            if cur != 1:  # cannot happen under an exclusive write; belt and braces
                raise StaleGame(game_id, expected_version, -1)
            new_turn = step.turn_ended and not over
            if over:
                await write_results(tx, game_id, game)
                await clear_timers(tx, game_id)
            else:
                if new_turn:
                    await tx.execute(
                        "DELETE FROM away_votes WHERE game_id = ? AND turn <> ?", (game_id, game.state.turn)
                    )
                if timers is not None:
                    await set_timers(tx, game_id, timers(game, new_turn), now)
            queued = outbox_db.Queued()
            if queue is not None and step.turn_ended:  # the turn's post and the next DM, same transaction
                queued = await outbox_db.queue_turn(tx, game_id, version, game, queue(step, game), now)
            await notify_in(tx, game_id, version)
            return Played(game, version, await record(tx, game_id) if with_record else None, queued, step)

        played = await self.db.write(tx)
        fresh: Fresh = None
        if played.game.is_over:
            self.cache.forget(game_id)  # finished: nobody moves in it any more
        else:
            kept = played.game.clone()
            self.cache.remember(game_id, played.version, kept)
            if played.record is not None:
                fresh = (played.record, kept)  # the cache's copy: listeners only read it
        self._changed(game_id, played.version, fresh)
        return played

    async def finish(self, game_id: int) -> list[ResultRecord]:
        """Marks an over game finished and writes its results.  ``apply_move`` already does
        this for the move that ends a game; this call is for recovery (say the game was left
        active by older code) and is idempotent.  It works from the move list, the source of
        truth, and rewrites the snapshot if that disagrees."""
        now = self.clock()

        async def tx(tx: Tx) -> list[ResultRecord]:
            row = await game_row(tx, game_id)
            if row["status"] == Status.FINISHED:
                return [
                    result(r) for r in await tx.all("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
                ]
            need(row, Status.ACTIVE)
            game = await replay_moves(tx, row)
            if not game.is_over:
                raise GameStateError(game_id, "still in play", "over")
            version = len(game.log)
            await tx.execute(
                "UPDATE snapshots SET version = ?, json = ? WHERE game_id = ?", (version, dump_game(game), game_id)
            )
            await tx.execute(
                "UPDATE games SET status = 'finished', finished_at = ?, updated_at = ?, version = ?,"
                " current_seat = ?, turn = ? WHERE id = ?",
                (now, now, version, game.current_player, game.state.turn, game_id),
            )
            await clear_timers(tx, game_id)
            await tx.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            await notify_in(tx, game_id, version)
            return await write_results(tx, game_id, game)

        results = await self.db.write(tx)
        self.cache.release(game_id)
        self.cache.forget(game_id)
        self._changed(game_id, -1)
        return results

    async def cancel(self, game_id: int) -> GameRecord:
        """Cancels a lobby or a game in play (its moves stay, for the record)."""
        now = self.clock()

        async def tx(tx: Tx) -> GameRecord:
            need(await game_row(tx, game_id), *OPEN_STATUSES)
            await tx.execute("UPDATE games SET status = 'cancelled', updated_at = ? WHERE id = ?", (now, game_id))
            await clear_timers(tx, game_id)
            rec = await record(tx, game_id)
            await notify_in(tx, game_id, rec.version)
            return rec

        rec = await self.db.write(tx)
        self.cache.forget(game_id)  # a cancelled game is not played any more
        self._changed(game_id, rec.version)
        return rec
