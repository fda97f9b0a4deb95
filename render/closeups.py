"""Close-ups: one player's studio, the museum, both larger than on the table."""

from __future__ import annotations

from engine import Game

from . import palette as pal
from .canvas import Canvas
from .highlight import highlights
from .labels import EN, Labels
from .museum import draw_museum, museum_frame
from .player import draw_player, panel_size, player_frame

STUDIO_SCALE = 1.7
MUSEUM_SIZE = (1100, 900)


def studio_canvas(game: Game, seat: int, names: list[str] | None = None, *, numerals: bool = False,
                  labels: Labels = EN) -> Canvas:
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat} in a {game.num_players}-player game")
    w, h = panel_size(STUDIO_SCALE)
    m = 16
    cv = Canvas(w + 2 * m, h + 2 * m, pal.BACKGROUND)
    player_frame(cv, seat, (m, m, m + w, m + h), k=STUDIO_SCALE)
    draw_player(cv, game, seat, (m, m, m + w, m + h), names, highlights(game), k=STUDIO_SCALE, numerals=numerals,
                labels=labels)
    return cv


def museum_canvas(game: Game, *, numerals: bool = False, labels: Labels = EN) -> Canvas:
    w, h = MUSEUM_SIZE
    m = 16
    cv = Canvas(w, h, pal.BACKGROUND)
    rect = (m, m, w - m, h - m)
    museum_frame(cv, game.deck.museum(game.state.museum_card), rect, k=1.4, labels=labels)
    draw_museum(cv, game, rect, highlights(game), numerals=numerals, k=1.4, labels=labels)
    return cv
