"""Moves: small immutable values with a short text form that round-trips.

``parse_move(str(m)) == m`` for every move.  The notation is documented with examples
in NOTATION.md.  Parsing checks only the form of a move; whether it is legal in a game
is the game's business (``Game.apply`` / ``Game.legal_moves``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .geometry import LETTERS, MUSEUM_SIZE, WORKROOM_SIZE, cell_name, parse_cell
from .rule_texts import RuleError, RuleText


class MoveSyntaxError(RuleError):
    """The text is not a move at all (as opposed to a legal-looking move that breaks a rule).
    ``rule`` (``key``, ``params``) is the message as a ``RuleText``, said in words by the front end."""


# --- die references -------------------------------------------------------------------

STOREROOM, POOL, CARD = "s", "x", "i"


@dataclass(frozen=True, slots=True, order=True)
class DieRef:
    """Which die: a storeroom die by value (``4``), a die of the workroom being abandoned
    (``x4``) or the die on bonus space ``space`` of completed card ``card`` (``i2.1``;
    both 0-based inside, 1-based in text)."""

    kind: str
    value: int = 0
    card: int = 0
    space: int = 0

    def __str__(self) -> str:
        if self.kind == STOREROOM:
            return str(self.value)
        if self.kind == POOL:
            return f"x{self.value}"
        return f"i{self.card + 1}.{self.space + 1}"

    @staticmethod
    def storeroom(value: int) -> DieRef:
        return DieRef(STOREROOM, value)

    @staticmethod
    def pool(value: int) -> DieRef:
        return DieRef(POOL, value)

    @staticmethod
    def on_card(card: int, space: int) -> DieRef:
        return DieRef(CARD, 0, card, space)


_KIND_ORDER = {STOREROOM: 0, POOL: 1, CARD: 2}


def _die_order(d: DieRef) -> tuple[int, int, int, int]:
    """Storeroom dice first, then abandoned dice, then card dice."""
    return (_KIND_ORDER.get(d.kind, 3), d.value, d.card, d.space)


def parse_die(text: str) -> DieRef:
    t = text.strip().lower()
    if t.isdigit() and len(t) == 1 and 1 <= int(t) <= 6:
        return DieRef.storeroom(int(t))
    if t.startswith("x") and len(t) == 2 and t[1] in "123456":
        return DieRef.pool(int(t[1]))
    if t.startswith("i") and "." in t:
        a, _, b = t[1:].partition(".")
        if a.isdigit() and b.isdigit() and int(a) >= 1 and int(b) >= 1:
            return DieRef.on_card(int(a) - 1, int(b) - 1)
    raise MoveSyntaxError(RuleText("bad_die", text=repr(text)))


# --- the moves ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """A storeroom or card die onto a workroom cell: ``place 4 w1 c3``."""

    die: DieRef
    room: int
    cell: int

    def __str__(self) -> str:
        return f"place {self.die} w{self.room + 1} {cell_name(self.cell, WORKROOM_SIZE)}"


@dataclass(frozen=True, slots=True)
class ToMuseum:
    """A die from a completed card into the museum: ``museum i1.2 d4``."""

    die: DieRef
    cell: int

    def __str__(self) -> str:
        return f"museum {self.die} {cell_name(self.cell, MUSEUM_SIZE)}"


@dataclass(frozen=True, slots=True)
class ToArtist:
    """Dice of one value onto artist card ``slot`` (1-4 in text): ``artist 3 5 5``."""

    slot: int
    dice: tuple[DieRef, ...]

    def __post_init__(self) -> None:
        # One canonical order, so that the text form and equality agree.
        object.__setattr__(self, "dice", tuple(sorted(self.dice, key=_die_order)))

    def __str__(self) -> str:
        return f"artist {self.slot + 1} " + " ".join(str(d) for d in self.dice)


@dataclass(frozen=True, slots=True)
class UseArtist:
    """Use the artist card in ``slot``.  Which fields are set depends on the artist:

    - Malevich: nothing (``use 2``)
    - Boccioni, Marc: ``die`` is a storeroom-style value, the value to take (``use 2 5``)
    - Popova, La Fresnaye: ``die`` is the die to change (``use 2 5``, ``use 2 i1.1``)
    - Gris: ``source`` (``use 2 w1 c3``)
    - Pascin: ``source`` and ``target`` (``use 2 w1 c3 w2 d4``)
    - Rozanova: ``seat`` and ``die`` (the value in that opponent's storage: ``use 2 p3 5``)
    """

    slot: int
    die: DieRef | None = None
    source: tuple[int, int] | None = None  # (room, cell)
    target: tuple[int, int] | None = None
    seat: int | None = None

    def __str__(self) -> str:
        parts = [f"use {self.slot + 1}"]
        if self.seat is not None:
            parts.append(f"p{self.seat + 1}")
        if self.die is not None:
            parts.append(str(self.die))
        for rc in (self.source, self.target):
            if rc is not None:
                parts.append(f"w{rc[0] + 1} {cell_name(rc[1], WORKROOM_SIZE)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Complete:
    """Complete face-up installation card ``card`` (its id) with workroom ``room``."""

    room: int
    card: int

    def __str__(self) -> str:
        return f"complete w{self.room + 1} #{self.card}"


@dataclass(frozen=True, slots=True)
class Abandon:
    """Abandon a whole workroom: ``abandon w2``.  Its dice may then go onto artist
    cards (``artist 3 x5 x5``); ``release`` sends the rest back to the supply."""

    room: int

    def __str__(self) -> str:
        return f"abandon w{self.room + 1}"


@dataclass(frozen=True, slots=True)
class Release:
    """Send the remaining dice of the abandoned workroom to the supply: ``release``."""

    def __str__(self) -> str:
        return "release"


@dataclass(frozen=True, slots=True)
class Switch:
    """Turn an either/or bonus die to its other printed value: ``switch i2.1``."""

    die: DieRef

    def __str__(self) -> str:
        return f"switch {self.die}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn keeping up to two storeroom dice in storage: ``end``, ``end 5``, ``end 6 2``."""

    keep: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "keep", tuple(sorted(self.keep, reverse=True)))

    def __str__(self) -> str:
        return " ".join(["end", *map(str, self.keep)])


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action of this turn (back to the last roll or card drawn)."""

    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, slots=True)
class Skip:
    """Table move (vote or admin): end the current player's turn for them."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Remove:
    """Table move (vote or admin): remove the player in ``seat`` from the game."""

    seat: int

    def __str__(self) -> str:
        return f"remove p{self.seat + 1}"


