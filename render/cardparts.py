"""The parts of the cards the drawings share (render/tableview.py, and the web board's high
camera, render/isoboard.py and render/svg.py): an artist card's coloured band with its number and name,
an installation on offer's frame, points and title, and its bonus spaces in words."""

from __future__ import annotations

from engine import ArtistCard, Game, InstallationCard

from . import palette as pal
from .canvas import Canvas, Rect, Writes
from .cards import KIND_COLOURS
from .fonts import font, text_width, wrap
from .labels import Labels
from .names import fit_name

POINTS_INK = (150, 96, 0)


def table_column(rects: dict[str, Rect], x: int, y: int, cw: int, g: int, mh: int, ah: int, oh: int) -> int:
    """The table's right-hand column from (``x``, ``y``), ``cw`` wide with gaps ``g``: the
    museum (``mh`` high), the four artist cards two by two (``ah``), the three installations
    on offer side by side (``oh``).  Adds their rectangles; returns the column's bottom."""
    rects["museum"] = (x, y, x + cw, y + mh)
    y += mh + g
    aw = (cw - g) // 2
    for i in range(4):
        r, k = divmod(i, 2)
        ax, ay = x + k * (aw + g), y + r * (ah + g)
        rects[f"artist {i + 1}"] = (ax, ay, ax + aw, ay + ah)
    y += 2 * (ah + g)
    ow = (cw - 2 * g) // 3
    for i in range(3):
        ox = x + i * (ow + g)
        rects[f"offer {i + 1}"] = (ox, y, ox + ow, y + oh)
    return y + oh


def artist_band(
    cv: Canvas,
    game: Game,
    i: int,
    rect: Rect,
    c: int,
    band: int,
    ts: int,
    labels: Labels,
    card: ArtistCard | None = None,
) -> bool:
    """The artist card's panel and coloured band: its number in a white disc and the artist's
    name (shortened to fit).  False when the slot holds no card (said in its middle);
    ``card``: the slot's card, when the caller has it."""
    name = f"artist {i + 1}"
    x0, y0, x1, _y1 = rect
    cv.panel(name, rect, fill=pal.CARD, outline=pal.CARD_EDGE, radius=10)
    card = card or game.artist_card(i)
    if card is None:
        artist_empty(cv.within(name), rect, ts, labels)
        return False
    cv.draw.rounded_rectangle(
        (x0, y0, x1, y0 + band), radius=10, fill=band_colour(card), corners=(True, True, False, False)
    )
    cx, cy, rr = band_disc(rect, band)
    cv.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=(255, 255, 255))
    band_texts(cv.within(name), i, card, rect, band, ts, labels)
    return True


