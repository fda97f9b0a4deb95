"""The turn panel's items.  Templates (stable: old messages' items keep matching):

    cubist:<game>:play                  open the private panel (turn post, DM, reminder)
    cubist:<game>:t:<version>:<path>    a select of the choice tree; <path> the picks so far ("0.3")
    cubist:<game>:back:<version>        back to the first select
    cubist:<game>:endask:<version>      End turn…: shows what will happen, asks to confirm
    cubist:<game>:endpick:<version>     which dice to keep (then confirm)
    cubist:<game>:endok:<version>:<keep> confirmed end of turn keeping <keep> ("53", "")
    cubist:<game>:undo:<version>        take back the last action
    cubist:<game>:die:<version>:<die>   where may this die go: cell buttons, lettered (``bot.panel.cells``)
    cubist:<game>:cell:<version>:<die>:<workroom>:<cell>   place the die there

The callbacks only translate ids into calls of ``bot.turnpanel``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ..i18n import t
from ..i18n.choose import remember, user_language
from .guard import Guarded

Match = re.Match[str]


def _panel():
    """``bot.turnpanel`` builds these items into its views, so it is imported when an item is
    used rather than when this module loads (the import would be circular)."""
    from .. import turnpanel

    return turnpanel


def _values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


def _path(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p)


class PlayButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):play"):
    def __init__(self, game_id: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("turnpanel.btn.play", locale),
                style=discord.ButtonStyle.primary,
                custom_id=f"cubist:{game_id}:play",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await remember(interaction.client.service, interaction)  # type: ignore[attr-defined]
        await _panel().open_panel(interaction, self.game_id)


class PanelSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cubist:(?P<game>\d+):t:(?P<version>\d+):(?P<path>[0-9.]*)",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        path: tuple[int, ...] = (),
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        custom_id = f"cubist:{game_id}:t:{version}:{'.'.join(map(str, path))}"
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=custom_id, options=options or [discord.SelectOption(label="-")], placeholder=placeholder
        )
        super().__init__(select)
        self.game_id, self.version, self.path = game_id, version, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _panel().pick(interaction, self.game_id, self.version, self.path, _values(interaction))


class BackButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):back:(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("turnpanel.btn.back", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"cubist:{game_id}:back:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _panel().back(interaction, self.game_id, self.version)


class EndTurnButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):endask:(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("turnpanel.btn.end", locale),
                style=discord.ButtonStyle.success,
                custom_id=f"cubist:{game_id}:endask:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _panel().ask_end(interaction, self.game_id, self.version)


class EndChoiceSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select], template=r"cubist:(?P<game>\d+):endpick:(?P<version>\d+)"
):
    def __init__(
        self, game_id: int, version: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cubist:{game_id}:endpick:{version}",
            options=options or [discord.SelectOption(label="-")],
            placeholder=placeholder or None,
        )
        super().__init__(select)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        await _panel().ask_end(interaction, self.game_id, self.version, values[0] if values else None)


class ConfirmEndButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cubist:(?P<game>\d+):endok:(?P<version>\d+):(?P<keep>[1-6]{0,2})",
):
    def __init__(self, game_id: int, version: int, keep: str, locale: str, label: str = "") -> None:
        """``label``: an other way to end, said in full ("End the turn keeping 6: …"); by
        default the confirmation of the end the panel proposed."""
        super().__init__(
            discord.ui.Button(
                label=(label[:79] + "…" if len(label) > 80 else label) or t("turnpanel.btn.confirm", locale),
                style=discord.ButtonStyle.secondary if label else discord.ButtonStyle.success,
                custom_id=f"cubist:{game_id}:endok:{version}:{keep}",
            )
        )
        self.game_id, self.version, self.keep = game_id, version, keep

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), match["keep"], user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        text = " ".join(["end", *self.keep])
        await _panel().play(interaction, self.game_id, self.version, text)


class UndoButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"cubist:(?P<game>\d+):undo:(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("turnpanel.btn.undo", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"cubist:{game_id}:undo:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _panel().play(interaction, self.game_id, self.version, "undo")


class DieButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cubist:(?P<game>\d+):die:(?P<version>\d+):(?P<die>[0-9]|i[0-9]\.[0-9])",
):
    """``cubist:<game>:die:<version>:<die>``: show where this die may go, lettered."""

    def __init__(self, game_id: int, version: int, die: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or die,
                style=discord.ButtonStyle.primary,
                custom_id=f"cubist:{game_id}:die:{version}:{die}",
            )
        )
        self.game_id, self.version, self.die = game_id, version, die

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), match["die"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _panel().pick_die(interaction, self.game_id, self.version, self.die)


class CellButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cubist:(?P<game>\d+):cell:(?P<version>\d+):(?P<die>[0-9]|i[0-9]\.[0-9]):(?P<room>[12]):(?P<cell>\d{1,2})",
):
    """``cubist:<game>:cell:<version>:<die>:<workroom>:<cell>``: place the die there (the
    button's label is the letter the studio picture shows on that cell)."""

    def __init__(self, game_id: int, version: int, die: str, room: int, cell: int, letter: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=letter or "?",
                style=discord.ButtonStyle.secondary,
                custom_id=f"cubist:{game_id}:cell:{version}:{die}:{room + 1}:{cell}",
            )
        )
        self.game_id, self.version, self.die, self.room, self.cell = game_id, version, die, room, cell

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        label = getattr(item, "label", None) or ""
        room, cell = int(match["room"]) - 1, int(match["cell"])
        return cls(int(match["game"]), int(match["version"]), match["die"], room, cell, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        letter = self.item.label or ""
        await _panel().place(interaction, self.game_id, self.version, self.die, self.room, self.cell, letter)


class TreeButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cubist:(?P<game>\d+):tb:(?P<version>\d+):(?P<path>[0-9.]+)",
):
    """``cubist:<game>:tb:<version>:<path>``: a choice of the panel's tree as a button (where
    the choices are few a button is one tap; a select is two), ``path`` the picks with it."""

    def __init__(self, game_id: int, version: int, path: tuple[int, ...], label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label if 0 < len(label) <= 80 else (label[:79] + "…" if label else "?"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"cubist:{game_id}:tb:{version}:{'.'.join(map(str, path))}",
            )
        )
        self.game_id, self.version, self.path = game_id, version, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        *parent, index = self.path
        await _panel().pick(interaction, self.game_id, self.version, tuple(parent), [str(index)])
