"""Errors the engine raises."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move that breaks a rule.  The message names the rule and the offending die or cell;
    the game is exactly as it was before the move was tried."""

    def __init__(self, message: str, move: object | None = None) -> None:
        super().__init__(message)
        self.move = move


class SavedGameError(ValueError):
    """A saved game that cannot be read (bad JSON, wrong version, inconsistent data)."""
