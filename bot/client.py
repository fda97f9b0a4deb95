"""The Discord client: opens the store, registers commands and persistent components."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.chat.base import Bot
from bot.chat.delivery import send_turn_row
from bot.chat.dms import DirectMessages
from bot.chat.guard import well_formed
from bot.chat.invalid_requests import DEFAULT_LIMIT, InvalidRequestGuard
from bot.chat.old_posts import OldPosts
from bot.chat.replies import send_error
from bot.chat.shutdown import finish_in_flight
from bot.chat.translator import CubistTranslator
from bot.cog import CubistCog
from bot.config import Settings, WebPlan
from bot.i18n import Message, catalog
from bot.jobs import events as ev
from bot.jobs.outbox import Outbox
from bot.jobs.poller import Poller
from bot.lobby.items import ITEMS as LOBBY_ITEMS
from bot.look.items import ITEMS as LOOK_ITEMS
from bot.pictures.cache import Pictures
from bot.service.game import GameService, Limits
from bot.settings.items import ITEMS as SETTINGS_ITEMS
from bot.store import Store
from bot.store.jobs import LEASE_SECONDS
from bot.table.away import SkipConfirmButton, VoteButton
from bot.turn.computer import Computers
from bot.turn.items import ITEMS as TURN_ITEMS
from bot.turn.reminders import Reminders
from bot.web.links import Links, new_secret
from bot.web.server import WebBoard

# Every persistent item, one DynamicItem class per behaviour, from the features that own them.
ITEMS = (*TURN_ITEMS, *LOOK_ITEMS, *LOBBY_ITEMS, *SETTINGS_ITEMS, VoteButton, SkipConfirmButton)

log = logging.getLogger(__name__)


def _not_about_voice(record: logging.LogRecord) -> bool:
    """The bot has no voice: discord.py's start-up warnings that voice's optional packages are
    missing say nothing a server admin can act on."""
    return "voice will NOT be supported" not in record.getMessage()


logging.getLogger("discord.client").addFilter(_not_about_voice)


async def commands_hash(tree: discord.app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> str:
    """A hash of what a sync would send: every command's definition and its translations."""
    payload = [cmd.to_dict(tree) for cmd in tree.get_commands(guild=guild)]
    translated = {"commands": payload, "catalogues": catalog.catalogues()}
    text = json.dumps(translated, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class CubistBot(Bot):
    """``CubistBot(db_path)``; ``await bot.start(token)``.  ``dev_guild_id`` syncs the
    commands to one guild (instant) instead of globally.

    Always discord.py's sharded client: without ``shard_count`` it runs one shard (shard 0
    of 1, what Discord calls unsharded); ``shard_ids=[0, 1], shard_count=8`` runs those two
    of eight shards, the others running in other processes sharing the database."""

    def __init__(
        self,
        db_path: Path | str,  # a SQLite file, or a postgresql:// URL
        *,
        dev_guild_id: int | None = None,
        render_workers: int = 0,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
        timer_poll_seconds: float | None = 30.0,
        computer_pause: float = 1.0,
        hint_seconds: float = 2.0,
        limits: Limits | None = None,
        force_sync: bool = False,
        invalid_request_limit: int = DEFAULT_LIMIT,
        outbox_poll_seconds: float | None = 1.0,
        job_lease_seconds: float = LEASE_SECONDS,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        web: WebPlan | None = None,
        **kwargs: object,
    ) -> None:
        # Without a count discord.py would ask GET /gateway/bot for Discord's recommendation;
        # one process alone runs one shard unless told otherwise.
        kwargs["shard_count"] = shard_count or 1
        if shard_ids is not None:
            kwargs["shard_ids"] = shard_ids
        intents = discord.Intents.default()
        intents.message_content = False  # slash commands need no privileged intent
        kwargs.setdefault("guild_ready_timeout", 0.5)
        # Names are text, never mentions: by default a message pings nobody; the posts that
        # hand a turn on widen it to exactly that player (bot.chat.replies.pings).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # Counts 401/403/429 responses; DMs and reminders pause well before Discord's ban.
        self.invalid_requests = InvalidRequestGuard(limit=invalid_request_limit)
        kwargs.setdefault("http_trace", self.invalid_requests.trace_config())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)  # type: ignore[arg-type]
        self.db_path = db_path
        self.dev_guild_id = dev_guild_id
        self.clock = clock
        self.force_sync = force_sync  # sync the slash commands even when their hash is unchanged
        self.limits = limits or Limits()  # open games per member, cooldown between lobbies
        self.seed = seed  # fixes seating and dice for tests and the demo; None: system randomness
        self.pictures = Pictures(render_workers)
        self.web_plan = web  # the board on the web (off: None)
        self.web: WebBoard | None = None
        self.links = None
        self.store: Store
        self.service: GameService
        # The one way from the workers to the features (bot/jobs/events.py).
        self.events = ev.Events()
        # Turn posts and turn-start DMs queued with the moves: the interaction's side (bot/jobs/outbox.py).
        self.outbox = Outbox(self, job_lease_seconds=job_lease_seconds)
        # The one poller of every durable job (bot/jobs/poller.py): posts and DMs every
        # ``outbox_poll_seconds``; reminders, turn clocks and computer turns every
        # ``timer_poll_seconds`` (None: only when ``jobs.poll_once()`` is called, as the tests
        # do with their own clock).
        self.jobs = Poller(
            self,
            self.outbox,
            outbox_poll_seconds=outbox_poll_seconds,
            timer_poll_seconds=timer_poll_seconds,
            job_lease_seconds=job_lease_seconds,
        )
        self.reminders = Reminders(self)
        self.old_posts = OldPosts(self)  # takes the buttons off replaced turn posts
        self.dms = DirectMessages(self, lambda: self.service, self.invalid_requests, lambda: self.clock())
        self.computers = Computers(self, pause=computer_pause)
        self.hint_seconds = hint_seconds  # 0: hints come from the strong player alone
        self.reminders.subscribe(self.events)
        self.computers.subscribe(self.events)
        self.events.subscribe(ev.TURN_POST_DUE, functools.partial(send_turn_row, self))

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.db_path, clock=self.clock)
        seeds = random.Random(self.seed) if self.seed is not None else None
        self.service = GameService(self.store, clock=self.clock, seed_source=seeds, limits=self.limits)
        problems = await self.store.integrity.verify_all()
        for problem in problems:
            log.error("game %s failed verification and is set aside: %s", problem.game_id, problem.reason)
        if self.web_plan is not None:
            await self.start_web(self.web_plan)
        self.add_dynamic_items(*ITEMS)
        await self.add_cog(CubistCog(self))
        await self.tree.set_translator(CubistTranslator())  # French descriptions and choices
        await self.sync_commands()
        self.jobs.start()  # and posts and DMs a crash or an error left behind go out now
        await self.computers.resume_all()  # computer turns cut short by a restart
        log.info("store %s open; commands synced", self.store.db.label)

    async def start_web(self, plan: WebPlan) -> None:
        """Serves the web board and puts its links on the bot's messages (bot/web)."""
        secret = plan.secret or await self.store.meta_room.meta_or_set("web_secret", new_secret())
        self.links = Links(plan.public_url, secret, plan.link_hours)
        self.web = WebBoard(
            self.service,
            secret=secret,
            host=plan.host,
            port=plan.port,
            clock=self.clock,
            wake=self.jobs.loop.wake,
            public_url=plan.public_url,
            trusted_proxies=plan.trusted_proxies,
        )
        await self.web.start()

    async def sync_commands(self) -> bool:
        """Syncs the slash commands when asked (``--sync``) or when their definitions (or
        their translations) changed since the last sync, by a hash kept in the database:
        not on every start, which would spend a rate-limited request per restart.  Returns
        whether it synced."""
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await commands_hash(self.tree, guild)
        key = f"commands_hash:{guild.id if guild else 'global'}"
        if not self.force_sync and await self.store.meta_room.meta(key) == digest:
            log.info("slash commands unchanged since the last sync; not syncing (python -m bot --sync forces it)")
            return False
        await self.tree.sync(guild=guild)
        await self.store.meta_room.set_meta(key, digest)
        return True

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The catch-all for components no item takes (bot/chat/guard.py): a forged, damaged
        or ancient custom_id gets a clear answer instead of "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if well_formed(custom_id, ITEMS):
            return  # its item answers
        log.info("unknown or malformed component id %r from user %s", custom_id[:100], interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await send_error(interaction, Message("errors.unknown_button"))

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A player who leaves the server is away: the vote on their turn opens at once.
        (Discord sends this only with the members intent.)"""
        if payload.guild_id:
            await self.reminders.member_left(payload.guild_id, payload.user.id)

    async def close(self) -> None:
        # Nothing new starts (the pollers, the computer players: a stored move's posts wait in
        # the outbox); the answers under way finish, bounded (bot/chat/shutdown.py), then the DMs
        # and edits they started; only then does the HTTP session close under them.
        if self.web is not None:
            await self.web.stop()
        await self.computers.stop()  # a computer's turn under way stops after its current move
        await self.jobs.stop()
        await finish_in_flight()
        await self.jobs.drain()  # the nudges those answers began
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self.old_posts.idle()  # the last buttons taken off before the HTTP session closes
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        self.pictures.close()

    @classmethod
    def from_settings(cls, settings: Settings, *, force_sync: bool = False) -> CubistBot:
        """The bot as ``.env`` configures it (``python -m bot``): which setting feeds which
        part is said here, once, beside the constructor."""
        database = settings.database()
        shards = settings.shard_plan()
        return cls(
            database.path if database.kind == "sqlite" else database.where,
            dev_guild_id=settings.dev_guild_id,
            render_workers=settings.render_workers,
            limits=Limits(max_open_games=settings.max_open_games, lobby_cooldown=settings.lobby_cooldown),
            force_sync=force_sync,
            job_lease_seconds=settings.job_lease_seconds,
            timer_poll_seconds=settings.timer_poll_seconds,
            shard_ids=shards.shard_ids if shards else None,
            shard_count=shards.shard_count if shards else None,
            web=settings.web(),
        )
