"""How the bot answers: one helper (``bot.chat.replies.answer``) picks the response, the
deferred message edited into the answer, or a follow-up."""

from __future__ import annotations

from .conftest import Table, started


async def test_a_deferred_answer_is_the_deferral_edited_not_a_follow_up(table: Table) -> None:
    """``/cubist board`` thinks first (the picture takes a moment); its answer then replaces
    the "thinking..." message (Discord's way) instead of adding a follow-up."""
    await started(table)
    result = await table.users[0].slash(table.channel, "cubist board")
    record = table.standin.interactions[result.id]
    assert record.response_type == 5  # deferred: "thinking..."
    assert result.followups == []
    assert result.original is not None and result.original.content == "Game 1, turn 1."
    assert result.original.attachments and result.ephemeral
