"""``python -m render``: render has no command line of its own.

It draws pictures and has no words (the caller passes ``Labels``), so its command line is the
bot's, which takes the words from the catalogues: ``python -m bot.draw`` draws a saved game or
the demo pictures, ``python -m bot.gallery`` writes the picture gallery (render/README.md).
"""

from __future__ import annotations

import argparse
import sys

WHERE = (
    "render has no command line of its own: it has no words, and the bot supplies them. Use\n"
    "  python -m bot.draw game.json -o table.png --lang en   (a saved game; --studio P, --museum)\n"
    "  python -m bot.draw --demo DIR --lang en               (the demo pictures, also the goldens)\n"
    "  python -m bot.gallery DIR                             (the picture gallery, docs/pictures)"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m render",
        description="Pictures of a Cubist game; render's command line is the bot's (see below).",
        epilog=WHERE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(argv)
    print(WHERE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
