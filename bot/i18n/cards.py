"""Card and artist names in the reader's language.

The engine's card data (``engine/data``) is English and may be replaced by a group's own
deck (``engine.load_deck``); the French names live here, in the catalogues, keyed by card
id.  A French name is used only when the card is the bundled one (its English text equals
our English catalogue's), so a swapped-in deck shows its own names rather than wrong ones.
Artist names follow the French rulebook (``cards.artist.*``).
"""

from __future__ import annotations

from typing import Any, Literal

from bot.i18n.catalog import DEFAULT_LANGUAGE, catalogues
from bot.i18n.core import t
from engine.cards import ArtistCard, ArtistKind

CardKind = Literal["artist", "artist_short", "painting", "installation", "museum"]


def _kind_of(card: Any) -> str:
    kind = card.artist if isinstance(card, ArtistCard) else card
    return str(ArtistKind(kind))


def _bundled(group: str, key: str, english: str) -> bool:
    return catalogues()[DEFAULT_LANGUAGE].get(f"cards.{group}.{key}") == english


def card_name(kind: CardKind, card: Any, locale: object) -> str:
    """The name of a card in the language of ``locale``:

    * ``artist`` / ``artist_short``: the artist ('Lyubov Popova' / 'Popova'); ``card`` is an
      ``ArtistCard`` or an ``ArtistKind``;
    * ``painting``: an artist card's painting title;
    * ``installation`` / ``museum``: an ``InstallationCard`` / ``MuseumCard`` name."""
    if kind in ("artist", "artist_short"):
        return t(f"cards.{kind}.{_kind_of(card)}", locale)
    if kind == "painting":
        english, key = card.title, str(card.id)
    elif kind in ("installation", "museum"):
        english, key = card.name, str(card.id)
    else:
        raise ValueError(f"unknown card kind {kind!r}")
    return t(f"cards.{kind}.{key}", locale) if _bundled(kind, key, english) else english


def installation_name(card: int, english: str, locale: object) -> str:
    """An installation's name from its id and English name as stored or carried elsewhere
    (statistics, engine texts)."""
    key = str(card)
    return t(f"cards.installation.{key}", locale) if _bundled("installation", key, english) else english


def artist_name(card: ArtistCard | ArtistKind | str, locale: object, *, short: bool = False) -> str:
    return card_name("artist_short" if short else "artist", card, locale)


def artist_action(card: ArtistCard, locale: object) -> str:
    """The card's action in one sentence (``cards.action.<kind>``)."""
    a, b = card.values or (0, 0)
    delta = f"{card.delta:+d}" if card.delta is not None else ""
    return t(f"cards.action.{_kind_of(card)}", locale, value=card.value, a=a, b=b, delta=delta)
