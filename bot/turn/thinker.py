"""The master player's thinking (its computer turns and the hints), in a process of its own.

A master decision costs up to a second or two of CPU: in a thread it would hold the
interpreter's lock and slow every other answer of the bot, so it runs in a process pool
(one worker by default) while the event loop keeps answering everyone else.  The player
travels to the worker with the position (as its saved text: the deck does not pickle, and
the saved game holds everything, the hidden order and the dice generator included) and
comes back with its decision, so it keeps following its plan exactly as it would in this
process (same decisions for a seed).
``thinker`` is the process's one pool, shared by the computer players and the hints.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import Game
from engine.moves import Move
from engine.players import MasterPlayer, Player
from engine.players.reasons import Reason, reasons
from engine.saved import dump_game, load_game


def _choose(player: Player, saved: str) -> tuple[Move, Player]:
    move = player.choose(load_game(saved))
    return move, player


def _advise(saved: str, seed: int) -> tuple[list[Move], list[Reason]]:
    game = load_game(saved)
    moves = MasterPlayer(seed).plan_turn(game)
    return moves, reasons(game, moves)


class Thinker:
    """A lazily started process pool for master decisions and hints."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self.decisions = 0  # moves and suggestions the pool has sent back

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fresh interpreter, not a fork of this one: the bot's threads (and the locks
            # they may hold at the fork) stay out of the worker.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def choose(self, player: Player, game: Game) -> tuple[Move, Player]:
        """``player``'s next move in ``game``, decided in the pool, and the player as it is
        after deciding (its plan for the rest of the turn)."""
        loop = asyncio.get_running_loop()
        saved = dump_game(game)
        try:
            got = await loop.run_in_executor(self._executor(), _choose, player, saved)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): a fresh pool, and the decision again.
            self.close()
            got = await loop.run_in_executor(self._executor(), _choose, player, saved)
        self.decisions += 1
        return got

    async def advise(self, game: Game, seed: int, seconds: float) -> tuple[list[Move], list[Reason]] | None:
        """The master's whole-turn suggestion if it comes within ``seconds`` (None: it did not,
        because the position is a hard one or the pool is busy with a computer's turn)."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), _advise, dump_game(game), seed)
        try:
            got = await asyncio.wait_for(asyncio.shield(future), seconds)
        except BrokenProcessPool:
            self.close()  # the next decision starts a fresh pool; this hint is the strong player's
            return None
        except TimeoutError:
            # The worker finishes it anyway (a decision is bounded); nobody waits for it.
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            return None
        self.decisions += 1
        return got

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


thinker = Thinker()
