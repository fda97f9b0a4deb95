"""`StandIn`: the local Discord (REST + gateway on 127.0.0.1) and the world it models.

Tests build the world (guilds, channels, users), start the server, point discord.py at
`server.url`, and act as users through the driver (`server.add_user(...)` returns one).
"""

from __future__ import annotations

import socket
from collections.abc import Iterable

from aiohttp import web

from .driver import Player
from .models import Guild, Member, Role, User
from .rest import build_app
from .world import DEFAULT_TOKEN, World, _for_members_intent

__all__ = ["DEFAULT_TOKEN", "StandIn"]


class StandIn(World):
    """A small Discord on loopback for one bot application."""

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self, port: int = 0) -> StandIn:
        """Listen on 127.0.0.1 (a free port unless one is given)."""
        app = build_app(self)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        return self

    async def stop(self) -> None:
        for conn in list(self.gateway.connections):
            await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        dms_closed: bool = False,
        guilds: Iterable[Guild] | None = None,
        roles: Iterable[Role] = (),
    ) -> Player:
        """A human user; joins `guilds` (default: every guild so far). Returns their driver."""
        user = User(self.snowflake(), name, locale=locale, dms_closed=dms_closed)
        self.users[user.id] = user
        role_ids = [r.id for r in roles]
        for guild in self.guilds.values() if guilds is None else guilds:
            member = Member(user, [r for r in role_ids if r in guild.roles], joined_at=guild.created)
            guild.members[user.id] = member
            self.announce("GUILD_MEMBER_ADD", _for_members_intent(member.payload() | {"guild_id": str(guild.id)}))
        return Player(self, user)
