"""How the turn panel's and the hint's items look (their behaviour: ``bot/turn/items.py``).
Templates (stable: old messages' items keep matching):

    cubist:<game>:t:<version>:<path>    a select of the choice tree; <path> the picks so far ("0.3")
    cubist:<game>:tb:<version>:<path>   a choice of the tree as a button
    cubist:<game>:back:<version>        back to the first select
    cubist:<game>:endask:<version>      End turn…: shows what will happen, asks to confirm
    cubist:<game>:endpick:<version>     which dice to keep (then confirm)
    cubist:<game>:endok:<version>:<keep> confirmed end of turn keeping <keep> ("53", "")
    cubist:<game>:undo:<version>        take back the last action
    cubist:<game>:die:<version>:<die>   where may this die go: cell buttons, lettered (``bot.panel.cells``)
    cubist:<game>:cell:<version>:<die>:<workroom>:<cell>   place the die there
    cubist:<game>:hintplay:<version>    play the suggested turn (all but its end)
    cubist:<game>:hintshow:<version>    picture of the studio after it
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]
PRIMARY, SECONDARY, SUCCESS = discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.success

TREE_SELECT = r"cubist:(?P<game>\d+):t:(?P<version>\d+):(?P<path>[0-9.]*)"
TREE_BUTTON = r"cubist:(?P<game>\d+):tb:(?P<version>\d+):(?P<path>[0-9.]+)"
BACK = r"cubist:(?P<game>\d+):back:(?P<version>\d+)"
END_ASK = r"cubist:(?P<game>\d+):endask:(?P<version>\d+)"
END_PICK = r"cubist:(?P<game>\d+):endpick:(?P<version>\d+)"
END_OK = r"cubist:(?P<game>\d+):endok:(?P<version>\d+):(?P<keep>[1-6]{0,2})"
UNDO = r"cubist:(?P<game>\d+):undo:(?P<version>\d+)"
DIE = r"cubist:(?P<game>\d+):die:(?P<version>\d+):(?P<die>[0-9]|i[0-9]\.[0-9])"
CELL = r"cubist:(?P<game>\d+):cell:(?P<version>\d+):(?P<die>[0-9]|i[0-9]\.[0-9]):(?P<room>[12]):(?P<cell>\d{1,2})"
HINT_PLAY = r"cubist:(?P<game>\d+):hintplay:(?P<version>\d+)"
HINT_SHOW = r"cubist:(?P<game>\d+):hintshow:(?P<version>\d+)"


def _fit(label: str, fallback: str) -> str:
    """Discord takes 80 characters on a button."""
    if not label:
        return fallback
    return label if len(label) <= 80 else label[:79] + "…"


def path_text(path: tuple[int, ...]) -> str:
    return ".".join(map(str, path))


def _button(label: str, style: discord.ButtonStyle, custom_id: str) -> Button:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)


def _select(custom_id: str, options: list[discord.SelectOption] | None, placeholder: str | None) -> Select:
    # Discord refuses a select without options: a placeholder option until the real ones are set.
    return discord.ui.Select(
        custom_id=custom_id, options=options or [discord.SelectOption(label="-")], placeholder=placeholder
    )


def tree_select(
    game_id: int,
    version: int,
    path: tuple[int, ...] = (),
    options: list[discord.SelectOption] | None = None,
    placeholder: str | None = None,
) -> Select:
    return _select(f"cubist:{game_id}:t:{version}:{path_text(path)}", options, placeholder)


def tree_button(game_id: int, version: int, path: tuple[int, ...], label: str = "") -> Button:
    return _button(_fit(label, "?"), SECONDARY, f"cubist:{game_id}:tb:{version}:{path_text(path)}")


def back_button(game_id: int, version: int, locale: str) -> Button:
    return _button(t("panel.btn.back", locale), SECONDARY, f"cubist:{game_id}:back:{version}")


def end_turn_button(game_id: int, version: int, locale: str) -> Button:
    return _button(t("panel.btn.end", locale), SUCCESS, f"cubist:{game_id}:endask:{version}")


def end_choice_select(
    game_id: int, version: int, options: list[discord.SelectOption] | None = None, placeholder: str = ""
) -> Select:
    return _select(f"cubist:{game_id}:endpick:{version}", options, placeholder or None)


def confirm_end_button(game_id: int, version: int, keep: str, locale: str, label: str = "") -> Button:
    """``label``: an other way to end, said in full ("End the turn keeping 6: …"); by default
    the confirmation of the end the panel proposed."""
    style = SECONDARY if label else SUCCESS
    return _button(_fit(label, t("panel.btn.confirm", locale)), style, f"cubist:{game_id}:endok:{version}:{keep}")


def undo_button(game_id: int, version: int, locale: str) -> Button:
    return _button(t("panel.btn.undo", locale), SECONDARY, f"cubist:{game_id}:undo:{version}")


def die_button(game_id: int, version: int, die: str, label: str = "") -> Button:
    return _button(label or die, PRIMARY, f"cubist:{game_id}:die:{version}:{die}")


def cell_button(game_id: int, version: int, die: str, room: int, cell: int, letter: str = "") -> Button:
    """``room`` 0-based; the label is the letter the studio picture shows on that cell."""
    return _button(letter or "?", SECONDARY, f"cubist:{game_id}:cell:{version}:{die}:{room + 1}:{cell}")


def hint_play_button(game_id: int, version: int, locale: str) -> Button:
    return _button(t("hints.play", locale), PRIMARY, f"cubist:{game_id}:hintplay:{version}")


def hint_show_button(game_id: int, version: int, locale: str) -> Button:
    return _button(t("hints.show", locale), SECONDARY, f"cubist:{game_id}:hintshow:{version}")
