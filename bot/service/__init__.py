"""The application: everything about games that is not Discord.  The game service (the only
way into the store, who may act and when), the vote's rules, what a turn schedules and quiet
hours.  Nothing here imports discord (tests/test_import_graph.py)."""

from bot.service.game import (
    Access,
    GameService,
    Limits,
    Loaded,
    MoveOutcome,
    StaleChoice,
    TableSettings,
    UserError,
    level_of,
)

__all__ = [
    "Access",
    "GameService",
    "Limits",
    "Loaded",
    "MoveOutcome",
    "StaleChoice",
    "TableSettings",
    "UserError",
    "level_of",
]
