"""A confirmation acts only on what it asked about: its game, at its turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from standin import StandIn

from .asyncplay import FakeClock, make_clocked_bot, start_game, utc
from .conftest import Table, custom_ids, started


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_an_old_skip_confirmation_does_not_skip_in_the_next_game(
    standin: StandIn, run_bot, tmp_path: Path, locale: str
) -> None:
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    users = [standin.add_user("ada", locale=locale), standin.add_user("bruno")]
    db = tmp_path / "cubist.db"
    bot = make_clocked_bot(db, FakeClock(utc(2024, 5, 1, 14, 0)))
    await run_bot(bot)
    table = Table(standin, bot, guild, channel, users, db, run_bot)
    creator = users[0]

    first, _game, _seated = await started(table)  # ada may read French: no English DM to wait for
    ask = await creator.slash(channel, "cubist table skip")
    assert ask.ephemeral and ask.message is not None, ask.content
    old_yes = next(i for i in custom_ids(ask.message) if ":skipok:" in i)
    assert old_yes.startswith(f"cubist:{first}:skipok:")
    cancelled = await creator.slash(channel, "cubist table cancel")
    assert not cancelled.failed and not cancelled.ephemeral, cancelled.content

    second, game, _seated = await started(table)
    assert second != first
    before, moves = await table.snapshot(), await table.moves_logged()
    turn = game.state.turn
    pressed = await creator.click(ask.message, old_yes)
    assert not pressed.failed and pressed.ephemeral, pressed.content
    assert pressed.content == t("votes.earlier_game", locale), pressed.content
    assert await table.snapshot() == before and await table.moves_logged() == moves
    _record, after = await bot.service.queries.game(second)
    assert after.state.turn == turn and not after.state.last_turn


async def test_a_skip_confirmation_still_skips_the_turn_it_asked_about(table: Table) -> None:
    gid, game, _seated = await start_game(table)
    creator = table.users[0]
    ask = await creator.slash(table.channel, "cubist table skip")
    assert ask.message is not None
    yes = next(i for i in custom_ids(ask.message) if ":skipok:" in i)
    assert yes == f"cubist:{gid}:skipok:{game.state.turn}"
    pressed = await creator.click(ask.message, yes)
    assert not pressed.failed and not pressed.ephemeral, pressed.content
    _record, after = await table.bot.service.queries.game(gid)
    assert after.state.turn == game.state.turn + 1


@pytest.mark.parametrize("who", ["a seated player", "somebody not in the game"])
async def test_a_kick_without_its_resolved_member_is_refused_clearly(table: Table, who: str) -> None:
    """A forged payload: the player option's id with no member resolved by Discord."""
    gid, _game, seated = await start_game(table)
    target = seated[1] if who == "a seated player" else table.users[3]
    before, moves = await table.snapshot(), await table.moves_logged()
    r = await table.users[0].slash(table.channel, "cubist table kick", forged=True, player=str(target.id))
    assert not r.failed and r.ephemeral, r.content
    assert r.content == t("votes.unknown_member", "en"), r.content
    assert await table.snapshot() == before and await table.moves_logged() == moves
    _record, after = await table.bot.service.queries.game(gid)
    assert not any(p.removed for p in after.state.players)
