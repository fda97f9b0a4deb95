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

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)

BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "turn": ("Turn panel", discord.ButtonStyle.primary),
    "end": ("End turn", discord.ButtonStyle.success),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "studio": ("My studio", discord.ButtonStyle.secondary),
    "board": ("Board", discord.ButtonStyle.secondary),
    "rematch": ("Rematch", discord.ButtonStyle.primary),
    "snooze": ("Snooze 4 h", discord.ButtonStyle.secondary),
    "stop": ("Stop reminders for this game", discord.ButtonStyle.secondary),
}


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):b:(?P<action>[a-z]+)"):
    def __init__(self, game_id: int, action: str) -> None:
        label, style = BUTTONS.get(action, (action, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"cubist:{game_id}:b:{action}"))
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from .actions import on_button

        bot: CubistBot = interaction.client  # type: ignore[assignment]
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
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> GameSelect:
        return cls(int(match["game"]), match["action"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from .actions import on_select

        data: Any = interaction.data or {}
        values = list(data.get("values") or [])
        bot: CubistBot = interaction.client  # type: ignore[assignment]
        await on_select(bot, interaction, self.game_id, self.action, self.arg, values)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def game_buttons(game_id: int) -> discord.ui.View:
    """Buttons on the channel's turn post."""
    return _view(*(GameButton(game_id, a) for a in ("turn", "end", "undo", "studio")))


def rematch_view(game_id: int) -> discord.ui.View:
    return _view(GameButton(game_id, "rematch"), GameButton(game_id, "board"))


def panel_view(game_id: int, game: Game) -> discord.ui.View:
    """The turn panel: a select of what to do (grouped legal moves) and the frequent buttons."""
    groups = panel.groups(game)
    keys = list(groups)[: panel.MAX_OPTIONS]
    options = [
        discord.SelectOption(label=panel.group_label(game, k)[:100], value=k, description=_describe_group(groups[k]))
        for k in keys
    ]
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(GameSelect(game_id, "pick", options=options, placeholder="Choose a die or an action…"))
    items += [GameButton(game_id, "end"), GameButton(game_id, "undo"), GameButton(game_id, "board")]
    return _view(*items)


def _describe_group(moves: list[str]) -> str:
    if len(moves) == 1:
        return moves[0][:100]
    return f"{len(moves)} choices"


def dest_view(game_id: int, game: Game, key: str) -> tuple[discord.ui.View, int]:
    """The second step: the moves of one group (at most 25); returns the view and the group size."""
    moves = panel.groups(game).get(key, [])
    label = panel.end_label if key == "end" else (lambda _g, t: t)
    options = [discord.SelectOption(label=label(game, t)[:100], value=t) for t in moves[: panel.MAX_OPTIONS]]
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(GameSelect(game_id, "dest", key, options=options, placeholder="…then where"))
    items.append(GameButton(game_id, "turn"))
    return _view(*items), len(moves)


def end_view(game_id: int, game: Game) -> discord.ui.View:
    return dest_view(game_id, game, "end")[0]
