"""The buttons under a hint (``bot.hints``):

cubist:<game>:hintplay:<version>   play the suggested turn (all but its end)
cubist:<game>:hintshow:<version>   picture of the studio after it
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ..i18n import t
from ..i18n.choose import user_language
from .guard import Guarded

Match = re.Match[str]


def _hints():
    """``bot.hints`` builds these buttons, so it is imported when one is pressed (the import
    would be circular at load time)."""
    from .. import hints

    return hints


class HintPlayButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):hintplay:(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("hints.play", locale),
                style=discord.ButtonStyle.primary,
                custom_id=f"cubist:{game_id}:hintplay:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hints().play_this(interaction, self.game_id, self.version)


class HintShowButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):hintshow:(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("hints.show", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"cubist:{game_id}:hintshow:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hints().show_me(interaction, self.game_id, self.version)
