"""The master level through the real bot and the stand-in: seated by ``level:master`` and
``fill:master``, it plays its turns from the process pool, and a hint that waits for it says
it is the master's."""

from __future__ import annotations

import multiprocessing

from bot.turn.thinker import Thinker, thinker
from bot.words.history import logged_moves
from engine import Game
from engine.players import MasterPlayer

from .conftest import Table, started


async def test_lobby_new_seats_a_master_computer(table: Table) -> None:
    t = table
    r = await t.users[0].slash(t.channel, "cubist lobby new", players=3, computers=1, level="master")
    assert not r.failed and "Computer 1 (master)" in r.content, r.content


async def test_a_master_filling_a_seat_plays_its_turn_from_the_pool(table: Table) -> None:
    t = table
    ada = t.users[0]
    await ada.slash(t.channel, "cubist lobby new", players=2)
    before = thinker.decisions
    r = await ada.slash(t.channel, "cubist lobby start", fill="master")
    assert not r.failed and "The game begins" in r.content, r.content
    record = await t.bot.store.games.active_game_for_channel(t.channel.id)
    assert record is not None
    master = next(s.seat for s in record.seats if s.is_computer)
    assert record.seats[master].display_name == "Computer 1 (master)"
    after = r.message.id  # the master may be playing already, if it goes first
    record, game = await t.bot.service.queries.game(record.id)
    if game.current_player != master and not game.log:  # ada goes first: she ends her turn at once
        after = max(m.id for m in t.standin.channel_messages(t.channel))
        r = await ada.slash(t.channel, "cubist end")
        assert not r.failed, r.content
    # The master's turn ends with the table handed back to ada, in a later post.
    await t.standin.wait_for_message(
        t.channel, lambda m: m.id > after and f"<@{ada.id}>, it is your turn." in m.content
    )
    await t.bot.computers.idle()
    record, game = await t.bot.service.queries.game(record.id)
    assert game.current_player != master
    played = [m for m in logged_moves(game) if m.seat == master]
    assert played and thinker.decisions - before >= len(played)


async def test_a_hint_that_waits_for_the_master_says_so(table: Table) -> None:
    t = table
    _gid, game, seated = await started(t, players=2)
    me = seated[game.current_player]
    t.bot.hint_seconds = 120.0  # ample on any machine: the master's answer always comes first
    r = await me.slash(t.channel, "cubist hint")
    assert not r.failed and r.ephemeral, r.content
    assert r.content.startswith("💡 A master's suggestion: ") and "\nWhy: " in r.content, r.content
    t.bot.hint_seconds = 0.0  # the strong player's at once
    r = await me.slash(t.channel, "cubist hint")
    assert r.content.startswith("💡 A strong suggestion: "), r.content


async def test_a_master_worker_that_dies_is_replaced_and_decides_the_same() -> None:
    pool = Thinker()
    game = Game.new(2, 5)

    def small() -> MasterPlayer:
        return MasterPlayer(3, candidates=2, worlds=1, rollout_budget=30, turn_rollouts=2)

    try:
        others = set(multiprocessing.active_children())
        move, _player = await pool.choose(small(), game)
        workers = set(multiprocessing.active_children()) - others
        assert workers
        for worker in workers:  # processes this test started, through its own pool
            worker.kill()
            worker.join()
        again, _player = await pool.choose(small(), game)
        assert again == move and pool.decisions == 2
    finally:
        pool.close()
