"""The web board's table as SVG: the table picture's own drawing (render.tableview through
the same scene, camera and layout) on the SVG surface (render.svgcanvas).

    svg = render.webboard.table_svg(game, names, labels=labels)

Hooks for the web page:
- every workroom cell is ``<g class="cell" data-cell="p{seat}.w{room}.{cell}">`` (0-based seat
  and room, cell as ``engine.moves.Place.cell``), every museum cell of the plan
  ``<g class="cell" data-cell="m.{cell}">`` (as ``engine.moves.ToMuseum.cell``), drawn over the
  board: the cell's area (``class="sq"``: its column's outline, or its floor square;
  transparent) and ``class="ring"`` around its top face, shown when the group has the class
  ``glow``;
- ``<g class="player" data-seat="{seat}">`` (all of that player's part: the page zooms into it),
  ``<g class="artist" data-artist="{slot}">``, ``<g class="offer" data-offer="{i}">``,
  ``<g class="museum">``, ``<g class="header">``;
- the root has ``role="img"`` and an ``aria-label`` (whose turn it is, from Labels).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from engine import Game, TurnRecord

from . import tableview
from .cubes import TABLE
from .labels import Labels
from .svgcanvas import SvgCanvas
from .words import status_line


@dataclass(frozen=True, slots=True)
class TablePieces:
    """``table_svg`` in pieces: joined without ``style``, they are the document without its
    ``<style>`` element.  ``sections``: the table's background, then the header, the museum,
    each artist and offer card and each player, as drawn (a move changes a few of them: the
    web board sends a viewer only those)."""

    head: str
    style: str
    defs: str
    sections: list[str]
    end: str


def table_canvas(game: Game, names: list[str] | None = None, *, labels: Labels, this_turn: bool = True) -> SvgCanvas:
    """The table on the SVG surface; ``this_turn`` False: the header as the turn began (the
    same from one move to the next; this turn's moves glow on the board)."""
    start = game
    if not this_turn and game.state.this_turn.moves:
        start = copy.copy(game)
        start.state = dataclasses.replace(game.state, this_turn=TurnRecord(game.state.current, game.state.turn))
    cv = tableview.table_canvas(game, names, labels=labels, surface=_surface, header=start)
    assert isinstance(cv, SvgCanvas)
    return cv


def _surface(width: int, height: int) -> SvgCanvas:
    return SvgCanvas(width, height, TABLE)


def table_pieces(game: Game, names: list[str] | None = None, *, labels: Labels, this_turn: bool = True) -> TablePieces:
    cv = table_canvas(game, names, labels=labels, this_turn=this_turn)
    return TablePieces(cv.head(status_line(game, names, labels)), cv.style(), "<defs></defs>", cv.sections(), "</svg>")


def table_svg(game: Game, names: list[str] | None = None, *, labels: Labels) -> str:
    """The whole table (render.table_png's picture) as an SVG document."""
    t = table_pieces(game, names, labels=labels)
    return t.head + f"<style>{t.style}</style>" + t.defs + "".join(t.sections) + t.end
