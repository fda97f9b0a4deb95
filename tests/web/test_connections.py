"""Connection hygiene: half-sent and idle connections are closed, connections are capped
per address and in total, a stream's place is free as its page leaves, the link's token
moves into a cookie; and 2,000 half-open connections against a bot process limited to
1,024 open files leave its viewers their updates and the bot its answers."""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import aiohttp

from bot.demo import free_port
from bot.web.events import version_of
from bot.web.links import SPECTATOR, sign
from bot.web.server import COOKIE, MAX_STREAMS, WebBoard
from standin import StandIn
from standin.pytest_plugin import bot_environment

from .conftest import Board, board_links, start_game, until

ROOT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def another_board(board: Board, **options: Any) -> AsyncIterator[WebBoard]:
    web = WebBoard(board.service, secret=board.web.secret, clock=board.clock, **options)
    await web.start()
    try:
        yield web
    finally:
        await web.stop()


async def served(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection from ``source`` that was admitted (it answers /healthz), or None."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    except (ConnectionError, asyncio.IncompleteReadError):
        return None
    assert head.startswith(b"HTTP/1.1 200")
    length = int(
        next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1]
    )
    await reader.readexactly(length)
    return reader, writer


async def test_half_sent_and_idle_connections_are_closed(board: Board) -> None:
    async with another_board(board, idle_timeout=0.5) as web:
        # Headers that never end (slowloris): the connection is closed, nothing answered.
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        # A connection idle after its answer is closed too.
        kept = await served(web.port)
        assert kept is not None
        assert await asyncio.wait_for(kept[0].read(), 10) == b""
        kept[1].close()


async def test_connections_are_capped_per_address_and_in_total(board: Board) -> None:
    # 127.0.0.1 is the trusted proxy: no cap of its own, and a quarter of the 8 kept for it.
    async with another_board(board, trusted_proxies=("127.0.0.1",), per_address=3, connections=8) as web:
        held = [await served(web.port, "127.0.0.2") for _ in range(4)]
        assert [h is not None for h in held] == [True, True, True, False]  # 3 per address
        held += [await served(web.port, source) for source in ("127.0.0.3", "127.0.0.3", "127.0.0.3", "127.0.0.4")]
        assert [h is not None for h in held[4:]] == [True, True, True, False]  # 6 of 8 for all others
        held += [await served(web.port) for _ in range(3)]
        assert [h is not None for h in held[8:]] == [True, True, False]  # 8 in all
        assert web.guard is not None and web.guard.numbers() == {"connections": 8, "cap": 8, "refused": 3}
        for h in held:
            if h is not None:
                h[1].close()
        await until(lambda: web.guard is not None and web.guard.open == 0, 5, "the closed connections were counted")
        assert await served(web.port, "127.0.0.2") is not None


async def test_a_streams_place_is_free_as_its_page_leaves(board: Board) -> None:
    url = f"{board.base}/g/{board.game_id}/events"
    token = {"X-Cubist-Token": board.token(await board.current_user())}
    for _reload in range(3):  # a player reloading their page, again and again
        streams = [await board.http.get(url, headers=token) for _ in range(MAX_STREAMS)]
        assert [r.status for r in streams] == [200] * MAX_STREAMS
        for r in streams:
            await r.content.readline()
        async with board.http.get(url, headers=token) as r:
            assert r.status == 429  # a ninth at once is too many
        for r in streams:
            r.close()  # the pages leave
        await until(lambda: board.web.live.viewers() == 0, 2.0, "a stream outlived its page by 2 s")


async def test_watching_streams_are_capped_per_game_and_in_all(board: Board) -> None:
    other = await start_game(board.service, 101, (13, 14), ("Cy", "Di"))
    async with another_board(board, spectator_streams=(3, 5, 100)) as web:

        async def watch(game: int) -> aiohttp.ClientResponse:
            url = f"http://127.0.0.1:{web.port}/g/{game}/events"
            return await board.http.get(url, headers={"X-Cubist-Token": board.token(SPECTATOR, game=game)})

        first = [await watch(board.game_id) for _ in range(4)]
        assert [r.status for r in first] == [200, 200, 200, 429]  # 3 per game
        second = [await watch(other) for _ in range(3)]
        assert [r.status for r in second] == [200, 200, 429]  # 5 in all
        async with board.http.get(
            f"http://127.0.0.1:{web.port}/g/{other}/events", headers={"X-Cubist-Token": board.token(14, game=other)}
        ) as r:
            assert r.status == 200  # a player's own stream is counted apart
        for r in first + second:
            r.close()


async def test_the_links_token_moves_into_a_cookie_for_the_games_path(board: Board) -> None:
    token = board.token(await board.current_user())
    page = f"{board.base}/g/{board.game_id}"
    async with board.http.get(f"{page}?t={token}") as r:
        assert r.status == 200
        cookie = SimpleCookie(r.headers["Set-Cookie"])[COOKIE]
    assert cookie.value == token and cookie["path"] == f"/g/{board.game_id}"
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Strict"
    assert 23 * 3600 < int(cookie["max-age"]) <= 24 * 3600  # as long as the link
    jar = {"Cookie": f"{COOKIE}={token}"}
    async with aiohttp.ClientSession() as http:  # no token in any URL from here on
        async with http.get(page, headers=jar) as r:
            assert r.status == 200 and "Set-Cookie" not in r.headers  # a reload
        async with http.get(f"{page}/events", headers=jar) as r:
            assert r.status == 200 and (await r.content.readline()).startswith(b"retry:")
        async with http.get(f"{page}/events") as r:
            assert r.status == 403
        # The cookie never plays: a move takes the header only.
        async with http.post(f"{page}/move", json={"move": "end", "version": 0}, headers=jar) as r:
            assert r.status == 403
    script = (ROOT / "bot" / "web" / "static" / "board.js").read_text()
    assert "events?t=" not in script and "history.replaceState" in script


