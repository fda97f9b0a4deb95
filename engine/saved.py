"""Saved games: JSON in and out, validated by pydantic at this edge.

The JSON carries a ``version``; ``load_game`` migrates older versions.  A saved game holds
the seed, options and move log (enough to replay it) and the state itself (fast to load),
plus the undo checkpoint.  Version 2 keeps the record of this turn and the last one
(``engine.record``); a version 1 save kept their moves as text only, so loading one replays
the log to rebuild the records.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .cards import Deck, default_deck
from .errors import SavedGameError
from .game import Game
from .moves import MoveSyntaxError, parse_move
from .record import record_from_json, record_to_json
from .state import ArtistSlot, Completed, GameOptions, GameState, MuseumColumn, PlayerState

VERSION = 2


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlayerJSON(_Model):
    supply: int
    storeroom: list[int]
    storage: list[int]
    workrooms: list[list[tuple[int, int, int]]]  # per room: [cell, value, height]
    completed: list[tuple[int, list[int | None]]]
    removed: bool = False


class StateJSON(_Model):
    museum_card: int
    museum: list[tuple[int, int, list[int]]]  # [cell, value, owners]
    artists: list[tuple[int | None, int | None, int, int, int]]
    artist_deck: list[int]
    offer: list[int | None]
    installation_deck: list[int]
    players: list[PlayerJSON]
    current: int
    turn: int
    rolled: bool
    pool: list[int]
    rng: str
    over: bool
    this_turn: dict[str, Any]  # engine.record.record_to_json
    last_turn: dict[str, Any] | None
    last_roll: list[int]
    # Added with the equal_turns option; saves from before hold neither (that option off).
    first: int | None = None  # None: worked out again from the seed (see load_game)
    final_round: bool = False


class GameJSON(_Model):
    version: int
    seed: int
    players: int
    options: GameOptions
    log: list[str]
    state: StateJSON
    checkpoint: StateJSON
    since: list[str]


def _state_json(s: GameState) -> dict[str, Any]:
    return {
        "museum_card": s.museum_card,
        "museum": [[c, col.value, list(col.owners)] for c, col in sorted(s.museum.items())],
        "artists": [[a.card, a.owner, a.value, a.count, a.placed_turn] for a in s.artists],
        "artist_deck": list(s.artist_deck),
        "offer": list(s.offer),
        "installation_deck": list(s.installation_deck),
        "players": [
            {
                "supply": p.supply,
                "storeroom": list(p.storeroom),
                "storage": list(p.storage),
                "workrooms": [[[c, v, h] for c, (v, h) in sorted(w.items())] for w in p.workrooms],
                "completed": [[c.card, list(c.dice)] for c in p.completed],
                "removed": p.removed,
            }
            for p in s.players
        ],
        "current": s.current,
        "turn": s.turn,
        "rolled": s.rolled,
        "pool": list(s.pool),
        "rng": format(s.rng, "016x"),
        "over": s.over,
        "this_turn": record_to_json(s.this_turn),
        "last_turn": None if s.last_turn is None else record_to_json(s.last_turn),
        "last_roll": list(s.last_roll),
        "first": s.first,
        "final_round": s.final_round,
    }


def _state_from(j: StateJSON, options: GameOptions, first: int) -> GameState:
    return GameState(
        options=options,
        museum_card=j.museum_card,
        museum={c: MuseumColumn(v, list(o)) for c, v, o in j.museum},
        artists=[ArtistSlot(*a) for a in j.artists],
        artist_deck=list(j.artist_deck),
        offer=list(j.offer),
        installation_deck=list(j.installation_deck),
        players=[
            PlayerState(
                p.supply,
                list(p.storeroom),
                list(p.storage),
                [{c: (v, h) for c, v, h in w} for w in p.workrooms],
                [Completed(card, list(d)) for card, d in p.completed],
                p.removed,
            )
            for p in j.players
        ],
        current=j.current,
        turn=j.turn,
        rolled=j.rolled,
        pool=list(j.pool),
        rng=int(j.rng, 16),
        over=j.over,
        this_turn=record_from_json(j.this_turn),
        last_turn=None if j.last_turn is None else record_from_json(j.last_turn),
        last_roll=list(j.last_roll),
        first=first,
        final_round=j.final_round,
    )


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "version": VERSION,
        "seed": game.seed,
        "players": game.num_players,
        "options": game.options.model_dump(),
        "log": [str(m) for m in game.log],
        "state": _state_json(game.state),
        "checkpoint": _state_json(game._checkpoint),
        "since": [str(m) for m in game._since],
    }


def dump_game(game: Game) -> str:
    """Compact, deterministic JSON text of a game."""
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def _migrate(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The data in this version's shape, and whether the turn records must be rebuilt."""
    version = data.get("version")
    if version == VERSION:
        return data, False
    if not isinstance(version, int) or isinstance(version, bool):
        raise SavedGameError("saved game has no version number")
    if version > VERSION:
        raise SavedGameError(f"saved game is version {version}, newer than this engine ({VERSION})")
    if version == 1:  # the turns' moves as text: placeholders here, the log's replay fills them
        out = dict(data, version=VERSION)
        for key in ("state", "checkpoint"):
            part = data.get(key)
            if isinstance(part, dict):
                part = {k: v for k, v in part.items() if k != "turn_moves"}
                out[key] = dict(part, this_turn={"seat": 0, "turn": 0}, last_turn=None)
        return out, True
    raise SavedGameError(f"no migration from saved-game version {version}")


