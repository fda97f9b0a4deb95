"""The engine's refusals (``IllegalMove``, ``MoveSyntaxError``) in the reader's language.

The engine gives each refusal a ``RuleText`` (``engine.rule_texts``): a key and named
values.  Here it becomes a ``Message`` ``rule.<key>`` whose nested texts are Messages too,
so ``t()`` renders the whole sentence in one language; artists and bundled installation
names are shown with their catalogue names.  The English catalogue (``en.rule.json``)
holds exactly the engine's English templates, so English replies are unchanged.
"""

from __future__ import annotations

from typing import Any

from engine.cards import ArtistKind
from engine.rule_texts import RuleError, RuleText

from . import Message
from .cards import _bundled


def rule_message(text: RuleText) -> Message:
    """A ``RuleText`` as a ``Message`` (key ``rule.<key>``)."""
    params = {name: _value(value) for name, value in text.values.items()}
    if text.key == "no_match" and _bundled("installation", str(text.values["card"]), str(text.values["name"])):
        params["name"] = Message(f"cards.installation.{text.values['card']}")
    return Message(f"rule.{text.key}", **params)


def _value(value: Any) -> Any:
    if isinstance(value, RuleText):
        return rule_message(value)
    if isinstance(value, ArtistKind):
        return Message(f"cards.artist.{value}")
    return value


def error_message(error: Exception) -> Message | str:
    """Why the engine refused a move, as a translatable Message (or its text for an error
    that carries no ``RuleText``)."""
    if isinstance(error, RuleError):
        return rule_message(error.rule)
    return str(error)
