"""The isometric table's player panel (kept for the gallery's comparison; the bot draws board.py).

``player_frame`` draws what never changes (frame, floors, w1/w2), ``draw_player`` the rest,
so the table can prepare the frames once."""

from __future__ import annotations

from engine import Game
from engine.geometry import WORKROOM_SIZE

from . import dice
from . import palette as pal
from .canvas import Canvas, Rect
from .fonts import font
from .highlight import Highlights
from .labels import Labels
from .structure import Die, GridSpec, floor_layer, full_grid, size_of, stack_sprites

MAX_COMPLETED_SHOWN = 5


def player_label(seat: int, names: list[str] | None) -> tuple[str, str]:
    """("p1", display name or "")."""
    name = ""
    if names and seat < len(names) and names[seat]:
        name = " ".join(str(names[seat]).split())
    return (f"p{seat + 1}", name)


def workroom_spec(k: float) -> GridSpec:
    return GridSpec(s=round(26 * k), cells=full_grid(WORKROOM_SIZE), levels=3, label_size=round(21 * k))


def _header_h(k: float) -> int:
    return round(48 * k)


def _store_row_h(k: float) -> int:
    return dice.sprite_size(round(26 * k))[1] + round(4 * k)


def _completed_h(k: float) -> int:
    return round(34 * k) + dice.sprite_size(round(24 * k))[1] + round(4 * k)


def panel_size(k: float) -> tuple[int, int]:
    """Minimum (width, height) of a player panel at scale k."""
    ww, wh = size_of(workroom_spec(k))
    pad = round(12 * k)
    width = 2 * ww + 3 * pad
    height = _header_h(k) + wh + _store_row_h(k) + round(6 * k) + _completed_h(k) + pad
    return (width, height)


