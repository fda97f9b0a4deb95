"""The application: everything about games that is not Discord.  The game service (the only
way into the store, who may act and when), the vote's rules, what a turn schedules and quiet
hours.  Nothing here imports discord (tests/test_import_graph.py)."""

from bot.service.game import (
    Access,
    GameService,
    Limits,
    Loaded,
    MoveOutcome,
    TableSettings,
    level_of,
)
from bot.service.refusals import Refusal, Refused, StaleChoice, UserError

__all__ = [
    "Access",
    "GameService",
    "Limits",
    "Loaded",
    "MoveOutcome",
    "Refusal",
    "Refused",
    "StaleChoice",
    "TableSettings",
    "UserError",
    "level_of",
]
