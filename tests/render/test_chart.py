"""The score-over-time chart (render/chart.py) and the replayed timeline behind it (engine/timeline.py).

Regenerate the golden after an intended change, and look at it:
    RENDER_REGOLD=1 pytest tests/test_chart.py
"""

from __future__ import annotations

import io
import itertools
import os
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.words.history import replay_turns
from engine import Game
from engine.players import GreedyPlayer
from engine.timeline import score_series, timeline
from render import palette as pal
from render.chart import HEIGHT, WIDTH, chart_png, legend, nice_step

GOLDEN = Path(__file__).parent / "golden" / "score-chart-3p.png"
CHANNEL_TOLERANCE = 24  # as tests/test_render.py
PIXEL_SHARE = 0.002

# Fixed series (not a played game), so that the golden does not move with the engine or AI.
NAMES = ["Ada", "Bruno", "Chloé, whose name is far too long for the legend"]
SERIES = [
    [0, 0, 0, 4, 4, 4, 9, 9, 9, 13, 13, 13, 19, 19, 19, 24],
    [0, 0, 2, 2, 2, 7, 7, 7, 7, 7, 12, 12, 12, 12, 12, 12],
    [0, 3, 3, 3, 3, 3, 3, 8, 8, 8, 8, 12, 12, 18, 18, 18],
]


@cache
def _played(players: int, seed: int) -> Game:
    game = Game.new(players, seed)
    deciders = [GreedyPlayer(seed + i) for i in range(players)]
    while not game.is_over:
        game.apply(deciders[game.current_player].choose(game))
    return game


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_matches_golden() -> None:
    data = chart_png(NAMES, SERIES)
    if os.environ.get("RENDER_REGOLD"):
        GOLDEN.write_bytes(data)
    assert GOLDEN.exists(), f"missing golden {GOLDEN}: run RENDER_REGOLD=1 pytest {__file__}"
    got, want = _image(data), Image.open(GOLDEN).convert("RGB")
    assert got.size == want.size == (WIDTH, HEIGHT)
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    share = diff.histogram()[255] / (got.width * got.height)
    assert share <= PIXEL_SHARE, f"{share:.2%} of the chart's pixels differ from the golden"


def test_same_input_same_bytes_and_every_player_colour_shows() -> None:
    a, b = chart_png(NAMES, SERIES), chart_png(list(NAMES), [list(s) for s in SERIES])
    assert a == b and a[:8] == b"\x89PNG\r\n\x1a\n"
    colours = {c for _n, c in _image(a).getcolors(WIDTH * HEIGHT)}
    for seat in range(3):
        assert pal.PLAYER_COLOURS[seat] in colours


def test_the_labels_are_parameters() -> None:
    english = chart_png(NAMES, SERIES)
    french = chart_png(NAMES, SERIES, title="Les scores, tour par tour", x_label="Tour", y_label="Points")
    assert english != french


@pytest.mark.parametrize(
    "names,series",
    [([], []), (["a"], [[0, 1], [0, 2]]), (["a", "b"], [[0, 1], [0]]), (["a"], [[]])],
)
def test_bad_input_is_refused(names: list[str], series: list[list[int]]) -> None:
    with pytest.raises(ValueError):
        chart_png(names, series)


def test_an_order_that_misses_or_repeats_a_seat_is_refused() -> None:
    for order in ([0, 1], [0, 0, 1], [0, 1, 3]):
        with pytest.raises(ValueError):
            chart_png(NAMES, SERIES, order=order)


def test_the_legend_lists_the_ranking_with_names_whole_or_cut_between_words() -> None:
    """Highest score first by default, or the order given (the game's ranking); a computer's
    name loses its level, not its number; a long name ends at a word with "…"."""
    names = ["Computer 1 (greedy)", "Bruno", "Computer 2 (strong)", "Chloé, whose name is far too long for the legend"]
    series = [[0, 12], [0, 30], [0, 22], [0, 5]]
    rows = legend(names, series, [1, 2, 0, 3])
    assert [seat for seat, _shown, _score in rows] == [1, 2, 0, 3]
    assert [score for _seat, _shown, score in rows] == ["30", "22", "12", "5"]
    shown = {seat: text for seat, text, _score in rows}
    assert shown[1] == "Bruno"
    assert shown[0] in ("Computer 1 (greedy)", "Computer 1") and shown[2] in ("Computer 2 (strong)", "Computer 2")
    long = shown[3]
    assert long.endswith("…") and names[3].startswith(long[:-1]) and names[3][len(long) - 1] in " ,", long
    # By default the final scores, highest first.
    assert (
        chart_png(names, series)
        == chart_png(names, series, order=[1, 2, 0, 3])
        != chart_png(names, series, order=[0, 1, 2, 3])
    )


def test_a_game_without_turns_or_points_still_draws() -> None:
    assert _image(chart_png(["a", "b"], [[0], [0]])).size == (WIDTH, HEIGHT)


def test_nice_steps() -> None:
    assert [nice_step(s, 6) for s in (0, 5, 30, 36, 64, 250)] == [1, 1, 5, 10, 20, 50]


@pytest.mark.parametrize("players,seed", [(2, 4), (4, 3)])
def test_timeline_scores_follow_the_game_turn_by_turn(players: int, seed: int) -> None:
    game = _played(players, seed)
    story = timeline(game)
    _entries, frames = replay_turns(game)  # the bot's own turn-by-turn replay
    assert story.scores == [tuple(f.scores()) for f in frames]
    assert story.scores[0] == (0,) * players and list(story.scores[-1]) == game.scores()
    series = score_series(game)
    assert len(series) == players and all(len(s) == len(story.scores) for s in series)
    assert all(a <= b for s in series for a, b in itertools.pairwise(s))  # points are never lost
