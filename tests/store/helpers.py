"""Helpers for the store tests: games driven by GreedyPlayer, a controllable clock."""

from __future__ import annotations

from bot.store import GameRecord, Store
from engine import Game
from engine.players import GreedyPlayer


class FakeClock:
    """Wall-clock seconds that only move when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


async def start_game(
    store: Store, channel: int, players: int = 2, seed: int = 1, guild: int = 1
) -> tuple[GameRecord, Game]:
    """A started game in ``channel`` with human players whose user ids are channel*10 + i."""
    rec = await store.create_lobby(guild, channel, channel * 10)
    for i in range(players):
        await store.join_seat(rec.id, channel * 10 + i, f"player{i}")
    return await store.start_game(rec.id, seed)


async def play(store: Store, game_id: int, moves: int, seed: int = 0) -> tuple[Game, int]:
    """Plays up to ``moves`` GreedyPlayer moves (fewer if the game ends); returns game and version."""
    rec, game = await store.load_game(game_id)
    version = rec.version
    player = GreedyPlayer(seed)
    for _ in range(moves):
        if game.is_over:
            break
        user = rec.seats[game.current_player].user_id
        game, version = await store.apply_move(game_id, version, str(player.choose(game)), user)
    return game, version


async def play_to_end(store: Store, game_id: int, seed: int = 0) -> tuple[Game, int]:
    return await play(store, game_id, 10_000, seed)
