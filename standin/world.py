"""The world the local Discord models: guilds, channels, users, messages, commands,
interactions, and what was refused.  ``standin.server.StandIn`` serves it on loopback; the
REST handlers, the gateway and the test driver read and change it through this class."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from aiohttp import web

from .clock import HANG_GUARD_S, AdjustableClock, Clock
from .errors import RecordedError, Violation
from .faults import Faults
from .gateway import GUILD_MEMBERS_INTENT, Gateway, GatewaySession
from .interactions import InteractionRecord, InteractionResult
from .models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    Permission,
    Role,
    SnowflakeFactory,
    User,
    iso,
)

DEFAULT_TOKEN = "standin.bot.token"


class Seated(Protocol):
    """A test's handle on a user (``standin.driver.Player``)."""

    user: User


class World:
    """The state of a small Discord for one bot application."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "Cubist",
        clock: Clock | None = None,
        heartbeat_interval_ms: int = 41_250,
        attachment_limit: int = 10 * 1024 * 1024,
        keep_uploads: bool = True,
        keep_edits: bool = False,
        check_responses: bool = True,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        self.clock: Clock = clock or AdjustableClock()
        self.token = token
        self.attachment_limit = attachment_limit
        # False: uploads are checked (limits; PNG header) and then only their size and PNG
        # dimensions are kept, not their bytes (long load runs; see Attachment.dropped).
        self.keep_uploads = keep_uploads
        # True: every edit keeps the message as it was (``Message.versions``); off by default
        # so that long runs do not hold every redrawn picture.
        self.keep_edits = keep_edits
        # Every JSON answer is checked against Discord's response schema (problems are recorded errors).
        self.check_responses = check_responses
        self.application_id = self.snowflake()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.owner = User(self.snowflake(), "app-owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        # (the bot's role, @everyone) of guilds added without explicit permissions.
        self.guild_permissions: tuple[int, int] = (Permission.BOT_DEFAULT, Permission.EVERYONE_DEFAULT)
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel with the bot
        # Registered application commands: None is global, else guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        # Component/modal interactions by the message they came from.
        self.interactions_by_source: dict[int, list[InteractionRecord]] = {}
        self.violations: list[Violation] = []
        self.errors: list[RecordedError] = []
        # 401/403/429 answers: Discord bans an IP after 10,000 of them in 10 minutes.
        self.invalid_requests: list[str] = []
        self.requests: list[str] = []
        self.faults = Faults()
        self.gateway = Gateway(self, heartbeat_interval_ms)
        # GET /gateway/bot: shards recommended (None: one per 1,000 guilds, as Discord
        # roughly does) and how many shards may IDENTIFY at once.
        self.shard_recommendation: int | None = None
        self.max_concurrency = 1
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    @property
    def url(self) -> str:
        """Base URL: REST under `{url}/api/v10`, gateway at `{url}/gateway`."""
        if self.port is None:
            raise RuntimeError("StandIn.start() has not been awaited")
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        # A different path, so tests can tell that resumes use resume_gateway_url.
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    # -- recording ----------------------------------------------------------------------

    def record_error(self, kind: str, detail: str, method: str = "", path: str = "") -> None:
        self.errors.append(RecordedError(kind, detail, method, path))

    def take_violations(self) -> list[Violation]:
        """Return and forget the violations (for tests that provoke them on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    def take_errors(self) -> list[RecordedError]:
        taken, self.errors = self.errors, []
        return taken

    # -- building the world -------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        locale: str = "en-US",
        bot_permissions: int | None = None,
        everyone_permissions: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with the bot in it; ``shard=(shard_id, shard_count)`` picks an id whose
        events go to that shard.  Permissions not given are ``guild_permissions``'."""
        if bot_permissions is None:
            bot_permissions = self.guild_permissions[0]
        if everyone_permissions is None:
            everyone_permissions = self.guild_permissions[1]
        guild = Guild(self._guild_id(shard), name, owner_id=self.owner.id, locale=locale)
        guild.roles[guild.id] = Role(guild.id, "@everyone", everyone_permissions)
        bot_role = Role(self.snowflake(), self.bot_user.name, bot_permissions, position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role.id], joined_at=guild.created)
        self.guilds[guild.id] = guild
        self.announce("GUILD_CREATE", lambda s: self.guild_create_payload(guild, s.intents))
        return guild

    def _guild_id(self, shard: tuple[int, int] | None) -> int:
        snowflake = self.snowflake()
        if shard is None:
            return snowflake
        shard_id, shard_count = shard
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"no shard {shard_id} among {shard_count}")
        ms = snowflake >> 22
        ms += (shard_id - ms) % shard_count  # a few milliseconds ahead at most
        return self.snowflake.at_least(ms << 22)

    def recommended_shards(self) -> int:
        if self.shard_recommendation is not None:
            return self.shard_recommendation
        return max(1, -(-len(self.bot_guilds()) // 1000))

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(self.snowflake(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_channel(
        self,
        guild: Guild,
        name: str = "general",
        *,
        topic: str | None = None,
        bot_permissions: int | None = None,
        forum: bool = False,
    ) -> Channel:
        """A guild text channel, or a forum channel (`forum=True`: its threads start with a message)."""
        channel = Channel(
            self.snowflake(),
            ChannelType.FORUM if forum else ChannelType.TEXT,
            name=name,
            guild_id=guild.id,
            topic=topic,
            position=len(guild.channel_ids),
            bot_permissions=bot_permissions,
        )
        self._store_channel(guild, channel, "CHANNEL_CREATE")
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User | None = None,
        private: bool = False,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """`thread_id`: a thread started from a message (or a forum post) takes the message's id."""
        if parent.guild_id is None:
            raise ValueError("threads live in guild text channels")
        thread = Channel(
            thread_id or self.snowflake(),
            ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
            auto_archive_duration=auto_archive_duration,
        )
        self._store_channel(self.guilds[parent.guild_id], thread, "THREAD_CREATE")
        return thread

    def delete_channel(self, channel: Channel) -> None:
        """A member deletes a channel or thread: it is gone (Unknown Channel from now on)."""
        del self.channels[channel.id]
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is not None and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)
        payload = {"id": str(channel.id), "type": channel.type, "guild_id": str(channel.guild_id)}
        if channel.parent_id:
            payload["parent_id"] = str(channel.parent_id)
        self.announce("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", lambda _s: payload)

    def _store_channel(self, guild: Guild, channel: Channel, event: str) -> None:
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        payload = channel.payload()
        if channel.is_thread:
            payload["newly_created"] = True
        self.announce(event, lambda _s: payload)

    def announce(self, event: str, build: Callable[[GatewaySession], dict[str, Any] | None]) -> None:
        """Dispatch a world change to the session of its guild's shard (no-op before the bot
        identifies); ``build`` returns None for a session that must not receive it (intents)."""
        if self.gateway.current is not None:
            self.gateway.announce(event, build)

    # -- reading what the bot did -------------------------------------------------------

    def channel_messages(self, channel: Channel | int, *, include_ephemeral: bool = False) -> list[Message]:
        """Messages in a channel, oldest first (deleted and still-"thinking" ones left out)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and not m.loading and (include_ephemeral or not m.ephemeral)
        ]

    async def wait_for_message(
        self,
        channel: Channel | int,
        predicate: Callable[[Message], bool] | None = None,
        *,
        timeout: float = HANG_GUARD_S,
        include_ephemeral: bool = False,
    ) -> Message:
        """The newest message in `channel` matching `predicate`, waiting for it if needed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for message in reversed(self.channel_messages(channel, include_ephemeral=include_ephemeral)):
                if predicate is None or predicate(message):
                    return message
            if loop.time() > deadline:
                raise TimeoutError(f"no matching message in channel {channel} within {timeout}s")
            await asyncio.sleep(0.01)

    def forged_message(self, channel: Channel, custom_ids: list[str], content: str = "forged") -> Message:
        """A message of the bot's in ``channel`` carrying buttons with these custom_ids, as an
        attacker's modified client would present one (an id the bot never posted there, a
        number out of range): tests click it to see that the bot refuses what it did not send."""
        buttons = [{"type": 2, "style": 1, "label": f"b{i}", "custom_id": c} for i, c in enumerate(custom_ids)]
        rows = [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)]
        message = Message(self.snowflake(), channel.id, channel.guild_id, self.bot_user, content=content)
        message.components = rows
        self.messages[message.id] = message
        return message

    def last_message(self, channel: Channel | int) -> Message | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dm_channel(self, user: User | Seated) -> Channel:
        """The DM channel between the bot and this user (opened on first use, as on Discord)."""
        u = user if isinstance(user, User) else user.user
        channel = self.dm_channels.get(u.id)
        if channel is None:
            channel = Channel(self.snowflake(), ChannelType.DM, recipient=u)
            self.channels[channel.id] = channel
            self.dm_channels[u.id] = channel
        return channel

    def dms(self, user: User | Seated) -> list[Message]:
        """What the bot sent to this user by DM, oldest first."""
        u = user if isinstance(user, User) else user.user
        channel = self.dm_channels.get(u.id)
        return self.channel_messages(channel) if channel else []

    def register_interaction(self, record: InteractionRecord) -> None:
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        if record.source_message_id is not None:
            self.interactions_by_source.setdefault(record.source_message_id, []).append(record)

    def result(self, interaction_id: int) -> InteractionResult:
        return InteractionResult(self.interactions[interaction_id], self.messages)

    def registered_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        return list(self.commands.get(guild.id if guild else None, []))

    # -- permissions --------------------------------------------------------------------

    def bot_permissions_in(self, channel: Channel) -> int:
        if channel.guild_id is None:
            return Permission.EVERYONE_DEFAULT
        if channel.bot_permissions is not None:
            return channel.bot_permissions
        parent = self.channels.get(channel.parent_id) if channel.parent_id else None
        if parent is not None and parent.bot_permissions is not None:
            return parent.bot_permissions
        return self.guilds[channel.guild_id].permissions_of(self.bot_user.id)

    def bot_guilds(self) -> list[Guild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]

    # -- payloads -----------------------------------------------------------------------

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Cubist stand-in application",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": 0,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.bot_guilds()),
            # Required by Discord's response schema (PrivateApplicationResponse), unused by the bot.
            "type": None,
            "role_connections_verification_url": None,
            "flags_new": "0",
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": [],
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
        }

    def ready_payload(self, session: GatewaySession) -> dict[str, Any]:
        data: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g.id), "unavailable": True} for g in self.bot_guilds() if self.gateway.carries(session, g.id)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "geo_ordered_rtc_regions": [],
        }
        if session.shard is not None:
            data["shard"] = session.shard
        return data

    def guild_create_payload(self, guild: Guild, intents: int) -> dict[str, Any]:
        # Without the (privileged) members intent Discord only sends the bot's own member.
        everyone = intents & GUILD_MEMBERS_INTENT
        members = list(guild.members.values()) if everyone else [guild.members[self.bot_user.id]]
        channels = [self.channels[c] for c in guild.channel_ids]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "preferred_locale": guild.locale,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": iso(guild.created),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "widget_enabled": False,
        }

    def new_token(self) -> str:
        return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def _for_members_intent(data: dict[str, Any]) -> Callable[[GatewaySession], dict[str, Any] | None]:
    """GUILD_MEMBER_ADD goes only to sessions that asked for the (privileged) members intent."""
    return lambda session: data if session.intents & GUILD_MEMBERS_INTENT else None