Move = Place | ToMuseum | ToArtist | UseArtist | Complete | Abandon | Release | Switch | EndTurn | Undo | Skip | Remove
TABLE_MOVES = (Skip, Remove)


# --- parsing --------------------------------------------------------------------------


def _room(text: str) -> int:
    t = text.lower()
    if t in ("w1", "w2"):
        return int(t[1]) - 1
    raise MoveSyntaxError(RuleText("bad_workroom", text=repr(text)))


def _cell(text: str, size: int) -> int:
    try:
        return parse_cell(text, size)
    except ValueError:
        t = text.strip().lower()
        if len(t) < 2 or t[0] not in LETTERS[:size] or not t[1:].isdigit():
            raise MoveSyntaxError(RuleText("bad_cell", text=repr(text), last=LETTERS[size - 1], size=size)) from None
        raise MoveSyntaxError(RuleText("cell_off_grid", text=repr(text), size=size)) from None


def _int(text: str, what: str, lo: int, hi: int) -> int:
    """``what``: the key of the kind of number (``what_slot`` ...)."""
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise MoveSyntaxError(RuleText("bad_number", text=repr(text), what=RuleText(what), lo=lo, hi=hi))
    return int(text)


def _seat(text: str) -> int:
    t = text.lower()
    if len(t) == 2 and t[0] == "p" and t[1] in "1234":
        return int(t[1]) - 1
    raise MoveSyntaxError(RuleText("bad_player", text=repr(text)))


def _expect(tokens: list[str], n: int, usage: str) -> None:
    """``usage``: the key of the expected form (``usage_place`` ...)."""
    if len(tokens) != n:
        raise MoveSyntaxError(RuleText("expected", usage=RuleText(usage)))


