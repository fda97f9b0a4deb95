"""The table, a studio and the museum as pictures: where each part goes, for either camera.

The composition is chosen for Discord's inline preview (the picture fitted into 550x400 on
a laptop, 360 px wide on a phone): a header (whose turn, the last turn's dice again, large,
with where they went, and the last turn in words); one band per player (name, points,
storeroom, storage, completed cards, then the two workrooms side by side); a column with
the museum, the four artist cards and the three installations on offer.  With four
players the bands go two by two when that gives larger dice.  Sizes are in ``u``, the
camera's cell unit, so the proportions (and what the preview shows) do not depend on it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from PIL import Image

from engine import Game
from engine.geometry import LETTERS, WORKROOM_SIZE

from . import dice, pieces
from . import palette as pal
from .camera import Camera, camera
from .canvas import Box, Canvas, Rect
from .cardparts import artist_band, museum_count, offer_bonus, offer_frame, offer_title
from .cards import action_text
from .cubes import (
    BOARD,
    BOARD_EDGE,
    MUSEUM_SQUARE,
    SQUARE,
    TABLE,
    FloorKey,
    board_box,
    draw_board,
    draw_die,
    draw_slot,
    figure_font,
    floor_key,
    floor_layer,
    value_font,
)
from .fonts import Font, fit, fit_words, font, text_width, wrap
from .highlight import Highlights, highlights
from .labels import Labels
from .model import phone_scale, preview_scale
from .names import _fitting, _initials, fit_name, plain_name
from .pieces import Marks
from .recap import recap
from .words import brief_line, last_turn_line, player_name, status_line, winner_line

RecapItem = tuple[int, str, tuple[tuple[int | str, int, int], ...]]  # seat, where, dice (key, value, height)

MIN_GLYPH = 10.0  # px: a die's value at the laptop preview, 2 and 3 players
MIN_GLYPH_4P = 9.0  # ... 4 players
MIN_FIGURE = 7.0  # px: a column's height figure at the laptop preview (from above)
PHONE_GLYPH = 9.5  # the header's whose-turn line and last turn's dice at 360 px wide
RECAP_FLOOR = 9.0  # ... the least for those dice and where they went, when a turn is long
RECAP_AIM = 9.2  # what they are sized for: an ink box rounds to whole pixels
GAP = {False: 24, True: 12}  # between one place's words and the next place's dice
CLOSE_STEP = 0.72  # a long turn's dice of one place: each this much of a cube's width from the last
TABLE_UNIT = 24  # iso: half a cell's width on the table (px)
STUDIO_UNIT = 40
MUSEUM_UNIT = 40
# from above, a cell's side in iso units: wide enough for a value 9 px tall at the laptop
# preview of a 4-player table and its height figure, 7 px, in the gap beside it
TOP_RATIO = 2.0
CLOSEUP_TOP_RATIO = 1.4  # ... in a close-up, whose boards fill the preview: smaller, and quicker


def cam_for(iso: bool, u: int, ratio: float = TOP_RATIO) -> Camera:
    return camera(iso, u if iso else round(ratio * u))


def pad(u: int) -> int:
    return max(4, round(0.3 * u))


def text_size(u: int) -> int:
    return max(12, round(0.62 * u))


def small_size(u: int) -> int:
    return max(11, round(0.5 * u))


# --- the player's band ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Band:
    """A player's band: its info column's width and the boards' placement."""

    info_w: int
    board_w: int
    board_h: int
    rise: int  # headroom over the boards for the columns that rise above them

    gap: int = 0  # between the two workrooms

    @property
    def width(self) -> int:
        return self.info_w + 2 * self.board_w + self.gap

    @property
    def height(self) -> int:
        return self.rise + self.board_h


Boxes = tuple[tuple[int, int, int], ...]  # each seat's workrooms' (width, height, headroom)


def seat_bands(game: Game, cam: Camera, u: int, dice_wide: int = 3, boxes: Boxes | None = None) -> tuple[Band, ...]:
    """Each player's band, as tall as its own columns and info need (``boxes``: their
    workrooms', when the caller has them already)."""
    boxes = boxes or workroom_boxes(game, cam)
    return tuple(
        band_of(game, range(seat, seat + 1), cam, u, dice_wide, boxes[seat]) for seat in range(game.num_players)
    )


def workroom_boxes(game: Game, cam: Camera) -> Boxes:
    return tuple(_boards_box(game, range(seat, seat + 1), cam) for seat in range(game.num_players))


def _boards_box(game: Game, seats: range, cam: Camera) -> tuple[int, int, int]:
    hl = Highlights()
    rise, bw, bh = 0, 0, 0
    for seat in seats:
        for room in range(2):
            w, h, r = board_box(pieces.workroom(game, seat, room, hl), cam)
            bw, bh, rise = w, h, max(rise, r)
    return bw, bh, rise


def band_of(
    game: Game, seats: range, cam: Camera, u: int, dice_wide: int = 3, box: tuple[int, int, int] | None = None
) -> Band:
    """A band whose info column is ``dice_wide`` dice wide (wider: fewer rows of dice and cards)."""
    bw, bh, rise = box or _boards_box(game, seats, cam)
    dw = cam.die_size()[0]
    # three dice wide, and wide enough for "★ winner" beside the points (from above, dice are small)
    info_w = max(dice_wide * (dw + 2), 5 * u) + 2 * pad(u)
    extra = extras_height(game, seats, cam, u, info_w - 2 * pad(u))  # the width draw_band gives it
    rise = max(rise, round(0.2 * u))
    return Band(info_w, bw, max(bh, extra - rise), rise, round(0.3 * u))


Chip = tuple[int, int, list[int | None]]  # a completed card: its index, points, bonus dice left


def _extras_items(game: Game, seat: int) -> tuple[list[tuple[str, int]], list[Chip]]:
    """The loose dice in the info column in order ("storeroom", value), with ("storage", 0)
    before the storage space's dice for its word, and the completed cards."""
    s = game.state
    pl = s.players[seat]
    items = [("storeroom", v) for v in pl.storeroom]
    items += [("abandoned", v) for v in (s.pool if seat == s.current else [])]
    if pl.storage:
        items.append(("storage", 0))
        items += [("storage", v) for v in pl.storage]
    chips = [(i, game.deck.installation(comp.card).points, comp.dice) for i, comp in enumerate(pl.completed)]
    return items, chips


def extras_height(game: Game, seats: range, cam: Camera, u: int, width: int) -> int:
    return max(_flow(game, seat, cam, u, width, None, (0, 0), None) for seat in seats)


