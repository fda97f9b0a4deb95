"""Load benchmark: many concurrent games through the real bot and the stand-in.

One process holds the stand-in (REST + gateway on 127.0.0.1), the real ``CubistBot`` with a
temporary SQLite file, and the simulated players.  Games live in their own channels spread
over several guilds; each game has two users.  Phase 1 opens every game (``/cubist lobby new``,
``join``, ``start``); phase 2 -- the measured one -- plays a fixed number of turns in each
game: the engine's ``GreedyPlayer`` decides and the stand-in's driver types ``/cubist move``
or ``/cubist end``, with at most ``concurrency`` games (= players acting) in flight.  A
finished turn counts once the bot's channel post with its table PNG is there.

Two ways to offer the load, one run each (``rates``):

* paced (``rate`` > 0 turns/s): turn k may begin at ``k / rate`` seconds, like players who
  come and go (an open loop).  This is how the goal is judged: does the bot keep up with
  25+ turns/s, and how fast does it answer meanwhile?  A bot that falls behind starts turns
  late (the "start lag" figure) and finishes fewer turns per second.
* unpaced (``rate`` 0): every player acts again as soon as answered (a closed loop with
  ``concurrency`` players): the saturation throughput.  Latency there is queueing by
  construction (Little's law: 64 players / 75 commands per s is ~0.85 s each).

Figures: moves and finished turns per second, command-to-reply latency (dispatch of the
interaction until the driver sees the answer: for ``/cubist move`` the private panel reply,
since a "thinking" deferral alone is not an answer; for ``/cubist end`` the reply that comes
after the table post), peak memory (RSS), and the REST requests the bot made against
Discord's global limit of 50 requests per second.  Interaction callbacks and webhook
follow-ups are exempt from that global limit on real Discord, so both the total and the
limited share are shown.

Settings come from the environment (``run()`` keyword arguments win), where the command
line's options put them (``python -m benchmarks load --games 50`` sets LOAD_GAMES=50;
``python -m benchmarks --help`` lists them all):

    LOAD_GAMES=1000 (--games)  LOAD_TURNS=3 (--turns)
    LOAD_CONCURRENCY=64 (--concurrency: players acting at once, at most)
    LOAD_RATE=26,0 (--rate: offered turns per s, one run per value; 0 = unpaced)
    LOAD_OPEN_CONCURRENCY=16 (--open-concurrency)
    LOAD_TIME_CAP=180 (--time-cap: seconds per phase; what is left is not started)
    LOAD_RENDER_WORKERS=2 (--render-workers: one run per value: 0 renders in a thread, N>0 in a process pool)
    LOAD_CHANNELS_PER_GUILD=100 (--channels-per-guild)

``python -m benchmarks load`` runs it; ``python -m benchmarks load --games 50`` is quick.
Stand-in limit checks stay on: violations and errors are reported as figures (a bug).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DISCORD_GLOBAL_LIMIT = 50.0  # requests per second for one bot (interaction endpoints exempt)
GOAL_TURNS_PER_S = 25.0
GOAL_P95_MS = 250.0
GOAL_RSS_MIB = 1024.0
REPLY_TIMEOUT_S = 60.0  # a slow answer is measured, not failed (the stand-in flags > 3 s acks)
SAMPLE_EVERY_S = 0.5
REFUSALS = ("not allowed", "not your turn", "is not a move", "something went wrong", "moved on while", "is over")


@dataclass(frozen=True)
class LoadSettings:
    games: int = 1000
    turns: int = 3
    concurrency: int = 64
    open_concurrency: int = 16
    time_cap_s: float = 180.0  # per phase (opening games; playing turns)
    render_workers: tuple[int, ...] = (2,)
    # Offered turns per second, one run each; 0 = unpaced (every player acts again at once:
    # the saturation throughput, where latency is queueing by construction).
    rates: tuple[float, ...] = (26.0, 0.0)
    channels_per_guild: int = 100
    players: int = 2
    seed: int = 1

    @classmethod
    def from_env(cls, **overrides: Any) -> LoadSettings:
        env = os.environ
        values: dict[str, Any] = {}
        if "LOAD_GAMES" in env:
            values["games"] = int(env["LOAD_GAMES"])
        if "LOAD_TURNS" in env:
            values["turns"] = int(env["LOAD_TURNS"])
        if "LOAD_CONCURRENCY" in env:
            values["concurrency"] = int(env["LOAD_CONCURRENCY"])
        if "LOAD_OPEN_CONCURRENCY" in env:
            values["open_concurrency"] = int(env["LOAD_OPEN_CONCURRENCY"])
        if "LOAD_TIME_CAP" in env:
            values["time_cap_s"] = float(env["LOAD_TIME_CAP"])
        if "LOAD_RENDER_WORKERS" in env:
            values["render_workers"] = tuple(int(x) for x in env["LOAD_RENDER_WORKERS"].split(",") if x.strip())
        if "LOAD_RATE" in env:
            values["rates"] = tuple(float(x) for x in env["LOAD_RATE"].split(",") if x.strip())
        if "LOAD_CHANNELS_PER_GUILD" in env:
            values["channels_per_guild"] = int(env["LOAD_CHANNELS_PER_GUILD"])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def build_world(server: Any, s: LoadSettings, shards: int = 1) -> list[tuple[Any, list[Any]]]:
    """One channel per game, ``channels_per_guild`` to a guild (guilds spread evenly over
    ``shards`` shards), and each game's players: (channel, users) per game."""
    tables: list[tuple[Any, list[Any]]] = []
    guild = None
    for i in range(s.games):
        if i % s.channels_per_guild == 0:
            n = i // s.channels_per_guild
            guild = server.add_guild(f"Cubist Club {n + 1}", shard=(n % shards, shards) if shards > 1 else None)
        assert guild is not None
        channel = server.add_channel(guild, f"cubist-{i + 1}")
        tables.append((channel, [server.add_user(f"p{i + 1}-{k + 1}", guilds=[guild]) for k in range(s.players)]))
    return tables


