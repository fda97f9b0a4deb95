"""Bot settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOOPBACK = ("127.0.0.1", "::1")  # a proxy on the same machine, the usual set-up


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token; never logged.")
    database_path: Path = Field(default=Path("cubist.db"), description="SQLite file holding every game.")
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only (instant).")
    log_level: str = Field(default="INFO")
    discord_api_base: str | None = Field(
        default=None, description="Point discord.py at another server (the local stand-in), e.g. http://127.0.0.1:8555"
    )
    render_workers: int = Field(default=0, description="Processes for pictures; 0 renders in a thread.")

    max_open_games: int = Field(default=10, ge=1, description="Lobbies and games in play a member may have at once.")
    lobby_cooldown: float = Field(default=30.0, ge=0, description="Seconds between two lobbies opened in one channel.")

    database_url: str | None = Field(
        default=None,
        description="sqlite:///cubist.db (the default, DATABASE_PATH) or postgresql://user:password@host/db "
        "for several bot processes sharing one database.",
    )
    shards: str | None = Field(
        default=None, description="Shard ids this process runs, e.g. 0-3 or 0,2 (needs SHARD_COUNT)."
    )
    shard_count: int | None = Field(default=None, ge=1, description="Shards across all the bot's processes.")

    timer_poll_seconds: float = Field(
        default=30.0,
        gt=0,
        description="Seconds between two looks at due timers (reminders, turn clocks, computer turns): their"
        " greatest delay.",
    )
    job_lease_seconds: float = Field(
        default=30.0,
        gt=0,
        description="Seconds after which a job whose process died (a post, a DM, a computer's turn) is taken over.",
    )

    public_url: str | None = Field(
        default=None,
        description="Where players reach the web board, e.g. https://cubist.example.org (off when unset).",
    )
    web_port: int | None = Field(default=None, ge=1, le=65535, description="The port the web board listens on.")
    web_host: str = Field(
        default="127.0.0.1",
        description="The address the web board listens on: this machine only, behind a reverse proxy "
        "(docs/operating.md); 0.0.0.0 to serve others directly.",
    )
    trusted_proxies: str = Field(
        default=",".join(LOOPBACK),
        description="Addresses or networks (comma-separated) of the reverse proxies whose X-Forwarded-For "
        "or Forwarded header is believed: the web board's limits count each real client, not the proxy.",
    )
    web_secret: SecretStr | None = Field(
        default=None,
        description="Signs the board's links; unset: one made once and kept in the database (shared by all processes).",
    )
    web_link_hours: float = Field(default=72.0, gt=0, description="Hours a link to the board stays valid.")

    @field_validator(
        "discord_token",
        "dev_guild_id",
        "discord_api_base",
        "database_url",
        "shards",
        "public_url",
        "web_port",
        "web_secret",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        """``DISCORD_TOKEN=`` and ``DEV_GUILD_ID=`` as .env.example ships them mean "not set"."""
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, v: str | None) -> str | None:
        if v is not None:
            check_public_url(v)
        return v

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, v: str) -> str:
        proxy_list(v)  # raises ValueError naming the bad entry
        return v

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, v: str) -> str:
        level = v.upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {v!r}: use DEBUG, INFO, WARNING or ERROR")
        return level

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, v: str | None) -> str | None:
        if v is not None:
            database_target(v)  # raises ValueError with the reason
        return v

    @field_validator("shards")
    @classmethod
    def _shard_list(cls, v: str | None) -> str | None:
        if v is not None:
            parse_shards(v)
        return v

    def database(self) -> DatabaseTarget:
        """Where the games live: DATABASE_URL if set, else the SQLite file DATABASE_PATH."""
        if self.database_url is None:
            return DatabaseTarget("sqlite", str(self.database_path))
        return database_target(self.database_url)

    def web(self) -> WebPlan | None:
        """The web board's plan, or None: off unless PUBLIC_URL and WEB_PORT are both set."""
        if not self.public_url or self.web_port is None:
            return None
        check_public_url(self.public_url)
        secret = self.web_secret.get_secret_value() if self.web_secret else None
        proxies = proxy_list(self.trusted_proxies)
        return WebPlan(self.public_url.rstrip("/"), self.web_host, self.web_port, secret, self.web_link_hours, proxies)

    def shard_plan(self) -> ShardPlan | None:
        """The shards this process runs (None: unsharded, one shard)."""
        return shard_plan(parse_shards(self.shards) if self.shards else None, self.shard_count)


