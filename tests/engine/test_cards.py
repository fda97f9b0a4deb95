"""The bundled card deck and the loader's validation of broken copies."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from engine import geometry, solver
from engine.cards import (
    ARTIST_NAMES,
    ArtistCard,
    ArtistKind,
    CardDataError,
    Deck,
    InstallationCard,
    MuseumCard,
    default_deck,
    load_deck,
)

DATA = Path(__file__).resolve().parents[2] / "engine" / "data"
FILES = ("installations.json", "artists.json", "museums.json")


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


# --- The bundled deck ----------------------------------------------------------------


def test_default_deck_is_cached(deck: Deck) -> None:
    assert load_deck() is deck
    assert default_deck() is deck


def test_bundled_copy_loads_from_a_directory(tmp_path: Path, deck: Deck) -> None:
    for name in FILES:
        shutil.copy(DATA / name, tmp_path / name)
    assert load_deck(tmp_path) == deck


def test_counts_and_ids(deck: Deck) -> None:
    assert [c.id for c in deck.installations] == list(range(1, 24))
    assert [c.id for c in deck.artists] == list(range(1, 26))
    assert [c.id for c in deck.museums] == list(range(1, 10))
    for c in deck.installations:
        assert deck.installation(c.id) is c
    for a in deck.artists:
        assert deck.artist(a.id) is a
    for m in deck.museums:
        assert deck.museum(m.id) is m
    with pytest.raises(KeyError):
        deck.installation(24)


def test_installations(deck: Deck) -> None:
    either_or = 0
    for c in deck.installations:
        assert 3 <= c.dice <= 7
        assert c.dice == sum(h for _, _, h in c.cells)
        assert all(1 <= h <= 4 for _, _, h in c.cells)
        assert 2 <= c.points <= 6
        assert 1 <= len(c.bonus) <= 2
        for space in c.bonus:
            assert len(space) in (1, 2) and len(set(space)) == len(space)
            assert all(1 <= v <= 6 for v in space)
            either_or += len(space) == 2
        assert c.values is None
        assert min(x for x, _, _ in c.cells) == 0 and min(y for _, y, _ in c.cells) == 0
        idx = [y * 6 + x for x, y, _ in c.cells]
        assert len(set(idx)) == len(idx)
        assert geometry.is_connected(idx, 6)
        assert c.name.strip()
    assert either_or >= 3
    # A spread of sizes, including towers and a few big plans.
    sizes = Counter(c.dice for c in deck.installations)
    assert sizes[3] >= 2 and sizes[6] + sizes[7] >= 2
    assert any(max(h for _, _, h in c.cells) >= 3 for c in deck.installations)


def test_points_rise_with_dice(deck: Deck) -> None:
    mean = {
        n: sum(c.points for c in deck.installations if c.dice == n) / sum(1 for c in deck.installations if c.dice == n)
        for n in {c.dice for c in deck.installations}
    }
    sizes = sorted(mean)
    assert all(mean[a] <= mean[b] for a, b in pairwise(sizes))


def test_every_rotation_fits_the_workroom(deck: Deck) -> None:
    for c in deck.installations:
        assert 1 <= len(c.shapes) <= 4
        assert c.shapes == geometry.rotations(c.cells)
        for shape in c.shapes:
            assert all(0 <= x < 6 and 0 <= y < 6 for x, y, _ in shape)


def test_no_duplicate_shapes(deck: Deck) -> None:
    seen: dict[geometry.Shape, int] = {}
    for c in deck.installations:
        for shape in c.shapes:
            assert shape not in seen, f"card {c.id} has the shape of card {seen[shape]}"
        for shape in c.shapes:
            seen[shape] = c.id


def test_artist_distribution(deck: Deck) -> None:
    kinds = Counter(a.artist for a in deck.artists)
    assert kinds == {
        ArtistKind.MALEVICH: 6,
        ArtistKind.BOCCIONI: 3,
        ArtistKind.MARC: 2,
        ArtistKind.POPOVA: 4,
        ArtistKind.LA_FRESNAYE: 4,
        ArtistKind.GRIS: 2,
        ArtistKind.PASCIN: 2,
        ArtistKind.ROZANOVA: 2,
    }

    def of(kind: ArtistKind) -> list[ArtistCard]:
        return [a for a in deck.artists if a.artist is kind]

    assert sorted(a.value or 0 for a in of(ArtistKind.MALEVICH)) == [1, 2, 3, 4, 5, 6]
    assert sorted(a.values or () for a in of(ArtistKind.BOCCIONI)) == [(1, 4), (2, 5), (3, 6)]
    assert sorted(a.delta or 0 for a in of(ArtistKind.POPOVA)) == [-1, -1, 1, 1]
    assert sorted(a.delta or 0 for a in of(ArtistKind.LA_FRESNAYE)) == [-2, -2, 2, 2]
    assert sorted((a.delta or 0, a.dice) for a in of(ArtistKind.LA_FRESNAYE)) == [
        (-2, 2),
        (-2, 3),
        (2, 2),
        (2, 3),
    ]
    for a in deck.artists:
        three = a.artist in (ArtistKind.MARC, ArtistKind.ROZANOVA, ArtistKind.PASCIN)
        if a.artist is not ArtistKind.LA_FRESNAYE:
            assert a.dice == (3 if three else 2)
        assert a.title.strip()
        assert a.display_name == ARTIST_NAMES[a.artist]
    assert deck.artist(1).value == 1  # Malevich: "take a 1" (the words are the catalogues')
    assert set(ARTIST_NAMES) == set(ArtistKind)
    assert ARTIST_NAMES[ArtistKind.LA_FRESNAYE] == "Roger de La Fresnaye"


def test_museums(deck: Deck) -> None:
    nb = geometry.neighbour_table(8)
    # Sizes tuned by self-play so that the museum ends some games (issue 17, README).
    for players, target in ((2, 10), (3, 13), (4, 16)):
        group = deck.museums_for(players)
        assert len(group) == 3
        for m in group:
            assert m.players == players
            assert abs(m.dice - target) <= 2
            assert m.dice == sum(m.heights.values())
            assert all(1 <= h <= 3 for h in m.heights.values())
            assert all(0 <= x < 8 and 0 <= y < 8 for x, y, _ in m.cells)
            assert geometry.is_connected(m.heights, 8)
            assert m.cornerstone_cell in m.heights
            for v in range(1, 7):
                assert solver.completable(m.indices, {m.cornerstone_cell: v}, nb)
    assert deck.museums_for(5) == ()
    # No two museum plans alike.
    assert len({geometry.normalize(m.cells) for m in deck.museums}) == 9


def test_models_are_frozen(deck: Deck) -> None:
    card = deck.installation(1)
    with pytest.raises(ValueError):
        card.points = 6  # type: ignore[misc]
    with pytest.raises(TypeError):
        deck.museum(1).heights[0] = 3  # type: ignore[index]


# --- Broken copies -------------------------------------------------------------------

Raw = dict[str, Any]


def broken_copy(tmp_path: Path, name: str, edit: Callable[[list[Raw]], None]) -> Path:
    """Copy the bundled data to tmp_path, with ``edit`` applied to the cards of ``name``."""
    for f in FILES:
        shutil.copy(DATA / f, tmp_path / f)
    raw = json.loads((DATA / name).read_text(encoding="utf-8"))
    edit(raw["cards"])
    (tmp_path / name).write_text(json.dumps(raw), encoding="utf-8")
    return tmp_path


def card(cards: list[Raw], cid: int) -> Raw:
    return next(c for c in cards if c["id"] == cid)


def expect_error(directory: Path, *parts: str) -> str:
    with pytest.raises(CardDataError) as info:
        load_deck(directory)
    msg = str(info.value)
    for part in parts:
        assert part in msg, msg
    return msg


def test_missing_card(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "installations.json", lambda cs: cs.remove(card(cs, 7)))
    expect_error(d, "installations.json", "22 cards, expected 23", "card 7")


def test_duplicate_id(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "museums.json", lambda cs: card(cs, 9).update(id=4))
    expect_error(d, "museums.json, card 4: id used twice")


def test_disconnected_shape(tmp_path: Path) -> None:
    def edit(cs: list[Raw]) -> None:
        card(cs, 1)["cells"] = [[0, 0, 1], [2, 0, 1], [3, 0, 1]]

    d = broken_copy(tmp_path, "installations.json", edit)
    expect_error(d, "installations.json, card 1: footprint is not connected (cells (0,0) and (2,0))")


def test_same_shape_twice(tmp_path: Path) -> None:
    def edit(cs: list[Raw]) -> None:  # card 4 is a straight 4; make card 5 one, rotated
        card(cs, 5)["cells"] = [[0, y, 1] for y in range(4)]

    d = broken_copy(tmp_path, "installations.json", edit)
    expect_error(d, "installations.json, card 5: same shape (up to rotation) as card 4")


@pytest.mark.parametrize(
    ("name", "cid", "field", "value", "message"),
    [
        ("installations.json", 3, "bonus", [[7]], "bonus space 1 has value 7"),
        ("installations.json", 3, "bonus", [[2, 2]], "bonus space 1 is [2, 2]"),
        ("installations.json", 3, "bonus", [], "0 bonus spaces"),
        ("installations.json", 3, "points", 9, "points 9, expected 2-6"),
        ("installations.json", 3, "points", "4", "field 'points': Input should be"),
        ("installations.json", 3, "cells", [[0, 0, 5], [1, 0, 1]], "has height 5"),
        ("installations.json", 3, "cells", [[0, 0, 1], [1, 0, 1]], "2 dice, expected 3-7"),
        ("installations.json", 3, "cells", [[1, 0, 2], [2, 0, 1]], "not at the origin"),
        ("installations.json", 3, "cells", [[0, 0, 2], [0, 0, 1]], "listed twice"),
        ("installations.json", 3, "cells", [[0, 0, 1], [1, 0, 1], [6, 0, 1]], "outside the 6x6"),
        ("installations.json", 3, "values", [3, 5], "do not differ by 1"),
        ("installations.json", 3, "values", [0, None], "fixed value 0"),
        ("installations.json", 3, "colour", "red", "field 'colour': Extra inputs"),
        ("artists.json", 4, "value", 8, "value 8, expected 1-6"),
        ("artists.json", 4, "value", None, "a malevich card needs 'value'"),
        ("artists.json", 20, "delta", 1, "a gris card has no 'delta'"),
        ("artists.json", 12, "delta", 2, "delta 2, a popova card changes by +1 or -1"),
        ("artists.json", 8, "values", [3, 3], "values [3, 3]"),
        ("artists.json", 8, "dice", 4, "4 dice symbols"),
        ("artists.json", 8, "artist", "picasso", "field 'artist': Input should be"),
        ("museums.json", 2, "players", 5, "for 5 players"),
        ("museums.json", 2, "cells", [[0, 0, 1]], "1 dice, expected 9-14"),
    ],
)
def test_bad_field(tmp_path: Path, name: str, cid: int, field: str, value: Any, message: str) -> None:
    d = broken_copy(tmp_path, name, lambda cs: card(cs, cid).update({field: value}))
    expect_error(d, f"{name}, card {cid}: ", message)


def test_bad_value_fixed_on_a_card_is_accepted_when_consistent(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "installations.json", lambda cs: card(cs, 3).update(values=[3, 4]))
    assert load_deck(d).installation(3).values == (3, 4)


def test_wrong_artist_count(tmp_path: Path) -> None:
    # Card 21 (Gris) becomes a third Pascin: the first card beyond the count is named.
    d = broken_copy(tmp_path, "artists.json", lambda cs: card(cs, 21).update(artist="pascin", dice=3))
    msg = expect_error(d, "artists.json, card 23: 3 pascin cards, expected 2")
    assert "gris has 1, expected 2" in msg


def test_wrong_artist_dice_symbols(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "artists.json", lambda cs: card(cs, 17).update(dice=3))
    expect_error(
        d,
        "artists.json, card 17: unexpected la_fresnaye card (3 dice, delta +2); missing: 2 dice, delta +2",
    )


def test_wrong_malevich_values(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "artists.json", lambda cs: card(cs, 2).update(value=1))
    expect_error(
        d,
        "artists.json, card 2: unexpected malevich card (2 dice, value 1)",
        "missing: 2 dice, value 2",
    )


def test_wrong_museum_player_counts(tmp_path: Path) -> None:
    def edit(cs: list[Raw]) -> None:  # card 1 (14 dice) is moved to 3 players
        card(cs, 4).update(players=2, cells=card(cs, 1)["cells"], cornerstone=[3, 3])
        card(cs, 1).update(name="Copy")

    d = broken_copy(tmp_path, "museums.json", edit)
    expect_error(d, "museums.json, card 4: 4 museums for 2 players, expected 3")


def test_malformed_json(tmp_path: Path) -> None:
    for f in FILES:
        shutil.copy(DATA / f, tmp_path / f)
    text = (DATA / "installations.json").read_text(encoding="utf-8")
    start = text.index('"id": 5,')
    broken = text[:start] + text[start:].replace('"points": 3,', '"points": 3', 1)
    (tmp_path / "installations.json").write_text(broken, encoding="utf-8")
    expect_error(tmp_path, "installations.json, near card 5: not valid JSON (line")


def test_not_a_card_list(tmp_path: Path) -> None:
    for f in FILES:
        shutil.copy(DATA / f, tmp_path / f)
    (tmp_path / "artists.json").write_text("[]", encoding="utf-8")
    expect_error(tmp_path, 'artists.json: expected an object {"cards": [...]}')


def test_missing_file(tmp_path: Path) -> None:
    shutil.copy(DATA / "installations.json", tmp_path / "installations.json")
    expect_error(tmp_path, "artists.json: file not found")


def test_card_without_id(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "museums.json", lambda cs: card(cs, 3).pop("id"))
    expect_error(d, "museums.json, card at position 3 (no valid id): field 'id': Field required")


def test_cornerstone_outside_plan(tmp_path: Path) -> None:
    d = broken_copy(tmp_path, "museums.json", lambda cs: card(cs, 6).update(cornerstone=[7, 7]))
    expect_error(d, "museums.json, card 6: cornerstone (7,7) is outside the plan")


def test_museum_disconnected(tmp_path: Path) -> None:
    def edit(cs: list[Raw]) -> None:
        card(cs, 1)["cells"].append([7, 7, 1])

    d = broken_copy(tmp_path, "museums.json", edit)
    expect_error(d, "museums.json, card 1: footprint is not connected")


def test_models_validate_directly(deck: Deck) -> None:
    with pytest.raises(ValueError, match="not connected"):
        InstallationCard(id=1, name="x", points=2, cells=((0, 0, 2), (2, 0, 1)), bonus=((1,),))
    with pytest.raises(ValueError, match="outside the plan"):
        MuseumCard(id=1, name="x", players=2, cells=deck.museum(1).cells, cornerstone=(0, 0))
    ok = ArtistCard(id=1, artist=ArtistKind.BOCCIONI, title="Elasticity", dice=2, values=(1, 4))
    assert ok.values == (1, 4) and ok.display_name == "Umberto Boccioni"
