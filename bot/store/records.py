"""Plain, immutable views of the store's rows.

Times are Unix seconds (float, UTC); ids are Discord snowflakes (int).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.store.connection import Row
from engine import GameOptions


class Status(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN_STATUSES = (Status.LOBBY, Status.ACTIVE)

DEFAULT_REMINDER_INTERVAL = 12 * 3600  # seconds


def _columns(r: Row, names: tuple[str, ...]) -> dict[str, Any]:
    """The row's columns that a record keeps as they are, under the same names."""
    return {name: r[name] for name in names}


# The columns each record takes as they are; the others it reads into booleans, enums or JSON.
_SEAT_AS_STORED = ("game_id", "seat", "user_id", "display_name", "colour", "ai_level", "joined_at")
_GAME_AS_STORED = (
    "id", "guild_id", "channel_id", "creator_id", "created_at", "updated_at", "started_at", "finished_at", "seed",
    "players", "version", "current_seat", "turn",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ReminderPrefs:
    """A seat's reminder preferences.  Quiet hours are minutes after local midnight
    (start may be after end: 22:00-07:00 wraps), in ``time_zone`` (an IANA name)."""

    enabled: bool = True
    interval: int = DEFAULT_REMINDER_INTERVAL
    quiet_start: int | None = None
    quiet_end: int | None = None
    time_zone: str = "UTC"
    snoozed_until: float | None = None

    def problems(self) -> list[str]:
        out = []
        if self.interval <= 0:
            out.append("the reminder interval must be positive")
        if (self.quiet_start is None) != (self.quiet_end is None):
            out.append("quiet hours need both a start and an end")
        for name in ("quiet_start", "quiet_end"):
            v = getattr(self, name)
            if v is not None and not 0 <= v < 24 * 60:
                out.append(f"{name} must be minutes after midnight (0..1439), not {v}")
        try:
            from zoneinfo import ZoneInfo

            ZoneInfo(self.time_zone)
        except Exception:
            out.append(f"unknown time zone {self.time_zone!r}")
        return out


@dataclass(frozen=True, slots=True)
class SeatRecord:
    game_id: int
    seat: int
    user_id: int | None  # None for a computer player
    display_name: str
    colour: str | None
    is_computer: bool
    ai_level: int | None
    dm_reachable: bool | None  # None: not known yet
    prefs: ReminderPrefs
    joined_at: float

    @classmethod
    def from_row(cls, r: Row) -> SeatRecord:
        return cls(
            **_columns(r, _SEAT_AS_STORED),
            is_computer=bool(r["is_computer"]),
            dm_reachable=None if r["dm_reachable"] is None else bool(r["dm_reachable"]),
            prefs=ReminderPrefs(
                enabled=bool(r["reminders_enabled"]),
                interval=r["reminder_interval"],
                **_columns(r, ("quiet_start", "quiet_end", "time_zone", "snoozed_until")),
            ),
        )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``games`` plus its seats (ordered by seat)."""

    id: int
    guild_id: int | None
    channel_id: int
    creator_id: int
    options: GameOptions
    status: Status
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None
    seed: int | None
    players: int | None
    version: int  # number of moves applied; the optimistic-concurrency token
    current_seat: int | None
    turn: int | None
    seats: tuple[SeatRecord, ...] = field(default=())
    settings: str = "{}"  # the bot's table settings (JSON)

    @classmethod
    def from_row(cls, r: Row, seats: tuple[SeatRecord, ...] = ()) -> GameRecord:
        return cls(
            **_columns(r, _GAME_AS_STORED),
            options=GameOptions.model_validate_json(r["options"]),
            status=Status(r["status"]),
            seats=seats,
            settings=r["settings"] if "settings" in r.keys() else "{}",  # noqa: SIM118
        )

    def seat_of(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    game_id: int
    ply: int  # 1-based; after ply n the game is at version n
    move: str
    user_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class ResultRecord:
    game_id: int
    seat: int
    user_id: int | None
    score: int
    museum_dice: int
    rank: int  # 1 = best; ties share a rank
    winner: bool


def row_dict(r: Row) -> dict[str, Any]:
    return {k: r[k] for k in r.keys()}  # noqa: SIM118 (sqlite3.Row is not a mapping)
