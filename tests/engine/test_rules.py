"""One focused test per rule and per RULES.md ruling, each position drawn as a grid.

Grids: rows 1, 2, 3 … from the top, columns a, b, c … from the left (see helpers.py).
"""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove, dump_game, parse_move
from engine.geometry import MUSEUM_SIZE, parse_cell
from engine.state import ArtistSlot, Completed, MuseumColumn

from .helpers import english, museum_fill, new_game, rebalance, setup, texts


def refused(game: Game, move: str, *fragments: str) -> str:
    """Apply must raise IllegalMove mentioning every fragment, and change nothing."""
    before = dump_game(game)
    with pytest.raises(IllegalMove) as e:
        game.apply_text(move)
    assert dump_game(game) == before
    said = english(e.value)
    for f in fragments:
        assert f in said, f"{f!r} not in {said}"
    assert move not in texts(game)
    return said


def allowed(game: Game, move: str) -> None:
    assert move in texts(game), f"{move} is not listed"
    game.apply_text(move)
    assert game.check_invariants() == []


def me(game: Game):
    return game.state.players[game.current_player]


# --- geometry -----------------------------------------------------------------------


def test_first_die_may_go_on_any_cell_of_an_empty_workroom() -> None:
    g = setup(new_game(), w1="", storeroom=[4])
    assert {m for m in texts(g) if m.startswith("place 4 w1")} == {
        f"place 4 w1 {c}{r}" for c in "abcdef" for r in range(1, 7)
    }


def test_stacking_only_on_the_same_value() -> None:
    g = setup(
        new_game(),
        w1="""
        . . .
        . 4 .
        """,
        storeroom=[4, 5],
    )
    allowed(g, "place 4 w1 b2")
    assert g.state.players[g.current_player].workrooms[0][parse_cell("b2", 6)] == (4, 2)
    refused(g, "place 5 w1 b2", "a 5 may not stack on the 4 at b2")


def test_neighbours_differ_by_exactly_one() -> None:
    # A 4 may not go next to the 6 at c3.
    g = setup(
        new_game(),
        w1="""
        . . .
        . . .
        . . 6
        """,
        storeroom=[4, 5],
    )
    refused(g, "place 4 w1 b3", "a 4 may not go next to the 6 at c3", "differ by exactly 1")
    allowed(g, "place 5 w1 b3")


def test_a_die_must_differ_by_one_from_every_die_it_touches() -> None:
    g = setup(
        new_game(),
        w1="""
        2 3 .
        1 . .
        """,
        storeroom=[2, 4],
    )
    # b2 touches the 3 at b1 and the 1 at a2: a 4 suits the 3 but not the 1.
    refused(g, "place 4 w1 b2", "a 4 may not go next to the 1 at a2")
    allowed(g, "place 2 w1 b2")


def test_new_die_must_touch_the_structure_edge_to_edge_not_diagonally() -> None:
    g = setup(
        new_game(),
        w1="""
        4 . .
        . . .
        """,
        storeroom=[5],
    )
    refused(g, "place 5 w1 b2", "b2 does not touch the structure")
    refused(g, "place 5 w1 c1", "c1 does not touch")
    allowed(g, "place 5 w1 b1")


# --- installation cards ---------------------------------------------------------------


def test_workroom_matches_plan_under_rotation_and_shift() -> None:
    # #5 "Crutch for a Giant" is an L: a column of three with a foot.  Drawn turned a
    # quarter and shifted to the middle of the grid:
    g = setup(
        new_game(),
        w1="""
        . . . .
        . . . .
        . 4 5 6
        . 3 . .
        """,
    )
    g.state.offer = [5, 1, 4]
    rebalance(g)
    assert "complete w1 #5" in texts(g)
    refused(g, "complete w1 #4", "does not match installation #4")


def test_mirror_image_does_not_match() -> None:
    # The mirror image of #5's L (foot on the other side) is not a rotation of it.
    g = setup(
        new_game(),
        w1="""
        3 . .
        4 . .
        5 4 .
        """,
    )
    g.state.offer = [5, 1, 4]
    rebalance(g)
    assert "complete w1 #5" in texts(g)
    g = setup(
        new_game(),
        w1="""
        . 3
        . 4
        3 5
        """,
    )
    g.state.offer = [5, 1, 4]
    rebalance(g)
    refused(g, "complete w1 #5", "no mirror image")


def test_the_whole_workroom_must_match_not_a_part() -> None:
    g = setup(new_game(), w1="3 4 5 6")
    g.state.offer = [1, 2, 3]
    rebalance(g)
    refused(g, "complete w1 #1", "(4 dice) does not match installation #1")


def test_heights_must_match() -> None:
    # #3 "Seated Figure, Small": a column of two with one neighbour.
    g = setup(new_game(), w1="4:2 5")
    g.state.offer = [3, 1, 2]
    rebalance(g)
    assert "complete w1 #3" in texts(g)
    g = setup(new_game(), w1="4 5:2 6")
    g.state.offer = [3, 1, 2]
    rebalance(g)
    assert not any(m.startswith("complete") for m in texts(g))


