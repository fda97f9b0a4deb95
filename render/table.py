"""The whole table: header, artist row, museum, installation offer and one panel per player."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine import Game, MuseumCard

from . import dice
from . import palette as pal
from .canvas import Box, Canvas, Rect
from .cards import ARTIST_DIE, artist_dice_positions, artist_layer, installation_layer
from .fonts import font
from .highlight import Highlights, highlights
from .labels import Labels
from .museum import draw_museum, museum_frame
from .player import draw_player, panel_size, player_frame, player_label

WIDTH = 1280
MARGIN = 16
GAP = 14
HEADER_H = 84
ARTIST_H = 158
OFFER_H = 168


def status_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    s = game.state
    if s.over:
        win = game.winners()
        who = labels.text("and").join(_who(w, names) for w in win)
        pts = game.score(win[0]) if win else 0
        return labels.count("game_over", max(len(win), 1), who=who, points=pts)  # the verb agrees with the winners
    return labels.text("next", who=_who(s.current, names))


def _who(seat: int, names: list[str] | None) -> str:
    label, name = player_label(seat, names)
    return f"{label} {name}".strip()


def last_turn_line(game: Game, names: list[str] | None, labels: Labels) -> str:
    s = game.state
    parts = []
    if s.last_turn is not None:
        seat, moves = s.last_turn
        done = " · ".join(moves) if moves else labels.text("nothing")
        parts.append(labels.text("last_turn", who=_who(seat, names), moves=done))
    if s.turn_moves:
        parts.append(labels.text("this_turn", moves=" · ".join(s.turn_moves)))
    if not parts:
        return labels.text("first_turn")
    return "   ".join(parts)


def layout(num_players: int) -> dict[str, Rect]:
    """Rectangles of the table's panels (fixed per player count)."""
    rects: dict[str, Rect] = {}
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    rects["header"] = (MARGIN, y, WIDTH - MARGIN, y + HEADER_H)
    y += HEADER_H + GAP
    aw = (inner - 3 * GAP) // 4
    for i in range(4):
        x = MARGIN + i * (aw + GAP)
        rects[f"artist {i + 1}"] = (x, y, x + aw, y + ARTIST_H)
    y += ARTIST_H + GAP
    mid_h = 3 * OFFER_H + 2 * GAP
    offer_w = 548
    rects["museum"] = (MARGIN, y, WIDTH - MARGIN - offer_w - GAP, y + mid_h)
    for i in range(3):
        oy = y + i * (OFFER_H + GAP)
        rects[f"offer {i + 1}"] = (WIDTH - MARGIN - offer_w, oy, WIDTH - MARGIN, oy + OFFER_H)
    y += mid_h + GAP
    pw = (inner - GAP) // 2
    _minw, ph = panel_size(1.0)
    for seat in range(num_players):
        row, col = divmod(seat, 2)
        x = MARGIN + col * (pw + GAP)
        py = y + row * (ph + GAP)
        rects[f"player p{seat + 1}"] = (x, py, x + pw, py + ph)
    rows = (num_players + 1) // 2
    rects["table"] = (0, 0, WIDTH, y + rows * ph + (rows - 1) * GAP + MARGIN)
    return rects


def draw_header(cv: Canvas, game: Game, rect: Rect, names: list[str] | None, labels: Labels) -> None:
    x0, y0, x1, y1 = rect
    s = game.state
    tf = font(30, bold=True)
    t = cv.text((x0 + 14, y0 + 10), "Cubist", tf, pal.INK, parent="header")
    f = font(22)
    deck = len(s.installation_deck)
    info = labels.count("header", deck, turn=s.turn + 1)
    i = cv.text((t[2] + 16, y0 + 18), info, f, pal.MUTED, parent="header")
    status = status_line(game, names, labels)
    sf = font(26, bold=True)
    ink = pal.INK if s.over else pal.player_ink(s.current)
    cv.text((x1 - 14, y0 + 12), status, sf, ink, anchor="ra", max_width=x1 - i[2] - 40, parent="header")
    cv.text(
        (x0 + 14, y1 - 12),
        last_turn_line(game, names, labels),
        f,
        pal.INK,
        anchor="lb",
        max_width=x1 - x0 - 28,
        parent="header",
    )


