"""Errors the engine raises."""

from __future__ import annotations

from .rule_texts import RuleError, RuleText


class IllegalMove(RuleError):
    """A move that breaks a rule.  The message names the rule and the offending die or cell;
    the game is exactly as it was before the move was tried.  ``rule`` (``key``, ``params``)
    is the message as a structured ``RuleText``, said in words by the front end."""

    def __init__(self, text: RuleText, move: object | None = None) -> None:
        super().__init__(text)
        self.move = move


class SavedGameError(ValueError):
    """A saved game that cannot be read (bad JSON, wrong version, inconsistent data)."""


class PositionError(ValueError):
    """A position built by hand (``Game.set_position``) that breaks the game's invariants."""
