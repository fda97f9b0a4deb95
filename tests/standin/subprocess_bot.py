"""A minimal bot run as a separate process against the stand-in (see test_subprocess.py).

It mirrors how the real bot is configured: DISCORD_API_BASE and DISCORD_TOKEN from the
environment, `point_discord_at` before logging in, nothing else patched.
"""

from __future__ import annotations

import os

import discord
from discord import app_commands

from standin.discord_target import point_discord_at


class PingClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong from pid {os.getpid()}")

    async def setup_hook(self) -> None:
        await self.tree.sync()


if __name__ == "__main__":
    point_discord_at(os.environ["DISCORD_API_BASE"])
    PingClient().run(os.environ["DISCORD_TOKEN"], log_handler=None)
