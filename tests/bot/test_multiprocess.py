"""Two bot processes over one PostgreSQL (issue 19): ``python -m bot --shards 0 --shard-count 2``
and ``--shards 1``, each carrying the guilds of its shard, sharing the games database.

A game in each shard's guild is played to its end at the same time.  The game of shard 1's
guild is played partly through the DM panel, whose buttons arrive on shard 0 (DMs belong to
shard 0), so the other process handles them; and shard 1's process is SIGKILLed in the middle
of a turn and started again.  Every finished turn has exactly one channel post and every
queued turn-start DM went out exactly once."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.demo import play_through_panel
from bot.store import Status, Store
from bot.store.connection import Tx
from engine import EndTurn
from engine.players import GreedyPlayer
from standin import Channel, Player, StandIn

from .processes import bot_env, kill, until

TURN_DM = re.compile(r"Your turn in Cubist game (\d+) .*\(turn (\d+)\)")
REMINDER_DM = re.compile(r"Reminder (\d)/3: it is still your turn in Cubist game (\d+)")
CHANNEL_NOTE = re.compile(r"has not finished their turn in game (\d+) after 3 reminders")


class Processes:
    def __init__(self, standin: StandIn, database_url: str, cwd: Path, **settings: str) -> None:
        self.standin = standin
        self.cwd = cwd
        self.env = bot_env(standin, DATABASE_URL=database_url, SHARD_COUNT="2", **settings)
        self.running: dict[int, asyncio.subprocess.Process] = {}
        self.starts: list[int] = []  # shard of each process started

    async def start(self, shard: int) -> None:
        before = self.standin.gateway.shards.get(shard)
        self.starts.append(shard)
        self.running[shard] = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--shards", str(shard), env=self.env | {"SHARDS": str(shard)}, cwd=self.cwd
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90
        while True:
            session = self.standin.gateway.shards.get(shard)
            if session is not None and session is not before and session.conn is not None:
                break
            assert self.running[shard].returncode is None, f"the bot of shard {shard} stopped"
            assert loop.time() < deadline, f"the bot of shard {shard} never identified"
            await asyncio.sleep(0.1)
        # Connected is enough: the guilds reach the bot on the gateway before any interaction.

    async def kill(self, shard: int) -> None:
        await kill(self.running.pop(shard))

    async def stop_all(self) -> None:
        for process in self.running.values():
            if process.returncode is None:
                process.terminate()
        for process in self.running.values():
            try:
                await asyncio.wait_for(process.wait(), 60)
            except TimeoutError:
                await kill(process)


async def play_game(
    standin: StandIn,
    store: Store,
    channel: Channel,
    users: list[Player],
    seed: int,
    *,
    panel_turns: bool = False,
    interrupt: Any = None,
) -> int:
    """Plays a 2-player game in ``channel`` to its end, typing moves; with ``panel_turns``
    every other turn through the DM panel.  ``interrupt()`` is awaited once, in the middle of
    the first turn from turn 4 on that has a move before its end (the deal is random, so turn 4
    itself may be a bare end).  Returns the game id."""
    first = await users[0].slash(channel, "cubist lobby new", players=2)
    assert not first.failed, first
    assert "joined" in (await users[1].slash(channel, "cubist lobby join")).content
    assert not (await users[0].slash(channel, "cubist lobby start")).failed
    record = await store.games.active_game_for_channel(channel.id)
    assert record is not None
    by_id = {u.id: u for u in users}
    deciders = {s.user_id: GreedyPlayer(seed + s.seat) for s in record.seats}

    async def game(game_id: int) -> Any:
        return await store.games.load_game(game_id)

    # What play_through_panel reads of the bot: its service's look-ups.
    reader = SimpleNamespace(service=SimpleNamespace(queries=SimpleNamespace(game=game)))
    interrupted = False
    while True:
        record, state = await store.games.load_game(record.id)
        if state.is_over:
            return record.id
        user = by_id[record.seats[state.current_player].user_id or 0]
        move = deciders[user.id].choose(state)
        if interrupt is not None and not interrupted and state.state.turn >= 4 and state.state.this_turn.plays:
            interrupted = True
            await interrupt()
        posted = len(standin.channel_messages(channel))
        if panel_turns and state.state.turn % 2 == 1:
            await play_through_panel(standin, reader, user, record.id, move)  # type: ignore[arg-type]
        elif isinstance(move, EndTurn):
            result = await user.slash(channel, "cubist end", keep=" ".join(map(str, move.keep)))
            assert not result.failed and "not your turn" not in result.content, result.content
        else:
            result = await user.slash(channel, "cubist move", move=str(move))
            assert not result.failed and "not allowed" not in result.content, result.content
        if isinstance(move, EndTurn):
            await until(lambda n=posted: len(standin.channel_messages(channel)) > n, "the turn post")
        else:
            fresh, _ = await store.games.load_game(record.id)
            assert fresh.version == record.version + 1, "the move was not stored"


def turn_posts(standin: StandIn, channel: Channel) -> list[Any]:
    """The start announcement, each turn's post and the final scores."""
    return [
        m
        for m in standin.channel_messages(channel)
        if m.attachments  # the table picture (only the newest post keeps its Play button)
    ]


