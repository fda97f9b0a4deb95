"""The bot's game service: translates player requests into store and engine calls.

Nothing here knows about discord.py: methods take plain ids and texts and return records,
games and outcomes, or raise ``Refused`` with why not, as facts (``bot.service.refusals``:
the Discord side chooses the words the player sees).  Every rule decision comes from the
engine; every change goes through the store in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.pictures.styles import DEFAULT_STYLE, STYLES
from bot.service import schedule
from bot.service.gate import Actor, Entry, Roles, kind_of, refusal
from bot.service.queries import Queries
from bot.service.refusals import Refusal, Refused, StaleChoice
from bot.service.schedule import CHANNEL_NOTE, NUDGE, REMINDER, turn_timers
from bot.service.voters import carried
from bot.store import (
    CannotWrite,
    ChannelBusy,
    CorruptGame,
    GameNotFound,
    GameRecord,
    GameStateError,
    ReminderPrefs,
    SeatError,
    SeatRecord,
    StaleGame,
    Status,
    Store,
    TableFull,
    TimerSpec,
    TooManyGames,
    TooSoon,
)
from bot.store.jobs import JobsRoom
from bot.store.outbox import Queued
from bot.store.timers import TimersRoom
from bot.words.seats import computer_name, taken_over_name
from bot.words.texts import COLOUR_NAMES
from engine import Game, GameOptions, IllegalMove, MoveSyntaxError, Played, Step, TurnRecord, parse_move
from engine.moves import Move, Remove, Skip, Undo
from engine.players import LEVELS
from engine.record import record_from_json, record_to_json

log = logging.getLogger(__name__)
MAX_TEXT_CHOICES = 25
MAX_ID = 2**63 - 1  # SQLite's integers (and Discord's snowflakes) fit in a signed 64-bit integer


class TableSettings(BaseModel):
    """Settings of a table that are the bot's business, not the rules' (stored with the game)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    max_players: int = Field(default=4, ge=2, le=4)
    turn_hours: int = Field(default=72, ge=1, le=24 * 14)
    reminder_hours: int = Field(default=12, ge=1, le=24 * 7)
    computer_level: str = "greedy"  # who takes over an away player's seat


def level_of(ai_level: int | None) -> str:
    """The engine's level name of a stored ``ai_level`` (unknown or missing: greedy)."""
    return LEVELS[ai_level] if ai_level is not None and 0 <= ai_level < len(LEVELS) else "greedy"


@dataclass(frozen=True)
class Limits:
    """Per-member and per-channel limits on opening games (``Settings`` sets them)."""

    max_open_games: int = 10  # lobbies and games in play a member may have at once
    lobby_cooldown: float = 30.0  # seconds between two lobbies opened in one channel


@dataclass
class MoveOutcome:
    record: GameRecord
    game: Game
    move: Move
    seat: int  # who moved
    turn_ended: bool
    finished: bool
    turn: TurnRecord | None = None  # the finished turn's record (when turn_ended)
    powers_to: str | None = None  # who now holds the creator's powers, when this move passed them on
    # Outbox rows this move queued (bot/jobs/outbox.py): the turn's channel post, which the
    # interaction may deliver itself (``Outbox.claim``), and the next player's turn-start DM.
    turn_post: int | None = None
    turn_dm: int | None = None

    def post(self, headline: str | None = None) -> TurnPost:
        """The channel post of the turn this move ended."""
        turn = self.turn if self.turn is not None else TurnRecord(self.seat, self.game.state.turn)
        # The powers are said to pass with a table move's headline (votes, admins).
        powers_to = self.powers_to if headline else None
        return TurnPost(self.record, self.game, self.seat, turn, self.finished, headline, powers_to)


@dataclass(frozen=True, slots=True)
class TurnPost:
    """A finished turn's channel post as data: from the move that ended it (``MoveOutcome.post``)
    or from its outbox row (``from_payload``: the fields stored as they were).  ``turn`` is the
    engine's record of the turn, which the post tells in words."""

    record: GameRecord
    game: Game
    seat: int  # who moved (a table move: the seat it was about)
    turn: TurnRecord
    finished: bool
    headline: str | None = None  # said in place of the usual first line (votes, admins)
    powers_to: str | None = None  # who holds the creator's powers now, when this turn passed them on

    def payload(self) -> dict[str, object]:
        """What the outbox keeps of it (the game and record are the row's version)."""
        return {
            "seat": self.seat,
            "turn": record_to_json(self.turn),
            "finished": self.finished,
            "headline": self.headline,
            "powers_to": self.powers_to,
        }

    @classmethod
    def from_payload(cls, record: GameRecord, game: Game, payload: dict[str, Any]) -> TurnPost:
        seat = int(payload["seat"])
        stored = payload.get("turn")
        if isinstance(stored, dict):
            turn = record_from_json(stored)
        else:  # queued before posts kept the record: the game at the row's version has it
            turn = game.state.last_turn or TurnRecord(seat, game.state.turn)
        finished, headline, powers_to = bool(payload["finished"]), payload.get("headline"), payload.get("powers_to")
        return cls(record, game, seat, turn, finished, headline, powers_to)


