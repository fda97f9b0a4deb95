"""Bringing players back: what the timers send (the turn-start DM, reminders, the channel
note, the away vote), closed DMs, snooze and stop.

When they are sent is data in the store's ``timers`` table, run by the timers poller
(``bot/timers/``: the kinds in ``nudges.py`` and ``clock.py``, quiet hours in
``quiet_hours.py``).  Every timer is claimed in the database before it runs, so after a
restart, or with several processes, nothing is sent twice.  ``poll_once`` (the tests call it
after moving their injected clock) is one round of that poller.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from engine import Game

from .history import since_last_turn, turns_of
from .i18n import t, time_of_day
from .i18n.choose import guild_language, recipient_language
from .items import PlayButton
from .lost_channel import find_home
from .replies import channel_lost, clip, pings, png_file
from .store import GameRecord, ReminderPrefs, SeatRecord, Status
from .store.records import DEFAULT_REMINDER_INTERVAL
from .texts import MARKS, turn_summary
from .timers.nudges import MAX_REMINDERS, start_turn_now
from .timers.quiet_hours import interval_of, quiet_until
from .turnpanel import panel_view

if TYPE_CHECKING:
    from .client import CubistBot

log = logging.getLogger(__name__)

__all__ = ["MAX_REMINDERS", "Reminders", "interval_of", "quiet_until"]

SNOOZE_HOURS = 4
INVALID_RECIPIENT = 50033  # Discord's code for a user that cannot be found / DMed at all
UNKNOWN_CHANNEL = 10003
DM_CACHE_SIZE = 10_000


DM_RETRY_SECONDS = 7 * 24 * 3600.0  # a closed DM is tried again after a week, not on every command


class NotSent(Exception):
    """A DM not even tried: the person's DMs are known to be closed (``closed``), or the bot
    is backing off after too many invalid requests."""

    def __init__(self, closed: bool) -> None:
        super().__init__("DMs closed" if closed else "backing off after invalid requests")
        self.closed = closed


def table_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def prefs_text(prefs: ReminderPrefs, locale: str) -> str:
    if not prefs.enabled:
        return t("reminders.off", locale)
    if prefs.quiet_start is not None and prefs.quiet_end is not None:
        start, end = time_of_day(prefs.quiet_start, locale), time_of_day(prefs.quiet_end, locale)
        quiet = t("reminders.quiet", locale, start=start, end=end, zone=prefs.time_zone)
    else:
        quiet = t("reminders.no_quiet", locale, zone=prefs.time_zone)
    if prefs.interval == DEFAULT_REMINDER_INTERVAL:
        every = t("reminders.table_interval", locale)
    else:
        every = t("reminders.hours", locale, hours=prefs.interval // 3600)
    return t("reminders.on", locale, every=every, quiet=quiet)


def _rewound(value: object) -> object:
    """An attachment read by a failed send, ready to be sent again."""
    if isinstance(value, discord.File):
        value.reset()
    return value


class Reminders:
    def __init__(self, bot: CubistBot) -> None:
        self.bot = bot
        # user id -> DM channel id.  discord.py keeps only 128 DM channels, so without this
        # every turn-start DM cost a POST /users/@me/channels as well: one of three
        # rate-limited requests per turn in the load benchmark.  A DM channel's id never
        # changes; a stale one (404 Unknown Channel) is dropped and created again.
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._sending: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return self.bot.clock()

    async def poll_once(self) -> int:
        """One round of the timers poller (bot/timers/poller.py): sends what is due now."""
        return await self.bot.timers.poll_once()

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("turn-start DM failed", exc_info=task.exception())

    def send_in_background(self, record: GameRecord, game: Game) -> None:
        task = asyncio.create_task(self.send_turn_start(record, game), name=f"turn-dm-{record.id}")
        self._sending.add(task)
        task.add_done_callback(self._sent)

    async def drain(self) -> None:
        """Waits for the turn-start DMs under way (tests, shutdown)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)

    async def stop(self) -> None:
        await self.drain()

    # --- what the nudge timers send (bot/timers/nudges.py) ------------------------------------

    async def remind(self, record: GameRecord, game: Game, seat: SeatRecord, step: int) -> None:
        """Reminder ``step`` of MAX_REMINDERS: a DM, or a mention in the channel when the
        player's DMs are closed."""
        post = await self.bot.service.table_post(record.id)
        link = table_link(record.guild_id, record.channel_id, post and post[0])
        clock = await self.bot.service.turn_clock(record.id)
        # A DM speaks the player's language; the same words posted in the channel, the server's.
        if seat.dm_reachable is False:
            lang = await self.channel_language(record)
        else:
            lang = await recipient_language(self.bot.service, seat.user_id)
        left = (
            t("reminders.clock_left", lang, at=int(clock.expires_at)) if clock and clock.turn == game.state.turn else ""
        )
        text = t(
            "reminders.reminder",
            lang,
            step=step,
            total=MAX_REMINDERS,
            game=record.id,
            channel=record.channel_id,
            link=link,
            left=left,
        )
        if seat.dm_reachable is False:
            await self._to_channel(
                record, t("reminders.mention", lang, user=seat.user_id, text=text), ping=seat.user_id
            )
            return
        await self.dm(record, game, seat.user_id or 0, text, view=reminder_view(record.id, lang))

    async def channel_note(self, record: GameRecord, game: Game, seat: SeatRecord, waited: float) -> None:
        """After the last reminder: a note in the channel that the player in turn has not
        played for ``waited`` seconds."""
        now = self.now()
        hours = max(1, round(waited / 3600))
        clock = await self.bot.service.turn_clock(record.id)
        lang = await self.channel_language(record)
        when = (
            t("reminders.their_clock", lang, at=int(clock.expires_at))
            if clock and clock.turn == game.state.turn and clock.expires_at > now
            else ""
        )
        text = t(
            "reminders.channel_note",
            lang,
            mark=MARKS[seat.seat],
            user=seat.user_id,
            game=record.id,
            total=MAX_REMINDERS,
            hours=hours,
            when=when,
        )
        await self._to_channel(record, text, ping=seat.user_id)

    # --- the turn-start DM -------------------------------------------------------------------

    async def after_table_post(
        self,
        record: GameRecord,
        game: Game,
        message: discord.Message | None,
        answered: discord.Interaction | None = None,
    ) -> None:
        """Called after every table post (``answered``: the interaction it answered):
        remembers it (reminders link to it), sends the player whose turn begins their DM,
        then takes the buttons off the post it replaces (bot/old_posts.py)."""
        previous = None
        if message is not None:
            previous = await self.bot.service.table_post(record.id)
            await self.bot.service.remember_table_post(record.id, message.id, record.version)
            if answered is not None:
                self.bot.old_posts.answered(message, answered)
        await start_turn_now(self.bot, record, game)
        if message is not None and previous is not None and previous[0] != message.id:
            self.bot.old_posts.replaced(record, previous[0])

    async def turn_start_from_outbox(self, record: GameRecord, game: Game, row: object) -> int | bool | None:
        """The turn-start DM queued in the outbox with the move that began the turn (see
        bot/outbox.py).  Returns None when done (sent, or not needed any more), False when
        postponed to the end of the player's quiet hours."""
        from .outbox import nonce

        row_id: int = row.id  # type: ignore[attr-defined]
        now_record = await self.bot.service.record(record.id)
        if now_record.status != Status.ACTIVE or game.is_over or now_record.turn != game.state.turn:
            return None  # the turn is over already: no DM about it
        seat = now_record.seats[game.current_player]
        if seat.user_id is None or not seat.prefs.enabled or seat.dm_reachable is False:
            return None  # a computer now, reminders off, or DMs closed (the channel is told instead)
        wake = quiet_until(seat.prefs, self.now())
        if wake is not None:  # night-time where the player lives: in the morning
            await self.bot.service.posts.postpone(row_id, wake)
            return False
        await self.send_turn_start(now_record, game, nonce=nonce(row_id))
        return None

    async def send_turn_start(self, record: GameRecord, game: Game, *, nonce: str | None = None) -> None:
        seat = game.current_player
        user_id = record.seats[seat].user_id
        if user_id is None:
            return
        names = [s.display_name for s in record.seats]
        lang = await recipient_language(self.bot.service, user_id)
        post = await self.bot.service.table_post(record.id)
        link = table_link(record.guild_id, record.channel_id, post and post[0])
        roll = game.state.last_roll
        if roll:
            rolled = t("reminders.rolled", lang, roll=t("common.and", lang).join(map(str, roll)))
        else:
            rolled = t("reminders.short", lang)

        def changes_since() -> list[str]:  # replaying is CPU work: off the event loop
            return [
                t(
                    "reminders.change",
                    lang,
                    mark=MARKS[e.seat],
                    name=names[e.seat],
                    what=t("reminders.left_game", lang) if e.table else turn_summary(list(e.moves), None, lang, names),
                )
                for e in since_last_turn(turns_of(game), seat)
                if e.seat != seat or e.table
            ]

        changes = await asyncio.to_thread(changes_since)
        head = t(
            "reminders.turn_start", lang, game=record.id, channel=record.channel_id, turn=game.state.turn + 1, link=link
        )
        lines = [head, rolled]
        if changes:
            lines.append(t("reminders.since", lang))
            lines += changes[-12:]
        lines.append(t("reminders.how_to_play", lang))
        png = await self.bot.pictures.studio(record.id, record.version, game, names, seat, lang)
        view = turn_dm_view(record, game, lang)  # the DM is the turn panel itself (bot/turnpanel.py)
        await self.dm(record, game, user_id, "\n".join(lines), view=view, png=png, nonce=nonce)

    # --- sending -------------------------------------------------------------------------

    async def dm(
        self,
        record: GameRecord,
        game: Game,
        user_id: int,
        text: str,
        *,
        view: discord.ui.View | None = None,
        png: bytes | None = None,
        nonce: str | None = None,
    ) -> bool:
        """DMs a player; on closed DMs remembers it and mentions them in the channel instead;
        on a user who is gone, ends their turn clock so the others may vote at once."""
        try:
            kwargs: dict[str, Any] = {}
            if view is not None:
                kwargs["view"] = view
            if png is not None:
                kwargs["file"] = png_file(png, "studio.png")
            if nonce is not None:  # an outbox row's DM: sent once however often it is tried
                kwargs["nonce"] = nonce
            await self._send_dm(user_id, clip(text), **kwargs)
        except (discord.Forbidden, NotSent):
            log.info("user %s does not accept DMs; mentioning them in the channel instead", user_id)
            await self.bot.service.set_dm_reachable(user_id, False)
            lang = await self.channel_language(record)
            await self._to_channel(record, t("reminders.dms_closed", lang, user=user_id, game=record.id), ping=user_id)
            return False
        except discord.HTTPException as e:
            if isinstance(e, discord.NotFound) or e.code == INVALID_RECIPIENT:
                log.info("user %s cannot be found; treating them as away in game %s", user_id, record.id)
                await self.mark_away(record.id, game)
                return False
            log.warning("DM to user %s failed: %s", user_id, e)
            return False
        seat = record.seat_of(user_id)
        if seat is not None and seat.dm_reachable is not True:
            await self.bot.service.set_dm_reachable(user_id, True)
        return True

    async def _send_dm(self, user_id: int, text: str, **kwargs: Any) -> None:
        """Sends a DM, unless the person's DMs are known to be closed (remembered in the
        database across commands, games and restarts: one 403 per person and week) or the
        bot is backing off after many invalid requests; then raises NotSent."""
        if self.bot.invalid_requests.tripped:
            raise NotSent(closed=False)
        status = await self.bot.service.dm_status(user_id)
        if status is not None and not status[0] and self.now() - status[1] < DM_RETRY_SECONDS:
            raise NotSent(closed=True)
        try:
            await self._post_dm(user_id, text, **kwargs)
        except discord.Forbidden:
            await self.bot.service.set_dm_status(user_id, False)
            raise
        if status is None or not status[0]:
            await self.bot.service.set_dm_status(user_id, True)

    async def _post_dm(self, user_id: int, text: str, **kwargs: Any) -> None:
        cached = self._dm_channels.get(user_id)
        if cached is not None:
            self._dm_channels.move_to_end(user_id)
            channel = self.bot.get_partial_messageable(cached, type=discord.ChannelType.private)
            try:
                await channel.send(text, **kwargs)
                return
            except discord.NotFound as e:
                if e.code != UNKNOWN_CHANNEL:
                    raise
                self._dm_channels.pop(user_id, None)
                kwargs = {k: _rewound(v) for k, v in kwargs.items()}
        dm = await self.bot.create_dm(discord.Object(user_id))
        self._dm_channels[user_id] = dm.id
        while len(self._dm_channels) > DM_CACHE_SIZE:
            self._dm_channels.popitem(last=False)
        await dm.send(text, **kwargs)

    async def user_exists(self, user_id: int) -> bool:
        """A user lookup (one request per reminder): False only when Discord says the account is gone."""
        try:
            await self.bot.fetch_user(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException as e:
            log.warning("user lookup of %s failed: %s", user_id, e)
        return True

    async def probe_dm(self, user_id: int, text: str) -> bool:
        """A short DM (at join, after a settings change): records and returns whether it went."""
        try:
            await self._send_dm(user_id, clip(text))
        except NotSent as e:
            if e.closed:
                await self.bot.service.set_dm_reachable(user_id, False)
            return False
        except discord.HTTPException as e:
            level = logging.INFO if isinstance(e, discord.Forbidden) else logging.WARNING
            log.log(level, "cannot DM user %s: %s", user_id, e)
            await self.bot.service.set_dm_reachable(user_id, False)
            return False
        await self.bot.service.set_dm_reachable(user_id, True)
        return True

    async def channel_language(self, record: GameRecord) -> str:
        """The language of posts in the game's channel (the server's; see bot.i18n.choose)."""
        return await guild_language(self.bot, record.guild_id)

    async def _to_channel(
        self, record: GameRecord, text: str, view: discord.ui.View | None = None, *, ping: int | None = None
    ) -> None:
        """A post in the game's channel that pings ``ping`` (a player) and nobody else."""
        for _attempt in range(2):  # once more where the game goes on when its thread is gone
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            try:
                if view is not None:
                    await channel.send(clip(text), view=view, allowed_mentions=pings(ping))
                else:
                    await channel.send(clip(text), allowed_mentions=pings(ping))
                return
            except discord.HTTPException as e:
                log.warning("cannot post in channel %s of game %s: %s", record.channel_id, record.id, e)
                home = await find_home(self.bot, record, e) if channel_lost(e) else None
                if home is None:
                    return
                record = home

    # --- away players ----------------------------------------------------------------------

    async def mark_away(self, game_id: int, game: Game) -> None:
        """The player in turn is gone (left the server, account deleted): the vote opens now."""
        if await self.bot.service.end_turn_clock(game_id, game.state.turn):
            await self.poll_once_soon()

    async def poll_once_soon(self) -> None:
        if not self.bot.timers.busy:
            await self.poll_once()

    async def member_left(self, guild_id: int, user_id: int) -> None:
        for record in await self.bot.service.games_waiting_on(user_id):
            if record.guild_id == guild_id:
                _record, game = await self.bot.service.game(record.id)
                await self.mark_away(record.id, game)

    async def post_vote(self, record: GameRecord, game: Game) -> None:
        """The turn clock ran out: the channel is asked whether to skip or replace the player."""
        from .away import vote_text, vote_view

        lang = await self.channel_language(record)
        await self._to_channel(
            record,
            vote_text(record, game, self.bot.service.table_settings(record), locale=lang),
            vote_view(record, game, locale=lang),
            ping=record.seats[game.current_player].user_id,
        )

    # --- player settings -----------------------------------------------------------------

    async def snooze(self, game_id: int, user_id: int) -> float | None:
        """ "Remind me later": no DM for SNOOZE_HOURS; when that ends, if None: not a seat in play."""
        until = self.now() + SNOOZE_HOURS * 3600
        seat = await self.bot.service.set_reminders(game_id, user_id, snoozed_until=until)
        return None if seat is None else until

    async def stop_game(self, game_id: int, user_id: int) -> bool:
        """No more reminders for this user in this game."""
        return await self.bot.service.set_reminders(game_id, user_id, enabled=False) is not None


def reminder_view(game_id: int, locale: str) -> discord.ui.View:
    from .components import reminder_buttons, view_of

    return view_of(PlayButton(game_id, locale), *reminder_buttons(game_id, locale))


def turn_dm_view(record: GameRecord, game: Game, locale: str) -> discord.ui.View:
    """The turn-start DM's items: the turn panel, then Snooze and Stop."""
    from .components import reminder_buttons

    view = panel_view(record, game, locale)
    for item in reminder_buttons(record.id, locale):
        item.row = 4  # beside End turn and Board (nothing to undo yet at a turn's start)
        view.add_item(item)
    return view