def draw_artists(
    cv: Canvas, game: Game, rects: dict[str, Rect], hl: Highlights, numerals: bool, labels: Labels
) -> None:
    s = game.state
    for i, slot in enumerate(s.artists):
        name = f"artist {i + 1}"
        x0, y0, x1, y1 = rects[name]
        w, h = x1 - x0, y1 - y0
        cv.panel(name, rects[name], fill=None, outline=None)
        card = game.artist_card(i)
        if card is None:
            cv.draw.rounded_rectangle(rects[name], radius=12, outline=pal.PANEL_EDGE, width=2)
            cv.text((x0 + w // 2, y0 + h // 2), labels.text("empty"), font(22), pal.MUTED, anchor="mm", parent=name)
            continue
        cv.layer(artist_layer(card, i, w, h, labels), (x0, y0), name)
        if slot.count and slot.owner is not None:
            pos = artist_dice_positions(w, h, card.dice, ARTIST_DIE)
            lit = i in hl.artists
            for j in range(min(slot.count, len(pos))):
                px, py = pos[j]
                cv.paste(dice.cube(ARTIST_DIE, slot.owner, slot.value, lit, numerals), (x0 + px, y0 + py))
            lx = x0 + pos[-1][0] + dice.sprite_size(ARTIST_DIE)[0] + 6
            cv.text(
                (lx, y1 - 30),
                f"p{slot.owner + 1}",
                font(24, bold=True),
                pal.player_ink(slot.owner),
                anchor="lm",
                parent=name,
            )


def draw_offer(cv: Canvas, game: Game, rects: dict[str, Rect], numerals: bool, labels: Labels) -> None:
    for i, card_id in enumerate(game.state.offer):
        name = f"offer {i + 1}"
        x0, y0, x1, y1 = rects[name]
        cv.panel(name, rects[name], fill=None, outline=None)
        if card_id is None:
            cv.draw.rounded_rectangle(rects[name], radius=12, outline=pal.PANEL_EDGE, width=2)
            cv.text(
                ((x0 + x1) // 2, (y0 + y1) // 2), labels.text("no_card"), font(22), pal.MUTED, anchor="mm", parent=name
            )
            continue
        card = game.deck.installation(card_id)
        cv.layer(installation_layer(card, x1 - x0, y1 - y0, numerals, labels), (x0, y0), name)


@lru_cache(maxsize=16)
def table_frame(num_players: int, museum: MuseumCard, labels: Labels) -> tuple[Image.Image, tuple[Box, ...]]:
    """Everything on the table that does not change during a game, drawn once."""
    rects = layout(num_players)
    _x, _y, w, h = rects["table"]
    cv = Canvas(w, h, pal.BACKGROUND)
    cv.panel("header", rects["header"], fill=pal.PANEL, outline=pal.PANEL_EDGE)
    museum_frame(cv, museum, rects["museum"], labels=labels)
    for seat in range(num_players):
        player_frame(cv, seat, rects[f"player p{seat + 1}"])
    return cv.freeze()


def table_canvas(game: Game, names: list[str] | None = None, *, numerals: bool = False, labels: Labels) -> Canvas:
    rects = layout(game.num_players)
    _x, _y, w, h = rects["table"]
    frame = table_frame(game.num_players, game.deck.museum(game.state.museum_card), labels)
    cv = Canvas(w, h, pal.BACKGROUND, base=frame)
    hl = highlights(game)
    draw_header(cv, game, rects["header"], names, labels)
    draw_artists(cv, game, rects, hl, numerals, labels)
    draw_museum(cv, game, rects["museum"], hl, numerals=numerals, labels=labels)
    draw_offer(cv, game, rects, numerals, labels)
    for seat in range(game.num_players):
        draw_player(cv, game, seat, rects[f"player p{seat + 1}"], names, hl, numerals=numerals, labels=labels)
    return cv
