"""``python -m bot``: run the bot with the token from ``.env`` (the Procfile's worker).

Without a token it refuses to start (exit status 2) and says where to put one: a host with
a missing token must not look healthy.  ``python -m bot --demo [DIR]`` plays a whole offline
game on the local Discord stand-in instead; ``python -m bot.launch`` (the README's first
command) picks one of the two by whether a token is configured.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord

from bot.config import Settings

NO_TOKEN = (
    "No DISCORD_TOKEN: put `DISCORD_TOKEN=<your bot token>` in .env (copy .env.example) or in the "
    "environment. For the offline demo without a token, run `python -m bot --demo`."
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Cubist for Discord")
    parser.add_argument(
        "--demo",
        metavar="DIR",
        type=Path,
        nargs="?",
        const=Path("demo-out"),
        help="play an offline demo game and write its pictures to DIR (default demo-out)",
    )
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="players in the demo game")
    parser.add_argument(
        "--computers", type=int, default=1, choices=(0, 1, 2, 3), help="of the demo's players, how many are computers"
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the demo game")
    parser.add_argument(
        "--keep-open",
        action="store_true",
        help="after the demo game, keep its web board (http://127.0.0.1:…) open until Ctrl-C",
    )
    parser.add_argument("--sync", action="store_true", help="sync the slash commands with Discord even if unchanged")
    parser.add_argument("--shards", metavar="IDS", help="shard ids this process runs, e.g. 0-3 or 0,2 (SHARDS)")
    parser.add_argument("--shard-count", type=int, metavar="N", help="shards over all processes (SHARD_COUNT)")
    args = parser.parse_args(argv)
    overrides: dict[str, object] = {}
    if args.shards is not None:
        overrides["shards"] = args.shards
    if args.shard_count is not None:
        overrides["shard_count"] = args.shard_count
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
        settings.shard_plan()  # checked here, so that a wrong value is a usage error
        settings.web()
    except ValueError as e:  # pydantic's ValidationError is a ValueError
        parser.error(str(e))
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    if args.demo is not None:
        from bot.demo import run_demo

        if args.computers >= args.players:
            parser.error("the demo needs at least one human player: --computers must be below --players")
        demo = run_demo(
            args.demo, players=args.players, computers=args.computers, seed=args.seed, keep_open=args.keep_open
        )
        try:
            return asyncio.run(demo)
        except KeyboardInterrupt:
            return 0
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.client import CubistBot
    from bot.startup import StartupError, check_database, check_postgres

    database = settings.database()
    try:
        if database.kind == "postgresql":
            check_postgres(database.where)
        else:
            check_database(database.path)
    except StartupError as e:
        print(e, file=sys.stderr)
        return 3
    if settings.discord_api_base:
        # Development and tests only: another Discord (the stand-in). The bot itself never imports the stand-in.
        from standin.discord_target import point_discord_at

        point_discord_at(settings.discord_api_base)
    bot = CubistBot.from_settings(settings, force_sync=args.sync)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
