"""The web board behind a reverse proxy: the nginx and Caddy snippets of docs/operating.md,
read from the file, make the headers a proxy sends; with them taps play (the Origin is
PUBLIC_URL's, whatever Host the proxy sends), viewers are counted each by their own
address, and a client's made-up X-Forwarded-For counts for nothing.  The settings that
go with it are checked at start."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from bot.config import PUBLIC_URL_MAX, Settings
from bot.web.guard import IDLE_S
from bot.web.links import SPECTATOR, Links
from bot.web.proxy import Proxies
from bot.web.server import WebBoard

from .conftest import Board

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
PUBLIC = "https://cubist.example.org"


def snippet(language: str) -> str:
    """The docs' code block in ``language`` that proxies to the board."""
    blocks = re.findall(rf"```{language}\n(.*?)```", DOCS.read_text(), re.S)
    return next(b for b in blocks if "127.0.0.1:8080" in b)


def nginx_headers(client: str, sent: dict[str, str]) -> dict[str, str]:
    """What nginx sends upstream with the docs' snippet, its variables filled in as nginx
    fills them, for a request from ``client`` that carried ``sent``."""
    block = snippet("nginx")
    assert "proxy_pass http://127.0.0.1:8080;" in block and "proxy_buffering off;" in block
    said = dict(sent)
    forwarded = sent.get("X-Forwarded-For")
    values = {
        "$proxy_add_x_forwarded_for": f"{forwarded}, {client}" if forwarded else client,
        "$scheme": "https",
        "$host": "cubist.example.org",
    }
    for name, value in re.findall(r"proxy_set_header\s+(\S+)\s+(.+?);", block):
        value = value.strip('"')
        for var, filled in values.items():
            value = value.replace(var, filled)
        if value:
            said[name] = value
    assert said.get("X-Forwarded-For", "").endswith(client)
    return said


def caddy_headers(client: str, sent: dict[str, str]) -> dict[str, str]:
    """What Caddy's ``reverse_proxy`` sends upstream by default: X-Forwarded-For replaced by
    the client's address (a client is no trusted proxy of Caddy's), X-Forwarded-Proto and
    -Host, the Host passed through."""
    block = snippet("caddy")
    assert re.search(r"^\s*reverse_proxy 127\.0\.0\.1:8080\b", block, re.M)
    keepalive = re.search(r"keepalive (\d+)s", block)
    assert keepalive is not None and int(keepalive[1]) < IDLE_S  # Caddy lets go of an idle connection first
    return sent | {
        "X-Forwarded-For": client,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "cubist.example.org",
        "Host": "cubist.example.org",
    }


@asynccontextmanager
async def proxied(board: Board, **options: object) -> AsyncIterator[WebBoard]:
    """A second board on the same game, as it runs behind a proxy on this machine."""
    web = WebBoard(board.service, secret=board.web.secret, clock=board.clock, public_url=PUBLIC, **options)  # type: ignore[arg-type]
    await web.start()
    try:
        yield web
    finally:
        await web.stop()


