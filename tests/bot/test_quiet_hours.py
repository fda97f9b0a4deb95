"""Quiet hours, snoozes and reminder intervals as pure functions (bot/jobs/quiet_hours.py)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.service.quiet_hours import interval_of, is_quiet_minute, next_allowed, quiet_until
from bot.store import ReminderPrefs
from bot.store.records import DEFAULT_REMINDER_INTERVAL


def at(zone: str, year: int, month: int, day: int, hour: int, minute: int) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone)).timestamp()


def test_quiet_minutes_with_and_without_wrapping_past_midnight() -> None:
    assert is_quiet_minute(22 * 60, 7 * 60, 23 * 60) and is_quiet_minute(22 * 60, 7 * 60, 6 * 60 + 59)
    assert not is_quiet_minute(22 * 60, 7 * 60, 7 * 60) and not is_quiet_minute(22 * 60, 7 * 60, 12 * 60)
    assert is_quiet_minute(13 * 60, 14 * 60, 13 * 60) and not is_quiet_minute(13 * 60, 14 * 60, 14 * 60)
    assert not is_quiet_minute(600, 600, 600)  # an empty range is never quiet


def test_quiet_until_is_the_end_in_the_players_own_zone() -> None:
    night = ReminderPrefs(quiet_start=22 * 60, quiet_end=7 * 60, time_zone="Europe/Paris")
    assert quiet_until(night, at("Europe/Paris", 2024, 5, 1, 23, 30)) == at("Europe/Paris", 2024, 5, 2, 7, 0)
    assert quiet_until(night, at("Europe/Paris", 2024, 5, 2, 3, 0)) == at("Europe/Paris", 2024, 5, 2, 7, 0)
    assert quiet_until(night, at("Europe/Paris", 2024, 5, 2, 12, 0)) is None
    assert quiet_until(ReminderPrefs(), at("UTC", 2024, 5, 2, 3, 0)) is None  # no quiet hours


def test_quiet_hours_end_on_the_wall_clock_across_a_dst_change() -> None:
    # Europe/Paris moves to summer time at 02:00 on 2024-03-31: the night is an hour shorter.
    night = ReminderPrefs(quiet_start=22 * 60, quiet_end=7 * 60, time_zone="Europe/Paris")
    start = at("Europe/Paris", 2024, 3, 30, 23, 0)
    end = quiet_until(night, start)
    assert end == at("Europe/Paris", 2024, 3, 31, 7, 0) and end - start == 7 * 3600


def test_next_allowed_takes_the_later_of_snooze_and_quiet_hours() -> None:
    now = at("UTC", 2024, 5, 1, 23, 0)
    night = ReminderPrefs(quiet_start=22 * 60, quiet_end=6 * 60)
    assert next_allowed(night, now) == at("UTC", 2024, 5, 2, 6, 0)
    later = at("UTC", 2024, 5, 2, 9, 0)
    assert next_allowed(ReminderPrefs(quiet_start=22 * 60, quiet_end=6 * 60, snoozed_until=later), now) == later
    assert next_allowed(ReminderPrefs(snoozed_until=now - 1), now) is None  # a snooze that is over
    assert next_allowed(ReminderPrefs(), now) is None


def test_interval_is_the_players_own_or_the_tables() -> None:
    assert interval_of(ReminderPrefs(), 6) == 6 * 3600.0
    assert interval_of(ReminderPrefs(interval=3 * 3600), 6) == 3 * 3600.0
    assert interval_of(ReminderPrefs(interval=DEFAULT_REMINDER_INTERVAL), 24) == 24 * 3600.0
