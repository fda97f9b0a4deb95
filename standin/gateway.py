"""The gateway: one WebSocket endpoint speaking Discord's JSON gateway protocol (v10).

Frames are sent uncompressed as text; discord.py only inflates binary frames, so it accepts
them even though it asks for zlib-stream. Every dispatch goes into the session's log so a
RESUME can replay what the client missed.

Sharding as on Discord: IDENTIFY may carry ``shard: [shard_id, shard_count]``; a guild's
events (GUILD_CREATE, INTERACTION_CREATE, MESSAGE_CREATE, ...) go only to the session of
shard ``(guild_id >> 22) % shard_count``, DMs and other events without a guild to shard 0.
A session without ``shard`` is shard 0 of 1. Several sessions (from one process or several)
are live at once, one per shard id.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import deque
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .clock import HANG_GUARD_S
from .models import Guild

HELLO = 10
HEARTBEAT = 1
HEARTBEAT_ACK = 11
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
DISPATCH = 0

GUILD_MEMBERS_INTENT = 1 << 1
REPLAY_LOG_MAX = 50_000
# Discord closes a connection with 4010 for a bad shard and 4011 when a shard would carry
# more than 2,500 guilds ("sharding required").
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
MAX_GUILDS_PER_SHARD = 2500


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's formula); DMs go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, for routing it to its shard."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else data.get("guild_id")
    return int(raw) if raw is not None else None


class Connection:
    """One WebSocket with a writer task, so frames leave in exactly the order they were queued."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, frame: dict[str, Any]) -> None:
        self._queue.put_nowait(frame)

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            try:
                await self.ws.send_str(json.dumps(frame))
            except (ConnectionResetError, RuntimeError):
                return  # socket gone; dispatches stay in the session log for a RESUME

    def stop(self) -> None:
        self._writer.cancel()


class GatewaySession:
    def __init__(self, intents: int, shard: list[int] | None) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        # [shard_id, shard_count]; a session that sent no shard is shard 0 of 1.
        self.shard_id, self.shard_count = (shard[0], shard[1]) if shard is not None else (0, 1)
        self.seq = 0
        self.log: deque[dict[str, Any]] = deque(maxlen=REPLAY_LOG_MAX)
        self.conn: Connection | None = None


class GatewayHost(Protocol):
    """What the gateway reads of the world it serves (``standin.world.World`` is one)."""

    token: str
    guilds: dict[int, Guild]

    def record_error(self, kind: str, detail: str, method: str = "", path: str = "") -> None: ...

    def bot_guilds(self) -> list[Guild]: ...

    def ready_payload(self, session: GatewaySession) -> dict[str, Any]: ...

    def guild_create_payload(self, guild: Guild, intents: int) -> dict[str, Any]: ...