def test_completing_returns_dice_takes_card_refills_offer_and_places_bonus_dice() -> None:
    g = setup(new_game(), w1="2 3 4", w2="5")
    g.state.offer = [1, 2, 3]
    g.state.installation_deck = [9, 10]
    rebalance(g)
    supply = me(g).supply
    allowed(g, "complete w1 #1")
    p = me(g)
    assert p.workrooms[0] == {}
    assert p.completed == [Completed(1, [2])]  # #1 has one bonus space printed 2
    assert g.state.offer == [9, 2, 3]
    assert p.supply == supply + 3 - 1
    assert not g.can_undo()  # a card was drawn: new information


def test_offer_slot_stays_empty_when_the_deck_is_empty() -> None:
    g = setup(new_game(), w1="2 3 4")
    g.state.offer = [1, 2, 3]
    g.state.installation_deck = []
    rebalance(g)
    g.apply_text("complete w1 #1")
    assert g.state.offer == [None, 2, 3]


def test_either_or_bonus_die_switches_until_changed_by_an_artist() -> None:
    g = setup(new_game(), w1="4:2 5")
    g.state.offer = [3, 1, 2]  # #3: one bonus space printed 3/6
    rebalance(g)
    g.apply_text("complete w1 #3")
    assert me(g).completed[0].dice == [3]
    allowed(g, "switch i1.1")
    assert me(g).completed[0].dice == [6]
    allowed(g, "switch i1.1")
    assert me(g).completed[0].dice == [3]
    me(g).completed[0].dice = [4]  # as after Popova +1
    rebalance(g)
    refused(g, "switch i1.1", "no longer one of its printed values 3/6")


def test_a_single_value_bonus_die_cannot_switch() -> None:
    g = setup(new_game())
    me(g).completed = [Completed(1, [2])]
    rebalance(g)
    refused(g, "switch i1.1", "single printed value")


def test_abandon_sends_all_dice_to_supply_when_no_artist_can_take_them() -> None:
    g = setup(new_game(), w1="2 3 4")
    for a in g.state.artists:  # every card holds 6s of the other player: nothing to bump
        a.owner, a.value, a.count, a.placed_turn = 1 - g.current_player, 6, 2, 0
    rebalance(g)
    supply = me(g).supply
    allowed(g, "abandon w1")
    assert me(g).workrooms[0] == {} and me(g).supply == supply + 3
    assert not g.is_abandoning()


def test_abandoned_dice_may_go_onto_artist_cards_but_nowhere_else() -> None:
    g = setup(new_game(), w1="3:2 4", storeroom=[3])
    two_dice = next(i for i, a in enumerate(g.state.artists) if g.deck.artist(a.card).dice == 2)
    rebalance(g)
    g.apply_text("abandon w1")
    assert g.is_abandoning()
    refused(g, "place 3 w1 a1", "first decide where the abandoned dice go")
    refused(g, "end", "first decide")
    assert f"artist {two_dice + 1} x3 x3" in texts(g)
    assert f"artist {two_dice + 1} 3 x3" in texts(g)  # storeroom dice may join them (after the roll)
    allowed(g, f"artist {two_dice + 1} x3 x3")
    # The 4 could not go anywhere on its own, so it went back to the supply.
    assert not g.is_abandoning()


def test_release_sends_the_remaining_abandoned_dice_to_supply() -> None:
    g = setup(new_game(), w1="3:2")
    rebalance(g)
    supply = me(g).supply
    g.apply_text("abandon w1")
    assert g.is_abandoning()
    allowed(g, "release")
    assert me(g).supply == supply + 2


# --- artist cards -------------------------------------------------------------------


def slot_with(g: Game, dice: int) -> int:
    return next(i for i, a in enumerate(g.state.artists) if g.deck.artist(a.card).dice == dice)


def test_artist_takes_exactly_its_number_of_dice_all_of_one_value() -> None:
    g = setup(new_game(), storeroom=[5, 5, 5, 4])
    s2 = slot_with(g, 2) + 1
    refused(g, f"artist {s2} 5 5 5", "takes exactly 2 dice")
    refused(g, f"artist {s2} 5 4", "must all show the same value")
    allowed(g, f"artist {s2} 5 5")


def test_bumping_needs_equal_or_higher_and_returns_the_bumped_dice() -> None:
    g = setup(new_game(), storeroom=[3, 3, 4, 4])
    slot = slot_with(g, 2)
    other = 1 - g.current_player
    a = g.state.artists[slot]
    a.owner, a.value, a.count, a.placed_turn = other, 4, 2, 0
    rebalance(g)
    their_supply = g.state.players[other].supply
    refused(g, f"artist {slot + 1} 3 3", "cannot bump the 4s", "equal or higher")
    allowed(g, f"artist {slot + 1} 4 4")
    assert g.state.players[other].supply == their_supply + 2
    assert g.state.artists[slot].owner == g.current_player


