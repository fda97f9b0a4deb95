"""The record of a turn: the moves played together with what they resolved to when they were
played (the artist card used, the dice given and sent back, the installation completed, the
card a bonus die came from, the dice rolled).

Everything that tells a turn (the channel post, the pictures, the web board, the history)
reads these values; none of them looks at the position afterwards to guess what a move
meant, since by then the artist row or the offer may have changed.  Moves are kept as
values; text appears only in ``record_to_json`` (where records are stored).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .moves import Move, parse_move


@dataclass(frozen=True, slots=True)
class Played:
    """One move of a turn and what it resolved to."""

    move: Move
    value: int | None = None  # the value of the die (or dice) the move took, moved or changed
    to: int | None = None  # the value after a change (a switch, Popova, La Fresnaye)
    artist: int | None = None  # the id of the artist card given dice or used
    bumped: tuple[int, int, int] | None = None  # (seat, count, value): another player's dice sent back
    installation: int | None = None  # the id of the installation completed
    bonus: tuple[int, ...] = ()  # the ids of the installation cards the move's bonus dice came from
    rolled: tuple[int, ...] = ()  # dice rolled right after the move (a card drawn, the storeroom refilled)


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """A turn as it stands (undone moves dropped): whose, which, the dice rolled as it began
    (empty when the roll waited for a first action) and the moves played."""

    seat: int
    turn: int
    rolled: tuple[int, ...] = ()
    plays: tuple[Played, ...] = ()

    def add(self, play: Played) -> TurnRecord:
        return TurnRecord(self.seat, self.turn, self.rolled, (*self.plays, play))

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(p.move for p in self.plays)

    def dice_rolled(self) -> tuple[int, ...]:
        """Every die rolled during the turn, in order."""
        return self.rolled + tuple(v for p in self.plays for v in p.rolled)


def played_to_json(p: Played) -> dict[str, Any]:
    out: dict[str, Any] = {"move": str(p.move)}
    for key in ("value", "to", "artist", "installation"):
        value = getattr(p, key)
        if value is not None:
            out[key] = value
    if p.bumped is not None:
        out["bumped"] = list(p.bumped)
    if p.bonus:
        out["bonus"] = list(p.bonus)
    if p.rolled:
        out["rolled"] = list(p.rolled)
    return out


def played_from_json(j: dict[str, Any]) -> Played:
    """Raises ValueError (``MoveSyntaxError`` for the move) when ``j`` is not a stored play."""
    bumped = j.get("bumped")
    if bumped is not None and len(bumped) != 3:
        raise ValueError(f"a play's bumped dice are (seat, count, value), not {bumped!r}")
    return Played(
        parse_move(str(j["move"])),
        _int_or_none(j.get("value")),
        _int_or_none(j.get("to")),
        _int_or_none(j.get("artist")),
        None if bumped is None else (int(bumped[0]), int(bumped[1]), int(bumped[2])),
        _int_or_none(j.get("installation")),
        tuple(int(v) for v in j.get("bonus", ())),
        tuple(int(v) for v in j.get("rolled", ())),
    )


def _int_or_none(v: object) -> int | None:
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"expected a whole number, not {v!r}")
    return v


def record_to_json(r: TurnRecord) -> dict[str, Any]:
    return {"seat": r.seat, "turn": r.turn, "rolled": list(r.rolled), "plays": [played_to_json(p) for p in r.plays]}


def record_from_json(j: dict[str, Any]) -> TurnRecord:
    """Raises ValueError (or KeyError, TypeError) when ``j`` is not a stored record."""
    return TurnRecord(
        int(j["seat"]),
        int(j["turn"]),
        tuple(int(v) for v in j.get("rolled", ())),
        tuple(played_from_json(p) for p in j.get("plays", ())),
    )
