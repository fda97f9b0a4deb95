"""The table seen from above, landscape: header on top, one column per player, and a
column with the museum, the artist row and the installation offer.

The size is chosen from Discord's preview box: ``unit(n)`` is the smallest die size at
which a die's value is still about 10 px tall once the whole picture is shrunk to fit
550x400 (for 4 players that is not reachable in one picture: the bot posts the table and
the current player's studio).  Every die is recorded in ``Canvas.dice`` (render.model).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine import Game, MuseumCard
from engine.geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE
from engine.state import CORNERSTONE

from . import dice
from . import palette as pal
from .canvas import Box, Canvas, Rect
from .cardparts import artist_band, museum_count, offer_bonus, offer_frame, offer_title, table_column
from .cards import action_text
from .flat import die_tile, empty_place, grid_layer, grid_size, paste_die
from .fonts import font, text_width, wrap
from .highlight import Highlights, highlights
from .labels import Labels
from .model import preview_scale
from .names import _fitting, fit_name
from .words import last_turn_line, player_name, status_line

MIN_GLYPH = 10.0  # px tall at the laptop preview
UNITS = range(30, 41)  # die sizes tried (px)
MUSEUM_COLS = 8
HEAD = 1.65  # a player panel's two header lines, in die sizes


def text_size(c: int) -> int:
    return max(16, round(0.56 * c))


def pad_of(c: int) -> int:
    return max(8, round(0.3 * c))


# --- sizes -----------------------------------------------------------------------------


def panel_width(c: int, wide: bool = False) -> int:
    """A player panel's width: workrooms one above the other (table) or side by side
    (``wide``: the studio close-up, landscape like the preview box)."""
    gw = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)[0]
    return 2 * pad_of(c) + (2 * gw + pad_of(c) if wide else gw)


def panel_height(c: int, wide: bool = False) -> int:
    p = pad_of(c)
    _gw, gh, _lab = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)
    head = round(HEAD * c)
    store = round(0.7 * c) + c + 4  # labels line + one row of dice
    done = round(0.7 * c) + 2 * (c + 6)  # label line + two rows of installation chips
    rooms = gh + p if wide else 2 * gh + p
    return p + head + rooms + p + store + p + done + p


def room_origins(rect: Rect, c: int, wide: bool) -> list[tuple[int, int]]:
    """Top-left corners of the two workroom grids (labels included) in a player panel."""
    p = pad_of(c)
    gw, gh, _lab = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)
    x, y = rect[0] + p, rect[1] + p + round(HEAD * c)
    if wide:
        return [(x, y), (x + gw + p, y)]
    return [(x, y), (x, y + gh + p)]


def column_width(c: int) -> int:
    return 2 * pad_of(c) + grid_size(c, MUSEUM_COLS, 1)[0]


def artist_height(c: int) -> int:
    return round(0.95 * c) + 2 * round(0.66 * c) + c + 2 * pad_of(c)


def offer_height(c: int) -> int:
    """Points and a two-line title, the plan (four rows at most), the bonus spaces."""
    return round(0.5 * c) + 2 * round(0.44 * c) + 4 * round(0.46 * c) + round(0.7 * c) + 2 * pad_of(c) + 6


def museum_height(c: int, rows: int) -> int:
    return 2 * pad_of(c) + round(1.5 * c) + grid_size(c, 1, rows)[1]


def layout(num_players: int, c: int, rows: int = MUSEUM_SIZE) -> dict[str, Rect]:
    m = pad_of(c)
    g = round(0.3 * c)
    rects: dict[str, Rect] = {}
    pw, ph = panel_width(c), panel_height(c)
    cw = column_width(c)
    width = 2 * m + num_players * (pw + g) + cw
    head_h = round(2.2 * c)
    rects["header"] = (m, m, width - m, m + head_h)
    top = m + head_h + g
    for seat in range(num_players):
        x = m + seat * (pw + g)
        rects[f"player p{seat + 1}"] = (x, top, x + pw, top + ph)
    x = m + num_players * (pw + g)
    column_bottom = table_column(rects, x, top, cw, g, museum_height(c, rows), artist_height(c), offer_height(c))
    bottom = max(top + ph, column_bottom) + m
    rects["table"] = (0, 0, width, bottom)
    return rects


@lru_cache(maxsize=32)
def unit(num_players: int, rows: int = MUSEUM_SIZE) -> int:
    """The die size for a table of ``num_players``: the smallest whose numerals are at least
    MIN_GLYPH px tall at the laptop preview, else the one that comes closest."""
    best, best_px = UNITS[0], 0.0
    for c in UNITS:
        _x, _y, w, h = layout(num_players, c, rows)["table"]
        gl = die_tile(c, 0, 5)[1]
        px = (gl[3] - gl[1]) * preview_scale(w, h)
        if px >= MIN_GLYPH:
            return c
        if px > best_px + 0.05:
            best, best_px = c, px
    return best


# --- players ---------------------------------------------------------------------------


def mark_centre(rect: Rect, c: int) -> tuple[int, int]:
    """Where a player panel's shape mark (filled with the seat colour) is drawn."""
    return (rect[0] + pad_of(c) + round(0.28 * c), rect[1] + pad_of(c) + round(0.4 * c))