def test_you_may_not_bump_your_own_dice() -> None:
    g = setup(new_game(), storeroom=[5, 5])
    slot = slot_with(g, 2)
    a = g.state.artists[slot]
    a.owner, a.value, a.count, a.placed_turn = g.current_player, 2, 2, 0
    rebalance(g)
    refused(g, f"artist {slot + 1} 5 5", "may not bump your own dice")


def test_artist_dice_may_mix_storeroom_and_card_dice() -> None:
    g = setup(new_game(), storeroom=[2])
    me(g).completed = [Completed(1, [2])]
    rebalance(g)
    slot = slot_with(g, 2) + 1
    allowed(g, f"artist {slot} 2 i1.1")
    assert me(g).completed[0].dice == [None]


def test_full_artist_row_is_cleared_by_default() -> None:
    g = setup(new_game(), storeroom=[6, 6, 6])
    other = 1 - g.current_player
    free = None
    for i, a in enumerate(g.state.artists):
        if g.deck.artist(a.card).dice == 2 and free is None:
            free = i
            continue
        a.owner, a.value, a.count, a.placed_turn = other, 1, g.deck.artist(a.card).dice, 0
    rebalance(g)
    old_cards = [a.card for a in g.state.artists]
    their_supply = g.state.players[other].supply
    g.apply_text(f"artist {free + 1} 6 6")
    assert all(a.owner is None for a in g.state.artists)
    assert [a.card for a in g.state.artists] != old_cards
    assert g.state.artist_deck[-4:] == old_cards  # to the bottom, in row order
    assert g.state.players[other].supply > their_supply
    assert g.check_invariants() == []


def test_full_artist_row_stays_when_the_option_is_off() -> None:
    g = setup(new_game(clear_full_artist_row=False), storeroom=[6, 6])
    other = 1 - g.current_player
    free = None
    for i, a in enumerate(g.state.artists):
        if g.deck.artist(a.card).dice == 2 and free is None:
            free = i
            continue
        a.owner, a.value, a.count, a.placed_turn = other, 1, g.deck.artist(a.card).dice, 0
    rebalance(g)
    g.apply_text(f"artist {free + 1} 6 6")
    assert all(a.owner is not None for a in g.state.artists)


def test_bumping_never_clears_the_row() -> None:
    g = setup(new_game(), storeroom=[6, 6])
    other = 1 - g.current_player
    for a in g.state.artists:
        a.owner, a.value, a.count, a.placed_turn = other, 1, g.deck.artist(a.card).dice, 0
    rebalance(g)
    slot = slot_with(g, 2)
    g.apply_text(f"artist {slot + 1} 6 6")
    assert all(a.owner is not None for a in g.state.artists)
    assert g.state.artists[slot].owner == g.current_player


def put_artist(g: Game, card_id: int, *, owner: int | None = None, value: int = 1, this_turn: bool = False) -> None:
    """Put artist card ``card_id`` in slot 1 holding the owner's dice (placed in an
    earlier turn unless ``this_turn``)."""
    a = g.state.artists[0]
    if a.card is not None and a.card != card_id:
        g.state.artist_deck.append(a.card)
    if card_id in g.state.artist_deck:
        g.state.artist_deck.remove(card_id)
    for b in g.state.artists[1:]:
        if b.card == card_id:
            b.card = g.state.artist_deck.pop(0)
    owner = g.current_player if owner is None else owner
    turn = g.state.turn if this_turn else g.state.turn - 1
    g.state.artists[0] = ArtistSlot(card_id, owner, value, g.deck.artist(card_id).dice, turn)
    rebalance(g)


def test_artist_dice_can_be_used_only_from_a_later_turn() -> None:
    g = setup(new_game(), storeroom=[])
    put_artist(g, 3, this_turn=True)  # Malevich 3
    refused(g, "use 1", "placed your dice on Kazimir Malevich this turn")
    g2 = setup(new_game(), storeroom=[])
    put_artist(g2, 3)
    allowed(g2, "use 1")


def test_using_an_artist_returns_its_dice_discards_it_and_refills_the_row() -> None:
    g = setup(new_game(), storeroom=[])
    put_artist(g, 3)
    top = g.state.artist_deck[0]
    supply = me(g).supply
    allowed(g, "use 1")
    assert me(g).storeroom == [3]
    assert me(g).supply == supply + 2 - 1
    assert g.state.artists[0].card == top and g.state.artists[0].owner is None
    assert g.state.artist_deck[-1] == 3


def test_only_your_own_dice_can_use_an_artist() -> None:
    g = setup(new_game())
    put_artist(g, 3, owner=1 - g.current_player)
    refused(g, "use 1", "you have no dice on Kazimir Malevich")


