"""``python -m engine selfplay --games N --players P --seed S``"""

from __future__ import annotations

import argparse
import sys

from .selfplay import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Cubist rules engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play whole games between built-in players and check invariants")
    sp.add_argument("--games", type=int, default=20)
    sp.add_argument("--players", type=int, choices=(2, 3, 4), default=None, help="default: rotate 2, 3, 4")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--no-check", action="store_true", help="skip the invariant checks (measures raw speed)")
    args = parser.parse_args(argv)
    summary = run(args.games, args.players, args.seed, check=not args.no_check)
    print(summary.report())
    return 1 if summary.stalled or summary.violations else 0


if __name__ == "__main__":
    sys.exit(main())
