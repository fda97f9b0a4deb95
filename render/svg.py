"""The table and a studio as SVG, for the web board: the high camera's pictures in vectors.

    svg = render.svg.table_svg(game, names, labels=labels)
    svg = render.svg.studio_svg(game, seat, names, labels=labels)

Same layout model as the PNGs (render.isoboard: ``layout``, ``unit``, ``room_origins``,
``cam``...), step by step the same drawing (render.svgparts.Svg mirrors Canvas), so the
document's ``viewBox`` is the PNG's size and every cube stands where the PNG has it.

Hooks for the web page:
- every workroom cell is ``<g class="cell" data-cell="p{seat}.w{room}.{cell}">`` (0-based seat
  and room, cell as ``engine.moves.Place.cell``), every museum cell of the plan
  ``<g class="cell" data-cell="m.{cell}">`` (as ``engine.moves.ToMuseum.cell``): the cell's
  column (a ``<g class="die">``) or its empty square (``<rect class="sq">``, transparent),
  then, last, ``<rect class="ring">`` around its top face, shown when the group has the
  class ``glow``;
- ``<g class="artist" data-artist="{slot}">``, ``<g class="offer" data-offer="{i}">``,
  ``<g class="player" data-seat="{seat}">``; in a player's group, the dice a move can take
  carry ``data-die`` as the move notation names them (``engine.moves.DieRef``: "4" in the
  storeroom, "x4" abandoned, "i2.1" on a completed card);
- the root has ``role="img"`` and an ``aria-label`` (whose turn it is, from Labels).

Words come from ``labels`` only; colours from render.palette and scene.faces.  Pure: no
I/O, no randomness (same game, same text).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine import ArtistCard, Game, InstallationCard, MuseumCard, TurnRecord
from engine.geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE
from engine.state import CORNERSTONE

from . import dice, svgparts
from . import palette as pal
from .cardparts import artist_empty, band_colour, band_disc, band_texts, offer_bonus, offer_empty, offer_title
from .fonts import font
from .highlight import Highlights, highlights
from .isoboard import (
    BOARD,
    BOARD_EDGE,
    HEAD,
    MUSEUM_SQUARE,
    SQUARE,
    STUDIO_UNIT,
    TABLE,
    _level,
    _museum_origin,
    bonus_sizes,
    extras_box,
    layout,
    mark_centre,
    museum_dims,
    pad_of,
    panel_kind,
    plan_box,
    plan_corner,
    plan_spots,
    plan_unit,
    recap,
    room_origins,
    studio_box,
    text_size,
    unit,
    write_artist,
    write_extras,
    write_header,
)
from .labels import Labels
from .model import DieGlyph
from .names import fit_name, plain_name
from .pieces import museum_box
from .scene import TAG_FILL, board_size, cam, figure_zone, height_tag, level_height, room_disc
from .svgparts import (
    RING_PAD,
    Part,
    Rect,
    Svg,
    attr,
    cube,
    draw_cube,
    ghost_def,
    hexc,
    num,
    shadow_group,
    shadow_rect,
)
from .words import last_turn_line, player_name, status_line

Column = tuple[int | str, int, int, bool]  # colour key, value, height, lit
Columns = tuple[tuple[tuple[int, int], Column], ...]  # ((x, y), column), sorted
CellIds = tuple[str, int, str]  # the cells' data-cell prefix, row stride, and name prefix ("p1 w2", "museum")


def table_svg(game: Game, names: list[str] | None = None, *, labels: Labels) -> str:
    """The whole table (render.table_png's picture) as an SVG document."""
    t = table_pieces(game, names, labels=labels)
    return t.head + f"<style>{t.style}</style>" + t.defs + "".join(t.sections) + t.end


@dataclass(frozen=True, slots=True)
class TablePieces:
    """``table_svg`` in pieces: joined without ``style``, they are the document without its
    ``<style>`` element.  ``sections``: the background, then the header, the museum, each
    artist and offer card and each player, as drawn (a move changes a few of them: the web
    board sends a viewer only those)."""

    head: str
    style: str
    defs: str
    sections: list[str]
    end: str


def table_pieces(game: Game, names: list[str] | None = None, *, labels: Labels, this_turn: bool = True) -> TablePieces:
    """``table_svg`` in pieces; ``this_turn`` False: the header as the turn began (``draw_header``)."""
    n = game.num_players
    card = game.deck.museum(game.state.museum_card)
    dims = museum_dims(card)
    c = unit(n, dims)
    rects = _layout(n, c, dims)
    _x, _y, w, h = rects["table"]
    sv = Svg(w, h)
    marks: list[int] = []
    sv.rect((0, 0, w - 1, h - 1), fill=TABLE)
    hl = highlights(game)
    sv.rect(rects["header"], fill=BOARD, outline=BOARD_EDGE, width=2, radius=12)
    draw_header(sv, game, rects["header"], names, c, labels, this_turn=this_turn)
    marks.append(len(sv.body))
    draw_museum(sv, game, card, rects["museum"], hl, c, labels)
    marks.append(len(sv.body))
    for i in range(4):
        draw_artist(sv, game, i, rects[f"artist {i + 1}"], hl, c, labels)
        marks.append(len(sv.body))
    for i in range(3):
        draw_offer(sv, game, i, rects[f"offer {i + 1}"], c, labels)
        marks.append(len(sv.body))
    kind = panel_kind(n)
    for seat in range(n):
        draw_player(sv, game, seat, rects[f"player p{seat + 1}"], names, hl, c, labels, kind)
        marks.append(len(sv.body))
    head, defs, sections, end = sv.pieces(status_line(game, names, labels), marks)
    return TablePieces(head, sv.style(), defs, sections, end)


def studio_svg(game: Game, seat: int, names: list[str] | None = None, *, labels: Labels) -> str:
    """One player's studio, the boards side by side (render.studio_png's picture)."""
    size, rect = studio_box(game, seat)
    sv = Svg(*size)
    sv.rect((0, 0, sv.width - 1, sv.height - 1), fill=TABLE)
    draw_player(sv, game, seat, rect, names, highlights(game), STUDIO_UNIT, labels, "wide")
    label = player_name(seat, names) + " · " + labels.text("points", points=game.score(seat))
    return sv.document(label)


def part_caches() -> list[functools._lru_cache_wrapper[object]]:
    """The caches of drawn parts (all bounded; ``cache_clear`` on each draws afresh)."""
    return [
        _board_part,
        _loose_part,
        _structure_part,
        _figure_zone,
        _column_cell,
        _player_frame,
        _extras_part,
        _museum_part,
        _artist_part,
        _offer_part,
        svgparts.cube_part,
        svgparts._shadow,
        svgparts.class_name,
        svgparts._text_rule,
        svgparts._column_element,
        svgparts._ghost_element,
        svgparts._mark_element,
    ]


def clear_caches() -> None:
    """Forget every drawn part: the next drawing starts from nothing."""
    for cache in part_caches():
        cache.cache_clear()
    _HEADERS.clear()


# --- boards ----------------------------------------------------------------------------


def board_def(
    sv: Svg,
    ident: str,
    c: int,
    cols: int,
    rows: int,
    cells: frozenset[tuple[int, int]] | None,
    first_col: int = 0,
    first_row: int = 0,
    floor: pal.RGB = SQUARE,
) -> str:
    """scene.board_layer: the printed squares and the cell names at the edges, at (0, 0)."""
    if ident not in sv.defs:
        sv.paste(_board_part(ident, c, cols, rows, cells, first_col, first_row, floor))
    return ident


@functools.lru_cache(maxsize=32)
def _board_part(
    ident: str,
    c: int,
    cols: int,
    rows: int,
    cells: frozenset[tuple[int, int]] | None,
    first_col: int,
    first_row: int,
    floor: pal.RGB,
) -> Part:
    sv = Svg(0, 0)
    g = cam(c)
    _w, _h, lab, head = board_size(c, cols, rows)
    line = pal.mix(floor, (90, 66, 40), 0.3)
    alt = pal.mix(floor, line, 0.18)
    lf = font(max(11, round(0.42 * c)), bold=True)
    a_cells: list[str] = []
    b_cells: list[str] = []
    for j in range(rows):
        for i in range(cols):
            if cells is not None and (first_col + i, first_row + j) not in cells:
                continue
            (a_cells if (i + j) % 2 == 0 else b_cells).append(
                f"M{lab + i * c}.5 {head + j * g.P}.5h{c - 1}v{g.P - 1}h{1 - c}Z"
            )
    parts = [f'<g id="{ident}" stroke="{hexc(line)}">']
    if a_cells:
        parts.append(f'<path d="{"".join(a_cells)}" fill="{hexc(floor)}"/>')
    if b_cells:
        parts.append(f'<path d="{"".join(b_cells)}" fill="{hexc(alt)}"/>')
    body, sv.body = sv.body, []  # the labels' texts, with the document's type classes
    for j in range(rows):
        sv.text((lab / 2, head + j * g.P + g.P / 2), str(first_row + j + 1), lf, pal.MUTED, anchor="mm")
    for i in range(cols):
        sv.text(
            (lab + i * c + c / 2, head + rows * g.P + lab / 2 + 1), LETTERS[first_col + i], lf, pal.MUTED, anchor="mm"
        )
    parts.extend(sv.body)
    sv.body = body
    parts.append("</g>")
    sv.define(ident, "".join(parts))
    return sv.part()


def use_board(sv: Svg, ident: str, xy: tuple[int, int]) -> None:
    sv.add(f'<use href="#{ident}" x="{xy[0]}" y="{xy[1]}"/>')


def structure(
    sv: Svg,
    xy: tuple[int, int],
    c: int,
    columns: Columns,
    ids: CellIds,
    squares: tuple[tuple[int, int], ...],
    ghosts: tuple[tuple[tuple[int, int], int], ...] = (),
    first_col: int = 0,
    first_row: int = 0,
) -> None:
    """``draw_structure``, drawn once per place and content (``_structure_part``)."""
    sv.paste(_structure_part(xy, c, columns, ids, squares, ghosts, first_col, first_row))


@functools.lru_cache(maxsize=512)
def _structure_part(
    xy: tuple[int, int],
    c: int,
    columns: Columns,
    ids: CellIds,
    squares: tuple[tuple[int, int], ...],
    ghosts: tuple[tuple[tuple[int, int], int], ...],
    first_col: int,
    first_row: int,
) -> Part:
    sv = Svg(0, 0)
    draw_structure(
        sv, xy, c, dict(columns), ids, squares, ghosts=dict(ghosts), first_col=first_col, first_row=first_row
    )
    return sv.part()


@functools.lru_cache(maxsize=64)
def _figure_zone(c: int, lh: int) -> int:
    return figure_zone(c, lh)


def draw_structure(
    sv: Svg,
    xy: tuple[int, int],
    c: int,
    columns: Mapping[tuple[int, int], Column],
    ids: CellIds,
    squares: Iterable[tuple[int, int]],
    *,
    ghosts: Mapping[tuple[int, int], int] | None = None,
    first_col: int = 0,
    first_row: int = 0,
) -> list[DieGlyph]:
    """scene.draw_structure: the shadows, then every square of the board (``squares``) back
    to front as a ``cell`` group (its column or its empty square, then its ring); the
    height figures of columns whose front is hidden, as tags, after them.  Returns the dice
    drawn (their top faces as scene records them) when it tagged a height, else [].
    ``ids``: the cells' data-cell prefix ("p0.w1", "m"), the row stride of their numbers and
    their names' prefix ("p1 w2")."""
    g = cam(c)
    _w, _h, lab, head = board_size(c, 1, 1)
    ghosts = ghosts or {}
    heights = {cell: col[2] for cell, col in columns.items()}
    for cell, t in ghosts.items():
        heights[cell] = max(heights.get(cell, 0), t)
    lh = level_height(c, heights, first_row)
    prefix, stride, name = ids
    P, K, FM = g.P, g.K, g.FM
    left, back = xy[0] + lab - first_col * c, xy[1] + head - first_row * P

    def corner(x: int, y: int, height: int) -> tuple[int, int]:
        """The top face's top-left corner of a column of ``height`` at (x, y)."""
        return left + x * c + FM, back + (y + 1) * P - FM - height * lh - K

    order = sorted(set(squares) | set(columns), key=lambda cell: (cell[1], cell[0]))
    if columns:
        shadow_group(sv, c)
        for x, y in order:
            col = columns.get((x, y))
            if col is not None:
                shadow_rect(sv, corner(x, y, col[2]), c, col[2], lh)
        sv.close()
    zone = _figure_zone(c, lh)
    drawn: list[tuple[str, int, int, bool, Rect, Rect | None, int, int]] = []  # DieGlyphs, when asked
    hidden: list[int] = []
    add = sv.add
    for x, y in order:
        col = columns.get((x, y))
        target = ghosts.get((x, y), 0)
        height = col[2] if col is not None else 0
        cid = attr(f"{prefix}.{y * stride + x}")
        ghost = ""
        if target > height:
            gx, gy = corner(x, y, target)
            ghost = f'<use href="#{ghost_def(sv, c, target, lh)}" x="{gx}" y="{gy}"/>'
        if col is None:
            sx, sy = left + x * c, back + y * P
            add(
                f'<g class="cell" data-cell="{cid}">{ghost}<rect class="sq" x="{sx}" y="{sy}" width="{c}" '
                f'height="{P}"/><rect class="ring" x="{sx + RING_PAD}" y="{sy + RING_PAD}" '
                f'width="{c - 2 * RING_PAD}" height="{P - 2 * RING_PAD}" rx="4"/></g>'
            )
            continue
        key, value, height, lit = col
        figure = True
        front = columns.get((x, y + 1))
        if height >= 2 and front is not None:
            front_top = corner(x, y + 1, front[2])[1]
            if front_top < corner(x, y, height)[1] + K + zone:
                figure = False  # a tag beside its top face, after the structure
                hidden.append(len(drawn))
        tx, ty = corner(x, y, height)
        part, glyph, fig = _column_cell(cid, ghost, tx, ty, c, key, value, height, lh, lit, figure)
        sv.paste(part)
        drawn.append((name, x, y, lit, glyph, fig, tx, ty))
    if not hidden:
        return []
    dice_ = [
        _record(f"{who} {LETTERS[x]}{y + 1}", col[1], col[2], lit, glyph, fig, (tx, ty), c, lh)
        for who, x, y, lit, glyph, fig, tx, ty in drawn
        for col in (columns[(x, y)],)
    ]
    for i in hidden:
        dice_[i] = _tag_height(sv, c, dice_[i], dice_)
    return dice_


@functools.lru_cache(maxsize=4096)
def _column_cell(
    cid: str,
    ghost: str,
    tx: int,
    ty: int,
    c: int,
    key: int | str,
    value: int,
    height: int,
    lh: int,
    lit: bool,
    figure: bool,
) -> tuple[Part, Rect, Rect | None]:
    """A cell group holding a column: its ghost (``ghost``: the ``<use>``, or ""), the
    column, its ring; with the numeral's and the figure's ink boxes."""
    sv = Svg(0, 0)
    sv.add(f'<g class="cell" data-cell="{cid}">{ghost}')  # the ghost's def: the structure's
    glyph, fig = draw_cube(sv, (tx, ty), c, key, value, height, lh, lit=lit, figure=figure)
    ring(sv, (tx, ty), c)
    sv.close()
    return sv.part(), glyph, fig


def ring(sv: Svg, xy: tuple[float, float], c: int) -> None:
    g = cam(c)
    sv.add(
        f'<rect class="ring" x="{num(xy[0] - RING_PAD)}" y="{num(xy[1] - RING_PAD)}" width="{g.w + 2 * RING_PAD}" '
        f'height="{g.K + 2 * RING_PAD}" rx="{max(2, round(0.13 * c)) + RING_PAD}"/>'
    )


def _record(
    where: str,
    value: int,
    height: int,
    lit: bool,
    glyph: Rect,
    fig: Rect | None,
    xy: tuple[int, int],
    c: int,
    lh: int,
) -> DieGlyph:
    g = cam(c)
    x, y = xy
    top = (x, y, x + g.w, y + g.K)
    body = (x, y, x + g.w, y + g.K + max(1, height) * lh)
    return DieGlyph(where, value, height, glyph, top, body=body, height_box=fig, lit=lit)


def _tag_height(sv: Svg, c: int, die: DieGlyph, near: list[DieGlyph]) -> DieGlyph:
    """scene._tag_height: the height figure of a column whose front is hidden, as a small
    dark tag beside its top face where it covers no value (scene.height_tag)."""
    tag = height_tag(c, die, near)
    left, top = tag.left, tag.top
    sv.rect((left, top, left + tag.width - 1, top + tag.height - 1), fill=TAG_FILL, radius=4)
    r = sv.text(tag.centre, tag.text, tag.font, (255, 255, 255), anchor="mm")
    return DieGlyph(
        die.where,
        die.value,
        die.height,
        die.glyph,
        die.cell,
        body=die.body,
        height_box=r,
        lit=die.lit,
        height_over=True,
    )


def loose_cube(
    sv: Svg, xy: tuple[int, int], c: int, key: int | str, value: int, *, lit: bool = False, die: str = ""
) -> None:
    """scene.paste_cube: a loose die with its shadow, its top face's top-left at ``xy``."""
    sv.paste(_loose_part(xy[0], xy[1], c, key, value, lit, die))


@functools.lru_cache(maxsize=2048)
def _loose_part(x: int, y: int, c: int, key: int | str, value: int, lit: bool, die: str) -> Part:
    sv = Svg(0, 0)
    g = cam(c)
    shadow_group(sv, c)
    shadow_rect(sv, (x, y), c, 1, g.LH)
    sv.close()
    draw_cube(sv, (x, y), c, key, value, 1, g.LH, lit=lit, die=die)
    return sv.part()


def empty_place(sv: Svg, xy: tuple[int, int], c: int) -> None:
    """scene.empty_place: a recessed die place (artist cards), the top face's corner at ``xy``."""
    g = cam(c)
    x, y = xy
    sv.rect(
        (x, y + g.LH // 2, x + g.w - 1, y + g.K + g.LH - 1),
        fill=(90, 60, 30),
        opacity=22 / 255,
        outline=(150, 128, 98, 200),
        width=max(1, c // 18),
        radius=max(2, c // 7),
    )


# --- players ---------------------------------------------------------------------------


def draw_player(
    sv: Svg,
    game: Game,
    seat: int,
    rect: Rect,
    names: list[str] | None,
    hl: Highlights,
    c: int,
    labels: Labels,
    kind: str = "tall",
) -> None:
    """isoboard.player_frame and draw_player, in one ``player`` group: its frame, its two
    workrooms and its extras, each drawn once per place and content."""
    s = game.state
    pl = s.players[seat]
    current = seat == s.current and not s.over and not pl.removed
    winner = s.over and seat in game.winners()
    name = player_name(seat, names)
    sv.paste(_player_frame(seat, rect, c, kind, labels, name, current, winner, pl.removed, game.score(seat)))
    lit = hl.workroom
    for room_i, xy in enumerate(_room_origins(rect, c, kind)):
        cols = tuple(
            sorted(
                ((cell % WORKROOM_SIZE, cell // WORKROOM_SIZE), (seat, value, height, (seat, room_i, cell) in lit))
                for cell, (value, height) in pl.workrooms[room_i].items()
            )
        )
        ids = (f"p{seat}.w{room_i}", WORKROOM_SIZE, f"p{seat + 1} w{room_i + 1}")
        structure(sv, xy, c, cols, ids, _WORKROOM_SQUARES)
    completed = tuple((game.deck.installation(comp.card).points, tuple(comp.dice)) for comp in pl.completed)
    sv.paste(
        _extras_part(
            seat,
            _extras_box(rect, c, kind),
            c,
            labels,
            pl.supply,
            tuple(pl.storeroom),
            tuple(s.pool) if seat == s.current else (),
            tuple(pl.storage),
            completed,
            tuple(i for i in range(len(completed)) if (seat, i) in hl.completed),
        )
    )
    sv.close()


_room_origins = functools.lru_cache(maxsize=64)(room_origins)  # pure, and asked after every move
_extras_box = functools.lru_cache(maxsize=64)(extras_box)
_layout = functools.lru_cache(maxsize=32)(layout)  # a dict: read only
_WORKROOM_SQUARES = tuple((i, j) for j in range(WORKROOM_SIZE) for i in range(WORKROOM_SIZE))


@functools.lru_cache(maxsize=256)
def _player_frame(
    seat: int,
    rect: Rect,
    c: int,
    kind: str,
    labels: Labels,
    name: str,
    current: bool,
    winner: bool,
    removed: bool,
    score: int,
) -> Part:
    """The player group's opening and frame: the boards, the mark, the name, the score."""
    sv = Svg(0, 0)
    x0, y0, x1, _y1 = rect
    p = pad_of(c)
    sv.open("g", class_="player", data_seat=str(seat))
    sv.rect(rect, fill=BOARD, outline=BOARD_EDGE, width=2, radius=12)
    bident = f"wr{c}"
    board_def(sv, bident, c, WORKROOM_SIZE, WORKROOM_SIZE, None)
    dx, dy, r = room_disc(c)
    origins = room_origins(rect, c, kind)
    for room, (x, y) in enumerate(origins):
        use_board(sv, bident, (x, y))
        cx, cy = x + dx, y + dy
        sv.ellipse((cx - r, cy - r, cx + r, cy + r), pal.INK)
        sv.text((cx, cy + 1), str(room + 1), font(round(r * 1.4), bold=True), BOARD, anchor="mm")
    colour = pal.die_colour(seat)
    if current or winner:
        sv.rect(
            (x0, y0, x1, y0 + round(HEAD * c) - 2),
            fill=pal.mix(colour, BOARD, 0.68),
            radius=12,
            corners=(True, True, False, False),
        )
        sv.rect(rect, fill=None, outline=colour, width=max(3, c // 7), radius=12)
    ts = text_size(c)
    r = round(0.26 * c)
    mx, ly = mark_centre(rect, c)
    sv.polygon(dice.mark_points(pal.MARKS[seat % 4], mx, ly, r), colour, pal.INK, 2)
    level = _level(name)
    room_w = x1 - p - (x0 + p + 2 * r + 8)
    text, f = fit_name(plain_name(name) if level else name, font(ts + 2, bold=True), room_w)
    sv.text((x0 + p + 2 * r + 8, ly), text, f, pal.player_ink(seat), anchor="lm")
    ly2 = y0 + p + round(1.05 * c)
    sr = sv.text((x1 - p, ly2), labels.text("points", points=score), font(ts, bold=True), pal.INK, anchor="rm")
    tag_key = "left" if removed else "to_play" if current else "winner" if winner else ""
    tag = labels.text(tag_key) if tag_key else level
    tf = font(ts if tag_key else ts - 2, bold=bool(tag_key))
    if tag:
        sv.text((x0 + p, ly2), tag, tf, pal.INK if tag_key else pal.MUTED, anchor="lm", max_width=sr[0] - x0 - 2 * p)
    return sv.part()


@functools.lru_cache(maxsize=512)
def _extras_part(
    seat: int,
    box: Rect,
    c: int,
    labels: Labels,
    supply_n: int,
    storeroom: tuple[int, ...],
    pool: tuple[int, ...],
    storage: tuple[int, ...],
    completed: tuple[tuple[int, tuple[int | None, ...]], ...],
    lit: tuple[int, ...],
) -> Part:
    """isoboard.draw_extras (isoboard.write_extras), drawn once per place and content."""
    sv = Svg(0, 0)

    def put_die(xy: tuple[int, int], value: int, place: str) -> None:
        # data-die, as the move notation names it: "4" in the storeroom, "x4" abandoned, "i2.1" on a card
        die = {"storeroom": str(value), "abandoned": f"x{value}", "storage": ""}.get(place, place)
        loose_cube(sv, xy, c, seat, value, die=die)

    def put_chip(_i: int, rect: Rect, shine: bool) -> None:
        sv.rect(
            rect,
            fill=pal.CARD,
            outline=pal.HIGHLIGHT_EDGE if shine else pal.CARD_EDGE,
            width=3 if shine else 2,
            radius=6,
        )

    write_extras(sv, put_die, put_chip, seat, box, c, labels, supply_n, storeroom, pool, storage, completed, lit)
    return sv.part()


# --- museum ----------------------------------------------------------------------------


def draw_museum(sv: Svg, game: Game, card: MuseumCard, rect: Rect, hl: Highlights, c: int, labels: Labels) -> None:
    """isoboard.museum_frame and draw_museum, drawn once per place and content (``_museum_part``)."""
    built = tuple(sorted((cell, col.value, tuple(col.owners)) for cell, col in game.state.museum.items()))
    heights = tuple(sorted(game.museum_heights().items()))
    sv.paste(_museum_part(card, rect, c, labels, heights, built, hl.museum))


@functools.lru_cache(maxsize=128)
def _museum_part(
    card: MuseumCard,
    rect: Rect,
    c: int,
    labels: Labels,
    heights: tuple[tuple[int, int], ...],
    museum: tuple[tuple[int, int, tuple[int, ...]], ...],
    lit: frozenset[int],
) -> Part:
    """The title, the plan's squares, its target heights (``heights``: cell, height) as
    outline columns and the columns built (``museum``: cell, value, owners bottom up), a
    ``cell`` group per plan cell."""
    sv = Svg(0, 0)
    x0, y0, x1, _y1 = rect
    p = pad_of(c)
    sv.open("g", class_="museum")
    sv.rect(rect, fill=BOARD, outline=BOARD_EDGE, width=2, radius=12)
    ts = text_size(c)
    tr = sv.text((x0 + p, y0 + p), labels.text("museum"), font(ts, bold=True), pal.INK, anchor="la")
    title, f = fit_name(labels.museum(card), font(max(13, ts - 3)), x1 - x0 - 2 * p)
    sv.text((x0 + p, tr[3] + round(0.12 * c)), title, f, pal.MUTED, anchor="la")
    bx0, by0, _bx1, _by1 = museum_box(card)
    cols_n, rows_n = museum_dims(card)
    cells = frozenset((x, y) for x, y, _h in card.cells)
    ident = "mu" + hashlib.blake2s(repr((card.cells, c)).encode(), digest_size=4).hexdigest()  # one per plan
    board_def(sv, ident, c, cols_n, rows_n, cells, bx0, by0, floor=MUSEUM_SQUARE)
    origin = _museum_origin(card, rect, c)
    use_board(sv, ident, origin)
    total = sum(h for _cell, h in heights)
    built = sum(len(owners) for _cell, _value, owners in museum)
    sv.text((x1 - p, y0 + p + 2), labels.text("built", built=built, total=total), font(ts), pal.INK, anchor="ra")
    cols: dict[tuple[int, int], Column] = {}
    ghosts: dict[tuple[int, int], int] = {}
    for cell, want in heights:
        y, x = divmod(cell, MUSEUM_SIZE)
        ghosts[(x, y)] = want
    for cell, value, owners in museum:
        y, x = divmod(cell, MUSEUM_SIZE)
        top = owners[-1] if owners else CORNERSTONE
        key: int | str = pal.CORNER_KEY if top == CORNERSTONE else top
        cols[(x, y)] = (key, value, max(1, len(owners)), cell in lit)
    draw_structure(
        sv,
        origin,
        c,
        cols,
        ("m", MUSEUM_SIZE, "museum"),
        sorted(cells),
        ghosts=ghosts,
        first_col=bx0,
        first_row=by0,
    )
    sv.close()
    return sv.part()


# --- cards -----------------------------------------------------------------------------


def draw_artist(sv: Svg, game: Game, i: int, rect: Rect, hl: Highlights, c: int, labels: Labels) -> None:
    """cardparts.artist_band and isoboard.draw_artist, in an ``artist`` group (drawn once per
    place and content)."""
    slot = game.state.artists[i]
    card = game.artist_card(i)
    sv.paste(_artist_part(i, rect, c, labels, card, slot.count, slot.owner, slot.value, i in hl.artists))


@functools.lru_cache(maxsize=256)
def _artist_part(
    i: int,
    rect: Rect,
    c: int,
    labels: Labels,
    card: ArtistCard | None,
    count: int,
    owner: int | None,
    value: int,
    lit: bool,
) -> Part:
    sv = Svg(0, 0)
    x0, y0, x1, _y1 = rect
    ts = text_size(c)
    band = round(0.9 * c)
    sv.open("g", class_="artist", data_artist=str(i))
    sv.rect(rect, fill=pal.CARD, outline=pal.CARD_EDGE, width=2, radius=10)
    if card is None:
        artist_empty(sv, rect, ts, labels)
        sv.close()
        return sv.part()
    sv.rect((x0, y0, x1, y0 + band), fill=band_colour(card), radius=10, corners=(True, True, False, False))
    cx, cy, rr = band_disc(rect, band)
    sv.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), (255, 255, 255))
    band_texts(sv, i, card, rect, band, ts, labels)
    for k, (dx, dy) in enumerate(write_artist(sv, card, rect, c, band, labels)):
        if k < count and owner is not None:
            loose_cube(sv, (dx, dy), c, owner, value, lit=lit)
        else:
            empty_place(sv, (dx, dy), c)
    sv.close()
    return sv.part()


def draw_plan(sv: Svg, cells: tuple[tuple[int, int, int], ...], q: int, xy: tuple[int, int]) -> None:
    """isoboard.plan_layer: an installation's plan as small columns of plan cubes (their
    height as the numeral), in plan_box at ``xy``."""
    g = cam(q)
    for x, y, hh in plan_spots(cells, q):
        cube(sv, (xy[0] + x + g.R, xy[1] + y + g.R), q, pal.PLAN_KEY, hh, hh, g.LH, figure=False)


def draw_offer(sv: Svg, game: Game, i: int, rect: Rect, c: int, labels: Labels) -> None:
    """cardparts.offer_frame, offer_title, offer_bonus and isoboard.draw_offer, in an
    ``offer`` group (drawn once per place and card)."""
    card_id = game.state.offer[i]
    card = game.deck.installation(card_id) if card_id is not None else None
    sv.paste(_offer_part(i, rect, c, labels, card))


@functools.lru_cache(maxsize=256)
def _offer_part(i: int, rect: Rect, c: int, labels: Labels, card: InstallationCard | None) -> Part:
    sv = Svg(0, 0)
    p = pad_of(c) // 2 + 2
    ts = text_size(c)
    sv.open("g", class_="offer", data_offer=str(i))
    sv.rect(rect, fill=pal.CARD, outline=pal.CARD_EDGE, width=2, radius=10)
    if card is None:
        offer_empty(sv, rect, ts, labels)
    else:
        top = offer_title(sv, card, rect, p, c, ts, labels)
        draw_plan(sv, tuple(sorted(card.cells)), plan_unit(c), plan_corner(rect, top, plan_box(c), p, c))
        offer_bonus(sv, card, rect, p, c, bonus_sizes(c), labels)
    sv.close()
    return sv.part()


# --- header ----------------------------------------------------------------------------


def draw_header(
    sv: Svg, game: Game, rect: Rect, names: list[str] | None, c: int, labels: Labels, *, this_turn: bool = True
) -> None:
    """isoboard.draw_header (isoboard.write_header), in a ``header`` group.  ``this_turn``
    False: the header as the turn began (whose turn, the last turn's dice and words), the
    same from one move to the next, so drawn once a turn; the moves of this turn show on
    the board (they glow) and, on the web page, in words beside it."""
    if this_turn:
        _write_header(sv, game, rect, names, c, labels)
        return
    start = copy.copy(game)
    start.state = dataclasses.replace(game.state, this_turn=TurnRecord(game.state.current, game.state.turn))
    key = (
        rect, sv.width, c, labels, tuple(names or ()), start.state.turn, start.state.current, start.state.over,
        len(start.state.installation_deck), status_line(start, names, labels),
        last_turn_line(start, names, labels), tuple(recap(start, labels)),
    )  # fmt: skip
    part = _HEADERS.get(key)
    if part is None:
        apart = Svg(sv.width, sv.height)
        _write_header(apart, start, rect, names, c, labels)
        part = _HEADERS[key] = apart.part()
        while len(_HEADERS) > HEADERS_KEPT:
            del _HEADERS[next(iter(_HEADERS))]
    sv.paste(part)


HEADERS_KEPT = 256
_HEADERS: dict[tuple[object, ...], Part] = {}


def _write_header(sv: Svg, game: Game, rect: Rect, names: list[str] | None, c: int, labels: Labels) -> None:
    sv.open("g", class_="header")
    write_header(
        sv,
        lambda xy, cb, key, value, _height, _where: loose_cube(sv, xy, cb, key, value, lit=True),
        game,
        rect,
        sv.width,
        names,
        c,
        labels,
    )
    sv.close()