def _flow(
    game: Game,
    seat: int,
    cam: Camera,
    u: int,
    width: int,
    cv: Canvas | None,
    xy: tuple[int, int],
    labels: Labels | None,
    hl: Highlights | None = None,
    tabs: bool | None = None,
) -> int:
    """The info column's contents from its top (name, points, supply, dice, completed
    cards), drawn on ``cv`` when given; returns its height.  The height never depends on
    the words (the storage space's word has a line of its own, a card's points a box sized
    by its figure), so a band is as tall in every language and is measured without them.
    ``tabs``: a completed card's points over its bonus dice, not beside them (narrower, two
    to a row, a little taller); by default when that makes the column lower."""
    if tabs is None:
        if not any(v is not None for comp in game.state.players[seat].completed for v in comp.dice):
            tabs = False  # no bonus dice: both forms are one
        else:
            beside = _flow(game, seat, cam, u, width, None, xy, None, tabs=False)
            over = _flow(game, seat, cam, u, width, None, xy, None, tabs=True)
            if cv is None:  # measured only: the lower of the two
                return min(over, beside)
            tabs = over < beside
    p = pad(u)
    x0, y0 = xy
    dw, dh = cam.die_size()
    line = round(0.85 * u)
    y = y0 + line * 2 + p  # name and points
    items, chips = _extras_items(game, seat)
    pname = f"player p{seat + 1}"
    # "supply 12", then the word "storeroom" over its dice, only when there are some (over an
    # empty storeroom it would make the band a line taller for nothing)
    stocked = any(where != "storage" for where, _v in items)
    y += round(0.62 * u) * (2 if stocked else 1)
    if cv is not None and labels is not None:
        words = [labels.text("supply", count=game.state.players[seat].supply)]
        words += [labels.text("storeroom")] if stocked else []
        small, sy = font(small_size(u)), y0 + round(1.7 * u) + p
        for k, word in enumerate(words):
            cv.text((x0, sy + k * round(0.62 * u)), word, small, pal.MUTED, anchor="lt", max_width=width, parent=pname)
    x = x0
    row_h = dh + 2
    for where, value in items:
        if value:
            if x + dw > x0 + width and x > x0:
                x, y = x0, y + row_h
            if cv is not None:
                draw_die(cv, cam, (x, y), pieces.Die(seat, value, f"p{seat + 1} {where}"))
            x += dw + 2
            continue
        # the storage space's word, on a line of its own above its dice
        if x > x0:
            x, y = x0, y + row_h
        if cv is not None and labels is not None:
            word, f = _small_fitting(labels.text("storage"), u, width)
            cv.text((x0, y + 2), word, f, pal.MUTED, anchor="lt", parent=pname)
        y += round(0.62 * u) + 2
    # the completed cards go on after the last dice, on their row when they fit there
    chip_f = font(max(10, round(0.42 * u)), bold=True)
    line_h = row_h if x > x0 else 0
    tab_h = round(0.55 * u)
    for i, points, on_card in chips:
        lw = chip_label_width(chip_f, points)
        left = [v for v in on_card if v is not None]
        over = tabs and bool(left)  # the points over the dice
        dice_w = len(left) * (dw + 2) + 2
        cw = max(lw, dice_w) if over else lw + dice_w
        ch = (dh + 4 + (tab_h if over else 0)) if left else round(0.75 * u)  # a card with bonus dice holds them
        if x + cw > x0 + width and x > x0:
            x, y, line_h = x0, y + line_h + 3, 0
        line_h = max(line_h, ch)
        if cv is not None and hl is not None and labels is not None:
            lit = (seat, i) in hl.completed
            cv.panel(
                f"{pname} i{i + 1}", (x, y, x + cw, y + ch), fill=pal.CARD,
                outline=pal.HIGHLIGHT_EDGE if lit else pal.CARD_EDGE, width=3 if lit else 2, radius=6, parent=pname,
            )  # fmt: skip
            cv.text((x + 4, y + (tab_h // 2 + 2 if over else ch // 2)), labels.text("points", points=points), chip_f,
                    pal.player_ink(seat), anchor="lm", max_width=cw - 6 if over else lw - 6, parent=pname)  # fmt: skip
            dx, dy = (x + (cw - dice_w) // 2 + 1, y + tab_h + 2) if over else (x + lw, y + 2)
            for k, v in enumerate(on_card):
                if v is None:
                    continue
                draw_die(cv, cam, (dx, dy), pieces.Die(seat, v, f"p{seat + 1} i{i + 1}.{k + 1}"))
                dx += dw + 2
        x += cw + 3
    if x > x0:
        y += line_h + 3
    return y - y0 + p


def chip_label_width(f: Font, points: int) -> int:
    """A completed card's points box: its figure and room for a short word ("5 pts")."""
    return round(text_width(f, str(points)) + 2.4 * f.size) + 8


def _small_fitting(text: str, u: int, width: int) -> tuple[str, Font]:
    """``text`` in the small type, smaller when it does not fit ``width`` (cut only then)."""
    size = small_size(u)
    for s in (size, round(size * 0.88), round(size * 0.8)):
        f = font(s)
        if text_width(f, text) <= width:
            return text, f
    return fit(text, f, width), f


def draw_band(
    cv: Canvas,
    game: Game,
    seat: int,
    band: Band,
    xy: tuple[int, int],
    cam: Camera,
    u: int,
    names: list[str] | None,
    labels: Labels,
    hl: Highlights,
    framed: bool = False,
) -> None:
    s = game.state
    pl = s.players[seat]
    x0, y0 = xy
    p = pad(u)
    pname = f"player p{seat + 1}"
    rect = (x0, y0, x0 + band.width, y0 + band.height)
    current = seat == s.current and not s.over and not pl.removed
    winner = s.over and seat in game.winners()
    colour = pal.die_colour(seat)
    if not framed:
        cv.panel(pname, rect, fill=BOARD, outline=BOARD_EDGE)
    if current or winner:
        cv.draw.rounded_rectangle(rect, radius=12, outline=colour, width=max(3, u // 8))
    ix0, iy0 = x0 + p, y0 + p
    iw = band.info_w - 2 * p
    if current or winner:
        cv.draw.rounded_rectangle(
            (x0 + 3, y0 + 3, x0 + band.info_w - 2, y0 + p + round(1.75 * u)), radius=8, fill=pal.mix(colour, BOARD, 0.7)
        )
    ts = text_size(u)
    r = round(0.26 * u)
    ly = iy0 + round(0.4 * u)
    dice.draw_mark(cv.draw, pal.MARKS[seat % 4], ix0 + r, ly, r, fill=colour, outline=pal.INK, width=2)
    name = player_name(seat, names)
    # the name may use the column's right margin too (nothing stands there on its line)
    text, f = fit_name(name, font(ts, bold=True), band.info_w - p - 4 - (2 * r + 6))
    cv.text((ix0 + 2 * r + 6, ly), text, f, pal.player_ink(seat), anchor="lm", parent=pname)
    ly2 = iy0 + round(1.25 * u)
    tag_key = "left" if pl.removed else "to_play" if current else "winner" if winner else ""
    points = labels.text("points", points=game.score(seat))
    tag = labels.text(tag_key) if tag_key else ""
    # "▶ to play" and the points side by side (into the column's right margin): both smaller
    # before the tag is cut
    ss, row = small_size(u), band.info_w - p - 4
    pairs = [(ts, ss), (ts, round(ss * 0.88)), (ts, round(ss * 0.8)), (round(ts * 0.88), round(ss * 0.8)),
             (round(ts * 0.8), round(ss * 0.8))]  # fmt: skip
    pf, tf = next(
        ((font(a, bold=True), font(b, bold=True)) for a, b in pairs
         if not tag or text_width(font(a, bold=True), points) + text_width(font(b, bold=True), tag) + 8 <= row),
        (font(pairs[-1][0], bold=True), font(pairs[-1][1], bold=True)),
    )  # fmt: skip
    sr = cv.text((ix0 + row, ly2), points, pf, pal.INK, anchor="rm", parent=pname)
    if tag:
        cv.text((ix0, ly2), tag, tf, pal.INK, anchor="lm", max_width=sr[0] - ix0 - 3, parent=pname)
    _flow(game, seat, cam, u, iw, cv, (ix0, iy0), labels, hl)
    # the workrooms, side by side
    for room in range(2):
        bx = x0 + band.info_w + room * (band.board_w + band.gap)
        by = y0 + band.rise
        board = pieces.workroom(game, seat, room, hl)
        bounds = (bx, y0, bx + band.board_w, y0 + band.height)
        draw_board(cv, board, cam, (bx, by), parent=pname, bounds=bounds, framed=framed)
        _room_number(cv, cam, board, (bx, by), room, u, pname)


def _room_number(
    cv: Canvas, cam: Camera, board: pieces.Board, xy: tuple[int, int], room: int, u: int, parent: str
) -> None:
    """The workroom's number in a dark disc under its front corner."""
    w, _h, _rise = board_box(board, cam)
    fw, fh = cam.size(board.cols, board.rows)
    m = (w - fw) // 2
    rr = round(0.36 * u)
    # in the board's back left corner, which only a column on the far left reaches
    cx, cy = xy[0] + m + rr + 2, xy[1] + rr + 2
    if not cam.iso:  # from above: in the corner under the row numbers, left of the letters
        cx, cy = xy[0] + m - rr - 2, xy[1] + fh + rr + 2
    cv.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=pal.INK)
    cv.text((cx, cy + 1), str(room + 1), font(round(rr * 1.4), bold=True), BOARD, anchor="mm", parent=parent)


# --- the table's column: museum, artists, offers --------------------------------------


def museum_cam(game: Game, cam: Camera, width: int) -> Camera:
    """The museum's camera: its cells as large as the column's ``width`` allows, never
    smaller than the workrooms'."""
    board = pieces.museum(game, Highlights())
    a = cam.a
    while a < 1.3 * cam.a and board_box(board, camera(cam.iso, a + 1))[0] <= width:
        a += 1
    return camera(cam.iso, a)


def museum_size(game: Game, cam: Camera, u: int) -> tuple[int, int, int]:
    w, h, rise = board_box(pieces.museum(game, Highlights()), cam)
    return w, h, rise


def column_sizes(game: Game, cam: Camera, u: int, wider: int = 0) -> tuple[int, int, int, int]:
    """(width, museum height, artist card height, offer height) of the table's column;
    ``wider``: that much wider than it needs (the museum grows with it, a little)."""
    p = pad(u)
    dw, dh = cam.die_size()
    aw = 3 * (dw + 2) + 2 * p
    cw = max(museum_size(game, cam, u)[0] + 2 * p, 2 * aw + p) + wider
    _mw, mh, mrise = museum_size(game, museum_cam(game, cam, cw - 2 * p), u)
    museum_h = p + round(1.3 * u) + mrise + mh + p
    artist_h = round(0.9 * u) + 2 * round(0.62 * u) + dh + 2 * p
    offer_h = round(4.6 * u)
    return cw, museum_h, artist_h, offer_h


def band_floors(
    band: Band, xy: tuple[int, int], cam: Camera, pname: str
) -> list[tuple[FloorKey, tuple[int, int], str]]:
    """The two workrooms' floors of a band at ``xy``: what the cached frame draws."""
    board = pieces.Board("", WORKROOM_SIZE, WORKROOM_SIZE, ())
    x0, y0 = xy
    return [
        (floor_key(board, cam, SQUARE), (x0 + band.info_w + room * (band.board_w + band.gap), y0 + band.rise), pname)
        for room in range(2)
    ]


def museum_place(game: Game, board: pieces.Board, rect: Rect, cam: Camera, u: int) -> tuple[Camera, tuple[int, int]]:
    """The museum's camera and its board's place in the panel ``rect``."""
    x0, y0, x1, y1 = rect
    p = pad(u)
    cam = museum_cam(game, cam, x1 - x0 - 2 * p)
    w, h, rise = board_box(board, cam)
    top = y0 + p + round(1.3 * u)
    return cam, (x0 + (x1 - x0 - w) // 2, top + rise + max(0, (y1 - p - top - rise - h) // 2))


def draw_museum(
    cv: Canvas, game: Game, rect: Rect, cam: Camera, u: int, labels: Labels, hl: Highlights, framed: bool = False
) -> None:
    x0, y0, x1, y1 = rect
    p = pad(u)
    card = game.deck.museum(game.state.museum_card)
    if not framed:
        cv.panel("museum", rect, fill=BOARD, outline=BOARD_EDGE)
    ts = text_size(u)
    tr = cv.text((x0 + p, y0 + p), labels.text("museum"), font(ts, bold=True), pal.INK, anchor="la", parent="museum")
    title, f = fit_name(labels.museum(card), font(small_size(u)), x1 - x0 - 2 * p)
    cv.text((x0 + p, tr[3] + round(0.12 * u)), title, f, pal.MUTED, anchor="la", parent="museum")
    museum_count(cv, game, rect, p, small_size(u), labels, "museum")
    board = pieces.museum(game, hl)
    mcam, xy = museum_place(game, board, rect, cam, u)
    top = y0 + p + round(1.3 * u)
    draw_board(cv, board, mcam, xy, floor=MUSEUM_SQUARE, parent="museum", bounds=(x0, top, x1, y1), framed=framed)


def draw_artist(
    cv: Canvas, game: Game, i: int, rect: Rect, cam: Camera, u: int, labels: Labels, hl: Highlights
) -> None:
    band = round(0.9 * u)
    card = game.artist_card(i)
    if not artist_band(cv, game, i, rect, u, band, text_size(u), labels, card) or card is None:
        return
    x0, y0, x1, y1 = rect
    p = pad(u)
    af = font(small_size(u))
    for k, line in enumerate(wrap(action_text(card, labels), af, x1 - x0 - 2 * p + 4, 2)):
        cv.text((x0 + p - 2, y0 + band + 3 + k * round(0.62 * u)), line, af, pal.INK, anchor="la",
                parent=f"artist {i + 1}")  # fmt: skip
    slot = game.state.artists[i]
    dw, dh = cam.die_size()
    for k in range(card.dice):
        xy = (x0 + p + k * (dw + 2), y1 - p // 2 - dh)
        if k < slot.count and slot.owner is not None:
            draw_die(cv, cam, xy, pieces.Die(slot.owner, slot.value, f"artist {i + 1}", i in hl.artists))
        else:
            draw_slot(cv, cam, xy)


def draw_offer(cv: Canvas, game: Game, i: int, rect: Rect, cam: Camera, u: int, labels: Labels) -> None:
    p = pad(u) // 2 + 2
    ts = text_size(u)
    card = offer_frame(cv, game, i, rect, ts, labels)
    if card is None:
        return
    on_card = cv.within(f"offer {i + 1}")
    top = offer_title(on_card, card, rect, p, u, ts, labels)
    x0, _y0, x1, y1 = rect
    # the plan between the title and the bonus spaces (a line, or more on a narrow card)
    bottom = min(y1 - p - round(0.55 * u), offer_bonus(on_card, card, rect, p, u, bonus_sizes(u), labels) - 3)
    board = pieces.plan(card, f"offer {i + 1} plan")

    # the plan's cubes as large as fit between the title and the bonus line (a box grows
    # with the cube: halving finds the largest, at least 4)
    def fits(q: int) -> bool:
        w, h, rise = board_box(board, camera(cam.iso, q))
        return w <= x1 - x0 - 2 * p and h + rise <= bottom - top

    lo, hi = 4, cam.a
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    pc = camera(cam.iso, lo)
    w, h, rise = board_box(board, pc)
    draw_board(cv, board, pc, (x0 + (x1 - x0 - w) // 2, top + rise + max(0, (bottom - top - h - rise) // 2)), record=[])


def bonus_sizes(u: int) -> tuple[int, ...]:
    return (round(0.48 * u), round(0.42 * u), round(0.36 * u), max(10, round(0.32 * u)))


# --- header ------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def header_height(width: int, u: int, over: bool = False) -> tuple[int, int, int]:
    """(height, recap unit, status size) of a header with one row of dice and one line of
    words: the recap's numerals and the whose-turn line PHONE_GLYPH px tall once the picture
    is shrunk to a phone's width; ``over``: room for the game-over line on two lines (who
    won, in full, that large, takes more than one)."""
    need = PHONE_GLYPH / phone_scale(width)
    ru = _recap_unit(need, u)
    size = max(text_size(u) + 4, math.ceil(need / 0.72) + 1)
    dh = camera(True, ru).die_size()[1]
    p = pad(u)
    return (p + max(dh, round(size * (2.5 if over else 1.3))) + round(0.75 * u) + p, ru, size)


@lru_cache(maxsize=256)
def _recap_unit(need: float, u: int) -> int:
    """The smallest cube unit whose numerals are ``need`` px tall."""
    ru = u
    while True:
        box = value_font(camera(True, ru)).getbbox("4", anchor="mm")
        if box[3] - box[1] >= need:
            return ru
        ru += 1


@lru_cache(maxsize=64)
def _mark_font(width: int, size: int) -> Font:
    """The destinations' type ("→ ①", "→ Museum"): its numbers and capitals RECAP_FLOOR px
    tall on a phone (they are what says where the dice went)."""
    need = RECAP_AIM / phone_scale(width)
    s = round(size * 0.8)
    while min(_ink_height(font(s, bold=True), t) for t in ("→ ①", "→ M")) < need:
        s += 1
    return font(s, bold=True)


def _ink_height(f: Font, text: str) -> int:
    box = f.getbbox(text, anchor="lm")
    return int(box[3] - box[1])


@dataclass(frozen=True, slots=True)
class HeaderPlan:
    """What the header holds and how tall it is: its whose-turn line (one, or two when the
    game is over), the last turn's dice beside it (in more rows when one is not enough) and
    the last turn in words (on more lines when one would cut it).  A header grows only for a
    turn that needs it."""

    height: int
    size: int  # the whose-turn line's type
    status: tuple[str, ...]
    row: int  # the whose-turn line's and the dice's height
    ru: int  # the recap's cube unit
    step: int  # from one of its dice to the next
    tight: bool  # the places' words closer to their dice and to each other
    who: str  # the player's name before the dice ("" when left out)
    rows: tuple[tuple[RecapItem, ...], ...]
    lines: tuple[str, ...]
    line_size: int
    corner: bool = False  # the dice in the picture's empty corner, not beside the whose-turn line
    heading: str = ""  # ... under the name of whose turn it was
    words_apart: bool = False  # the turn in words in the corner instead (the dice stay in the header)

    @property
    def dice_apart(self) -> bool:
        return self.corner and not self.words_apart


Corner = tuple[int, int]  # (width, height) of the room a layout leaves empty (under the column, beside the cards)


class HeaderPlanner:
    """The headers of one game's table for the widths and corners its layouts try, each
    planned once (the layouts ask for a few widths, each with several corners): as a layout's
    ``Head``, the header's height and whether it takes the corner; ``plan`` the header
    itself.  A corner is room the layout leaves empty, where the last turn's dice may go when
    beside the whose-turn line they would make the header taller (a long turn's rows of
    dice, who won on three lines); ``squeeze``: for a table that falls short of the goal
    without, 1: else the turn in words may go there; 2: else it may be left out (the post
    over the picture tells the turn in full)."""

    def __init__(self, game: Game, names: list[str] | None, labels: Labels, u: int, squeeze: int = 0) -> None:
        self.game, self.names, self.labels, self.u, self.squeeze = game, names, labels, u, squeeze
        self._beside: dict[int, HeaderPlan] = {}
        self._plans: dict[tuple[int, Corner | None], HeaderPlan] = {}

    def __call__(self, width: int, corner: Corner | None) -> tuple[int, bool]:
        plan = self.plan(width, corner)
        return plan.height, plan.corner

    def plan(self, width: int, corner: Corner | None = None) -> HeaderPlan:
        if (width, corner) not in self._plans:
            self._plans[width, corner] = self._make(width, corner)
        return self._plans[width, corner]

    def _make(self, width: int, corner: Corner | None) -> HeaderPlan:
        game, names, labels, u = self.game, self.names, self.labels, self.u
        if width not in self._beside:
            self._beside[width] = _beside_plan(game, names, labels, width, u)
        beside = self._beside[width]
        plan = beside
        if corner is not None:
            plan = _lower(
                game,
                beside,
                self.squeeze > 0,
                lambda: _corner_plan(game, names, labels, width, u, corner, beside, split=self.squeeze > 0),
                lambda: _words_plan(game, names, labels, u, corner, beside),
            )
        if self.squeeze > 1 and plan.lines and not plan.words_apart and game.state.last_turn:
            plan = dataclasses.replace(plan, height=_bare_height(plan.row, u), lines=())
        return plan


def plan_header(
    game: Game,
    names: list[str] | None,
    labels: Labels,
    width: int,
    u: int,
    corner: Corner | None = None,
    squeeze: int = 0,
) -> HeaderPlan:
    """The header of a picture ``width`` wide (``corner``, ``squeeze``: as HeaderPlanner)."""
    return HeaderPlanner(game, names, labels, u, squeeze).plan(width, corner)


def _lower(
    game: Game,
    beside: HeaderPlan,
    squeeze: bool,
    dice: Callable[[], HeaderPlan | None],
    words: Callable[[], HeaderPlan | None],
) -> HeaderPlan:
    """The dice in the corner when that makes the header lower by half a line or more;
    squeezed, else the turn in words when that makes it lower at all."""
    if not game.state.last_turn:
        return beside
    low = dice()
    if low is not None and low.height <= beside.height - beside.size // 2:
        return low
    low = words() if squeeze else None
    return low if low is not None and low.height < beside.height else beside


def _beside_plan(game: Game, names: list[str] | None, labels: Labels, width: int, u: int) -> HeaderPlan:
    s = game.state
    p = pad(u)
    _h, ru, size = header_height(width, u, s.over)
    room = width - 4 * p  # the header stands ``p`` in from the picture's sides, its contents ``p`` more
    dw, dh = camera(True, ru).die_size()
    most = room - 2 * (dw + 4) - 3 * p
    f = font(size, bold=True)
    if s.over:
        # who won on its fewest lines, then split narrower: more room beside it for the dice
        first = _game_over_lines(game, names, labels, most, size)
        options = [first, *(_split(" ".join(first), f, most, k) for k in (len(first) + 1, len(first) + 2))]
        options.append(_status_across(game, names, labels, f, most))  # on one line, in fewer words
        if names:  # in fewer words on two lines, the winner's name as their band has it
            short = [_initials(n) for n in names]
            options += [
                _split(make(game, short, labels), f, most, 2, keep=short) for make in (status_line, winner_line)
            ]
        options = [o for o in dict.fromkeys(options) if o and len(o) <= 3]
    else:
        text, sf = _fitting(lambda n: status_line(game, n, labels), names, (size,), min(room * 0.5, most))
        options = [(fit_words(text, sf, most),)]
        if names:  # a long turn's dice before the later words of a long name ("Bartholomew t. M.")
            firsts = [" ".join(w for w in _initials(n).split() if not w.endswith(".")) for n in names]
            options.append((fit_words(status_line(game, firsts, labels), f, most),))
            # then the name alone after the arrow, in the player's colour, as their band shows it
            options.append((fit_words(labels.text("next_short", who=firsts[s.current]), f, most),))
    plans = []
    for status in options:
        status_w = max(text_width(f, line) for line in status)
        recap_w = round(room - status_w - 2 * p)
        who, rows, ru_, step, tight = _recap_rows(game, names, labels, width, size, ru, recap_w)
        # the whose-turn line and the dice's rows beside it (a game-over line's two lines hold two rows)
        row = max(dh, round(size * _status_rows(len(status))), _rows_height(len(rows), ru_, u))
        plans.append((row, status, who, rows, ru_, step, tight))
        if len(rows) < 2 and not s.over:
            break
    # the game over: the lowest header (of two alike, who won on fewer lines); else the last tried
    row, status, who, rows, ru_, step, tight = min(plans, key=lambda plan: plan[0]) if s.over else plans[-1]
    lines, line_size = _turn_lines(game, names, labels, room, text_size(u))
    height = _header_height(row, lines, line_size, u)
    return HeaderPlan(height, size, status, row, ru_, step, tight, who, rows, lines, line_size)


def _header_height(row: int, lines: tuple[str, ...], line_size: int, u: int) -> int:
    """The whose-turn line's row (and the dice beside it), then the turn in words."""
    return pad(u) + row + round(0.75 * u) + (len(lines) - 1) * round(line_size * 1.25) + pad(u)


def _bare_height(row: int, u: int) -> int:
    """The whose-turn line's row alone (the turn in words in the corner, or in the post)."""
    return pad(u) + row + pad(u)


def _corner_plan(
    game: Game,
    names: list[str] | None,
    labels: Labels,
    width: int,
    u: int,
    corner: Corner,
    beside: HeaderPlan,
    split: bool = False,
) -> HeaderPlan | None:
    """The whose-turn line ``status`` across the header (who won on one line, the winner's
    name shortened, before two) and the last turn's dice in the corner, under the name of
    whose turn it was; None when they do not fit there.  The turn in words as ``beside``
    has it."""
    p = pad(u)
    _h, ru, size = header_height(width, u, game.state.over)
    status = _status_across(game, names, labels, font(size, bold=True), width - 4 * p)
    if not status:
        return None
    cw, ch = corner
    _who, rows, ru_, step, tight = _recap_rows(game, names, labels, width, size, ru, cw - 2 * p)
    # under "Last turn, Ada" when there is room for it (the turn in words says it too)
    heading = _corner_heading(game, names, labels, cw - 2 * p, u)
    if heading and _corner_height(len(rows), ru_, u, True) > ch:
        heading = ""
    if not rows or _corner_height(len(rows), ru_, u, bool(heading)) > ch:
        return None
    if not split and sum(len(r) for r in rows) > len(recap(game, labels)):
        return None  # a place's dice over two rows read as two places: only for a table short of the goal
    row = round(size * _status_rows(len(status)))
    height = _header_height(row, beside.lines, beside.line_size, u)
    return HeaderPlan(
        height, size, status, row, ru_, step, tight, "", rows, beside.lines, beside.line_size, True, heading
    )


def _status_across(game: Game, names: list[str] | None, labels: Labels, f: Font, room: int) -> tuple[str, ...]:
    """The whose-turn line on one line ``room`` wide; who won: "Game over: Ada wins with
    28 pts", else without "Game over" ("Bartholomew t. M. wins with 25 pts": the winner's
    band says so too), the names shortened before two lines."""
    for make in (status_line, winner_line) if game.state.over else (status_line,):
        text, sf = _fitting(_told(make, game, labels), names, (int(f.size),), room)
        if text_width(sf, text) <= room:
            return (text,)
    return _game_over_lines(game, names, labels, room, int(f.size)) if game.state.over else ()


def _words_plan(
    game: Game, names: list[str] | None, labels: Labels, u: int, corner: Corner, beside: HeaderPlan
) -> HeaderPlan | None:
    """``beside`` with the turn in words in the corner, in full when it fits there, else in
    fewer words; None when neither fits."""
    p = pad(u)
    cw, ch = corner
    ts = text_size(u)
    lf = font(ts)
    for make in (last_turn_line, brief_line):
        lines = wrap(make(game, names, labels), lf, cw - 2 * p, 99)
        if not any("…" in line for line in lines) and _words_height(len(lines), ts, u) <= ch:
            height = _bare_height(beside.row, u)
            return dataclasses.replace(beside, height=height, lines=lines, line_size=ts, corner=True, words_apart=True)
    return None


def _words_height(lines: int, size: int, u: int) -> int:
    return pad(u) + lines * round(size * 1.25) + pad(u)


def _corner_heading(game: Game, names: list[str] | None, labels: Labels, width: int, u: int) -> str:
    """Whose turn the corner's dice were ("Last turn, Bartholomew t. M."), shortened to fit."""
    last = game.state.last_turn
    if last is None:
        return ""
    name = player_name(last.seat, names)
    f = font(text_size(u), bold=True)
    for who in dict.fromkeys((plain_name(name), _initials(name))):
        text = labels.text("recap_title", who=who)
        if text_width(f, text) <= width:
            return text
    return ""


def _corner_height(rows: int, ru: int, u: int, heading: bool) -> int:
    """The corner panel's height: its heading, then the rows of dice."""
    p = pad(u)
    return p // 2 + (round(text_size(u) * 1.3) if heading else p // 2) + _rows_height(rows, ru, u) + p


def _rows_height(n: int, ru: int, u: int) -> int:
    return n * camera(True, ru).die_size()[1] + (n - 1) * round(0.2 * u)


def _turn_lines(game: Game, names: list[str] | None, labels: Labels, room: int, ts: int) -> tuple[tuple[str, ...], int]:
    """The last turn in words, never cut: told in full on one line; else in fewer words
    (each die and where it went, then the rest) on one line; else those on as many lines as
    they take."""
    sizes = (ts, ts - 2, ts - 3)
    for make in (last_turn_line, brief_line):
        line, lf = _fitting(_told(make, game, labels), names, sizes, room, bold=False)
        if text_width(lf, line) <= room:
            return (line,), int(lf.size)
    short = [_initials(n) for n in names] if names else None
    lf = font(sizes[-1])
    return wrap(brief_line(game, short, labels), lf, room, 99), int(lf.size)


def _told(
    make: Callable[[Game, list[str] | None, Labels], str], game: Game, labels: Labels
) -> Callable[[list[str] | None], str]:
    return lambda names: make(game, names, labels)


def _recap_rows(
    game: Game, names: list[str] | None, labels: Labels, width: int, size: int, ru: int, first: int
) -> tuple[str, tuple[tuple[RecapItem, ...], ...], int, int, bool]:
    """(name, rows, cube unit, a die's step) of the last turn's dice: every die with where it
    went, always.  In one row beside the whose-turn line with the player's name, then with
    initials, then without it; then with smaller dice (their numerals RECAP_FLOOR px on a
    phone, not PHONE_GLYPH); then with the dice of one place closer, each over the right face
    of the one before, whose value stays clear; else in more rows, one under another, each
    ``first`` wide."""
    items = recap(game, labels)
    if not items:
        return "", (), ru, 0, False
    mf = _mark_font(width, size)
    name = player_name(items[0][0], names)
    small = _recap_unit(RECAP_AIM / phone_scale(width), TABLE_UNIT)
    dw = camera(True, small).die_size()[0]
    tries = [(unit, camera(True, unit).die_size()[0] + 4, False) for unit in dict.fromkeys((ru, small))]
    whos = dict.fromkeys((*(labels.text("recap_who", who=n) for n in (plain_name(name), _initials(name))), ""))
    for unit, step, tight in [*tries, (small, math.ceil(CLOSE_STEP * dw), True)]:
        dw = camera(True, unit).die_size()[0]
        for who in whos:
            if _row_width(items, who, mf, dw, step, tight) <= first:
                return who, (tuple(items),), unit, step, tight
    rows: list[list[RecapItem]] = [[]]  # as close as in the last try
    for seat, where, dice_ in items:
        left = dice_
        while left:
            k = len(left)
            while k > 0 and _row_width([*rows[-1], (seat, where, left[:k])], "", mf, dw, step, True) > first:
                k -= 1
            if rows[-1] and k < len(left):  # a place's dice together on the next row, when they fit there
                rows.append([])
                continue
            k = max(k, 1)  # on a row of their own: as many as fit, at least one
            rows[-1].append((seat, where, left[:k]))
            left = left[k:]
    return "", tuple(tuple(r) for r in rows if r), small, step, True


def _row_width(items: list[RecapItem], who: str, mf: Font, dw: int, step: int, tight: bool = False) -> float:
    """A recap row's width: the name, then each place's dice ``step`` apart and its words."""
    w = text_width(mf, who) + 10 if who else 0.0
    gap = GAP[tight]
    for _seat, where, dice_ in items:
        w += (len(dice_) - 1) * step + dw + 6 + text_width(mf, _mark(where, tight)) + gap
    return w - gap


def _mark(where: str, tight: bool) -> str:
    return f"→{where}" if tight else f"→ {where}"


def draw_header(cv: Canvas, game: Game, rect: Rect, plan: HeaderPlan, u: int, labels: Labels) -> None:
    x0, y0, x1, y1 = rect
    s = game.state
    p = pad(u)
    cv.panel("header", rect, fill=BOARD, outline=BOARD_EDGE)
    row_top = y0 + p // 2
    mid = row_top + plan.row // 2
    ink = pal.INK if s.over else pal.player_ink(s.current)
    f = font(plan.size, bold=True)
    step = round(plan.size * 1.15)
    top = mid - (len(plan.status) - 1) * step // 2
    boxes = [cv.text((x0 + p, top + k * step), line, f, ink, anchor="lm", parent="header")
             for k, line in enumerate(plan.status)]  # fmt: skip
    cv.status = (min(b[0] for b in boxes), boxes[0][1], max(b[2] for b in boxes), boxes[-1][3])
    rc = camera(True, plan.ru)
    mf = _mark_font(cv.size[0], plan.size)
    dh = rc.die_size()[1]
    g = round(0.2 * u)
    top = row_top + (plan.row - _rows_height(len(plan.rows), plan.ru, u)) // 2
    for k, items in enumerate(() if plan.dice_apart else plan.rows):
        rmid = mid if len(plan.rows) == 1 else top + k * (dh + g) + dh // 2
        _recap_row(cv, items, plan.who if k == 0 else "", (x1 - p, rmid), rc, mf, plan.step, plan.tight)
    if plan.words_apart or not plan.lines:
        return
    lf = font(plan.line_size)
    lstep = round(plan.line_size * 1.25)
    n = len(plan.lines)
    for k, line in enumerate(plan.lines):
        lr = cv.text((x0 + p, y1 - p // 2 - (n - 1 - k) * lstep), line, lf, pal.INK, anchor="ld", parent="header")
    info, inf = _turn_info(game, labels), font(small_size(u))
    if text_width(inf, info) <= x1 - p - lr[2] - 3 * p:
        cv.text((x1 - p, y1 - p // 2), info, inf, pal.MUTED, anchor="rd", parent="header")


def _turn_info(game: Game, labels: Labels) -> str:
    """ "turn 46 · 10 installations in the deck" """
    return labels.count("header", len(game.state.installation_deck), turn=game.state.turn + 1)


def draw_corner(cv: Canvas, game: Game, rect: Rect, plan: HeaderPlan, u: int, labels: Labels) -> None:
    """The last turn's dice in the picture's empty corner, left-aligned under the name of
    whose turn it was; or the turn in words."""
    x0, y0, x1, y1 = rect
    p = pad(u)
    last = game.state.last_turn
    cv.panel("last turn", rect, fill=BOARD, outline=BOARD_EDGE)
    if plan.words_apart:
        lf, lstep = font(plan.line_size), round(plan.line_size * 1.25)
        for k, line in enumerate(plan.lines):
            cv.text((x0 + p, y0 + p + k * lstep), line, lf, pal.INK, anchor="lt", parent="last turn")
        # the turn's number and the deck, as the header has them, when there is room left
        info, inf = _turn_info(game, labels), font(small_size(u))
        if y0 + p + (len(plan.lines) + 1) * lstep <= y1 - p and text_width(inf, info) <= x1 - x0 - 2 * p:
            cv.text((x0 + p, y1 - p // 2), info, inf, pal.MUTED, anchor="ld", parent="last turn")
        return
    ts = text_size(u)
    seat = last.seat if last is not None else 0
    if plan.heading:
        cv.text((x0 + p, y0 + p // 2), plan.heading, font(ts, bold=True), pal.player_ink(seat), anchor="lt",
                parent="last turn")  # fmt: skip
    rc = camera(True, plan.ru)
    mf = _mark_font(cv.size[0], plan.size)
    dw, dh = rc.die_size()
    g = round(0.2 * u)
    top = y0 + p // 2 + (round(ts * 1.3) if plan.heading else p // 2)
    for k, items in enumerate(plan.rows):
        w = _row_width(list(items), "", mf, dw, plan.step, plan.tight)
        right_mid = (round(x0 + p + w), top + k * (dh + g) + dh // 2)
        _recap_row(cv, items, "", right_mid, rc, mf, plan.step, plan.tight, "last turn")


def _game_over_lines(game: Game, names: list[str] | None, labels: Labels, width: int, size: int) -> tuple[str, ...]:
    """Who won, never cut: on two lines, the names in full when they fit, else shortened
    (initials for the later words)."""
    f = font(size, bold=True)
    lines: tuple[str, ...] = ()
    shorter = [[plain_name(n) for n in names], [_initials(n) for n in names]] if names else []
    for candidate in (names, *shorter):
        lines = _two_lines(status_line(game, candidate, labels), f, width)
        if lines:
            break
    if not lines:  # not even with initials: cut the end (the points), never the start
        lines = wrap(status_line(game, shorter[-1] if shorter else names, labels), f, width, 2)
    return lines


def _status_rows(lines: int) -> float:
    """The whose-turn line's height in its type's size: one line, two or three (who won)."""
    return 3.65 if lines > 2 else 2.5 if lines == 2 else 1.3


def _two_lines(text: str, f: Font, width: int) -> tuple[str, ...]:
    """``text`` on one line if it fits, else on two of about equal width (no short last
    word alone), or () when it does not fit on two."""
    if text_width(f, text) <= width:
        return (text,)
    return _split(text, f, width, 2)


def _split(text: str, f: Font, width: int, lines: int, keep: Sequence[str] = ()) -> tuple[str, ...]:
    """``text`` on exactly ``lines`` lines, the widest as narrow as can be, or () when they
    do not fit ``width`` (or there are too few words); the phrases ``keep`` (short names:
    "Bartholomew t. M.") never broken."""
    for phrase in keep:
        text = text.replace(phrase, phrase.replace(" ", "\0"))
    words = [w.replace("\0", " ") for w in text.split()]
    if len(words) < lines:
        return ()
    best: tuple[str, ...] = ()
    for cuts in combinations(range(1, len(words)), lines - 1):
        parts = tuple(" ".join(words[a:b]) for a, b in zip((0, *cuts), (*cuts, len(words)), strict=True))
        widest = max(text_width(f, part) for part in parts)
        if widest <= width and (not best or widest < max(text_width(f, part) for part in best)):
            best = parts
    return best


def _recap_row(
    cv: Canvas,
    items: tuple[RecapItem, ...],
    who: str,
    right_mid: tuple[int, int],
    rc: Camera,
    mf: Font,
    step: int,
    tight: bool,
    parent: str = "header",
) -> None:
    """A row of the last turn's dice, right-aligned at ``right_mid``: "Bruno: [4][4] → ①  [5] → Museum"."""
    if not items:
        return
    dw, dh = rc.die_size()
    x: float = right_mid[0] - _row_width(list(items), who, mf, dw, step, tight)
    mid = right_mid[1]
    if who:
        r = cv.text((x, mid), who, mf, pal.player_ink(items[0][0]), anchor="lm", parent=parent)
        x = r[2] + 10
    for _seat, where, dice_ in items:
        for i, (key, value, height) in enumerate(dice_):
            draw_die(cv, rc, (round(x), mid - dh // 2), pieces.Die(key, value, f"recap {where}", True), cv.recap)
            if height >= 2:
                last = cv.recap[-1]
                cv.recap[-1] = type(last)(last.where, last.value, height, last.glyph, last.cell, body=last.body,
                                          lit=True)  # fmt: skip
            x += step if i < len(dice_) - 1 else dw + 4
        r = cv.text((x + 2, mid), _mark(where, tight), mf, pal.INK, anchor="lm", parent=parent)
        x = r[2] + GAP[tight]


# --- compositions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    size: tuple[int, int]
    header: Rect
    bands: tuple[tuple[int, int], ...]  # each player's band's top left
    sizes: tuple[Band, ...]  # ... and its size (the bands of a row alike)
    museum: Rect
    artists: tuple[Rect, ...]
    offers: tuple[Rect, ...]
    corner: Rect | None = None  # the last turn's dice or words, when the header put them there
    squeeze: int = 0  # the header planner's (HeaderPlanner.squeeze) it was planned with


# A header's height for a picture's width and the empty corner its layout leaves (None:
# none), and whether it puts the last turn's dice, or the turn in words, there.
Head = Callable[[int, Corner | None], tuple[int, bool]]


def layout(
    game: Game,
    cam: Camera,
    u: int,
    per_row: int,
    cards_below: bool = False,
    sizes: tuple[tuple[Band, ...], tuple[int, int, int, int]] | None = None,
    all_below: bool = False,
    head: Head | None = None,
) -> Layout:
    """The bands ``per_row`` side by side, the column beside them; with ``cards_below`` the
    column holds the museum alone and the artist cards and the offer stand in a row under
    everything (fewer bands than the column is tall); with ``all_below`` nothing stands
    beside the bands: under them the museum, and beside it the artist cards in a row over
    the offer (from above, whose boards are squarer, this keeps the picture wide).  ``head``:
    the header's height for a picture's width and the corner left empty (by default one row
    of dice, one line of words, no corner)."""
    if head is None:
        head = lambda w, _c: (header_height(w, u, game.state.over)[0], False)  # noqa: E731
    n = game.num_players
    p = pad(u)
    g = round(0.3 * u)
    own, (cw, museum_h, artist_h, offer_h) = sizes or (seat_bands(game, cam, u), column_sizes(game, cam, u))
    rows = math.ceil(n / per_row)
    # each row as tall as its tallest band, its boards on one line
    row_bands = []
    for r in range(rows):
        mine = own[r * per_row : (r + 1) * per_row]
        rise = max(b.rise for b in mine)
        row_bands.append(dataclasses.replace(mine[0], rise=rise, board_h=max(b.height for b in mine) - rise))
    band = own[0]
    aw, ow = (cw - g) // 2, (cw - 2 * g) // 3
    body_w = per_row * band.width + (per_row - 1) * g
    width = p + body_w + g + cw + p
    if cards_below:
        width = max(width, p + 4 * (aw + g) + 3 * (ow + g) - g + p)
    bands_h = sum(b.height for b in row_bands) + (rows - 1) * g
    col_h = museum_h + (0 if cards_below else 2 * (artist_h + g) + g + offer_h)
    # under the column, beside the bands' last rows: room for the last turn's dice
    room = (cw, bands_h - col_h - g) if not all_below and bands_h - col_h - g > 2 * u else None
    head_h, used = head(width, room)
    top = p + head_h + g
    row_tops = [top + sum(b.height + g for b in row_bands[:r]) for r in range(rows)]
    bands = tuple((p + (i % per_row) * (band.width + g), row_tops[i // per_row]) for i in range(n))
    placed = tuple(row_bands[i // per_row] for i in range(n))
    x = p + body_w + g
    museum = (x, top, x + cw, top + museum_h)
    corner = (x, top + bands_h - room[1], x + cw, top + bands_h) if room and used else None
    if all_below:
        width = max(p + body_w + p, p + cw + g + 4 * (aw + g) - g + p)
        # beside the artist cards, under the bands: room for the last turn's dice
        cx, below_h = p + cw + g + 4 * (aw + g), max(museum_h, artist_h + g + offer_h)
        room = (width - p - cx, below_h) if width - p - cx > 2 * u else None
        head_h, used = head(width, room)
        shift = p + head_h + g - top  # the header's height follows the picture's width
        top += shift
        bands = tuple((x, y + shift) for x, y in bands)
        y = top + bands_h + g
        museum = (p, y, p + cw, y + museum_h)
        x = p + cw + g
        artists = tuple((x + i * (aw + g), y, x + i * (aw + g) + aw, y + artist_h) for i in range(4))
        y2 = y + artist_h + g
        offers = tuple((x + i * (ow + g), y2, x + i * (ow + g) + ow, y2 + offer_h) for i in range(3))
        height = y + below_h + p
        corner = (cx, y, width - p, y + below_h) if room and used else None
        return Layout((width, height), (p, p, width - p, p + head_h), bands, placed, museum, artists, offers, corner)
    if cards_below:
        y = top + max(bands_h, museum_h) + g
        cards_h = max(artist_h, offer_h)
        artists = tuple((p + i * (aw + g), y, p + i * (aw + g) + aw, y + cards_h) for i in range(4))
        x = p + 4 * (aw + g)
        offers = tuple((x + i * (ow + g), y, x + i * (ow + g) + ow, y + cards_h) for i in range(3))
        height = y + cards_h + p
        return Layout((width, height), (p, p, width - p, p + head_h), bands, placed, museum, artists, offers, corner)
    y = top + museum_h + g
    artists = tuple(
        (x + (i % 2) * (aw + g), y + (i // 2) * (artist_h + g), x + (i % 2) * (aw + g) + aw,
         y + (i // 2) * (artist_h + g) + artist_h)
        for i in range(4)
    )  # fmt: skip
    y += 2 * (artist_h + g)
    offers = tuple((x + i * (ow + g), y, x + i * (ow + g) + ow, y + offer_h) for i in range(3))
    height = top + max(bands_h, col_h) + p
    return Layout((width, height), (p, p, width - p, p + head_h), bands, placed, museum, artists, offers, corner)


def glyph_px(cam: Camera) -> int:
    """A value's height on the picture."""
    box = value_font(cam).getbbox("4", anchor="mm")
    return int(box[3] - box[1])


def glyph_goal(game: Game, cam: Camera) -> float:
    """The values' height the laptop preview needs: MIN_GLYPH (MIN_GLYPH_4P with 4 players),
    more from above, where the height figures beside the values are smaller and need 7 px."""
    goal = MIN_GLYPH_4P if game.num_players >= 4 else MIN_GLYPH
    if not cam.iso:
        box = figure_font(cam).getbbox("4", anchor="mm")
        goal = max(goal, MIN_FIGURE * glyph_px(cam) / (box[3] - box[1]))
    return goal


def best_layout(game: Game, cam: Camera, u: int, head: Head | None = None, *squeezed: Head) -> Layout:
    """The arrangement of the players' bands (one under another, or two by two) whose dice
    are largest at the laptop preview; ``head`` as ``layout`` takes it; ``squeezed``: lower
    headers, each tried in turn while the table falls short of the goal (a layout's
    ``squeeze`` says which it took: 1 for the first)."""
    goal = glyph_goal(game, cam)
    options = _layouts(game, cam, u, head, goal)
    for k, lower in enumerate(squeezed, 1):
        if glyph_px(cam) * max(preview_scale(*lay.size) for lay in options) >= goal:
            break
        options += [dataclasses.replace(lay, squeeze=k) for lay in _layouts(game, cam, u, lower, goal)]
    # of those that reach the goal, the largest dice at the preview; of two alike (within
    # 2%), the smaller picture
    pool = [lay for lay in options if glyph_px(cam) * preview_scale(*lay.size) >= goal]
    if not pool:  # none reaches it: the closest
        return max(options, key=lambda lay: (preview_scale(*lay.size), -lay.size[0] * lay.size[1]))
    best = max(preview_scale(*lay.size) for lay in pool)
    return min(
        (lay for lay in pool if preview_scale(*lay.size) >= 0.98 * best), key=lambda lay: lay.size[0] * lay.size[1]
    )


def _layouts(game: Game, cam: Camera, u: int, head: Head | None, goal: float) -> list[Layout]:
    options: list[Layout] = []
    column = column_sizes(game, cam, u)
    # the info columns three dice wide, or up to six when many dice and cards make them too tall
    # (a 4-player table is short of height, not width: a wider band costs it less)
    by_width: list[float] = []  # each width's largest preview scale
    boxes = workroom_boxes(game, cam)
    narrowest: tuple[Band, ...] = ()  # the bands three dice wide
    for dice_wide in (3, 4, 5, 6):
        # a wider info column (fewer rows of dice and cards) while it helps: past the goal,
        # until a width does no better than the one before
        if len(by_width) >= 2 and glyph_px(cam) * max(by_width) >= goal and by_width[-1] <= by_width[-2]:
            break
        tried = len(options)
        sizes = (seat_bands(game, cam, u, dice_wide, boxes), column)
        narrowest = narrowest or sizes[0]
        options += [
            layout(game, cam, u, 1, sizes=sizes, head=head),
            layout(game, cam, u, 1, cards_below=True, sizes=sizes, head=head),
        ]
        if game.num_players > 2:
            options.append(layout(game, cam, u, 2, sizes=sizes, head=head))
            if not cam.iso:
                options.append(layout(game, cam, u, 2, sizes=sizes, all_below=True, head=head))
        by_width.append(max(preview_scale(*lay.size) for lay in options[tried:]))
    if glyph_px(cam) * max(by_width) < goal and head is not None:
        # short of the goal: a wider column, whose corner under it may take the last turn's
        # dice out of the header (a picture limited by its height has width to spare)
        for k in (2, 4, 6):
            options.append(layout(game, cam, u, 1, sizes=(narrowest, column_sizes(game, cam, u, k * u)), head=head))
    return options


@lru_cache(maxsize=32)
def frame(
    size: tuple[int, int],
    panels: tuple[tuple[str, Rect], ...],
    floors: tuple[tuple[FloorKey, tuple[int, int], str], ...],
) -> tuple[Image.Image, tuple[Box, ...]]:
    """What stays from one turn to the next: the table, the panels, the boards' floors."""
    cv = Canvas(*size, TABLE)
    for name, rect in panels:
        cv.panel(name, rect, fill=BOARD, outline=BOARD_EDGE)
    for key, xy, parent in floors:
        cv.layer(floor_layer(*key), xy, parent)
    return cv.freeze()


def table_canvas(
    game: Game,
    names: list[str] | None,
    *,
    labels: Labels,
    iso: bool = True,
    surface: Callable[[int, int], Canvas] | None = None,
    header: Game | None = None,
) -> Canvas:
    """The table, on a Pillow canvas (its unchanging parts from a cached frame) or on
    ``surface(width, height)`` (render.svgcanvas); ``header``: the game whose header to
    draw (the web board's: the turn as it began)."""
    u = TABLE_UNIT
    cam = cam_for(iso, u)
    told = header or game
    lay, plan = _planned(game, told, cam, names, labels)
    hl = highlights(game)
    museum = pieces.museum(game, hl)
    mcam, mxy = museum_place(game, museum, lay.museum, cam, u)
    panels = [("museum", lay.museum)]
    floors = [(floor_key(museum, mcam, MUSEUM_SQUARE), mxy, "museum")]
    for seat, (x0, y0) in enumerate(lay.bands):
        band = lay.sizes[seat]
        panels.append((f"player p{seat + 1}", (x0, y0, x0 + band.width, y0 + band.height)))
        floors += band_floors(band, (x0, y0), cam, f"player p{seat + 1}")
    if lay.corner is not None:
        panels.append(("last turn", lay.corner))
    framed = surface is None
    if surface is None:
        cv = Canvas(0, 0, TABLE, base=frame(lay.size, tuple(panels), tuple(floors)))
    else:
        cv = surface(*lay.size)
    # each part a group: the web page's hooks (and the pieces a move's update sends)
    cv.open(lay.header[:2], class_="header")
    draw_header(cv, told, lay.header, plan, u, labels)
    cv.close()
    if lay.corner is not None:
        cv.open(lay.corner[:2], class_="last-turn")
        draw_corner(cv, told, lay.corner, plan, u, labels)
        cv.close()
    cv.open(lay.museum[:2], class_="museum")
    draw_museum(cv, game, lay.museum, cam, u, labels, hl, framed=framed)
    cv.close()
    for i, rect in enumerate(lay.artists):
        cv.open(rect[:2], class_="artist", data_artist=str(i))
        draw_artist(cv, game, i, rect, cam, u, labels, hl)
        cv.close()
    for i, rect in enumerate(lay.offers):
        cv.open(rect[:2], class_="offer", data_offer=str(i))
        draw_offer(cv, game, i, rect, cam, u, labels)
        cv.close()
    for seat, xy in enumerate(lay.bands):
        cv.open(xy, class_="player", data_seat=str(seat))
        draw_band(cv, game, seat, lay.sizes[seat], xy, cam, u, names, labels, hl, framed=framed)
        cv.close()
    return cv


def _planned(game: Game, told: Game, cam: Camera, names: list[str] | None, labels: Labels) -> tuple[Layout, HeaderPlan]:
    """The table's layout and the header it was planned with (``told``'s: the web board's
    is the turn as it began)."""
    u = TABLE_UNIT
    planners = [HeaderPlanner(told, names, labels, u, squeeze) for squeeze in range(3)]
    lay = best_layout(game, cam, u, *planners)
    return lay, planners[lay.squeeze].plan(lay.size[0], _size(lay.corner))


def _size(rect: Rect | None) -> Corner | None:
    return None if rect is None else (rect[2] - rect[0], rect[3] - rect[1])


def needs_studio(game: Game, iso: bool = True, names: list[str] | None = None, labels: Labels | None = None) -> bool:
    """True when the table's values fall short of MIN_GLYPH at the laptop preview: the bot
    posts the current player's studio beside it.  With ``labels`` the header is planned as
    ``table_canvas`` draws it (a long turn's header is taller, which shrinks the preview);
    without, it is the one-row header."""
    u = TABLE_UNIT
    cam = cam_for(iso, u)
    lay = best_layout(game, cam, u) if labels is None else _planned(game, game, cam, names, labels)[0]
    small = glyph_px(cam) * preview_scale(*lay.size) < MIN_GLYPH
    return small or game.num_players >= 4


def mark_centre(game: Game, seat: int, iso: bool = True) -> tuple[int, int]:
    """Where the table draws ``seat``'s shape mark, filled with its colour (beside its name)."""
    u = TABLE_UNIT
    x0, y0 = best_layout(game, cam_for(iso, u), u).bands[seat]
    return (x0 + pad(u) + round(0.26 * u), y0 + pad(u) + round(0.4 * u))


def studio_canvas(
    game: Game, seat: int, names: list[str] | None, *, labels: Labels, marks: Marks | None = None, iso: bool = True
) -> Canvas:
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat} in a {game.num_players}-player game")
    u = STUDIO_UNIT
    cam = cam_for(iso, u, CLOSEUP_TOP_RATIO)
    band = band_of(game, range(seat, seat + 1), cam, u)
    p = pad(u)
    cv = Canvas(band.width + 2 * p, band.height + 2 * p, TABLE)
    draw_band(cv, game, seat, band, (p, p), cam, u, names, labels, highlights(game))
    if marks:
        _marks(cv, game, seat, band, (p, p), cam, u, marks)
    return cv


def _marks(
    cv: Canvas, game: Game, seat: int, band: Band, xy: tuple[int, int], cam: Camera, u: int, marks: Marks
) -> None:
    """The turn panel's letters: on an empty square, or on a tag beside a column's value."""
    tops = {d.where: d for d in cv.dice}
    for (room, cell), letter in sorted(marks.items()):
        y, x = divmod(cell, WORKROOM_SIZE)
        where = f"p{seat + 1} w{room + 1} {LETTERS[x]}{y + 1}"
        d = tops.get(where)
        size = round(0.8 * u)
        if d is not None:
            bx, by = d.cell[0] - size // 2, d.cell[1] - size // 2
        else:
            board = pieces.workroom(game, seat, room, Highlights())
            w, _h, _r = board_box(board, cam)
            fw, _fh = cam.size(board.cols, board.rows)
            ox = xy[0] + band.info_w + room * (band.board_w + band.gap) + (w - fw) // 2
            oy = xy[1] + band.rise
            cx, cy = cam.floor(x + 0.5, y + 0.5, board.rows)
            bx, by = round(ox + cx - size / 2), round(oy + cy - size / 2)
        cv.draw.rounded_rectangle(
            (bx, by, bx + size, by + size), radius=max(3, size // 5), fill=pal.HIGHLIGHT, outline=pal.HIGHLIGHT_EDGE,
            width=2,
        )  # fmt: skip
        cv.text((bx + size / 2, by + size / 2 + 1), letter, font(round(size * 0.66), bold=True), pal.INK,
                anchor="mm", parent=f"mark {letter}")  # fmt: skip


def museum_canvas(game: Game, *, labels: Labels, iso: bool = True) -> Canvas:
    u = MUSEUM_UNIT
    cam = cam_for(iso, u, CLOSEUP_TOP_RATIO)
    p = pad(u)
    card = game.deck.museum(game.state.museum_card)
    mw, mh, rise = museum_size(game, cam, u)
    title = text_width(font(text_size(u), bold=True), labels.text("museum") + " " + labels.museum(card)) + 6 * u
    w = max(mw + 2 * p, round(title)) + 2 * p
    _mw, mh, rise = museum_size(game, museum_cam(game, cam, w - 4 * p), u)
    h = p + round(1.3 * u) + rise + mh + 2 * p + p
    cv = Canvas(w, h, TABLE)
    draw_museum(cv, game, (p, p, w - p, h - p), cam, u, labels, highlights(game))
    return cv
