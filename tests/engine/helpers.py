"""Build positions for rule tests from small text grids a reader can see.

A grid lists rows 1, 2, 3 … from the top and columns a, b, c … from the left, as the
pictures label them.  A token is ``.`` (empty), a value (``4``) or a value and a height
(``4:3`` = a column of three 4s).  Only the rows and columns drawn are filled; the rest
of the 6×6 workroom stays empty.
"""

from __future__ import annotations

from engine import Game
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE
from engine.state import DICE_PER_PLAYER, MuseumColumn


def grid(text: str, size: int = WORKROOM_SIZE) -> dict[int, tuple[int, int]]:
    cols: dict[int, tuple[int, int]] = {}
    rows = [r.split() for r in text.strip().splitlines() if r.strip()]
    for y, row in enumerate(rows):
        for x, tok in enumerate(row):
            if tok == ".":
                continue
            value, _, height = tok.partition(":")
            cols[y * size + x] = (int(value), int(height or 1))
    return cols


def new_game(players: int = 2, seed: int = 1, **options: bool) -> Game:
    from engine import GameOptions

    return Game.new(players, seed, GameOptions(**options))


def rebalance(game: Game) -> None:
    """Give every player back exactly 20 dice by adjusting the supply, and make the
    edited position the start of the turn (no undo history, fresh move cache)."""
    s = game.state
    for seat, p in enumerate(s.players):
        p.supply = 0
        p.supply = DICE_PER_PLAYER - s.dice_owned(seat)
        assert p.supply >= 0, f"p{seat + 1} would need {-p.supply} dice more than 20"
    game.set_position()


def setup(
    game: Game,
    *,
    w1: str | None = None,
    w2: str | None = None,
    storeroom: list[int] | None = None,
    seat: int | None = None,
) -> Game:
    """Edit the current player's studio (and rebalance supplies)."""
    s = game.state
    me = s.players[s.current if seat is None else seat]
    if w1 is not None:
        me.workrooms[0] = grid(w1)
    if w2 is not None:
        me.workrooms[1] = grid(w2)
    if storeroom is not None:
        me.storeroom = sorted(storeroom)
    rebalance(game)
    return game


def museum_fill(game: Game, text: str, owner: int) -> None:
    """Fill museum cells from a grid (8×8 coordinates); keeps the cornerstone column."""
    for cell, (v, h) in grid(text, MUSEUM_SIZE).items():
        col = game.state.museum.get(cell)
        if col is None:
            game.state.museum[cell] = MuseumColumn(v, [owner] * h)
    rebalance(game)


def texts(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def english(error: Exception) -> str:
    """What a refusal says in English: the engine has keys and values only, the words are
    the English catalogue's (``rule.<key>``)."""
    from bot.i18n.rules import error_message

    message = error_message(error)
    return message if isinstance(message, str) else message.render("en")