def load_game(data: str | bytes | dict[str, Any], deck: Deck | None = None) -> Game:
    """A game from its JSON text (or parsed dict).  Raises SavedGameError saying what is wrong."""
    try:
        raw = json.loads(data) if isinstance(data, str | bytes) else data
    except json.JSONDecodeError as e:
        raise SavedGameError(f"saved game is not valid JSON: {e}") from None
    if not isinstance(raw, dict):
        raise SavedGameError("saved game is not a JSON object")
    raw, rebuild = _migrate(raw)
    try:
        j = GameJSON.model_validate(raw)
        log = [parse_move(t) for t in j.log]
        since = [parse_move(t) for t in j.since]
        for part in (j.state, j.checkpoint):  # read here so that a damaged record is named
            for stored in (part.this_turn, part.last_turn):
                if stored is not None:
                    record_from_json(stored)
    except ValidationError as e:
        raise SavedGameError(f"saved game does not have the expected shape: {e}") from None
    except MoveSyntaxError as e:
        raise SavedGameError(f"saved game has an unreadable move: {e}") from None
    except (ValueError, KeyError, TypeError) as e:
        raise SavedGameError(f"saved game has an unreadable turn record: {e!r}") from None
    if len(j.state.players) != j.players:
        raise SavedGameError(f"saved game says {j.players} players but holds {len(j.state.players)}")
    deck = deck or default_deck()
    first = j.state.first
    if first is None:  # saved before the first seat was kept: the seed deals it again
        first = Game.new(j.players, j.seed, j.options, deck).state.first
    state = _state_from(j.state, j.options, first)
    checkpoint = _state_from(j.checkpoint, j.options, first)
    game = Game._from_parts(deck, state, j.seed, j.players, j.options, log, checkpoint, since)
    if rebuild:
        _rebuild_records(game)
    return game


def _rebuild_records(game: Game) -> None:
    """Fills the turn records of a game saved without them, from a replay of its log."""
    try:
        again = Game.replay(game.num_players, game.seed, game.log, game.options, game.deck)
    except ValueError as e:
        raise SavedGameError(f"saved game's moves do not replay: {e}") from None
    for mine, theirs in ((game.state, again.state), (game._checkpoint, again._checkpoint)):
        mine.this_turn, mine.last_turn = theirs.this_turn, theirs.last_turn
