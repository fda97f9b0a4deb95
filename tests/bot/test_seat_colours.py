"""The colour the start post names for each player is the colour drawn for that seat."""

from __future__ import annotations

import io
import re

from PIL import Image

from render.palette import COLOUR_KEYS, PLAYER_COLOURS
from render.tableview import mark_centre

from .conftest import Table, started

SEAT = re.compile(r"\*\*(.+?)\*\* \(([^)]+)\)")


def _nearest_seat_colour(rgb: tuple[int, int, int]) -> int:
    return min(range(4), key=lambda i: sum((a - b) ** 2 for a, b in zip(rgb, PLAYER_COLOURS[i], strict=True)))


async def test_start_post_names_the_drawn_colours(table: Table) -> None:
    _gid, game, seated = await started(table, players=3)
    post = next(m for m in table.standin.channel_messages(table.channel) if "The game begins" in m.content)
    line = next(li for li in post.content.splitlines() if "as the table shows them" in li)
    found = SEAT.findall(line)
    # Listed in the order the table picture lays the seats out, by name and colour only (no p1...).
    assert not re.search(r"\bp\d", line), line
    by_name = {u.name: i for i, u in enumerate(seated)}
    order = [by_name[n] for n, _c in found]
    assert order == [0, 1, 2]
    reading = sorted(range(3), key=lambda s: (mark_centre(game, s)[1], mark_centre(game, s)[0]))
    assert order == reading, "the post lists the seats in another order than the picture shows them"
    picture = Image.open(io.BytesIO(post.attachments[0].data)).convert("RGB")
    for name, colour in found:
        seat = by_name[name]
        named = COLOUR_KEYS.index(colour)  # English names are the palette's keys
        # the seat's shape mark at the top left of its panel, filled with the seat colour
        drawn = _nearest_seat_colour(picture.getpixel(mark_centre(game, seat)))
        assert named == drawn == seat, f"p{seat + 1}: text says {colour}, picture draws {COLOUR_KEYS[drawn]}"
