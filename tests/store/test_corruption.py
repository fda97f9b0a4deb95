"""A damaged game is named in a CorruptGame and quarantined; every other game keeps working."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import CorruptGame, Store
from bot.store.__main__ import main as cli
from bot.store.__main__ import verify as verify_file
from engine import parse_move

from .helpers import play, sql, start_game


def damage(db_path: Path | str, statement: str, *params: object) -> None:
    sql(db_path, statement, params, force=True)


def edit_snapshot(db_path: Path | str, game_id: int, change: Callable[[dict], None]) -> None:
    data = json.loads(sql(db_path, "SELECT json FROM snapshots WHERE game_id = ?", (game_id,))[0][0])
    change(data)
    sql(db_path, "UPDATE snapshots SET json = ? WHERE game_id = ?", (json.dumps(data), game_id))


def _bump_supply(d: dict) -> None:
    d["state"]["players"][0]["supply"] += 1


def _drop_last_move(d: dict) -> None:
    d["log"].pop()


def _rename_last_move(d: dict) -> None:
    d["log"][-1] = "end" if d["log"][-1] != "end" else "undo"


# (what is damaged, how, a word the reason must contain).  Game ids: the victim is game 2
# of three games with 6 moves each.
CASES: list[tuple[str, Callable[[Path], None], str, bool]] = [
    ("snapshot not JSON", lambda p: damage(p, "UPDATE snapshots SET json = '{\"version\": 1, tru' WHERE game_id = 2"),
     "not valid JSON", True),
    ("snapshot bytes not UTF-8", lambda p: damage(p, "UPDATE snapshots SET json = X'FFFE7B7D' WHERE game_id = 2"),
     "unreadable snapshot", True),
    ("snapshot of the wrong shape", lambda p: damage(p, "UPDATE snapshots SET json = '[1, 2]' WHERE game_id = 2"),
     "unreadable snapshot", True),
    ("snapshot missing", lambda p: damage(p, "DELETE FROM snapshots WHERE game_id = 2"), "no snapshot", True),
    ("snapshot version behind", lambda p: damage(p, "UPDATE snapshots SET version = 5 WHERE game_id = 2"),
     "version 5", True),
    ("snapshot of another game", lambda p: damage(
        p, "UPDATE snapshots SET json = (SELECT json FROM snapshots WHERE game_id = 3) WHERE game_id = 2"),
     "another game", True),
    ("state edited", lambda p: edit_snapshot(p, 2, _bump_supply), "differs from the replay", False),
    ("log shortened", lambda p: edit_snapshot(p, 2, _drop_last_move), "holds 5 moves", True),
    ("log edited", lambda p: edit_snapshot(p, 2, _rename_last_move), "move log differs", False),
    ("move row deleted", lambda p: damage(p, "DELETE FROM moves WHERE game_id = 2 AND ply = 3"), "ply 3", False),
    ("move row edited", lambda p: damage(p, "UPDATE moves SET move = 'end' WHERE game_id = 2 AND ply = 2"),
     "does not replay", False),
    ("move unreadable", lambda p: damage(p, "UPDATE moves SET move = 'jump!' WHERE game_id = 2 AND ply = 4"),
     "move 4", False),
    ("options unreadable", lambda p: damage(p, "UPDATE games SET options = '{nope' WHERE id = 2"), "unreadable", True),
    ("status unknown", lambda p: damage(p, "UPDATE games SET status = 'exploded' WHERE id = 2"), "exploded", True),
]  # fmt: skip


@pytest.mark.parametrize(("what", "how", "reason", "on_load"), CASES, ids=[c[0] for c in CASES])
async def test_corrupt_game_is_named_and_others_work(
    db_path: Path, what: str, how: Callable[[Path], None], reason: str, on_load: bool
) -> None:
    store = await Store.open(db_path)
    try:
        for channel in (1, 2, 3):
            rec, _ = await start_game(store, channel=channel, seed=channel)
            await play(store, rec.id, 6)
    finally:
        await store.close()

    how(db_path)

    store = await Store.open(db_path)
    try:
        if on_load:  # the cheap checks on every load catch this one
            with pytest.raises(CorruptGame) as info:
                await store.games.load_game(2)
            assert info.value.game_id == 2 and "game 2" in str(info.value)
        problems = await store.integrity.verify_all(None)
        assert [p.game_id for p in problems] == [2]
        assert reason in problems[0].reason, problems[0].reason
        # Quarantined: loading and moving are refused, naming the game...
        with pytest.raises(CorruptGame, match="game 2"):
            await store.games.load_game(2)
        with pytest.raises(CorruptGame, match="game 2"):
            await store.moves.apply_move(2, 6, parse_move("end"))
        # ...while the other games carry on.
        for game_id in (1, 3):
            record, _ = await store.games.load_game(game_id)
            assert record.version == 6
            _, version = await play(store, game_id, 3)
            assert version == 9
        assert await store.games.active_game_for_channel(1) is not None
        assert [g.id for g in await store.games.games_waiting_on(10)] + [
            g.id for g in await store.games.games_waiting_on(11)
        ]
    finally:
        await store.close()

    problems = await verify_file(db_path)
    assert len(problems) == 1 and problems[0].startswith("game 2: "), problems


async def test_rebuild_repairs_a_bad_snapshot_from_the_moves(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        rec, _ = await start_game(store, channel=1)
        game, _ = await play(store, rec.id, 8)
        edit_snapshot(db_path, rec.id, _bump_supply)
        with pytest.raises(CorruptGame, match="differs from the replay"):
            await store.integrity.verify_game(rec.id)
        rebuilt = await store.integrity.rebuild_snapshot(rec.id)
        assert rebuilt == game
        assert (await store.games.load_game(rec.id))[1] == game
        await store.integrity.verify_game(rec.id)
        await play(store, rec.id, 2)
        damage(db_path, "UPDATE moves SET move = 'end' WHERE game_id = 1 AND ply = 2")
        with pytest.raises(CorruptGame, match="does not replay"):
            await store.integrity.rebuild_snapshot(rec.id)
    finally:
        await store.close()


def test_cli_verify_on_a_good_and_a_missing_database(db_path: Path, tmp_path: Path, capsys) -> None:
    import asyncio

    async def build() -> None:
        async with await Store.open(db_path) as store:
            rec, _ = await start_game(store, channel=1)
            await play(store, rec.id, 5)
            await store.lobby.create_lobby(1, 2, 3)

    asyncio.run(build())
    assert cli(["verify", str(db_path)]) == 0
    assert "ok" in capsys.readouterr().out
    assert cli(["verify", str(tmp_path / "nope.db")]) == 1
    (tmp_path / "junk.db").write_bytes(b"this is not a database" * 100)
    assert cli(["verify", str(tmp_path / "junk.db")]) == 1
    assert "not a readable SQLite database" in capsys.readouterr().out
