"""Property tests: exact legal moves, atomic refusals, round trips."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import Game, IllegalMove, MoveSyntaxError, dump_game, load_game, parse_move
from engine.moves import Remove, Skip, Undo

from .positions import reach

positions = st.builds(
    reach,
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
)

VERBS = [
    "place",
    "museum",
    "artist",
    "use",
    "complete",
    "abandon",
    "release",
    "switch",
    "end",
    "undo",
    "skip",
    "remove",
    "paint",
]
TOKENS = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "0",
    "-1",
    "x2",
    "x5",
    "i1.1",
    "i1.2",
    "i2.1",
    "i3.2",
    "w1",
    "w2",
    "w3",
    "a1",
    "c3",
    "d4",
    "f6",
    "g7",
    "h8",
    "b5",
    "#1",
    "#7",
    "#12",
    "#23",
    "#40",
    "p1",
    "p2",
    "p3",
    "p5",
    "",
]
move_texts = st.builds(
    lambda verb, args: " ".join([verb, *args]),
    st.sampled_from(VERBS),
    st.lists(st.sampled_from(TOKENS), max_size=5),
)


@given(positions)
def test_every_listed_move_applies_and_keeps_the_invariants(game: Game) -> None:
    assert game.check_invariants() == []
    for move in game.legal_moves():
        copy = game.clone()
        copy.apply(move)
        assert copy.check_invariants() == [], move


@given(positions, st.lists(move_texts, min_size=1, max_size=8))
def test_random_move_texts_apply_exactly_when_listed_or_change_nothing(game: Game, texts: list[str]) -> None:
    for text in texts:
        before = dump_game(game)
        legal = game.legal_moves()
        try:
            move = parse_move(text)
        except MoveSyntaxError:
            assert dump_game(game) == before
            continue
        try:
            game.apply(move)
        except IllegalMove:
            assert dump_game(game) == before
            assert move not in legal, f"{move} is listed but refused"
            continue
        if not isinstance(move, Skip | Remove):
            assert move in legal, f"{move} applied but is not listed"
        assert game.check_invariants() == []


@given(positions)
def test_listed_moves_round_trip_through_their_text(game: Game) -> None:
    for move in game.legal_moves():
        assert parse_move(str(move)) == move
        assert parse_move(f"  {str(move).upper()} ") == move  # case and spaces do not matter


@given(positions)
def test_json_round_trip_and_replay_give_an_equal_game(game: Game) -> None:
    text = dump_game(game)
    again = load_game(text)
    assert again == game
    assert dump_game(again) == text
    assert Game.replay(game.num_players, game.seed, game.log) == game
    # The reloaded game goes on exactly like the original.
    for m in game.legal_moves()[:5]:
        a, b = game.clone(), load_game(text)
        a.apply(m)
        b.apply(m)
        assert a == b


@given(positions)
def test_undo_returns_to_the_state_before_the_last_action(game: Game) -> None:
    for move in game.legal_moves():
        if isinstance(move, Undo):
            continue
        copy = game.clone()
        copy.apply(move)
        if copy.state.current == game.state.current and copy.can_undo():
            copy.apply_text("undo")
            assert copy.state == game.state, move


@given(positions, st.data())
def test_one_token_changed_in_a_listed_move_applies_exactly_when_listed(game: Game, data: st.DataObject) -> None:
    legal = game.legal_moves()
    if not legal:
        return
    tokens = str(data.draw(st.sampled_from(legal))).split()
    i = data.draw(st.integers(0, len(tokens) - 1))
    tokens[i] = data.draw(st.sampled_from(TOKENS[:-1]))
    text = " ".join(tokens)
    before = dump_game(game)
    try:
        move = parse_move(text)
    except MoveSyntaxError:
        return
    try:
        game.apply(move)
    except IllegalMove:
        assert dump_game(game) == before
        assert move not in legal, f"{move} is listed but refused"
        return
    assert isinstance(move, Skip | Remove) or move in legal, f"{move} applied but is not listed"
