"""A game's story told by replaying its log: scores after each turn, artists each seat used.

Pure functions of a game (public ``Game`` API only).  One replay gives both read-outs, so the
store can record a finished game's statistics with a single pass (a few ms for a long game).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import ArtistKind
from .game import Game
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
    g = Game.new(game.num_players, game.seed, game.options, game.deck)
    scores = [tuple(g.scores())]
    uses: list[Counter[ArtistKind]] = [Counter() for _ in range(game.num_players)]
    for move in game.log:
        turn, was_over, seat = g.state.turn, g.is_over, g.current_player
        if isinstance(move, UseArtist):
            card = g.artist_card(move.slot)
            if card is not None:
                uses[seat][card.artist] += 1
        g.apply(move)
        if g.state.turn != turn or (g.is_over and not was_over):
            scores.append(tuple(g.scores()))
    return Timeline(scores, uses)


def score_series(game: Game) -> list[list[int]]:
    """Per seat, the score at the start and after each finished turn."""
    return timeline(game).series()
