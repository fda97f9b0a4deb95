"""The game's other buttons, one class per behaviour.  Their custom_ids are the ones the
bot has always posted (``cubist:<game>:b:<action>``), so buttons on old messages keep working:

    cubist:<game>:b:studio    the clicker's studio, privately (turn post)
    cubist:<game>:b:board     the whole table, privately (turn post, panel, final post)
    cubist:<game>:b:rematch   a new game with the same players (final post)
    cubist:<game>:b:snooze    reminders of this game wait a few hours (turn-start DM, reminders)
    cubist:<game>:b:stop      no more reminders for this game (turn-start DM, reminders)
    cubist:<game>:b:turn|undo|end, cubist:<game>:s:...   posts from before the turn panel:
                              they open the panel (End turn asks first, as the panel does)
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from ..i18n import t
from ..i18n.choose import remember, user_language
from .guard import Guarded

Match = re.Match[str]
STYLES = {"rematch": discord.ButtonStyle.primary}


def _actions():
    """``bot.actions`` builds views with these buttons: imported when one is pressed."""
    from .. import actions

    return actions


class _GameButton(Guarded):
    """What the buttons about one game share (custom_id ``cubist:<game>:b:<action>``); each
    behaviour is a ``DynamicItem`` class of its own below."""

    action: ClassVar[str]

    def __init__(self, game_id: int, locale: str, action: str | None = None) -> None:
        action = action or self.action
        super().__init__(  # type: ignore[call-arg]  # DynamicItem's, next in the MRO
            discord.ui.Button(
                label=t(f"buttons.{action}", locale),
                style=STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"cubist:{game_id}:b:{action}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await remember(interaction.client.service, interaction)  # type: ignore[attr-defined]  # DMs follow it
        await self.act(interaction)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class StudioButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:studio"):
    action = "studio"

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().show_studio(interaction, self.game_id)


class BoardButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:board"):
    action = "board"

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().show_board(interaction, self.game_id)


class RematchButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:rematch"):
    action = "rematch"

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().rematch(interaction, self.game_id)


class SnoozeButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:snooze"):
    action = "snooze"

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().snooze(interaction, self.game_id)


class StopButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:stop"):
    action = "stop"

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().stop_reminders(interaction, self.game_id)


class OldPanelButton(
    _GameButton, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:(?P<old>turn|undo|end)"
):
    """Turn panel / Undo / End turn buttons of posts from before the panel: they open it."""

    action = "turn"

    def __init__(self, game_id: int, locale: str, old: str = "turn") -> None:
        super().__init__(game_id, locale, old)
        self.old = old

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), user_language(interaction), match["old"])

    async def act(self, interaction: discord.Interaction) -> None:
        await _actions().old_panel_button(interaction, self.game_id, ask_end=self.old == "end")


class OldPanelSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select], template=r"cubist:(?P<game>\d+):s:(?P<rest>.*)"
):
    """The two-step selects of the panel before the choice tree: they open today's panel."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Select(custom_id=f"cubist:{game_id}:s:pick", options=[discord.SelectOption(label="-")])
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await remember(interaction.client.service, interaction)  # type: ignore[attr-defined]
        await _actions().old_panel_button(interaction, self.game_id, ask_end=False)
