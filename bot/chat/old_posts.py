"""Old turn posts lose their buttons when a newer table post replaces them: only
the newest post of a game offers Play, so nobody acts from a stale picture.

Taking the buttons off is one more request per turn.  When the old post was an interaction's
answer less than 14 minutes ago (Discord keeps an interaction's token 15 minutes), it is
edited through that interaction's webhook, which does not count against the bot's global
rate limit; otherwise (a turn that took longer, a post made by another process, a restart)
it is a channel message edit.  Either way it runs in the background, after the new post and
the next player's DM, and a failure only leaves a stale button (which opens the panel of the
game as it is now, never an old state)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.store import GameRecord

log = logging.getLogger(__name__)

TOKEN_FRESH_S = 14 * 60.0  # an interaction token lives 15 minutes
KEPT = 2000  # interactions remembered (one per game in play, at most)


class OldPosts:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.clock = time.monotonic
        self.token_fresh_s = TOKEN_FRESH_S
        self._answers: OrderedDict[int, tuple[discord.Interaction, float]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self.edits = {"webhook": 0, "channel": 0}  # how old posts were edited (tests, benchmark)

    def answered(self, message: discord.Message, interaction: discord.Interaction) -> None:
        """``message`` was ``interaction``'s answer: it can be edited through its webhook."""
        self._answers[message.id] = (interaction, self.clock())
        while len(self._answers) > KEPT:
            self._answers.popitem(last=False)

    def replaced(self, record: GameRecord, old_message_id: int) -> None:
        """The game's table post ``old_message_id`` was replaced: take its buttons off."""
        task = asyncio.create_task(self._retire(record, old_message_id), name=f"cubist-old-post-{old_message_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Waits for the edits under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _retire(self, record: GameRecord, message_id: int) -> None:
        answer = self._answers.pop(message_id, None)
        try:
            if answer is not None and self.clock() - answer[1] < self.token_fresh_s:
                with contextlib.suppress(discord.HTTPException):
                    await answer[0].edit_original_response(view=None)
                    self.edits["webhook"] += 1
                    return
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            await channel.get_partial_message(message_id).edit(view=None)
            self.edits["channel"] += 1
        except discord.NotFound:
            pass  # deleted meanwhile: nothing to take off
        except discord.HTTPException as e:
            log.warning("game %s: could not take the buttons off post %s: %s", record.id, message_id, e)
