"""The scene: what stands where on the table, in board coordinates (no pixels).

A ``Board`` is a grid (a workroom, the museum, an installation's plan) with its columns of
dice; ``Die`` is a loose die (storeroom, storage, an artist card, a bonus space).  A
camera (render.camera) places them on the picture; render.cubes draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game, InstallationCard, MuseumCard
from engine.geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE
from engine.state import CORNERSTONE

from . import palette as pal
from .highlight import Highlights

Key = int | str  # a seat (0-3) or a colour key of render.palette
Marks = dict[tuple[int, int], str]  # the turn panel's letters: (workroom, cell) -> "A"


@dataclass(frozen=True, slots=True)
class Column:
    x: int
    y: int
    keys: tuple[Key, ...]  # bottom to top: whose each die is
    value: int  # 0: a plan's cube, no value
    where: str  # "p2 w1 c3", "museum d4"
    lit: bool = False  # placed or moved in the last turn (or this one)


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    cols: int
    rows: int
    columns: tuple[Column, ...]
    cells: frozenset[tuple[int, int]] | None = None  # the cells that exist (None: all)
    targets: tuple[tuple[int, int, int], ...] = ()  # museum places to build: (x, y, height)
    first: tuple[int, int] = (0, 0)  # the grid's first letter and number (a museum's crop)
    axes: bool = True  # letters and numbers along its edges

    def letter(self, x: int) -> str:
        return LETTERS[x + self.first[0]]

    def number(self, y: int) -> str:
        return str(y + self.first[1] + 1)


@dataclass(frozen=True, slots=True)
class Die:
    key: Key
    value: int
    where: str
    lit: bool = False


def workroom(game: Game, seat: int, room: int, hl: Highlights) -> Board:
    cols = []
    for cell, (value, height) in sorted(game.state.players[seat].workrooms[room].items()):
        y, x = divmod(cell, WORKROOM_SIZE)
        where = f"p{seat + 1} w{room + 1} {LETTERS[x]}{y + 1}"
        cols.append(Column(x, y, (seat,) * height, value, where, (seat, room, cell) in hl.workroom))
    return Board(f"p{seat + 1} w{room + 1}", WORKROOM_SIZE, WORKROOM_SIZE, tuple(cols))


def museum_box(card: MuseumCard) -> tuple[int, int, int, int]:
    """The museum plan's cells' extent: first and last column, first and last row."""
    xs = [x for x, _y, _h in card.cells]
    ys = [y for _x, y, _h in card.cells]
    return (min(xs), min(ys), max(xs), max(ys))


def museum(game: Game, hl: Highlights) -> Board:
    s = game.state
    card = game.deck.museum(s.museum_card)
    x0, y0, x1, y1 = museum_box(card)
    cols = []
    for cell, col in sorted(s.museum.items()):
        y, x = divmod(cell, MUSEUM_SIZE)
        keys = tuple(pal.CORNER_KEY if o == CORNERSTONE else o for o in col.owners) or (pal.CORNER_KEY,)
        cols.append(Column(x - x0, y - y0, keys, col.value, f"museum {LETTERS[x]}{y + 1}", cell in hl.museum))
    targets = []
    for cell, want in sorted(game.museum_heights().items()):
        y, x = divmod(cell, MUSEUM_SIZE)
        targets.append((x - x0, y - y0, want))
    cells = frozenset((x - x0, y - y0) for x, y, _h in card.cells)
    return Board("museum", x1 - x0 + 1, y1 - y0 + 1, tuple(cols), cells, tuple(targets), (x0, y0))


def plan(card: InstallationCard, name: str) -> Board:
    """An installation's plan: plain cubes of its heights."""
    xs = [x for x, _y, _h in card.cells]
    ys = [y for _x, y, _h in card.cells]
    cols = tuple(Column(x - min(xs), y - min(ys), (pal.PLAN_KEY,) * h, 0, f"{name} {x},{y}") for x, y, h in card.cells)
    cells = frozenset((c.x, c.y) for c in cols)
    return Board(name, max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, cols, cells, axes=False)
