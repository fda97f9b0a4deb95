"""The game state as plain mutable dataclasses (fast to copy and compare).

Only the engine mutates these; everybody else reads them.  Layout of a structure
(a workroom or the museum): ``dict[cell, (value, height)]`` for workrooms and
``dict[cell, MuseumColumn]`` for the museum, cell = ``y * size + x``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from .record import TurnRecord

DICE_PER_PLAYER = 20
STORAGE_SLOTS = 2
ARTIST_SLOTS = 4
OFFER_SLOTS = 3
INSTALLATIONS_TO_END = 5
CORNERSTONE = -1  # owner id of the red museum die


class GameOptions(BaseModel):
    """Per-game settings (RULES.md "option" rulings)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    clear_full_artist_row: bool = True
    # When the end is triggered, finish the round so every player has had as many turns.
    equal_turns: bool = False


@dataclass(slots=True)
class Completed:
    """A completed installation card in front of its owner, with its bonus dice.

    ``dice[i]`` is the value of the die on bonus space i, or None once it has left the
    card (or could not be filled because the supply ran short).
    """

    card: int
    dice: list[int | None]

    def clone(self) -> Completed:
        return Completed(self.card, list(self.dice))


@dataclass(slots=True)
class PlayerState:
    supply: int = DICE_PER_PLAYER
    storeroom: list[int] = field(default_factory=list)  # kept sorted
    storage: list[int] = field(default_factory=list)  # kept sorted; empty during own turn
    workrooms: list[dict[int, tuple[int, int]]] = field(default_factory=lambda: [{}, {}])
    completed: list[Completed] = field(default_factory=list)
    removed: bool = False

    def clone(self) -> PlayerState:
        return PlayerState(
            self.supply,
            list(self.storeroom),
            list(self.storage),
            [dict(w) for w in self.workrooms],
            [c.clone() for c in self.completed],
            self.removed,
        )

    def card_dice(self) -> int:
        return sum(1 for c in self.completed for d in c.dice if d is not None)

    def workroom_dice(self) -> int:
        return sum(h for w in self.workrooms for _v, h in w.values())


@dataclass(slots=True)
class ArtistSlot:
    """A face-up artist card and the dice on it (all one owner, one value)."""

    card: int | None
    owner: int | None = None
    value: int = 0
    count: int = 0
    placed_turn: int = -1

    def clone(self) -> ArtistSlot:
        return ArtistSlot(self.card, self.owner, self.value, self.count, self.placed_turn)

    def clear(self) -> None:
        self.owner, self.value, self.count, self.placed_turn = None, 0, 0, -1


@dataclass(slots=True)
class MuseumColumn:
    value: int
    owners: list[int]  # bottom to top; CORNERSTONE for the red die

    def clone(self) -> MuseumColumn:
        return MuseumColumn(self.value, list(self.owners))


@dataclass(slots=True)
class GameState:
    options: GameOptions
    museum_card: int
    museum: dict[int, MuseumColumn]
    artists: list[ArtistSlot]
    artist_deck: list[int]
    offer: list[int | None]
    installation_deck: list[int]
    players: list[PlayerState]
    current: int = 0
    turn: int = 0  # counts turns from 0; artist dice remember the turn they were placed
    rolled: bool = False
    pool: list[int] = field(default_factory=list)  # dice of an abandoned workroom, sorted
    rng: int = 0
    over: bool = False
    this_turn: TurnRecord = field(default_factory=lambda: TurnRecord(0, 0))  # this turn so far
    last_turn: TurnRecord | None = None  # the previous turn
    last_roll: list[int] = field(default_factory=list)
    first: int = 0  # the seat that took the first turn (rounds start there)
    final_round: bool = False  # equal_turns: the end was triggered, the round is played out

    def clone(self) -> GameState:
        return GameState(
            self.options,
            self.museum_card,
            {c: col.clone() for c, col in self.museum.items()},
            [a.clone() for a in self.artists],
            list(self.artist_deck),
            list(self.offer),
            list(self.installation_deck),
            [p.clone() for p in self.players],
            self.current,
            self.turn,
            self.rolled,
            list(self.pool),
            self.rng,
            self.over,
            self.this_turn,  # records are immutable: shared
            self.last_turn,
            list(self.last_roll),
            self.first,
            self.final_round,
        )

    def dice_owned(self, seat: int) -> int:
        """Every die of a player wherever it is (the conservation invariant: always 20)."""
        p = self.players[seat]
        n = p.supply + len(p.storeroom) + len(p.storage) + p.workroom_dice() + p.card_dice()
        n += sum(a.count for a in self.artists if a.owner == seat)
        n += sum(col.owners.count(seat) for col in self.museum.values())
        if seat == self.current:
            n += len(self.pool)
        return n

    def museum_dice(self, seat: int) -> int:
        return sum(col.owners.count(seat) for col in self.museum.values())
