"""Statistics and ratings written when a game finishes (bot/store/stats.py), on real SQLite files."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from bot.store import ResultRecord, Store, rating
from bot.store import stats as stats_db
from bot.store.connection import Tx
from engine import Game
from engine.timeline import timeline

from .helpers import old_database, opened, play_to_end, sql, start_game


def _rows(db: Path | str, statement: str, params: tuple = ()) -> list[tuple]:
    return sql(db, statement, params)


async def _finished(store: Store, channel: int, seed: int, guild: int = 1, players: int = 2) -> tuple[int, Game]:
    rec, _ = await start_game(store, channel, players=players, seed=seed, guild=guild)
    game, _ = await play_to_end(store, rec.id, seed)
    assert game.is_over
    return rec.id, game


def _ranks(game: Game) -> list[int]:
    keys = [(not game.state.players[i].removed, game.score(i), game.museum_dice(i)) for i in range(game.num_players)]
    return [1 + sum(o > k for o in keys) for k in keys]


async def test_a_finished_game_records_each_seats_details(store: Store, db_path: Path) -> None:
    game_id, game = await _finished(store, channel=3, seed=4, players=3)
    rows = _rows(
        db_path,
        "SELECT seat, player_key, installations, best_card, best_name, best_points FROM seat_stats"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    assert len(rows) == 3
    story = timeline(game)
    for seat, key, installations, card, name, points in rows:
        done = game.state.players[seat].completed
        assert key == f"user:{30 + seat}" and installations == len(done)
        best = max((game.deck.installation(c.card).points for c in done), default=None)
        assert points == best
        if best is not None:
            assert game.deck.installation(card).name == name and game.deck.installation(card).points == best
        uses = dict(_rows(db_path, "SELECT artist, uses FROM artist_uses WHERE game_id = ? AND seat = ?",
                          (game_id, seat)))  # fmt: skip
        assert uses == {str(k): n for k, n in story.artist_uses[seat].items()}
    assert sum(sum(c.values()) for c in story.artist_uses) > 0, "no artist was used: pick another seed"


async def test_two_player_ratings_follow_openskill_from_game_to_game(store: Store) -> None:
    expect = {30: rating.NEWCOMER, 31: rating.NEWCOMER}
    for seed in (4, 5, 6):
        game_id, game = await _finished(store, channel=3, seed=seed)
        before = [expect[30], expect[31]]
        after = rating.rate(before, _ranks(game))
        expect = {30: after[0], 31: after[1]}
        changes = await store.stats.rating_changes(game_id)
        assert [c.before for c in changes] == pytest.approx([b.rating for b in before])
        assert [c.after for c in changes] == pytest.approx([a.rating for a in after])
        assert [c.sigma_before for c in changes] == pytest.approx([b.sigma for b in before])
        assert [c.sigma_after for c in changes] == pytest.approx([a.sigma for a in after])
        winner = changes[_ranks(game).index(1)]
        assert winner.delta > 0 or _ranks(game) == [1, 1]
    board = await store.stats.leaderboard(1)
    assert {e.user_id: e.rating for e in board} == pytest.approx({k: v.rating for k, v in expect.items()})
    assert [e.place for e in board] == [1, 2] and board[0].rating >= board[1].rating
    assert sum(e.games for e in board) == 6


async def test_a_four_player_game_moves_the_winner_up_and_the_last_down(store: Store) -> None:
    game_id, game = await _finished(store, channel=3, seed=4, players=4)
    ranks = _ranks(game)
    changes = await store.stats.rating_changes(game_id)
    assert [c.delta for c in changes] == pytest.approx(
        [a.rating - rating.START for a in rating.rate([rating.NEWCOMER] * 4, ranks)]
    )
    by_rank = sorted(zip(ranks, (c.delta for c in changes), strict=True))
    assert by_rank[0][1] > 0 > by_rank[-1][1]
    for (r1, d1), (r2, d2) in pairwise(by_rank):
        assert d1 == pytest.approx(d2) if r1 == r2 else d1 > d2  # ties equal, a better place more
    board = await store.stats.leaderboard(1)
    assert [e.user_id for e in board] == [30 + s for _r, s in sorted((r, s) for s, r in enumerate(ranks))]


async def test_an_elo_rating_from_before_openskill_carries_over(store: Store, db_path: Path) -> None:
    # Rows as migration 0012 leaves them: Elo numbers, no sigma.
    for user, elo, games in ((30, 1720.0, 120), (31, 1400.0, 0)):
        sql(
            db_path,
            "INSERT INTO ratings (guild_id, player_key, user_id, display_name, rating, games, wins, updated_at)"
            " VALUES (1, ?, ?, ?, ?, ?, 0, 1.0)",
            (f"user:{user}", user, f"p{user}", elo, games),
        )
    shown = await store.stats.player_stats(1, 30)
    assert shown is None  # statistics count finished games; the rating waits for one
    assert [(e.user_id, e.rating, e.place) for e in await store.stats.leaderboard(1)] == [
        (30, 1720.0, 1),
        (31, 1400.0, 2),
    ]

    game_id, game = await _finished(store, channel=3, seed=4)
    before = [rating.carried(1720.0, 120), rating.carried(1400.0, 0)]
    after = rating.rate(before, _ranks(game))
    changes = await store.stats.rating_changes(game_id)
    assert [c.before for c in changes] == pytest.approx([b.mu for b in before])
    assert [c.sigma_before for c in changes] == pytest.approx([b.sigma for b in before])
    assert [c.after for c in changes] == pytest.approx([a.rating for a in after])
    assert abs(changes[0].delta) < abs(changes[1].delta)  # 120 games of Elo: the veteran moves less
    board = {e.user_id: e for e in await store.stats.leaderboard(1)}
    assert board[30].rating == pytest.approx(after[0].rating) and board[30].games == 121
    stored = _rows(db_path, "SELECT player_key, sigma FROM ratings ORDER BY player_key")
    assert [k for k, _s in stored] == ["user:30", "user:31"]
    assert [s for _k, s in stored] == pytest.approx([after[0].sigma, after[1].sigma])


async def test_player_stats_add_up_over_games(store: Store) -> None:
    games = [await _finished(store, channel=3, seed=s) for s in (4, 5, 7)]
    await _finished(store, channel=4, seed=8)  # other players: not counted for user 30
    stats = await store.stats.player_stats(1, 30)
    assert stats is not None
    mine = [(g, 0) for _gid, g in games]  # user 30 sits at seat 0 of channel 3's games
    assert stats.games == 3
    assert stats.wins == sum(0 in g.winners() for g, _ in mine)
    assert stats.total_score == sum(g.score(s) for g, s in mine)
    assert stats.average_score == pytest.approx(stats.total_score / 3)
    assert stats.best_score == max(g.score(s) for g, s in mine)
    assert stats.museum_dice == sum(g.museum_dice(s) for g, s in mine)
    points = [g.deck.installation(c.card).points for g, s in mine for c in g.state.players[s].completed]
    assert stats.best_installation is not None and stats.best_installation.points == max(points)
    uses: Counter = Counter()
    for g, s in mine:
        uses.update(timeline(g).artist_uses[s])
    if uses:
        top = max(uses.values())
        assert stats.favourite_artist in {k for k, n in uses.items() if n == top}
        assert stats.favourite_uses == top
    board = await store.stats.leaderboard(1)
    assert stats.rating == pytest.approx(next(e.rating for e in board if e.user_id == 30))
    assert stats.place == next(e.place for e in board if e.user_id == 30)


async def test_ratings_and_stats_are_per_server(store: Store) -> None:
    await _finished(store, channel=3, seed=4, guild=1)
    await _finished(store, channel=5, seed=4, guild=2)
    await _finished(store, channel=6, seed=5, guild=None)  # type: ignore[arg-type]
    assert {e.user_id for e in await store.stats.leaderboard(1)} == {30, 31}
    assert {e.user_id for e in await store.stats.leaderboard(2)} == {50, 51}
    assert {e.user_id for e in await store.stats.leaderboard(None)} == {60, 61}
    assert await store.stats.player_stats(2, 30) is None
    assert (await store.stats.player_stats(1, 30)).games == 1  # type: ignore[union-attr]
    assert (await store.stats.player_stats(None, 60)).games == 1  # type: ignore[union-attr]
    assert await store.stats.player_stats(1, 999) is None
    assert await store.stats.leaderboard(3) == []


async def test_computer_levels_have_their_own_rating(store: Store) -> None:
    rec = await store.lobby.create_lobby(1, 9, 90)
    await store.lobby.join_seat(rec.id, 90, "ada")
    await store.lobby.join_seat(rec.id, None, "Computer 1 (strong)", is_computer=True, ai_level=2)
    await store.lobby.join_seat(rec.id, None, "Computer 2 (strong)", is_computer=True, ai_level=2)
    await store.moves.start_game(rec.id, 3)
    game, _ = await play_to_end(store, rec.id, 3)
    ranks = _ranks(game)
    board = {e.player_key: e for e in await store.stats.leaderboard(1)}
    assert set(board) == {"user:90", "ai:strong"}
    ai = board["ai:strong"]
    assert ai.is_computer and ai.user_id is None and ai.display_name == "strong" and ai.games == 2
    assert ai.wins == sum(s in game.winners() for s in (1, 2))
    after = rating.rate([rating.NEWCOMER] * 3, ranks, ["user:90", "ai:strong", "ai:strong"])
    assert board["user:90"].rating == pytest.approx(after[0].rating)
    assert ai.rating == pytest.approx(rating.merged(rating.NEWCOMER, after[1:]).rating)
    assert ai.rating - rating.START == pytest.approx(after[1].rating + after[2].rating - 2 * rating.START)
    assert not board["user:90"].is_computer


async def test_finish_again_never_rates_twice(store: Store, db_path: Path) -> None:
    game_id, _game = await _finished(store, channel=3, seed=4)
    board = await store.stats.leaderboard(1)
    # A game left active by older code: finish() replays it and writes results again.
    sql(db_path, "UPDATE games SET status = 'active', finished_at = NULL WHERE id = ?", (game_id,))
    sql(db_path, "DELETE FROM results WHERE game_id = ?", (game_id,))
    await store.moves.finish(game_id)
    assert await store.stats.leaderboard(1) == board
    assert len(await store.stats.rating_changes(game_id)) == 2
    assert len(_rows(db_path, "SELECT * FROM seat_stats WHERE game_id = ?", (game_id,))) == 2


async def test_a_failure_while_recording_rolls_back_the_final_move(
    store: Store, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec, _ = await start_game(store, 3, seed=4)
    game, version = await play_to_end(store, rec.id, 4)
    moves = list(game.log)

    # The same game again, failing in the statistics of its last move.
    rec2, _ = await start_game(store, 4, seed=4)
    for i, m in enumerate(moves[:-1]):
        await store.moves.apply_move(rec2.id, i, m)

    def broken(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(stats_db, "record_finished", broken)
    with pytest.raises(RuntimeError):
        await store.moves.apply_move(rec2.id, version - 1, moves[-1])
    again = await store.games.get_game(rec2.id)
    assert again.version == version - 1 and again.status == "active"
    assert _rows(db_path, "SELECT * FROM results WHERE game_id = ?", (rec2.id,)) == []
    monkeypatch.undo()
    await store.moves.apply_move(rec2.id, version - 1, moves[-1])
    assert len(await store.stats.rating_changes(rec2.id)) == 2


async def test_a_draw_between_newcomers_leaves_them_level_and_sharing_first_place(store: Store) -> None:
    rec, _ = await start_game(store, 3, seed=4)
    game, version = await play_to_end(store, rec.id, 4)

    # Greedy players do not draw on demand: make the stored result a draw and rate it again,
    # the way the finishing transaction does.
    async def redo(tx: Tx) -> None:
        await tx.execute("DELETE FROM ratings")
        await tx.execute("DELETE FROM rating_changes")
        await tx.execute("UPDATE results SET rank = 1, winner = 1 WHERE game_id = ?", (rec.id,))
        results = [
            ResultRecord(r["game_id"], r["seat"], r["user_id"], r["score"], r["museum_dice"], 1, True)
            for r in await tx.all("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (rec.id,))
        ]
        await stats_db.record_finished(tx, rec.id, game, results)

    await store.db.write(redo)
    board = await store.stats.leaderboard(1)
    assert [(e.place, e.rating, e.wins) for e in board] == [(1, rating.START, 1), (1, rating.START, 1)]
    assert (await store.stats.player_stats(1, 31)).place == 1  # type: ignore[union-attr]
    assert version == len(game.log)


async def test_migration_0012_keeps_the_elo_ratings_to_carry_over(sqlite_path: Path) -> None:
    await old_database(
        sqlite_path,
        11,
        "INSERT INTO ratings (guild_id, player_key, user_id, display_name, rating, games, wins, updated_at)"
        " VALUES (1, 'user:30', 30, 'ada', 1612.5, 17, 9, 1.0)",
    )
    async with opened(sqlite_path) as store:
        assert _rows(sqlite_path, "SELECT rating, sigma, games FROM ratings") == [(1612.5, None, 17)]
        [entry] = await store.stats.leaderboard(1)
        assert (entry.rating, entry.games, entry.wins) == (1612.5, 17, 9)  # shown as before
        game_id, _game = await _finished(store, channel=3, seed=4)
        seat0 = (await store.stats.rating_changes(game_id))[0]
        assert (seat0.before, seat0.sigma_before) == (1612.5, pytest.approx(rating.carried(1612.5, 17).sigma))
