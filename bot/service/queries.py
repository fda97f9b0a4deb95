"""The service's read side: what the features look up to show, and the bookkeeping they note
(the newest table post, a person's locale and DM reachability, a server's language), with no
rule to apply.  Who may act on a game, and when, is ``GameService``'s (bot/service/game.py);
this only reads and notes.  ``GameService.queries`` is one; nothing here imports discord."""

from __future__ import annotations

from bot.service import schedule
from bot.service.schedule import TurnClock
from bot.store import GameRecord, MoveRecord, Status, Store
from bot.store.changes import Changes
from engine import Game


class Queries:
    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def changes(self) -> Changes:
        """Told after each committed change to a game (the web board's live updates)."""
        return self.store.changes

    @property
    def postgres_url(self) -> str | None:
        """The PostgreSQL database the games are in (None: a SQLite file, one process)."""
        url = getattr(self.store.db, "url", None)
        return url if isinstance(url, str) and url.startswith(("postgres://", "postgresql://")) else None

    async def game(self, game_id: int) -> tuple[GameRecord, Game]:
        return await self.store.games.load_game(game_id)

    async def parent_channel(self, game_id: int) -> int | None:
        return await self.store.lobby.opened_in(game_id)

    async def record(self, game_id: int) -> GameRecord:
        return await self.store.games.get_game(game_id)

    async def game_at(self, game_id: int, version: int) -> Game:
        """The game as it was at ``version`` (what an outbox post shows)."""
        return await self.store.games.game_at(game_id, version)

    async def games_in_play(self) -> list[GameRecord]:
        return await self.store.games.list_games((Status.ACTIVE,))

    async def games_waiting_on(self, user_id: int) -> list[GameRecord]:
        return await self.store.games.games_waiting_on(user_id)

    async def turn_clock(self, game_id: int) -> TurnClock | None:
        return await schedule.turn_clock(self.store, game_id)

    async def table_post(self, game_id: int) -> tuple[int, int] | None:
        return await self.store.posts.table_post(game_id)

    async def remember_table_post(self, game_id: int, message_id: int, version: int) -> None:
        await self.store.posts.set_table_post(game_id, message_id, version)

    async def dm_status(self, user_id: int) -> tuple[bool, float] | None:
        return await self.store.people.dm_status(user_id)

    async def set_dm_status(self, user_id: int, reachable: bool) -> None:
        await self.store.people.set_dm_status(user_id, reachable)

    async def set_dm_reachable(self, user_id: int, reachable: bool) -> int:
        return await self.store.people.set_dm_reachable(user_id, reachable)

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (lobby or in play), or None: no refusal (autocomplete)."""
        return await self.store.games.active_game_for_channel(channel_id)

    async def open_games_of(self, user_id: int) -> list[GameRecord]:
        return await self.store.games.open_games_of(user_id)

    async def last_moves(self, game_id: int, n: int) -> list[MoveRecord]:
        return await self.store.games.last_moves(game_id, n)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self.store.people.set_guild_language(guild_id, language)

    async def guild_language(self, guild_id: int) -> str | None:
        """The language chosen for the server's posts (None: not chosen)."""
        return await self.store.people.guild_language(guild_id)

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        """The user's Discord locale as last seen (their DMs follow it)."""
        await self.store.people.set_user_locale(user_id, locale)

    async def user_locale(self, user_id: int) -> str | None:
        return await self.store.people.user_locale(user_id)
