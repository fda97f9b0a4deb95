"""The engine's structured texts in the reader's language: its refusals (``IllegalMove``,
``MoveSyntaxError``: a ``RuleText``) and the strong player's hint reasons (``Reason``).

Both are a key and named values, no words.  Here they become a ``Message`` (``rules.refusal.<key>``
or ``hints.reason.<key>``) whose nested texts are Messages too, so ``t()`` renders the whole
sentence in one language; artists and bundled installation names are shown with their
catalogue names.  The words are the catalogues' only (``<lang>.rules.json`` and
``<lang>.hints.json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import Message, t
from bot.i18n.cards import _bundled
from engine.cards import ArtistKind
from engine.players.reasons import Reason
from engine.rule_texts import RuleError, RuleText

EngineText = RuleText | Reason


def text_message(text: EngineText, names: Sequence[str] | None = None) -> Message:
    """An engine text as a ``Message``: ``rules.refusal.<key>`` for refusals, ``hints.reason.<key>`` for reasons.
    A reason's ``seat`` (1-based) is said as the player's name (``names``), never as p1."""
    values = text.params()
    params = {name: _value(value, names) for name, value in values.items()}
    if isinstance(text, Reason) and isinstance(values.get("seat"), int):
        seat = int(values["seat"])
        params["player"] = names[seat - 1] if names and 0 < seat <= len(names) else Message("story.seat", seat=seat)
    card, name = values.get("card"), values.get("name")
    if card is not None and name is not None and _bundled("installation", str(card), str(name)):
        params["name"] = Message(f"cards.installation.{card}")
    if isinstance(text, RuleText):
        return Message(f"rules.refusal.{text.key}", **params)
    return Message(f"hints.reason.{text.key}", **params)


def _value(value: Any, names: Sequence[str] | None = None) -> Any:
    if isinstance(value, RuleText | Reason):
        return text_message(value, names)
    if isinstance(value, ArtistKind):
        return Message(f"cards.artist.{value}")
    return value


def error_message(error: Exception) -> Message | str:
    """Why the engine refused a move, as a translatable Message (or its text for an error
    that carries no ``RuleText``)."""
    if isinstance(error, RuleError):
        return text_message(error.rule)
    return str(error)


def reasons_text(found: list[Reason], lang: str, names: Sequence[str] | None = None) -> str:
    """A hint's reasons, joined, in the reader's language (players by ``names``)."""
    return t("hints.reasons_sep", lang).join(text_message(r, names).render(lang) for r in found)
