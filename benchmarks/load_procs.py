"""The load benchmark over several bot processes:

    python -m benchmarks load --processes 2 --database postgresql

The stand-in and the simulated players stay in this process; the bot runs as ``--processes``
separate ``python -m bot --shards i --shard-count N`` processes sharing one database, with the
guilds spread over the shards.  The same load is first offered to one bot process on SQLite,
so the two configurations are side by side in one run, measured the same way (CPU of each bot
process from /proc, the players' answers as in ``load_bench``).  On a machine of two cores the
absolute gain is small: CPU per finished turn per process is the figure that shows how the
work divides.

The PostgreSQL server is a private one started for the run (the ``pgserver`` wheel of the
test extra; fsync on, as a production server) unless ``LOAD_DATABASE_URL`` names one.
After the load, the commit time of a move on that server (``store.moves.apply_move``: one
transaction writing the move, its snapshot and what follows it) is measured on its own:
goal p95 <= 5 ms.

Settings: those of load_bench (LOAD_GAMES, LOAD_TURNS, LOAD_CONCURRENCY, LOAD_RATE...) plus
LOAD_PROCESSES=2 (--processes), LOAD_DATABASE=postgresql (--database), LOAD_DATABASE_URL
(--database-url), LOAD_COMMITS=300 (--commits), LOAD_WEB_VIEWERS=0 (--web-viewers-load),
LOAD_WEB_PAIRS=5 (--web-pairs); the options of ``python -m benchmarks`` set them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .load_bench import LoadResult, LoadRun, LoadSettings, Sampler, _p, build_world, figures, route_of

ROOT = Path(__file__).resolve().parents[1]
GOAL_COMMIT_P95_MS = 5.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds of a process and its reaped children (user + system), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / CLOCK_TICKS


class ProcessLoadRun(LoadRun):
    """``LoadRun`` with the bot in ``processes`` shard processes on ``database``."""

    def __init__(
        self, settings: LoadSettings, database: str, processes: int, rate: float, label: str, viewers: int = 0
    ) -> None:
        super().__init__(settings, 0, Path("unused"), rate)
        self.database = database
        self.processes = processes
        self.label = label
        self.viewers = viewers  # web board viewers (4 a game), in a process of their own
        self.states_seen = 0
        self.cpu_per_process: list[float] = []

    async def run(self) -> LoadResult:
        from bot.config import database_target
        from bot.store import Store
        from standin import StandIn
        from standin.pytest_plugin import bot_environment

        s = self.settings
        server = StandIn(keep_uploads=False)
        await server.start()
        self.server = server
        tables = build_world(server, s, self.processes)
        env = os.environ | bot_environment(server) | {
            "PYTHONPATH": str(ROOT), "DATABASE_URL": self.database, "SHARD_COUNT": str(self.processes),
            "LOG_LEVEL": "WARNING", "RENDER_WORKERS": "0",
        }  # fmt: skip
        web_port = 0
        if self.viewers:
            from bot.demo import free_port  # the bot serves its web board; the viewers' links are signed with this

            web_port = free_port()
            env |= {
                "PUBLIC_URL": f"http://127.0.0.1:{web_port}", "WEB_PORT": str(web_port), "WEB_HOST": "127.0.0.1",
                "WEB_SECRET": WEB_SECRET,
            }  # fmt: skip
        procs = []
        store = None
        watching = None
        try:
            for shard in range(self.processes):
                procs.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable, "-m", "bot", env=env | {"SHARDS": str(shard)}, cwd=tempfile.gettempdir()
                    )
                )
            deadline = time.perf_counter() + 120
            while len([x for x in server.gateway.shards.values() if x.conn is not None]) < self.processes:
                if time.perf_counter() > deadline or any(p.returncode is not None for p in procs):
                    raise RuntimeError("the bot processes did not all connect")
                await asyncio.sleep(0.1)
            await asyncio.sleep(2.0)  # guild streaming settles
            target = database_target(self.database)
            store = await Store.open(target.path if target.kind == "sqlite" else target.where, cache_size=0)
            # What LoadRun reads of "the bot": the game as stored (the players' view).
            queries = SimpleNamespace(game=store.games.load_game)
            self.bot = SimpleNamespace(store=store, service=SimpleNamespace(queries=queries))  # type: ignore[assignment]
            sampler = Sampler(server.requests)
            sampler.start()  # samples the requests count for the peak 1 s window
            game_ids = await self._open_every_game(tables)
            if self.viewers:
                opened = [g for g in game_ids if g is not None]
                seats = {g: [s.user_id or 0 for s in (await store.games.get_game(g)).seats] for g in opened}
                watching = await _watch(seats, self.viewers, web_port)
            cpu0 = [process_cpu(p.pid) for p in procs]
            before = len(server.requests)
            t1 = await self._play_opened_games(tables, game_ids)
            self.cpu_per_process = [process_cpu(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
            if watching is not None:  # what the viewers got (each a state per change they were woken by)
                assert watching.stdin is not None and watching.stdout is not None
                await asyncio.sleep(1.0)
                watching.stdin.write(b"\n")
                await watching.stdin.drain()
                self.states_seen = len(json.loads(await asyncio.wait_for(watching.stdout.readline(), 30)))
            self.result.play_cpu_main = sum(self.cpu_per_process)
            after = len(server.requests)
            self.result.requests_play = after - before
            from collections import Counter

            self.result.routes = Counter(route_of(r) for r in server.requests[before:after])
            self.result.requests_total = after
            await sampler.stop()
            self.result.peak_requests_per_s = sampler.peak_rate(t1)
        finally:
            if watching is not None:
                watching.terminate()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watching.wait(), 10)
            if store is not None:
                await store.close()
            for p in procs:
                if p.returncode is None:
                    p.terminate()
            for p in procs:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(p.wait(), 20)
            await server.stop()
        for e in server.errors:
            self._problem(f"stand-in error: {e}")
        for v in server.violations:
            self._problem(f"stand-in violation: {v}")
        return self.result


WEB_SECRET = "load-benchmark-web-secret"


async def _watch(seats: dict[int, list[int]], viewers: int, port: int) -> asyncio.subprocess.Process:
    """Starts the web board's viewers (benchmarks/web_viewers.py), four a game, each with
    the link of one of its players (two viewers a player: their rate limits are theirs, as
    spectators' are their addresses', and here every viewer has the same address); returns
    once every event stream is open."""
    from bot.web.links import sign

    expires = int(time.time() + 3600)
    games = list(seats)[: max(1, viewers // 4)]
    pairs = [[g, sign(WEB_SECRET, g, seats[g][k % 2], expires)] for g in games for k in range(4)][:viewers]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.web_viewers", f"http://127.0.0.1:{port}",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=str(ROOT),
        env=os.environ | {"PYTHONPATH": str(ROOT)}, limit=64 << 20,  # what they saw comes as one line
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(pairs) + "\n").encode())
    await proc.stdin.drain()
    ready = await asyncio.wait_for(proc.stdout.readline(), 60)
    if ready.strip() != b"ready":
        raise RuntimeError(f"the web viewers did not start: {ready!r}")
    return proc


async def commit_times(database: str, commits: int, channels: int = 900_000) -> list[float]:
    """Milliseconds per ``apply_move`` (one write transaction) on ``database``, in 10 games."""
    from bot.store import Store
    from engine.players import GreedyPlayer

    times: list[float] = []
    async with await Store.open(database, cache_size=64) as store:
        games = []
        for channel in range(10):
            rec = await store.lobby.create_lobby(1, channels + channel, 1)
            for i in range(2):
                await store.lobby.join_seat(rec.id, 10 * channel + i + 1, f"p{i}")
            rec, _ = await store.moves.start_game(rec.id, channel)
            games.append(rec.id)
        player = GreedyPlayer(1)
        while len(times) < commits and games:
            for game_id in list(games):
                record, game = await store.games.load_game(game_id)
                if game.is_over:
                    games.remove(game_id)
                    continue
                move = player.choose(game)
                t = time.perf_counter()
                await store.moves.apply_move(game_id, record.version, move)
                times.append((time.perf_counter() - t) * 1000)
    return times


def _set_async_commit(url: str) -> None:
    async def alter() -> None:
        import asyncpg  # type: ignore[import-untyped]

        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                "ALTER DATABASE " + await conn.fetchval("SELECT current_database()") + " SET synchronous_commit = off"
            )
        finally:
            await conn.close()

    asyncio.run(alter())


def _rows(tag: str, run: ProcessLoadRun) -> list[tuple[str, str]]:
    r = run.result
    theirs = f"w={r.render_workers}" + (f" @{r.rate:g}/s" if r.rate > 0 else "")
    rows = [(f"{tag}{name[len(theirs) :]}", value) for name, value in figures(r)]
    # Memory, the render pool and the in-process per-core figure (stand-in included) are the
    # single-process benchmark's; here the bots' own CPU is measured per process below.
    rows = [
        row for row in rows if "memory" not in row[0] and "render pool" not in row[1] and "per CPU core" not in row[0]
    ]
    turns = max(r.turns, 1)
    per = ", ".join(f"{cpu / turns * 1000:.1f}" for cpu in run.cpu_per_process)
    rows.append(
        (f"{tag} CPU ms per finished turn, each bot process", f"{per} (sum {r.play_cpu_main / turns * 1000:.1f})")
    )
    per_core = turns / max(r.play_cpu_main, 1e-9)
    rows.append(
        (
            f"{tag} finished turns per bot CPU second (per core)",
            f"{per_core:.1f} (goal >= 25: {'meets' if per_core >= 25 else 'misses'})",
        )
    )
    return rows


async def _web_cost(
    settings: LoadSettings, tmp: str, rate: float, viewers: int, single: ProcessLoadRun
) -> list[tuple[str, str]]:
    """The bot's CPU per finished turn with the web board serving ``viewers``, against the
    same load with the board off.  One run of each varies by 10-15% from run to run on a
    shared machine, so the pairs are run ``LOAD_WEB_PAIRS`` times (off, on, off, on...) and
    the median of their ratios is the figure."""
    rows: list[tuple[str, str]] = []
    pairs = max(1, int(os.environ.get("LOAD_WEB_PAIRS", "5")))
    ratios: list[tuple[float, float]] = []
    for i in range(pairs):
        if i:
            single = ProcessLoadRun(settings, f"sqlite:///{tmp}/load-{i}.db", 1, rate, "1 process, SQLite")
            await single.run()
        watched = ProcessLoadRun(
            settings, f"sqlite:///{tmp}/load-web-{i}.db", 1, rate, "1 process, SQLite, web", viewers=viewers
        )
        await watched.run()
        if not i:
            rows += _rows(f"[1 process, SQLite, {viewers} web viewers]", watched)
            changes = watched.result.moves + watched.result.ends
            rows.append(
                (
                    "web viewers: states received",
                    f"{watched.states_seen} (moves and ends over all {watched.result.games_opened} games: {changes};"
                    f" {min(watched.result.games_opened, viewers // 4)} games watched, by 4 viewers each)",
                )
            )
        base = single.cpu_per_process[0] / max(single.result.turns, 1) * 1000
        with_web = watched.cpu_per_process[0] / max(watched.result.turns, 1) * 1000
        ratios.append((base, with_web))
    each = ", ".join(f"{b:.1f} / {w:.1f} ({w / b - 1:+.0%})" for b, w in ratios)
    middle = sorted(ratios, key=lambda r: r[1] / r[0])[len(ratios) // 2]
    change = middle[1] / middle[0] - 1
    rows.append(
        (
            f"bot CPU ms per finished turn, web board off / on with viewers ({pairs} pairs)",
            f"{each}; median {change:+.0%} (goal within +20%: {'meets' if change <= 0.2 else 'misses'})",
        )
    )
    return rows


async def _measure(
    settings: LoadSettings, processes: int, database: str, url: str | None, commits: int
) -> list[tuple[str, str]]:
    from bot.store.local_postgres import LocalPostgres

    rows: list[tuple[str, str]] = []
    rate = settings.rates[0] if settings.rates else 0.0
    with tempfile.TemporaryDirectory(prefix="cubist-load-") as tmp:
        single = ProcessLoadRun(settings, f"sqlite:///{tmp}/load.db", 1, rate, "1 process, SQLite")
        await single.run()
        rows += _rows("[1 process, SQLite]", single)
        viewers = int(os.environ.get("LOAD_WEB_VIEWERS", "0"))
        if viewers:  # the same again with the web board serving viewers
            rows += await _web_cost(settings, tmp, rate, viewers, single)
        if database != "postgresql":
            return rows
        server = None
        if url is None:
            server = LocalPostgres(Path(tmp) / "pg").start()  # durable settings: commits as in production
            url = server.create_database("load")
        try:
            multi = ProcessLoadRun(settings, url, processes, rate, f"{processes} processes, PostgreSQL")
            await multi.run()
            rows += _rows(f"[{processes} processes, PostgreSQL]", multi)
            times = await commit_times(url, commits)
            p95 = _p(times, 0.95)
            rows.append(
                (
                    "PostgreSQL move commit ms (median / p95 / max)",
                    f"{_p(times, 0.5):.2f} / {p95:.2f} / {max(times):.2f} over {len(times)} moves"
                    f" (goal p95 <= {GOAL_COMMIT_P95_MS:.0f}: {'meets' if p95 <= GOAL_COMMIT_P95_MS else 'misses'})",
                )
            )
            # The same loop with synchronous_commit off (WAL flushed by the server within
            # ~0.2 s; what SQLite's synchronous=NORMAL also trades): the fsync's share.
            await asyncio.to_thread(_set_async_commit, url)
            relaxed = await commit_times(url, commits, channels=950_000)
            rows.append(
                (
                    "PostgreSQL move commit ms, synchronous_commit=off (median / p95)",
                    f"{_p(relaxed, 0.5):.2f} / {_p(relaxed, 0.95):.2f}",
                )
            )
            lite = await commit_times(f"{tmp}/commits.db", commits)
            rows.append(
                ("SQLite move commit ms (median / p95), same loop", f"{_p(lite, 0.5):.2f} / {_p(lite, 0.95):.2f}")
            )
        finally:
            if server is not None:
                server.stop()
    return rows


def run(**overrides: Any) -> list[tuple[str, str]]:
    env = os.environ
    processes = int(env.get("LOAD_PROCESSES", "2"))
    database = env.get("LOAD_DATABASE", "postgresql").lower()
    if database not in ("postgresql", "sqlite"):
        raise SystemExit(f"--database must be postgresql or sqlite, not {database!r}")
    if database == "sqlite" and processes != 1:
        raise SystemExit("several processes need a shared database: --database postgresql")
    # Smaller defaults than load_bench's (each configuration starts real processes); the
    # LOAD_* settings still win.
    defaults: dict[str, Any] = {"games": 60, "turns": 3, "rates": (0.0,)}
    named = {"games": "LOAD_GAMES", "turns": "LOAD_TURNS", "rates": "LOAD_RATE", "channels_per_guild": ""}
    games = int(env.get("LOAD_GAMES", defaults["games"]))
    if "LOAD_CHANNELS_PER_GUILD" not in env:  # several guilds per shard, so every process has work
        defaults["channels_per_guild"] = max(1, games // (4 * processes))
    settings = LoadSettings.from_env(**{k: v for k, v in defaults.items() if named[k] not in env} | overrides)
    commits = int(env.get("LOAD_COMMITS", "300"))
    return asyncio.run(_measure(settings, processes, database, env.get("LOAD_DATABASE_URL"), commits))


if __name__ == "__main__":
    from benchmarks.__main__ import run_module

    sys.exit(run_module("load", "benchmarks.load_procs"))
