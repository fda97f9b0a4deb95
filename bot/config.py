"""Bot settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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

    outbox_lease_seconds: float = Field(
        default=30.0, gt=0, description="Seconds after which a claimed but unsent post is sent by the outbox worker."
    )

    @field_validator("discord_token", "dev_guild_id", "discord_api_base", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        """``DISCORD_TOKEN=`` and ``DEV_GUILD_ID=`` as .env.example ships them mean "not set"."""
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, v: str) -> str:
        level = v.upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {v!r}: use DEBUG, INFO, WARNING or ERROR")
        return level
