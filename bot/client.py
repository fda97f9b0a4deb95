"""The Discord client: opens the store, registers commands and persistent components."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from pathlib import Path

import discord
from discord.ext import commands

from .commands import CubistCog
from .components import GameButton, GameSelect
from .pictures import Pictures
from .service import GameService
from .store import Store

log = logging.getLogger(__name__)


class CubistBot(commands.Bot):
    """``CubistBot(db_path)``; ``await bot.start(token)``.  ``dev_guild_id`` syncs the
    commands to one guild (instant) instead of globally."""

    def __init__(
        self,
        db_path: Path,
        *,
        dev_guild_id: int | None = None,
        render_workers: int = 0,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
        **kwargs: object,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False  # slash commands need no privileged intent
        kwargs.setdefault("guild_ready_timeout", 0.5)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)  # type: ignore[arg-type]
        self.db_path = db_path
        self.dev_guild_id = dev_guild_id
        self.clock = clock
        self.seed = seed  # fixes seating and dice for tests and the demo; None: system randomness
        self.pictures = Pictures(render_workers)
        self.store: Store
        self.service: GameService

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.db_path, clock=self.clock)
        seeds = random.Random(self.seed) if self.seed is not None else None
        self.service = GameService(self.store, clock=self.clock, seed_source=seeds)
        problems = await self.store.verify_all()
        for problem in problems:
            log.error("game %s failed verification and is set aside: %s", problem.game_id, problem.reason)
        self.add_dynamic_items(GameButton, GameSelect)
        await self.add_cog(CubistCog(self))
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("store %s open; commands synced", self.db_path)

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        self.pictures.close()
