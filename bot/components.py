"""Persistent buttons and selects.  Their custom_id carries the game, so they keep working
after a restart (registered with ``add_dynamic_items`` in ``setup_hook``).

    cubist:<game>:b:<action>          buttons: turn, end, undo, studio, board, rematch, snooze, stop
    cubist:<game>:v:<choice>:<turn>   votes on an away player (bot/away.py)
    cubist:<game>:s:<action>[:<arg>]  selects: pick (a group), dest (a move of group <arg>), end

The callbacks only translate: the game service decides everything.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from engine import Game

from . import panel
from .i18n import t
from .i18n.choose import remember, user_language
from .items import PlayButton

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)

# Labels are in the catalogues (``buttons.<action>``): the turn post's buttons in the
# server's language, the panel's and DMs' in the reader's.
BUTTONS: dict[str, discord.ButtonStyle] = {
    "turn": discord.ButtonStyle.primary,
    "end": discord.ButtonStyle.success,
    "undo": discord.ButtonStyle.secondary,
    "studio": discord.ButtonStyle.secondary,
    "board": discord.ButtonStyle.secondary,
    "rematch": discord.ButtonStyle.primary,
    "snooze": discord.ButtonStyle.secondary,
    "stop": discord.ButtonStyle.secondary,
}


def button_label(action: str, locale: str) -> str:
    return t(f"buttons.{action}", locale) if action in BUTTONS else action


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:(?P<action>[a-z]+)"):
    def __init__(self, game_id: int, action: str, locale: str) -> None:
        style = BUTTONS.get(action, discord.ButtonStyle.secondary)
        label = button_label(action, locale)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"cubist:{game_id}:b:{action}"))
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["game"]), match["action"], user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .actions import on_button

        bot: CubistBot = interaction.client  # type: ignore[assignment]
        await remember(bot.service, interaction)  # later DMs follow the clicker's language
        await on_button(bot, interaction, self.game_id, self.action)


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cubist:(?P<game>\d+):s:(?P<action>[a-z]+)(?::(?P<arg>.*))?",
):
    def __init__(
        self,
        game_id: int,
        action: str,
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        custom_id = f"cubist:{game_id}:s:{action}" + (f":{arg}" if arg else "")
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id, options=options or [discord.SelectOption(label="-")], placeholder=placeholder
            )
        )
        self.game_id = game_id
        self.action = action
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameSelect:
        return cls(int(match["game"]), match["action"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from .actions import on_select

        data: Any = interaction.data or {}
        values = list(data.get("values") or [])
        bot: CubistBot = interaction.client  # type: ignore[assignment]
        await remember(bot.service, interaction)
        await on_select(bot, interaction, self.game_id, self.action, self.arg, values)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def game_buttons(game_id: int, locale: str) -> discord.ui.View:
    """Buttons on the channel's turn post (``locale``: the server's language).  They open
    private answers and never act on the game: Play opens the turn panel."""
    return _view(PlayButton(game_id, locale), *(GameButton(game_id, a, locale) for a in ("studio", "board")))


def rematch_view(game_id: int, locale: str) -> discord.ui.View:
    return _view(GameButton(game_id, "rematch", locale), GameButton(game_id, "board", locale))


def panel_view(game_id: int, game: Game, locale: str) -> discord.ui.View:
    """The turn panel: a select of what to do (grouped legal moves) and the frequent buttons
    (``locale``: the player's own language; the panel is ephemeral)."""
    groups = panel.groups(game)
    keys = list(groups)[: panel.MAX_OPTIONS]
    options = [
        discord.SelectOption(
            label=panel.group_label(game, k, locale)[:100], value=k, description=_describe_group(groups[k], locale)
        )
        for k in keys
    ]
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(GameSelect(game_id, "pick", options=options, placeholder=t("components.pick", locale)))
    items += [GameButton(game_id, a, locale) for a in ("end", "undo", "board")]
    return _view(*items)


def _describe_group(moves: list[str], locale: str) -> str:
    if len(moves) == 1:
        return moves[0][:100]
    return t("components.choices", locale, count=len(moves))


def dest_view(game_id: int, game: Game, key: str, locale: str) -> tuple[discord.ui.View, int]:
    """The second step: the moves of one group (at most 25); returns the view and the group size."""
    moves = panel.groups(game).get(key, [])
    options = [
        discord.SelectOption(label=(panel.end_label(game, m, locale) if key == "end" else m)[:100], value=m)
        for m in moves[: panel.MAX_OPTIONS]
    ]
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(GameSelect(game_id, "dest", key, options=options, placeholder=t("components.dest", locale)))
    items.append(GameButton(game_id, "turn", locale))
    return _view(*items), len(moves)


def end_view(game_id: int, game: Game, locale: str) -> discord.ui.View:
    return dest_view(game_id, game, "end", locale)[0]