def test_the_open_files_limit_is_raised_to_the_hard_limit() -> None:
    code = "from bot.web.guard import raise_open_files; import resource; raise_open_files(); "
    code += "print(*resource.getrlimit(resource.RLIMIT_NOFILE))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, 1024)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout.split() == ["1024", "1024"]


FLOOD = 2000
FLOOD_SOURCES = 20  # 127.0.0.2 to 127.0.0.21, 100 connections each
SECRET = "flood-test-secret"


def limit_open_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


async def half_open(port: int, source: str) -> asyncio.StreamWriter | None:
    """A connection that sends part of a request's headers and then nothing."""
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: cubist\r\nX-Slow: ")
        await writer.drain()
        return writer
    except OSError:
        return None


class Viewer:
    """A page's event stream: the versions it heard."""

    def __init__(self, http: aiohttp.ClientSession, url: str, token: str) -> None:
        self.versions: list[int] = []
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._listen(http, url, token))

    async def _listen(self, http: aiohttp.ClientSession, url: str, token: str) -> None:
        async with http.get(url, headers={"X-Cubist-Token": token}) as r:
            assert r.status == 200
            event = ""
            async for raw in r.content:
                line = raw.decode().strip()
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    version = version_of(event, line[5:].strip())
                    if version is not None:
                        self.versions.append(version)
                    self.ready.set()


async def test_a_flood_of_half_open_connections_leaves_viewers_and_the_bot_answering(
    standin: StandIn, tmp_path: Path
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < FLOOD + 500:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker's own sockets
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("Ada")
    port = free_port()
    env = os.environ | bot_environment(standin) | {
        "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "flood.db"), "LOBBY_COOLDOWN": "0",
        "PUBLIC_URL": f"http://127.0.0.1:{port}", "WEB_PORT": str(port), "WEB_SECRET": SECRET,
        "TRUSTED_PROXIES": "127.0.0.1",
    }  # fmt: skip
    log_path = tmp_path / "bot.log"
    with log_path.open("wb") as log_file:
        bot = subprocess.Popen(
            [sys.executable, "-m", "bot"], env=env, cwd=tmp_path, stdout=log_file, stderr=subprocess.STDOUT,
            preexec_fn=limit_open_files,
        )  # fmt: skip
    flood: list[asyncio.StreamWriter | None] = []
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while not (any(standin.commands.values()) and standin.gateway.current is not None):  # synced, connected
            assert bot.poll() is None and loop.time() < deadline, log_path.read_text()[-3000:]
            await asyncio.sleep(0.05)
        answer = await ada.slash(
            channel, "cubist lobby new", options={"players": 2, "computers": 1, "level": "greedy"}, timeout=60
        )
        assert not answer.failed, answer.content
        deadline = loop.time() + 60
        while not any(board_links(m) for m in ada.dms()):  # Ada's turn: her DM links the board
            assert bot.poll() is None and loop.time() < deadline, log_path.read_text()[-3000:]
            await asyncio.sleep(0.05)
        link = next(link for m in ada.dms() for link in board_links(m))
        game_id, token = int(link.split("/g/")[1].split("?")[0]), link.split("?t=")[1]
        base = f"http://127.0.0.1:{port}/g/{game_id}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/play", headers={"X-Cubist-Token": token}) as r:
                mine = await r.json()
            version = mine["version"]
            watch = sign(SECRET, game_id, SPECTATOR, 2**31 - 1)
            viewers = [Viewer(http, f"{base}/events", watch) for _ in range(3)]
            await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 20)

            sources = [f"127.0.0.{2 + k % FLOOD_SOURCES}" for k in range(FLOOD)]
            for start in range(0, FLOOD, 250):
                flood += await asyncio.gather(*(half_open(port, s) for s in sources[start : start + 250]))

            async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                health = await r.json()
            # The bot's open files (1,024) hold its connections below 768; the rest were
            # closed on arrival instead of exhausting them.
            assert health["cap"] == 1024 - 256 and health["connections"] <= health["cap"], health
            assert health["refused"] > 0, health

            # A page opened now, through the proxy (127.0.0.1), is served: its room was kept.
            viewers.append(Viewer(http, f"{base}/events", watch))
            await asyncio.wait_for(viewers[-1].ready.wait(), 20)
            # The player's tap plays; every viewer hears it.
            move = mine["play"]["dice"][0]["targets"][0]["move"]
            tap = {"X-Cubist-Token": token, "Origin": f"http://127.0.0.1:{port}"}
            async with http.post(f"{base}/move", json={"move": move, "version": version}, headers=tap) as r:
                assert r.status == 200, await r.text()
            await until(lambda: all(version + 1 in v.versions for v in viewers), 20, "a viewer missed the move")
            # And the bot keeps answering on Discord.
            status = await ada.slash(channel, "cubist status")
            assert not status.failed and status.content, status.content
            for v in viewers:
                v.task.cancel()
                with suppress(asyncio.CancelledError):
                    await v.task
    finally:
        for writer in flood:
            if writer is not None:
                writer.close()
        bot.terminate()
        try:
            bot.wait(20)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    said = log_path.read_text()
    assert "out of system resource" not in said and "Too many open files" not in said, said[-3000:]
    assert "open files: 1024" in said  # what the board found, and capped its connections by
    assert "Traceback" not in said, said[-3000:]
