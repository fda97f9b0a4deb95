"""The web board's drawing: the table seen by a high camera, which render.svg draws in
vectors (this module keeps its Pillow drawing, which tests/render/test_svg.py compares the
SVG with).  A header, one panel per player (its two
workroom boards, storeroom and storage, completed installations) and a column with the
museum, the four artist cards and the installations on offer; dice are cubes standing on
them (render.scene), columns are stacks of cubes with their height figure, empty museum
places still to build are outline columns of their target height.

The header says whose turn it is and shows the last turn's dice again, large (``recap``:
the dice placed, with where they went), sized from the phone's width so that on a 360 px
phone the inline picture tells what changed and who plays next with numerals of at least
9 px; the whole table is one tap away.  The die size ``unit`` is the smallest at which
every numeral of the table is MIN_GLYPH px tall at the laptop preview (550x400), for 4
players MIN_GLYPH_4P; the studio posted beside a 4-player table (``needs_studio``) has
larger dice.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Container, Sequence
from functools import lru_cache

from PIL import Image

from engine import ArtistCard, Game, MuseumCard
from engine.geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE
from engine.moves import Place, ToArtist, ToMuseum, UseArtist
from engine.state import CORNERSTONE

from . import dice
from . import palette as pal
from .canvas import Box, Canvas, Rect, Writes
from .cardparts import artist_band, museum_count, offer_bonus, offer_frame, offer_title, table_column
from .cards import action_text
from .fonts import font, text_width, wrap
from .highlight import Highlights, highlights, recent_turns
from .labels import Labels
from .model import DieGlyph, phone_scale, preview_scale
from .names import _fitting, circled, fit_name, plain_name
from .pieces import Marks, museum_box
from .scene import (
    Column,
    board_layer,
    board_size,
    cam,
    column,
    cube_height,
    draw_structure,
    empty_place,
    paste_cube,
    room_disc,
    value_font,
)
from .words import last_turn_line, player_name, status_line

MIN_GLYPH = 10.0  # px tall at the laptop preview, 2 and 3 players
MIN_GLYPH_4P = 9.0  # ... 4 players (the current player's studio is posted beside it)
PHONE_GLYPH = 9.5  # the header's recap and status at 360 px wide
UNITS = range(26, 46)
MUSEUM_COLS = 8
STUDIO_UNIT = 44
MUSEUM_UNIT = 52

# Warm table: a wooden table top, cream boards, sand squares.
TABLE: pal.RGB = (205, 186, 158)
BOARD: pal.RGB = (250, 244, 232)
BOARD_EDGE: pal.RGB = (168, 146, 114)
SQUARE: pal.RGB = (232, 220, 196)
MUSEUM_SQUARE: pal.RGB = (216, 204, 182)


def text_size(c: int) -> int:
    return max(15, round(0.52 * c))


def pad_of(c: int) -> int:
    return max(7, round(0.26 * c))


# --- sizes -----------------------------------------------------------------------------


def _board(c: int) -> tuple[int, int]:
    w, h, _lab, _head = board_size(c, WORKROOM_SIZE, WORKROOM_SIZE)
    return w, h


def row_h(c: int) -> int:
    """A row of standing dice (storeroom, completed cards)."""
    return cube_height(c) + 2 * cam(c).R


HEAD = 1.5  # a player panel's name and points lines, in die sizes
SIDE = 3.7  # the storeroom and cards column beside the boards ("side" panels), in die sizes
EXTRA_ROWS = {"tall": 3, "wide": 2, "side": 0}


def panel_width(c: int, kind: str = "tall") -> int:
    """A player panel: boards one above the other ("tall", the storeroom and cards under
    them), the same with the storeroom and cards beside them ("side"), or the boards side
    by side ("wide": the studio close-up, landscape like the preview box)."""
    bw, _bh = _board(c)
    p = pad_of(c)
    if kind == "wide":
        return 2 * p + 2 * bw + p
    if kind == "side":
        return 2 * p + bw + p + round(SIDE * c)
    return 2 * p + bw


def panel_height(c: int, kind: str = "tall") -> int:
    p = pad_of(c)
    _bw, bh = _board(c)
    rooms = bh if kind == "wide" else 2 * bh + p // 2
    extras = round(0.6 * c) + EXTRA_ROWS[kind] * (row_h(c) + 3) if EXTRA_ROWS[kind] else -p
    return p + round(HEAD * c) + rooms + p + extras + p


def room_origins(rect: Rect, c: int, kind: str) -> list[tuple[int, int]]:
    p = pad_of(c)
    bw, bh = _board(c)
    x, y = rect[0] + p, rect[1] + p + round(HEAD * c)
    if kind == "wide":
        return [(x, y), (x + bw + p, y)]
    return [(x, y), (x, y + bh + p // 2)]


def extras_box(rect: Rect, c: int, kind: str) -> Rect:
    """Where the storeroom, storage and completed cards go in a panel."""
    p = pad_of(c)
    bw, bh = _board(c)
    x0, y0, x1, y1 = rect
    if kind == "side":
        return (x0 + p + bw + p, y0 + p + round(HEAD * c), x1 - p, y1 - p)
    top = room_origins(rect, c, kind)[-1][1] + bh + p // 2
    return (x0 + p, top, x1 - p, y1 - p)


def column_width(c: int) -> int:
    return 2 * pad_of(c) + round(0.5 * c) + MUSEUM_COLS * c


def artist_height(c: int) -> int:
    return round(0.9 * c) + 2 * round(0.6 * c) + row_h(c) + pad_of(c)


def offer_height(c: int) -> int:
    return 2 * round(0.5 * c) + plan_box(c)[1] + round(0.62 * c) + pad_of(c) + 8


def plan_box(c: int) -> tuple[int, int]:
    q = plan_unit(c)
    return (4 * q, 4 * cam(q).P + 3 * cam(q).LH)


def plan_unit(c: int) -> int:
    return max(10, round(0.42 * c))


def museum_height(c: int, cols: int, rows: int) -> int:
    return 2 * pad_of(c) + round(1.3 * c) + board_size(c, cols, rows)[1]


def header_layout(width: int, c: int) -> tuple[int, int, int]:
    """(height, recap cube size, status font size): the recap's numerals and the status
    line PHONE_GLYPH px tall once the picture is shrunk to a phone's width."""
    scale = phone_scale(width)
    cb = max(c, math.ceil(PHONE_GLYPH / scale / 0.64) + 1)
    size = max(text_size(c) + 4, math.ceil(PHONE_GLYPH / scale / 0.72) + 1)
    p = pad_of(c)
    return (p + max(cube_height(cb) + 2 * cam(cb).R, round(size * 1.25)) + round(0.72 * c) + p, cb, size)


