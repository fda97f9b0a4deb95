"""Why a move is refused, as structured texts: a key and named values, no words.  Front ends
say them in the reader's language by key (the bot's catalogues hold a ``rule.<key>``
message whose placeholders are the values: ``bot.i18n.rules``), like
``engine.players.reasons``.  ``str()`` is for developers: the key and values,
``in_workroom(room='w1', problem=stack_value(value=5, other=4, cell='a1'))``.

A value is a number, a name written the same in every language (a cell ``b3``, a workroom
``w1``, a player ``p2``, a die ``i1.2``, notation such as ``'use 3 w1 c3'``), an
``ArtistKind`` (shown as the artist's name), or another ``RuleText`` (a nested sentence or
word, e.g. the structure ``problem`` of a placement or the word ``empty``).

``IllegalMove`` and ``MoveSyntaxError`` carry one (``err.rule``, ``err.key``,
``err.params``).  Texts are built only when a move is refused, so the legal-move generator
pays nothing for them.
"""

from __future__ import annotations

from typing import Any

from .cards import ArtistKind


class RuleText:
    """One refusal: ``key`` (``rule.<key>`` in the catalogues) and its named ``values``."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key = key
        self.values = values

    def params(self) -> dict[str, Any]:
        return dict(self.values)

    def __str__(self) -> str:
        return f"{self.key}({', '.join(f'{k}={_shown(v)}' for k, v in self.values.items())})"

    def __repr__(self) -> str:
        values = "".join(f", {k}={v!r}" for k, v in self.values.items())
        return f"RuleText({self.key!r}{values})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleText) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash((self.key, tuple(self.values.items())))


def _shown(value: object) -> str:
    if isinstance(value, RuleText):
        return str(value)
    if isinstance(value, ArtistKind):
        return repr(str(value))
    return repr(value)


def listed(items: list[str]) -> str | RuleText:
    """'4, 5' or the word 'empty'."""
    return ", ".join(items) if items else RuleText("empty")


class RuleError(ValueError):
    """An engine error whose message is a ``RuleText`` (``str()``: its key and values)."""

    def __init__(self, text: RuleText) -> None:
        super().__init__(str(text))
        self.rule = text

    @property
    def key(self) -> str:
        return self.rule.key

    @property
    def params(self) -> dict[str, Any]:
        return self.rule.params()
