"""The words drawn on the pictures: the caller gives them, render has none of its own.

Render knows no language and no catalogue (bot -> render -> engine): every word it draws
comes from a ``Labels`` built by the caller from its catalogues (the bot's
``bot.i18n.pictures.render_labels(lang)``, from the ``render.*`` and ``cards.*`` messages).
``Labels`` is a frozen, hashable value, so the cached card and frame layers are cached per
language, and it pickles to render workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import ArtistCard, Deck, InstallationCard, MuseumCard, Played

# Tells a turn's moves from their record in plain words (the bot's one narrator): the moves,
# the deck their cards come from and the players' names as drawn.
Narrator = Callable[[Sequence[Played], Deck, Sequence[str] | None], str]


@dataclass(frozen=True)
class Labels:
    """Words for one language.

    ``texts``: every ``str.format`` template by key (``points``, ``move.place``...); a plural
    message is one template per CLDR form, ``key.one``/``key.other``/``key.few``...
    ``plural``: the CLDR plural form of a count in this language (hashable and picklable,
    e.g. ``bot.i18n.plural.PluralRule``).
    ``names``: card names by ``"artist:<kind>"``, ``"artist_short:<kind>"``,
    ``"installation:<name in the deck>"``, ``"museum:<name in the deck>"`` (by name, not id:
    a swapped-in deck keeps its own names, which are then drawn as they are).
    ``narrate``: the words of a turn, the same the posts use (hashable and picklable too);
    without it a turn is drawn as its number of moves."""

    texts: tuple[tuple[str, str], ...]
    plural: Callable[[int], str]
    names: tuple[tuple[str, str], ...] = ()
    narrate: Narrator | None = None
    _texts: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _names: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_texts", dict(self.texts))
        object.__setattr__(self, "_names", dict(self.names))
        object.__setattr__(self, "_hash", hash((self.texts, self.plural, self.names, self.narrate)))

    def __hash__(self) -> int:  # once: render's layer caches look labels up on every drawing
        return self._hash

    def __reduce__(self) -> tuple[type[Labels], tuple[Any, ...]]:  # rebuilt (and hashed) where unpickled
        return (Labels, (self.texts, self.plural, self.names, self.narrate))

    def text(self, key: str, **params: Any) -> str:
        """The message ``key`` with ``params`` filled in (KeyError: no such message)."""
        template = self._texts[key]
        return template.format(**params) if params else template

    def count(self, key: str, n: int, **params: Any) -> str:
        """The plural form of ``key`` for ``n`` (also given to it as ``count``); a form the
        language has but the message lacks falls back to ``other``."""
        form = f"{key}.{self.plural(n)}"
        return self.text(form if form in self._texts else f"{key}.other", count=n, **params)

    def tell(self, plays: Sequence[Played], deck: Deck, names: Sequence[str] | None) -> str:
        """A turn's moves in words, from their record."""
        if self.narrate is not None:
            return self.narrate(plays, deck, names)
        return self.count("moves", len(plays))

    def _name(self, key: str, default: str) -> str:
        return self._names.get(key, default)

    def artist(self, card: ArtistCard) -> str:
        return self._name(f"artist:{card.artist}", card.display_name)

    def artist_short(self, card: ArtistCard) -> str:
        return self._name(f"artist_short:{card.artist}", card.display_name)

    def installation(self, card: InstallationCard) -> str:
        return self._name(f"installation:{card.name}", card.name)

    def museum(self, card: MuseumCard) -> str:
        return self._name(f"museum:{card.name}", card.name)
