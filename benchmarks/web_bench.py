"""Web board benchmark: viewers on many games, over loopback, one bot process.

The bot's side runs here: a real SQLite store, the game service and the web board.  The
viewers run in another process (benchmarks/web_viewers.py): each holds the page's event
stream and fetches the state on every new version, as the page does.  Moves are played
through the service (the path a Discord button or the page takes), round robin over the
games at a steady pace, each game's seats choosing with the greedy player.

Figures: how long after a move is committed every viewer has the new state (p50 / p95 /
max: goal p95 <= 1 s); the CPU per finished turn of the service and store with the viewers,
against the same games played with the web board off (what the board adds; the goal, the
whole bot's CPU within 20%, is measured with Discord and the posted pictures by ``load
--processes 1 --database sqlite --web-viewers-load 200``); the page's weight (HTML, script,
stylesheet and the state of a late 4-player game: goal <= 200 KiB).

    WEB_GAMES=50 (--web-games)  WEB_VIEWERS=200 (--web-viewers)  WEB_TURNS=2 (--web-turns)
    WEB_RATE=10 (--web-rate: moves per second over all games)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _settings() -> tuple[int, int, int, float]:
    return (
        int(os.environ.get("WEB_GAMES", "50")),
        int(os.environ.get("WEB_VIEWERS", "200")),
        int(os.environ.get("WEB_TURNS", "2")),
        float(os.environ.get("WEB_RATE", "10")),
    )


async def _play(
    games: int, turns: int, rate: float, *, web: bool, viewers: int
) -> tuple[float, int, list[tuple[int, int, float]], list[tuple[int, int, float]], int]:
    """Plays ``turns`` turns in each of ``games`` games; returns (CPU seconds of this
    process while playing, finished turns, commits (game, version, time), what the viewers
    saw, moves)."""
    from bot.service.game import GameService, TableSettings
    from bot.store import Store
    from bot.web.links import SPECTATOR, new_secret, sign
    from bot.web.server import WebBoard
    from engine import GameOptions
    from engine.players import GreedyPlayer

    tmp = Path(tempfile.mkdtemp(prefix="cubist-web-bench-"))
    store = await Store.open(tmp / "web.db")
    service = GameService(store, seed_source=random.Random(11), outbox=True)
    settings = TableSettings(turn_hours=48, reminder_hours=6)
    ids: list[int] = []
    for g in range(games):
        channel = 10_000 + g
        a, b = 2 * g + 1, 2 * g + 2
        await service.new(1, channel, a, f"A{g}", options=GameOptions(), settings=settings, lang="en", cooldown=False)
        await service.join(channel, b, f"B{g}")
        record, _game = await service.start(channel, a, lang="en")
        ids.append(record.id)
    commits: list[tuple[int, int, float]] = []
    service.queries.changes.listen(lambda game, version, _fresh: commits.append((game, version, time.time())))
    board = None
    proc = None
    seen: list[tuple[int, int, float]] = []
    if web:
        secret = new_secret()
        board = WebBoard(service, secret=secret, read_rate=(1000.0, 1000.0))
        await board.start()
        pairs = []
        expires = int(time.time() + 3600)
        for k in range(viewers):
            watched = ids[k % len(ids)]
            record, _g = await service.queries.game(watched)
            member = SPECTATOR if (k // len(ids)) % 2 else (record.seats[(k // len(ids)) // 2 % 2].user_id or 0)
            pairs.append([watched, sign(secret, watched, member, expires)])
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.web_viewers", f"http://127.0.0.1:{board.port}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(pairs) + "\n")
        proc.stdin.flush()
        ready = await asyncio.to_thread(proc.stdout.readline)
        assert ready.strip() == "ready", ready
    deciders = {g: GreedyPlayer(g) for g in ids}
    finished = moves = 0
    cpu0 = time.process_time()
    start = time.perf_counter()
    left = {g: turns for g in ids}
    while left:
        for game_id in list(left):
            record, game = await service.queries.game(game_id)
            move = deciders[game_id].choose(game)
            seat = game.current_player
            outcome = await service.play_in(game_id, record.seats[seat].user_id, move)
            moves += 1
            if outcome.turn_ended:
                finished += 1
                left[game_id] -= 1
                if not left[game_id] or outcome.finished:
                    del left[game_id]
            pause = start + moves / rate - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
    await asyncio.sleep(1.5)  # the last moves reach their viewers
    cpu = time.process_time() - cpu0
    if proc is not None:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        out = await asyncio.to_thread(proc.stdout.readline)
        seen = [tuple(x) for x in json.loads(out)]  # type: ignore[misc]
        proc.wait(10)
    if board is not None:
        await board.stop()
    await store.close()
    return cpu, finished, commits, seen, moves


def _page_weight() -> tuple[int, int]:
    """(bytes of HTML + script + stylesheet, bytes of a late 4-player game's state and the
    moves of the player on turn, uncompressed)."""
    from importlib import resources

    from bot.store import GameRecord, SeatRecord, Status
    from bot.store.records import ReminderPrefs
    from bot.web import view
    from bot.web.server import ui_words
    from engine import GameOptions
    from render.demo import DEMO_NAMES, busy_late_game

    static = resources.files("bot.web") / "static"
    assets = sum(len((static / n).read_bytes()) for n in ("board.html", "board.js", "board.css"))
    game = busy_late_game(3, players=4)
    seats = tuple(
        SeatRecord(1, i, i + 1, DEMO_NAMES[i], None, False, None, None, ReminderPrefs(), 0.0) for i in range(4)
    )
    record = GameRecord(1, 1, 1, 1, GameOptions(), Status.ACTIVE, 0, 0, 0, None, 3, 4, 99, 0, 0, seats)
    drawings = view.Drawings()
    state = view.page_state(record, game, "en", drawings=drawings, extra={"ui": ui_words("en")})
    play = drawings.play(record, game, "en")  # the player on turn's moves, fetched beside it
    return assets, len(state) + len(play)


def run() -> list[tuple[str, str]]:
    games, viewers, turns, rate = _settings()
    cpu_off, turns_off, _c, _s, moves_off = asyncio.run(_play(games, turns, rate, web=False, viewers=0))
    cpu_on, turns_on, commits, seen, moves_on = asyncio.run(_play(games, turns, rate, web=True, viewers=viewers))
    committed = {(g, v): t for g, v, t in commits}
    delays = sorted(t - committed[(g, v)] for g, v, t in seen if (g, v) in committed)
    expected = moves_on * viewers // games
    late = [d for d in delays if d > 1.0]

    def p(q: float) -> float:
        return delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")

    per_off = cpu_off / max(turns_off, 1) * 1000
    per_on = cpu_on / max(turns_on, 1) * 1000
    assets, state = _page_weight()
    return [
        ("games, viewers, moves per s", f"{games}, {viewers} ({viewers // games} per game), {rate:g}"),
        (
            "a move reaches every viewer, s (p50 / p95 / max)",
            f"{p(0.5):.3f} / {p(0.95):.3f} / {delays[-1] if delays else float('nan'):.3f}"
            f" (goal p95 <= 1: {'meets' if p(0.95) <= 1.0 else 'misses'}; {len(late)} of {len(delays)} later than 1 s)",
        ),
        (
            "states delivered / moves x viewers per game",
            f"{len(delays)} / {expected} (a slow page skips to the newest)",
        ),
        (
            "service and store CPU per finished turn, ms (web off / on with viewers)",
            f"{per_off:.1f} / {per_on:.1f}: the board costs {per_on - per_off:.1f} ms a turn, every picture drawn"
            f" for the first time ({turns_off} / {turns_on} turns, {moves_off} / {moves_on} moves; no Discord and no"
            " posted pictures here: the whole bot's figure, the goal's, is `load --processes 1 --database sqlite"
            " --web-viewers-load 200`)",
        ),
        (
            "page weight KiB (HTML + script + stylesheet; late 4-player state)",
            f"{assets / 1024:.1f} + {state / 1024:.1f} = {(assets + state) / 1024:.1f} (goal <= 200:"
            f" {'meets' if assets + state <= 200 * 1024 else 'misses'})",
        ),
    ]


if __name__ == "__main__":
    from benchmarks.__main__ import run_module

    sys.exit(run_module("web", "benchmarks.web_bench"))
