"""The card deck: installation plans, artists and museum plans, loaded from validated JSON.

The bundled deck lives in ``engine/data`` (``installations.json``, ``artists.json``,
``museums.json``).  A group that owns the printed game can swap in its own copy and load
it with ``load_deck(directory)``; every problem is reported as a ``CardDataError`` naming
the file, the card and what is wrong.

Coordinates in the files: x is the column (0-based, ``a`` = 0), y the row (0-based, row
``1`` = 0), h the height of the column.  Museum cells map to grid indices ``y * 8 + x``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from engine import geometry, solver

# --- Deck constants (edit here to match a printed deck) ---------------------------------

INSTALLATIONS_FILE = "installations.json"
ARTISTS_FILE = "artists.json"
MUSEUMS_FILE = "museums.json"

INSTALLATION_COUNT = 23
INSTALLATION_DICE = (3, 7)  # inclusive range of dice per plan (sum of heights)
INSTALLATION_MAX_HEIGHT = 4
INSTALLATION_POINTS = (2, 6)
INSTALLATION_BONUS_SPACES = (1, 2)

MUSEUM_COUNT = 9
MUSEUMS_PER_PLAYER_COUNT = 3
MUSEUM_MAX_HEIGHT = 3
MUSEUM_DICE = {2: (9, 14), 3: (12, 20), 4: (15, 24)}  # players -> inclusive dice range

ARTIST_COUNT = 25
DICE_VALUES = range(1, 7)
Cell3 = tuple[int, int, int]


class CardDataError(ValueError):
    """A card data file is missing, malformed or breaks a deck rule."""


class ArtistKind(StrEnum):
    MALEVICH = "malevich"
    BOCCIONI = "boccioni"
    MARC = "marc"
    POPOVA = "popova"
    LA_FRESNAYE = "la_fresnaye"
    GRIS = "gris"
    PASCIN = "pascin"
    ROZANOVA = "rozanova"


ARTIST_NAMES: Mapping[ArtistKind, str] = MappingProxyType(
    {
        ArtistKind.MALEVICH: "Kazimir Malevich",
        ArtistKind.BOCCIONI: "Umberto Boccioni",
        ArtistKind.MARC: "Franz Marc",
        ArtistKind.POPOVA: "Lyubov Popova",
        ArtistKind.LA_FRESNAYE: "Roger de La Fresnaye",
        ArtistKind.GRIS: "Juan Gris",
        ArtistKind.PASCIN: "Jules Pascin",
        ArtistKind.ROZANOVA: "Olga Rozanova",
    }
)

# Expected distribution: kind -> sorted list of (dice symbols, value, values, delta).
_ArtistSig = tuple[int, int | None, tuple[int, int] | None, int | None]
ARTIST_DISTRIBUTION: Mapping[ArtistKind, tuple[_ArtistSig, ...]] = MappingProxyType(
    {
        ArtistKind.MALEVICH: tuple((2, v, None, None) for v in range(1, 7)),
        ArtistKind.BOCCIONI: tuple((2, None, (a, a + 3), None) for a in (1, 2, 3)),
        ArtistKind.MARC: ((3, None, None, None),) * 2,
        ArtistKind.POPOVA: ((2, None, None, -1),) * 2 + ((2, None, None, 1),) * 2,
        ArtistKind.LA_FRESNAYE: (
            (2, None, None, -2),
            (2, None, None, 2),
            (3, None, None, -2),
            (3, None, None, 2),
        ),
        ArtistKind.GRIS: ((2, None, None, None),) * 2,
        ArtistKind.PASCIN: ((3, None, None, None),) * 2,
        ArtistKind.ROZANOVA: ((3, None, None, None),) * 2,
    }
)


# --- Shared checks -------------------------------------------------------------------


def _check_footprint(cells: Sequence[Cell3], size: int, max_height: int) -> None:
    """Cells unique, inside a size×size grid, heights 1..max_height, edge-connected."""
    if not cells:
        raise ValueError("the plan has no cells")
    seen: set[tuple[int, int]] = set()
    for x, y, h in cells:
        if (x, y) in seen:
            raise ValueError(f"cell ({x},{y}) is listed twice")
        seen.add((x, y))
        if not (0 <= x < size and 0 <= y < size):
            raise ValueError(f"cell ({x},{y}) is outside the {size}x{size} grid")
        if not 1 <= h <= max_height:
            raise ValueError(f"cell ({x},{y}) has height {h}, expected 1-{max_height}")
    index = {y * size + x: (x, y) for x, y in seen}
    if not geometry.is_connected(index, size):
        first = min(index)
        reached = _reach(first, set(index), size)
        other = min(set(index) - reached)
        a, b = index[first], index[other]
        raise ValueError(f"footprint is not connected (cells ({a[0]},{a[1]}) and ({b[0]},{b[1]}))")


def _reach(start: int, cells: set[int], size: int) -> set[int]:
    """Cells reachable from ``start`` inside ``cells``."""
    nb = geometry.neighbour_table(size)
    seen, stack = {start}, [start]
    while stack:
        for n in nb[stack.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def _in(value: int, bounds: tuple[int, int]) -> bool:
    return bounds[0] <= value <= bounds[1]


# --- Models --------------------------------------------------------------------------


class InstallationCard(BaseModel):
    """An installation plan: footprint with heights, points, bonus spaces."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    name: str
    points: int
    cells: tuple[Cell3, ...]
    bonus: tuple[tuple[int, ...], ...]
    values: tuple[int | None, ...] | None = None  # fixed face value per cell, or free

    @model_validator(mode="after")
    def _check(self) -> InstallationCard:
        if not self.name.strip():
            raise ValueError("name is empty")
        size = geometry.WORKROOM_SIZE
        _check_footprint(self.cells, size, INSTALLATION_MAX_HEIGHT)
        mx = min(x for x, _, _ in self.cells)
        my = min(y for _, y, _ in self.cells)
        if (mx, my) != (0, 0):
            raise ValueError(f"plan is not at the origin (min x = {mx}, min y = {my}); shift it")
        # Inside the grid and at the origin: every rotation fits the square grid too.
        lo, hi = INSTALLATION_DICE
        if not _in(self.dice, INSTALLATION_DICE):
            raise ValueError(f"plan has {self.dice} dice, expected {lo}-{hi}")
        if not _in(self.points, INSTALLATION_POINTS):
            lo, hi = INSTALLATION_POINTS
            raise ValueError(f"points {self.points}, expected {lo}-{hi}")
        if not _in(len(self.bonus), INSTALLATION_BONUS_SPACES):
            lo, hi = INSTALLATION_BONUS_SPACES
            raise ValueError(f"{len(self.bonus)} bonus spaces, expected {lo}-{hi}")
        for i, space in enumerate(self.bonus, 1):
            if len(space) not in (1, 2) or len(set(space)) != len(space):
                raise ValueError(f"bonus space {i} is {list(space)}: give 1 value or 2 different values")
            for v in space:
                if v not in DICE_VALUES:
                    raise ValueError(f"bonus space {i} has value {v}, expected 1-6")
        if self.values is not None:
            self._check_values(self.values)
        return self

    def _check_values(self, values: tuple[int | None, ...]) -> None:
        if len(values) != len(self.cells):
            raise ValueError(f"values has {len(values)} entries for {len(self.cells)} cells")
        size = geometry.WORKROOM_SIZE
        fixed: dict[int, int] = {}
        for (x, y, _), v in zip(self.cells, values, strict=True):
            if v is None:
                continue
            if v not in DICE_VALUES:
                raise ValueError(f"cell ({x},{y}) has fixed value {v}, expected 1-6 or null")
            fixed[y * size + x] = v
        nb = geometry.neighbour_table(size)
        for c, v in fixed.items():
            for n in nb[c]:
                if n in fixed and abs(fixed[n] - v) != 1:
                    raise ValueError(f"fixed values {v} and {fixed[n]} are neighbours but do not differ by 1")
        if not solver.completable(self.indices, fixed, nb):
            raise ValueError("the fixed values leave no way to build the plan")

    @cached_property
    def dice(self) -> int:
        """Dice in the finished installation (sum of heights)."""
        return sum(h for _, _, h in self.cells)

    @cached_property
    def indices(self) -> tuple[int, ...]:
        """Cell indices on the workroom grid (``y * 6 + x``), in ``cells`` order."""
        return tuple(y * geometry.WORKROOM_SIZE + x for x, y, _ in self.cells)

    @cached_property
    def shapes(self) -> tuple[geometry.Shape, ...]:
        """The distinct rotations of the plan, each normalized (for matching workrooms)."""
        return geometry.rotations(self.cells)


