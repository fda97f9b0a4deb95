"""The words on the pictures in the reader's language: ``render.Labels`` from the catalogues.

    render.table_png(game, names, labels=render_labels(lang))

Render has no words of its own: this gives it the catalogue's ``pictures.*`` messages, the
card names (``cards.*``, for the bundled deck's cards), the language's CLDR plural rule and
the narrator that tells a turn (``bot.words.story``, the same words as the posts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.i18n import catalog, language
from bot.i18n.catalog import DEFAULT_LANGUAGE, catalogues, plural
from bot.words.story import Narration
from render.labels import Labels


@dataclass(frozen=True)
class PluralRule:
    """The CLDR plural form of a count in one language (hashable and picklable, unlike
    Babel's rule objects, so ``Labels`` can carry it to render workers)."""

    language: str

    def __call__(self, count: int) -> str:
        return plural(self.language, count)


def render_labels(locale: object) -> Labels:
    """One ``Labels`` per language (hashable, so render's layer caches work per language)."""
    return _labels(language(locale), catalog.generation)


@cache
def _labels(lang: str, _generation: int) -> Labels:
    cat, english = catalogues()[lang], catalogues()[DEFAULT_LANGUAGE]
    texts: list[tuple[str, str]] = []
    names: list[tuple[str, str]] = []
    for key, entry in sorted(cat.items()):
        if key.startswith("pictures."):
            name = key.removeprefix("pictures.")
            if isinstance(entry, str):
                texts.append((name, entry))
            else:
                texts += [(f"{name}.{form}", text) for form, text in sorted(entry.items())]
        elif key.startswith(("cards.artist.", "cards.artist_short.", "cards.installation.", "cards.museum.")):
            _cards, kind, ident = key.split(".", 2)
            if kind in ("installation", "museum"):
                ident = str(english[key])  # render looks cards up by their name in the deck
            names.append((f"{kind}:{ident}", str(entry)))
    return Labels(tuple(texts), PluralRule(lang), tuple(names), Narration(lang))
