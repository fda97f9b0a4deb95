"""``/cubist lobby start fill:<level>`` racing a join: whoever gets the seat, both answers are
true and the game starts with the table as it then is."""

from __future__ import annotations

from bot.i18n import t
from bot.store import Status

from .conftest import Table

ROUNDS = 6


async def test_a_join_racing_a_filled_start_gets_a_true_answer(table: Table) -> None:
    creator, joiner = table.users[0], table.users[1]
    for _round in range(ROUNDS):
        opened = await creator.slash(table.channel, "cubist lobby new", players=4)
        assert not opened.failed, opened.content
        starting = await creator.slash(table.channel, "cubist lobby start", fill="strong", wait=False)
        joining = await joiner.slash(table.channel, "cubist lobby join", wait=False)
        await starting.until_answered(15)
        await joining.until_answered(15)
        assert "went wrong" not in starting.content and "went wrong" not in joining.content, (
            starting.content,
            joining.content,
        )
        record = await table.bot.store.games.active_game_for_channel(table.channel.id)
        assert record is not None and record.status == Status.ACTIVE, starting.content
        # The start's answer is the game's first post, or (when that went out on its own) says so.
        assert "The game begins" in starting.content or starting.content == t("panel.posted", "en")
        assert len(record.seats) == 4
        seated = record.seat_of(joiner.id) is not None
        assert seated == (not joining.ephemeral), (joining.content, [s.display_name for s in record.seats])
        humans = sum(not s.is_computer for s in record.seats)
        assert humans == 1 + seated
        cancelled = await creator.slash(table.channel, "cubist table cancel")
        assert not cancelled.failed, cancelled.content