async def open_stream(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> aiohttp.ClientResponse:
    r = await http.get(url, headers=headers)
    if r.status == 200:
        await r.content.readline()  # the stream has begun: its place is taken
    return r


@pytest.mark.parametrize("proxy", [nginx_headers, caddy_headers], ids=["nginx", "caddy"])
async def test_taps_play_and_viewers_count_by_their_own_address(board: Board, proxy) -> None:
    async with proxied(board, spectator_streams=(200, 2000, 3)) as web:
        base = f"http://127.0.0.1:{web.port}/g/{board.game_id}"
        user = await board.current_user()
        token = board.token(user)
        tap = {"X-Cubist-Token": token, "Origin": PUBLIC, "Content-Type": "application/json"}
        _status, state = await board.state(token)
        async with board.http.get(f"{base}/play", headers={"X-Cubist-Token": token}) as r:
            first = (await r.json())["play"]["dice"][0]["targets"][0]["move"]
        # The page's own origin, through the proxy: the tap plays.  The board's direct address
        # is not the page's origin: refused, and nothing played.
        direct = proxy("203.0.113.5", tap | {"Origin": f"http://127.0.0.1:{web.port}"})
        async with board.http.post(f"{base}/move", json={"move": first, "version": 0}, headers=direct) as r:
            assert r.status == 403 and (await r.json())["reason"] == "forged"
        assert (await board.game()).log == []
        async with board.http.post(
            f"{base}/move", json={"move": first, "version": 0}, headers=proxy("203.0.113.5", tap)
        ) as r:
            assert r.status == 200, await r.text()
            assert (await r.json())["state"]["version"] == state["version"] + 1
        # Twelve viewers behind the one proxy, each from their own address: all are served
        # (counted by the proxy's address, the 9th was refused).
        url = f"{base}/events"
        spectator = {"X-Cubist-Token": board.token(SPECTATOR)}
        streams = [await open_stream(board.http, url, proxy(f"198.51.100.{k}", spectator)) for k in range(12)]
        assert [r.status for r in streams] == [200] * 12
        # One address's viewers have their own cap (3 here); a made-up X-Forwarded-For in front
        # of what the proxy wrote changes nothing where nginx keeps it, and is dropped by Caddy.
        mine = [
            await open_stream(board.http, url, proxy("192.0.2.7", spectator | {"X-Forwarded-For": f"10.9.9.{k}"}))
            for k in range(4)
        ]
        assert [r.status for r in mine] == [200, 200, 200, 429]
        assert "Content-Security-Policy" in mine[3].headers
        for r in streams + mine:
            r.close()


async def test_without_trusting_the_proxy_its_headers_are_ignored(board: Board) -> None:
    async with proxied(board, trusted_proxies=(), spectator_streams=(200, 2000, 3)) as web:
        url = f"http://127.0.0.1:{web.port}/g/{board.game_id}/events"
        spectator = {"X-Cubist-Token": board.token(SPECTATOR)}
        streams = [await open_stream(board.http, url, nginx_headers(f"198.51.100.{k}", spectator)) for k in range(4)]
        # Whatever the header says, every stream came from 127.0.0.1: the 4th is over its cap.
        assert [r.status for r in streams] == [200, 200, 200, 429]
        for r in streams:
            r.close()


def test_the_client_is_read_from_the_right_past_trusted_proxies() -> None:
    proxies = Proxies(["127.0.0.1", "10.0.0.0/8"])
    assert proxies.client("127.0.0.1", {"X-Forwarded-For": "1.2.3.4, 198.51.100.9"}) == "198.51.100.9"
    assert proxies.client("127.0.0.1", {"X-Forwarded-For": "198.51.100.9, 10.1.2.3"}) == "198.51.100.9"
    assert proxies.client("203.0.113.1", {"X-Forwarded-For": "198.51.100.9"}) == "203.0.113.1"
    assert proxies.client("::ffff:127.0.0.1", {"X-Forwarded-For": "198.51.100.9"}) == "198.51.100.9"
    forwarded = {"Forwarded": 'for=192.0.2.60;proto=https, for="[2001:db8:cafe::17]:4711"'}
    assert proxies.client("127.0.0.1", forwarded) == "2001:db8:cafe::17"
    assert proxies.client("127.0.0.1", {"Forwarded": "for=192.0.2.60:8443;proto=https"}) == "192.0.2.60"
    assert proxies.client("127.0.0.1", {}) == "127.0.0.1"


def test_the_web_settings_are_checked_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PUBLIC_URL", "WEB_PORT", "WEB_HOST", "TRUSTED_PROXIES"):
        monkeypatch.delenv(name, raising=False)
    plan = Settings(_env_file=None, public_url=PUBLIC + "/", web_port=8080).web()  # type: ignore[call-arg]
    assert plan is not None and plan.host == "127.0.0.1" and plan.public_url == PUBLIC
    assert plan.trusted_proxies == ("127.0.0.1", "::1")
    longest = "https://" + "a" * (PUBLIC_URL_MAX - len("https://"))
    assert Settings(_env_file=None, public_url=longest, web_port=8080).web() is not None  # type: ignore[call-arg]
    # The longest link it makes, for the largest game and member ids, fits a Discord link button.
    link = Links(longest, "secret", 72).url(10**18 - 1, 2**64 - 1, 4_000_000_000)
    assert len(link) <= 512, len(link)
    for bad, said in (
        (longest + "b", "characters long"),
        ("ftp://cubist.example.org", "must look like"),
        ("cubist.example.org", "must look like"),
        ("https://cubist.example.org/?x=1", "without spaces"),
        ("https://example.org/cubist", "without a path"),
    ):
        with pytest.raises(ValueError, match=said):
            Settings(_env_file=None, public_url=bad, web_port=8080)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="not an address"):
        Settings(_env_file=None, trusted_proxies="127.0.0.1, proxy.local")  # type: ignore[call-arg]
    plan = Settings(_env_file=None, public_url=PUBLIC, web_port=8080, trusted_proxies="10.0.0.0/8 ::1").web()  # type: ignore[call-arg]
    assert plan is not None and plan.trusted_proxies == ("10.0.0.0/8", "::1")
