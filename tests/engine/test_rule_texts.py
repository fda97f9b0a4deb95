"""Refusals are structured (``engine.rule_texts``): every IllegalMove and MoveSyntaxError
carries a key and named values, no words; the catalogue's ``rules.refusal.<key>`` message takes
exactly those values."""

from __future__ import annotations

from functools import cache

from bot.i18n.catalog import catalogues, placeholders
from engine import Game, IllegalMove, MoveSyntaxError, parse_move
from engine.cards import ArtistKind
from engine.rule_texts import RuleError, RuleText

from .helpers import english
from .positions import reach
from .test_properties import TOKENS, VERBS


def check_rule(text: RuleText) -> None:
    """The key has a message, the values fill exactly its placeholders, nested texts too."""
    entry = catalogues()["en"].get(f"rules.refusal.{text.key}")
    assert entry is not None, text.key
    assert set(text.values) == placeholders(entry), text
    for value in text.values.values():
        assert isinstance(value, int | str | RuleText | ArtistKind), (text, value)
        if isinstance(value, RuleText):
            check_rule(value)


def _try(game: Game, text: str, out: dict[str, RuleError]) -> None:
    try:
        game.clone().apply(parse_move(text))
    except (IllegalMove, MoveSyntaxError) as e:
        out.setdefault(str(e), e)


@cache
def refusals() -> tuple[RuleError, ...]:
    """Refusals (one per distinct message) met by mutating listed moves and trying random
    move texts in positions along self-played games."""
    found: dict[str, RuleError] = {}
    for seed in range(6):
        for steps in (0, 7, 25, 60, 110, 200):
            game = reach(2 + seed % 3, seed, steps)
            for move in game.legal_moves()[:12]:
                tokens = str(move).split()
                for i in range(len(tokens)):
                    for token in TOKENS:
                        _try(game, " ".join([*tokens[:i], token, *tokens[i + 1 :]]), found)
                _try(game, " ".join(tokens[:-1]), found)
            for slot in "1234":
                for rest in ("", "4", "i1.1", "w1 c3", "w1 c3 w2 d4", "w1 c3 w1 c3", "w2 a1", "p2 5", "p1 5", "p3 2"):
                    _try(game, f"use {slot} {rest}", found)
                for dice in ("5 5", "x5 x5", "i1.1 i1.1", "2 2 2", "6 6", "1 1"):
                    _try(game, f"artist {slot} {dice}", found)
            for cell in ("a1", "c3", "d4", "f6", "b2", "e5"):
                for die in "123456":
                    _try(game, f"place {die} w1 {cell}", found)
                    _try(game, f"place {die} w2 {cell}", found)
                _try(game, f"museum i1.1 {cell}", found)
            for text in (
                "switch i1.1",
                "switch i1.2",
                "remove p4",
                "release",
                "abandon w2",
                "end 1 2 3",
                "place 4 w1 a9",
            ):
                _try(game, text, found)
            for verb in VERBS:
                for a in TOKENS[::3]:
                    for b in TOKENS[1::4]:
                        _try(game, f"{verb} {a} {b}", found)
                        _try(game, f"{verb} 3 {a} {b}", found)
                        _try(game, f"{verb} {a} {a} {b}", found)
    return tuple(found.values())


def _keys(text: RuleText, out: set[str]) -> None:
    out.add(text.key)
    for value in text.values.values():
        if isinstance(value, RuleText):
            _keys(value, out)


def test_refusals_are_keys_and_values_the_catalogue_says() -> None:
    seen = refusals()
    for error in seen:
        check_rule(error.rule)
        assert str(error).startswith(f"{error.key}("), error  # for developers: no words
        assert error.params == error.rule.values
    keys: set[str] = set()
    for error in seen:
        _keys(error.rule, keys)
    assert len(keys) >= 50, sorted(keys)  # the sweep meets most kinds of refusal


def test_structure_problems_and_words_are_nested_rule_texts() -> None:
    by_key: dict[str, RuleError] = {}
    for error in refusals():
        by_key.setdefault(error.key, error)
    problem = by_key["in_workroom"].params["problem"]
    assert isinstance(problem, RuleText) and problem.key in {"stack_value", "side_value", "not_touching"}
    room = by_key["in_workroom"].params["room"]
    assert english(by_key["in_workroom"]) == f"{room}: {english(IllegalMove(problem))}"
    assert isinstance(by_key["expected"].params["usage"], RuleText)
    assert isinstance(by_key["bad_number"].params["what"], RuleText)


def test_a_known_refusal_keeps_its_english_text() -> None:
    game = Game.new(2, seed=3)
    try:
        game.apply_text("place 4 w1 a1")
        game.apply_text("place 5 w1 a1")
    except IllegalMove as e:
        assert e.key in {"in_workroom", "no_storeroom_die"}
        if e.key == "in_workroom":
            assert english(e) == ("w1: a 5 may not stack on the 4 at a1: dice stack only on a die of the same value")
    try:
        parse_move("place 4 w1 z9")
    except MoveSyntaxError as e:
        assert e.key == "bad_cell"
        assert english(e) == "'z9' is not a cell: use a column a-f and a row 1-6, like c3"
