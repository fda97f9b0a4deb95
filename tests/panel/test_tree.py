"""The panel's choice tree against the engine: every legal move reachable in three picks,
no select over 25 options, no label over 100 characters, words rather than notation."""

from __future__ import annotations

import random
import re

import pytest

from bot.panel import choice_tree, leaves, node_at
from bot.panel.tree import MAX_DEPTH, MAX_LABEL, MAX_OPTIONS, Choice, all_moves
from engine import Game, parse_move
from engine.moves import Place
from engine.players import make_player

NOTATION = re.compile(r"\b(w[12]|i\d+\.\d+|x[1-6]|p[1-4])\b|#\d")


def selects(tree: tuple[Choice, ...]) -> list[tuple[Choice, ...]]:
    out = [tree]
    for c in tree:
        if not c.is_leaf:
            out += selects(c.children)
    return out


def check(game: Game, locale: str) -> int:
    tree = choice_tree(game, locale, ["Ada", "Bruno", "Chloé", "Dmitri"][: game.num_players])
    found: dict[str, tuple[int, ...]] = {}
    for path, leaf in leaves(tree):
        assert leaf.move is not None
        assert len(path) <= MAX_DEPTH, (leaf.move, path)
        assert str(leaf.move) not in found, f"{leaf.move} offered twice"
        found[str(leaf.move)] = path
        # The path leads back to the leaf through node_at, as the buttons use it.
        options = node_at(tree, path[:-1])
        assert options is not None and options[path[-1]] == leaf
    assert set(found) == {str(m) for m in all_moves(game)}
    for options in selects(tree):
        assert 1 <= len(options) <= MAX_OPTIONS
        for c in options:
            assert c.label.strip() and len(c.label) <= MAX_LABEL
            assert not NOTATION.search(c.label), c.label
    return len(found)


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("seed", range(6))
def test_every_legal_move_is_reachable_in_three_picks(seed: int, locale: str) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = Game.new(players=players, seed=seed)
    bots = [make_player(rng.choice(["random", "greedy"]), seed * 10 + i) for i in range(players)]
    positions = moves = 0
    while not game.is_over and positions < 400:
        moves += check(game, locale)
        positions += 1
        game.apply(bots[game.current_player].choose(game))
    assert positions > 50 and moves > positions


def test_an_empty_workroom_offers_the_middle_first_and_the_rest_behind_more() -> None:
    game = Game.new(players=2, seed=3)
    tree = choice_tree(game, "en")
    first = tree[0]
    assert first.label.startswith("Place the ") and "→ workroom 1" in first.label
    labels = [c.label for c in first.children]
    assert labels[:4] == ["c3", "d3", "c4", "d4"]
    assert labels[-1].startswith("More: ")
    assert len(first.children) == MAX_OPTIONS
    assert sum(1 for _p, _leaf in leaves(first.children)) == 36


def test_cells_are_described_by_their_neighbours() -> None:
    game = Game.new(players=2, seed=3)
    low = min(game.state.players[game.current_player].storeroom)
    game.apply(parse_move(f"place {low} w1 c3"))
    tree = choice_tree(game, "en")
    labels = [leaf.label for _p, leaf in leaves(tree)]
    assert any(f"next to the {low} (" in label for label in labels) or any(
        f"on top of the {low} (c3, level 2)" in label for label in labels
    )


def test_french_words() -> None:
    game = Game.new(players=2, seed=3)
    tree = choice_tree(game, "fr")
    assert tree[0].label.startswith("Poser le ") and "atelier 1" in tree[0].label
    assert any(c.label.startswith("Finir le tour") for c in tree)


def test_options_that_cannot_be_undone_say_so_before_they_are_picked() -> None:
    """Issue 27 item 3: completing an installation draws a card, some artists roll: no Undo
    afterwards, so their options say so; placements (undoable) do not."""
    from bot.panel.tree import final
    from engine.players import GreedyPlayer

    game = Game.new(2, 11)
    player = GreedyPlayer(3)
    seen_final = seen_plain = False
    for _ in range(400):
        if game.is_over:
            break
        tree = choice_tree(game, "en")
        for _path, leaf in leaves(tree):
            assert leaf.move is not None
            told = leaf.label.endswith((" (cannot be undone)", " (no undo)"))  # in full, or short where it must fit
            assert told == final(game, leaf.move), leaf
            seen_final |= told
            seen_plain |= not told and isinstance(leaf.move, Place)
        game.apply(player.choose(game))
    assert seen_final and seen_plain
