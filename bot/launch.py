"""``python -m bot.launch``: the README's first command.  Runs the bot when a token is
configured (``.env`` or the environment), and the offline demo otherwise, so that it works
on a fresh machine.  The Procfile runs ``python -m bot``, which refuses to start without a
token instead."""

from __future__ import annotations

import sys

from bot import __main__ as entry
from bot.config import Settings


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print("python -m bot.launch: `python -m bot` with these options, and --demo when no DISCORD_TOKEN is set.")
        return entry.main(["--help"])
    if Settings().discord_token is None and "--demo" not in args:
        print("No DISCORD_TOKEN in the environment or .env: playing the offline demo instead.")
        args = ["--demo", *args]
    return entry.main(args)


def demo(argv: list[str] | None = None) -> int:
    """``cubist-demo``: the offline demo, token or not (``python -m bot --demo``)."""
    return entry.main(["--demo", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
