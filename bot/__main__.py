"""``python -m bot``: run the bot with the token from ``.env``; without a token (or with
``--demo DIR``) play a whole offline game on the local Discord stand-in instead."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord

from .config import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Cubist for Discord")
    parser.add_argument(
        "--demo", metavar="DIR", type=Path, help="play an offline demo game and write its pictures to DIR"
    )
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="players in the demo game")
    parser.add_argument(
        "--computers", type=int, default=1, choices=(0, 1, 2, 3), help="of the demo's players, how many are computers"
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the demo game")
    args = parser.parse_args(argv)
    settings = Settings()
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    if args.demo is not None or settings.discord_token is None:
        from .demo import run_demo

        out = args.demo or Path("demo-out")
        if args.demo is None:
            print("No DISCORD_TOKEN in the environment or .env: playing the offline demo instead.")
        if args.computers >= args.players:
            parser.error("the demo needs at least one human player: --computers must be below --players")
        return asyncio.run(run_demo(out, players=args.players, computers=args.computers, seed=args.seed))
    from .client import CubistBot

    if settings.discord_api_base:
        # Development and tests only: another Discord (the stand-in). The bot itself never imports the stand-in.
        from standin.discord_target import point_discord_at

        point_discord_at(settings.discord_api_base)
    bot = CubistBot(settings.database_path, dev_guild_id=settings.dev_guild_id, render_workers=settings.render_workers)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
