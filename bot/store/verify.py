"""Consistency checks of one game's rows (pure functions: no I/O, so they can run in a thread).

``snapshot_game`` is the cheap check done on every load; ``check_replay`` is the full check
(the snapshot must equal the replay of the move list) done by ``verify_game``/``verify_all``
and by ``python -m bot.store verify``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.errors import CorruptGame
from engine import Game, GameOptions, load_game

STARTED_STATUSES = ("active", "finished", "cancelled")


def row_options(game_id: int, text: str) -> GameOptions:
    try:
        return GameOptions.model_validate_json(text)
    except ValueError as e:
        raise CorruptGame(game_id, f"unreadable options: {e}") from None


def snapshot_game(game_id: int, row: Mapping[str, Any], snap_version: int | None, snap_json: str | None) -> Game:
    """The game in its snapshot, after checking it agrees with its ``games`` row."""
    if row["status"] not in STARTED_STATUSES:
        raise CorruptGame(game_id, f"a started game (seed {row['seed']}) with status {row['status']!r}")
    if snap_json is None or snap_version is None:
        raise CorruptGame(game_id, f"the game is {row['status']} but has no snapshot")
    if snap_version != row["version"]:
        raise CorruptGame(game_id, f"the snapshot is at version {snap_version} but the game at {row['version']}")
    try:
        game = load_game(snap_json)
    except Exception as e:  # SavedGameError, or anything the engine trips over in odd data
        raise CorruptGame(game_id, f"unreadable snapshot: {type(e).__name__}: {str(e)[:300]}") from None
    options = row_options(game_id, row["options"])
    if game.seed != row["seed"] or game.num_players != row["players"] or game.options != options:
        raise CorruptGame(
            game_id,
            f"the snapshot is of another game (seed {game.seed}, {game.num_players} players, {game.options!r}) "
            f"than the row says (seed {row['seed']}, {row['players']} players, {options!r})",
        )
    if len(game.log) != row["version"]:
        raise CorruptGame(
            game_id, f"the snapshot holds {len(game.log)} moves but the game is at version {row['version']}"
        )
    return game


def check_replay(game_id: int, row: Mapping[str, Any], snapshot: Game, moves: Sequence[tuple[int, str]]) -> Game:
    """Replays ``moves`` ((ply, text) in ply order) and checks the snapshot equals the result.
    Returns the replayed game (the source of truth)."""
    plies = [p for p, _ in moves]
    if plies != list(range(1, len(plies) + 1)):
        gap = next(i + 1 for i, p in enumerate(plies) if p != i + 1)
        raise CorruptGame(game_id, f"the move list is not plies 1..{len(plies)} (ply {gap} is missing or misplaced)")
    if len(moves) != row["version"]:
        raise CorruptGame(game_id, f"{len(moves)} moves are stored but the game is at version {row['version']}")
    options = row_options(game_id, row["options"])
    try:
        replayed = Game.new(row["players"], row["seed"], options)
    except ValueError as e:
        raise CorruptGame(game_id, f"cannot set up the game: {e}") from None
    for ply, text in moves:
        try:
            replayed.apply_text(text)
        except ValueError as e:  # IllegalMove or MoveSyntaxError
            raise CorruptGame(game_id, f"move {ply} {text!r} does not replay: {e}") from None
    logged = [str(m) for m in snapshot.log]
    texts = [t for _, t in moves]
    if logged != texts:
        k = next(
            (i for i, (a, b) in enumerate(zip(logged, texts, strict=False)) if a != b), min(len(logged), len(texts))
        )
        raise CorruptGame(game_id, f"the snapshot's move log differs from the move list at ply {k + 1}")
    if replayed != snapshot:
        raise CorruptGame(game_id, f"the snapshot differs from the replay of its {len(moves)} moves")
    status = row["status"]
    if status == "active" and replayed.is_over:
        raise CorruptGame(game_id, "the game is over but still marked active")
    if status == "finished" and not replayed.is_over:
        raise CorruptGame(game_id, "the game is marked finished but is not over")
    if status == "active" and (row["current_seat"] != replayed.current_player or row["turn"] != replayed.state.turn):
        raise CorruptGame(
            game_id,
            f"the row says seat {row['current_seat']} turn {row['turn']} but the game is at seat "
            f"{replayed.current_player} turn {replayed.state.turn}",
        )
    return replayed