@dataclass
class Sample:
    t: float
    requests: int
    rss: int  # bytes, this process
    total: int  # bytes, PSS of this process plus its children (render pool)
    cpu_main: float  # CPU seconds of this process (all its threads)
    cpu_children: float  # CPU seconds of the live child processes (render pool)


@dataclass
class LoadResult:
    """What one configuration measured."""

    render_workers: int
    games: int
    turns_per_game: int
    concurrency: int
    rate: float = 0.0  # offered turns per second (0: unpaced)
    open_s: float = 0.0
    games_opened: int = 0
    play_s: float = 0.0
    moves: int = 0  # /cubist move commands applied in the play phase
    ends: int = 0  # /cubist end commands applied
    turns: int = 0  # finished turns whose channel post (with table PNG) arrived
    games_finished: int = 0
    games_played: int = 0
    move_ms: list[float] = field(default_factory=list)  # dispatch -> answer (studio reply)
    move_ack_ms: list[float] = field(default_factory=list)  # dispatch -> deferral
    end_ms: list[float] = field(default_factory=list)  # dispatch -> "your turn is over" (after the post)
    decide_s: float = 0.0  # load generator: GreedyPlayer.choose
    state_s: float = 0.0  # load generator: reading the game back for the decider
    requests_play: int = 0
    requests_total: int = 0
    routes: Counter[str] = field(default_factory=Counter)
    peak_requests_per_s: float = 0.0
    peak_rss: int = 0  # this process
    peak_total: int = 0  # PSS of this process and the render pool
    problem_count: int = 0
    stand_in_png_bytes: int = 0
    problems: list[str] = field(default_factory=list)
    capped: bool = False  # the play phase hit the time cap
    start_lag_ms: list[float] = field(default_factory=list)  # paced: how late each turn began
    open_capped: bool = False  # the open phase hit the time cap (fewer games opened)
    cpu_s: float = 0.0
    play_cpu_main: float = 0.0  # CPU seconds in the play phase: this process (all threads)
    play_cpu_pool: float = 0.0  # ... and the render pool processes


# --- measuring helpers --------------------------------------------------------------------------