def test_boccioni_gives_either_printed_value() -> None:
    g = setup(new_game(), storeroom=[])
    put_artist(g, 7)  # Boccioni 1/4
    assert {m for m in texts(g) if m.startswith("use")} == {"use 1 1", "use 1 4"}
    refused(g, "use 1 2", "gives a 1 or a 4")
    allowed(g, "use 1 4")
    assert me(g).storeroom == [4]


def test_marc_gives_any_value() -> None:
    g = setup(new_game(), storeroom=[])
    put_artist(g, 10)
    assert {m for m in texts(g) if m.startswith("use")} == {f"use 1 {v}" for v in range(1, 7)}
    allowed(g, "use 1 6")
    assert me(g).storeroom == [6]


def test_popova_changes_a_storeroom_or_card_die_within_1_to_6() -> None:
    g = setup(new_game(), storeroom=[6, 2])
    me(g).completed = [Completed(3, [3])]
    put_artist(g, 12)  # Popova +1
    assert {m for m in texts(g) if m.startswith("use")} == {"use 1 2", "use 1 i1.1"}
    refused(g, "use 1 6", "would turn the 6 into 7")
    allowed(g, "use 1 i1.1")
    assert me(g).completed[0].dice == [4]


def test_la_fresnaye_changes_by_two() -> None:
    g = setup(new_game(), storeroom=[1, 5])
    put_artist(g, 19)  # La Fresnaye -2
    refused(g, "use 1 1", "would turn the 1 into -1")
    allowed(g, "use 1 5")
    assert sorted(me(g).storeroom) == [1, 3]


def test_gris_removes_a_top_die_without_splitting() -> None:
    g = setup(new_game(), w1="3 4:2 5", storeroom=[])
    put_artist(g, 20)
    allowed(g, "use 1 w1 b1")  # the top of a column of two: never splits
    assert me(g).workrooms[0][1] == (4, 1)
    g = setup(new_game(), w1="3 4 5", storeroom=[])
    put_artist(g, 21)
    refused(g, "use 1 w1 b1", "would split the structure in two")
    allowed(g, "use 1 w1 c1")


def test_gris_cannot_be_used_with_nothing_to_remove() -> None:
    g = setup(new_game(), w1="", w2="", storeroom=[])
    put_artist(g, 20)
    assert not any(m.startswith("use") for m in texts(g))


def test_pascin_moves_a_top_die_to_another_legal_place() -> None:
    g = setup(new_game(), w1="3 4 5", w2="", storeroom=[])
    put_artist(g, 22)
    refused(g, "use 1 w1 b1 w2 a1", "would split the structure")
    refused(g, "use 1 w1 c1 w1 c1", "another place")
    refused(g, "use 1 w1 c1 w1 a2", "next to the 3")  # a 5 next to the 3 at a1
    allowed(g, "use 1 w1 c1 w2 d4")
    assert me(g).workrooms[1] == {parse_cell("d4", 6): (5, 1)}


def test_rozanova_takes_an_opponents_storage_die() -> None:
    g = setup(new_game(), storeroom=[])
    other = 1 - g.current_player
    g.state.players[other].storage = [2, 5]
    put_artist(g, 24)
    assert {m for m in texts(g) if m.startswith("use")} == {f"use 1 p{other + 1} 2", f"use 1 p{other + 1} 5"}
    refused(g, f"use 1 p{other + 1} 4", "has no 4 in their storage space")
    their_supply = g.state.players[other].supply
    allowed(g, f"use 1 p{other + 1} 5")
    assert g.state.players[other].storage == [2]
    assert g.state.players[other].supply == their_supply + 1
    assert me(g).storeroom == [5]


def test_rozanova_is_not_usable_when_opponents_storage_is_empty() -> None:
    g = setup(new_game(), storeroom=[])
    put_artist(g, 24)
    assert not any(m.startswith("use") for m in texts(g))


# --- museum -------------------------------------------------------------------------


def museum_game() -> Game:
    """2 players; museum #1 'Pavilion of the Square' (3×3 at c3-e5, cornerstone d4)."""
    for seed in range(200):
        g = new_game(seed=seed)
        if g.state.museum_card == 1 and g.state.museum[parse_cell("d4", MUSEUM_SIZE)].value == 3:
            return g
    raise AssertionError("no seed gives museum #1 with cornerstone 3")


def test_only_card_dice_go_to_the_museum() -> None:
    g = setup(museum_game(), storeroom=[4])
    with pytest.raises(ValueError) as refusal:
        parse_move("museum 4 d3")
    assert "only dice on completed installation cards" in english(refusal.value)
    me(g).completed = [Completed(1, [4])]
    rebalance(g)
    allowed(g, "museum i1.1 d3")
    assert g.state.museum[parse_cell("d3", MUSEUM_SIZE)].owners == [g.current_player]
    assert me(g).completed[0].dice == [None]


