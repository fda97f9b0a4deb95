"""The web benchmark's viewers, in a process of their own (so the bot's CPU is the bot's):
``python -m benchmarks.web_viewers BASE`` reads ``[[game, token], ...]`` on stdin, opens an
event stream per pair and, like the page, fetches the state on each new version; prints
"ready" once every page has its first state (so that opening the pages is not counted as
the moves' cost), and on stdin's end (or SIGTERM) prints one JSON line:
``[[game, version, seconds since the epoch when that viewer had the state], ...]``."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import aiohttp

from bot.web.events import version_of


async def viewer(
    http: aiohttp.ClientSession, base: str, game: int, token: str, ready: asyncio.Event, seen: list
) -> None:
    """One page: its event stream; a state that comes on it is the page's at once, a bare
    version is fetched, as the page does."""
    url = f"{base}/g/{game}/events?t={token}"
    async with http.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as r:
        current, event = -1, ""
        async for raw in r.content:
            line = raw.decode().strip()
            if line.startswith("event:"):
                event = line[6:].strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            version = version_of(event, data)
            if version is None or version <= current:
                continue
            if event == "version" and not os.environ.get("WEB_VIEWERS_NO_FETCH"):
                async with http.get(f"{base}/g/{game}/state", headers={"X-Cubist-Token": token}) as s:
                    version = int((await s.json())["version"])
            current = version
            seen.append((game, current, time.time()))
            ready.set()  # the page shows its game


async def main(base: str) -> None:
    pairs = json.loads(sys.stdin.readline())
    seen: list[tuple[int, int, float]] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        readies = [asyncio.Event() for _ in pairs]
        tasks = [
            asyncio.create_task(viewer(http, base, g, t, e, seen)) for (g, t), e in zip(pairs, readies, strict=True)
        ]
        await asyncio.gather(*(e.wait() for e in readies))
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # until told to stop
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