async def test_two_processes_one_postgresql(standin: StandIn, postgres_url: str, tmp_path: Path) -> None:
    guilds = [standin.add_guild(f"Club {n}", shard=(n, 2)) for n in range(2)]
    channels = [standin.add_channel(g, "cubist") for g in guilds]
    users = [standin.add_user(name) for name in ("ada", "bruno", "chloe", "dmitri")]
    processes = Processes(standin, postgres_url, tmp_path)
    store = await Store.open(postgres_url, cache_size=0)  # the test reads the games here
    try:
        await processes.start(0)
        await processes.start(1)

        async def restart_shard_1() -> None:
            await processes.kill(1)
            await processes.start(1)

        ids = await asyncio.gather(
            play_game(standin, store, channels[0], users[:2], seed=3),
            play_game(standin, store, channels[1], users[2:], seed=5, panel_turns=True, interrupt=restart_shard_1),
        )

        async def count_unsent(tx: Tx) -> int:
            return int((await tx.one("SELECT count(*) AS n FROM jobs WHERE slot IS NULL AND due_at IS NOT NULL"))["n"])

        async def unsent() -> int:
            return await store.db.read(count_unsent)

        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120  # a hang guard
        while await unsent():  # the last posts and DMs go out soon after the last move
            assert loop.time() < deadline, "the outbox never drained"
            await asyncio.sleep(0.1)
        outbox: dict[int, list[tuple[str, bool, int]]] = {}
        for game_id in ids:
            record, game = await store.games.load_game(game_id)
            assert game.is_over and record.status == Status.FINISHED

            async def rows_of(tx: Tx, g: int = game_id) -> list[tuple[str, bool, int]]:
                sql = "SELECT kind, done_at AS sent_at, failed FROM jobs WHERE game_id = ? AND slot IS NULL"
                rows = await tx.all(sql, (g,))
                return [(r["kind"], r["sent_at"] is not None, r["failed"]) for r in rows]

            outbox[game_id] = await store.db.read(rows_of)
        assert processes.starts == [0, 1, 1]  # shard 1's process was killed mid-turn and started again
        for game_id, channel, seated in zip(ids, channels, (users[:2], users[2:]), strict=True):
            record, game = await store.games.load_game(game_id)
            rows = outbox[game_id]
            assert all(sent and not failed for _kind, sent, failed in rows), rows
            # One post per finished turn (the last one is the final scores), plus the start.
            posts = turn_posts(standin, channel)
            assert len(posts) == game.state.turn + 2, [m.content[:40] for m in posts]
            assert "The game is over" in posts[-1].content
            # No turn-start DM twice (a DM whose turn was already over is rightly not sent).
            starts = [
                (int(m.group(1)), int(m.group(2)))
                for u in seated
                for dm in standin.dms(u)
                if (m := TURN_DM.search(dm.content))
            ]
            assert starts and len(starts) == len(set(starts)), sorted(starts)
            assert {g for g, _turn in starts} == {game_id}
        # The panel of the game of shard 1's guild was used, so shard 0 handled its buttons.
        prefix = f"cubist:{ids[1]}:"
        clicks = [
            r
            for r in standin.interactions.values()
            if r.channel.guild_id is None and str(r.payload.get("data", {}).get("custom_id", "")).startswith(prefix)
        ]
        assert clicks and all(r.response_type is not None for r in clicks)
    finally:
        await store.close()
        await processes.stop_all()
        standin.take_errors()
        standin.take_violations()


