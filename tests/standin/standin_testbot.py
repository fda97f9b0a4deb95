"""The self-tests' bot: a tiny discord.py bot (no game code) using every stand-in feature."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from standin import Guild


def png_bytes(size: tuple[int, int] = (8, 6), color: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


class BoardView(discord.ui.View):
    """Persistent view: fixed custom_ids, no timeout, registered in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll", custom_id="board:roll", style=discord.ButtonStyle.primary)
    async def roll(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"rolled by {interaction.user.name}")

    @discord.ui.button(label="Help", custom_id="board:help")
    async def help(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("help text", ephemeral=True)

    @discord.ui.button(label="Quiet", custom_id="board:quiet")
    async def quiet(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.followup.edit_message(interaction.message.id, content="quietly updated")

    @discord.ui.select(
        custom_id="board:colour",
        placeholder="Pick a colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
        min_values=1,
        max_values=2,
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your game"):
    game_name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="modal:name", max_length=20)
    notes: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Notes", custom_id="modal:notes", required=False, style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.game_name.value} ({self.notes.value or '-'})")


class SelfTestBot(commands.Bot):
    """A bot exercising every part of the stand-in; `gate` lets tests hold a handler."""

    def __init__(self, sync_guild: Guild | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,  # e.g. shard_id, shard_count
        )
        self.sync_guild = sync_guild
        self.gate = asyncio.Event()
        self.started = asyncio.Event()
        self.errors: list[BaseException] = []
        self.synced: list[app_commands.AppCommand] = []
        self.resumed_count = 0
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(BoardView())
        self.synced = await self.tree.sync()
        if self.sync_guild is not None:
            self.tree.copy_global_to(guild=discord.Object(self.sync_guild.id))
            await self.tree.sync(guild=discord.Object(self.sync_guild.id))

    async def on_resumed(self) -> None:
        self.resumed_count += 1

    async def hold(self) -> None:
        self.started.set()
        await self.gate.wait()

    async def attempt(self, request: Awaitable[object]) -> None:
        """Awaits ``request``: Discord's refusal (an HTTPException) is kept in ``errors`` for the test."""
        try:
            await request
        except discord.HTTPException as exc:
            self.errors.append(exc)

    def _add_commands(self) -> None:
        tree, bot = self.tree, self

        @tree.command(description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong {interaction.locale.value} {interaction.user.name}")

        @tree.command(description="Describe the interaction")
        async def whoami(interaction: discord.Interaction) -> None:
            guild_locale = interaction.guild_locale.value if interaction.guild_locale else "-"
            parts = [
                interaction.locale.value,
                guild_locale,
                type(interaction.user).__name__,
                type(interaction.channel).__name__,
                str(interaction.app_permissions.attach_files),
                str(interaction.permissions.send_messages),
            ]
            await interaction.response.send_message("|".join(parts))

        @tree.command(description="Answer only to you")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you", ephemeral=True)

        game = app_commands.Group(name="game", description="Games")
        admin = app_commands.Group(name="admin", description="Admin", parent=game)

        @game.command(name="new", description="Start a game")
        @app_commands.describe(players="How many", mode="Rules")
        async def game_new(
            interaction: discord.Interaction,
            players: app_commands.Range[int, 2, 4],
            mode: Literal["basic", "advanced"] = "basic",
            rival: discord.Member | None = None,
        ) -> None:
            rival_name = rival.name if rival else "nobody"
            await interaction.response.send_message(f"new {mode} game for {players} vs {rival_name}")

        @admin.command(name="reset", description="Reset everything")
        async def admin_reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset done", ephemeral=True)

        tree.add_command(game)

        async def move_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            moves = ["4 w", "4 b", "5 w", "6 r"]
            return [app_commands.Choice(name=m, value=m) for m in moves if m.startswith(current)]

        async def too_many(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"c{i}", value=f"c{i}") for i in range(30)]

        @tree.command(description="Place a die")
        @app_commands.autocomplete(move=move_choices)
        async def place(interaction: discord.Interaction, move: str) -> None:
            await interaction.response.send_message(f"placed {move}")

        @tree.command(description="Autocomplete with too many choices")
        @app_commands.autocomplete(item=too_many)
        async def crowd(interaction: discord.Interaction, item: str) -> None:
            await interaction.response.send_message(item)

        @tree.command(description="Think, then follow up")
        async def work(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("step 1")
            await interaction.followup.send("step 2 (private)", ephemeral=True)
            await interaction.edit_original_response(content="step 1 (edited)")

        @tree.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("the board", view=BoardView())

        @tree.command(description="Open a modal")
        async def name(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Send pictures")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("here", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
            assert isinstance(interaction.channel, discord.abc.Messageable)
            await interaction.channel.send(
                "and another", file=discord.File(io.BytesIO(png_bytes((4, 4), "blue")), "small.png")
            )

        @tree.command(description="Too long a reply")
        async def long(interaction: discord.Interaction, part: Literal["content", "embed"] = "content") -> None:
            if part == "content":
                await bot.attempt(interaction.response.send_message("x" * 2001))
            else:
                await bot.attempt(interaction.response.send_message(embed=discord.Embed(title="t" * 257)))

        @tree.command(description="Edit and delete follow-ups")
        async def steps(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            second = await interaction.followup.send("second", wait=True)
            await second.edit(content="second (edited)")
            original = await interaction.original_response()
            third = await interaction.followup.send(f"third after {original.content}", wait=True)
            await third.delete()
            await interaction.delete_original_response()

        @tree.command(description="Send raw components")
        async def raw(interaction: discord.Interaction, kind: Literal["long_id", "six_rows"]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            button = {"type": 2, "style": 1, "label": "b"}
            if kind == "long_id":
                rows = [{"type": 1, "components": [button | {"custom_id": "x" * 101}]}]
            else:
                rows = [{"type": 1, "components": [button | {"custom_id": f"r{i}"}]} for i in range(6)]
            route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
            await bot.attempt(bot.http.request(route, json={"content": "raw", "components": rows}))
            await interaction.followup.send("tried")

        @tree.command(description="Reply after the gate opens")
        async def late(interaction: discord.Interaction) -> None:
            await bot.hold()
            await bot.attempt(interaction.response.send_message("too late"))

        @tree.command(description="Follow up after the gate opens")
        async def expire(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await bot.hold()
            await bot.attempt(interaction.followup.send("too late"))

        @tree.command(description="DM a player")
        async def dm(interaction: discord.Interaction, user: discord.User) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                await user.send("your turn")
                outcome = "sent"
            except discord.Forbidden as exc:
                bot.errors.append(exc)
                outcome = f"forbidden {exc.code}"
            except discord.DiscordServerError as exc:
                bot.errors.append(exc)
                outcome = f"server error {exc.status}"
            await interaction.followup.send(outcome, ephemeral=True)

        @tree.command(description="Post in the channel")
        async def post(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            await interaction.channel.send(text)
            await interaction.followup.send("posted", ephemeral=True)
