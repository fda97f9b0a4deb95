"""The client as the Discord-facing features see it: discord.py's sharded bot with the parts
``bot.client.CubistBot`` builds.  Declared here, below the features, so that they depend on
this and not on the client, which imports them all."""

from __future__ import annotations

from collections.abc import Callable

from discord.ext import commands

from bot.chat.dms import DirectMessages
from bot.chat.invalid_requests import InvalidRequestGuard
from bot.chat.old_posts import OldPosts
from bot.jobs.events import Events
from bot.jobs.outbox import Outbox
from bot.jobs.poller import Poller
from bot.pictures.cache import Pictures
from bot.service.game import GameService, Limits
from bot.store import Store
from bot.web.links import Links


class Bot(commands.AutoShardedBot):
    store: Store
    service: GameService  # everything about games goes through it
    pictures: Pictures
    events: Events  # workers -> features (bot/jobs/events.py), and table posts -> who waits for them
    outbox: Outbox  # turn posts and turn-start DMs queued with the moves
    jobs: Poller  # the one poller of every durable job: posts, DMs, reminders, turn clocks, computer turns
    old_posts: OldPosts  # takes the buttons off replaced turn posts
    dms: DirectMessages
    invalid_requests: InvalidRequestGuard  # counts 401/403/429; DMs pause well before a ban
    clock: Callable[[], float]
    limits: Limits
    seed: int | None
    links: Links | None = None  # the web board's signed links (None: the board is off)
    hint_seconds: float = 2.0  # how long a hint waits for the master's suggestion (then: strong's)
