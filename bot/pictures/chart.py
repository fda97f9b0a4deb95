"""The score-over-time chart of a finished game, posted with the final scores."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from engine import Game
from engine.timeline import score_series
from render.chart import chart_png


def score_chart(game: Game, names: Sequence[str], locale: object) -> bytes:
    """The score-over-time chart of a game (CPU work: call it in a thread)."""
    ranks = game.ranks()
    return chart_png(
        names,
        score_series(game),
        order=sorted(range(game.num_players), key=lambda seat: (ranks[seat], seat)),  # as the scores post
        title=t("stats.chart_title", locale),
        x_label=t("stats.chart_x", locale),
        y_label=t("stats.chart_y", locale),
    )
