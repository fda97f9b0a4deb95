"""When a player may be sent a DM: quiet hours in their own time zone, snoozing, and the
interval between reminders.  Pure functions of the preferences and a Unix time."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.store.records import DEFAULT_REMINDER_INTERVAL, ReminderPrefs

MINUTES_PER_DAY = 24 * 60


def is_quiet_minute(start: int, end: int, minute: int) -> bool:
    """Whether ``minute`` (after local midnight) falls in quiet hours from ``start`` to
    ``end`` (minutes; a start after the end wraps past midnight: 22:00-07:00)."""
    if start == end:
        return False
    return start <= minute < end if start < end else (minute >= start or minute < end)


def quiet_until(prefs: ReminderPrefs, now: float) -> float | None:
    """When the quiet hours around ``now`` end (Unix time), or None when DMs may go out now.
    The end is a wall-clock time in the player's zone, so it stays right across DST changes."""
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    tz = ZoneInfo(prefs.time_zone)
    local = datetime.fromtimestamp(now, tz)
    if not is_quiet_minute(start, end, local.hour * 60 + local.minute):
        return None
    wake = datetime(local.year, local.month, local.day, end // 60, end % 60, tzinfo=tz)
    if wake.timestamp() <= now:
        day = local.date() + timedelta(days=1)
        wake = datetime(day.year, day.month, day.day, end // 60, end % 60, tzinfo=tz)
    return wake.timestamp()


def next_allowed(prefs: ReminderPrefs, now: float) -> float | None:
    """When a DM may go out if not now (snoozed, or night-time where the player lives);
    None: now is fine."""
    later = max(prefs.snoozed_until or 0.0, quiet_until(prefs, now) or 0.0)
    return later if later > now else None


def interval_of(prefs: ReminderPrefs, table_hours: int) -> float:
    """Seconds between reminders: the player's own interval if they chose one, else the table's."""
    return float(prefs.interval) if prefs.interval != DEFAULT_REMINDER_INTERVAL else table_hours * 3600.0
