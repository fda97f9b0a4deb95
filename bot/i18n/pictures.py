"""The words on the pictures in the reader's language: ``render.Labels`` from the catalogues.

    render.table_png(game, names, labels=render_labels(lang))

Rendering knows only English (``render.labels.ENGLISH``); this fills in the catalogue's
``render.*`` messages and the card names (``cards.*``, for the bundled deck's ids).
"""

from __future__ import annotations

from functools import cache

from render.labels import Labels

from . import language
from .catalog import DEFAULT_LANGUAGE, catalogues


@cache
def render_labels(locale: object = None) -> Labels:
    """One ``Labels`` per language (hashable, so render's layer caches work per language)."""
    lang = language(locale)
    if lang == DEFAULT_LANGUAGE:
        return Labels()  # exactly what the golden pictures are drawn with
    cat, english = catalogues()[lang], catalogues()[DEFAULT_LANGUAGE]
    texts: list[tuple[str, str]] = []
    names: list[tuple[str, str]] = []
    for key, entry in sorted(cat.items()):
        if key.startswith("render."):
            name = key.removeprefix("render.")
            if isinstance(entry, str):
                texts.append((name, entry))
            else:
                texts += [(f"{name}.{form}", text) for form, text in sorted(entry.items())]
        elif key.startswith(("cards.artist.", "cards.artist_short.", "cards.installation.", "cards.museum.")):
            _cards, kind, ident = key.split(".", 2)
            if kind in ("installation", "museum"):
                ident = str(english[key])  # render looks cards up by their English name
            names.append((f"{kind}:{ident}", str(entry)))
    return Labels(tuple(texts), tuple(names), zero_is_singular=lang == "fr")
