"""The picture gallery (docs/pictures): the table for 2, 3 and 4 players in English and
French, isometric (the default), at full size and as Discord previews it (fit into 550x400
on a laptop, 360 px wide on a phone), the studio and museum close-ups, colour-vision
simulations, and the isometric table beside the same table seen from above.

    python -m bot.gallery docs/pictures

It lives in ``bot`` because the French words come from the bot's catalogues (``render``
knows no catalogue: bot -> render -> engine).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

import render
from bot.i18n.pictures import render_labels
from render.demo import DEMO_NAMES, busy_late_game
from render.encode import png_bytes
from render.model import LAPTOP_BOX, PHONE_WIDTH, phone_scale, preview_scale
from render.vision import simulate

POSITIONS = ((2, 8), (3, 5), (4, 3))  # players, seed of the late-game position


def shrink(img: Image.Image, scale: float) -> Image.Image:
    if scale >= 1:
        return img
    return img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)


def _save(img: Image.Image, path: Path) -> str:
    path.write_bytes(png_bytes(img) if img.mode != "P" else _plain(img))
    return path.name


def _few(img: Image.Image) -> Image.Image:
    """256 colours chosen for this picture (a shrunk picture has blends the fixed palette lacks)."""
    return img.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)


def _plain(img: Image.Image) -> bytes:
    import io

    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def write(directory: Path) -> list[str]:
    directory.mkdir(parents=True, exist_ok=True)
    rows: list[str] = []
    lines = [
        "# Picture gallery",
        "",
        "Regenerate with `python -m bot.gallery docs/pictures`. Late-game positions "
        "(`render.demo.busy_late_game`: every workroom busy, the museum half built). Discord shows a "
        f"picture inline shrunk to fit {LAPTOP_BOX[0]}x{LAPTOP_BOX[1]} on a laptop and {PHONE_WIDTH} px wide "
        "on a phone; the *preview* columns are exactly that. The smallest die value's height at each size "
        "comes from the layout model (`render.model`).",
        "",
        "| players | language | full size | laptop preview | phone preview | smallest value, laptop "
        "| smallest cube's height, laptop | last turn's dice, phone |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for players, seed in POSITIONS:
        game = busy_late_game(seed, players=players)
        for lang in ("en", "fr"):
            cv = render.table_canvas(game, DEMO_NAMES[:players], labels=render_labels(lang))
            img = cv.img
            glyph = min(d.glyph[3] - d.glyph[1] for d in cv.dice)
            # a column's cubes, each this high (a column's body less its top face, by its dice)
            cubes = [
                (d.body[3] - d.body[1] - (d.cell[3] - d.cell[1])) / d.height
                for d in cv.dice
                if d.body is not None and not d.tag
            ]
            recap = [d.glyph[3] - d.glyph[1] for d in cv.recap]
            s_lap, s_phone = preview_scale(*img.size), phone_scale(img.width)
            stem = f"table-{players}p-{lang}"
            full = _save(img, directory / f"{stem}.png")
            lap = _save(_few(shrink(img, s_lap)), directory / f"{stem}-laptop.png")
            phone = _save(_few(shrink(img, s_phone)), directory / f"{stem}-phone.png")
            lines.append(
                f"| {players} | {lang} | [{img.width}x{img.height}]({full}) | ![]({lap}) | ![]({phone}) | "
                f"{glyph * s_lap:.1f} px | {min(cubes) * s_lap:.1f} px | "
                + (f"{min(recap) * s_phone:.1f} px |" if recap else "– |")
            )
            rows += [full, lap, phone]
        if players == 4:
            studio = render.studio_image(game, game.current_player, DEMO_NAMES, labels=render_labels("en"))
            name = _save(studio, directory / "studio-4p-en.png")
            lap = _save(_few(shrink(studio, preview_scale(*studio.size))), directory / "studio-4p-en-laptop.png")
            museum = render.museum_image(game, labels=render_labels("en"))
            mname = _save(museum, directory / "museum-4p-en.png")
            mlap = _save(_few(shrink(museum, preview_scale(*museum.size))), directory / "museum-4p-en-laptop.png")
            rows += [name, lap, mname, mlap]
            lines += [
                "",
                "A 4-player table keeps every value 9 px tall at the laptop preview, not 10, so the bot posts the "
                "current player's studio with it (full size and laptop preview), and the museum close-up:",
                "",
                f"![]({name}) ![]({lap})",
                "",
                f"![]({mname}) ![]({mlap})",
            ]
    game = busy_late_game(5, players=3)
    img = render.table_image(game, DEMO_NAMES[:3], labels=render_labels("en"))  # isometric
    lines += [
        "",
        "## Colour vision",
        "",
        "Simulated with the Machado 2009 matrices (`render.vision`); each seat's dice also carry a "
        "shape mark (circle, triangle, square, diamond), so colour is never the only cue.",
        "",
    ]
    for kind in ("deuteranopia", "protanopia"):
        name = _save(simulate(shrink(img, preview_scale(*img.size) * 1.6), kind), directory / f"table-3p-{kind}.png")
        rows.append(name)
        lines += [f"**{kind}**", "", f"![]({name})", ""]
    flat = render.table_image(game, DEMO_NAMES[:3], labels=render_labels("en"), style="flat")
    a, b = shrink(img, preview_scale(*img.size)), shrink(flat, preview_scale(*flat.size))
    both = Image.new("RGB", (a.width + b.width + 20, max(a.height, b.height)), (255, 255, 255))
    both.paste(a, (0, 0))
    both.paste(b, (a.width + 20, 0))
    name = _save(_few(both), directory / "isometric-vs-from-above-3p-laptop.png")
    rows.append(name)
    lines += [
        "## Isometric or from above",
        "",
        "The same scene at the laptop preview, seen by the two cameras: from a corner (left, the default: "
        "every board's axes at the 2:1 angle, each die a cube, a column as many cubes high as it has dice) "
        "and from straight above (right, a player's choice in `/cubist settings pictures`: each column "
        "shows its top, its height written beside its value). Where a taller column in front hides a "
        "value, the value is written again on a tag just above it.",
        "",
        f"![]({name})",
        "",
    ]
    (directory / "README.md").write_text("\n".join(lines), encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.gallery", description=__doc__.splitlines()[0])
    ap.add_argument("directory", type=Path)
    args = ap.parse_args(argv)
    for name in write(args.directory):
        print(args.directory / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