def in_play(record: GameRecord, game: Game) -> bool:
    """Whether the game is being played: started, neither over nor cancelled."""
    return record.status == Status.ACTIVE and not game.is_over


def at_turn(record: GameRecord, game: Game, turn: object) -> bool:
    """Whether the game is in play at ``turn`` still (what a timer or a DM was about)."""
    return in_play(record, game) and game.state.turn == turn


def parse(text: str) -> Move:
    """A move typed or chosen at the edge (a command, autocomplete, a panel item), parsed once;
    Refused (nothing changes) says what was wrong with the text."""
    try:
        return parse_move(text)
    except MoveSyntaxError as e:
        raise Refused(Refusal.NOT_A_MOVE, text=text.strip()[:100], reason=e) from None


def refused(move: Move, error: IllegalMove, game: Game) -> Refused:
    """Why the engine refused ``move`` in ``game``, and what is allowed instead."""
    if isinstance(move, Undo):
        return Refused(Refusal.NOTHING_TO_UNDO)
    if isinstance(move, Skip | Remove):
        return Refused(Refusal.CANNOT_BE_DONE, move=str(move), reason=error)
    legal = tuple(str(m) for m in game.legal_moves())
    return Refused(Refusal.ILLEGAL, move=str(move), reason=error, legal=legal)


class Access(enum.Enum):
    """What a button's clicker needs of its game (``GameService.for_interaction``)."""

    LOOK = "look"  # anyone where the game is (or a player in a DM)
    SEAT = "seat"  # a player of the game
    SEAT_IN_PLAY = "seat in play"  # a player of a game in play
    PANEL = "panel"  # a player of a game in play, not over: the turn panel


