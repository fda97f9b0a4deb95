"""French elision where a filled-in value meets the word before it: "de" + "Ada" is "d'Ada",
"que" + "un 4" is "qu'un 4", "le" + "atelier 1" is "l'atelier 1".  A computer player's name
starts with a common noun ("Ordinateur 1"), which takes its article: "de l'Ordinateur 1",
"à l'Ordinateur 1".

The catalogues' own text is written elided already; only the joins with values (names
players chose, phrases the code builds) are done here, as the message is filled in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Formatter
from typing import Any

_VOWEL = re.compile(r"^[aeiouyàâæéèêëîïôœûüAEIOUYÀÂÆÉÈÊËÎÏÔŒÛÜ]")
_BEFORE = re.compile(r"(?:^|(?<=[\s(«'’]))(de|que|le|la|De|Que|Le|La) $")
_ARTICLE = re.compile(r"(?:^|(?<=[\s(«'’]))(de|à|De|À) $")
_ELIDED = {"de": "d'", "que": "qu'", "le": "l'", "la": "l'"}
_FORMATTER = Formatter()


def fill(template: str, params: Mapping[str, Any], nouns: tuple[str, ...] = ()) -> str:
    """``template.format(**params)`` with French elision at the joins; ``nouns``: the words a
    value may start with that take the article (the computer players' "Ordinateur")."""
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        out.append(literal)
        if field is None:
            continue
        value, _key = _FORMATTER.get_field(field, (), params)
        shown = _FORMATTER.format_field(_FORMATTER.convert_field(value, conversion), spec or "")
        out.append(_join(out, shown, nouns))
    return "".join(out)


def _join(out: list[str], value: str, nouns: tuple[str, ...]) -> str:
    """``value``, after changing the end of ``out`` (the text so far) where it must elide."""
    # A name in bold ("**Ada**", "de **{name}**") elides as the bare name: "d'**Ada**".
    before = out[-1] if out else ""
    text = before.rstrip("*_")
    marks = before[len(text) :]
    bare = value.lstrip("*_")
    if nouns and bare.split(" ", 1)[0] in nouns and _ARTICLE.search(text):
        out[-1] = text + "l'" + marks
        return value
    if _VOWEL.match(bare) and (m := _BEFORE.search(text)):
        word = m.group(1)
        elided = _ELIDED[word.lower()]
        out[-1] = text[: m.start(1)] + (elided.capitalize() if word[0].isupper() else elided) + marks
    return value