@dataclass(frozen=True, slots=True)
class DatabaseTarget:
    """``kind`` is "sqlite" (``where`` a file path) or "postgresql" (``where`` the URL)."""

    kind: str
    where: str

    @property
    def path(self) -> Path:
        if self.kind != "sqlite":
            raise ValueError(f"a {self.kind} database has no file path")
        return Path(self.where)


def database_target(url: str) -> DatabaseTarget:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db`` or ``postgresql://...`` (``postgres://`` too)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"DATABASE_URL must look like sqlite:///cubist.db or postgresql://..., got {url!r}")
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise ValueError(f"a SQLite DATABASE_URL names a file: sqlite:///cubist.db, got {url!r}")
        return DatabaseTarget("sqlite", rest[1:])
    if scheme in ("postgresql", "postgres"):
        return DatabaseTarget("postgresql", url)
    raise ValueError(f"DATABASE_URL: unknown database {scheme!r} (use sqlite:/// or postgresql://)")


LINK_MAX = 512  # Discord refuses a message whose link button's URL is longer
# A board link is PUBLIC_URL then "/g/<game>?t=<token>" (bot/web/links.py): a game id of up
# to 19 digits and a token of at most 120 characters.
PUBLIC_URL_MAX = LINK_MAX - len("/g/") - 19 - len("?t=") - 120


@dataclass(frozen=True, slots=True)
class WebPlan:
    """Where the web board listens and how its links look (README "The board on the web")."""

    public_url: str
    host: str
    port: int
    secret: str | None  # None: kept in the database
    link_hours: float = 72.0
    trusted_proxies: tuple[str, ...] = LOOPBACK


def proxy_list(text: str) -> tuple[str, ...]:
    """TRUSTED_PROXIES as written: addresses or networks, separated by commas or spaces."""
    entries = tuple(text.replace(",", " ").split())
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {entry!r} is not an address or a network like 10.0.0.0/8") from None
    return entries


def check_public_url(url: str) -> None:
    """PUBLIC_URL as the board's links need it; ValueError says what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"PUBLIC_URL must look like https://cubist.example.org, got {url!r}")
    if parts.query or parts.fragment or any(c.isspace() for c in url):
        raise ValueError(f"PUBLIC_URL must be an address without spaces, ? or #, got {url!r}")
    if parts.path not in ("", "/"):  # the board's pages and cookies live at /g/<game>
        raise ValueError(f"PUBLIC_URL must be a site's root, like https://cubist.example.org, without a path: {url!r}")
    base = url.rstrip("/")
    if len(base) > PUBLIC_URL_MAX:
        raise ValueError(
            f"PUBLIC_URL is {len(base)} characters long; the most is {PUBLIC_URL_MAX}, so that the board's"
            f" links stay within the {LINK_MAX} characters Discord takes on a link button"
        )


@dataclass(frozen=True, slots=True)
class ShardPlan:
    shard_ids: list[int]
    shard_count: int


def parse_shards(text: str) -> list[int]:
    """``"0-3"`` -> [0, 1, 2, 3]; ``"0,2,5-6"`` -> [0, 2, 5, 6]."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"shards are ids or ranges like 0-3 or 0,2, got {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"shard range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"a shard is listed twice in {text!r}")
    return sorted(ids)


def shard_plan(shard_ids: list[int] | None, shard_count: int | None) -> ShardPlan | None:
    if shard_ids is None and shard_count is None:
        return None
    if shard_count is None:
        raise ValueError("--shards needs --shard-count (SHARD_COUNT): the number of shards over all processes")
    ids = shard_ids if shard_ids is not None else list(range(shard_count))
    too_high = [i for i in ids if i >= shard_count]
    if too_high:
        raise ValueError(f"shard ids {too_high} do not exist among {shard_count} shards (0-{shard_count - 1})")
    return ShardPlan(ids, shard_count)
