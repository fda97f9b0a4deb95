"""Card faces: artist cards and installation cards, each drawn once per card and size."""

from __future__ import annotations

from functools import lru_cache

from engine import ArtistCard, ArtistKind, InstallationCard

from . import dice
from . import palette as pal
from .canvas import Layer, LayerBuilder
from .fonts import font
from .iso import iso
from .labels import Labels
from .structure import Die, GridSpec, origin, stack_sprites

KIND_COLOURS: dict[ArtistKind, tuple[int, int, int]] = {
    ArtistKind.MALEVICH: (40, 40, 44),
    ArtistKind.BOCCIONI: (98, 70, 52),
    ArtistKind.MARC: (46, 72, 120),
    ArtistKind.POPOVA: (120, 52, 64),
    ArtistKind.LA_FRESNAYE: (74, 100, 58),
    ArtistKind.GRIS: (84, 90, 102),
    ArtistKind.PASCIN: (104, 78, 122),
    ArtistKind.ROZANOVA: (40, 104, 104),
}
ARTIST_DIE = 32  # cube size of the dice on artist cards


def action_text(card: ArtistCard, labels: Labels) -> str:
    """The card's action in a few words (the bot's help has the long form)."""
    match card.artist:
        case ArtistKind.MALEVICH:
            return labels.text("take", value=card.value)
        case ArtistKind.BOCCIONI:
            a, b = card.values or (0, 0)
            return labels.text("take_either", a=a, b=b)
        case ArtistKind.MARC:
            return labels.text("take_any")
        case ArtistKind.POPOVA | ArtistKind.LA_FRESNAYE:
            return labels.text("change", delta=f"{card.delta:+d}".replace("-", "−"))
        case ArtistKind.GRIS:
            return labels.text("remove_top")
        case ArtistKind.PASCIN:
            return labels.text("move_top")
        case ArtistKind.ROZANOVA:
            return labels.text("steal")
    raise AssertionError(card.artist)  # pragma: no cover - every artist is listed above


def artist_dice_positions(w: int, h: int, count: int, s: int = ARTIST_DIE) -> list[tuple[int, int]]:
    """Top-left corners of the die places on an artist card (sprite coordinates)."""
    sw, sh = dice.sprite_size(s)
    step = sw - 2 * dice.MARGIN + 4
    x0 = 12 - dice.MARGIN
    y0 = h - sh - 2
    return [(x0 + i * step, y0) for i in range(count)]


@lru_cache(maxsize=128)
def artist_layer(card: ArtistCard, slot: int, w: int, h: int, labels: Labels) -> Layer:
    """An artist card face with its slot number and empty die places."""
    b = LayerBuilder(w, h, "RGB", pal.BACKGROUND)
    d = b.draw
    band = 44
    colour = KIND_COLOURS.get(card.artist, (60, 60, 60))
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, fill=pal.CARD, outline=pal.CARD_EDGE, width=2)
    d.rounded_rectangle((0, 0, w - 1, band), radius=12, fill=colour, corners=(True, True, False, False))
    r = 15
    cx, cy = 10 + r, band // 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255))
    b.text((cx, cy + 1), str(slot + 1), font(24, bold=True), colour, anchor="mm")
    name_x = cx + r + 10
    nf = font(23, bold=True)
    name = labels.artist(card)
    if nf.getlength(name) > w - name_x - 10:
        name = labels.artist_short(card)
    b.text((name_x, cy), name, nf, (255, 255, 255), anchor="lm", max_width=w - name_x - 10)
    b.text((12, band + 8), action_text(card, labels), font(23), pal.INK, anchor="la", max_width=w - 24)
    for pos in artist_dice_positions(w, h, card.dice):
        b.paste(dice.slot(ARTIST_DIE), pos)
    return b.build()


def _plan_spec(card: InstallationCard, s: int) -> GridSpec:
    cells = frozenset((x, y) for x, y, _h in card.cells)
    return GridSpec(
        s=s, cells=cells, levels=max(h for _x, _y, h in card.cells), label_size=8, floor=pal.FLOOR_ALT, chequer=False
    )


def _plan_size(card: InstallationCard, s: int) -> tuple[int, int]:
    g = iso(s)
    spec = _plan_spec(card, s)
    x0, y0, x1, y1 = spec.bounds
    left, top, right, bottom = g.extent(x0, y0, x1, y1, spec.levels)
    return (right - left, bottom - top)


