"""A local Discord stand-in (REST + gateway on loopback) and a driver that acts as users.

server = await StandIn().start()
guild = server.add_guild("Cubist Club")
games = server.add_channel(guild, "games")
alice = server.add_user("alice", locale="fr")
point_discord_at(server.url)            # standin.discord_target
... start the bot with server.token ...
result = await alice.slash(games, "cubist lobby new", players=3)
"""

from .clock import AdjustableClock, Clock, ManualClock
from .driver import DriverError, FileOption, Player
from .errors import FieldError, RecordedError, Violation
from .interactions import InteractionFailed, InteractionResult, InteractionTimeout
from .models import Attachment, Channel, ChannelType, Guild, Message, MessageFlag, Permission, Role, User
from .server import DEFAULT_TOKEN, StandIn

__all__ = [
    "DEFAULT_TOKEN",
    "AdjustableClock",
    "Attachment",
    "Channel",
    "ChannelType",
    "Clock",
    "DriverError",
    "FieldError",
    "FileOption",
    "Guild",
    "InteractionFailed",
    "InteractionResult",
    "InteractionTimeout",
    "ManualClock",
    "Message",
    "MessageFlag",
    "Permission",
    "Player",
    "RecordedError",
    "Role",
    "StandIn",
    "User",
    "Violation",
]
