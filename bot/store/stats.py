"""Statistics of finished games and per-server ratings (tables of migration 0004).

``record_finished`` runs inside the transaction that finishes a game, right after its
``results`` rows are written, so a game's statistics and rating changes commit with it or
not at all.  The read functions are whole queries for ``Store``'s read transactions.
Every function takes a ``Tx`` and does no I/O of its own; ``StatsRoom`` runs the readers.

Ratings are per server (``guild_id``; 0 for games outside a server) and per rating identity:
``user:<id>`` for a person, ``ai:<level>`` for each computer level (so "strong" has one
rating however many games it plays).  The maths is ``bot.store.rating`` (OpenSkill): ``ratings.rating``
is the number shown (the estimate mu) and ``ratings.sigma`` its uncertainty; a row whose
sigma is NULL holds an Elo rating from before migration 0012, which its next rated game
carries over (``rating.carried``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import rating
from bot.store.connection import Row, Tx
from bot.store.records import ResultRecord
from bot.store.room import Room
from engine import ArtistKind, Game
from engine.players import LEVELS
from engine.timeline import timeline

NO_GUILD = 0  # the ratings key of games outside a server (guild_id NULL)


@dataclass(frozen=True, slots=True)
class BestInstallation:
    card: int
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's record on one server, over its finished games."""

    user_id: int
    games: int
    wins: int
    total_score: int
    best_score: int
    museum_dice: int  # dice given to the museum, all games together
    best_installation: BestInstallation | None
    favourite_artist: ArtistKind | None
    favourite_uses: int
    rating: float | None  # None: no rated game yet (games finished before ratings existed)
    place: int | None  # on the server's leaderboard (1 = top)

    @property
    def average_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One row of a server's leaderboard."""

    place: int
    player_key: str
    user_id: int | None  # None for a computer level
    display_name: str  # a person's latest name at a table, or the computer's level name
    rating: float
    games: int
    wins: int

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class RatingChange:
    game_id: int
    seat: int
    player_key: str
    before: float
    delta: float
    sigma_before: float | None = None  # None: a game rated by Elo, before migration 0012
    sigma_after: float | None = None

    @property
    def after(self) -> float:
        return self.before + self.delta


def level_name(ai_level: int | None) -> str:
    """The engine's name of a stored computer level (as ``bot.service.game.level_of``)."""
    return LEVELS[ai_level] if ai_level is not None and 0 <= ai_level < len(LEVELS) else "greedy"


def player_key(user_id: int | None, ai_level: int | None = None) -> str:
    return f"user:{user_id}" if user_id is not None else f"ai:{level_name(ai_level)}"


def guild_key(guild_id: int | None) -> int:
    return NO_GUILD if guild_id is None else guild_id


# --- writing, at finish time ----------------------------------------------------------------


def best_installation(game: Game, seat: int) -> BestInstallation | None:
    """The seat's completed installation worth most points (the first such on a tie)."""
    best: BestInstallation | None = None
    for done in game.state.players[seat].completed:
        plan = game.deck.installation(done.card)
        if best is None or plan.points > best.points:
            best = BestInstallation(done.card, plan.name, plan.points)
    return best


def is_rated(game: Game) -> bool:
    """The ratings policy (docs/playing.md "Ratings"): a finished game moves ratings only when it
    reached its own end (the museum complete or five installations) with at least two players
    still at the table, after at least one full round (every seat had a turn).  A game ended
    by removing players (a kick, a vote) down to one is not rated, nor a cancelled one (it
    never finishes)."""
    if len(game.active_players()) < 2:
        return False
    turns_played = game.state.turn + 1  # the last turn ends the game without counting up
    return turns_played >= game.num_players