@dataclasses.dataclass(frozen=True, slots=True)
class Loaded:
    record: GameRecord
    game: Game
    seat: SeatRecord | None  # the clicker's seat (None: not a player; never with need > LOOK)


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: random.Random | None = None,
        limits: Limits | None = None,
        outbox: bool = True,
    ) -> None:
        self.store = store
        self.clock = clock
        self._seeds = seed_source or random.SystemRandom()
        self.limits = limits or Limits()
        self._locks: dict[int, asyncio.Lock] = {}
        self._lock_users: dict[int, int] = {}  # game id -> tasks holding or waiting for its lock
        self.outbox = outbox  # queue turn posts and turn-start DMs in the move's transaction
        self.queries = Queries(store)  # the read side: look-ups and bookkeeping, no rules

    def forget(self, game_id: int) -> None:
        """Frees what this process keeps for a game that ended or was cancelled."""
        if not self._lock_users.get(game_id):
            self._locks.pop(game_id, None)

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: int) -> AsyncIterator[None]:
        """Holds the game's lock; the lock exists only while somebody holds or waits for it,
        so a thousand games played or cancelled leave no lock behind."""
        self._lock_users[game_id] = self._lock_users.get(game_id, 0) + 1
        try:
            async with self._lock(game_id):
                yield
        finally:
            self._lock_users[game_id] -= 1
            if not self._lock_users[game_id]:
                del self._lock_users[game_id]
                self._locks.pop(game_id, None)

    # --- finding games ---------------------------------------------------------------------

    async def channel_record(self, channel_id: int) -> GameRecord:
        record = await self.store.games.active_game_for_channel(channel_id)
        if record is None:
            # Games opened here may live in threads of their own: say where.
            threads = await self.store.games.open_games_opened_in(channel_id)
            if threads:
                raise Refused(Refusal.NO_GAME_HERE_BUT_THREADS, threads=tuple(thread for _game, thread in threads))
            raise Refused(Refusal.NO_GAME)
        return record

    async def channel_game(self, channel_id: int) -> tuple[GameRecord, Game]:
        record = await self.channel_record(channel_id)
        if record.status != Status.ACTIVE:
            raise Refused(Refusal.NOT_STARTED, count=len(record.seats))
        return await self.store.games.load_game(record.id)

    async def game_for_interaction(
        self, game_id: int, channel_id: int | None, user_id: int, *, in_dm: bool
    ) -> tuple[GameRecord, Game]:
        """The game a button or select names, checked against where it was clicked: the game's
        own channel, or the DM of one of its players.  A forged or stale custom_id naming
        another channel's game (or an id no game can have) is refused."""
        if not 0 < game_id <= MAX_ID:
            raise Refused(Refusal.NO_SUCH_GAME)
        record, game = await self.store.games.load_game(game_id)
        if record.channel_id != channel_id and not (in_dm and record.seat_of(user_id) is not None):
            raise Refused(Refusal.WRONG_CHANNEL, game=game_id)
        return record, game

    async def for_interaction(
        self, game_id: int, channel_id: int | None, user_id: int, *, in_dm: bool, need: Access = Access.LOOK
    ) -> Loaded:
        """The one load-and-guard of every button, select and panel: the game, checked against
        where it was clicked (``game_for_interaction``) and against what the clicker asks
        (``need``).  Raises Refused saying why not (a game gone or damaged included)."""
        try:
            record, game = await self.game_for_interaction(game_id, channel_id, user_id, in_dm=in_dm)
        except GameNotFound:
            raise Refused(Refusal.GAME_GONE) from None
        except CorruptGame as e:
            log.error("game %s is corrupt: %s", game_id, e.reason)
            raise Refused(Refusal.GAME_DAMAGED) from None
        seat = record.seat_of(user_id)
        if need is Access.LOOK:
            return Loaded(record, game, seat)
        if need is Access.PANEL:
            if record.status == Status.CANCELLED:
                raise Refused(Refusal.CANCELLED, game=record.id)
            if record.status != Status.ACTIVE or game.is_over:
                raise Refused(Refusal.PANEL_GAME_OVER)
        if seat is None:
            raise Refused(Refusal.NOT_IN_THIS_GAME)
        if need is Access.SEAT_IN_PLAY and record.status != Status.ACTIVE:
            raise Refused(Refusal.NOT_IN_PLAY_ANY_MORE)
        return Loaded(record, game, seat)

    # --- statistics: a server's, or in a DM only the caller's own --------------------------------

    async def player_stats(self, guild_id: int | None, caller_id: int, user_id: int):
        """``user_id``'s statistics on this server.  Outside a server (a DM) games of different
        people share no table, so only the caller's own results are shown, without a place."""
        if guild_id is None and user_id != caller_id:
            raise Refused(Refusal.STATS_DM_OWN_ONLY)
        stats = await self.store.stats.player_stats(guild_id, user_id)
        if stats is not None and guild_id is None:
            stats = dataclasses.replace(stats, place=None)
        return stats

    async def leaderboard(self, guild_id: int | None, limit: int):
        if guild_id is None:
            raise Refused(Refusal.LEADERBOARD_IN_DM)
        return await self.store.stats.leaderboard(guild_id, limit)

    @staticmethod
    def names(record: GameRecord) -> list[str]:
        return [s.display_name for s in record.seats]

    @staticmethod
    def seat_of(record: GameRecord, user_id: int) -> int:
        seat = record.seat_of(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_PLAYING)
        return seat.seat

    # --- who holds the table's powers --------------------------------------------------------

    @staticmethod
    def powers_holder(record: GameRecord, game: Game | None = None) -> SeatRecord | None:
        """The seated person who holds the creator's powers (start, skip, kick, cancel): the
        creator while they sit at the table; once they left (removed, or their seat handed to
        a computer), the next person still seated after them, in seat order."""

        def playing(seat: SeatRecord) -> bool:
            return seat.user_id is not None and not (game is not None and game.state.players[seat.seat].removed)

        seats = list(record.seats)
        creator = record.seat_of(record.creator_id)
        if creator is not None and playing(creator):
            return creator
        start = creator.seat + 1 if creator is not None else 0
        for step in range(len(seats)):
            seat = seats[(start + step) % len(seats)] if seats else None
            if seat is not None and playing(seat):
                return seat
        return None

    def may_run_table(self, record: GameRecord, game: Game | None, user_id: int, can_manage: bool) -> bool:
        """Members with Manage Channels, and the seated holder of the creator's powers."""
        if can_manage:
            return True
        holder = self.powers_holder(record, game)
        return holder is not None and holder.user_id == user_id

    # --- lobby -------------------------------------------------------------------------------

    async def new(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        options: GameOptions,
        settings: TableSettings,
        computers: int = 0,
        level: str = "greedy",
        lang: str,
        cooldown: bool = True,
        solo_check: bool = True,
        parent_id: int | None = None,
    ) -> GameRecord:
        """A lobby with its creator seated, and ``computers`` computer players of ``level``.
        ``cooldown``: whether the channel's cooldown between lobbies applies (not to a rematch).
        ``parent_id``: the channel whose thread ``channel_id`` is (its cooldown applies)."""
        if computers >= settings.max_players:
            raise Refused(
                Refusal.COMPUTERS_LEAVE_NO_SEAT,
                computers=computers,
                count=computers,
                max=settings.max_players,
                most=settings.max_players - 1,
            )
        if level not in LEVELS:
            raise Refused(Refusal.BAD_LEVEL, level=level[:20], levels=LEVELS)
        if solo_check and guild_id is None and computers != settings.max_players - 1:
            # Nobody can join a lobby in a DM: only a full table of computer players.
            most = settings.max_players
            raise Refused(Refusal.DM_SOLO_ONLY, players=most, computers=most - 1)
        limits = self.limits
        try:  # the member's cap and the channel's cooldown are checked in the lobby's own transaction
            record = await self.store.lobby.create_lobby(
                guild_id, channel_id, user_id, options, settings.model_dump_json(), opened_in=parent_id,
                max_open=limits.max_open_games, cooldown=limits.lobby_cooldown if cooldown else 0.0,
            )  # fmt: skip
        except TooManyGames as e:
            raise Refused(Refusal.TOO_MANY_GAMES, max=e.most, count=e.count) from None
        except TooSoon as e:
            raise Refused(Refusal.COOLDOWN, seconds=max(1, round(e.wait))) from None
        except ChannelBusy:
            existing = await self.store.games.active_game_for_channel(channel_id)
            busy = Refusal.BUSY_LOBBY if existing and existing.status == Status.LOBBY else Refusal.BUSY_PLAY
            raise Refused(busy) from None
        await self.store.lobby.join_seat(record.id, user_id, name, colour=COLOUR_NAMES[0])
        if computers:
            return await self.add_computers(record.id, computers, level, lang)
        return await self.store.games.get_game(record.id)

    async def move_lobby(self, game_id: int, channel_id: int) -> GameRecord:
        """Moves a lobby into the thread opened for it (``/cubist lobby new`` with a thread)."""
        return await self.store.lobby.move_lobby(game_id, channel_id)

    async def rehome(self, game_id: int, lost: int, to: int | None = None) -> tuple[GameRecord, bool] | None:
        """A game whose channel ``lost`` takes no more posts goes on in ``to`` (by default the
        channel it was opened in): the record where it lives now and whether this call moved
        it, or None when it has nowhere to go.  Refused when ``to`` holds an open game."""
        try:
            return await self.store.lobby.rehome(game_id, lost, to)
        except ChannelBusy:
            raise Refused(Refusal.BUSY_PLAY) from None

    async def add_computers(self, game_id: int, count: int, level: str, lang: str) -> GameRecord:
        """Seats ``count`` computer players of ``level`` in a lobby (named in ``lang``)."""
        record = await self.store.games.get_game(game_id)
        for _ in range(count):
            number = sum(s.is_computer for s in record.seats) + 1
            await self.store.lobby.join_seat(
                game_id, None, computer_name(level, number, lang), colours=COLOUR_NAMES, is_computer=True,
                ai_level=LEVELS.index(level), max_seats=self.table_settings(record).max_players,
            )  # fmt: skip
            record = await self.store.games.get_game(game_id)
        return record

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        record = await self.channel_record(channel_id)
        if record.status != Status.LOBBY:
            raise Refused(Refusal.ALREADY_STARTED_WATCH)
        if record.seat_of(user_id) is not None:
            raise Refused(Refusal.ALREADY_JOINED)
        settings = self.table_settings(record)
        if len(record.seats) >= settings.max_players:
            raise Refused(Refusal.FULL, max=settings.max_players)
        try:  # the seat, its colour and the table's size are checked in one transaction
            await self.store.lobby.join_seat(
                record.id, user_id, name, colours=COLOUR_NAMES, max_seats=settings.max_players,
                max_open=self.limits.max_open_games,
            )  # fmt: skip
        except TableFull:  # the last seat went to someone quicker
            raise Refused(Refusal.FULL, max=settings.max_players) from None
        except TooManyGames as e:
            raise Refused(Refusal.TOO_MANY_GAMES, max=e.most, count=e.count) from None
        except GameStateError:  # started or cancelled meanwhile
            now = await self.store.games.get_game(record.id)
            if now.status == Status.CANCELLED:
                raise Refused(Refusal.CANCELLED, game=record.id) from None
            raise Refused(Refusal.ALREADY_STARTED_WATCH) from None
        except SeatError as e:
            if record.seat_of(user_id) is None and (await self.store.games.get_game(record.id)).seat_of(user_id):
                raise Refused(Refusal.ALREADY_JOINED) from None  # a double click
            # The store's own words are for logs, not players (and English only).
            log.info("join refused for game %s: %s", record.id, e)
            raise Refused(Refusal.JOIN_CHANGED) from None
        return await self.store.games.get_game(record.id)

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        record = await self.channel_record(channel_id)
        if record.status != Status.LOBBY:
            raise Refused(Refusal.CANNOT_LEAVE)
        seat = record.seat_of(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_IN_LOBBY)
        if user_id == record.creator_id:
            raise Refused(Refusal.CREATOR_LEAVE)
        await self.store.lobby.leave_seat(record.id, seat.seat)
        return await self.store.games.get_game(record.id)

    async def start(
        self, channel_id: int, user_id: int, *, fill: str | None = None, lang: str
    ) -> tuple[GameRecord, Game]:
        """Starts the lobby; ``fill`` (a computer level) first seats computer players in the
        free seats."""
        record = await self.channel_record(channel_id)
        if record.status != Status.LOBBY:
            raise Refused(Refusal.ALREADY_STARTED)
        if user_id != record.creator_id:
            raise Refused(Refusal.CREATOR_STARTS)
        if fill is not None:
            if fill not in LEVELS:
                raise Refused(Refusal.BAD_LEVEL, level=fill[:20], levels=LEVELS)
            record = await self._fill(record, fill, lang)
        settings = self.table_settings(record)
        for _attempt in range(3):
            if len(record.seats) < 2:
                raise Refused(Refusal.TWO_PLAYERS)
            order = [s.seat for s in record.seats]
            self._seeds.shuffle(order)
            seed = self._seeds.randrange(1, 2**63)
            try:
                # The first turn's timers: its clock, and the player's turn-start DM.
                return await self.store.moves.start_game(
                    record.id, seed, order, timers=self._first_turn_timers(settings)
                )
            except GameStateError:  # started (a double click) or cancelled meanwhile
                now = await self.store.games.get_game(record.id)
                if now.status == Status.CANCELLED:
                    raise Refused(Refusal.CANCELLED, game=record.id) from None
                raise Refused(Refusal.ALREADY_STARTED) from None
            except SeatError:  # somebody joined or left meanwhile: seat the table as it is now
                record = await self.store.games.get_game(record.id)
        raise Refused(Refusal.STALE)

    async def _fill(self, record: GameRecord, level: str, lang: str) -> GameRecord:
        """Seats computer players of ``level`` in the lobby's free seats, as many as are free
        when each is seated: people joining meanwhile keep their seats and leave fewer to fill.
        Refused when the lobby started or was cancelled meanwhile."""
        try:
            while len(record.seats) < self.table_settings(record).max_players:
                record = await self.add_computers(record.id, 1, level, lang)
        except TableFull:  # the last free seats went to people joining: the table is full
            pass
        except GameStateError:
            now = await self.store.games.get_game(record.id)
            if now.status == Status.CANCELLED:
                raise Refused(Refusal.CANCELLED, game=record.id) from None
            raise Refused(Refusal.ALREADY_STARTED) from None
        return await self.store.games.get_game(record.id)

    async def cancel(self, channel_id: int, user_id: int, can_manage: bool) -> GameRecord:
        record = await self.channel_record(channel_id)
        game = (await self.store.games.load_game(record.id))[1] if record.status == Status.ACTIVE else None
        if not self.may_run_table(record, game, user_id, can_manage):
            raise Refused(Refusal.CANCEL_DENIED)
        async with self._locked(record.id):  # not in the middle of a move being stored
            try:
                cancelled = await self.store.moves.cancel(record.id)
            except GameStateError:
                raise Refused(Refusal.ALREADY_OVER) from None
        self.forget(record.id)
        return cancelled

    async def rematch(self, game_id: int, user_id: int, lang: str) -> tuple[GameRecord, Game]:
        old = await self.store.games.get_game(game_id)
        if old.status != Status.FINISHED:
            raise Refused(Refusal.REMATCH_NOT_FINISHED)
        _old, old_game = await self.store.games.load_game(game_id)
        removed = {i for i, p in enumerate(old_game.state.players) if p.removed}
        asker = old.seat_of(user_id)
        if asker is None or asker.seat in removed:
            raise Refused(Refusal.REMATCH_PLAYERS_ONLY)
        if len(old.seats) - len(removed) < 2:  # removed players are not seated again
            raise Refused(Refusal.REMATCH_ALONE)
        options = old.options
        record = await self.new(
            old.guild_id,
            old.channel_id,
            user_id,
            next(s.display_name for s in old.seats if s.user_id == user_id),
            options=options,
            settings=self.table_settings(old),
            lang=lang,
            cooldown=False,
            solo_check=False,  # a DM rematch seats its computer players just below
        )
        for s in old.seats:
            if s.seat in removed:  # removed players (vote, kick) are not seated again
                continue
            if s.is_computer:  # the same computer players come back
                record = await self.add_computers(record.id, 1, level_of(s.ai_level), lang)
            elif s.user_id is not None and s.user_id != user_id:
                try:  # every seated player's cap holds, checked as their seat is taken
                    await self.store.lobby.join_seat(
                        record.id, s.user_id, s.display_name, colours=COLOUR_NAMES, max_open=self.limits.max_open_games
                    )
                except TooManyGames as e:
                    await self.store.moves.cancel(record.id)  # no half-seated rematch is left behind
                    self.forget(record.id)
                    raise Refused(Refusal.REMATCH_CAP, name=s.display_name, count=e.count, max=e.most) from None
                record = await self.store.games.get_game(record.id)
        return await self.start(old.channel_id, user_id, lang=lang)

    @staticmethod
    def _not_in_play(record: GameRecord, game: Game | None) -> Refused:
        """Why a game takes no more moves, said specifically."""
        if record.status == Status.CANCELLED:
            return Refused(Refusal.CANCELLED, game=record.id)
        if record.status == Status.FINISHED or (game is not None and game.is_over):
            return Refused(Refusal.OVER)
        return Refused(Refusal.NOT_IN_PLAY)

    async def _load_in_play(self, game_id: int, turn: int | None) -> tuple[GameRecord, Game]:
        """The game, which must still be in play, and at ``turn`` when given (a vote about an
        earlier turn is void)."""
        record, game = await self.store.games.load_game(game_id)
        if record.status != Status.ACTIVE or game.is_over:
            raise self._not_in_play(record, game)
        if turn is not None and game.state.turn != turn:
            raise Refused(Refusal.VOTE_VOID)
        return record, game

    async def hand_to_computer(
        self, game_id: int, seat: int, level: str, *, turn: int | None = None, lang: str
    ) -> GameRecord:
        """A computer player of ``level`` takes over ``seat`` (after the away vote)."""
        async with self._locked(game_id):
            record, _game = await self._load_in_play(game_id, turn)
            old = record.seats[seat]
            if old.is_computer:
                raise Refused(Refusal.ALREADY_COMPUTER, name=old.display_name)
            try:
                return await self.store.lobby.hand_seat_to_computer(
                    game_id, seat, LEVELS.index(level), taken_over_name(old.display_name, lang)
                )
            except SeatError:  # another process handed the seat over first
                raise Refused(Refusal.ALREADY_COMPUTER, name=old.display_name) from None
            except GameStateError:  # the game ended or was cancelled meanwhile (another process)
                raise Refused(Refusal.TOO_LATE, turn=(turn or 0) + 1) from None

    @staticmethod
    def table_settings(record: GameRecord) -> TableSettings:
        return TableSettings.model_validate_json(record.settings or "{}")

    # --- moves ----------------------------------------------------------------------------

    def roles(
        self,
        record: GameRecord,
        game: Game,
        entry: Entry,
        user_id: int | None,
        *,
        can_manage: bool = False,
        as_seat: int | None = None,
        vote_carried: bool = False,
    ) -> Roles:
        """What the requester is in this game now, for the gate: the bot's own work (a turn
        clock, or ``as_seat`` when it is a computer seat at turn), a vote's outcome (only
        when ``vote_carried``), or a person by their seat, powers and permission."""
        actors: set[Actor] = set()
        if entry is Entry.JOB:
            if as_seat is None:
                actors.add(Actor.CLOCK)
            elif as_seat == game.current_player and record.seats[as_seat].is_computer:
                actors.add(Actor.COMPUTER)
        elif entry is Entry.VOTE:
            if vote_carried:
                actors.add(Actor.VOTE)
        elif user_id is not None:
            seat = record.seat_of(user_id)
            if seat is None or game.state.players[seat.seat].removed:
                actors.add(Actor.SPECTATOR)
            else:
                actors.add(Actor.AT_TURN if seat.seat == game.current_player else Actor.SEATED)
            if self.may_run_table(record, game, user_id, False):
                actors.add(Actor.CREATOR)
            if can_manage:
                actors.add(Actor.ADMIN)
        return Roles.of(actors)

    def check(
        self, record: GameRecord, game: Game, move: Move, entry: Entry, user_id: int | None, *, can_manage: bool = False
    ) -> None:
        """The gate for a person asking through ``entry`` (before a confirmation is offered)."""
        self.admit(record, game, move, self.roles(record, game, entry, user_id, can_manage=can_manage), entry)

    @staticmethod
    def admit(record: GameRecord, game: Game, move: Move, roles: Roles, entry: Entry) -> None:
        """The gate: Refused (nothing changes) unless ``roles`` may make ``move``'s kind of
        move through ``entry`` (``bot/service/gate.py`` holds the table)."""
        kind = kind_of(move)
        if not roles.may(kind, entry):
            playing = record.seats[game.current_player].display_name
            raise refusal(kind, roles, entry, playing=playing)

    async def play_in(
        self,
        game_id: int,
        user_id: int | None,
        move: Move,
        *,
        entry: Entry = Entry.COMMAND,
        as_seat: int | None = None,
        version: int | None = None,
    ) -> MoveOutcome:
        """Apply ``move`` (parsed at the edge: ``parse``) in game ``game_id`` for ``user_id``
        (or, for a computer seat, ``as_seat`` through ``Entry.JOB``), come through ``entry``.
        Whether they may make that kind of move from there is the gate's word (``admit``);
        whether the move is allowed, once, by the engine inside the store's
        transaction (IllegalMove: nothing written, answered with why and what is allowed).
        Serialized per game; the store's version check guards against other processes.
        ``version``: the game's version the move was chosen at (a panel's or a hint's button):
        the move is stored only if the game is still there, checked under the game's lock
        and again in the store's transaction, so one press is at most one move (a
        double-tapped Undo takes back one action); otherwise StaleChoice."""
        async with self._locked(game_id):
            record, game = await self.store.games.load_game(game_id)
            if record.status != Status.ACTIVE or game.is_over:
                raise self._not_in_play(record, game)
            if version is not None and record.version != version:
                raise StaleChoice(Refusal.STALE_CHOICE)
            self.admit(record, game, move, self.roles(record, game, entry, user_id, as_seat=as_seat), entry)
            seat = game.current_player

            def post(step: Step, new_game: Game) -> dict[str, object]:  # the outbox's turn post, if the turn ends
                turn = step.record or TurnRecord(seat, step.turn)
                return TurnPost(record, new_game, seat, turn, new_game.is_over).payload()

            record, new_game, queued, step = await self._store_move(
                record, game, move, user_id, stale=Refusal.STALE_CHOICE, queue=post, pinned=version is not None
            )
            turn_ended = step.turn_ended
            finished = new_game.is_over
            if finished and record.status == Status.ACTIVE:
                await self.store.moves.finish(game_id)
                record = await self.store.games.get_game(game_id)
            if finished:
                self.forget(game_id)
            outcome = MoveOutcome(record, new_game, move, seat, turn_ended, finished, step.record)
            outcome.turn_post, outcome.turn_dm = queued.turn_post, queued.turn_dm
            return outcome

    def _first_turn_timers(self, settings: TableSettings) -> Callable[[Game, GameRecord], list[TimerSpec]]:
        def timers(game: Game, record: GameRecord) -> list[TimerSpec]:
            now = self.clock()
            return turn_timers(
                record, game, now, reminder_hours=settings.reminder_hours, turn_hours=settings.turn_hours,
                dm_queued=False,
            )  # fmt: skip

        return timers

    async def _store_move(
        self,
        record: GameRecord,
        before: Game,
        move: Move,
        user_id: int | None,
        *,
        stale: Refusal,
        queue: Callable[[Step, Game], dict[str, object]] | None = None,
        pinned: bool = False,
    ) -> tuple[GameRecord, Game, Queued, Step]:
        """Stores a move in one transaction, if the engine allows it there; the record comes
        back from it (no second read).  ``before``: the game as loaded, for the refusal's
        list of what is allowed.  ``stale``: the message when another move got there first.  ``queue``: the
        payload of the turn's post, queued in the outbox in the same transaction when the
        move ends a turn (with the next player's turn-start DM)."""
        queue = queue if self.outbox else None
        settings = self.table_settings(record)

        def timers(game: Game, new_turn: bool) -> list[TimerSpec]:
            if not new_turn:
                return []  # moves inside a turn keep its timers
            now = self.clock()
            return turn_timers(
                record, game, now, reminder_hours=settings.reminder_hours, turn_hours=settings.turn_hours,
                dm_queued=queue is not None,
            )  # fmt: skip

        try:
            played = await self.store.moves.apply_move(
                record.id, record.version, move, user_id, timers=timers, queue=queue
            )
            assert played.record is not None
            return played.record, played.game, played.queued, played.step
        except StaleGame:  # another process moved first (``pinned``: the chooser's version is gone)
            raise (StaleChoice if pinned else Refused)(stale) from None
        except CannotWrite:
            raise Refused(Refusal.CANNOT_SAVE) from None
        except GameStateError:  # cancelled (or finished) by another process meanwhile
            record, game = await self.store.games.load_game(record.id)
            raise self._not_in_play(record, game) from None
        except IllegalMove as e:  # the engine's word, in the transaction: nothing was written
            raise refused(move, e, before) from None

    async def table_move(
        self,
        game_id: int,
        user_id: int | None,
        move: Skip | Remove,
        *,
        entry: Entry,
        turn: int | None = None,
        can_manage: bool = False,
        headline: str | None = None,
        sent_at: float | None = None,
    ) -> MoveOutcome:
        """Apply a table move (``skip`` or ``remove pN``), decided by a vote (``Entry.VOTE``:
        the votes stored for the turn in play must carry it) or an admin (``Entry.ADMIN``:
        a Manage Channels member, ``can_manage``, or the seated holder of the creator's
        powers, checked on the game as it is now); the gate (``admit``) has the last word on
        who, the engine on whether it can be done.  ``turn``, when given, must still be the
        turn in play (a vote, a skip or a kick about an earlier turn is refused).
        ``sent_at`` (wall-clock seconds, Discord's timestamp of the admin's command): refused
        if the turn in play began after that (the player moved first and the next turn is
        not what was meant)."""
        async with self._locked(game_id):
            try:
                record, game = await self._load_in_play(game_id, turn)
            except Refused as e:
                if entry is Entry.ADMIN and e.refusal is Refusal.VOTE_VOID:
                    raise Refused(Refusal.TURN_OVER, turn=(turn or 0) + 1) from None
                raise
            vote_carried = False
            if entry is Entry.VOTE:  # a vote is about the player at turn, counted as stored now
                about_away = not isinstance(move, Remove) or move.seat == game.current_player
                stored = await self.store.votes_room.votes(game_id, game.state.turn)
                vote_carried = about_away and carried(record, game, stored, kind_of(move).value)
            roles = self.roles(record, game, entry, user_id, can_manage=can_manage, vote_carried=vote_carried)
            self.admit(record, game, move, roles, entry)
            if sent_at is not None:
                clock = await self.queries.turn_clock(game_id)
                began = clock.began if clock is not None and clock.turn == game.state.turn else None
                if began is not None and began > sent_at:
                    raise Refused(Refusal.TURN_OVER, turn=game.state.turn)
            holder = self.powers_holder(record, game)
            seat = game.current_player
            acted = move.seat if isinstance(move, Remove) else seat

            def table_turn(step: Step) -> TurnRecord:
                if step.record is not None and step.record.plays:
                    return step.record
                return TurnRecord(acted, step.turn, (), (step.played or Played(move),))

            def post(step: Step, new_game: Game) -> dict[str, object]:
                after = self.powers_holder(record, new_game)
                passed = after is not None and holder is not None and after.seat != holder.seat
                powers_to = after.display_name if headline and passed and after and not new_game.is_over else None
                turn = table_turn(step)
                return TurnPost(record, new_game, acted, turn, new_game.is_over, headline, powers_to).payload()

            record, new_game, queued, step = await self._store_move(
                record, game, move, user_id, stale=Refusal.STALE, queue=post
            )
            outcome = MoveOutcome(record, new_game, move, acted, step.turn_ended, new_game.is_over, table_turn(step))
            outcome.turn_post, outcome.turn_dm = queued.turn_post, queued.turn_dm
            after = self.powers_holder(record, new_game)
            if not new_game.is_over and after is not None and holder is not None and after.seat != holder.seat:
                outcome.powers_to = after.display_name
            if new_game.is_over:
                self.forget(game_id)
            return outcome

    def choices(self, game: Game, record: GameRecord, user_id: int, typed: str) -> list[str]:
        """Legal move texts for autocomplete: the current player's only, filtered by what
        was typed (prefix first, then anywhere), at most 25."""
        seat = record.seat_of(user_id)
        if seat is None or game.is_over or seat.seat != game.current_player:
            return []
        typed = " ".join(typed.lower().split())
        texts = [str(m) for m in game.legal_moves()]
        if not typed:
            return texts[:MAX_TEXT_CHOICES]
        first = [t for t in texts if t.startswith(typed)]
        rest = [t for t in texts if typed in t and not t.startswith(typed)]
        return (first + rest)[:MAX_TEXT_CHOICES]

    # --- the bot's background work: timers, the outbox, reminders and away votes ------------------
    # bot/jobs, bot/jobs/outbox.py, bot/turn/reminders.py, bot/table/away.py and bot/turn/computer.py reach the
    # store only through these.

    @property
    def jobs(self) -> JobsRoom:
        """Every job's claim, finish and failure (the poller, the interaction ending a turn)."""
        return self.store.jobs

    @property
    def timers(self) -> TimersRoom:
        """The game's standing jobs by slot (an away player's seat taken over)."""
        return self.store.timers

    async def end_turn_clock(self, game_id: int, turn: int) -> bool:
        """Ends the clock of ``turn`` now (its player is known to be gone)."""
        return await schedule.expire(self.store, game_id, turn, self.clock())

    async def cast_vote(self, game_id: int, turn: int, voter_seat: int, choice: str) -> dict[str, int]:
        """Records a vote on the away player of ``turn``; Refused when that turn ended (or
        the game did) between the click and the vote's transaction."""
        try:
            return await self.store.votes_room.cast_vote(game_id, turn, voter_seat, choice)
        except GameStateError:
            raise Refused(Refusal.TOO_LATE, turn=turn + 1) from None

    async def set_reminders(
        self, game_id: int, user_id: int, *, snoozed_until: float | None = None, enabled: bool | None = None
    ) -> SeatRecord | None:
        """Snoozes (``snoozed_until``) or switches the reminders of the user's seat in an open
        game; None when they have no seat there (or the game is over).  A snooze of the player
        in turn also moves their next reminder to its end."""
        record = await self.store.games.get_game(game_id)
        seat = record.seat_of(user_id)
        if seat is None or record.status not in ((Status.ACTIVE,) if snoozed_until else (Status.ACTIVE, Status.LOBBY)):
            return None
        prefs = seat.prefs
        if snoozed_until is not None:
            prefs = dataclasses.replace(prefs, snoozed_until=snoozed_until)
        if enabled is not None:
            prefs = dataclasses.replace(prefs, enabled=enabled)
        seat = await self.store.people.set_seat_preferences(game_id, seat.seat, prefs)
        if snoozed_until is not None and record.current_seat == seat.seat:
            await self.store.timers.reschedule(game_id, NUDGE, snoozed_until, (REMINDER, CHANNEL_NOTE))
        return seat

    # --- what the /cubist commands read and write (bot/*/commands.py reaches the store only here) ---

    async def change_reminders(
        self, user_id: int, changes: dict[str, object]
    ) -> tuple[list[GameRecord], ReminderPrefs]:
        """Applies ``changes`` to the user's reminder settings in every open game of theirs;
        returns those games and the settings now in force (the last game's)."""
        records = await self.store.games.open_games_of(user_id)
        if not records:
            raise Refused(Refusal.NO_OPEN_GAME)
        prefs: ReminderPrefs | None = None
        for record in records:
            seat = record.seat_of(user_id)
            assert seat is not None
            prefs = dataclasses.replace(seat.prefs, **changes)  # type: ignore[arg-type]
            await self.store.people.set_seat_preferences(record.id, seat.seat, prefs)
        assert prefs is not None
        return records, prefs

    async def games_waiting_with_posts(self, user_id: int, links: int = 20) -> list[tuple[GameRecord, int | None]]:
        """Games where it is the user's turn, each with its newest table post's message id
        (looked up for the first ``links`` games only, None for the rest)."""
        records = await self.store.games.games_waiting_on(user_id)
        found: list[tuple[GameRecord, int | None]] = []
        for i, record in enumerate(records):
            post = await self.store.posts.table_post(record.id) if i < links else None
            found.append((record, post[0] if post else None))
        return found

    async def picture_style(self, user_id: int) -> str:
        """How the pictures only this person sees are drawn: one of ``STYLES``, the high camera by default."""
        chosen = await self.store.people.picture_style(user_id)
        return chosen if chosen in STYLES else DEFAULT_STYLE

    async def set_picture_style(self, user_id: int, style: str) -> None:
        if style not in STYLES:
            raise Refused(Refusal.BAD_PICTURES, style=style[:20])
        await self.store.people.set_picture_style(user_id, style)
