"""/cubist stats games and /cubist stats leaderboard through the stand-in, checked against games played to
the end (numbers recomputed here from the engine games, not read back from the bot's tables)."""

from __future__ import annotations

import io
import re
import sqlite3
from collections import Counter

from PIL import Image

from bot.demo import play_demo_game
from bot.store import rating
from engine import Game
from engine.cards import ARTIST_NAMES
from engine.timeline import timeline
from standin import Player

from .conftest import Table


def _ranks(game: Game) -> list[int]:
    keys = [(not game.state.players[i].removed, game.score(i), game.museum_dice(i)) for i in range(game.num_players)]
    return [1 + sum(o > k for o in keys) for k in keys]


class Expected:
    """Everybody's numbers, kept from the finished games the way the feature defines them."""

    def __init__(self) -> None:
        self.skills: dict[str, rating.Skill] = {}
        self.games: Counter[str] = Counter()
        self.wins: Counter[str] = Counter()
        self.seats: dict[str, list[tuple[Game, int]]] = {}

    @property
    def ratings(self) -> dict[str, float]:
        return {k: s.rating for k, s in self.skills.items()}

    def add(self, game: Game, keys: list[str]) -> None:
        before = {k: self.skills.get(k, rating.NEWCOMER) for k in keys}
        after = rating.rate([before[k] for k in keys], _ranks(game), keys)
        for key in before:
            self.skills[key] = rating.merged(before[key], [a for k, a in zip(keys, after, strict=True) if k == key])
        for seat, key in enumerate(keys):
            self.games[key] += 1
            self.wins[key] += seat in game.winners()
            self.seats.setdefault(key, []).append((game, seat))

    def stats_lines(self, key: str) -> dict[str, str]:
        mine = self.seats[key]
        games, wins = len(mine), sum(s in g.winners() for g, s in mine)
        scores = [g.score(s) for g, s in mine]
        done = [g.deck.installation(c.card) for g, s in mine for c in g.state.players[s].completed]
        uses: Counter = Counter()
        for g, s in mine:
            uses.update(timeline(g).artist_uses[s])
        place = 1 + sum(r > self.ratings[key] for r in self.ratings.values())
        out = {
            "games": f"Games: **{games}**, wins: **{wins}** ({round(100 * wins / games)}%)",
            "score": f"Average score: **{sum(scores) / games:.1f}** (best: {max(scores)})",
            "museum": f"Dice given to the museum: **{sum(g.museum_dice(s) for g, s in mine)}**",
            "rating": f"Rating: **{round(self.ratings[key])}** (#{place} on this server)",
        }
        if done:
            best = max(p.points for p in done)
            names = "|".join(re.escape(p.name) for p in done if p.points == best)
            out["installation"] = f"Best installation: \\*\\*({names})\\*\\* \\({best} points\\)"
        if uses:
            top = max(uses.values())
            names = "|".join(ARTIST_NAMES[k] for k, n in uses.items() if n == top)
            out["artist"] = f"Favourite artist: \\*\\*({names})\\*\\* \\(used {top}×\\)"
        return out


async def _final_post(table: Table):
    return table.standin.channel_messages(table.channel)[-1]


async def _game(table: Table, game_id: int) -> tuple[Game, list[str]]:
    record, game = await table.bot.service.queries.game(game_id)
    keys = [f"user:{s.user_id}" if s.user_id is not None else "ai:greedy" for s in record.seats]
    return game, keys


async def test_stats_and_leaderboard_follow_finished_games(table: Table) -> None:
    ada, bruno, chloe = table.users[:3]
    # Before any game: clear private answers.
    r = await ada.slash(table.channel, "cubist stats games")
    assert r.ephemeral and "not finished a Cubist game on this server yet" in r.content
    r = await ada.slash(table.channel, "cubist stats games", player=chloe.user)
    assert r.ephemeral and r.content.startswith("chloe has not finished")
    r = await ada.slash(table.channel, "cubist stats leaderboard")
    assert r.ephemeral and "no leaderboard" in r.content

    expected = Expected()
    for users, computers, seed in (([ada, bruno], 0, 2), ([ada], 1, 5), ([ada, bruno], 0, 4)):
        game_id = await play_demo_game(table.standin, table.bot, users, table.channel, seed=seed, computers=computers)
        game, keys = await _game(table, game_id)
        expected.add(game, keys)
        final = await _final_post(table)
        chart = next(a for a in final.attachments if a.filename == "scores.png")
        assert Image.open(io.BytesIO(chart.data)).size == (960, 540)
        assert "score chart is attached" in final.content

    for asker, subject in ((ada, None), (chloe, ada), (ada, bruno)):
        who: Player = subject or asker
        options = {"player": subject.user} if subject else {}
        r = await asker.slash(table.channel, "cubist stats games", **options)
        assert not r.failed and not r.ephemeral, r.content  # public: people like to show them
        assert r.content.startswith(f"**Cubist statistics of {who.name}**")
        want = expected.stats_lines(f"user:{who.id}")
        for key in ("games", "score", "museum", "rating"):
            assert want[key] in r.content.split("\n"), (key, want[key], r.content)
        assert set(want) >= {"installation", "artist"}, "pick seeds where both are used"
        assert re.search(want["installation"], r.content), r.content
        assert re.search(want["artist"], r.content), r.content

    r = await chloe.slash(table.channel, "cubist stats leaderboard")
    assert not r.failed and not r.ephemeral
    lines = r.content.split("\n")[1:]
    order = sorted(expected.ratings, key=lambda k: (-expected.ratings[k], -expected.games[k], k))
    assert len(lines) == len(order) == 3
    names = {f"user:{ada.id}": "ada", f"user:{bruno.id}": "bruno", "ai:greedy": "Computer (greedy) 🤖"}
    for place, (line, key) in enumerate(zip(lines, order, strict=True), start=1):
        want = (
            f"{place}. {names[key]} — **{round(expected.ratings[key])}** "
            f"({_count(expected.games[key], 'game')}, {_count(expected.wins[key], 'win')})"
        )
        assert line == want
    assert max(expected.ratings.values()) > rating.START > min(expected.ratings.values())

    # Statistics are written in the finishing transaction: every finished game has them.
    with sqlite3.connect(table.db) as conn:
        finished = conn.execute("SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0]
        rated = conn.execute("SELECT count(DISTINCT game_id) FROM rating_changes").fetchone()[0]
        detailed = conn.execute("SELECT count(DISTINCT game_id) FROM seat_stats").fetchone()[0]
    assert finished == rated == detailed == 3


def _count(n: int, word: str) -> str:
    """English's CLDR plural: "1 game", "0 games", "2 games"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
