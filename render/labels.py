"""The words drawn on the pictures, replaceable for another language.

Rendering stays independent of the bot: the English words are here, and a caller may pass
``Labels`` with other words (the bot builds French ones from its catalogues:
``bot.i18n.pictures.render_labels``).  ``Labels`` is a frozen, hashable value, so the
cached card and frame layers are cached per language, and it pickles to render workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import ArtistCard, ArtistKind, InstallationCard, MuseumCard

# key -> str.format template; "key.one"/"key.other": singular/plural forms (chosen by count).
ENGLISH: dict[str, str] = {
    "points": "{points} pts",
    "dice.one": "{count} die",
    "dice.other": "{count} dice",
    "bonus": "bonus",
    "or": "or",
    "supply": "supply {count}",
    "die_count.one": "{count} die",
    "die_count.other": "{count} dice",
    "storeroom": "storeroom",
    "storage": "storage",
    "abandoned": "abandoned",
    "no_completed": "no installation completed yet",
    "left": "left the game",
    "to_play": "▶ to play",
    "winner": "★ winner",
    "game_over.one": "Game over: {who} wins with {points} pts",
    "game_over.other": "Game over: {who} win with {points} pts",
    "next": "▶ {who} to play",
    "last_turn": "Last turn {who}: {moves}",
    "nothing": "nothing",
    "this_turn": "this turn: {moves}",
    "first_turn": "First turn of the game",
    "header.one": "turn {turn} · {count} installation in the deck",
    "header.other": "turn {turn} · {count} installations in the deck",
    "empty": "empty",
    "no_card": "no card left",
    "museum": "Museum",
    "built": "{built}/{total} dice",
    "take": "Take a {value}",
    "take_either": "Take a {a} or a {b}",
    "take_any": "Take any value",
    "change": "Change a die by {delta}",
    "remove_top": "Remove a top die",
    "move_top": "Move a top die",
    "steal": "Steal from a storage",
    "and": " and ",
    "sep": ", ",
    "move.place": "placed a {value} in workroom {room}",
    "move.place_card": "moved a bonus die to workroom {room}",
    "move.museum": "gave a die to the museum",
    "move.artist": "put {count} dice on artist {slot}",
    "move.use": "used artist {slot}",
    "move.complete": "completed installation #{card}",
    "move.abandon": "abandoned workroom {room}",
    "move.release": "sent the abandoned dice back",
    "move.switch": "switched a bonus die",
    "move.end": "ended the turn",
    "move.undo": "took back an action",
    "move.skip": "turn skipped",
    "move.remove": "p{seat} removed from the game",
}


@dataclass(frozen=True)
class Labels:
    """Words for one language.  ``texts`` overrides ENGLISH by key; ``names`` gives card
    names by ``"artist:<kind>"``, ``"artist_short:<kind>"``, ``"installation:<English name>"``,
    ``"museum:<English name>"`` (by name, not id: a swapped-in deck keeps its own names);
    ``zero_is_singular``: French counts 0 like 1."""

    texts: tuple[tuple[str, str], ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    zero_is_singular: bool = False

    def text(self, key: str, **params: Any) -> str:
        template = dict(self.texts).get(key) or ENGLISH[key]
        return template.format(**params) if params else template

    def count(self, key: str, n: int, **params: Any) -> str:
        """The singular or plural form of ``key`` for ``n`` (also given to it as ``count``)."""
        one = n == 1 or (n == 0 and self.zero_is_singular)
        return self.text(f"{key}.{'one' if one else 'other'}", count=n, **params)

    def _name(self, key: str, default: str) -> str:
        return dict(self.names).get(key, default)

    def artist(self, card: ArtistCard) -> str:
        return self._name(f"artist:{card.artist}", card.display_name)

    def artist_short(self, card: ArtistCard) -> str:
        return self._name(f"artist_short:{card.artist}", SHORT_NAMES.get(card.artist, card.display_name))

    def installation(self, card: InstallationCard) -> str:
        return self._name(f"installation:{card.name}", card.name)

    def museum(self, card: MuseumCard) -> str:
        return self._name(f"museum:{card.name}", card.name)


SHORT_NAMES: dict[ArtistKind, str] = {
    ArtistKind.MALEVICH: "Malevich",
    ArtistKind.BOCCIONI: "Boccioni",
    ArtistKind.MARC: "Marc",
    ArtistKind.POPOVA: "Popova",
    ArtistKind.LA_FRESNAYE: "La Fresnaye",
    ArtistKind.GRIS: "Gris",
    ArtistKind.PASCIN: "Pascin",
    ArtistKind.ROZANOVA: "Rozanova",
}

EN = Labels()  # English: the bot passes the reader's language (bot.i18n.pictures.render_labels)
