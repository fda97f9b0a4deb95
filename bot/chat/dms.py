"""Direct messages: one DM channel per person, remembered; closed DMs remembered in the
database (one 403 per person and week) so the bot does not keep knocking; no DM at all while
the bot backs off after too many invalid requests (bot/chat/invalid_requests.py)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.chat.invalid_requests import InvalidRequestGuard
from bot.chat.replies import clip
from bot.service.game import GameService

log = logging.getLogger(__name__)

INVALID_RECIPIENT = 50033  # Discord's code for a user that cannot be found / DMed at all
UNKNOWN_CHANNEL = 10003
DM_CACHE_SIZE = 10_000
DM_RETRY_SECONDS = 7 * 24 * 3600.0  # a closed DM is tried again after a week, not on every command


class NotSent(Exception):
    """A DM not even tried: the person's DMs are known to be closed (``closed``), or the bot
    is backing off after too many invalid requests."""

    def __init__(self, closed: bool) -> None:
        super().__init__("DMs closed" if closed else "backing off after invalid requests")
        self.closed = closed


def _rewound(value: object) -> object:
    """An attachment read by a failed send, ready to be sent again."""
    if isinstance(value, discord.File):
        value.reset()
    return value


class DirectMessages:
    """``service``: the game service once the store is open (the client builds it at start-up)."""

    def __init__(
        self,
        client: discord.Client,
        service: Callable[[], GameService],
        invalid_requests: InvalidRequestGuard,
        clock: Callable[[], float],
    ) -> None:
        self.client = client
        self.service = service
        self.invalid_requests = invalid_requests
        self.clock = clock
        # user id -> DM channel id.  discord.py keeps only 128 DM channels, so without this
        # every turn-start DM cost a POST /users/@me/channels as well: one of three
        # rate-limited requests per turn in the load benchmark.  A DM channel's id never
        # changes; a stale one (404 Unknown Channel) is dropped and created again.
        self._channels: OrderedDict[int, int] = OrderedDict()

    async def send(self, user_id: int, text: str, **kwargs: Any) -> None:
        """Sends a DM, unless the person's DMs are known to be closed (remembered in the
        database across commands, games and restarts: one 403 per person and week) or the
        bot is backing off after many invalid requests; then raises NotSent."""
        if self.invalid_requests.tripped:
            raise NotSent(closed=False)
        status = await self.service().queries.dm_status(user_id)
        if status is not None and not status[0] and self.clock() - status[1] < DM_RETRY_SECONDS:
            raise NotSent(closed=True)
        try:
            await self._post(user_id, text, **kwargs)
        except discord.Forbidden:
            await self.service().queries.set_dm_status(user_id, False)
            raise
        if status is None or not status[0]:
            await self.service().queries.set_dm_status(user_id, True)

    async def _post(self, user_id: int, text: str, **kwargs: Any) -> None:
        cached = self._channels.get(user_id)
        if cached is not None:
            self._channels.move_to_end(user_id)
            channel = self.client.get_partial_messageable(cached, type=discord.ChannelType.private)
            try:
                await channel.send(text, **kwargs)
                return
            except discord.NotFound as e:
                if e.code != UNKNOWN_CHANNEL:
                    raise
                self._channels.pop(user_id, None)
                kwargs = {k: _rewound(v) for k, v in kwargs.items()}
        dm = await self.client.create_dm(discord.Object(user_id))
        self._channels[user_id] = dm.id
        while len(self._channels) > DM_CACHE_SIZE:
            self._channels.popitem(last=False)
        await dm.send(text, **kwargs)

    async def probe(self, user_id: int, text: str) -> bool:
        """A short DM (at join, after a settings change): records and returns whether it went."""
        try:
            await self.send(user_id, clip(text))
        except NotSent as e:
            if e.closed:
                await self.service().queries.set_dm_reachable(user_id, False)
            return False
        except discord.HTTPException as e:
            level = logging.INFO if isinstance(e, discord.Forbidden) else logging.WARNING
            log.log(level, "cannot DM user %s: %s", user_id, e)
            await self.service().queries.set_dm_reachable(user_id, False)
            return False
        await self.service().queries.set_dm_reachable(user_id, True)
        return True