@lru_cache(maxsize=4096)
def parse_move(text: str) -> Move:
    """Parse the text form of a move; raises MoveSyntaxError saying what form was expected.
    Remembered: a game's turn keeps its moves as text, read again for every picture and
    story (the moves are frozen values, so one parse serves every reader)."""
    tokens = text.strip().split()
    if not tokens:
        raise MoveSyntaxError(RuleText("empty_move"))
    verb, args = tokens[0].lower(), tokens[1:]
    if verb == "place":
        _expect(args, 3, "usage_place")
        return Place(parse_die(args[0]), _room(args[1]), _cell(args[2], WORKROOM_SIZE))
    if verb == "museum":
        _expect(args, 2, "usage_museum")
        die = parse_die(args[0])
        if die.kind != CARD:
            raise MoveSyntaxError(RuleText("museum_card_die"))
        return ToMuseum(die, _cell(args[1], MUSEUM_SIZE))
    if verb == "artist":
        if len(args) not in (3, 4):
            raise MoveSyntaxError(RuleText("artist_usage"))
        return ToArtist(_int(args[0], "what_slot", 1, 4) - 1, tuple(parse_die(a) for a in args[1:]))
    if verb == "use":
        return _parse_use(args)
    if verb == "complete":
        _expect(args, 2, "usage_complete")
        card = args[1].lstrip("#")
        return Complete(_room(args[0]), _int(card, "what_card", 1, 999))
    if verb == "abandon":
        _expect(args, 1, "usage_abandon")
        return Abandon(_room(args[0]))
    if verb == "release":
        _expect(args, 0, "usage_release")
        return Release()
    if verb == "switch":
        _expect(args, 1, "usage_switch")
        die = parse_die(args[0])
        if die.kind != CARD:
            raise MoveSyntaxError(RuleText("switch_card_die"))
        return Switch(die)
    if verb == "end":
        if len(args) > 2:
            raise MoveSyntaxError(RuleText("end_usage"))
        return EndTurn(tuple(_int(a, "what_value", 1, 6) for a in args))
    if verb == "undo":
        _expect(args, 0, "usage_undo")
        return Undo()
    if verb == "skip":
        _expect(args, 0, "usage_skip")
        return Skip()
    if verb == "remove":
        _expect(args, 1, "usage_remove")
        return Remove(_seat(args[0]))
    raise MoveSyntaxError(RuleText("unknown_verb", verb=repr(tokens[0])))


def _parse_use(args: list[str]) -> UseArtist:
    if not args:
        raise MoveSyntaxError(RuleText("use_usage"))
    slot = _int(args[0], "what_slot", 1, 4) - 1
    rest = args[1:]
    if not rest:
        return UseArtist(slot)
    if len(rest) == 1:
        return UseArtist(slot, die=parse_die(rest[0]))
    if rest[0].lower().startswith("p"):
        _expect(rest, 2, "usage_use_seat")
        die = parse_die(rest[1])
        if die.kind != STOREROOM:
            raise MoveSyntaxError(RuleText("rozanova_value"))
        return UseArtist(slot, die=die, seat=_seat(rest[0]))
    if len(rest) == 2:
        return UseArtist(slot, source=(_room(rest[0]), _cell(rest[1], WORKROOM_SIZE)))
    if len(rest) == 4:
        return UseArtist(
            slot,
            source=(_room(rest[0]), _cell(rest[1], WORKROOM_SIZE)),
            target=(_room(rest[2]), _cell(rest[3], WORKROOM_SIZE)),
        )
    raise MoveSyntaxError(RuleText("use_forms"))


_VERBS: dict[type, str] = {
    Place: "place",
    ToMuseum: "museum",
    ToArtist: "artist",
    UseArtist: "use",
    Complete: "complete",
    Abandon: "abandon",
    Release: "release",
    Switch: "switch",
    EndTurn: "end",
    Undo: "undo",
    Skip: "skip",
    Remove: "remove",
}


def verb(m: Move) -> str:
    """The kind of a move, the first word of its notation (``place``, ``use``...)."""
    return _VERBS[type(m)]