@lru_cache(maxsize=256)
def plan_layer(card: InstallationCard, max_w: int, max_h: int, max_s: int = 30) -> Layer:
    """The plan as small isometric cubes (heights shown by stacking), fitted into a box."""
    s = max_s
    while s > 10 and (
        _plan_size(card, s)[0] + 2 * dice.MARGIN > max_w or _plan_size(card, s)[1] + 2 * dice.MARGIN > max_h
    ):
        s -= 1
    spec = _plan_spec(card, s)
    g = iso(s)
    x0, y0, x1, y1 = spec.bounds
    left, top, right, bottom = g.extent(x0, y0, x1, y1, spec.levels)
    w, h = right - left, bottom - top
    b = LayerBuilder(w + 2 * dice.MARGIN, h + 2 * dice.MARGIN)
    ox, oy = -left + dice.MARGIN, -top + dice.MARGIN
    for x, y in spec.cells:  # floor shadow
        b.draw.polygon([(ox + px, oy + py) for px, py in g.diamond(x, y)], fill=(0, 0, 0, 30))
    cols = {(x, y): [Die(pal.PLAN_KEY, 0)] * hh for x, y, hh in card.cells}
    sox, soy = origin(spec)
    for sprite, (px, py) in stack_sprites(spec, cols):
        b.paste(sprite, (px - sox + ox, py - soy + oy))
    return b.build()


@lru_cache(maxsize=128)
def installation_layer(card: InstallationCard, w: int, h: int, numerals: bool, labels: Labels) -> Layer:
    """An installation card on offer: #id, name, points, plan and bonus dice."""
    b = LayerBuilder(w, h, "RGB", pal.BACKGROUND)
    d = b.draw
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, fill=pal.CARD, outline=pal.CARD_EDGE, width=2)
    pad = 12
    plan_w = min(190, round(w * 0.34))
    d.rounded_rectangle((6, 6, plan_w, h - 7), radius=8, fill=(240, 234, 220))
    plan = plan_layer(card, plan_w - 12, h - 20)
    pw, ph = plan.image.size
    b.paste(plan.image, (6 + (plan_w - 6 - pw) // 2, (h - ph) // 2))
    tx = plan_w + pad + 2
    idr = b.text((tx, pad - 2), f"#{card.id}", font(32, bold=True), pal.INK, anchor="la")
    pr = b.text(
        (w - pad, pad + 2), labels.text("points", points=card.points), font(28, bold=True), (150, 96, 0), anchor="ra"
    )
    b.text(
        (idr[2] + 12, pad + 6),
        labels.count("dice", card.dice),
        font(22),
        pal.MUTED,
        anchor="la",
        max_width=pr[0] - idr[2] - 24,
    )
    b.text((tx, idr[3] + 10), labels.installation(card), font(22), pal.INK, anchor="la", max_width=w - tx - pad)
    lf = font(22)
    bonus, or_ = labels.text("bonus"), labels.text("or")
    label_w = round(lf.getlength(bonus)) + 10
    or_w = round(lf.getlength(or_)) + 8

    def bonus_width(s: int) -> int:
        die_w = dice.sprite_size(s)[0] - 2 * dice.MARGIN + 6
        n = sum(len(space) for space in card.bonus)
        alts = sum(len(space) - 1 for space in card.bonus)
        return label_w + n * die_w + alts * or_w + 16 * (len(card.bonus) - 1)

    s = 30
    while s > 18 and tx + bonus_width(s) > w - pad:
        s -= 2
    sw, sh = dice.sprite_size(s)
    by = h - sh - 4
    lr = b.text((tx, by + sh // 2 + 2), bonus, lf, pal.MUTED, anchor="lm")
    x = lr[2] + 10
    for i, space in enumerate(card.bonus):
        if i:
            d.line((x + 2, by + 14, x + 2, by + sh - 8), fill=pal.PANEL_EDGE, width=2)
            x += 16
        for j, v in enumerate(space):
            if j:
                r = b.text((x + 2, by + sh // 2 + 2), or_, lf, pal.MUTED, anchor="lm")
                x = r[2] + 6
            b.paste(dice.cube(s, pal.NEUTRAL_KEY, v, False, numerals), (x - dice.MARGIN, by))
            x += sw - 2 * dice.MARGIN + 6
    return b.build()
