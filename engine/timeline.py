"""A game's story told by replaying its log: scores after each turn, artists each seat used.

Pure functions of a game (public ``Game`` API only).  One replay gives both read-outs, so the
store can record a finished game's statistics with a single pass (a few ms for a long game).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import ArtistKind
from .game import Game
from .history import start_of
from .moves import UseArtist


@dataclass(frozen=True, slots=True)
class Timeline:
    # scores[t][seat]: points at the start (t = 0) and after each finished turn (t = 1, 2, ...)
    scores: list[tuple[int, ...]]
    # artist_uses[seat]: how often the seat used each artist kind
    artist_uses: list[Counter[ArtistKind]]

    def series(self) -> list[list[int]]:
        """Per seat, its score after each turn (``series()[seat][t]``), ready for a chart."""
        return [list(col) for col in zip(*self.scores, strict=True)]


def timeline(game: Game) -> Timeline:
    """Replays ``game``'s log from its seed and records the scores whenever a turn ends.

    Using an artist draws a new card, which the engine never undoes, so counting each
    ``use`` as it is applied counts exactly the uses that stood."""
    g = start_of(game)
    scores = [tuple(g.scores())]
    uses: list[Counter[ArtistKind]] = [Counter() for _ in range(game.num_players)]
    for move in game.log:
        if isinstance(move, UseArtist):
            card = g.artist_card(move.slot)
            if card is not None:
                uses[g.current_player][card.artist] += 1
        if g.apply(move).turn_ended:
            scores.append(tuple(g.scores()))
    return Timeline(scores, uses)


def score_series(game: Game) -> list[list[int]]:
    """Per seat, the score at the start and after each finished turn."""
    return timeline(game).series()
