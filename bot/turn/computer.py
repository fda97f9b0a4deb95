"""Computer players at the table: they play their turns promptly, through the same service
calls and the same channel posts as people, and give ``/cubist hint`` its advice.

One task per game plays while the current seat is a computer's; it is woken after every
table post (``wake``) and, at start-up, for every game waiting on a computer
(``resume_all``), so a restart in the middle of a computer's turn carries on from the
stored position.  The engine players (``engine.players``) decide; they run in a thread
because a strong decision can take most of a second.
"""

from __future__ import annotations

import asyncio
import logging

from bot.chat.base import Bot
from bot.chat.delivery import deliver_turn
from bot.jobs import events as ev
from bot.service.game import UserError, in_play, level_of
from bot.service.gate import Entry
from bot.store import GameRecord
from engine import Game
from engine.moves import Move
from engine.players import Player, StrongPlayer, make_player
from engine.players.reasons import Reason, reasons

log = logging.getLogger(__name__)

MAX_FAILURES = 3  # refused moves in a row before a computer gives up (and says so in the log)


def is_computer_turn(record: GameRecord, game: Game) -> bool:
    if not in_play(record, game):
        return False
    return record.seats[game.current_player].is_computer


class Computers:
    """``pause``: seconds between two computer turns, so a table of computers does not flood
    the channel (0 in tests)."""

    def __init__(self, bot: Bot, *, pause: float = 1.0) -> None:
        self.bot = bot
        self.pause = pause
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._woken: set[int] = set()  # woken while their task was running: look again before stopping
        self._players: dict[tuple[int, int], tuple[str, Player]] = {}
        self._stopped = False

    def subscribe(self, events: ev.Events) -> None:
        events.subscribe(ev.TABLE_POSTED, self._table_posted)
        events.subscribe(ev.COMPUTER_DUE, self._due)

    async def _table_posted(self, record: GameRecord, game: Game) -> None:
        self.wake(record, game)

    async def _due(self, game_id: int) -> None:
        self.wake_id(game_id)

    # --- scheduling --------------------------------------------------------------------

    def wake(self, record: GameRecord, game: Game) -> None:
        """Called after every table post: plays the next turn if it is a computer's."""
        if is_computer_turn(record, game):
            self.wake_id(record.id)

    def wake_id(self, game_id: int) -> None:
        if self._stopped:  # closing: the next start resumes it (resume_all)
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._woken.add(game_id)
            return
        self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"computer-{game_id}")

    async def resume_all(self) -> int:
        """Wakes every game waiting on a computer player (at start-up); returns how many."""
        woken = 0
        for record in await self.bot.service.queries.games_in_play():
            seat = record.current_seat
            if seat is not None and seat < len(record.seats) and record.seats[seat].is_computer:
                self.wake_id(record.id)
                woken += 1
        return woken

    async def idle(self) -> None:
        """Waits until no computer is playing (tests and the demo)."""
        while running := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    async def stop(self) -> None:
        """Stops the computer players and starts no more (the bot is closing)."""
        self._stopped = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()

    # --- playing -----------------------------------------------------------------------

    def _player(self, record: GameRecord, seat: int) -> Player:
        level = level_of(record.seats[seat].ai_level)
        key = (record.id, seat)
        known = self._players.get(key)
        if known is None or known[0] != level:
            # Seeded by the game and seat: the same game gets the same decisions.
            known = (level, make_player(level, (record.seed or 0) * 4 + seat))
            self._players[key] = known
        return known[1]

    async def _run(self, game_id: int) -> None:
        try:
            await self._play(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player of game %s stopped", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]  # per-game state does not outlive the game's turns
            self._woken.discard(game_id)

    def forget(self, game_id: int) -> None:
        """Drops the computer players of a game that ended or was cancelled."""
        for key in [k for k in self._players if k[0] == game_id]:
            del self._players[key]

    async def _play(self, game_id: int) -> None:
        failures = 0
        while True:
            self._woken.discard(game_id)
            record, game = await self.bot.service.queries.game(game_id)
            if not is_computer_turn(record, game):
                if game_id in self._woken:
                    continue  # a turn ended while we were looking: look again
                if not in_play(record, game):
                    self.forget(game_id)
                return
            seat = game.current_player
            player = self._player(record, seat)
            move: Move = await asyncio.to_thread(player.choose, game.clone())
            try:
                outcome = await self.bot.service.play_in(game_id, None, move, entry=Entry.JOB, as_seat=seat)
            except UserError as e:
                # The game moved on meanwhile (a vote, an admin's skip): look again.
                failures += 1
                log.warning("computer move %r in game %s refused (%s)", str(move), game_id, e)
                if failures >= MAX_FAILURES:
                    log.error("computer player of game %s gives up after %d refused moves", game_id, failures)
                    return
                continue
            failures = 0
            if outcome.turn_ended:
                channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
                await deliver_turn(self.bot, channel, outcome)  # or the outbox worker, if that fails
                if not outcome.finished and self.pause > 0:
                    await asyncio.sleep(self.pause)


def advise(game: Game, seed: int) -> tuple[list[Move], list[Reason]]:
    """A whole-turn suggestion for the current player and the reasons for it (for hints;
    run it in a thread)."""
    moves = StrongPlayer(seed).plan_turn(game)
    return moves, reasons(game, moves)
