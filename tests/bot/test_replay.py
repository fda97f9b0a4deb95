"""The end-of-game replay reads (issue 26 item 5): at least 800 px wide, the table's own size
(so every die reads at Discord's preview as in the table post), at most 8 MiB."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n.pictures import render_labels
from bot.pictures.replay import MAX_BYTES, replay_gif
from engine import Game
from engine.players import GreedyPlayer


@pytest.mark.parametrize("players", [2, 4])
def test_the_replay_is_wide_enough_to_read_and_small_enough_to_post(players: int) -> None:
    game = Game.new(players, 3)
    seats = [GreedyPlayer(i) for i in range(players)]
    while not game.is_over:
        game.apply(seats[game.current_player].choose(game))
    data = replay_gif(game, [f"Player {i}" for i in range(players)], render_labels("en"))
    gif = Image.open(io.BytesIO(data))
    assert gif.width >= 800 and len(data) <= MAX_BYTES == 8 * 1024 * 1024
    assert gif.n_frames >= 8


def test_a_replay_over_the_limit_drops_frames_before_it_shrinks() -> None:
    game = Game.new(2, 3)
    seats = [GreedyPlayer(i) for i in range(2)]
    while not game.is_over:
        game.apply(seats[game.current_player].choose(game))
    whole = replay_gif(game, ["A", "B"], render_labels("en"))
    squeezed = replay_gif(game, ["A", "B"], render_labels("en"), max_bytes=len(whole) // 2)
    gif = Image.open(io.BytesIO(squeezed))
    assert (
        gif.width >= 800 and len(squeezed) <= len(whole) // 2 and gif.n_frames < Image.open(io.BytesIO(whole)).n_frames
    )
