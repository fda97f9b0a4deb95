"""Bringing players back: what the jobs send (the turn-start DM, reminders, the channel
note, the away vote) and closed DMs.

When they are sent is data in the store's ``jobs`` table (``bot/service/schedule.py``), run
by the job poller (``bot/jobs/``), which hands each due one here through the events this
class subscribes to (``bot/jobs/events.py``).  Every job is claimed in the database before it
runs, so after a restart, or with several processes, nothing is sent twice; a DM Discord
refused for now (5xx, 429) raises, and its job is tried again with every job's backoff.
``poll_once`` (the tests call it after moving their injected clock) runs what is due now.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.chat.base import Bot
from bot.chat.board_link import board_link
from bot.chat.buttons import reminder_buttons, reminder_view
from bot.chat.dms import INVALID_RECIPIENT, NotSent
from bot.chat.language import guild_language, recipient_language
from bot.chat.lost_channel import find_home
from bot.chat.replies import channel_lost, clip, pings, png_file
from bot.i18n import t, time_of_day
from bot.jobs import events as ev
from bot.jobs.outbox import nonce, reminder_nonce
from bot.service.game import in_play
from bot.service.quiet_hours import quiet_until
from bot.service.schedule import MAX_REMINDERS
from bot.store import GameRecord, Job, ReminderPrefs, SeatRecord
from bot.store.records import DEFAULT_REMINDER_INTERVAL
from bot.table.away import vote_text, vote_view
from bot.turn.panel import panel_view
from bot.words.history import since_last_turn, turns_of
from bot.words.story import turn_words
from bot.words.texts import MARKS
from engine import Game

log = logging.getLogger(__name__)


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


class Reminders:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def subscribe(self, events: ev.Events) -> None:
        events.subscribe(ev.TURN_DM_DUE, self.turn_start_from_outbox)
        events.subscribe(ev.TURN_START_DM, self.send_turn_start)
        events.subscribe(ev.REMINDER_DUE, self.remind)
        events.subscribe(ev.CHANNEL_NOTE_DUE, self.channel_note)
        events.subscribe(ev.USER_EXISTS, self.user_exists)
        events.subscribe(ev.PLAYER_GONE, self.mark_away)
        events.subscribe(ev.VOTE_DUE, self.post_vote)

    def now(self) -> float:
        return self.bot.clock()

    async def poll_once(self) -> int:
        """Runs every job due now (bot/jobs/poller.py)."""
        return await self.bot.jobs.poll_once()

    # --- what the nudge timers send (bot/jobs/runs.py) ------------------------------------

    async def remind(self, record: GameRecord, game: Game, seat: SeatRecord, step: int) -> None:
        """Reminder ``step`` of MAX_REMINDERS: a DM, or a mention in the channel when the
        player's DMs are closed."""
        post = await self.bot.service.queries.table_post(record.id)
        link = table_link(record.guild_id, record.channel_id, post and post[0])
        clock = await self.bot.service.queries.turn_clock(record.id)
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
        view, once = reminder_view(record.id, lang), reminder_nonce(record.id, game.state.turn, step)
        await self.dm(record, game, seat.user_id or 0, text, view=view, nonce=once)

    async def channel_note(self, record: GameRecord, game: Game, seat: SeatRecord, waited: float) -> None:
        """After the last reminder: a note in the channel that the player in turn has not
        played for ``waited`` seconds."""
        now = self.now()
        hours = max(1, round(waited / 3600))
        clock = await self.bot.service.queries.turn_clock(record.id)
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

    async def turn_start_from_outbox(self, record: GameRecord, game: Game, job: Job) -> float | None:
        """The turn-start DM queued with the move that began the turn (see bot/jobs/outbox.py).
        Returns None when done (sent, or not needed any more), or the end of the player's quiet
        hours, when it is to be sent."""
        now_record = await self.bot.service.queries.record(record.id)
        if not in_play(now_record, game) or now_record.turn != game.state.turn:
            return None  # the turn is over already: no DM about it
        seat = now_record.seats[game.current_player]
        if seat.user_id is None or not seat.prefs.enabled or seat.dm_reachable is False:
            return None  # a computer now, reminders off, or DMs closed (the channel is told instead)
        wake = quiet_until(seat.prefs, self.now())
        if wake is not None:  # night-time where the player lives: in the morning
            return wake
        await self.send_turn_start(now_record, game, nonce=nonce(job.id), turn_version=job.version)
        return None

    async def send_turn_start(
        self, record: GameRecord, game: Game, *, nonce: str | None = None, turn_version: int | None = None
    ) -> None:
        """``turn_version``: the game's version when the turn began (an outbox row's); the DM
        links to the table post of that version or later, and to the channel while there is
        none (its post failed and is being tried again): never to an older turn's post."""
        seat = game.current_player
        user_id = record.seats[seat].user_id
        if user_id is None:
            return
        names = [s.display_name for s in record.seats]
        lang = await recipient_language(self.bot.service, user_id)
        post = await self.bot.service.queries.table_post(record.id)
        if post is not None and turn_version is not None and post[1] < turn_version:
            post = None
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
                    what=t("reminders.left_game", lang) if e.table else turn_words(e.moves, game.deck, lang, names),
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
        style = await self.bot.service.picture_style(user_id)
        png = await self.bot.pictures.studio(record.id, record.version, game, names, seat, lang, style=style)
        # The DM is the turn panel itself (bot/turn/panel.py), with this player's board link.
        view = turn_dm_view(record, game, lang, board_link(self.bot, record.id, lang, user_id))
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
        on a user who is gone, ends their turn clock so the others may vote at once.  Those
        are the only refusals that end the job: anything else (5xx, 429, a timeout, the bot
        backing off after invalid requests) is raised, so the job that sends the DM is tried
        again with every job's backoff (``bot/store/jobs.py``)."""
        try:
            kwargs: dict[str, Any] = {}
            if view is not None:
                kwargs["view"] = view
            if png is not None:
                kwargs["file"] = png_file(png, "studio.png")
            if nonce is not None:  # an outbox row's DM: sent once however often it is tried
                kwargs["nonce"] = nonce
            await self.bot.dms.send(user_id, clip(text), **kwargs)
        except NotSent as e:
            if not e.closed:
                raise  # backing off for a while: not the player's doing
            return await self._dms_closed(record, user_id)
        except discord.Forbidden:
            return await self._dms_closed(record, user_id)
        except discord.HTTPException as e:
            if isinstance(e, discord.NotFound) or e.code == INVALID_RECIPIENT:
                log.info("user %s cannot be found; treating them as away in game %s", user_id, record.id)
                await self.mark_away(record.id, game)
                return False
            raise
        seat = record.seat_of(user_id)
        if seat is not None and seat.dm_reachable is not True:
            await self.bot.service.queries.set_dm_reachable(user_id, True)
        return True

    async def _dms_closed(self, record: GameRecord, user_id: int) -> bool:
        """The player does not accept DMs: remembered, and they are mentioned in the channel."""
        log.info("user %s does not accept DMs; mentioning them in the channel instead", user_id)
        await self.bot.service.queries.set_dm_reachable(user_id, False)
        lang = await self.channel_language(record)
        await self._to_channel(record, t("reminders.dms_closed", lang, user=user_id, game=record.id), ping=user_id)
        return False

    async def user_exists(self, user_id: int) -> bool:
        """A user lookup (one request per reminder): False only when Discord says the account is gone."""
        try:
            await self.bot.fetch_user(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException as e:
            log.warning("user lookup of %s failed: %s", user_id, e)
        return True

    async def channel_language(self, record: GameRecord) -> str:
        """The language of posts in the game's channel (the server's; see bot.chat.language)."""
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
        if not self.bot.jobs.busy:
            await self.poll_once()

    async def member_left(self, guild_id: int, user_id: int) -> None:
        for record in await self.bot.service.queries.games_waiting_on(user_id):
            if record.guild_id == guild_id:
                _record, game = await self.bot.service.queries.game(record.id)
                await self.mark_away(record.id, game)

    async def post_vote(self, record: GameRecord, game: Game) -> None:
        """The turn clock ran out: the channel is asked whether to skip or replace the player."""
        lang = await self.channel_language(record)
        await self._to_channel(
            record,
            vote_text(record, game, self.bot.service.table_settings(record), locale=lang),
            vote_view(record, game, locale=lang),
            ping=record.seats[game.current_player].user_id,
        )


def turn_dm_view(
    record: GameRecord, game: Game, locale: str, link: discord.ui.Item[Any] | None = None
) -> discord.ui.View:
    """The turn-start DM's items: the turn panel, then Snooze and Stop (and, with the web
    board on, "Open the board" for this player)."""
    return panel_view(record, game, locale, link=link, extras=reminder_buttons(record.id, locale))
