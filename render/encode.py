"""PNG encoding, tuned by measurement (see benchmarks/render_bench.py).

Deflating a full-colour table (about 2.3 million pixels, 7 MB) costs 40-60 ms whatever the
settings; a paletted image is a third of the data.  Mapping to a *fixed* 256-colour palette
costs about 5 ms (Pillow caches the nearest colours) against 35-250 ms for an adaptive
quantizer, so the palette is computed once, from a swatch of everything the pictures are
made of (dice of every colour, faces, highlights, ghosts, texts on each background), and
reused for every picture.  Same picture in, same bytes out.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from . import cubes
from . import palette as pal
from .camera import camera
from .canvas import Canvas
from .cards import KIND_COLOURS
from .fonts import font

# measured on the 4-player table: 1 takes 3.4 ms for 71 KiB, 3 takes 3.8 ms for 65 KiB,
# 6+ costs 2-10x for 20% less; a tenth of the time matters more than a tenth of the size
COMPRESS_LEVEL = 1
PALETTE_COLOURS = 256


def _swatch() -> Image.Image:
    backgrounds = [pal.PANEL, cubes.BOARD, pal.CARD, cubes.TABLE]
    tile_w, tile_h = 1200, 200
    img = Image.new("RGB", (tile_w, tile_h * len(backgrounds) + 60 * (len(KIND_COLOURS) + 4)), pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    inks = [pal.INK, pal.MUTED, (150, 96, 0), (255, 255, 255), *(pal.player_ink(i) for i in range(4))]
    f = font(24)
    fb = font(26, bold=True)
    for bi, bg in enumerate(backgrounds):
        y0 = bi * tile_h
        d.rectangle((0, y0, tile_w, y0 + tile_h), fill=bg)
        for ii, ink in enumerate(inks):
            d.text((10 + (ii % 4) * 300, y0 + 10 + (ii // 4) * 40), "Museum pts 0123456789 wxyz", font=f, fill=ink)
            d.text((10 + (ii % 4) * 300, y0 + 100), "p1 p2 #17", font=fb, fill=ink)
    y = tile_h * len(backgrounds)
    for i, colour in enumerate(pal.PLAYER_COLOURS):  # the current player's header band
        d.rectangle((0, y, tile_w, y + 60), fill=pal.mix(colour, cubes.BOARD, 0.7))
        d.text((20, y + 14), "p1 Ann ▶ to play supply 7 12 pts", font=fb, fill=pal.player_ink(i))
        y += 60
    for colour in KIND_COLOURS.values():
        d.rectangle((0, y, tile_w, y + 60), fill=colour)
        d.text((20, y + 14), "Malevich Popova 1234", font=fb, fill=(255, 255, 255))
        y += 60
    return _scene_swatch(img)


def _scene_swatch(top: Image.Image) -> Image.Image:
    """The pictures' scene: the table, boards, squares, shadows, cubes of every colour with
    their three faces (lit and not), outlines of museum places, tags (render.cubes)."""
    keys: list[int | str] = [0, 1, 2, 3, pal.CORNER_KEY, pal.PLAN_KEY]
    cam = camera(True, 30)
    dw, dh = cam.die_size()
    grounds = [cubes.TABLE, cubes.BOARD, cubes.SQUARE, cubes.SQUARE_ALT, cubes.MUSEUM_SQUARE, pal.CARD]
    band_h = len(keys) * (dh + 2 * cam.v + 8) + 70
    cv = Canvas(top.width, top.height + band_h * len(grounds), pal.BACKGROUND)
    cv.img.paste(top, (0, 0))
    fb = font(24, bold=True)
    for gi, ground in enumerate(grounds):
        y0 = top.height + gi * band_h
        cv.draw.rectangle((0, y0, cv.size[0], y0 + band_h), fill=ground)
        for ki, key in enumerate(keys):
            y = y0 + ki * (dh + 2 * cam.v + 8) + 2 * cam.v
            for k, (value, lit) in enumerate([(v, False) for v in range(1, 7)] + [(3, True)]):
                centre = (8 + k * (dw + 16) + cam.w, y + cam.v + cam.hw)
                cubes.draw_shadow(cv, cam, centre, 1)
                cubes.draw_column(cv, cam, centre, (key, key), lit)
                cv.ink(
                    cam.top_centre(centre, 2), str(value), cubes.value_font(cam), pal.contrast_ink(cubes.shades(key)[0])
                )
        for ii, ink in enumerate([pal.INK, pal.MUTED, cubes.GHOST_EDGE, *(pal.player_ink(i) for i in range(4))]):
            cv.text((10 + (ii % 3) * 300, y0 + band_h - 60 + (ii // 3) * 20), "Ann to play 12 pts", fb, ink)
    return cv.img


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """A 'P' image whose palette every picture is mapped to."""
    return _swatch().quantize(PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def to_palette(img: Image.Image) -> Image.Image:
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    # Pillow fills the palette's nearest-colour cache as colours come, but each entry is
    # exact, so the bytes never depend on the pictures drawn before (checked by
    # tests/render/test_pictures.py::test_bytes_do_not_depend_on_earlier_pictures).
    return rgb.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


def png_bytes(img: Image.Image, *, paletted: bool = True) -> bytes:
    """PNG bytes of ``img``: mapped to the shared palette (fast, small) unless ``paletted`` is False."""
    buf = io.BytesIO()
    out = to_palette(img) if paletted else img
    out.save(buf, "PNG", compress_level=COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()
