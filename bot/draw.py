"""Command line: draw a saved game, or write the demo pictures.

    python -m bot.draw game.json -o table.png [--studio P | --museum] [--names A,B] --lang fr
    python -m bot.draw --demo DIR --lang en   # seeded demo games at several stages (also the goldens)

It lives in ``bot`` because the words on the pictures come from the bot's catalogues
(``render`` has none: bot -> render -> engine).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import render
from bot.i18n import languages
from bot.i18n.pictures import render_labels
from engine import SavedGameError, load_game
from render.demo import write_demo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.draw", description="Draw a Cubist game as PNG.")
    ap.add_argument("game", nargs="?", type=Path, help="a saved game (engine.dump_game JSON)")
    ap.add_argument("-o", "--output", type=Path, help="PNG file to write (default: table.png)")
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--studio", metavar="P", help="close-up of one player's studio (p1..p4 or 1..4)")
    what.add_argument("--museum", action="store_true", help="close-up of the museum")
    ap.add_argument("--names", help="comma-separated display names, in seat order")
    ap.add_argument("--demo", type=Path, metavar="DIR", help="write the demo pictures into DIR")
    ap.add_argument("--lang", required=True, choices=languages(), help="the language of the words")
    args = ap.parse_args(argv)

    labels = render_labels(args.lang)
    if args.demo:
        for path in write_demo(args.demo, labels):
            print(path)
        return 0
    if args.game is None:
        ap.error("give a saved game file, or --demo DIR")
    try:
        game = load_game(args.game.read_text(encoding="utf-8"))
    except (OSError, SavedGameError) as e:
        print(f"cannot read {args.game}: {e}", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if args.studio:
        text = args.studio.lower().lstrip("p")
        if not text.isdigit() or not 1 <= int(text) <= game.num_players:
            ap.error(f"--studio wants a player p1..p{game.num_players}")
        png = render.studio_png(game, int(text) - 1, names, labels=labels)
    elif args.museum:
        png = render.museum_png(game, labels=labels)
    else:
        png = render.table_png(game, names, labels=labels)
    out = args.output or Path("table.png")
    out.write_bytes(png)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
