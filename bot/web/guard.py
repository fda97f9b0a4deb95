"""Connection hygiene for the web board: what keeps a flood of idle or half-sent
connections (slowloris) from taking the board, or the bot's other sockets, down.

- A connection must send a whole request's headers within ``idle`` seconds of opening, and
  the next one within ``idle`` seconds of the last answer (aiohttp's keep-alive timer runs
  from the connection's start: one short timeout serves as both).
- Connections are counted per peer address and in total, below the open-files limit; past
  either cap a new connection is reset as it is accepted, before any byte is read.  A
  trusted proxy (docs/operating.md) speaks for many clients: it has no per-address cap,
  and a quarter of the total stays for it whatever others hold.
- A connection that ends tells its handler at once (``on_lost``): an event stream frees its
  place as its page leaves, not at its next keep-alive write.
- A request the HTTP parser refuses is answered 400 with the security headers, and logged
  as one WARNING line, cut short and without its token."""

from __future__ import annotations

import asyncio
import logging
import re
import resource
import socket
import struct
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from bot.web.headers import secure
from bot.web.proxy import Proxies

log = logging.getLogger("bot.web")

IDLE_S = 10.0  # for a request's headers, and between two requests on one connection
PER_ADDRESS = 64  # connections from one address (a player's page holds one or two)
MOST_CONNECTIONS = 10_000
FILES_KEPT = 256  # open files left for the database, Discord, pictures and logs
LOG_CUT = 160  # characters of a refused request's description kept in the log
TOKEN = re.compile(r"((?:[?&]|\b)t=)[^&\s'\"]*")  # a link's query
TOKEN_SHAPE = re.compile(r"\b\d+\.\d+\.\d+\.[A-Za-z0-9_-]{8,}")  # a token anywhere else (a broken header)


def raise_open_files() -> int:
    """Raises this process's open-files soft limit to its hard limit (often 1,024 of a
    much higher hard limit); returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # an unlimited hard limit the kernel caps lower
            pass
    return soft


def connection_cap(open_files: int) -> int:
    """How many web connections the process holds at most, leaving room for its other files."""
    return max(32, min(MOST_CONNECTIONS, open_files - FILES_KEPT))


def redact(text: str) -> str:
    """A request's description fit for the log: no token, one line, and short."""
    text = TOKEN_SHAPE.sub("…", TOKEN.sub(r"\1…", " ".join(text.split())))
    return text if len(text) <= LOG_CUT else text[:LOG_CUT] + "…"


class Guard:
    """Counts the connections open, by peer address; ``admit`` says whether one more may."""

    def __init__(self, proxies: Proxies, *, total: int, per_address: int = PER_ADDRESS) -> None:
        self.proxies = proxies
        self.total = total
        self.per_address = per_address
        self.others_total = max(1, total * 3 // 4)  # the rest is kept for trusted proxies
        self.open = 0
        self.others = 0  # of which from untrusted addresses
        self.refused = 0
        self._by_address: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        trusted = self.proxies.trusts(address)
        if self.open >= self.total or (
            not trusted and (self.others >= self.others_total or self._by_address.get(address, 0) >= self.per_address)
        ):
            self.refused += 1
            return False
        self.open += 1
        if not trusted:
            self.others += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
        return True

    def release(self, address: str) -> None:
        self.open -= 1
        held = self._by_address.get(address)
        if held is not None:
            self.others -= 1
            if held > 1:
                self._by_address[address] = held - 1
            else:
                del self._by_address[address]

    def numbers(self) -> dict[str, int]:
        return {"connections": self.open, "cap": self.total, "refused": self.refused}


class Listener:
    """Accepts the board's connections itself, so that one over a cap is closed on the spot:
    asyncio's own accept loop takes a whole batch of them, each holding a file, before any
    protocol could refuse one, and under a flood runs out of open files that way."""

    def __init__(self, guard: Guard, serve: Callable[[str], GuardedHandler], *, backlog: int = 128) -> None:
        self.guard = guard
        self.serve = serve  # the protocol for an admitted connection from an address
        self.backlog = backlog
        self.sock: socket.socket | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, host: str, port: int) -> int:
        """Listens on ``host:port`` (0: any free port); returns the port."""
        loop = asyncio.get_running_loop()
        family, kind, proto, _name, address = (
            await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        )[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(self.backlog)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self.sock = sock
        loop.add_reader(sock.fileno(), self._accept)
        return int(sock.getsockname()[1])

    def _accept(self) -> None:
        assert self.sock is not None
        loop = asyncio.get_running_loop()
        for _ in range(self.backlog):
            try:
                conn, peer = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:  # out of files after all (others' files): wait a moment
                log.warning("the web board could not accept a connection (%s); trying again in 1 s", e.strerror)
                loop.remove_reader(self.sock.fileno())
                loop.call_later(1.0, self._resume)
                return
            address = str(peer[0]) if peer else "unknown"
            if not self.guard.admit(address):
                # Reset (no lingering close): the file is free again at once.
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.close()
                continue
            conn.setblocking(False)
            task = loop.create_task(self._connect(conn, address))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _resume(self) -> None:
        if self.sock is not None:
            asyncio.get_running_loop().add_reader(self.sock.fileno(), self._accept)

    async def _connect(self, conn: socket.socket, address: str) -> None:
        made: list[GuardedHandler] = []

        def serve() -> GuardedHandler:
            made.append(self.serve(address))
            return made[0]

        try:
            await asyncio.get_running_loop().connect_accepted_socket(serve, conn)
        except (OSError, asyncio.CancelledError):
            if made:
                made[0].give_back()
            else:
                self.guard.release(address)
            conn.close()

    def close(self) -> None:
        """Stops listening (the connections open are the server's to end)."""
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
        for task in self._tasks:
            task.cancel()


class GuardedHandler(RequestHandler):
    """aiohttp's connection handler for a connection the guard admitted from ``peer``: it
    gives its place back, and tells who asks, when the connection ends."""

    def __init__(self, manager: web.Server, guard: Guard, peer: str, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self._guard = guard
        self._peer: str | None = peer  # None once its place is given back
        self._lost: list[Callable[[], None]] = []

    def give_back(self) -> None:
        """Gives the connection's place back to the guard (once)."""
        if self._peer is not None:
            self._guard.release(self._peer)
            self._peer = None

    def connection_lost(self, exc: BaseException | None) -> None:
        self.give_back()
        lost, self._lost = self._lost, []
        for callback in lost:
            callback()
        super().connection_lost(exc)

    def on_lost(self, callback: Callable[[], None]) -> bool:
        """``callback()`` when the connection ends; False (and no call) if it already has."""
        if self._peer is None or self.transport is None or self.transport.is_closing():
            return False
        self._lost.append(callback)
        return True

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        if status >= 500:
            log.error("web request from %s failed: %s", request.remote, redact(repr(exc)), exc_info=exc)
        else:
            log.warning("refused a malformed web request from %s: %s", request.remote, redact(str(message or exc)))
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun: the connection is closed instead")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        response = web.Response(status=status, text=f"{status} {phrase}\n")
        secure(response.headers)
        response.force_close()
        return response
