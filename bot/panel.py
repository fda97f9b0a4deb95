"""The turn panel's choices: legal moves grouped into a first pick and its destinations.

Pure functions of the engine game, so the bot's components stay thin.  A group key is a
move's first words ("place 4", "use 2", "end"); picking a group with one move plays it,
otherwise a second select lists that group's moves.
"""

from __future__ import annotations

from collections import Counter

from engine import Game
from engine.moves import EndTurn

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


def group_label(game: Game, key: str) -> str:
    words = key.split()
    verb, arg = words[0], words[1] if len(words) > 1 else ""
    if verb == "place":
        return f"Place {'a ' + arg if arg.isdigit() else 'card die ' + arg} in a workroom"
    if verb == "museum":
        return f"Give card die {arg} to the museum"
    if verb == "artist":
        card = game.artist_card(int(arg) - 1)
        return f"Put dice on artist {arg}" + (f" ({card.display_name})" if card else "")
    if verb == "use":
        card = game.artist_card(int(arg) - 1)
        return f"Use artist {arg}" + (f": {card.display_name}" if card else "")
    if verb == "complete":
        return f"Complete an installation with {arg}"
    if verb == "abandon":
        return f"Abandon {arg}"
    if verb == "switch":
        return f"Switch bonus die {arg}"
    if verb == "end":
        return "End the turn…"
    if verb == "undo":
        return "Undo the last action"
    if verb == "release":
        return "Send the abandoned dice back to the supply"
    return key


def end_label(game: Game, text: str) -> str:
    """'Keep 6 and 5 (1 die back to your supply)' for an end-of-turn choice."""
    room = Counter(game.state.players[game.current_player].storeroom)
    keep = [int(w) for w in text.split()[1:]]
    back = sum(room.values()) - len(keep)
    kept = " and ".join(map(str, keep)) if keep else "nothing"
    return f"Keep {kept}" + (f" ({back} die/dice back to your supply)" if back else "")


def end_choices(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves() if isinstance(m, EndTurn)]


def end_needs_choice(game: Game) -> str | None:
    """None when ending needs a choice; else the one sensible end move (nothing goes back)."""
    room = game.state.players[game.current_player].storeroom
    if len(room) <= 2:
        text = str(EndTurn(tuple(room)))
        return text if text in end_choices(game) else None
    return None