class ArtistCard(BaseModel):
    """An artist card: kind, painting title, dice symbols and the kind's parameter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    artist: ArtistKind
    title: str
    dice: int
    value: int | None = None  # Malevich
    values: tuple[int, int] | None = None  # Boccioni
    delta: int | None = None  # Popova (+-1), La Fresnaye (+-2)

    @model_validator(mode="after")
    def _check(self) -> ArtistCard:
        if not self.title.strip():
            raise ValueError("title is empty")
        if self.dice not in (2, 3):
            raise ValueError(f"{self.dice} dice symbols, expected 2 or 3")
        kind = self.artist
        need = {
            ArtistKind.MALEVICH: "value",
            ArtistKind.BOCCIONI: "values",
            ArtistKind.POPOVA: "delta",
            ArtistKind.LA_FRESNAYE: "delta",
        }.get(kind)
        for field in ("value", "values", "delta"):
            present = getattr(self, field) is not None
            if field == need and not present:
                raise ValueError(f"a {kind} card needs '{field}'")
            if field != need and present:
                raise ValueError(f"a {kind} card has no '{field}'")
        if self.value is not None and self.value not in DICE_VALUES:
            raise ValueError(f"value {self.value}, expected 1-6")
        if self.values is not None:
            a, b = self.values
            if a == b or a not in DICE_VALUES or b not in DICE_VALUES:
                raise ValueError(f"values {list(self.values)}: expected 2 different values 1-6")
        if self.delta is not None:
            step = 1 if kind is ArtistKind.POPOVA else 2
            if self.delta not in (step, -step):
                raise ValueError(f"delta {self.delta}, a {kind} card changes by +{step} or -{step}")
        return self

    @property
    def display_name(self) -> str:
        return ARTIST_NAMES[self.artist]

    @property
    def signature(self) -> _ArtistSig:
        """(dice symbols, value, values, delta): what distinguishes cards of one kind."""
        return (self.dice, self.value, self.values, self.delta)


class MuseumCard(BaseModel):
    """A museum plan for a player count, with its cornerstone cell."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    name: str
    players: int
    cells: tuple[Cell3, ...]
    cornerstone: tuple[int, int]

    @model_validator(mode="after")
    def _check(self) -> MuseumCard:
        if not self.name.strip():
            raise ValueError("name is empty")
        if self.players not in MUSEUM_DICE:
            raise ValueError(f"for {self.players} players, expected one of {sorted(MUSEUM_DICE)}")
        size = geometry.MUSEUM_SIZE
        _check_footprint(self.cells, size, MUSEUM_MAX_HEIGHT)
        lo, hi = MUSEUM_DICE[self.players]
        if not lo <= self.dice <= hi:
            raise ValueError(f"plan has {self.dice} dice, expected {lo}-{hi} for {self.players} players")
        cx, cy = self.cornerstone
        if self.cornerstone_cell not in self.heights:
            raise ValueError(f"cornerstone ({cx},{cy}) is outside the plan")
        nb = geometry.neighbour_table(size)
        for v in DICE_VALUES:
            if not solver.completable(self.indices, {self.cornerstone_cell: v}, nb):
                raise ValueError(f"plan cannot be completed when the cornerstone shows {v}")
        return self

    @cached_property
    def indices(self) -> tuple[int, ...]:
        """Cell indices on the museum grid (``y * 8 + x``), in ``cells`` order."""
        return tuple(y * geometry.MUSEUM_SIZE + x for x, y, _ in self.cells)

    @cached_property
    def heights(self) -> Mapping[int, int]:
        """Cell index -> height of the plan (read-only)."""
        return MappingProxyType({c: h for c, (_, _, h) in zip(self.indices, self.cells, strict=True)})

    @cached_property
    def cornerstone_cell(self) -> int:
        x, y = self.cornerstone
        return y * geometry.MUSEUM_SIZE + x

    @cached_property
    def dice(self) -> int:
        """Dice in the finished museum, the cornerstone die included."""
        return sum(h for _, _, h in self.cells)


