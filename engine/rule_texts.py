"""Why a move is refused, as structured texts: a key, named values, and an English sentence
(``str()``).  Front ends translate them by key (the bot's catalogues hold a ``rule.<key>``
message with the same placeholders as ``ENGLISH[key]``), like ``engine.players.reasons``.

A value is a number, a name written the same in every language (a cell ``b3``, a workroom
``w1``, a player ``p2``, a die ``i1.2``, notation such as ``'use 3 w1 c3'``), an
``ArtistKind`` (shown as the artist's name), or another ``RuleText`` (a nested sentence or
word, e.g. the structure ``problem`` of a placement or the word ``empty``).

``IllegalMove`` and ``MoveSyntaxError`` carry one (``err.rule``, ``err.key``,
``err.params``); their ``str()`` is the English sentence.  Texts are built only when a move
is refused, so the legal-move generator pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ARTIST_NAMES, ArtistKind

ENGLISH: Mapping[str, str] = {
    # --- words used as values --------------------------------------------------------
    "empty": "empty",
    "none": "none",
    # --- the game and the turn -------------------------------------------------------
    "game_over": "the game is over",
    "game_over_undo": "the game is over: nothing to undo",
    "nothing_to_undo": "nothing to undo: you cannot undo past the start of your turn, the roll or a card drawn",
    "pool_first": (
        "first decide where the abandoned dice go: onto an artist card (for example "
        "'artist 1 x{value} x{value}') or back to your supply with 'release'"
    ),
    "cannot_roll": (
        "your supply holds only {supply} dice, too few to roll: before the roll "
        "you must return dice to it (complete or abandon an installation, or use an artist)"
    ),
    "unknown_move": "unknown move {move}",
    # --- workrooms, cells and dice ---------------------------------------------------
    "abandon_empty": "{room} is empty: there is nothing to abandon",
    "no_pool": "there are no abandoned dice to release",
    "no_workroom": "there is no workroom {room}: use w1 or w2",
    "off_grid": "cell {cell} is off the grid",
    "no_storeroom_die": "you have no {value} in your storeroom (storeroom: {storeroom})",
    "pool_die_not_here": "{die}: dice of an abandoned workroom may only go onto artist cards or back to the supply",
    "no_pool_die": "there is no {value} among the abandoned dice (abandoned: {pool})",
    "no_completed_card": "{die}: you have {count} completed installation card(s)",
    "no_card_die": "{die}: there is no die on space {space} of your card {card}",
    "unknown_die": "{die}: unknown kind of die",
    "in_workroom": "{room}: {problem}",
    # --- structures (workrooms and the museum) ---------------------------------------
    "stack_value": "a {value} may not stack on the {other} at {cell}: dice stack only on a die of the same value",
    "side_value": ("a {value} may not go next to the {other} at {cell}: side by side dice must differ by exactly 1"),
    "not_touching": "{cell} does not touch the structure: a new die must touch a die already there, edge to edge",
    "no_die_at": "there is no die at {cell}",
    "would_split": "taking the die at {cell} away would split the structure in two",
    # --- the museum ------------------------------------------------------------------
    "museum_from_storeroom": (
        "only dice on your completed installation cards may go to the museum, never straight from the storeroom"
    ),
    "outside_museum": "{cell} is outside the museum plan",
    "museum_full_column": "the museum column at {cell} is already at its full height of {height}",
    "in_museum": "museum: {problem}",
    "museum_impossible": (
        "museum: a {value} at {cell} would leave the museum impossible to complete "
        "(some empty cell could then take no value differing by 1 from all its neighbours)"
    ),
    # --- artist cards: placing dice --------------------------------------------------
    "no_artist_slot": "there is no artist card {slot}: they are numbered 1 to 4",
    "empty_artist_slot": "artist slot {slot} is empty",
    "artist_dice_count": "{artist} takes exactly {dice} dice, not {count}",
    "pool_to_artist": "while abandoning, an artist placement must use dice of the abandoned workroom (x…)",
    "storeroom_before_roll": "storeroom dice can be placed only after the roll",
    "artist_same_value": "dice on an artist card must all show the same value, not {values}",
    "storeroom_too_few": "you have only {have} {value}(s) in your storeroom, not {count}",
    "pool_too_few": "only {have} abandoned {value}(s) are left, not {count}",
    "card_die_twice": "the same card die is named twice",
    "own_dice": "your own dice are already on {artist}: you may not bump your own dice",
    "bump_lower": (
        "your {value}s cannot bump the {other}s of {seat} on {artist}: bumping needs dice of equal or higher value"
    ),
    # --- artist cards: using them ----------------------------------------------------
    "no_dice_on_artist": (
        "you have no dice on {artist} (artist {slot}): place dice there first, then use it on a later turn"
    ),
    "placed_this_turn": "you placed your dice on {artist} this turn: you may use it from your next turn on",
    "use_malevich": "{artist} takes no choice: write 'use {slot}'",
    "use_boccioni": "{artist} gives a {a} or a {b}: write 'use {slot} {a}' or 'use {slot} {b}'",
    "use_marc": "{artist} gives a die of any value: write 'use {slot} 1' to 'use {slot} 6'",
    "use_change": "{artist} changes one die by {delta}: write 'use {slot} 4' (storeroom) or 'use {slot} i1.1' (card)",
    "use_change_range": "{artist} would turn the {value} into {result}: dice show 1 to 6 only",
    "use_write": "{artist}: write {usage}",
    "use_write_cells": "{artist}: write {usage} with w1 or w2 and a cell a1-f6",
    "use_in_workroom": "{artist}: {room}: {problem}",
    "use_same_place": "{artist} moves a die to another place, not back where it was",
    "use_rozanova": "{artist} takes a die from an opponent's storage: write 'use {slot} p2 5'",
    "use_not_opponent": "{artist}: {seat} is not one of your opponents",
    "use_left": "{artist}: {seat} has left the game",
    "use_no_storage_die": "{artist}: {seat} has no {value} in storage (storage: {storage})",
    "use_other": "{artist} cannot be used that way",
    # --- installations, switching, ending the turn, table moves ----------------------
    "not_on_offer": "installation #{card} is not on offer (on offer: {offer})",
    "workroom_empty": "{room} is empty",
    "no_match": (
        "{room} ({have} dice) does not match installation #{card} '{name}' ({dice} dice): the whole "
        "workroom must have the plan's footprint and heights, turned any way (no mirror image)"
    ),
    "single_value": "{die} has a single printed value: nothing to switch",
    "not_printed": "{die} shows {value}, no longer one of its printed values {a}/{b}: it is an ordinary die now",
    "storage_max": "the storage space holds at most {max} dice",
    "keep_from_storeroom": "you can keep only dice from your storeroom (storeroom: {storeroom})",
    "no_player": "there is no player {seat} in this game",
    "player_left": "{seat} has already left the game",
    # --- move syntax (MoveSyntaxError) ------------------------------------------------
    "bad_die": (
        "{text} is not a die: write a storeroom value 1-6 (like 4), a die of the abandoned "
        "workroom (x4) or a die on your completed card (i2.1 = card 2, space 1)"
    ),
    "bad_workroom": "{text} is not a workroom: write w1 or w2",
    "bad_cell": "{text} is not a cell: use a column a-{last} and a row 1-{size}, like c3",
    "cell_off_grid": "{text} is off the grid: rows go from 1 to {size}",
    "bad_number": "{text} is not {what}: write a number from {lo} to {hi}",
    "what_slot": "an artist slot",
    "what_card": "an installation card number",
    "what_value": "a die value",
    "bad_player": "{text} is not a player: write p1, p2, p3 or p4",
    "expected": "expected '{usage}'",
    "usage_place": "place DIE w1|w2 CELL, e.g. place 4 w1 c3",
    "usage_museum": "museum iN.M CELL, e.g. museum i1.2 d4",
    "usage_complete": "complete w1|w2 #CARD, e.g. complete w1 #7",
    "usage_abandon": "abandon w1|w2",
    "usage_release": "release",
    "usage_switch": "switch iN.M, e.g. switch i2.1",
    "usage_undo": "undo",
    "usage_skip": "skip",
    "usage_remove": "remove pN",
    "usage_use_seat": "use SLOT pN VALUE, e.g. use 2 p3 5",
    "empty_move": (
        "empty move: pick one of the moves `/cubist move` suggests as you type,"
        " or open your turn panel with `/cubist turn`"
    ),
    "museum_card_die": "only dice on completed installation cards (i1.1 …) go to the museum",
    "artist_usage": "expected 'artist SLOT DIE DIE [DIE]', e.g. artist 3 5 5",
    "switch_card_die": "only bonus dice on completed cards (i2.1 …) can be switched",
    "end_usage": "expected 'end' with at most two dice to keep, e.g. end 6 2",
    "unknown_verb": (
        "unknown move {verb}: moves are place, museum, artist, use, complete, abandon, release, switch, end, undo"
    ),
    "use_usage": "expected 'use SLOT …', e.g. use 2 or use 2 5",
    "rozanova_value": "Rozanova takes a value from the opponent's storage, like 5",
    "use_forms": "expected 'use SLOT', 'use SLOT DIE', 'use SLOT w1 c3' or 'use SLOT w1 c3 w2 d4'",
}


class RuleText:
    """One refusal: ``key`` (in ``ENGLISH``) and its named ``values``."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key = key
        self.values = values

    def params(self) -> dict[str, Any]:
        return dict(self.values)

    def __str__(self) -> str:
        return ENGLISH[self.key].format(**{k: _english(v) for k, v in self.values.items()})

    def __repr__(self) -> str:
        values = "".join(f", {k}={v!r}" for k, v in self.values.items())
        return f"RuleText({self.key!r}{values})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleText) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash((self.key, tuple(self.values.items())))


def _english(value: object) -> object:
    if isinstance(value, RuleText):
        return str(value)
    if isinstance(value, ArtistKind):
        return ARTIST_NAMES[value]
    return value


def listed(items: list[str]) -> str | RuleText:
    """'4, 5' or the word 'empty'."""
    return ", ".join(items) if items else RuleText("empty")


class RuleError(ValueError):
    """An engine error whose message is a ``RuleText`` (``str()`` is its English)."""

    def __init__(self, text: RuleText) -> None:
        super().__init__(str(text))
        self.rule = text

    @property
    def key(self) -> str:
        return self.rule.key

    @property
    def params(self) -> dict[str, Any]:
        return self.rule.params()
