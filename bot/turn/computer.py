"""Computer players at the table: they play their turns promptly, through the same service
calls and the same channel posts as people, and give ``/cubist hint`` its advice.

A computer's turn is a job (kind ``computer_turn``, ``bot/jobs/runs.py``): the table post that
hands it the turn runs it at once, and like every job it is claimed with a lease, so one
process plays it, and a turn cut short by a crash or a restart is taken over from the stored
position once the lease has run out (each move is stored on its own, so nothing is played
twice).  The engine players (``engine.players``) decide; they run in a thread because a
strong decision can take most of a second, and the master's in a process of its own
(``bot.turn.thinker``): it thinks for up to a second or two.
"""

from __future__ import annotations

import asyncio
import logging

from bot.chat.base import Bot
from bot.chat.delivery import deliver_turn
from bot.jobs import events as ev
from bot.service.game import in_play, level_of
from bot.service.gate import Entry
from bot.service.refusals import UserError
from bot.store import GameRecord
from bot.turn.thinker import thinker
from engine import Game
from engine.moves import Move
from engine.players import MasterPlayer, Player, StrongPlayer, make_player
from engine.players.reasons import Reason, reasons

log = logging.getLogger(__name__)

MAX_FAILURES = 3  # refused moves in a row before a computer gives up (and says so in the log)


def is_computer_turn(record: GameRecord, game: Game) -> bool:
    if not in_play(record, game):
        return False
    return record.seats[game.current_player].is_computer


class Computers:
    """``pause``: seconds before a computer's turn, so a table of computers does not flood
    the channel (0 in tests)."""

    def __init__(self, bot: Bot, *, pause: float = 1.0) -> None:
        self.bot = bot
        self.pause = pause
        self._players: dict[tuple[int, int], tuple[str, Player]] = {}
        self._playing = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._stopped = False
        self.thinker = thinker

    def subscribe(self, events: ev.Events) -> None:
        events.subscribe(ev.COMPUTER_TURN_DUE, self.play_turn)

    async def resume_all(self) -> int:
        """Starts the turn of every game waiting on a computer player (at start-up: turns cut
        short by a restart); returns how many games wait."""
        waiting = [
            record.id
            for record in await self.bot.service.queries.games_in_play()
            if record.current_seat is not None
            and record.current_seat < len(record.seats)
            and record.seats[record.current_seat].is_computer
        ]
        await self.bot.jobs.resume(waiting)
        return len(waiting)

    @property
    def playing(self) -> bool:
        """Whether a computer is playing a turn in this process now."""
        return self._playing > 0

    async def idle(self) -> None:
        """Waits until no computer is playing and none is about to (tests and the demo)."""
        while True:
            await self.bot.jobs.drain()
            await self._idle.wait()
            if not self.bot.jobs.starting:
                return

    async def stop(self) -> None:
        """Plays no more moves (the bot is closing): a turn under way stops after its current
        move, and the next start takes it over."""
        self._stopped = True
        self.thinker.close()

    def _player(self, record: GameRecord, seat: int) -> Player:
        level = level_of(record.seats[seat].ai_level)
        key = (record.id, seat)
        known = self._players.get(key)
        if known is None or known[0] != level:
            # Seeded by the game and seat: the same game gets the same decisions.
            known = (level, make_player(level, (record.seed or 0) * 4 + seat))
            self._players[key] = known
        return known[1]

    def forget(self, game_id: int) -> None:
        """Drops the computer players of a game that ended or was cancelled."""
        for key in [k for k in self._players if k[0] == game_id]:
            del self._players[key]

    async def play_turn(self, game_id: int) -> bool:
        """Plays the turn of the computer in turn from the stored position, move by move,
        until the turn ends and its post is delivered (or the poller has it).  False when it
        stopped first because the bot is closing (the turn is for the next start, or for
        another process, to take over)."""
        self._playing += 1
        self._idle.clear()
        try:
            if self.pause > 0:
                await asyncio.sleep(self.pause)
            await self._play(game_id)
            return not self._stopped
        finally:
            self._playing -= 1
            if not self._playing:
                self._idle.set()

    async def _choose(self, game_id: int, seat: int, player: Player, game: Game) -> Move:
        if isinstance(player, MasterPlayer):
            move, thought = await self.thinker.choose(player, game)
            known = self._players.get((game_id, seat))
            if known is not None and known[1] is player:  # the player as it left the worker
                self._players[(game_id, seat)] = (known[0], thought)
            return move
        return await asyncio.to_thread(player.choose, game)

    async def _play(self, game_id: int) -> None:
        failures = 0
        while not self._stopped:
            record, game = await self.bot.service.queries.game(game_id)
            if not is_computer_turn(record, game):
                if not in_play(record, game):
                    self.forget(game_id)
                return
            seat = game.current_player
            player = self._player(record, seat)
            move = await self._choose(game_id, seat, player, game.clone())
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
                await deliver_turn(self.bot, channel, outcome)  # or the poller, if that fails
                if outcome.finished:
                    self.forget(game_id)
                return


def advise(game: Game, seed: int) -> tuple[list[Move], list[Reason]]:
    """A whole-turn suggestion for the current player and the reasons for it (for hints;
    run it in a thread)."""
    moves = StrongPlayer(seed).plan_turn(game)
    return moves, reasons(game, moves)
