"""The offline demo: a whole game through the real bot on the local Discord stand-in.

Simple players (the engine's greedy player deciding, the stand-in's driver typing the
slash commands and clicking like a user) play from ``/cubist new`` to the final scores.
Every picture the bot posts in the channel and a transcript go to the output folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from engine.moves import EndTurn
from engine.players import GreedyPlayer
from standin import Player, StandIn
from standin.discord_target import point_discord_at

from .client import CubistBot

NAMES = ("Ada", "Bruno", "Chloé", "Dmitri")


async def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not answer in time")
        await asyncio.sleep(0.005)


async def start_bot(server: StandIn, bot: CubistBot) -> asyncio.Task[None]:
    point_discord_at(server.url)
    task = asyncio.create_task(bot.start(server.token))
    await wait_until(lambda: bot.is_ready() or task.done(), 15)
    if task.done():
        task.result()
    return task


async def play_demo_game(
    server: StandIn, bot: CubistBot, users: list[Player], channel, seed: int, *, computers: int = 0
) -> int:
    """Drive a whole game (with ``computers`` computer players besides ``users``); returns
    the game id."""
    options: dict[str, object] = {"players": len(users) + computers}
    if computers:
        options.update(computers=computers, level="greedy")
    first = await users[0].slash(channel, "cubist new", **options)
    assert not first.failed, first
    for u in users[1:]:
        r = await u.slash(channel, "cubist join")
        assert not r.failed and "joined" in r.content, r.content
    if not computers or len(users) > 1:  # a solo table starts by itself
        r = await users[0].slash(channel, "cubist start")
        assert not r.failed, r.content
    record = await bot.store.active_game_for_channel(channel.id)
    assert record is not None
    by_id = {u.id: u for u in users}
    deciders = {s.user_id: GreedyPlayer(seed + s.seat) for s in record.seats if s.user_id is not None}
    while True:
        record, game = await bot.service.game(record.id)
        if game.is_over:
            return record.id
        user_id = record.seats[game.current_player].user_id
        if user_id is None:  # a computer player's turn: the bot plays it
            await bot.computers.idle()
            await asyncio.sleep(0.01)
            continue
        move = deciders[user_id].choose(game)
        user = by_id[user_id]
        posted = len(server.channel_messages(channel))
        if isinstance(move, EndTurn):
            result = await user.slash(channel, "cubist end", keep=" ".join(map(str, move.keep)))
        else:
            result = await user.slash(channel, "cubist move", move=str(move))
        if result.failed or "not allowed" in result.content or "not your turn" in result.content:
            raise RuntimeError(f"the bot refused {move}: {result.content}")
        if isinstance(move, EndTurn):
            await wait_until(lambda n=posted: len(server.channel_messages(channel)) > n)


async def run_demo(out: Path, *, players: int = 3, computers: int = 1, seed: int = 7) -> int:
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{db}{suffix}").unlink()
    server = StandIn()
    await server.start()
    guild = server.add_guild("Cubist Club")
    channel = server.add_channel(guild, "cubist")
    users = [server.add_user(n) for n in NAMES[: players - computers]]
    bot = CubistBot(db, guild_ready_timeout=0.05, seed=seed, computer_pause=0.2)
    task = await start_bot(server, bot)
    try:
        game_id = await play_demo_game(server, bot, users, channel, seed, computers=computers)
        lines = [f"# Cubist demo: game {game_id}, {players} players ({computers} computer)\n"]
        n = 0
        for msg in server.channel_messages(channel):
            lines.append(f"**{msg.author.name}**: {msg.content}\n")
            for a in msg.attachments:
                n += 1
                name = f"{n:03d}-{a.filename}"
                (out / name).write_bytes(a.data)
                lines.append(f"![{name}]({name})\n")
        (out / "transcript.md").write_text("\n".join(lines), encoding="utf-8")
        print(f"Game {game_id} finished; {n} pictures and transcript.md written to {out}/")
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(task, 5)
        await server.stop()
    problems = [str(e) for e in server.errors] + [str(v) for v in server.violations]
    for p in problems:
        print("stand-in:", p)
    return 1 if problems else 0