class Deck(BaseModel):
    """The three card decks, with O(1) lookup by id."""

    model_config = ConfigDict(frozen=True)

    installations: tuple[InstallationCard, ...]
    artists: tuple[ArtistCard, ...]
    museums: tuple[MuseumCard, ...]

    @cached_property
    def _installations_by_id(self) -> Mapping[int, InstallationCard]:
        return MappingProxyType({c.id: c for c in self.installations})

    @cached_property
    def _artists_by_id(self) -> Mapping[int, ArtistCard]:
        return MappingProxyType({c.id: c for c in self.artists})

    @cached_property
    def _museums_by_id(self) -> Mapping[int, MuseumCard]:
        return MappingProxyType({c.id: c for c in self.museums})

    def installation(self, card_id: int) -> InstallationCard:
        """The installation card with this id; KeyError if there is none."""
        return self._installations_by_id[card_id]

    def artist(self, card_id: int) -> ArtistCard:
        return self._artists_by_id[card_id]

    def museum(self, card_id: int) -> MuseumCard:
        return self._museums_by_id[card_id]

    def museums_for(self, players: int) -> tuple[MuseumCard, ...]:
        """The museum cards for this player count, in id order (empty if none)."""
        return tuple(m for m in self.museums if m.players == players)


# --- Loading -------------------------------------------------------------------------