def panel_kind(num_players: int) -> str:
    """Two players: the storeroom beside the boards (the table is wider than tall, as the
    preview box); three and four: under them."""
    return "side" if num_players <= 2 else "tall"


def layout(num_players: int, c: int, museum: tuple[int, int] = (MUSEUM_COLS, MUSEUM_SIZE)) -> dict[str, Rect]:
    mcols, mrows = museum
    m = pad_of(c)
    g = round(0.24 * c)
    rects: dict[str, Rect] = {}
    kind = panel_kind(num_players)
    pw, ph = panel_width(c, kind), panel_height(c, kind)
    cw = column_width(c)
    width = 2 * m + num_players * (pw + g) + cw
    head_h = header_layout(width, c)[0]
    rects["header"] = (m, m, width - m, m + head_h)
    top = m + head_h + g
    for seat in range(num_players):
        x = m + seat * (pw + g)
        rects[f"player p{seat + 1}"] = (x, top, x + pw, top + ph)
    x = m + num_players * (pw + g)
    column_bottom = table_column(
        rects, x, top, cw, g, museum_height(c, mcols, mrows), artist_height(c), offer_height(c)
    )
    bottom = max(top + ph, column_bottom) + m
    rects["table"] = (0, 0, width, bottom)
    return rects


def museum_dims(card: MuseumCard) -> tuple[int, int]:
    x0, y0, x1, y1 = museum_box(card)
    return (x1 - x0 + 1, y1 - y0 + 1)


def glyph_px(c: int) -> int:
    f = value_font(c)
    box = f.getbbox("4", anchor="mm")
    return int(box[3] - box[1])


@lru_cache(maxsize=32)
def unit(num_players: int, museum: tuple[int, int] = (MUSEUM_COLS, MUSEUM_SIZE)) -> int:
    """The die size: the smallest whose numerals reach the goal at the laptop preview,
    else the one that comes closest."""
    goal = MIN_GLYPH_4P if num_players >= 4 else MIN_GLYPH
    best, best_px = UNITS[0], 0.0
    for c in UNITS:
        _x, _y, w, h = layout(num_players, c, museum)["table"]
        px = glyph_px(c) * preview_scale(w, h)
        if px >= goal:
            return c
        if px > best_px + 0.05:
            best, best_px = c, px
    return best


def preview_glyph(num_players: int, museum: tuple[int, int]) -> float:
    c = unit(num_players, museum)
    _x, _y, w, h = layout(num_players, c, museum)["table"]
    return glyph_px(c) * preview_scale(w, h)


# --- players ---------------------------------------------------------------------------


def mark_centre(rect: Rect, c: int) -> tuple[int, int]:
    return (rect[0] + pad_of(c) + round(0.26 * c), rect[1] + pad_of(c) + round(0.3 * c))