async def record_finished(tx: Tx, game_id: int, game: Game, results: Sequence[ResultRecord]) -> None:
    """Writes the per-seat statistics of a finished game and updates its server's ratings.
    Idempotent: writing again replaces the statistics and never rates a game twice."""
    row = await tx.one("SELECT guild_id, finished_at, updated_at FROM games WHERE id = ?", (game_id,))
    seats = {s["seat"]: s for s in await tx.all("SELECT * FROM seats WHERE game_id = ?", (game_id,))}
    keys = {i: player_key(s["user_id"], s["ai_level"]) for i, s in seats.items()}
    story = timeline(game)  # one replay of the log, a few ms even for a long game
    await tx.execute("DELETE FROM seat_stats WHERE game_id = ?", (game_id,))
    await tx.execute("DELETE FROM artist_uses WHERE game_id = ?", (game_id,))
    for seat in range(game.num_players):
        best = best_installation(game, seat)
        await tx.execute(
            "INSERT INTO seat_stats (game_id, seat, player_key, installations, best_card, best_name, best_points)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id, seat, keys[seat], len(game.state.players[seat].completed),
                best and best.card, best and best.name, best and best.points,
            ),
        )  # fmt: skip
        await tx.executemany(
            "INSERT INTO artist_uses (game_id, seat, artist, uses) VALUES (?, ?, ?, ?)",
            [(game_id, seat, str(kind), n) for kind, n in sorted(story.artist_uses[seat].items())],
        )
    rated_already = await tx.one("SELECT 1 FROM rating_changes WHERE game_id = ? LIMIT 1", (game_id,))
    if rated_already is None and is_rated(game):
        now = row["finished_at"] or row["updated_at"]
        names = {i: _rating_name(s) for i, s in seats.items()}
        await _rate(tx, game_id, guild_key(row["guild_id"]), results, keys, names, now)


def _rating_name(seat: Row) -> str:
    return str(seat["display_name"]) if seat["user_id"] is not None else level_name(seat["ai_level"])


async def _rate(
    tx: Tx,
    game_id: int,
    guild: int,
    results: Sequence[ResultRecord],
    keys: dict[int, str],
    names: dict[int, str],
    now: float,
) -> None:
    ordered = sorted(results, key=lambda r: r.seat)
    seat_keys = [keys[r.seat] for r in ordered]
    current: dict[str, rating.Skill] = {}
    for key in seat_keys:
        got = await tx.one(
            "SELECT rating, sigma, games FROM ratings WHERE guild_id = ? AND player_key = ?", (guild, key)
        )
        current[key] = _skill(got)
    before = [current[k] for k in seat_keys]
    after = rating.rate(before, [r.rank for r in ordered], seat_keys)
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, seat, guild_id, player_key, rating_before, delta, sigma_before,"
        " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, r.seat, guild, k, b.rating, a.rating - b.rating, b.sigma, a.sigma)
            for r, k, b, a in zip(ordered, seat_keys, before, after, strict=True)
        ],
    )
    seats_after: dict[str, list[rating.Skill]] = defaultdict(list)
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    name: dict[str, str] = {}
    user: dict[str, int | None] = {}
    for r, key, a in zip(ordered, seat_keys, after, strict=True):
        seats_after[key].append(a)  # two seats of one computer level: both of their changes count
        games[key] += 1
        wins[key] += int(r.winner)
        name[key] = names[r.seat]
        user[key] = r.user_id
    new = {k: rating.merged(current[k], seats_after[k]) for k in games}
    await tx.executemany(
        "INSERT INTO ratings (guild_id, player_key, user_id, display_name, rating, sigma, games, wins, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_key) DO UPDATE SET"
        " display_name = excluded.display_name, rating = excluded.rating, sigma = excluded.sigma,"
        " games = ratings.games + excluded.games, wins = ratings.wins + excluded.wins,"
        " updated_at = excluded.updated_at",
        [(guild, k, user[k], name[k], new[k].rating, new[k].sigma, games[k], wins[k], now) for k in games],
    )


def _skill(row: Row | None) -> rating.Skill:
    """A stored rating as a belief: a newcomer's, OpenSkill's own, or an Elo rating carried over."""
    if row is None:
        return rating.NEWCOMER
    if row["sigma"] is None:
        return rating.carried(float(row["rating"]), int(row["games"]))
    return rating.Skill(float(row["rating"]), float(row["sigma"]))


# --- reading --------------------------------------------------------------------------------

_MINE = "r.user_id = ? AND g.guild_id IS NOT DISTINCT FROM ? AND g.status = 'finished'"