async def test_reminders_once_across_processes(standin: StandIn, postgres_url: str, tmp_path: Path) -> None:
    """Both processes look at due timers five times a second; a game waits in each shard's
    guild while its player in turn stays away.  Time is moved on by making the waiting
    reminder due now in the database (the processes run on the real clock): each of the
    three reminder DMs and the channel note after them goes out exactly once per game, sent by
    whichever process claimed it, and one process is SIGKILLed and started again halfway."""
    guilds = [standin.add_guild(f"Club {n}", shard=(n, 2)) for n in range(2)]
    channels = [standin.add_channel(g, "cubist") for g in guilds]
    users = [standin.add_user(name) for name in ("ada", "bruno", "chloe", "dmitri")]
    processes = Processes(standin, postgres_url, tmp_path, TIMER_POLL_SECONDS="0.2")
    store = await Store.open(postgres_url, cache_size=0)
    try:
        await processes.start(0)
        await processes.start(1)
        waiting: dict[int, Player] = {}  # game id -> its player in turn
        for channel, pair in zip(channels, (users[:2], users[2:]), strict=True):
            assert not (await pair[0].slash(channel, "cubist lobby new", players=2)).failed
            assert "joined" in (await pair[1].slash(channel, "cubist lobby join")).content
            assert not (await pair[0].slash(channel, "cubist lobby start")).failed
            record = await store.games.active_game_for_channel(channel.id)
            assert record is not None
            _, game = await store.games.load_game(record.id)
            seated = {u.id: u for u in pair}
            waiting[record.id] = seated[record.seats[game.current_player].user_id or 0]
        await until(
            lambda: all(any(TURN_DM.search(dm.content) for dm in standin.dms(u)) for u in waiting.values()),
            "the turn-start DMs",
        )

        def reminders(game_id: int) -> list[int]:
            found = (REMINDER_DM.search(dm.content) for dm in standin.dms(waiting[game_id]))
            return [int(m.group(1)) for m in found if m and int(m.group(2)) == game_id]

        def notes(game_id: int) -> int:
            found = (CHANNEL_NOTE.search(m.content) for c in channels for m in standin.channel_messages(c))
            return sum(1 for m in found if m and int(m.group(1)) == game_id)

        async def make_due_now(tx: Tx) -> int:
            return await tx.execute("UPDATE jobs SET due_at = ? WHERE slot = 'nudge'", (time.time() - 1,))

        async def busy(tx: Tx) -> int:
            """Reminder jobs a process holds or could run now: sent, perhaps, but not yet put back."""
            sql = "SELECT count(*) AS n FROM jobs WHERE slot = 'nudge' AND (claimed_by IS NOT NULL OR due_at < ?)"
            return int((await tx.one(sql, (time.time() + 3600,)))["n"])

        async def settled(what: str) -> None:
            # A DM is seen before the process that sent it records it: killing it in between
            # would rightly send that reminder again after the lease, so wait for the record.
            loop = asyncio.get_running_loop()
            hang_guard = loop.time() + 120
            while await store.db.read(busy):
                assert loop.time() < hang_guard, what
                await asyncio.sleep(0.05)

        # The process that sent a turn-start DM holds its nudge until it records the first
        # reminder's time: moving the reminder to now before that would be written over.
        await settled("the turn-start DMs recorded")
        for step in (1, 2, 3, 4):  # three reminders, then the channel note
            assert await store.db.write(make_due_now) == 2
            if step == 4:
                await until(lambda: all(notes(g) for g in waiting), "the channel notes")
            else:
                await until(lambda s=step: all(len(reminders(g)) >= s for g in waiting), f"reminder {step}")
            await settled(f"step {step} recorded")
            if step == 2:
                await processes.kill(1)
                await processes.start(1)
        for game_id in waiting:
            assert reminders(game_id) == [1, 2, 3], reminders(game_id)
            assert notes(game_id) == 1
    finally:
        await store.close()
        await processes.stop_all()
        standin.take_errors()
        standin.take_violations()
