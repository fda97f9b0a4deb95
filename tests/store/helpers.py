"""Helpers for the store tests: games driven by GreedyPlayer, a controllable clock."""

from __future__ import annotations

from bot.store import GameRecord, Store, TimerSpec
from engine import Game
from engine.players import GreedyPlayer


class FakeClock:
    """Wall-clock seconds that only move when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def nudge_at(due_at: float) -> TimerSpec:
    """A game's ``nudge`` timer due at ``due_at`` (what the bot sets for a turn's DMs)."""
    return TimerSpec("nudge", "turn_start", due_at, {})


async def nudge(store: Store, game_id: int) -> tuple[float | None, str, int, float | None] | None:
    """(due_at, kind, attempt, last_run_at) of a game's nudge timer, if any."""
    t = await store.timers.get(game_id, "nudge")
    return None if t is None else (t.due_at, t.kind, t.attempt, t.last_run_at)


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
        played = await store.apply_move(game_id, version, str(player.choose(game)), user)
        game, version = played.game, played.version
    return game, version


async def play_to_end(store: Store, game_id: int, seed: int = 0) -> tuple[Game, int]:
    return await play(store, game_id, 10_000, seed)
