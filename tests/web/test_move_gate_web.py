"""The web board's move endpoint asks the same gate as Discord: a seat link plays only its own
turn's moves, never a table move (skip, remove), and a spectator's link plays nothing."""

from __future__ import annotations

import pytest

from bot.i18n import t

from .conftest import Board

SAMPLES = [
    "place 4 w1 a1",
    "museum i1.1 d4",
    "artist 3 5 5",
    "use 2",
    "complete w1 #7",
    "abandon w2",
    "release",
    "switch i1.1",
    "undo",
    "end",
]


def refused_by_gate(body: dict) -> bool:
    said = str(body.get("error") or "")
    return t("votes.table_move", "en") in said or "It is not your turn" in said


async def version(board: Board) -> int:
    record, _game = await board.service.queries.game(board.game_id)
    return record.version


@pytest.mark.parametrize("who", ["the player at turn", "the other player"])
async def test_a_seat_link_never_skips_or_removes(board: Board, who: str) -> None:
    record, game = await board.service.queries.game(board.game_id)
    at_turn = record.seats[game.current_player]
    seat = at_turn if who == "the player at turn" else record.seats[1 - game.current_player]
    assert seat.user_id is not None
    token = board.token(seat.user_id)
    for text in ("skip", f"remove p{2 - game.current_player}", f"remove p{game.current_player + 1}"):
        before = await version(board)
        status, body = await board.move(token, text, before)
        assert status == 422 and t("votes.table_move", "en") in body["error"], (text, body)
        assert await version(board) == before
    _record, after = await board.service.queries.game(board.game_id)
    assert not any(p.removed for p in after.state.players) and after.state.turn == game.state.turn


@pytest.mark.parametrize("text", SAMPLES)
async def test_a_seat_link_plays_only_on_its_turn(board: Board, text: str) -> None:
    record, game = await board.service.queries.game(board.game_id)
    waiting, playing = record.seats[1 - game.current_player], record.seats[game.current_player]
    assert waiting.user_id is not None and playing.user_id is not None
    before = await version(board)
    status, body = await board.move(board.token(waiting.user_id), text, before)
    assert status == 422 and "It is not your turn" in body["error"], body
    assert await version(board) == before
    status, body = await board.move(board.token(playing.user_id), text, before)
    assert status in (200, 422) and not refused_by_gate(body), body  # the engine's word, if any


async def test_a_spectator_link_plays_nothing(board: Board) -> None:
    before = await version(board)
    for text in [*SAMPLES, "skip", "remove p1"]:
        status, _body = await board.move(board.spectator(), text, before)
        assert status == 403
    assert await version(board) == before