def test_museum_placement_inside_the_plan_and_not_above_its_heights() -> None:
    g = setup(museum_game())
    me(g).completed = [Completed(1, [4]), Completed(2, [3])]
    rebalance(g)
    refused(g, "museum i1.1 b4", "b4 is outside the museum plan")
    # d4 (cornerstone) has height 2 in the plan: one 3 may stack, then it is full.
    allowed(g, "museum i2.1 d4")
    me(g).completed[1].dice = [3]
    rebalance(g)
    refused(g, "museum i2.1 d4", "already at its full height of 2")


def test_museum_solver_on_small_plans() -> None:
    from engine.geometry import neighbour_table
    from engine.solver import completable

    nb = neighbour_table(MUSEUM_SIZE)
    # a1 b1 c1 in a row: b1 must differ by 1 from both ends.
    assert completable([0, 1, 2], {0: 2, 2: 4}, nb)
    assert not completable([0, 1, 2], {0: 2, 2: 6}, nb)
    # The square a1 b1 / a2 b2: with a1=1 and b2=5, b1 and a2 would need 2 and 4 at once.
    assert completable([0, 1, 8, 9], {0: 1, 9: 3}, nb)
    assert not completable([0, 1, 8, 9], {0: 1, 9: 5}, nb)


def test_museum_die_refused_when_the_museum_could_no_longer_be_completed() -> None:
    # Museum #1 covers columns c-e, rows 3-5; d4 holds the cornerstone 3.
    g = setup(museum_game())
    museum_fill(
        g,
        """
        . . . . .
        . . . . .
        . . 1 . .
        . . 2 3 4
        """,
        owner=1 - g.current_player,
    )
    me(g).completed = [Completed(1, [5]), Completed(2, [3])]
    rebalance(g)
    # A 5 at e3 touches only the 4 at e4 (fine side by side), but then d3 would sit
    # between the 1 at c3 (needs 2) and the 5 at e3 (needs 4 or 6): no value fits.
    refused(g, "museum i1.1 e3", "impossible to complete")
    # A 3 at e3 leaves d3 = 2 possible.
    allowed(g, "museum i2.1 e3")


def test_each_museum_die_scores_two_and_the_cornerstone_nothing() -> None:
    g = setup(museum_game())
    me(g).completed = [Completed(1, [4])]
    rebalance(g)
    base = g.score(g.current_player)
    assert base == g.deck.installation(1).points
    g.apply_text("museum i1.1 d3")
    assert g.score(g.current_player) == base + 2
    assert g.museum_dice(g.current_player) == 1
    assert sum(g.museum_dice(i) for i in range(2)) == 1  # the cornerstone belongs to nobody


# --- turn ----------------------------------------------------------------------------


def test_turn_starts_with_two_dice_rolled_and_storage_joins_the_storeroom() -> None:
    g = new_game()
    p = me(g)
    assert len(p.storeroom) == 2 and p.supply == 18 and g.has_rolled()
    g.apply_text("end " + " ".join(map(str, p.storeroom)))
    first = 1 - g.current_player
    stored = list(g.state.players[first].storage)
    assert len(stored) == 2
    g.apply_text("end")
    p = g.state.players[first]
    assert p.storage == [] and len(p.storeroom) == 4
    for v in stored:
        assert v in p.storeroom


def test_end_of_turn_keeps_up_to_two_dice_and_returns_the_rest() -> None:
    g = setup(new_game(), storeroom=[1, 2, 3])
    with pytest.raises(ValueError) as refusal:
        g.apply_text("end 3 2 1")
    assert "at most two dice" in english(refusal.value)
    refused(g, "end 6", "you can keep only dice from your storeroom")
    seat = g.current_player
    supply = me(g).supply
    allowed(g, "end 3 1")
    assert g.state.players[seat].storage == [1, 3]
    assert g.state.players[seat].supply == supply + 1
    assert g.state.players[seat].storeroom == []


def test_short_supply_turn_starts_without_the_roll_and_forces_returns() -> None:
    g = new_game()
    nxt = 1 - g.current_player
    p = g.state.players[nxt]
    p.workrooms[0] = {0: (3, 4), 1: (4, 4), 2: (5, 4), 3: (6, 4)}  # a1-d1: four towers of four
    p.workrooms[1] = {0: (2, 1), 1: (3, 1), 2: (4, 1)}  # a1-c1: 2 3 4
    g.state.offer = [4, 5, 6]  # none of them matches
    rebalance(g)
    assert p.supply == 1
    g.apply_text("end")
    assert g.current_player == nxt
    assert not g.has_rolled() and p.storeroom == []
    assert texts(g) == {"abandon w1", "abandon w2"}
    refused(g, "end", "too few to roll")
    refused(g, "place 3 w2 d1", "too few to roll")
    g.apply_text("abandon w2")  # 3 dice back: now the two dice are rolled
    assert g.has_rolled() and len(p.storeroom) == 2 and p.supply == 2
    assert g.check_invariants() == []


