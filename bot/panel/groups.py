"""The turn panel's choices: legal moves grouped into a first pick and its destinations.

Pure functions of the engine game, so the bot's components stay thin.  A group key is a
move's first words ("place 4", "use 2", "end"); picking a group with one move plays it,
otherwise a second select lists that group's moves.
"""

from __future__ import annotations

from collections import Counter

from engine import Game
from engine.moves import EndTurn

from ..i18n import artist_name, t

MAX_OPTIONS = 25
ONE_WORD = {"end", "undo", "release"}


def group_key(text: str) -> str:
    words = text.split()
    if words[0] in ONE_WORD:
        return words[0]
    return " ".join(words[:2])


def groups(game: Game) -> dict[str, list[str]]:
    """Legal move texts by group key, in the engine's order."""
    out: dict[str, list[str]] = {}
    for m in game.legal_moves():
        t = str(m)
        out.setdefault(group_key(t), []).append(t)
    return out


def group_label(game: Game, key: str, locale: str) -> str:
    words = key.split()
    verb, arg = words[0], words[1] if len(words) > 1 else ""
    if verb == "place":
        if arg.isdigit():
            return t("panel.place_value", locale, value=arg)
        return t("panel.place_card", locale, die=arg)
    if verb == "museum":
        return t("panel.museum", locale, die=arg)
    if verb in ("artist", "use"):
        card = game.artist_card(int(arg) - 1)
        if card is None:
            return t(f"panel.{verb}", locale, slot=arg)
        return t(f"panel.{verb}_named", locale, slot=arg, name=artist_name(card, locale))
    if verb == "complete":
        return t("panel.complete", locale, room=arg)
    if verb == "abandon":
        return t("panel.abandon", locale, room=arg)
    if verb == "switch":
        return t("panel.switch", locale, die=arg)
    if verb in ("end", "undo", "release"):
        return t(f"panel.{verb}", locale)
    return key


def end_label(game: Game, text: str, locale: str) -> str:
    """'Keep 6 and 5 (1 die back to your supply)' for an end-of-turn choice."""
    room = Counter(game.state.players[game.current_player].storeroom)
    keep = [int(w) for w in text.split()[1:]]
    back = sum(room.values()) - len(keep)
    kept = t("common.and", locale).join(map(str, keep)) if keep else t("panel.nothing", locale)
    if back:
        return t("panel.keep_back", locale, kept=kept, back=back, count=back)
    return t("panel.keep", locale, kept=kept)


def end_choices(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves() if isinstance(m, EndTurn)]


def end_needs_choice(game: Game) -> str | None:
    """None when ending needs a choice; else the one sensible end move (nothing goes back)."""
    room = game.state.players[game.current_player].storeroom
    if len(room) <= 2:
        text = str(EndTurn(tuple(room)))
        return text if text in end_choices(game) else None
    return None