def _p(xs: Sequence[float], q: float) -> float:
    if not xs:
        return float("nan")
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _statm_rss(pid: int | str) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _pss(pid: int | str) -> int:
    """Proportional set size: shared (e.g. forked copy-on-write) pages split between sharers."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return _statm_rss(pid)


def _children() -> list[str]:
    pids: list[str] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as f:
                pids += f.read().split()
    return pids


def _stat_cpu(pid: str) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def main_rss() -> int:
    """RSS of this process in bytes (the peak so far where /proc is missing)."""
    rss = _statm_rss("self")
    return rss or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def total_memory() -> tuple[int, float]:
    """(PSS of this process plus its children, CPU seconds of the children) -- the children
    being the render pool.  PSS, because forked workers share pages with this process."""
    kids = _children()
    own = _pss("self") if os.path.exists("/proc/self/smaps_rollup") else main_rss()
    return own + sum(_pss(p) for p in kids), sum(_stat_cpu(p) for p in kids)


_TOKEN = re.compile(r"/[A-Za-z0-9_\-]{40,}")
_ID = re.compile(r"/\d+")


def route_of(request: str) -> str:
    """'POST /channels/123/messages' -> 'POST /channels/{id}/messages' (tokens too)."""
    return _ID.sub("/{id}", _TOKEN.sub("/{token}", request))


def is_interaction_route(route: str) -> bool:
    """Interaction callbacks and webhook follow-ups: not bound by the bot's global rate limit."""
    path = route.split(" ", 1)[-1]
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


class Sampler:
    """Every SAMPLE_EVERY_S: request count and RSS (peak memory; peak request rate)."""

    def __init__(self, requests: list[str]) -> None:
        self._requests = requests
        self.samples: list[Sample] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            # Reading /proc/*/smaps_rollup walks the page tables (a few ms for a big process):
            # done on a thread, so the measuring does not stall the event loop it measures.
            total, kids_cpu, rss = await asyncio.to_thread(self._memory)
            self._add(total, kids_cpu, rss)
            await asyncio.sleep(SAMPLE_EVERY_S)

    @staticmethod
    def _memory() -> tuple[int, float, int]:
        total, kids_cpu = total_memory()
        return total, kids_cpu, main_rss()

    def _add(self, total: int, kids_cpu: float, rss: int) -> Sample:
        sample = Sample(time.perf_counter(), len(self._requests), rss, total, time.process_time(), kids_cpu)
        self.samples.append(sample)
        return sample

    def take(self) -> Sample:
        return self._add(*self._memory())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.take()

    def peak_rss(self) -> int:
        return max((s.rss for s in self.samples), default=0)

    def peak_total(self) -> int:
        return max((s.total for s in self.samples), default=0)

    def peak_rate(self, since: float, window: float = 1.0) -> float:
        """Most requests per second over any `window` seconds after `since` (from the samples)."""
        pts = [s for s in self.samples if s.t >= since]
        best = 0.0
        j = 0
        for s in pts:
            # the latest sample at least `window` before this one
            while j + 1 < len(pts) and pts[j + 1].t <= s.t - window:
                j += 1
            span = s.t - pts[j].t
            if span >= window:
                best = max(best, (s.requests - pts[j].requests) / span)
        return best


# --- the run ------------------------------------------------------------------------------------


class _Stop(Exception):
    """The bot refused or failed something: this game stops, the problem is reported."""