async def player_stats(tx: Tx, guild_id: int | None, user_id: int) -> PlayerStats | None:
    """A person's statistics on a server (None: no finished game there)."""
    params = (user_id, guild_id)
    totals = await tx.one(
        "SELECT count(*) AS games, coalesce(sum(r.winner), 0) AS wins, coalesce(sum(r.score), 0) AS total,"
        " coalesce(max(r.score), 0) AS best, coalesce(sum(r.museum_dice), 0) AS museum"
        f" FROM results r JOIN games g ON g.id = r.game_id WHERE {_MINE}",
        params,
    )
    if not totals["games"]:
        return None
    best = await tx.one(
        "SELECT s.best_card, s.best_name, s.best_points FROM seat_stats s"
        " JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat JOIN games g ON g.id = s.game_id"
        f" WHERE {_MINE} AND s.best_card IS NOT NULL ORDER BY s.best_points DESC, g.finished_at DESC LIMIT 1",
        params,
    )
    fav = await tx.one(
        "SELECT a.artist, sum(a.uses) AS n FROM artist_uses a"
        " JOIN results r ON r.game_id = a.game_id AND r.seat = a.seat JOIN games g ON g.id = a.game_id"
        f" WHERE {_MINE} GROUP BY a.artist ORDER BY n DESC, a.artist LIMIT 1",
        params,
    )
    guild = guild_key(guild_id)
    rated = await tx.one(
        "SELECT rating FROM ratings WHERE guild_id = ? AND player_key = ?", (guild, player_key(user_id))
    )
    place = None
    if rated is not None:
        above = await tx.one("SELECT count(*) FROM ratings WHERE guild_id = ? AND rating > ?", (guild, rated["rating"]))
        place = int(above[0]) + 1
    return PlayerStats(
        user_id=user_id,
        games=int(totals["games"]),
        wins=int(totals["wins"]),
        total_score=int(totals["total"]),
        best_score=int(totals["best"]),
        museum_dice=int(totals["museum"]),
        best_installation=None if best is None else BestInstallation(best[0], best[1], best[2]),
        favourite_artist=None if fav is None else _kind(fav["artist"]),
        favourite_uses=0 if fav is None else int(fav["n"]),
        rating=None if rated is None else float(rated["rating"]),
        place=place,
    )


def _kind(text: str) -> ArtistKind | None:
    try:
        return ArtistKind(text)
    except ValueError:  # a kind from another card set
        return None


async def leaderboard(tx: Tx, guild_id: int | None, limit: int = 15) -> list[RatingEntry]:
    """A server's ratings, best first (ties: more games first), placed as ``player_stats`` does."""
    rows = await tx.all(
        "SELECT * FROM ratings WHERE guild_id = ? ORDER BY rating DESC, games DESC, player_key LIMIT ?",
        (guild_key(guild_id), limit),
    )
    out: list[RatingEntry] = []
    for i, r in enumerate(rows, start=1):
        value = float(r["rating"])
        place = out[-1].place if out and out[-1].rating == value else i  # equal ratings share a place
        out.append(RatingEntry(place, r["player_key"], r["user_id"], r["display_name"], value, r["games"], r["wins"]))
    return out


async def rating_changes(tx: Tx, game_id: int) -> list[RatingChange]:
    """The rating change of each seat of a rated game, by seat."""
    rows = await tx.all("SELECT * FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,))
    return [
        RatingChange(
            r["game_id"],
            r["seat"],
            r["player_key"],
            r["rating_before"],
            r["delta"],
            r["sigma_before"],
            r["sigma_after"],
        )
        for r in rows
    ]


class StatsRoom(Room):
    """The statistics readers; the writing happens when a game finishes (``record_finished``)."""

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats | None:
        """A person's statistics over the finished games of a server (None: no finished game)."""
        return await self.db.read(lambda tx: player_stats(tx, guild_id, user_id))

    async def leaderboard(self, guild_id: int | None, limit: int = 15) -> list[RatingEntry]:
        """A server's rating table, best first; computer levels included."""
        return await self.db.read(lambda tx: leaderboard(tx, guild_id, limit))

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """Each seat's rating change from a finished game (empty: not rated)."""
        return await self.db.read(lambda tx: rating_changes(tx, game_id))
