"""What the turn panel's, the hint's and the Play button's items do, one ``DynamicItem`` class
per behaviour (their looks and id templates: ``bot/turn/faces.py`` and ``bot/chat/buttons.py``).
Each parses its custom_id and hands the press to ``bot.turn.panel`` or ``bot.turn.hints``.

Also the items of posts from before the turn panel (``cubist:<game>:b:turn|undo|end`` and the
two-step selects ``cubist:<game>:s:...``): they open today's panel (End turn asks first).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.chat import buttons
from bot.chat.guard import Guarded
from bot.chat.language import remember, user_language
from bot.turn import faces, hints, panel
from engine import MoveSyntaxError, parse_move
from engine.moves import EndTurn, Undo

Match = re.Match[str]
Button = discord.ui.DynamicItem[discord.ui.Button[Any]]
Select = discord.ui.DynamicItem[discord.ui.Select[Any]]


def _values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


def _end(text: str) -> EndTurn | None:
    """The End select's value, an end's notation, parsed here, at the edge (None: not an end)."""
    try:
        move = parse_move(text)
    except MoveSyntaxError:
        return None
    return move if isinstance(move, EndTurn) else None


def _path(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p)


async def _remember(interaction: discord.Interaction) -> None:
    """The clicker's language, for the DMs that follow."""
    await remember(interaction.client.service, interaction)  # type: ignore[attr-defined]


class PlayButton(Guarded, Button, template=buttons.PLAY):
    def __init__(self, game_id: int, locale: str) -> None:
        super().__init__(buttons.play_button(game_id, locale))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _remember(interaction)
        await panel.open_panel(interaction, self.game_id)


class PanelSelect(Guarded, Select, template=faces.TREE_SELECT):
    def __init__(self, game_id: int, version: int, path: tuple[int, ...] = ()) -> None:
        super().__init__(faces.tree_select(game_id, version, path))
        self.game_id, self.version, self.path = game_id, version, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.pick(interaction, self.game_id, self.version, self.path, _values(interaction))


class TreeButton(Guarded, Button, template=faces.TREE_BUTTON):
    """A choice of the panel's tree as a button (where the choices are few a button is one
    tap; a select is two), ``path`` the picks with it."""

    def __init__(self, game_id: int, version: int, path: tuple[int, ...]) -> None:
        super().__init__(faces.tree_button(game_id, version, path))
        self.game_id, self.version, self.path = game_id, version, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), _path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        *parent, index = self.path
        await panel.pick(interaction, self.game_id, self.version, tuple(parent), [str(index)])


class BackButton(Guarded, Button, template=faces.BACK):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(faces.back_button(game_id, version, locale))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.back(interaction, self.game_id, self.version)


class EndTurnButton(Guarded, Button, template=faces.END_ASK):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(faces.end_turn_button(game_id, version, locale))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.ask_end(interaction, self.game_id, self.version)


class EndChoiceSelect(Guarded, Select, template=faces.END_PICK):
    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(faces.end_choice_select(game_id, version))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        await panel.ask_end(interaction, self.game_id, self.version, _end(values[0]) if values else None)


class ConfirmEndButton(Guarded, Button, template=faces.END_OK):
    def __init__(self, game_id: int, version: int, keep: str, locale: str) -> None:
        super().__init__(faces.confirm_end_button(game_id, version, keep, locale))
        self.game_id, self.version, self.keep = game_id, version, keep

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), match["keep"], user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.play(interaction, self.game_id, self.version, EndTurn(tuple(int(d) for d in self.keep)))


class UndoButton(Guarded, Button, template=faces.UNDO):
    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(faces.undo_button(game_id, version, locale))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.play(interaction, self.game_id, self.version, Undo())


class DieButton(Guarded, Button, template=faces.DIE):
    """Show where this die may go, lettered."""

    def __init__(self, game_id: int, version: int, die: str) -> None:
        super().__init__(faces.die_button(game_id, version, die))
        self.game_id, self.version, self.die = game_id, version, die

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), match["die"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel.pick_die(interaction, self.game_id, self.version, self.die)


class CellButton(Guarded, Button, template=faces.CELL):
    """Place the die there (the button's label is the letter the studio picture shows)."""

    def __init__(self, game_id: int, version: int, die: str, room: int, cell: int, letter: str = "") -> None:
        super().__init__(faces.cell_button(game_id, version, die, room, cell, letter))
        self.game_id, self.version, self.die, self.room, self.cell = game_id, version, die, room, cell

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        label = getattr(item, "label", None) or ""
        room, cell = int(match["room"]) - 1, int(match["cell"])
        return cls(int(match["game"]), int(match["version"]), match["die"], room, cell, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        letter = self.item.label or ""
        await panel.place(interaction, self.game_id, self.version, self.die, self.room, self.cell, letter)


class HintPlayButton(Guarded, Button, template=faces.HINT_PLAY):
    """Play the suggested turn (all but its end)."""

    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(faces.hint_play_button(game_id, version, locale))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hints.play_this(interaction, self.game_id, self.version)


class HintShowButton(Guarded, Button, template=faces.HINT_SHOW):
    """The studio as it would be after the suggested turn."""

    def __init__(self, game_id: int, version: int, locale: str) -> None:
        super().__init__(faces.hint_show_button(game_id, version, locale))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), int(match["version"]), user_language(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hints.show_me(interaction, self.game_id, self.version)


class OldPanelButton(Guarded, Button, template=buttons.game_button_id("(?P<old>turn|undo|end)")):
    """Turn panel / Undo / End turn buttons of posts from before the panel: they open it."""

    def __init__(self, game_id: int, locale: str, old: str = "turn") -> None:
        super().__init__(buttons.game_button(game_id, old, locale))
        self.game_id, self.old = game_id, old

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match, /):
        return cls(int(match["game"]), user_language(interaction), match["old"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _remember(interaction)
        await panel.old_panel_button(interaction, self.game_id, ending=self.old == "end")


class OldPanelSelect(Guarded, Select, template=r"cubist:(?P<game>\d+):s:(?P<rest>.*)"):
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
        await _remember(interaction)
        await panel.old_panel_button(interaction, self.game_id, ending=False)


ITEMS = (
    PlayButton,
    PanelSelect,
    TreeButton,
    BackButton,
    EndTurnButton,
    EndChoiceSelect,
    ConfirmEndButton,
    UndoButton,
    DieButton,
    CellButton,
    HintPlayButton,
    HintShowButton,
    OldPanelButton,
    OldPanelSelect,
)