def player_frame(cv: Canvas, seat: int, rect: Rect, c: int, wide: bool = False) -> None:
    pname = f"player p{seat + 1}"
    cv.panel(pname, rect, fill=pal.PANEL, outline=pal.PANEL_EDGE, width=2)
    layer = grid_layer(c, WORKROOM_SIZE, WORKROOM_SIZE, None)
    lab = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)[2]
    for room, (x, y) in enumerate(room_origins(rect, c, wide)):
        cv.layer(layer, (x, y), pname)
        # The workroom's number in a dark disc: a board's own number, not a "w1" code.
        r = max(7, round(lab * 0.42))
        cx, cy = x + lab // 2, y + lab // 2
        cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pal.INK)
        cv.text(
            (cx, cy + 1), str(room + 1), font(max(11, round(r * 1.45)), bold=True), pal.PANEL, anchor="mm", parent=pname
        )


def draw_player(
    cv: Canvas,
    game: Game,
    seat: int,
    rect: Rect,
    names: list[str] | None,
    hl: Highlights,
    c: int,
    labels: Labels,
    wide: bool = False,
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
            (x0, y0, x1, y0 + round(HEAD * c) + p // 2),
            radius=12,
            fill=pal.mix(colour, pal.PANEL, 0.7),
            corners=(True, True, False, False),
        )
        cv.draw.rounded_rectangle(rect, radius=12, outline=colour, width=max(3, c // 7))
    ts = text_size(c)
    # line 1: mark + name; line 2: p1 · points · tag
    r = round(0.28 * c)
    mx, ly = mark_centre(rect, c)
    dice.draw_mark(cv.draw, pal.MARKS[seat % 4], mx, ly, r, fill=colour, outline=pal.INK, width=2)
    name = player_name(seat, names)
    text, f = fit_name(name, font(ts + 2, bold=True), x1 - x0 - 2 * p - 2 * r - 8)
    cv.text((x0 + p + 2 * r + 8, ly), text, f, pal.player_ink(seat), anchor="lm", parent=pname)
    ly2 = y0 + p + round(1.2 * c)
    sr = cv.text(
        (x1 - p, ly2),
        labels.text("points", points=game.score(seat)),
        font(ts, bold=True),
        pal.INK,
        anchor="rm",
        parent=pname,
    )
    tag_key = "left" if pl.removed else "to_play" if current else "winner" if winner else ""
    seat_text = labels.text(tag_key) if tag_key else ""  # the seat is its name, colour and mark: no number
    if seat_text:
        width = sr[0] - x0 - 2 * p
        cv.text((x0 + p, ly2), seat_text, font(ts, bold=True), pal.INK, anchor="lm", max_width=width, parent=pname)
    # workrooms
    _gw, gh, lab = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)
    origins = room_origins(rect, c, wide)
    for room, (gx, gy) in enumerate(origins):
        ox, oy = gx + lab, gy + lab
        for cell, (value, height) in sorted(pl.workrooms[room].items()):
            y, x = divmod(cell, WORKROOM_SIZE)
            where = f"p{seat + 1} w{room + 1} {LETTERS[x]}{y + 1}"
            paste_die(
                cv,
                (ox + x * c, oy + y * c),
                c,
                seat,
                value,
                where=where,
                height=height,
                lit=(seat, room, cell) in hl.workroom,
            )
    # storeroom | storage (and the abandoned dice of the current player)
    sy = origins[1][1] + gh + p + p // 2
    small = font(max(13, round(0.44 * c)))
    loose = list(pl.storeroom)
    pool = list(s.pool) if seat == s.current else []
    keep = list(pl.storage)
    inner = x1 - x0 - 2 * p
    cv.text((x0 + p, sy), labels.text("storeroom"), small, pal.MUTED, anchor="la", parent=pname)
    cv.text((x1 - p, sy), labels.text("supply", count=pl.supply), small, pal.MUTED, anchor="ra", parent=pname)
    dy = sy + round(0.7 * c)
    step = c + max(3, c // 10)
    per_row = max(1, (inner + step - c) // step)
    row: list[tuple[int, str]] = [(v, "storeroom") for v in loose] + [(v, "abandoned") for v in pool]
    row += [(v, "storage") for v in keep]
    x = x0 + p
    for i, (v, kind) in enumerate(row[:per_row]):
        if kind == "storage" and (i == 0 or row[i - 1][1] != "storage"):
            sep = labels.text("storage")
            lx = cv.text((x, dy + c // 2), sep, small, pal.MUTED, anchor="lm", parent=pname)[2] + 4
            if lx + c <= x1 - p:
                x = lx
        paste_die(cv, (x, dy), c, seat, v, where=f"p{seat + 1} {kind}")
        x += step
    if not row:
        cv.text((x0 + p, dy + c // 2), "–", small, pal.MUTED, anchor="lm", parent=pname)
    # completed installations: chips "i1 +3" followed by their bonus dice still on the card
    cy = dy + c + 4 + p
    chip_f = font(max(13, round(0.44 * c)), bold=True)
    if not pl.completed:
        cv.text(
            (x0 + p, cy + c // 2),
            labels.text("no_completed"),
            small,
            pal.MUTED,
            anchor="lm",
            max_width=inner,
            parent=pname,
        )
    x, yrow = x0 + p, cy
    for i, comp in enumerate(pl.completed):
        card = game.deck.installation(comp.card)
        label = labels.text("points", points=card.points)  # its points; its bonus dice follow
        lw = round(text_width(chip_f, label)) + 10
        left = [v for v in comp.dice if v is not None]
        w = lw + len(left) * (c + 2) + 4
        if x + w > x1 - p and x > x0 + p:
            x, yrow = x0 + p, yrow + c + 6
        lit = (seat, i) in hl.completed
        cv.panel(
            f"{pname} i{i + 1}",
            (x, yrow, x + w, yrow + c),
            fill=pal.CARD,
            outline=pal.HIGHLIGHT_EDGE if lit else pal.CARD_EDGE,
            width=3 if lit else 2,
            radius=6,
            parent=pname,
        )
        cv.text((x + 5, yrow + c // 2), label, chip_f, pal.player_ink(seat), anchor="lm", parent=pname)
        dx = x + lw
        for k, bonus in enumerate(comp.dice):
            if bonus is None:
                continue
            paste_die(cv, (dx, yrow), c, seat, bonus, where=f"p{seat + 1} i{i + 1}.{k + 1}")
            dx += c + 2
        x += w + 6


# --- museum ----------------------------------------------------------------------------


def museum_rows(card: MuseumCard) -> int:
    _x0, y0, _x1, y1 = museum_box(card)
    return y1 - y0 + 1


def museum_box(card: MuseumCard) -> tuple[int, int, int, int]:
    xs = [x for x, _y, _h in card.cells]
    ys = [y for _x, y, _h in card.cells]
    return (min(xs), min(ys), max(xs), max(ys))


def museum_frame(cv: Canvas, card: MuseumCard, rect: Rect, c: int, labels: Labels, name: str = "museum") -> None:
    x0, y0, x1, _y1 = rect
    p = pad_of(c)
    cv.panel(name, rect, fill=pal.PANEL, outline=pal.PANEL_EDGE)
    ts = text_size(c)
    tr = cv.text((x0 + p, y0 + p), labels.text("museum"), font(ts, bold=True), pal.INK, anchor="la", parent=name)
    title, f = fit_name(labels.museum(card), font(max(13, ts - 3)), x1 - x0 - 2 * p)
    cv.text((x0 + p, tr[3] + round(0.15 * c)), title, f, pal.MUTED, anchor="la", parent=name)
    bx0, by0, bx1, by1 = museum_box(card)
    cells = frozenset((x, y) for x, y, _h in card.cells)
    layer = grid_layer(
        c, bx1 - bx0 + 1, by1 - by0 + 1, cells, tuple(sorted(card.cells)), bx0, by0, floor=pal.MUSEUM_FLOOR
    )
    gx, gy = _museum_origin(card, rect, c)
    cv.layer(layer, (gx, gy), name)


def _museum_origin(card: MuseumCard, rect: Rect, c: int) -> tuple[int, int]:
    x0, y0, x1, y1 = rect
    p = pad_of(c)
    bx0, by0, bx1, by1 = museum_box(card)
    gw, gh, _lab = grid_size(c, bx1 - bx0 + 1, by1 - by0 + 1)
    top = y0 + p + round(1.5 * c)
    return (x0 + (x1 - x0 - gw) // 2, top + max(0, (y1 - p - top - gh) // 2))


def draw_museum(
    cv: Canvas, game: Game, rect: Rect, hl: Highlights, c: int, labels: Labels, name: str = "museum"
) -> None:
    s = game.state
    card = game.deck.museum(s.museum_card)
    p = pad_of(c)
    heights = game.museum_heights()
    museum_count(cv, game, rect, p, text_size(c), labels, name)
    gx, gy = _museum_origin(card, rect, c)
    bx0, by0, _bx1, _by1 = museum_box(card)
    lab = grid_size(c, 1, 1)[2]
    for cell, col in sorted(s.museum.items()):
        y, x = divmod(cell, MUSEUM_SIZE)
        top = col.owners[-1] if col.owners else CORNERSTONE
        key = pal.CORNER_KEY if top == CORNERSTONE else top
        h, want = len(col.owners), heights.get(cell, len(col.owners))
        paste_die(
            cv,
            (gx + lab + (x - bx0) * c, gy + lab + (y - by0) * c),
            c,
            key,
            col.value,
            where=f"museum {LETTERS[x]}{y + 1}",
            height=h,
            target=want,
            lit=cell in hl.museum,
        )


# --- cards -----------------------------------------------------------------------------


def draw_artist(cv: Canvas, game: Game, i: int, rect: Rect, hl: Highlights, c: int, labels: Labels) -> None:
    s = game.state
    name = f"artist {i + 1}"
    x0, y0, x1, y1 = rect
    p = pad_of(c)
    ts = text_size(c)
    band = round(0.95 * c)
    if not artist_band(cv, game, i, rect, c, band, ts, labels):
        return
    card = game.artist_card(i)
    assert card is not None
    af = font(max(13, round(0.48 * c)))
    lines = wrap(action_text(card, labels), af, x1 - x0 - 2 * p + 4, 2)
    for k, line in enumerate(lines):
        cv.text((x0 + p - 2, y0 + band + 4 + k * round(0.66 * c)), line, af, pal.INK, anchor="la", parent=name)
    dy = y1 - p - c
    slot = s.artists[i]
    for k in range(card.dice):
        dx = x0 + p + k * (c + 3)
        if k < slot.count and slot.owner is not None:
            paste_die(cv, (dx, dy), c, slot.owner, slot.value, where=f"artist {i + 1}", lit=i in hl.artists)
        else:
            cv.paste(empty_place(c), (dx - 2, dy - 2))


def draw_offer(cv: Canvas, game: Game, i: int, rect: Rect, c: int, labels: Labels) -> None:
    name = f"offer {i + 1}"
    x0, _y0, x1, _y1 = rect
    p = pad_of(c) // 2 + 2
    ts = text_size(c)
    card = offer_frame(cv, game, i, rect, ts, labels)
    if card is None:
        return
    top = offer_title(cv.within(name), card, rect, p, c, ts, labels)
    # the plan: a small top-down grid with each column's height
    q = round(0.46 * c)
    xs = [x for x, _y, _h in card.cells]
    ys = [y for _x, y, _h in card.cells]
    w, h = (max(xs) - min(xs) + 1) * q, (max(ys) - min(ys) + 1) * q
    ox = x0 + (x1 - x0 - w) // 2
    oy = top + (4 * q - h) // 2
    hf = font(max(10, round(0.8 * q)), bold=True)
    for x, y, hh in card.cells:
        px, py = ox + (x - min(xs)) * q, oy + (y - min(ys)) * q
        shade = pal.mix(pal.PLAN_CUBE, (40, 40, 40), 0.12 * (hh - 1))
        cv.draw.rectangle((px, py, px + q - 1, py + q - 1), fill=shade, outline=pal.CARD_EDGE)
        cv.text((px + q / 2, py + q / 2), str(hh), hf, pal.contrast_ink(shade), anchor="mm", parent=name)
    sizes = (round(0.5 * c), round(0.42 * c), round(0.36 * c), max(10, round(0.32 * c)))
    offer_bonus(cv.within(name), card, rect, p, c, sizes, labels)


# --- the table -------------------------------------------------------------------------


def draw_header(cv: Canvas, game: Game, rect: Rect, names: list[str] | None, c: int, labels: Labels) -> None:
    x0, y0, x1, y1 = rect
    s = game.state
    ts = text_size(c)
    p = pad_of(c)
    t = cv.text((x0 + p, y0 + p // 2), "Cubist", font(ts + 4, bold=True), pal.INK, anchor="la", parent="header")
    ink = pal.INK if s.over else pal.player_ink(s.current)
    room = x1 - t[2] - 3 * p
    status, f = _fitting(lambda n: status_line(game, n, labels), names, (ts + 2, ts, ts - 2), room)
    sr = cv.text((x1 - p, y0 + p // 2 + 2), status, f, ink, anchor="ra", max_width=room, parent="header")
    info = labels.count("header", len(s.installation_deck), turn=s.turn + 1)
    inf = font(ts - 2)
    if text_width(inf, info) <= sr[0] - t[2] - 24:  # the turn number gives way to whose turn it is
        cv.text((t[2] + 12, y0 + p // 2 + 4), info, inf, pal.MUTED, anchor="la", parent="header")
    width = x1 - x0 - 2 * p
    line, f = _fitting(lambda n: last_turn_line(game, n, labels), names, (ts, ts - 2), width, bold=False)
    lines = [line] if text_width(f, line) <= width else list(wrap(line, f, width, 2))
    step = round(0.7 * c)
    for k, text in enumerate(lines):
        cv.text(
            (x0 + p, y1 - p // 2 - (len(lines) - 1 - k) * step),
            text,
            f,
            pal.INK,
            anchor="lb",
            max_width=width,
            parent="header",
        )


@lru_cache(maxsize=16)
def table_frame(num_players: int, museum: MuseumCard, c: int, labels: Labels) -> tuple[Image.Image, tuple[Box, ...]]:
    rects = layout(num_players, c, museum_rows(museum))
    _x, _y, w, h = rects["table"]
    cv = Canvas(w, h, pal.BACKGROUND)
    cv.panel("header", rects["header"], fill=pal.PANEL, outline=pal.PANEL_EDGE)
    museum_frame(cv, museum, rects["museum"], c, labels)
    for seat in range(num_players):
        player_frame(cv, seat, rects[f"player p{seat + 1}"], c)
    return cv.freeze()


def table_canvas(game: Game, names: list[str] | None = None, *, labels: Labels) -> Canvas:
    n = game.num_players
    card = game.deck.museum(game.state.museum_card)
    c = unit(n, museum_rows(card))
    rects = layout(n, c, museum_rows(card))
    cv = Canvas(0, 0, pal.BACKGROUND, base=table_frame(n, card, c, labels))
    hl = highlights(game)
    draw_header(cv, game, rects["header"], names, c, labels)
    draw_museum(cv, game, rects["museum"], hl, c, labels)
    for i in range(4):
        draw_artist(cv, game, i, rects[f"artist {i + 1}"], hl, c, labels)
    for i in range(3):
        draw_offer(cv, game, i, rects[f"offer {i + 1}"], c, labels)
    for seat in range(n):
        draw_player(cv, game, seat, rects[f"player p{seat + 1}"], names, hl, c, labels)
    return cv


# --- close-ups ---------------------------------------------------------------------------

STUDIO_UNIT = 40
MUSEUM_UNIT = 48


# A cell the turn panel offers: (workroom 0/1, cell index) -> its letter ("A", "B"...).
Marks = dict[tuple[int, int], str]


def studio_canvas(
    game: Game, seat: int, names: list[str] | None = None, *, labels: Labels, marks: Marks | None = None
) -> Canvas:
    """One player's studio with the header: sized so its numerals stay readable in a preview.
    ``marks``: the cells the turn panel offers for the chosen die, each drawn with the letter
    its button carries (a letter on an empty cell, a badge in the corner of a column)."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat} in a {game.num_players}-player game")
    c = STUDIO_UNIT
    m = pad_of(c)
    pw, ph = panel_width(c, wide=True), panel_height(c, wide=True)
    cv = Canvas(pw + 2 * m, ph + 2 * m, pal.BACKGROUND)
    rect = (m, m, m + pw, m + ph)
    player_frame(cv, seat, rect, c, wide=True)
    draw_player(cv, game, seat, rect, names, highlights(game), c, labels, wide=True)
    if marks:
        draw_marks(cv, game.state.players[seat].workrooms, rect, c, marks)
    return cv


def draw_marks(cv: Canvas, workrooms: list[dict[int, tuple[int, int]]], rect: Rect, c: int, marks: Marks) -> None:
    """The panel's letters on the studio's cells (``studio_canvas``)."""
    _gw, _gh, lab = grid_size(c, WORKROOM_SIZE, WORKROOM_SIZE)
    origins = room_origins(rect, c, wide=True)
    for (room, cell), letter in sorted(marks.items()):
        gx, gy = origins[room]
        y, x = divmod(cell, WORKROOM_SIZE)
        x0, y0 = gx + lab + x * c, gy + lab + y * c
        taken = cell in workrooms[room]
        size = round(c * 0.62) if taken else c - 4  # a badge beside a column's numeral, else the whole cell
        bx, by = (x0 - 3, y0 - 3) if taken else (x0 + 2, y0 + 2)
        box = (bx, by, bx + size, by + size)
        cv.draw.rounded_rectangle(
            box, radius=max(3, size // 5), fill=pal.HIGHLIGHT, outline=pal.HIGHLIGHT_EDGE, width=2
        )
        f = font(round(size * (0.62 if taken else 0.66)), bold=True)
        cv.text((bx + size / 2, by + size / 2 + 1), letter, f, pal.INK, anchor="mm", parent=f"mark {letter}")


def museum_canvas(game: Game, *, labels: Labels) -> Canvas:
    c = MUSEUM_UNIT
    card = game.deck.museum(game.state.museum_card)
    bx0, by0, bx1, by1 = museum_box(card)
    gw, _gh, _lab = grid_size(c, bx1 - bx0 + 1, by1 - by0 + 1)
    p = pad_of(c)
    title = text_width(font(text_size(c), bold=True), labels.text("museum") + " " + labels.museum(card)) + 200
    w = max(gw + 2 * p, round(title)) + 2 * p
    h = museum_height(c, by1 - by0 + 1) + 2 * p
    cv = Canvas(w, h, pal.BACKGROUND)
    rect = (p, p, w - p, h - p)
    museum_frame(cv, card, rect, c, labels)
    draw_museum(cv, game, rect, highlights(game), c, labels)
    return cv


def image_of(cv: Canvas) -> Image.Image:
    return cv.img