def test_short_supply_rolls_what_is_left_when_nothing_can_return_dice() -> None:
    g = new_game()
    nxt = 1 - g.current_player
    p = g.state.players[nxt]
    p.completed = [Completed(13, [1, 3]) for _ in range(4)]  # 8 dice on cards
    p.storage = [6]
    # Gris and Pascin with empty workrooms cannot act, so their dice cannot come back.
    g.state.artist_deck += [a.card for a in g.state.artists]
    for slot, card in enumerate((20, 21, 22, 23)):
        g.state.artist_deck.remove(card)
        g.state.artists[slot] = ArtistSlot(card, nxt, 5, g.deck.artist(card).dice, 0)
    rebalance(g)
    assert p.supply == 1
    g.apply_text("end")
    assert g.current_player == nxt and g.has_rolled()
    assert len(p.storeroom) == 2 and p.supply == 0  # the stored 6 and the one die rolled
    assert 6 in p.storeroom


def test_game_ends_after_the_turn_in_which_someone_has_five_installations() -> None:
    g = setup(new_game(), w1="2 3 4", storeroom=[6, 5, 1])
    p = me(g)
    p.completed = [Completed(c, [None] * len(g.deck.installation(c).bonus)) for c in (2, 4, 5, 6)]
    g.state.offer = [1, 3, 7]
    rebalance(g)
    g.apply_text("complete w1 #1")
    assert not g.is_over  # only at the end of the turn
    g.apply_text("end 6 5")
    assert g.is_over
    assert p.storage == [5, 6]  # the storage step still happens
    assert g.legal_moves() == []
    refused(g, "end", "the game is over")


def test_game_ends_when_the_museum_is_complete() -> None:
    g = setup(museum_game())
    seat = g.current_player
    heights = g.museum_heights()
    # Fill every plan cell but d3 with a checkerboard of 3s and 4s (cornerstone d4 = 3).
    d3 = parse_cell("d3", MUSEUM_SIZE)
    for cell, h in heights.items():
        x, y = cell % MUSEUM_SIZE, cell // MUSEUM_SIZE
        value = 3 if (x + y) % 2 == (3 + 3) % 2 else 4
        if cell == d3:
            continue
        col = g.state.museum.get(cell)
        if col is None:
            g.state.museum[cell] = MuseumColumn(value, [1 - seat] * h)
        else:
            col.owners += [1 - seat] * (h - len(col.owners))
    me(g).completed = [Completed(1, [4]) for _ in range(heights[d3])]
    rebalance(g)
    for i in range(heights[d3]):
        g.apply_text(f"museum i{i + 1}.1 d3")
    assert g.is_museum_complete() and not g.is_over
    g.apply_text("end")
    assert g.is_over


def test_tie_break_more_museum_dice_then_shared_victory() -> None:
    g = new_game()
    a, b = g.state.players
    a.completed = [Completed(14, [None, None])]  # 5 points
    b.completed = [Completed(4, [None])]  # 3 points
    corner = next(iter(g.state.museum))
    g.state.museum[corner].owners.append(1)  # +2 for p2: 5 each
    rebalance(g)
    assert g.scores() == [5, 5]
    assert g.winners() == [1]  # more museum dice
    g.state.museum[corner].owners.remove(1)
    b.completed = [Completed(14, [None, None])]
    rebalance(g)
    assert g.winners() == [0, 1]  # still tied: shared


def test_conservation_twenty_dice_each_through_a_whole_game() -> None:
    from engine.players import GreedyPlayer

    g = new_game(players=3, seed=5)
    bots = [GreedyPlayer(i) for i in range(3)]
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        assert g.check_invariants() == []


# --- undo ---------------------------------------------------------------------------


def test_undo_takes_back_actions_one_by_one_to_the_roll() -> None:
    g = setup(new_game(), w1="", storeroom=[3, 4])
    start = dump_game(g)
    g.apply_text("place 3 w1 c3")
    g.apply_text("place 4 w1 d3")
    assert g.undo_depth() == 2
    g.apply_text("undo")
    assert me(g).workrooms[0] == {parse_cell("c3", 6): (3, 1)}
    g.apply_text("undo")
    assert g.state == g.undo_point().state
    assert "undo" not in texts(g)
    refused(g, "undo", "cannot undo past")
    assert dump_game(g) != start  # the log keeps the undone moves


def test_undo_stops_at_a_card_drawn() -> None:
    g = setup(new_game(), w1="2 3 4", w2="", storeroom=[5])
    g.state.offer = [1, 2, 3]
    rebalance(g)
    g.apply_text("place 5 w2 a1")
    g.apply_text("complete w1 #1")
    assert not g.can_undo()
    refused(g, "undo", "the roll or a card drawn")


