"""How the bot's buttons look, and the views it posts.

A view here is only what Discord shows: what a press does is decided by the ``DynamicItem``
registered for its custom_id (one class per behaviour, in the feature it belongs to; their
ids carry the game, so they keep working after a restart).  So the views are never kept in
discord.py's view store (``is_dispatchable`` is False), and building one needs no feature.

Ids of the buttons on the game's posts (stable: old messages' buttons keep matching):

    cubist:<game>:play        open the private turn panel (turn post, DM, reminder)
    cubist:<game>:b:studio    the clicker's studio, privately (turn post)
    cubist:<game>:b:board     the whole table, privately (turn post, panel, final post)
    cubist:<game>:b:rematch   a new game with the same players (final post)
    cubist:<game>:b:snooze    reminders of this game wait a few hours (turn-start DM, reminders)
    cubist:<game>:b:stop      no more reminders for this game (turn-start DM, reminders)
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t

PLAY = r"cubist:(?P<game>\d+):play"
STYLES = {"rematch": discord.ButtonStyle.primary}


class Faces(discord.ui.View):
    """A posted message's items, as Discord draws them (their behaviour: the registered items)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = Faces()
    for item in items:
        view.add_item(item)
    return view


def game_button_id(action: str) -> str:
    """The template of ``cubist:<game>:b:<action>`` (``action`` may be a regex group)."""
    return rf"cubist:(?P<game>\d+):b:{action}"


def play_button(game_id: int, locale: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=t("panel.btn.play", locale), style=discord.ButtonStyle.primary, custom_id=f"cubist:{game_id}:play"
    )


def game_button(game_id: int, action: str, locale: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=t(f"buttons.{action}", locale),
        style=STYLES.get(action, discord.ButtonStyle.secondary),
        custom_id=f"cubist:{game_id}:b:{action}",
    )


def game_buttons(game_id: int, locale: str, link: discord.ui.Item[Any] | None = None) -> discord.ui.View:
    """Buttons on the channel's turn post (``locale``: the server's language).  They open
    private answers and never act on the game: Play opens the turn panel; ``link``, the
    web board to watch (bot/chat/board_link.py)."""
    items = [play_button(game_id, locale), game_button(game_id, "studio", locale)]
    items.append(game_button(game_id, "board", locale))
    return view_of(*items, *([link] if link is not None else []))


def rematch_view(game_id: int, locale: str, link: discord.ui.Item[Any] | None = None) -> discord.ui.View:
    items = [game_button(game_id, "rematch", locale), game_button(game_id, "board", locale)]
    return view_of(*items, *([link] if link is not None else []))


def reminder_buttons(game_id: int, locale: str) -> list[discord.ui.Item[Any]]:
    """Under a turn-start DM or a reminder: snooze this game's reminders, or stop them."""
    return [game_button(game_id, "snooze", locale), game_button(game_id, "stop", locale)]


def reminder_view(game_id: int, locale: str) -> discord.ui.View:
    """Under a reminder: open the panel, snooze, stop."""
    return view_of(play_button(game_id, locale), *reminder_buttons(game_id, locale))
