"""Colour-vision safety: seat colours stay apart under simulation, marks stay distinct,
and the gallery script writes what the README shows."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from PIL import Image

from render import palette as pal
from render.vision import MATRICES, simulate, simulate_colour


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_seat_colours_stay_apart_for_protanopia_and_deuteranopia() -> None:
    colours = [*pal.PLAYER_COLOURS, pal.CORNERSTONE]
    for kind in MATRICES:
        seen = [simulate_colour(c, kind) for c in colours]
        for a, b in combinations(seen, 2):
            assert _distance(a, b) >= 40, f"{kind}: {a} and {b} look alike"
    assert len(set(pal.MARKS)) == len(pal.MARKS) == len(pal.PLAYER_COLOURS)


def test_simulation_changes_red_and_green_but_keeps_grey() -> None:
    img = Image.new("RGB", (3, 1))
    img.putdata([(200, 30, 30), (30, 200, 30), (128, 128, 128)])
    for kind in MATRICES:
        seen = simulate(img, kind)
        out = [seen.getpixel((i, 0)) for i in range(3)]
        assert _distance(out[0], (200, 30, 30)) > 60
        assert _distance(out[2], (128, 128, 128)) <= 3


def test_gallery_writes_every_picture_the_readme_shows(tmp_path: Path) -> None:
    from bot.gallery import write

    names = write(tmp_path)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    for name in names:
        assert (tmp_path / name).stat().st_size > 1000
        assert name in readme
    for players in (2, 3, 4):
        for lang in ("en", "fr"):
            for size in ("", "-laptop", "-phone"):
                assert f"table-{players}p-{lang}{size}.png" in names
    with Image.open(tmp_path / "table-3p-en-laptop.png") as laptop:  # open until closed
        assert laptop.width <= 550 and laptop.height <= 400
    with Image.open(tmp_path / "table-3p-en-phone.png") as phone:
        assert phone.width == 360