def _workroom_origins(rect: Rect, k: float) -> list[tuple[int, int, int]]:
    """(area x, grid x, grid y) of the two workrooms."""
    x0, y0, x1, _y1 = rect
    pad = round(12 * k)
    ww, _wh = size_of(workroom_spec(k))
    area_w = (x1 - x0 - 3 * pad) // 2
    wy = y0 + _header_h(k)
    out = []
    for room in range(2):
        ax = x0 + pad + room * (area_w + pad)
        out.append((ax, ax + (area_w - ww) // 2, wy))
    return out


def player_frame(cv: Canvas, seat: int, rect: Rect, *, k: float = 1.0) -> None:
    """The parts of a panel that never change: frame, workroom floors and their labels."""
    pname = f"player p{seat + 1}"
    cv.panel(pname, rect, fill=pal.PANEL, outline=pal.PANEL_EDGE, width=2)
    floor = floor_layer(workroom_spec(k))
    wf = font(round(24 * k), bold=True)
    for room, (ax, gx, wy) in enumerate(_workroom_origins(rect, k)):
        cv.layer(floor, (gx, wy), pname)
        cv.text((ax + round(2 * k), wy + round(2 * k)), f"w{room + 1}", wf, pal.INK, anchor="la", parent=pname)


def draw_player(
    cv: Canvas,
    game: Game,
    seat: int,
    rect: Rect,
    names: list[str] | None,
    hl: Highlights,
    *,
    k: float = 1.0,
    numerals: bool = False,
    labels: Labels,
) -> None:
    """The changing parts of a panel (call ``player_frame`` first, or use a prepared frame)."""
    s = game.state
    p = s.players[seat]
    x0, y0, x1, _y1 = rect
    pad = round(12 * k)
    pname = f"player p{seat + 1}"
    current = seat == s.current and not s.over and not p.removed
    winner = s.over and seat in game.winners()
    colour = pal.die_colour(seat)
    ink = pal.player_ink(seat)
    radius = 12
    if current or winner:
        cv.draw.rounded_rectangle(
            (x0, y0, x1, y0 + round(44 * k)),
            radius=radius,
            fill=pal.mix(colour, pal.PANEL, 0.78),
            corners=(True, True, False, False),
        )
        cv.draw.rounded_rectangle(rect, radius=radius, outline=colour, width=round(5 * k))

    # --- header: mark, p1, name ... tag, supply, score
    hy = y0 + round(23 * k)
    r = round(11 * k)
    dice.draw_mark(cv.draw, pal.MARKS[seat % 4], x0 + pad + r, hy, r, fill=colour, outline=pal.INK, width=2)
    label, name = player_label(seat, names)
    bold = font(round(26 * k), bold=True)
    lr = cv.text((x0 + pad + 2 * r + round(8 * k), hy), label, bold, ink, anchor="lm", parent=pname)
    sr = cv.text(
        (x1 - pad, hy), labels.text("points", points=game.score(seat)), bold, pal.INK, anchor="rm", parent=pname
    )
    small = font(round(22 * k))
    right = cv.text(
        (sr[0] - round(14 * k), hy), labels.text("supply", count=p.supply), small, pal.MUTED, anchor="rm", parent=pname
    )[0]
    tag_key = "left" if p.removed else "to_play" if current else "winner" if winner else ""
    tag = labels.text(tag_key) if tag_key else ""
    if tag:
        right = cv.text(
            (right - round(12 * k), hy), tag, font(round(22 * k), bold=True), pal.INK, anchor="rm", parent=pname
        )[0]
    if name:
        cv.text(
            (lr[2] + round(10 * k), hy),
            name,
            font(round(24 * k)),
            pal.INK,
            anchor="lm",
            max_width=max(10, right - lr[2] - round(22 * k)),
            parent=pname,
        )

    # --- workrooms
    spec = workroom_spec(k)
    _ww, wh = size_of(spec)
    wy = y0 + _header_h(k)
    for room, (ax, gx, _wy) in enumerate(_workroom_origins(rect, k)):
        cols: dict[tuple[int, int], list[Die]] = {}
        for cell, (value, height) in p.workrooms[room].items():
            y, x = divmod(cell, WORKROOM_SIZE)
            lit = (seat, room, cell) in hl.workroom
            cols[(x, y)] = [Die(seat, value)] * (height - 1) + [Die(seat, value, lit)]
        for sprite, (px, py) in stack_sprites(spec, cols, numerals=numerals):
            cv.paste(sprite, (gx + px, wy + py))
        n = sum(h for _v, h in p.workrooms[room].values())
        if n:
            count = labels.count("die_count", n)
            cv.text((ax + round(2 * k), wy + round(32 * k)), count, small, pal.MUTED, anchor="la", parent=pname)

    # --- storeroom, storage, abandoned dice
    ry = wy + wh
    ds = round(26 * k)
    sw, sh = dice.sprite_size(ds)
    cy = ry + sh // 2 + round(2 * k)
    x = x0 + pad
    groups: list[tuple[str, list[int]]] = [
        (labels.text("storeroom"), list(p.storeroom)),
        (labels.text("storage"), list(p.storage)),
    ]
    if seat == s.current and s.pool:
        groups.append((labels.text("abandoned"), list(s.pool)))
    step = sw - 2 * dice.MARGIN + 2
    for title, values in groups:
        x = cv.text((x, cy), title, small, pal.MUTED, anchor="lm", parent=pname)[2] + round(8 * k)
        if values:
            room_left = x1 - pad - x
            values = values[: max(1, room_left // step)]  # never wider than the panel
            for v in values:
                cv.paste(dice.cube(ds, seat, v, False, numerals), (x - dice.MARGIN, ry))
                x += step
        else:
            x = cv.text((x, cy), "–", small, pal.MUTED, anchor="lm", parent=pname)[2]
        x += round(22 * k)

    # --- completed installations
    cy0 = ry + _store_row_h(k) + round(6 * k)
    gap = round(8 * k)
    mw = (x1 - x0 - 2 * pad - (MAX_COMPLETED_SHOWN - 1) * gap) // MAX_COMPLETED_SHOWN
    mh = _completed_h(k)
    bs = round(24 * k)
    bw, _bh = dice.sprite_size(bs)
    if not p.completed:
        cv.text((x0 + pad, cy0 + mh // 2), labels.text("no_completed"), small, pal.MUTED, anchor="lm", parent=pname)
    idf = font(round(22 * k), bold=True)
    for i, comp in enumerate(p.completed[:MAX_COMPLETED_SHOWN]):
        card = game.deck.installation(comp.card)
        cx = x0 + pad + i * (mw + gap)
        lit = (seat, i) in hl.completed
        cname = f"{pname} i{i + 1}"
        cv.panel(
            cname,
            (cx, cy0, cx + mw, cy0 + mh),
            fill=pal.CARD,
            outline=pal.HIGHLIGHT_EDGE if lit else pal.CARD_EDGE,
            width=2,
            radius=8,
            parent=pname,
        )
        if lit:
            cv.draw.rounded_rectangle(
                (cx + 2, cy0 + 2, cx + mw - 2, cy0 + mh - 2), radius=7, outline=pal.HIGHLIGHT, width=4
            )
        cv.text((cx + round(8 * k), cy0 + round(6 * k)), f"i{i + 1}", idf, ink, anchor="la", parent=cname)
        cv.text(
            (cx + mw - round(8 * k), cy0 + round(6 * k)), f"+{card.points}", small, pal.MUTED, anchor="ra", parent=cname
        )
        dx = cx + round(8 * k)
        dy = cy0 + round(32 * k)
        for face in comp.dice:
            sprite = dice.slot(bs) if face is None else dice.cube(bs, seat, face, False, numerals)
            cv.paste(sprite, (dx - dice.MARGIN, dy))
            dx += bw - 2 * dice.MARGIN + 2
