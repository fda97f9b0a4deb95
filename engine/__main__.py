"""``python -m engine selfplay --games N --players P --seed S``
``python -m engine balance --players 2,3,4 --games N --seats strong [--equal-turns]``"""

from __future__ import annotations

import argparse
import sys

from .balance import deck_goals, goal_rows, print_rows, run_balance
from .players.factory import LEVELS
from .selfplay import run
from .state import GameOptions


def _levels(text: str) -> list[str]:
    levels = [x.strip().lower() for x in text.split(",") if x.strip()]
    bad = [x for x in levels if x not in LEVELS]
    if not levels or bad:
        raise argparse.ArgumentTypeError(f"seats are levels separated by commas, from {', '.join(LEVELS)}")
    return levels


def _counts(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(c not in (2, 3, 4) for c in counts):
        raise argparse.ArgumentTypeError("players: 2, 3 or 4, or a list such as 2,3,4")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Cubist rules engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play whole games between built-in players and check invariants")
    sp.add_argument("--games", type=int, default=20)
    sp.add_argument("--players", type=int, choices=(2, 3, 4), default=None, help="default: rotate 2, 3, 4")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--no-check", action="store_true", help="skip the invariant checks (measures raw speed)")
    bp = sub.add_parser("balance", help="how the bundled deck plays: endings, seats, cards")
    bp.add_argument("--players", type=_counts, default=[2, 3, 4], help="2, 3, 4 or a list like 2,3,4")
    bp.add_argument("--games", type=int, default=100, help="games per player count")
    bp.add_argument("--seats", type=_levels, default=["strong"], help="levels per seat, e.g. strong or strong,greedy")
    bp.add_argument("--seed", type=int, default=1)
    bp.add_argument("--equal-turns", action="store_true", help="play with the equal_turns option")
    bp.add_argument("--workers", type=int, default=None, help="processes (default and most: 2)")
    args = parser.parse_args(argv)
    if args.command == "balance":
        options = GameOptions(equal_turns=args.equal_turns)
        for players in args.players:
            report = run_balance(players, args.games, args.seats, seed=args.seed, options=options, workers=args.workers)
            print_rows(report.rows() + goal_rows(deck_goals(report)), flush=True)
        return 0
    summary = run(args.games, args.players, args.seed, check=not args.no_check)
    print(summary.report())
    return 1 if summary.stalled or summary.violations else 0


if __name__ == "__main__":
    sys.exit(main())