async def _wait_ready(bot: Any, task: asyncio.Task[None], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not bot.is_ready():
        if task.done():
            task.result()
            raise RuntimeError("the bot stopped before it became ready")
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not become ready")
        await asyncio.sleep(0.01)


@dataclass
class _Table:
    game_id: int
    channel: Any
    users_by_id: dict[int, Any]
    deciders: dict[int, Any] = field(default_factory=dict)
    turns_played: int = 0


class LoadRun:
    def __init__(self, settings: LoadSettings, render_workers: int, db: Path, rate: float = 0.0) -> None:
        self.settings = settings
        self.render_workers = render_workers
        self.db = db
        self.rate = rate
        self.result = LoadResult(render_workers, settings.games, settings.turns, settings.concurrency, rate)

    def _problem(self, text: str) -> None:
        self.result.problem_count += 1
        if len(self.result.problems) < 20:
            self.result.problems.append(text)

    async def run(self) -> LoadResult:
        from bot.client import CubistBot
        from standin import StandIn
        from standin.discord_target import point_discord_at

        s = self.settings
        # The stand-in checks every upload (limits, PNG header) but keeps only its size: the
        # memory figure is then the bot's, not the stand-in's archive of 4,000+ pictures.
        server = StandIn(keep_uploads=False)
        await server.start()
        self.server = server
        tables = build_world(server, s)
        bot = CubistBot(self.db, guild_ready_timeout=0.05, seed=s.seed, render_workers=self.render_workers)
        self.bot = bot
        point_discord_at(server.url)
        task = asyncio.create_task(bot.start(server.token))
        sampler = Sampler(server.requests)
        cpu0 = time.process_time()
        try:
            await _wait_ready(bot, task)
            sampler.start()
            game_ids = await self._open_every_game(tables)
            # Phase 2 (measured): play turns.  The stand-in's world (thousands of users,
            # channels, messages) lives in this process too: freeze what exists now, so the
            # collector's full passes do not re-scan it (measured: ~10% of the event loop and
            # pauses of 0.4 s otherwise).  A bot process on its own has no such heap.
            gc.collect()
            gc.freeze()
            first = sampler.take()
            before = len(server.requests)
            t1 = await self._play_opened_games(tables, game_ids)
            last = sampler.take()
            self.result.play_cpu_main = last.cpu_main - first.cpu_main
            self.result.play_cpu_pool = last.cpu_children - first.cpu_children
            after = len(server.requests)
            self.result.requests_play = after - before
            self.result.routes = Counter(route_of(r) for r in server.requests[before:after])
            self.result.requests_total = after
            self.result.peak_requests_per_s = sampler.peak_rate(t1)
        finally:
            await sampler.stop()
            self.result.cpu_s = time.process_time() - cpu0
            self.result.peak_rss = sampler.peak_rss()
            self.result.peak_total = sampler.peak_total()
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
                await asyncio.wait_for(task, 5)
            await server.stop()
            gc.unfreeze()  # the next configuration starts from a clean slate
        self.result.stand_in_png_bytes = sum(a.size for m in server.messages.values() for a in m.attachments)
        for e in server.errors:
            self._problem(f"stand-in error: {e}")
        for v in server.violations:
            self._problem(f"stand-in violation: {v}")
        return self.result

    async def _bounded(self, jobs: list[Any], concurrency: int, deadline: float) -> list[Any]:
        """Run the jobs, `concurrency` at a time; jobs not started by `deadline` are skipped."""
        gate = asyncio.Semaphore(concurrency)

        async def one(job: Any) -> Any:
            async with gate:
                if time.perf_counter() > deadline:
                    self.result.open_capped = True
                    job.close()
                    return None
                try:
                    return await job
                except _Stop as e:
                    self._problem(str(e))
                except Exception as e:  # a crash in one game must not hide the others' figures
                    self._problem(f"{type(e).__name__}: {e}")
                return None

        return await asyncio.gather(*(one(j) for j in jobs))

    async def _command(self, user: Any, channel: Any, command: str, **options: Any) -> Any:
        result = await user.slash(channel, command, timeout=REPLY_TIMEOUT_S, **options)
        if result.failed:
            raise _Stop(f"{command}: refused by the stand-in: {result.violations}")
        return result

    async def _open(self, channel: Any, users: list[Any]) -> int | None:
        # In the channel itself (a thread per game costs one thread per game, not per turn,
        # and the measured phase is the turns).
        await self._command(users[0], channel, "cubist lobby new", players=len(users), thread=False)
        for u in users[1:]:
            r = await self._command(u, channel, "cubist lobby join")
            if "joined" not in r.content:
                raise _Stop(f"join refused: {r.content}")
        r = await self._command(users[0], channel, "cubist lobby start")
        if "begins" not in r.content and "posted in the channel" not in r.content:  # the post, or a word after it
            raise _Stop(f"start refused: {r.content}")
        # The bot answers first, then posts the table: the game is open once that post is there.
        deadline = time.perf_counter() + REPLY_TIMEOUT_S
        while self._latest_post(channel.id, after=r.id) is None:
            if time.perf_counter() > deadline:
                raise _Stop(f"channel {channel.id}: no 'game begins' post after `/cubist lobby start`")
            await asyncio.sleep(0.01)
        record = await self.bot.store.games.active_game_for_channel(channel.id)
        return None if record is None else int(record.id)

    async def _open_every_game(self, tables: list[tuple[Any, list[Any]]]) -> list[int | None]:
        """Phase 1: opens a game in each channel (its id, or None where it did not open)."""
        s = self.settings
        t0 = time.perf_counter()
        jobs = [self._open(ch, users) for ch, users in tables]
        game_ids = await self._bounded(jobs, s.open_concurrency, t0 + s.time_cap_s)
        self.result.open_s = time.perf_counter() - t0
        self.result.games_opened = sum(1 for g in game_ids if g is not None)
        return game_ids

    async def _play_opened_games(self, tables: list[tuple[Any, list[Any]]], game_ids: list[int | None]) -> float:
        """Phase 2, the measured one: plays the games that opened, until the time cap.  When it
        began (``time.perf_counter``)."""
        t1 = time.perf_counter()
        self.deadline = t1 + self.settings.time_cap_s
        await self._play_all(
            [
                _Table(gid, ch, {u.id: u for u in users})
                for gid, (ch, users) in zip(game_ids, tables, strict=True)
                if gid is not None
            ]
        )
        self.result.play_s = time.perf_counter() - t1
        return t1

    async def _play_all(self, tables: list[_Table]) -> None:
        """`concurrency` players act at once; a game goes to the back of the queue after each
        turn, so all games (channels) take turns round-robin rather than one after another."""
        queue: asyncio.Queue[_Table] = asyncio.Queue()
        for table in tables:
            queue.put_nowait(table)

        # Paced runs offer turns like players who come and go: turn k may begin at
        # t0 + k / rate (an open loop; a bot that falls behind starts turns late, which is
        # recorded).  Unpaced runs let every player act again as soon as answered.
        t0 = time.perf_counter()
        slots = iter(range(10**9))

        async def wait_for_slot() -> None:
            if self.rate <= 0:
                return
            due = t0 + next(slots) / self.rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            self.result.start_lag_ms.append(max(0.0, -delay) * 1000)

        async def worker() -> None:
            while not queue.empty():
                if time.perf_counter() > self.deadline:
                    self.result.capped = True
                    return
                table = queue.get_nowait()
                await wait_for_slot()
                try:
                    more = await self._play_turn(table)
                except _Stop as e:
                    self._problem(str(e))
                    continue
                except Exception as e:  # one broken game must not hide the others' figures
                    self._problem(f"game {table.game_id}: {type(e).__name__}: {e}")
                    continue
                if more:
                    queue.put_nowait(table)

        await asyncio.gather(*(worker() for _ in range(self.settings.concurrency)))

    async def _play_turn(self, table: _Table) -> bool:
        """Play one whole turn of this game; True when the game wants more turns."""
        from engine.moves import EndTurn
        from engine.players import GreedyPlayer

        res = self.result
        if table.turns_played == 0:
            res.games_played += 1
        # The player reads the game once per turn and follows its own moves on that copy
        # (the engine is deterministic): a read per move would add a third of the bot's
        # store round trips for the load generator alone.
        t = time.perf_counter()
        record, game = await self.bot.service.queries.game(table.game_id)
        res.state_s += time.perf_counter() - t
        while True:
            if game.is_over:
                res.games_finished += 1
                return False
            seat = record.seats[game.current_player]
            decider = table.deciders.get(seat.seat)
            if decider is None:
                decider = GreedyPlayer(self.settings.seed * 1000 + table.game_id * 4 + seat.seat)
                table.deciders[seat.seat] = decider
            t = time.perf_counter()
            move = decider.choose(game)
            res.decide_s += time.perf_counter() - t
            assert seat.user_id is not None  # the load tables seat people only
            user = table.users_by_id[seat.user_id]
            if isinstance(move, EndTurn):
                await self._end(user, table.channel, " ".join(map(str, move.keep)))
                break
            await self._move(user, table.channel, str(move))
            game.apply(move)  # as the bot did (a refusal raised _Stop above)
        table.turns_played += 1
        return table.turns_played < self.settings.turns

    async def _move(self, user: Any, channel: Any, text: str) -> None:
        t = time.perf_counter()
        result = await user.slash(channel, "cubist move", move=text, wait=False)
        record = result.record
        await record.wait_until(lambda: record.acknowledged or record.answered(), REPLY_TIMEOUT_S, "ack")
        acked = time.perf_counter()
        await result.until_answered(REPLY_TIMEOUT_S)
        done = time.perf_counter()
        self._check(result, f"move {text}")
        self.result.move_ack_ms.append((acked - t) * 1000)
        self.result.move_ms.append((done - t) * 1000)
        self.result.moves += 1

    async def _end(self, user: Any, channel: Any, keep: str) -> None:
        t = time.perf_counter()
        result = await user.slash(channel, "cubist end", keep=keep, timeout=REPLY_TIMEOUT_S)
        self.result.end_ms.append((time.perf_counter() - t) * 1000)
        self._check(result, f"end {keep}".strip())
        self.result.ends += 1
        # The bot posts the table before it answers the player, so the post is there now.
        if self._latest_post(channel.id, after=result.id) is None:
            raise _Stop(f"channel {channel.id}: no turn post with a table picture after `/cubist end`")
        self.result.turns += 1

    def _latest_post(self, channel_id: int, after: int) -> Any:
        """The newest public message with a PNG in the channel, posted after snowflake `after`."""
        for message in reversed(self.server.messages.values()):
            if message.id <= after:
                return None
            if (
                message.channel_id == channel_id
                and not message.ephemeral
                and not message.deleted
                and any(a.filename.endswith(".png") and a.png_dimensions for a in message.attachments)
            ):
                return message
        return None

    @staticmethod
    def _check(result: Any, what: str) -> None:
        if result.failed:
            raise _Stop(f"{what}: answer refused by the stand-in: {result.violations}")
        content = result.content.lower()
        if any(r in content for r in REFUSALS) and "your turn is over" not in content:
            raise _Stop(f"{what}: the bot refused: {result.content[:200]}")


async def run_one(settings: LoadSettings, render_workers: int, rate: float = 0.0) -> LoadResult:
    with tempfile.TemporaryDirectory(prefix="cubist-load-") as tmp:
        return await LoadRun(settings, render_workers, Path(tmp) / "load.db", rate).run()


# --- reporting ----------------------------------------------------------------------------------


def _mib(n: float) -> str:
    return f"{n / 2**20:.0f}"


def figures(r: LoadResult) -> list[tuple[str, str]]:
    tag = f"w={r.render_workers}" + (f" @{r.rate:g}/s" if r.rate > 0 else "")
    play = max(r.play_s, 1e-9)
    actions = r.moves + r.ends
    turns_s = r.turns / play
    p95 = _p(r.move_ms, 0.95)
    req_s = r.requests_play / play
    limited = sum(n for route, n in r.routes.items() if not is_interaction_route(route))
    limited_s = limited / play
    per_turn = r.requests_play / r.turns if r.turns else float("nan")
    limited_per_turn = limited / r.turns if r.turns else float("nan")
    rss_ok = max(r.peak_rss, r.peak_total) < GOAL_RSS_MIB * 2**20
    ok = "meets" if turns_s >= GOAL_TURNS_PER_S else "misses"
    every = r.move_ms + r.end_ms
    p95_all = _p(every, 0.95)
    pace = f"paced at {r.rate:g} turns/s offered" if r.rate > 0 else "unpaced (saturation)"
    rows = [
        (
            f"{tag} setting",
            f"{r.games} games x {r.turns_per_game} turns, 2 players, {pace}, at most {r.concurrency} in flight, "
            f"render_workers={r.render_workers}{'; play time cap hit' if r.capped else ''}"
            f"{'; open time cap hit' if r.open_capped else ''}",
        ),
        (
            f"{tag} open: games started per s",
            f"{r.games_opened / max(r.open_s, 1e-9):.1f} ({r.games_opened} in {r.open_s:.1f} s)",
        ),
        (f"{tag} play phase (s)", f"{r.play_s:.1f} ({r.games_played} games, {r.games_finished} reached the end)"),
        (f"{tag} moves per s (move+end)", f"{actions / play:.1f} ({r.moves} moves + {r.ends} ends)"),
        (f"{tag} finished turns per s", f"{turns_s:.1f} ({r.turns} posted with table PNG; goal >= 25: {ok})"),
        (
            f"{tag} /cubist move reply ms (median / p95 / max)",
            f"{_p(r.move_ms, 0.5):.0f} / {p95:.0f} / {max(r.move_ms, default=float('nan')):.0f}"
            f" (goal p95 <= {GOAL_P95_MS:.0f}: {'meets' if p95 <= GOAL_P95_MS else 'misses'})",
        ),
        (
            f"{tag} /cubist move first response ms (median / p95)",
            f"{_p(r.move_ack_ms, 0.5):.0f} / {_p(r.move_ack_ms, 0.95):.0f} (the answer, or a deferral when slow)",
        ),
        (
            f"{tag} /cubist end reply ms (median / p95)",
            f"{_p(r.end_ms, 0.5):.0f} / {_p(r.end_ms, 0.95):.0f} (after the table post and the next player's DM)",
        ),
        (
            f"{tag} every command reply ms (median / p95)",
            f"{_p(every, 0.5):.0f} / {p95_all:.0f} (goal p95 <= {GOAL_P95_MS:.0f}:"
            f" {'meets' if p95_all <= GOAL_P95_MS else 'misses'})",
        ),
        (
            f"{tag} peak memory MiB (RSS of the process / PSS incl. render pool)",
            f"{_mib(r.peak_rss)} / {_mib(r.peak_total)} (goal < {GOAL_RSS_MIB:.0f}: {'meets' if rss_ok else 'misses'}"
            f"; the stand-in received {_mib(r.stand_in_png_bytes)} MiB of PNGs, checked, not kept)",
        ),
        (f"{tag} REST requests per s (all)", f"{req_s:.1f} (peak 1 s window {r.peak_requests_per_s:.0f})"),
        (
            f"{tag} REST requests per s under global limit",
            f"{limited_s:.1f} = {limited_s / DISCORD_GLOBAL_LIMIT:.0%} of Discord's {DISCORD_GLOBAL_LIMIT:.0f}/s"
            " (interaction callbacks and webhook follow-ups are exempt)",
        ),
        (
            f"{tag} REST requests per finished turn",
            f"{per_turn:.1f} all, {limited_per_turn:.1f} under the global limit"
            f" -> {DISCORD_GLOBAL_LIMIT / limited_per_turn if limited else float('inf'):.0f} turns/s max on Discord",
        ),
        (
            f"{tag} finished turns per s per CPU core",
            f"{turns_s / max((r.play_cpu_main + r.play_cpu_pool) / play, 1e-9):.1f} (goal >= 25; counts the stand-in"
            " and the players in this process too: the bot alone is in `load --processes 1`)",
        ),
        (
            f"{tag} CPU in play phase (cores busy)",
            f"main process {r.play_cpu_main / play:.2f}, render pool {r.play_cpu_pool / play:.2f} of {os.cpu_count()}"
            f" ({(r.play_cpu_main + r.play_cpu_pool) / max(actions, 1) * 1000:.0f} ms CPU per command)",
        ),
        (
            f"{tag} load generator time (decide / state reads, s)",
            f"{r.decide_s:.1f} / {r.state_s:.1f} (one read per turn; it waits on the bot's store)",
        ),
        *(
            [
                (
                    f"{tag} turn start lag behind the schedule ms (median / p95 / max)",
                    f"{_p(r.start_lag_ms, 0.5):.0f} / {_p(r.start_lag_ms, 0.95):.0f}"
                    f" / {max(r.start_lag_ms, default=float('nan')):.0f}"
                    + (" (the bot did not keep up)" if _p(r.start_lag_ms, 0.95) > 1000 else " (kept up)"),
                )
            ]
            if r.rate > 0
            else []
        ),
        (f"{tag} top routes", "; ".join(f"{route} {n}" for route, n in r.routes.most_common(4))),
        (f"{tag} problems (stand-in violations, refusals)", str(r.problem_count)),
    ]
    rows += [(f"{tag} problem", p[:300]) for p in r.problems[:5]]
    return rows


def run(**overrides: Any) -> list[tuple[str, str]]:
    """Run every configured (render_workers, rate) pair; returns (figure, value) rows."""
    settings = LoadSettings.from_env(**overrides)
    rows: list[tuple[str, str]] = []
    for workers in settings.render_workers:
        for rate in settings.rates:
            result = asyncio.run(run_one(settings, workers, rate))
            rows += figures(result)
            print(
                f"[load] render_workers={workers} rate={rate:g}: {result.turns} turns in {result.play_s:.1f} s",
                file=sys.stderr,
            )
    rows.append(
        ("peak RSS of the whole run (ru_maxrss, MiB)", _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024))
    )
    return rows


if __name__ == "__main__":
    from benchmarks.__main__ import run_module

    sys.exit(run_module("load"))
