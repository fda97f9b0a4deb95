"""Child process of the crash test: plays games through the store, forever, and reports.

    python -m tests.store.crash_child DB SEED

Keeps CHANNELS games going (starting a new one in a channel when its game ends, and
finishing set-up that an earlier, killed run left half done), one asyncio task per channel.
After each commit it prints ``M <game> <ply> <move>`` (and ``S <game>`` for a started game)
and flushes, so every line the parent reads was committed before it was printed.  Prints
``ready`` once the store is open.  It never stops by itself: the parent kills it.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.store import Status, Store, TimerSpec
from engine.players import GreedyPlayer

CHANNELS = 4


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def ensure_game(store: Store, channel: int, rng: random.Random) -> int:
    """The game in play in ``channel``, creating or starting it as needed."""
    rec = await store.games.active_game_for_channel(channel)
    if rec is None:
        rec = await store.lobby.create_lobby(1, channel, channel)
    if rec.status == Status.LOBBY:
        for i in range(len(rec.seats), 2):  # two-player games are the shortest: some end during the test
            await store.lobby.join_seat(rec.id, channel * 100 + i, f"p{i}")
        due = rng.random()
        rec, _ = await store.moves.start_game(
            rec.id, rng.randrange(2**31), timers=lambda g, r: [TimerSpec("nudge", "turn_start", due)]
        )
        say(f"S {rec.id}")
    return rec.id


async def play_channel(store: Store, channel: int, seed: int) -> None:
    rng = random.Random(seed * 1000 + channel)
    player = GreedyPlayer(seed)
    while True:
        game_id = await ensure_game(store, channel, rng)
        record, game = await store.games.load_game(game_id)
        version = record.version
        while not game.is_over:
            move = player.choose(game)
            nudge = [TimerSpec("nudge", "turn_start", rng.random())]
            played = await store.moves.apply_move(game_id, version, move, channel, timers=lambda g, new, n=nudge: n)
            game, version = played.game, played.version
            say(f"M {game_id} {version} {game.log[-1]}")


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    say("ready")
    await asyncio.gather(*(play_channel(store, c, seed) for c in range(1, CHANNELS + 1)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