def artist_empty(w: Writes, rect: Rect, ts: int, labels: Labels) -> None:
    """An empty artist slot: "empty" in its middle."""
    x0, y0, x1, y1 = rect
    w.text(((x0 + x1) // 2, (y0 + y1) // 2), labels.text("empty"), font(ts), pal.MUTED, anchor="mm")


def band_colour(card: ArtistCard) -> tuple[int, int, int]:
    return KIND_COLOURS.get(card.artist, (60, 60, 60))


def band_disc(rect: Rect, band: int) -> tuple[int, int, int]:
    """The white disc at the left of an artist card's band (``band`` px high): its centre
    and radius."""
    rr = band // 2 - 3
    return rect[0] + 4 + rr, rect[1] + band // 2, rr


def band_texts(w: Writes, i: int, card: ArtistCard, rect: Rect, band: int, ts: int, labels: Labels) -> None:
    """The band's words: the slot's number in the disc (band_disc) and the artist's name
    beside it, in full where it fits, else short (shortened to fit)."""
    cx, cy, rr = band_disc(rect, band)
    w.text((cx, cy + 1), str(i + 1), font(round(rr * 1.5), bold=True), band_colour(card), anchor="mm")
    nx = cx + rr + 5
    full, short = labels.artist(card), labels.artist_short(card)
    nf = font(ts, bold=True)
    text = full if text_width(nf, full) <= rect[2] - nx - 4 else short
    text, nf = fit_name(text, nf, rect[2] - nx - 4)
    w.text((nx, cy), text, nf, (255, 255, 255), anchor="lm")


def museum_count(cv: Canvas, game: Game, rect: Rect, p: int, ts: int, labels: Labels, name: str) -> None:
    """The museum's "7/16 dice": dice given so far of the dice its plan takes (top right)."""
    _x0, y0, x1, _y1 = rect
    total = sum(game.museum_heights().values())
    built = sum(len(col.owners) for col in game.state.museum.values())
    text = labels.text("built", built=built, total=total)
    cv.text((x1 - p, y0 + p + 2), text, font(ts), pal.INK, anchor="ra", parent=name)


def offer_frame(cv: Canvas, game: Game, i: int, rect: Rect, ts: int, labels: Labels) -> InstallationCard | None:
    """The panel of the ``i``-th installation on offer; None (said in its middle) when empty."""
    name = f"offer {i + 1}"
    cv.panel(name, rect, fill=pal.CARD, outline=pal.CARD_EDGE, radius=10)
    card_id = game.state.offer[i]
    if card_id is None:
        offer_empty(cv.within(name), rect, ts, labels)
        return None
    return game.deck.installation(card_id)


def offer_empty(w: Writes, rect: Rect, ts: int, labels: Labels) -> None:
    """An empty place on offer: "no card" in its middle."""
    x0, y0, x1, y1 = rect
    w.text(
        ((x0 + x1) // 2, (y0 + y1) // 2), labels.text("no_card"), font(max(13, ts - 4)), pal.MUTED,
        anchor="mm", max_width=x1 - x0 - 8,
    )  # fmt: skip


def offer_title(w: Writes, card: InstallationCard, rect: Rect, p: int, c: int, ts: int, labels: Labels) -> int:
    """The card's points (top right) and its title on up to two lines; returns the y below
    them.  The title's longest word stays whole where a smaller size (down to 10 px) allows."""
    x0, y0, x1, _y1 = rect
    pts = w.text(
        (x1 - p, y0 + p), labels.text("points", points=card.points), font(max(12, ts - 5), bold=True), POINTS_INK,
        anchor="ra",
    )  # fmt: skip
    title = labels.installation(card)
    longest = max(title.split(), key=len, default="")
    inner = x1 - x0 - 2 * p
    tf = next(
        (font(sz, bold=True) for sz in range(max(11, round(0.36 * c)), 9, -1)
         if text_width(font(sz, bold=True), longest) <= inner),
        font(10, bold=True),
    )  # fmt: skip
    step = round(0.44 * c)
    ty = pts[3] + 3
    for k, line in enumerate(wrap(title, tf, inner, 2)):
        w.text((x0 + p, ty + k * step), line, tf, pal.INK, anchor="la", max_width=inner)
    return ty + 2 * step


def offer_bonus(
    w: Writes, card: InstallationCard, rect: Rect, p: int, c: int, sizes: tuple[int, ...], labels: Labels
) -> None:
    """The bonus spaces in words at the card's foot: "1 or 4 · 3 or 6" (a die of either value
    may go there), on one line where it fits, else a line per space, bottom up; the word
    "bonus" before them where there is room."""
    x0, _y0, x1, y1 = rect
    or_ = f" {labels.text('or')} "
    spaces = [or_.join(str(v) for v in space) for space in card.bonus]
    inner = x1 - x0 - 2 * p
    lines = [" · ".join(spaces)]
    bf = next((font(sz, bold=True) for sz in sizes if text_width(font(sz, bold=True), lines[0]) <= inner), None)
    if bf is None:
        lines = spaces
        widest = max(lines, key=lambda line: text_width(font(sizes[-1], bold=True), line))
        bf = next(
            (font(sz, bold=True) for sz in sizes if text_width(font(sz, bold=True), widest) <= inner),
            font(sizes[-1], bold=True),
        )
    step = round(bf.size * 1.1)
    left = x1 - p
    for k, line in enumerate(reversed(lines)):
        r = w.text((x1 - p, y1 - p - k * step), line, bf, pal.INK, anchor="rd", max_width=inner)
        left = min(left, r[0])
    sf = font(max(11, round(0.34 * c)))
    bonus = labels.text("bonus")
    if len(lines) == 1 and text_width(sf, bonus) <= left - x0 - p - 4:
        w.text((x0 + p, y1 - p), bonus, sf, pal.MUTED, anchor="ld")