def player_frame(cv: Canvas, seat: int, rect: Rect, c: int, kind: str = "tall") -> None:
    pname = f"player p{seat + 1}"
    cv.panel(pname, rect, fill=BOARD, outline=BOARD_EDGE, width=2)
    layer = board_layer(c, WORKROOM_SIZE, WORKROOM_SIZE, None, floor=SQUARE, background=BOARD)
    dx, dy, r = room_disc(c)
    for room, (x, y) in enumerate(room_origins(rect, c, kind)):
        cv.layer(layer, (x, y), pname)
        # the workroom's own number in a dark disc (a board's number, not a code)
        cx, cy = x + dx, y + dy
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pal.INK)
        cv.text((cx, cy + 1), str(room + 1), font(round(r * 1.4), bold=True), BOARD, anchor="mm", parent=pname)


def _level(name: str) -> str:
    """A computer player's level: the parenthesis ending its name ("greedy"), or ""."""
    if name.endswith(")") and "(" in name:
        return name[name.rfind("(") + 1 : -1].strip()
    return ""


def draw_player(
    cv: Canvas,
    game: Game,
    seat: int,
    rect: Rect,
    names: list[str] | None,
    hl: Highlights,
    c: int,
    labels: Labels,
    kind: str = "tall",
) -> None:
    s = game.state
    pl = s.players[seat]
    x0, y0, x1, _y1 = rect
    p = pad_of(c)
    pname = f"player p{seat + 1}"
    current = seat == s.current and not s.over and not pl.removed
    winner = s.over and seat in game.winners()
    colour = pal.die_colour(seat)
    if current or winner:
        cv.draw.rounded_rectangle(
            (x0, y0, x1, y0 + round(HEAD * c) - 2),
            radius=12,
            fill=pal.mix(colour, BOARD, 0.68),
            corners=(True, True, False, False),
        )
        cv.draw.rounded_rectangle(rect, radius=12, outline=colour, width=max(3, c // 7))
    ts = text_size(c)
    r = round(0.26 * c)
    mx, ly = mark_centre(rect, c)
    dice.draw_mark(cv.draw, pal.MARKS[seat % 4], mx, ly, r, fill=colour, outline=pal.INK, width=2)
    name = player_name(seat, names)
    level = _level(name)
    room = x1 - p - (x0 + p + 2 * r + 8)
    text, f = fit_name(plain_name(name) if level else name, font(ts + 2, bold=True), room)
    cv.text((x0 + p + 2 * r + 8, ly), text, f, pal.player_ink(seat), anchor="lm", parent=pname)
    ly2 = y0 + p + round(1.05 * c)
    sr = cv.text(
        (x1 - p, ly2),
        labels.text("points", points=game.score(seat)),
        font(ts, bold=True),
        pal.INK,
        anchor="rm",
        parent=pname,
    )
    tag_key = "left" if pl.removed else "to_play" if current else "winner" if winner else ""
    tag = labels.text(tag_key) if tag_key else level  # a computer's level, apart from its name
    tf = font(ts if tag_key else ts - 2, bold=bool(tag_key))
    if tag:
        cv.text(
            (x0 + p, ly2),
            tag,
            tf,
            pal.INK if tag_key else pal.MUTED,
            anchor="lm",
            max_width=sr[0] - x0 - 2 * p,
            parent=pname,
        )
    # workrooms
    origins = room_origins(rect, c, kind)
    for room_i, xy in enumerate(origins):
        cols: dict[tuple[int, int], Column] = {}
        for cell, (value, height) in pl.workrooms[room_i].items():
            yy, xx = divmod(cell, WORKROOM_SIZE)
            cols[(xx, yy)] = (seat, value, height, (seat, room_i, cell) in hl.workroom)
        draw_structure(cv, xy, c, cols, functools.partial(_cell_name, f"p{seat + 1} w{room_i + 1}"))
    draw_extras(cv, game, seat, extras_box(rect, c, kind), hl, c, labels)


def _cell_name(prefix: str, x: int, y: int) -> str:
    return f"{prefix} {LETTERS[x]}{y + 1}"


def draw_extras(cv: Canvas, game: Game, seat: int, box: Rect, hl: Highlights, c: int, labels: Labels) -> None:
    """``write_extras`` for the player at ``seat``."""
    s = game.state
    pl = s.players[seat]
    pname = f"player p{seat + 1}"

    def put_die(xy: tuple[int, int], value: int, place: str) -> None:
        paste_cube(cv, xy, c, seat, value, where=f"p{seat + 1} {place}")

    def put_chip(i: int, rect: Rect, lit: bool) -> None:
        cv.panel(
            f"{pname} i{i + 1}",
            rect,
            fill=pal.CARD,
            outline=pal.HIGHLIGHT_EDGE if lit else pal.CARD_EDGE,
            width=3 if lit else 2,
            radius=6,
            parent=pname,
        )

    write_extras(
        cv.within(pname),
        put_die,
        put_chip,
        seat,
        box,
        c,
        labels,
        pl.supply,
        pl.storeroom,
        s.pool if seat == s.current else [],
        pl.storage,
        [(game.deck.installation(comp.card).points, comp.dice) for comp in pl.completed],
        [i for i in range(len(pl.completed)) if (seat, i) in hl.completed],
    )


def write_extras(
    w: Writes,
    put_die: Callable[[tuple[int, int], int, str], None],
    put_chip: Callable[[int, Rect, bool], None],
    seat: int,
    box: Rect,
    c: int,
    labels: Labels,
    supply: int,
    storeroom: Sequence[int],
    pool: Sequence[int],
    storage: Sequence[int],
    completed: Sequence[tuple[int, Sequence[int | None]]],
    lit: Container[int],
) -> None:
    """The storeroom, storage space (and the current player's abandoned dice, ``pool``),
    then the completed installations (their points, "5 pts", with the bonus dice left on
    them; ``lit``: those the last turns completed), flowed in rows of standing dice.
    ``put_die`` draws a die (its top face's corner, its value, where it is: "storeroom",
    "abandoned", "storage", "i2.1"); ``put_chip`` a completed installation's chip (its
    index, its box, lit)."""
    x0, y0, x1, _y1 = box
    small = font(max(13, round(0.42 * c)))
    store, supply_text = labels.text("storeroom"), labels.text("supply", count=supply)
    lr = w.text((x0, y0), store, small, pal.MUTED, anchor="la", max_width=x1 - x0)
    y = y0
    if lr[2] + 8 + text_width(small, supply_text) > x1:  # a narrow column: the supply under it
        y += round(0.5 * c)
    w.text((x1, y), supply_text, small, pal.MUTED, anchor="ra")
    g = cam(c)
    rh = row_h(c) + 3
    x, y = x0, y + round(0.6 * c)
    row: list[tuple[int, str]] = [(v, "storeroom") for v in storeroom]
    row += [(v, "abandoned") for v in pool]
    row += [(v, "storage") for v in storage]
    step = c + 2
    for i, (v, kind) in enumerate(row):
        if kind == "storage" and (i == 0 or row[i - 1][1] != "storage"):
            word = labels.text("storage")
            if x + text_width(small, word) + step > x1 and x > x0:
                x, y = x0, y + rh
            x = w.text((x, y + g.R + cube_height(c) // 2), word, small, pal.MUTED, anchor="lm")[2] + 4
        if x + c > x1 + 2 and x > x0:
            x, y = x0, y + rh
        put_die((x, y + g.R), v, kind)
        x += step
    if not row:
        w.text((x0, y + rh // 2), "–", small, pal.MUTED, anchor="lm")
    x, y = x0, y + rh
    chip_f = font(max(13, round(0.42 * c)), bold=True)
    if not completed:  # on two lines where the column is narrow (4 players)
        lines = wrap(labels.text("no_completed"), small, x1 - x0, 2)
        lstep = round(small.size * 1.15)
        for k, line in enumerate(lines):
            ly = y + rh // 2 - (len(lines) - 1) * lstep // 2 + k * lstep
            w.text((x0, ly), line, small, pal.MUTED, anchor="lm", max_width=x1 - x0)
    for i, (points, on_card) in enumerate(completed):
        label = labels.text("points", points=points)  # its bonus dice follow, as cubes
        lw = round(text_width(chip_f, label)) + 10
        left = [v for v in on_card if v is not None]
        width = lw + len(left) * (c + 2) + 4
        if x + width > x1 and x > x0:
            x, y = x0, y + rh
        ch = row_h(c)
        put_chip(i, (x, y, x + width, y + ch), i in lit)
        w.text((x + 5, y + ch // 2), label, chip_f, pal.player_ink(seat), anchor="lm")
        dx = x + lw
        for k, bonus in enumerate(on_card):
            if bonus is None:
                continue
            put_die((dx, y + g.R), bonus, f"i{i + 1}.{k + 1}")
            dx += c + 2
        x += width + 6


# --- museum ----------------------------------------------------------------------------


def _museum_origin(card: MuseumCard, rect: Rect, c: int) -> tuple[int, int]:
    x0, y0, x1, y1 = rect
    p = pad_of(c)
    cols, rows = museum_dims(card)
    gw, gh, _lab, _head = board_size(c, cols, rows)
    top = y0 + p + round(1.3 * c)
    return (x0 + (x1 - x0 - gw) // 2, top + max(0, (y1 - p - top - gh) // 2))


def museum_frame(cv: Canvas, card: MuseumCard, rect: Rect, c: int, labels: Labels, name: str = "museum") -> None:
    x0, y0, x1, _y1 = rect
    p = pad_of(c)
    cv.panel(name, rect, fill=BOARD, outline=BOARD_EDGE)
    ts = text_size(c)
    tr = cv.text((x0 + p, y0 + p), labels.text("museum"), font(ts, bold=True), pal.INK, anchor="la", parent=name)
    title, f = fit_name(labels.museum(card), font(max(13, ts - 3)), x1 - x0 - 2 * p)
    cv.text((x0 + p, tr[3] + round(0.12 * c)), title, f, pal.MUTED, anchor="la", parent=name)
    bx0, by0, _bx1, _by1 = museum_box(card)
    cols, rows = museum_dims(card)
    cells = frozenset((x, y) for x, y, _h in card.cells)
    layer = board_layer(c, cols, rows, cells, bx0, by0, floor=MUSEUM_SQUARE, background=BOARD)
    cv.layer(layer, _museum_origin(card, rect, c), name)


def draw_museum(
    cv: Canvas, game: Game, rect: Rect, hl: Highlights, c: int, labels: Labels, name: str = "museum"
) -> None:
    s = game.state
    card = game.deck.museum(s.museum_card)
    p = pad_of(c)
    heights = game.museum_heights()
    museum_count(cv, game, rect, p, text_size(c), labels, name)
    bx0, by0, _bx1, _by1 = museum_box(card)
    cols: dict[tuple[int, int], Column] = {}
    ghosts: dict[tuple[int, int], int] = {}
    for cell, want in heights.items():
        y, x = divmod(cell, MUSEUM_SIZE)
        ghosts[(x, y)] = want
    for cell, col in s.museum.items():
        y, x = divmod(cell, MUSEUM_SIZE)
        top = col.owners[-1] if col.owners else CORNERSTONE
        key: int | str = pal.CORNER_KEY if top == CORNERSTONE else top
        cols[(x, y)] = (key, col.value, max(1, len(col.owners)), cell in hl.museum)
    draw_structure(
        cv,
        _museum_origin(card, rect, c),
        c,
        cols,
        lambda x, y: f"museum {LETTERS[x]}{y + 1}",
        ghosts=ghosts,
        first_col=bx0,
        first_row=by0,
    )


# --- cards -----------------------------------------------------------------------------


def draw_artist(cv: Canvas, game: Game, i: int, rect: Rect, hl: Highlights, c: int, labels: Labels) -> None:
    s = game.state
    band = round(0.9 * c)
    if not artist_band(cv, game, i, rect, c, band, text_size(c), labels):
        return
    card = game.artist_card(i)
    assert card is not None
    g = cam(c)
    slot = s.artists[i]
    for k, (dx, dy) in enumerate(write_artist(cv.within(f"artist {i + 1}"), card, rect, c, band, labels)):
        if k < slot.count and slot.owner is not None:
            paste_cube(cv, (dx, dy), c, slot.owner, slot.value, where=f"artist {i + 1}", lit=i in hl.artists)
        else:
            cv.paste(empty_place(c), (dx - g.R, dy - g.R))


def write_artist(w: Writes, card: ArtistCard, rect: Rect, c: int, band: int, labels: Labels) -> list[tuple[int, int]]:
    """An artist card under its band: what the artist does, on up to two lines; returns the
    places of the dice it takes along its foot (each one's top face's top-left corner)."""
    x0, y0, x1, y1 = rect
    p = pad_of(c)
    af = font(max(13, round(0.46 * c)))
    for k, line in enumerate(wrap(action_text(card, labels), af, x1 - x0 - 2 * p + 4, 2)):
        w.text((x0 + p - 2, y0 + band + 3 + k * round(0.6 * c)), line, af, pal.INK, anchor="la")
    dy = y1 - p // 2 - cube_height(c) - cam(c).R
    return [(x0 + p + k * (c + 2), dy) for k in range(card.dice)]


@lru_cache(maxsize=256)
def plan_layer(cells: tuple[tuple[int, int, int], ...], q: int) -> Image.Image:
    """An installation's plan as small columns of plan cubes (heights by stacking and a
    figure on top), fitted in plan_box."""
    g = cam(q)
    img = Image.new("RGBA", (4 * q, 4 * g.P + 3 * g.LH), (0, 0, 0, 0))
    for x, y, hh in plan_spots(cells, q):
        img.alpha_composite(column(q, pal.PLAN_KEY, hh, hh, g.LH, False, "none").image, (x, y))
    return img


def plan_spots(cells: tuple[tuple[int, int, int], ...], q: int) -> list[tuple[int, int, int]]:
    """Where plan_layer's columns go, back to front: each one's sprite corner (its top
    face's top-left less the ring margin ``cam(q).R``) in plan_box, and its height."""
    xs = [x for x, _y, _h in cells]
    ys = [y for _x, y, _h in cells]
    g = cam(q)
    bw, bh = 4 * q, 4 * g.P + 3 * g.LH
    w = (max(xs) - min(xs) + 1) * q
    rows = max(ys) - min(ys) + 1
    top = max(h for _x, _y, h in cells)
    h = rows * g.P + (top - 1) * g.LH
    ox, oy = (bw - w) // 2, (bh - h) // 2 + (top - 1) * g.LH
    spots = []
    for x, y, hh in sorted(cells, key=lambda t: (t[1], t[0])):
        px = ox + (x - min(xs)) * q - g.R + g.FM
        py = oy + (y - min(ys) + 1) * g.P - g.FM - hh * g.LH - g.K - g.R
        spots.append((max(0, px), max(0, py), hh))
    return spots


def draw_offer(cv: Canvas, game: Game, i: int, rect: Rect, c: int, labels: Labels) -> None:
    p = pad_of(c) // 2 + 2
    ts = text_size(c)
    card = offer_frame(cv, game, i, rect, ts, labels)
    if card is None:
        return
    on_card = cv.within(f"offer {i + 1}")
    top = offer_title(on_card, card, rect, p, c, ts, labels)
    plan = plan_layer(tuple(sorted(card.cells)), plan_unit(c))
    cv.paste(plan, plan_corner(rect, top, plan.size, p, c))
    offer_bonus(on_card, card, rect, p, c, bonus_sizes(c), labels)


def plan_corner(rect: Rect, top: int, size: tuple[int, int], p: int, c: int) -> tuple[int, int]:
    """Where an offered installation's plan (``size``: plan_box) goes: centred across the
    card and between its title (ending at ``top``) and its bonus line."""
    x0, _y0, x1, y1 = rect
    bw, bh = size
    bottom = y1 - p - round(0.5 * c)
    return (x0 + (x1 - x0 - bw) // 2, top + max(0, (bottom - top - bh) // 2))


def bonus_sizes(c: int) -> tuple[int, ...]:
    """The sizes an offered installation's bonus line may take, the largest first."""
    return (round(0.48 * c), round(0.42 * c), round(0.36 * c), max(10, round(0.32 * c)))


# --- header ----------------------------------------------------------------------------

Recap = tuple[int, str, tuple[tuple[int | str, int, int], ...]]  # seat, where, dice (key, value, height)


def recap(game: Game, labels: Labels) -> list[Recap]:
    """The dice the last turn (and this one, so far) placed that are still there, in the
    order they came, grouped by where they went: ("①", …), the museum, an artist."""
    s = game.state
    hl = highlights(game)
    turns = recent_turns(game)
    out: list[Recap] = []
    seen: set[tuple[str, int, int]] = set()
    for seat, moves in turns:
        if not 0 <= seat < len(s.players):
            continue
        for played in moves:
            m = played.move
            where, die = "", None
            if isinstance(m, Place | UseArtist):
                target = (m.room, m.cell) if isinstance(m, Place) else m.target
                if target is None or (seat, target[0], target[1]) not in hl.workroom:
                    continue
                if ("w", seat * 2 + target[0], target[1]) in seen:
                    continue
                seen.add(("w", seat * 2 + target[0], target[1]))
                value, height = s.players[seat].workrooms[target[0]][target[1]]
                where, die = circled(target[0] + 1), (seat, value, height)
            elif isinstance(m, ToMuseum):
                col = s.museum.get(m.cell)
                if col is None or m.cell not in hl.museum or ("m", 0, m.cell) in seen:
                    continue
                seen.add(("m", 0, m.cell))
                where, die = labels.text("museum"), (seat, col.value, max(1, len(col.owners)))
            elif isinstance(m, ToArtist):
                slot = s.artists[m.slot]
                card = game.artist_card(m.slot)
                if card is None or m.slot not in hl.artists or slot.owner is None:
                    continue
                where = labels.artist_short(card)
                for _ in range(slot.count):
                    out.append((seat, where, ((slot.owner, slot.value, 1),)))
                continue
            if die is None:
                continue
            if out and out[-1][0] == seat and out[-1][1] == where:
                out[-1] = (seat, where, (*out[-1][2], die))
            else:
                out.append((seat, where, (die,)))
    # merge an artist's dice given one by one above
    merged: list[Recap] = []
    for item in out:
        if merged and merged[-1][0] == item[0] and merged[-1][1] == item[1]:
            merged[-1] = (item[0], item[1], (*merged[-1][2], *item[2]))
        else:
            merged.append(item)
    return merged


PutDie = Callable[[tuple[int, int], int, int | str, int, int, str], None]
"""Draws a loose die, lit: its top face's top-left corner, its size, its key and value, the
height of the column it made (1 for a die on the floor) and where it went (a recap's
words)."""


def draw_header(cv: Canvas, game: Game, rect: Rect, names: list[str] | None, c: int, labels: Labels) -> None:
    def put_die(xy: tuple[int, int], cb: int, key: int | str, value: int, height: int, where: str) -> None:
        paste_cube(cv, xy, cb, key, value, where=f"recap {where}", height=1, lit=True, record=cv.recap)
        if height >= 2:  # the column's height after it (a die placed on a column of 2 makes 3)
            cv.recap[-1] = _with_height(cv.recap[-1], height)

    cv.status = write_header(cv.within("header"), put_die, game, rect, cv.size[0], names, c, labels)


def write_header(
    w: Writes,
    put_die: PutDie,
    game: Game,
    rect: Rect,
    width: int,
    names: list[str] | None,
    c: int,
    labels: Labels,
) -> Rect:
    """The header of a table ``width`` px wide: whose turn it is, the last turn's dice again
    (large), the last turn in words; returns the "whose turn" line's box."""
    x0, y0, x1, y1 = rect
    s = game.state
    p = pad_of(c)
    _h, cb, size = header_layout(width, c)
    row_top = y0 + p // 2
    row = max(cube_height(cb) + 2 * cam(cb).R, round(size * 1.25))
    mid = row_top + row // 2
    ink = pal.INK if s.over else pal.player_ink(s.current)
    room = x1 - x0 - 2 * p
    # whose turn, at the phone's size; the recap takes what is left (at least two dice)
    most = room - 2 * (cb + 4) - 3 * p
    status, f = _fitting(lambda n: status_line(game, n, labels), names, (size,), min(room * 0.55, most))
    sr = w.text((x0 + p, mid), status, f, ink, anchor="lm", max_width=most)
    write_recap(w, put_die, game, names, labels, (sr[2] + 2 * p, row_top, x1 - p, row_top + row), cb, size)
    # the last turn in words, one line, for the laptop reader
    ts = text_size(c)
    line, lf = _fitting(lambda n: last_turn_line(game, n, labels), names, (ts, ts - 2, ts - 3), room, bold=False)
    info = labels.count("header", len(s.installation_deck), turn=s.turn + 1)
    inf = font(ts - 3)
    lr = w.text((x0 + p, y1 - p // 2), line, lf, pal.INK, anchor="ld", max_width=room)
    if text_width(inf, info) <= x1 - p - lr[2] - 3 * p:
        w.text((x1 - p, y1 - p // 2), info, inf, pal.MUTED, anchor="rd")
    return sr


def write_recap(
    w: Writes,
    put_die: PutDie,
    game: Game,
    names: list[str] | None,
    labels: Labels,
    box: Rect,
    cb: int,
    size: int,
) -> None:
    """The last turn's dice, large, right-aligned in ``box``: "Bruno: [4][4] → ①  [5] → Museum"."""
    items = recap(game, labels)
    if not items:
        return
    bx0, by0, bx1, by1 = box
    f = font(round(size * 0.8), bold=True)
    seat = items[0][0]
    who = plain_name(player_name(seat, names)).split()[0] + ":"

    # measure; when it does not fit: without the name, then without the words (the dice
    # are outlined where they went), then the earliest dice give way to the latest
    def width_of(its: list[Recap], with_name: bool, words: bool) -> float:
        w = text_width(f, who) + 10 if with_name else 0.0
        for _seat, where, dice_ in its:
            w += len(dice_) * (cb + 4) + (text_width(f, f"→ {where}") + 24 if words else 12)
        return w

    shown = list(items)
    with_name, words = True, True
    while shown and width_of(shown, with_name, words) > bx1 - bx0:
        if with_name:
            with_name = False
        elif words:
            words = False
        else:
            shown = shown[1:]
    if not shown:
        return
    mid = (by0 + by1) // 2
    x = bx1 - width_of(shown, with_name, words)
    if with_name:
        r = w.text((x, mid), who, f, pal.player_ink(seat), anchor="lm")
        x = r[2] + 10
    top = mid - cube_height(cb) // 2
    for _seat, where, dice_ in shown:
        for key, value, height in dice_:
            put_die((round(x), top), cb, key, value, height, where)
            x += cb + 4
        if words:
            r = w.text((x + 2, mid), f"→ {where}", f, pal.INK, anchor="lm")
            x = r[2] + 24
        else:
            x += 12


def _with_height(d: DieGlyph, height: int) -> DieGlyph:
    return dataclasses.replace(d, height=height)


# --- the table -------------------------------------------------------------------------


@lru_cache(maxsize=16)
def table_frame(num_players: int, museum: MuseumCard, c: int, labels: Labels) -> tuple[Image.Image, tuple[Box, ...]]:
    rects = layout(num_players, c, museum_dims(museum))
    _x, _y, w, h = rects["table"]
    cv = Canvas(w, h, TABLE)
    cv.panel("header", rects["header"], fill=BOARD, outline=BOARD_EDGE)
    museum_frame(cv, museum, rects["museum"], c, labels)
    for seat in range(num_players):
        player_frame(cv, seat, rects[f"player p{seat + 1}"], c, panel_kind(num_players))
    return cv.freeze()


def table_canvas(game: Game, names: list[str] | None = None, *, labels: Labels) -> Canvas:
    n = game.num_players
    card = game.deck.museum(game.state.museum_card)
    dims = museum_dims(card)
    c = unit(n, dims)
    rects = layout(n, c, dims)
    cv = Canvas(0, 0, TABLE, base=table_frame(n, card, c, labels))
    hl = highlights(game)
    draw_header(cv, game, rects["header"], names, c, labels)
    draw_museum(cv, game, rects["museum"], hl, c, labels)
    for i in range(4):
        draw_artist(cv, game, i, rects[f"artist {i + 1}"], hl, c, labels)
    for i in range(3):
        draw_offer(cv, game, i, rects[f"offer {i + 1}"], c, labels)
    for seat in range(n):
        draw_player(cv, game, seat, rects[f"player p{seat + 1}"], names, hl, c, labels, panel_kind(n))
    return cv


def needs_studio(game: Game) -> bool:
    """True when the table's numerals cannot reach MIN_GLYPH at the laptop preview (4
    players): the bot posts the current player's studio beside it."""
    card = game.deck.museum(game.state.museum_card)
    return preview_glyph(game.num_players, museum_dims(card)) < MIN_GLYPH


# --- close-ups ---------------------------------------------------------------------------


def studio_canvas(
    game: Game, seat: int, names: list[str] | None = None, *, labels: Labels, marks: Marks | None = None
) -> Canvas:
    """One player's studio, the two boards side by side; ``marks``: the turn panel's letters
    on the cells it offers (a letter on an empty square, a tag beside a column's numeral)."""
    c = STUDIO_UNIT
    size, rect = studio_box(game, seat)
    cv = Canvas(*size, TABLE)
    player_frame(cv, seat, rect, c, "wide")
    draw_player(cv, game, seat, rect, names, highlights(game), c, labels, "wide")
    if marks:
        draw_marks(cv, seat, rect, c, marks)
    return cv


def studio_box(game: Game, seat: int) -> tuple[tuple[int, int], Rect]:
    """A studio close-up's size and its player panel's box (at STUDIO_UNIT, "wide")."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat} in a {game.num_players}-player game")
    m = pad_of(STUDIO_UNIT)
    pw, ph = panel_width(STUDIO_UNIT, "wide"), panel_height(STUDIO_UNIT, "wide")
    return (pw + 2 * m, ph + 2 * m), (m, m, m + pw, m + ph)


def draw_marks(cv: Canvas, seat: int, rect: Rect, c: int, marks: Marks) -> None:
    g = cam(c)
    _w, _h, lab, head = board_size(c, 1, 1)
    origins = room_origins(rect, c, "wide")
    tops = {d.where: d for d in cv.dice}
    for (room, cell), letter in sorted(marks.items()):
        gx, gy = origins[room]
        y, x = divmod(cell, WORKROOM_SIZE)
        where = f"p{seat + 1} w{room + 1} {LETTERS[x]}{y + 1}"
        d = tops.get(where)
        if d is not None:  # a tag on the column's left side, beside the numeral
            size = round(c * 0.46)
            bx, by = d.cell[0] - size + 4, d.cell[1] + (d.cell[3] - d.cell[1] - size) // 2
        else:  # the whole square
            size = c - 2 * g.FM - 4
            bx = gx + lab + x * c + g.FM + 2
            by = gy + head + (y + 1) * g.P - g.FM - g.LH - g.K + (g.K + g.LH - size) // 2
        box = (bx, by, bx + size, by + size)
        cv.draw.rounded_rectangle(
            box, radius=max(3, size // 5), fill=pal.HIGHLIGHT, outline=pal.HIGHLIGHT_EDGE, width=2
        )
        f = font(round(size * 0.66), bold=True)
        cv.text((bx + size / 2, by + size / 2 + 1), letter, f, pal.INK, anchor="mm", parent=f"mark {letter}")


def museum_canvas(game: Game, *, labels: Labels) -> Canvas:
    c = MUSEUM_UNIT
    card = game.deck.museum(game.state.museum_card)
    cols, rows = museum_dims(card)
    gw, _gh, _lab, _head = board_size(c, cols, rows)
    p = pad_of(c)
    title = text_width(font(text_size(c), bold=True), labels.text("museum") + " " + labels.museum(card)) + 200
    w = max(gw + 2 * p, round(title)) + 2 * p
    h = museum_height(c, cols, rows) + 2 * p
    cv = Canvas(w, h, TABLE)
    rect = (p, p, w - p, h - p)
    museum_frame(cv, card, rect, c, labels)
    draw_museum(cv, game, rect, highlights(game), c, labels)
    return cv