def test_a_bump_is_undone_with_its_owner_getting_the_dice_back_on_the_card() -> None:
    g = setup(new_game(), storeroom=[4, 4])
    slot = slot_with(g, 2)
    other = 1 - g.current_player
    a = g.state.artists[slot]
    a.owner, a.value, a.count, a.placed_turn = other, 3, 2, 0
    rebalance(g)
    before = g.state.clone()
    g.apply_text(f"artist {slot + 1} 4 4")
    g.apply_text("undo")
    assert g.state.artists == before.artists
    assert g.state.players == before.players


# --- leaving --------------------------------------------------------------------------


def test_removed_player_returns_dice_frees_artists_keeps_museum_and_cannot_win() -> None:
    g = new_game(players=3, seed=2)
    seat = (g.current_player + 1) % 3
    p = g.state.players[seat]
    p.workrooms[0] = {0: (2, 1), 1: (3, 1)}
    p.storage = [6]
    p.completed = [Completed(23, [2, 4])]
    a = g.state.artists[0]
    a.owner, a.value, a.count, a.placed_turn = seat, 5, g.deck.artist(a.card).dice, 0
    corner = next(iter(g.state.museum))
    g.state.museum[corner].owners.append(seat)
    rebalance(g)
    g.apply_text(f"remove p{seat + 1}")
    assert p.removed and p.workrooms == [{}, {}] and p.storage == [] and p.completed[0].dice == [None, None]
    assert g.state.artists[0].owner is None
    assert g.state.museum[corner].owners.count(seat) == 1
    assert p.supply == 19
    assert g.score(seat) == 6 + 2
    assert seat not in g.winners()
    assert g.check_invariants() == []
    # Turns skip the removed seat.
    for _ in range(4):
        assert g.current_player != seat
        g.apply_text("end")


def test_removing_the_current_player_ends_their_turn_and_a_lone_player_wins() -> None:
    g = new_game(players=2, seed=3)
    seat = g.current_player
    g.apply_text(f"remove p{seat + 1}")
    assert g.is_over and g.winners() == [1 - seat]
    g = new_game(players=3, seed=3)
    seat = g.current_player
    g.apply_text(f"remove p{seat + 1}")
    assert not g.is_over and g.current_player != seat and g.has_rolled()
    assert g.state.players[seat].storage == []


def test_skip_ends_the_turn_keeping_the_two_highest_dice() -> None:
    g = setup(new_game(), storeroom=[1, 5, 3])
    seat = g.current_player
    g.apply_text("skip")
    assert g.current_player != seat
    assert g.state.players[seat].storage == [3, 5]
    assert g.check_invariants() == []


# --- an abandon is one action (RULES.md "Abandoning") ---------------------------------


def short_supply_abandoner() -> tuple[Game, int]:
    """The next player's turn starts with an empty supply and one workroom of 16 dice
    (a1-d1: towers of four 3s, 4s, 5s, 6s) as the only way to get dice back."""
    g = new_game()
    nxt = 1 - g.current_player
    p = g.state.players[nxt]
    p.workrooms[0] = {0: (3, 4), 1: (4, 4), 2: (5, 4), 3: (6, 4)}
    p.completed = [Completed(13, [1, 3]), Completed(13, [1, 3])]
    g.state.offer = [4, 5, 6]  # none of them matches
    rebalance(g)
    assert p.supply == 0
    g.apply_text("end")
    assert g.current_player == nxt and not g.has_rolled()
    return g, nxt


def test_short_supply_roll_waits_until_the_abandon_is_finished() -> None:
    g, seat = short_supply_abandoner()
    p = g.state.players[seat]
    two = slot_with(g, 2) + 1
    g.apply_text("abandon w1")
    assert g.is_abandoning() and not g.has_rolled()  # not in the middle of the abandon
    allowed(g, f"artist {two} x3 x3")
    assert g.is_abandoning() and not g.has_rolled()
    allowed(g, "release")
    # Now the abandon is finished: 14 dice came back, so two dice are rolled.
    assert g.has_rolled() and len(g.state.last_roll) == 2
    assert len(p.storeroom) == 2 and p.supply == 12
    assert g.check_invariants() == []


def test_short_supply_roll_comes_when_the_last_abandoned_die_is_placed() -> None:
    g = new_game(clear_full_artist_row=False)
    nxt = 1 - g.current_player
    p = g.state.players[nxt]
    p.workrooms[0] = {0: (3, 2)}  # a1: a column of two 3s
    p.completed = [Completed(13, [1, 3]) for _ in range(4)]  # 8 dice on cards
    p.storage = [6]
    # Gris and Pascin cannot act on empty workrooms, so their dice cannot come back; the
    # fourth card (Gris, two dice) is free for the abandoned 3s.
    g.state.artist_deck += [a.card for a in g.state.artists]
    for slot, card in enumerate((20, 22, 23, 21)):
        g.state.artist_deck.remove(card)
        g.state.artists[slot] = ArtistSlot(card)
        if slot < 3:
            g.state.artists[slot] = ArtistSlot(card, nxt, 5, g.deck.artist(card).dice, 0)
    g.state.offer = [4, 5, 6]
    rebalance(g)
    assert p.supply == 1
    g.apply_text("end")
    assert g.current_player == nxt and not g.has_rolled()
    g.apply_text("abandon w1")
    assert g.is_abandoning() and not g.has_rolled()
    allowed(g, "artist 4 x3 x3")
    # The abandon is finished and nothing else can bring dice back: the one die is rolled.
    assert not g.is_abandoning() and g.has_rolled() and len(g.state.last_roll) == 1
    assert p.supply == 0


