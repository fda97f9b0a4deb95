"""Malformed requests to the web board: each gets a 4xx carrying the security headers, and
one WARNING line in the log, short, without a traceback and without any token.  The event
stream carries the security headers too.  Raw bytes over a real socket, where a client
library would refuse to send them."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.web.headers import HEADERS

from .conftest import Board


async def raw(board: Board, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Sends ``request`` as is; the answer's status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", board.web.port)
    try:
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _c, v in (line.partition(":") for line in lines[1:] if line)}
        length = int(headers.get("content-length", "0"))
        body = await asyncio.wait_for(reader.readexactly(length), 10) if length else b""
        return status, headers, body
    finally:
        writer.close()


def secured(headers: dict[str, str]) -> bool:
    return all(headers.get(k.lower()) == v for k, v in HEADERS.items())


async def test_malformed_requests_get_a_4xx_with_the_headers_and_one_short_warning(
    board: Board, caplog: pytest.LogCaptureFixture
) -> None:
    token = board.token(await board.current_user())
    secret_part = token.rsplit(".", 1)[1]
    game = board.game_id
    deep = ("[" * 8000 + "]" * 8000).encode()  # within the 16 KB a body may have
    nested_move = (
        f"POST /g/{game}/move HTTP/1.1\r\nHost: x\r\nX-Cubist-Token: {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(deep)}\r\n\r\n"
    ).encode() + deep
    requests = {
        "a game id of 5,000 digits": (f"GET /g/{'9' * 5000} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), 404),
        "a replay step of 5,000 digits": (
            f"GET /g/{game}/replay?ply={'9' * 5000} HTTP/1.1\r\nHost: x\r\nX-Cubist-Token: {token}\r\n\r\n".encode(),
            400,
        ),
        "a request line over 8 KB, with a token": (
            f"GET /g/{game}?t={token}&pad={'a' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
            400,
        ),
        "a header without a colon": (f"GET /g/{game} HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n".encode(), 400),
        "a token header without its colon": (
            f"GET /g/{game}/state HTTP/1.1\r\nHost: x\r\nX-Cubist-Token {token}\r\n\r\n".encode(),
            400,
        ),
        "no HTTP at all": (b"\x16\x03\x01 hello there\r\n\r\n", 400),
        "a move nested 8,000 deep": (nested_move, 400),
    }
    warned = 0
    for what, (request, expected) in requests.items():
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            status, headers, _body = await raw(board, request)
        assert status == expected, what
        assert secured(headers), (what, headers)
        said = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert all(r.levelno == logging.WARNING and r.exc_info is None for r in said), (what, said)
        assert all(secret_part not in r.getMessage() and len(r.getMessage()) < 300 for r in said), what
        assert all("\n" not in r.getMessage() for r in said), what
        assert all(secret_part not in r.getMessage() for r in caplog.records), what  # nor in debug lines
        assert len(said) <= 1, (what, [r.getMessage() for r in said])
        warned += len(said)
    assert warned >= 4  # the 400s each said once what was refused (a 404 is no news)
    assert (await board.game()).log == []


async def test_bad_move_bodies_change_nothing(board: Board, caplog: pytest.LogCaptureFixture) -> None:
    token = board.token(await board.current_user())
    url = f"{board.base}/g/{board.game_id}/move"
    bodies = [b"[" * 10_000, json.dumps({"move": ["place"], "version": 0}).encode(), b"\xff\xfe", b"{}"]
    with caplog.at_level(logging.WARNING):
        for body in bodies:
            async with board.http.post(url, data=body, headers={"X-Cubist-Token": token}) as r:
                assert r.status == 400 and secured({k.lower(): v for k, v in r.headers.items()})
                assert (await r.json())["reason"] == "bad_request"
    assert [r.levelno for r in caplog.records] == [logging.WARNING] * len(bodies)
    assert all(r.exc_info is None for r in caplog.records)
    async with board.http.post(url, data=b"[" * 50_000, headers={"X-Cubist-Token": token}) as r:
        assert r.status == 413 and secured({k.lower(): v for k, v in r.headers.items()})  # over 16 KB
    assert (await board.game()).log == []


async def test_the_event_stream_carries_the_security_headers(board: Board) -> None:
    url = f"{board.base}/g/{board.game_id}/events"
    async with board.http.get(url, headers={"X-Cubist-Token": board.spectator()}) as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
        assert secured({k.lower(): v for k, v in r.headers.items()})
    async with board.http.get(url, headers={"X-Cubist-Token": "nonsense"}) as r:
        assert r.status == 403 and secured({k.lower(): v for k, v in r.headers.items()})


async def test_a_fault_of_ours_is_a_500_with_the_headers_in_plain_words(
    board: Board, caplog: pytest.LogCaptureFixture
) -> None:
    token = board.token(await board.current_user())
    await board.store.close()  # the database is gone: every read fails
    url = f"{board.base}/g/{board.game_id}/state?t={token}"
    with caplog.at_level(logging.WARNING):
        async with board.http.get(url, headers={"Accept-Language": "fr"}) as r:
            assert r.status == 500 and secured({k.lower(): v for k, v in r.headers.items()})
            assert (await r.json())["error"].startswith("Un problème est survenu")
    assert len(caplog.records) == 1 and caplog.records[0].levelno == logging.ERROR
    assert token.rsplit(".", 1)[1] not in caplog.text
