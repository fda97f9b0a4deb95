"""The "Open the board" link button: a signed link to the game's web board (bot/web/links.py)
for one member (their turn DM, their panel) or for anybody (the channel's turn post, which
only watches).  No button when the web board is off (no PUBLIC_URL)."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat.base import Bot
from bot.i18n import t
from bot.web.links import SPECTATOR


def board_link(bot: Bot, game_id: int, lang: str, member: int = SPECTATOR) -> discord.ui.Button[Any] | None:
    links = bot.links
    if links is None:
        return None
    url = links.url(game_id, member, bot.clock())
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t("web.open", lang), url=url)