def test_dice_waiting_from_an_abandon_stay_waiting_through_a_clear_of_the_row() -> None:
    g = setup(new_game(), w1="3:2 4:2")
    other = 1 - g.current_player
    free = slot_with(g, 2)
    for i, a in enumerate(g.state.artists):
        if i != free:  # the other three hold 6s: the 4s could not bump them
            a.owner, a.value, a.count, a.placed_turn = other, 6, g.deck.artist(a.card).dice, 0
    # The next cards drawn: a 2-dice Malevich first, so the waiting 4s have a place.
    for card in (1, 2, 3, 4):
        g.state.artist_deck.remove(card) if card in g.state.artist_deck else None
    g.state.artist_deck[:0] = [1, 2, 3, 4]
    rebalance(g)
    g.apply_text("abandon w1")
    allowed(g, f"artist {free + 1} x3 x3")
    # The row was full, so it was cleared and four new cards drawn; the 4s still wait.
    assert [a.card for a in g.state.artists] == [1, 2, 3, 4]
    assert all(a.owner is None for a in g.state.artists)
    assert g.is_abandoning() and g.state.pool == [4, 4]
    allowed(g, "artist 1 x4 x4")
    assert not g.is_abandoning()
    assert g.state.artists[0].owner == g.current_player and g.state.artists[0].value == 4


# --- option equal_turns ---------------------------------------------------------------


def five_cards_in_one_action(g: Game, seat: int) -> None:
    """Give ``seat`` four completed cards and a workroom that completes offered card #1."""
    p = g.state.players[seat]
    p.completed = [Completed(c, [None] * len(g.deck.installation(c).bonus)) for c in (2, 4, 5, 6)]
    p.workrooms[0] = {0: (2, 1), 1: (3, 1), 2: (4, 1)}  # a1-c1: 2 3 4 = card #1
    g.state.offer = [1, 3, 7]
    rebalance(g)


def play_to(g: Game, seat: int) -> None:
    while g.current_player != seat:
        g.apply_text("end")


def test_printed_rule_ends_the_game_at_the_end_of_the_finishers_turn() -> None:
    g = new_game(players=3)
    second = (g.state.first + 1) % 3
    play_to(g, second)
    five_cards_in_one_action(g, second)
    g.apply_text("complete w1 #1")
    g.apply_text("end")
    assert g.is_over and g.current_player == second


def test_equal_turns_plays_out_the_round_then_ends() -> None:
    g = new_game(players=3, equal_turns=True)
    first = g.state.first
    second, third = (first + 1) % 3, (first + 2) % 3
    play_to(g, second)
    assert g.seats_after_in_round() == [third]
    five_cards_in_one_action(g, second)
    g.apply_text("complete w1 #1")
    g.apply_text("end")
    assert not g.is_over and g.is_final_round() and g.current_player == third
    assert g.seats_after_in_round() == []
    g.apply_text("end")  # the last seat of the round has had its turn
    assert g.is_over and not g.is_final_round()
    assert g.current_player == third
    assert g.state.turn == 2  # turns 0, 1, 2: one each


def test_equal_turns_when_the_last_seat_finishes_ends_at_once() -> None:
    g = new_game(players=2, equal_turns=True)
    last = 1 - g.state.first
    play_to(g, last)
    five_cards_in_one_action(g, last)
    g.apply_text("complete w1 #1")
    g.apply_text("end")
    assert g.is_over


def test_equal_turns_skips_a_removed_last_seat() -> None:
    g = new_game(players=4, equal_turns=True)
    first = g.state.first
    seats = [(first + k) % 4 for k in range(4)]
    g.apply_text(f"remove p{seats[3] + 1}")
    play_to(g, seats[1])
    five_cards_in_one_action(g, seats[1])
    g.apply_text("complete w1 #1")
    g.apply_text("end")
    assert not g.is_over and g.current_player == seats[2]
    g.apply_text("end")
    assert g.is_over


def test_equal_turns_survives_save_and_load_in_the_final_round() -> None:
    from engine import load_game

    g = new_game(players=3, equal_turns=True)
    second = (g.state.first + 1) % 3
    play_to(g, second)
    five_cards_in_one_action(g, second)
    g.apply_text("complete w1 #1")
    g.apply_text("end")
    again = load_game(dump_game(g))
    assert again == g and again.is_final_round() and again.options.equal_turns
    again.apply_text("end")
    assert again.is_over
