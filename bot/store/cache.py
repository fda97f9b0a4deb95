"""The store's memory of loaded games, shared by the rooms that load, move and verify games.

A small LRU of engine games keyed by (id, version) skips parsing the snapshot (see the
store benchmark); it never serves a version other than the database's, because every use
compares the cached version with the row read in the same transaction.  Games that failed
verification are quarantined: refused until they verify again or are rebuilt.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.store.errors import CorruptGame
from engine import Game


class GameCache:
    def __init__(self, size: int) -> None:
        # game id -> (version, game).  Entries are never mutated (they are cloned on the way
        # in and out), so worker threads may read them while the event loop replaces them.
        self.games: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self.size = size
        self.quarantined: dict[int, str] = {}

    def get(self, game_id: int) -> tuple[int, Game] | None:
        """(version, game) if cached.  Do not mutate the game: clone it."""
        return self.games.get(game_id)

    def at(self, game_id: int, version: int) -> Game | None:
        """The cached game at exactly this version.  Do not mutate it: clone it."""
        hit = self.games.get(game_id)
        return hit[1] if hit is not None and hit[0] == version else None

    def remember(self, game_id: int, version: int, game: Game) -> None:
        """Caches a game nobody else holds a reference to."""
        if self.size <= 0 or game_id in self.quarantined:
            return
        self.games[game_id] = (version, game)
        self.games.move_to_end(game_id)
        while len(self.games) > self.size:
            self.games.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)

    def check(self, game_id: int) -> None:
        """Raises CorruptGame for a quarantined game."""
        if game_id in self.quarantined:
            raise CorruptGame(game_id, self.quarantined[game_id])

    def quarantine(self, game_id: int, reason: str) -> None:
        self.quarantined[game_id] = reason
        self.games.pop(game_id, None)

    def release(self, game_id: int) -> None:
        self.quarantined.pop(game_id, None)

    def __len__(self) -> int:
        return len(self.games)