class Gateway:
    def __init__(self, server: GatewayHost, heartbeat_interval_ms: int = 41_250) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, GatewaySession] = {}
        # The session that identified or resumed last (the one faults act on) and, per shard id,
        # the session receiving that shard's events.
        self.current: GatewaySession | None = None
        self.shards: dict[int, GatewaySession] = {}
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.connections: set[Connection] = set()
        # Request path of every gateway connection, e.g. to check resumes use resume_gateway_url.
        self.connection_paths: list[str] = []
        self.identify_count = 0
        self.resume_count = 0
        self._changed = asyncio.Event()

    # -- state for tests ----------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.conn is not None

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Any, timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"gateway: {what} did not happen within {timeout}s")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                continue

    async def wait_identified(self, count: int = 1, timeout: float = HANG_GUARD_S) -> None:
        await self.wait_until(lambda: self.identify_count >= count and self.connected, timeout, "IDENTIFY")

    async def wait_resumed(self, count: int = 1, timeout: float = HANG_GUARD_S) -> None:
        await self.wait_until(lambda: self.resume_count >= count and self.connected, timeout, "RESUME")

    # -- faults -------------------------------------------------------------------------

    async def drop(self, code: int = 4000, abrupt: bool = False) -> None:
        """Close the bot's socket (code 4000 "unknown error": clients resume) or cut TCP."""
        conn = self._require_conn()
        if abrupt:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
        else:
            await conn.ws.close(code=code, message=b"stand-in dropped the connection")

    async def send_reconnect(self) -> None:
        self._require_conn().send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate_session(self, resumable: bool = False) -> None:
        conn = self._require_conn()
        if not resumable and self.current is not None:
            self.sessions.pop(self.current.id, None)
        conn.send({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})

    def _require_conn(self) -> Connection:
        if self.current is None or self.current.conn is None:
            raise RuntimeError("no bot is connected to the stand-in gateway")
        return self.current.conn

    # -- dispatch -----------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session of its guild's shard (kept for replay if the socket is down).

        Synchronous on purpose: the sequence number and the order on the wire are fixed
        at the moment of the call, so world changes and interactions never overtake.
        """
        self.announce(event, lambda _s: data)

    def announce(self, event: str, build: Any) -> None:
        """``build(session)`` gives the event's data for that session (None: not for it);
        it is sent to the session whose shard carries the event's guild."""
        if self.current is None:
            raise RuntimeError(f"cannot dispatch {event}: the bot never identified")
        for session in list(self.shards.values()):
            data = build(session)
            if data is not None and shard_of(event_guild(event, data), session.shard_count) == session.shard_id:
                self._dispatch_to(session, event, data)

    def carries(self, session: GatewaySession, guild_id: int) -> bool:
        return shard_of(guild_id, session.shard_count) == session.shard_id

    @staticmethod
    def _dispatch_to(session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        if session.conn is not None:
            session.conn.send(frame)

    # -- the WebSocket endpoint ---------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request)
        self.connections.add(conn)
        self.connection_paths.append(request.path)
        session: GatewaySession | None = None
        try:
            conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    self.server.record_error("gateway", f"unexpected {msg.type.name} frame")
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    self.server.record_error("gateway", f"undecodable frame {msg.data[:200]!r}")
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                session = await self._handle_frame(conn, session, frame) or session
        except ConnectionResetError:
            pass
        finally:
            conn.stop()
            self.connections.discard(conn)
            if session is not None and session.conn is conn:
                session.conn = None
            self._notify()
        return ws

    async def _handle_frame(
        self, conn: Connection, session: GatewaySession | None, frame: dict[str, Any]
    ) -> GatewaySession | None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            if session is not None:
                await conn.ws.close(code=4005, message=b"Already authenticated.")
                return None
            return await self._identify(conn, data or {})
        elif op == RESUME:
            return await self._resume(conn, data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            await self._request_members(conn, session, data or {})
        elif op == PRESENCE_UPDATE:
            pass  # presence is cosmetic here
        else:
            self.server.record_error("gateway", f"unsupported gateway op {op}: {frame}")
        return None

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        if data.get("token") != self.server.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(int(data.get("intents") or 0), shard)
        guilds = [g for g in self.server.bot_guilds() if self.carries(session, g.id)]
        if len(guilds) > self.max_guilds_per_shard:
            await conn.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        self.sessions[session.id] = session
        self.current = session
        self.shards[session.shard_id] = session
        session.conn = conn
        self._dispatch_to(session, "READY", self.server.ready_payload(session))
        for guild in guilds:
            self._dispatch_to(session, "GUILD_CREATE", self.server.guild_create_payload(guild, session.intents))
        self.identify_count += 1
        self._notify()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.server.token:
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        seq = int(data.get("seq") or 0)
        if session.log and session.log[0]["s"] > seq + 1:
            # What the client missed fell off the replay log: it must identify anew.
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        self.current = session
        self.shards[session.shard_id] = session
        if session.conn is not None and session.conn is not conn:
            session.conn.stop()  # a stale socket must not receive anything more
        for frame in session.log:
            if frame["s"] > seq:
                conn.send(frame)
        session.conn = conn
        self._dispatch_to(session, "RESUMED", {})
        self.resume_count += 1
        self._notify()
        return session

    async def _request_members(self, conn: Connection, session: GatewaySession | None, data: dict[str, Any]) -> None:
        if session is None:
            self.server.record_error("gateway", "REQUEST_GUILD_MEMBERS before IDENTIFY")
            return
        guild_id = int(data.get("guild_id") or 0)
        guild = self.server.guilds.get(guild_id)
        members = list(guild.members.values()) if guild else []
        wanted = data.get("user_ids")
        if wanted is not None:
            ids = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.user.id in ids]
        elif data.get("query"):
            members = [m for m in members if m.user.name.lower().startswith(str(data["query"]).lower())]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild_id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)
