"""The stand-in's world: users, guilds, roles, channels, messages and attachments.

Each model renders itself as the JSON payload Discord would send (`payload()`); only the
fields discord.py 2.7 reads are filled, with Discord's real names and types.
"""

from __future__ import annotations

import datetime as dt
import itertools
import struct
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000


class Permission:
    """Permission bits the stand-in understands."""

    ADMINISTRATOR = 1 << 3
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38

    EVERYONE_DEFAULT = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | SEND_MESSAGES_IN_THREADS
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
    )
    BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
    ALL = (1 << 51) - 1


class ChannelType:
    TEXT = 0
    DM = 1
    CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    FORUM = 15
    THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)


class MessageFlag:
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    IS_COMPONENTS_V2 = 1 << 15


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


def _with_permissions(data: dict[str, Any], permissions: int | None) -> dict[str, Any]:
    """A member or channel as an interaction resolves it carries the permissions it has there."""
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


class SnowflakeFactory:
    """Real-looking, strictly increasing snowflakes (discord.py derives times from them)."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last

    def past(self, seconds: float) -> int:
        """A snowflake of ``seconds`` ago (an interaction Discord created then and delivered late)."""
        ms = int((time.time() - seconds) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def at_least(self, value: int) -> int:
        """The next snowflake, but no smaller than ``value`` (ids that land on a chosen shard)."""
        self._last = max(value, self._last + 1)
        return self._last


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    dms_closed: bool = False
    bot: bool = False
    global_name: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    role_ids: list[int]
    joined_at: float
    nick: str | None = None

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        return _with_permissions(data, permissions)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    created: float = field(default_factory=time.time)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return Permission.ALL
        member = self.members.get(user_id)
        if member is None:
            return 0
        perms = self.everyone.permissions
        for role_id in member.role_ids:
            perms |= self.roles[role_id].permissions
        return Permission.ALL if perms & Permission.ADMINISTRATOR else perms


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None  # threads
    recipient: User | None = None  # DMs
    archived: bool = False
    locked: bool = False  # threads: only moderators may unarchive
    auto_archive_duration: int = 1440  # threads, minutes
    # None: the bot's guild permissions apply; an int replaces them in this channel.
    bot_permissions: int | None = None
    last_message_id: int | None = None
    message_count: int = 0
    created: float = field(default_factory=time.time)

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": last,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=1,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created),
                    "locked": self.locked,
                },
            )
        else:
            data.update(topic=self.topic, permission_overwrites=[], default_thread_rate_limit_per_user=0)
        return _with_permissions(data, permissions)


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False
    # (size, PNG width and height) of an upload whose bytes were not kept (``StandIn(
    # keep_uploads=False)``, the load benchmark: its memory figure is then the bot's, not
    # that of the stand-in's archive of every picture).  ``data`` is empty then.
    dropped: tuple[int, tuple[int, int] | None] | None = None

    @property
    def size(self) -> int:
        return len(self.data) if self.dropped is None else self.dropped[0]

    @property
    def png_dimensions(self) -> tuple[int, int] | None:
        """Width and height when the upload is a PNG (checked on arrival if not kept)."""
        return png_size(self.data) if self.dropped is None else self.dropped[1]

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "flags": 0,
        }
        if self.content_type:
            payload["content_type"] = self.content_type
        if self.description:
            payload["description"] = self.description
        if self.ephemeral:
            payload["ephemeral"] = True
        size = self.png_dimensions
        if size:
            payload["width"], payload["height"] = size
        return payload

    def image(self) -> Any:
        """The attachment decoded with Pillow (imported lazily: only tests need it)."""
        import io

        from PIL import Image

        if self.dropped is not None:
            raise ValueError(f"the stand-in did not keep the bytes of {self.filename} (keep_uploads=False)")
        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@dataclass(frozen=True)
class Version:
    """A message as it stood from ``at`` (a snowflake: when it was sent or edited)."""

    at: int
    content: str
    components: list[dict[str, Any]]
    attachments: list[Attachment]


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created: float = field(default_factory=time.time)
    allowed_mentions: dict[str, Any] | None = None  # as sent; None: Discord's default (parse all)
    nonce: str | None = None  # an enforced nonce it was created with
    edited: float | None = None
    deleted: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    mentions: list[User] = field(default_factory=list)
    # The interaction that produced this message (response or follow-up), if any.
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: User | None = None
    # More of `interaction_metadata`: interacted_message_id (buttons), triggering_interaction_metadata (modals).
    interaction_extra: dict[str, Any] = field(default_factory=dict)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    edits: int = 0
    # Every version from the one sent, with ``World(keep_edits=True)`` (the demo's transcript
    # shows each DM as it was sent, then what changed); empty otherwise.
    versions: list[Version] = field(default_factory=list)

    def version(self, at: int) -> Version:
        return Version(at, self.content, list(self.components), list(self.attachments))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            } | self.interaction_extra
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.author.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for name, users in self.reactions.items()
            ]
        return data

    # -- helpers for tests -------------------------------------------------------------

    def iter_components(self) -> list[dict[str, Any]]:
        """Every component at any depth (rows, buttons, selects, v2 containers...)."""
        return list(walk_components(self.components))

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]


def walk_components(components: list[dict[str, Any]]) -> Any:
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        if isinstance(component.get("component"), dict):  # label (type 18)
            yield from walk_components([component["component"]])
        if isinstance(component.get("accessory"), dict):  # section (type 9)
            yield from walk_components([component["accessory"]])