Card = TypeVar("Card", InstallationCard, ArtistCard, MuseumCard)
_ID_RE = re.compile(r'"id"\s*:\s*(-?\d+)')


def _data_dir() -> Traversable:
    """The bundled ``engine/data`` directory."""
    try:
        return resources.files("engine") / "data"
    except (TypeError, ValueError, OSError):  # e.g. a namespace package without a reader
        return Path(__file__).resolve().parent / "data"


def _label(card: object, position: int) -> str:
    cid = card.get("id") if isinstance(card, dict) else None
    if isinstance(cid, int) and not isinstance(cid, bool):
        return f"card {cid}"
    return f"card at position {position} (no valid id)"


def _pydantic_problem(err: ValidationError) -> str:
    first = err.errors()[0]
    msg = first["msg"].removeprefix("Value error, ")
    loc = ".".join(str(p) for p in first["loc"])
    return f"field '{loc}': {msg}" if loc else msg


def _read_cards(directory: Traversable, name: str, model: type[Card], count: int) -> tuple[Card, ...]:
    """Parse one file into validated cards with ids 1..count, in id order."""
    entry = directory / name
    try:
        text = entry.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise CardDataError(f"{name}: file not found in {directory}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise CardDataError(f"{name}: cannot read the file ({e})") from None
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError as e:
        ids = _ID_RE.findall(text, 0, e.pos)
        where = f", near card {ids[-1]}" if ids else ""
        raise CardDataError(f"{name}{where}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise CardDataError(f'{name}: expected an object {{"cards": [...]}}')

    cards: list[Card] = []
    where_id: dict[int, str] = {}
    for pos, item in enumerate(raw["cards"], 1):
        label = _label(item, pos)
        if not isinstance(item, dict):
            raise CardDataError(f"{name}, {label}: expected an object")
        try:
            card = model.model_validate_json(json.dumps(item), strict=True)
        except ValidationError as e:
            raise CardDataError(f"{name}, {label}: {_pydantic_problem(e)}") from None
        if card.id in where_id:
            raise CardDataError(f"{name}, card {card.id}: id used twice")
        if not 1 <= card.id <= count:
            raise CardDataError(f"{name}, card {card.id}: id outside 1-{count}")
        where_id[card.id] = label
        cards.append(card)
    if len(cards) != count:
        missing = [i for i in range(1, count + 1) if i not in where_id]
        listed = ", ".join(f"card {i}" for i in missing)
        raise CardDataError(f"{name}: {len(cards)} cards, expected {count} (missing {listed})")
    return tuple(sorted(cards, key=lambda c: c.id))


def _check_unique(name: str, cards: Sequence[Card], key: Callable[[Card], object], what: str) -> None:
    seen: dict[object, int] = {}
    for c in cards:
        k = key(c)
        if k in seen:
            raise CardDataError(f"{name}, card {c.id}: same {what} as card {seen[k]}")
        seen[k] = c.id


def _check_installations(cards: Sequence[InstallationCard]) -> None:
    name = INSTALLATIONS_FILE
    _check_unique(name, cards, lambda c: c.name.strip().lower(), "name")
    # Same shape up to rotation: compare a canonical rotation (mirror images differ).
    _check_unique(name, cards, lambda c: min(tuple(sorted(s)) for s in c.shapes), "shape (up to rotation)")


def _check_artists(cards: Sequence[ArtistCard]) -> None:
    name = ARTISTS_FILE
    by_kind: dict[ArtistKind, list[ArtistCard]] = {k: [] for k in ArtistKind}
    for c in cards:
        by_kind[c.artist].append(c)
    # Kind counts first: name the first card beyond its kind's count.
    for kind, group in by_kind.items():
        want = len(ARTIST_DISTRIBUTION[kind])
        if len(group) > want:
            short = ", ".join(
                f"{k} has {len(g)}, expected {len(ARTIST_DISTRIBUTION[k])}"
                for k, g in by_kind.items()
                if len(g) < len(ARTIST_DISTRIBUTION[k])
            )
            raise CardDataError(
                f"{name}, card {group[want].id}: {len(group)} {kind} cards, expected {want}"
                + (f" ({short})" if short else "")
            )
    # Then the exact mix within each kind (values, deltas, dice symbols).
    for kind, group in by_kind.items():
        allowed = Counter(ARTIST_DISTRIBUTION[kind])
        missing = allowed - Counter(c.signature for c in group)
        if not missing:
            continue
        for c in group:  # name the first card beyond what the deck allows
            if allowed[c.signature] > 0:
                allowed[c.signature] -= 1
                continue
            expected = "; ".join(_describe_sig(s) for s in sorted(missing.elements(), key=str))
            raise CardDataError(
                f"{name}, card {c.id}: unexpected {kind} card ({_describe_sig(c.signature)}); missing: {expected}"
            )


def _describe_sig(sig: _ArtistSig) -> str:
    dice, value, values, delta = sig
    parts = [f"{dice} dice"]
    if value is not None:
        parts.append(f"value {value}")
    if values is not None:
        parts.append(f"values {values[0]}/{values[1]}")
    if delta is not None:
        parts.append(f"delta {delta:+d}")
    return ", ".join(parts)


def _check_museums(cards: Sequence[MuseumCard]) -> None:
    name = MUSEUMS_FILE
    _check_unique(name, cards, lambda c: c.name.strip().lower(), "name")
    per: dict[int, list[MuseumCard]] = {p: [] for p in MUSEUM_DICE}
    for c in cards:
        per[c.players].append(c)
    for players, group in per.items():
        if len(group) > MUSEUMS_PER_PLAYER_COUNT:
            short = ", ".join(f"{p} players has {len(g)}" for p, g in per.items() if len(g) < MUSEUMS_PER_PLAYER_COUNT)
            raise CardDataError(
                f"{name}, card {group[MUSEUMS_PER_PLAYER_COUNT].id}: {len(group)} museums for "
                f"{players} players, expected {MUSEUMS_PER_PLAYER_COUNT} ({short})"
            )


def load_deck(directory: Path | None = None) -> Deck:
    """Load and validate the three card files; ``None`` gives the bundled (cached) deck."""
    if directory is None:
        return default_deck()
    return _load(Path(directory))


@cache
def default_deck() -> Deck:
    """The bundled deck, read and validated once."""
    return _load(_data_dir())


def _load(directory: Traversable) -> Deck:
    installations = _read_cards(directory, INSTALLATIONS_FILE, InstallationCard, INSTALLATION_COUNT)
    _check_installations(installations)
    artists = _read_cards(directory, ARTISTS_FILE, ArtistCard, ARTIST_COUNT)
    _check_artists(artists)
    museums = _read_cards(directory, MUSEUMS_FILE, MuseumCard, MUSEUM_COUNT)
    _check_museums(museums)
    return Deck(installations=installations, artists=artists, museums=museums)
