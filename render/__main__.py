"""Command line: draw a saved game, or write the demo pictures.

    python -m render game.json -o table.png [--studio P | --museum] [--names A,B]
    python -m render --demo DIR      # seeded demo games at several stages (also the goldens)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import SavedGameError, load_game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render", description="Draw a Cubist game as PNG.")
    ap.add_argument("game", nargs="?", type=Path, help="a saved game (engine.dump_game JSON)")
    ap.add_argument("-o", "--output", type=Path, help="PNG file to write (default: table.png)")
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--studio", metavar="P", help="close-up of one player's studio (p1..p4 or 1..4)")
    what.add_argument("--museum", action="store_true", help="close-up of the museum")
    ap.add_argument("--names", help="comma-separated display names, in seat order")
    ap.add_argument("--demo", type=Path, metavar="DIR", help="write the demo pictures into DIR")
    args = ap.parse_args(argv)

    if args.demo:
        from .demo import write_demo

        for path in write_demo(args.demo):
            print(path)
        return 0
    if args.game is None:
        ap.error("give a saved game file, or --demo DIR")
    try:
        game = load_game(args.game.read_text(encoding="utf-8"))
    except (OSError, SavedGameError) as e:
        print(f"cannot read {args.game}: {e}", file=sys.stderr)
        return 2
    from . import EN, museum_png, studio_png, table_png

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if args.studio:
        text = args.studio.lower().lstrip("p")
        if not text.isdigit() or not 1 <= int(text) <= game.num_players:
            ap.error(f"--studio wants a player p1..p{game.num_players}")
        png = studio_png(game, int(text) - 1, names, labels=EN)
    elif args.museum:
        png = museum_png(game, labels=EN)
    else:
        png = table_png(game, names, labels=EN)
    out = args.output or Path("table.png")
    out.write_bytes(png)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
