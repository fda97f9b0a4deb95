"""Computer players: legality, determinism, finished games, turn plans, hints, a small tournament.

No timing here: speed is measured by ``python -m benchmarks ai``.
"""

from __future__ import annotations

import pytest

from engine import EndTurn, Game, GameOptions, IllegalMove
from engine.players import GreedyPlayer, Player, RandomPlayer, StrongPlayer, make_player
from engine.players import evaluate as ev
from engine.players.tournament import play_one, run_match, wilson
from engine.state import ArtistSlot

from .helpers import setup

LEVELS = ("random", "greedy", "strong")


def _bot(level: str, seed: int, fast: bool) -> Player:
    """``make_player``, or with ``fast`` a strong player on a small search budget: the same
    code paths at a fraction of the time (these tests check rules, not strength)."""
    if fast and level == "strong":
        return StrongPlayer(seed, budget=120, turn_budget=160)
    return make_player(level, seed)


def _play(levels: list[str], seed: int, *, check: bool = True, max_turns: int = 400, fast: bool = True) -> Game:
    game = Game.new(len(levels), seed)
    bots = [_bot(level, seed * 10 + i, fast) for i, level in enumerate(levels)]
    while not game.is_over and game.state.turn < max_turns:
        move = bots[game.current_player].choose(game)
        if check:
            assert move in game.legal_moves(), f"{levels[game.current_player]} chose unlisted {move}"
        game.apply(move)
    return game


@pytest.mark.parametrize("seed", [1])
def test_every_player_makes_only_legal_moves_and_games_finish(seed: int) -> None:
    game = _play(["strong", "greedy", "random"], seed)
    assert game.is_over
    assert game.check_invariants() == []
    game = _play(["random", "strong"], seed + 10)
    assert game.is_over


def test_four_player_game_with_two_strong_players_finishes() -> None:
    game = _play(["strong", "greedy", "strong", "greedy"], 7)
    assert game.is_over and game.winners()


@pytest.mark.parametrize("level", LEVELS)
def test_players_are_deterministic_for_a_seed(level: str) -> None:
    # The real strong player (full budget) over the first dozen turns, the others whole games.
    turns = 12 if level == "strong" else 400
    a = _play([level, "greedy"], 3, check=False, max_turns=turns, fast=False)
    b = _play([level, "greedy"], 3, check=False, max_turns=turns, fast=False)
    assert a.log == b.log and a.scores() == b.scores()
    assert a.state.turn >= min(turns, 10)


def _positions(count: int, seed: int = 5) -> list[Game]:
    """Copies of positions where the strong player is to move, from a strong-vs-greedy game."""
    out = []
    game = Game.new(2, seed)
    bots = [StrongPlayer(1, budget=120, turn_budget=160), GreedyPlayer(2)]
    while not game.is_over and len(out) < count:
        if game.current_player == 0:
            out.append(game.clone())
        game.apply(bots[game.current_player].choose(game))
    return out


def test_plan_turn_applies_in_order_and_ends_the_turn() -> None:
    player = StrongPlayer(4)
    positions = _positions(25)
    assert len(positions) == 25
    for game in positions:
        plan = player.plan_turn(game)
        assert plan, "a turn always has at least one move"
        copy = game.clone()
        seat, turn = copy.current_player, copy.state.turn
        for move in plan:
            try:
                copy.apply(move)
            except IllegalMove as e:  # pragma: no cover - the assertion message is the point
                pytest.fail(f"plan {[str(m) for m in plan]} broke at {move}: {e}")
        if isinstance(plan[-1], EndTurn):
            assert copy.is_over or (copy.state.turn, copy.current_player) != (turn, seat)
        else:  # planned up to the roll
            assert game.has_rolled() is False


def test_plan_does_not_depend_on_hidden_information() -> None:
    """Reordering the unseen decks and the generator must not change the plan."""
    player = StrongPlayer(9)
    for game in _positions(8, seed=8):
        other = game.clone()
        other.state.installation_deck.reverse()
        other.state.artist_deck[:] = other.state.artist_deck[::-1]
        other.state.rng ^= 0x5DEECE66D
        assert player.plan_turn(game) == player.plan_turn(other)


def test_plans_do_not_depend_on_what_the_caches_hold() -> None:
    """The evaluation caches are shared by every player in a process (a bot hosts many
    games): a plan must be the same whatever was asked before."""
    positions = _positions(6, seed=14)
    player = StrongPlayer(5)
    first = [player.plan_turn(g) for g in positions]
    ev._ROOMS.clear()
    ev._FITS.clear()
    again = [player.plan_turn(g) for g in reversed(positions)][::-1]
    assert first == again


def test_choose_follows_the_plan_until_something_new_appears() -> None:
    game = _positions(6, seed=11)[-1]
    player = StrongPlayer(2)
    plan = player.plan_turn(game)
    first = player.choose(game)
    assert first == plan[0]


def explained(player: StrongPlayer, game: Game) -> str:
    """The player's reasons in English (the engine gives keys and values; the words are the
    English catalogue's)."""
    from bot.i18n.rules import reasons_text

    return reasons_text(player.explain(game), "en")


def test_explain_gives_a_one_line_reason() -> None:
    player = StrongPlayer(3)
    for game in _positions(6, seed=12):
        text = explained(player, game)
        assert text and "\n" not in text


def test_explain_names_a_completion() -> None:
    player = StrongPlayer(3)
    for game in _positions(40, seed=13):
        plan = player.plan_turn(game)
        if any(type(m).__name__ == "Complete" for m in plan):
            text = explained(player, game)
            assert text.startswith("completes '") and "#" not in text and "points with workroom " in text
            return
    pytest.skip("no completion in the sampled positions")


def test_make_player_levels() -> None:
    assert isinstance(make_player("random", 1), RandomPlayer)
    assert isinstance(make_player("Greedy", 1), GreedyPlayer)
    assert isinstance(make_player("strong", 1), StrongPlayer)
    with pytest.raises(ValueError, match="unknown player level"):
        make_player("expert", 1)


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(0, 0) == (0.0, 1.0)


def test_shared_victory_counts_as_a_fraction() -> None:
    record = play_one("greedy", "random", 2, 1, 0)
    record.winners = [0, 1]
    assert record.a_share == 0.5


def test_small_tournament_greedy_beats_random() -> None:
    result = run_match("greedy", "random", 20, 2, seed=100, workers=1)
    assert result.games == 20 and all(r.finished for r in result.records)
    assert result.win_rate >= 0.8


def test_small_tournament_strong_beats_greedy_more_often_than_not() -> None:
    # Fixed seeds and deterministic players: this sample is the same on every run.  The
    # real measure is the 300-game match of ``python -m benchmarks ai``.  Eight deals,
    # each played from both seats (fewer were too few: with the issue 17 deck strong won
    # exactly half of two deals, and after its artist tuning half of four, 10 of these 16).
    result = run_match("strong", "greedy", 16, 2, seed=200)  # in up to two processes
    assert result.win_rate > 0.5, [(r.scores, r.seat_a) for r in result.records]
    record = result.records[0]
    assert len(record.a_turn_cpu_seconds) == len(record.a_turn_seconds) > 0


def test_explain_says_when_the_plan_ends_the_game() -> None:
    # Deterministic games; the first of these deals in which the strong player ends the game
    # is checked (it is not every deal: greedy sometimes gets there first).
    for seed in range(21, 41):
        game = Game.new(2, seed)
        bots = [StrongPlayer(1, budget=120, turn_budget=160), GreedyPlayer(2)]
        while not game.is_over:
            if game.current_player == 0 and game.has_rolled() and len(game.state.players[0].completed) >= 4:
                plan = bots[0].plan_turn(game)
                copy = game.clone()
                for move in plan:
                    copy.apply(move)
                if copy.is_over:
                    text = explained(bots[0], game)
                    assert "this ends the game: you " in text, text
                    return
            game.apply(bots[game.current_player].choose(game))
    raise AssertionError("the strong player ended none of these games")


def test_greedy_never_keeps_the_same_two_dice_in_storage_twice_in_a_row() -> None:
    from engine.balance import play_balance_game

    for seed in (1, 2):
        stats = play_balance_game(3, seed, 0, ["greedy"], GameOptions())
        assert max(stats.longest_hoard) <= 1, stats.longest_hoard


def test_greedy_uses_every_kind_of_artist_when_it_pays() -> None:
    from engine.balance import play_balance_game
    from engine.cards import ArtistKind

    deck = Game.new(2, 1).deck
    kinds = set()
    for seed in range(1, 7):
        stats = play_balance_game(4, seed, 0, ["greedy"], GameOptions())
        kinds |= {deck.artist(card).artist for card, _seat in stats.artist_uses}
    # Before, greedy used only the four kinds that give dice.
    assert {ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE, ArtistKind.GRIS} <= kinds, kinds


def _pair_position(row: list[ArtistSlot]) -> Game:
    """A 2-player position after the roll: storeroom 5 5 3 6, no 5 fits either workroom,
    ``row`` the artist row (an owned slot holds the opponent's dice)."""
    game = Game.new(2, 5)
    s = game.state
    shown = {a.card for a in row}
    s.artist_deck = [c for c in [a.card for a in s.artists] + s.artist_deck if c not in shown]
    s.artists = row
    for a in row:
        a.owner = None if a.owner is None else 1 - s.current
    return setup(game, w1="1 2", w2="2 1", storeroom=[5, 5, 3, 6])


def test_strong_keeps_a_pair_toward_a_three_dice_card_it_could_take() -> None:
    """Three equal dice are rare, so the strong player stores a pair when a 3-dice card it
    could take next turn is in the row (a third die of that value comes in 11 rolls of 36),
    and two loose dice when none is: a free Marc, La Fresnaye or Pascin, but not a Marc
    holding an opponent's higher dice (a pair of 5s cannot bump 6s)."""
    from engine.players.strong import _Context, evaluate

    def kept(row: list[ArtistSlot]) -> tuple[int, ...]:
        game = _pair_position(row)
        return evaluate(game, _Context(game, game.current_player), frozenset())[1]

    others = [ArtistSlot(1), ArtistSlot(7), ArtistSlot(12)]
    for three_dice in (10, 16, 22):  # Marc, La Fresnaye +2, Pascin
        assert kept([ArtistSlot(three_dice), *others]) == (5, 5), three_dice
    assert kept([ArtistSlot(2), *others]) != (5, 5)
    assert kept([ArtistSlot(10, owner=0, value=6, count=3, placed_turn=0), *others]) != (5, 5)
    assert kept([ArtistSlot(10, owner=0, value=4, count=3, placed_turn=0), *others]) == (5, 5)


def test_a_hint_says_why_a_pair_is_kept_in_plain_words() -> None:
    from bot.i18n.rules import reasons_text
    from engine.players.reasons import reasons

    game = _pair_position([ArtistSlot(10), ArtistSlot(1), ArtistSlot(7), ArtistSlot(12)])
    why = reasons(game, [EndTurn((5, 5))])
    assert (
        reasons_text(why, "en")
        == "keeps two 5s in the storage space: with a third 5 next turn, all three go on Franz Marc"
    )
    assert "les trois iront sur Franz Marc" in reasons_text(why, "fr")
    assert reasons_text(reasons(game, [EndTurn((6, 3))]), "en").startswith("keeps 6 + 3 in the storage space")


def test_the_clock_runs_short_when_a_rival_is_one_die_from_a_fifth_installation() -> None:
    """The strong player's estimate of the turns left: four installations alone leave about
    two turns; a rival whose workroom lacks one die of an offered card ends the game on
    their next turn, so a player cashes in (museum, artists) now rather than later."""
    from engine.state import Completed

    from .helpers import grid, rebalance

    def clock(rival_room: str) -> float:
        game = Game.new(3, 4)
        s = game.state
        rival = (s.current + 1) % 3
        s.offer = [1, 7, 8, 9]  # 1: three dice in a row
        s.installation_deck = [c for c in s.installation_deck if c not in (1, 2, 3, 4, 5, 7, 8, 9)]
        s.players[rival].completed = [Completed(c, [None]) for c in (2, 3, 4, 5)]
        s.players[rival].workrooms = [grid(rival_room), grid("1:4 2:4")]
        rebalance(game)
        return ev.turns_left(game)

    assert clock("1:4 2:4") == 2.0  # neither workroom fits an offered card: the card clock
    assert clock("2 3") < 1.0  # a 1 or a 4 beside the 3 completes card 1


def _waiting_for_a_two(row: list[ArtistSlot], storeroom: list[int]) -> Game:
    """A 2-player position after the roll: both workrooms hold a column of two 1s, and the
    offer's only card they can become is #3 (a column of two and one die beside it), so a 2
    is the one value they can take; ``row`` the artist row (an owned slot holds the
    opponent's dice unless it says the mover's)."""
    game = Game.new(2, 5)
    s = game.state
    shown = {a.card for a in row}
    s.artist_deck = [c for c in [a.card for a in s.artists] + s.artist_deck if c not in shown]
    s.artists = row
    s.installation_deck = [c for c in s.offer + s.installation_deck if c not in (1, 3, 4)]
    s.offer = [3, 1, 4]  # #1 and #4 are flat: a column of two fits neither
    return setup(game, w1="1:2", w2="1:2", storeroom=storeroom)


def test_greedy_takes_from_marc_the_value_its_workroom_waits_for() -> None:
    game = _waiting_for_a_two(
        [ArtistSlot(10, owner=1, value=6, count=3), ArtistSlot(7), ArtistSlot(12), ArtistSlot(20)], [5, 6]
    )
    game.state.artists[0].owner = game.current_player
    game.set_position()
    bot = make_player("greedy", 1)
    assert str(bot.choose(game)) == "use 1 2"  # not the first value offered (a 1)
    game.apply(bot.choose(game))
    game.apply(bot.choose(game))  # the 2 goes beside the column
    assert str(bot.choose(game)).startswith("complete w")


@pytest.mark.parametrize("owner", [None, "opponent"])
def test_greedy_puts_spare_dice_on_the_artist_that_gives_the_value_it_waits_for(owner: str | None) -> None:
    """Two 5s fit neither workroom: they go onto the Malevich that gives a 2 (bumping the
    opponent's 4s there if need be), not onto the Malevich of 5s before it in the row."""
    held = ArtistSlot(2) if owner is None else ArtistSlot(2, owner=0, value=4, count=2)
    game = _waiting_for_a_two([ArtistSlot(5), held, ArtistSlot(12), ArtistSlot(20)], [5, 5])
    for a in game.state.artists:
        if a.owner is not None:
            a.owner = 1 - game.current_player
    game.set_position()
    assert str(make_player("greedy", 1).choose(game)) == "artist 2 5 5"


def test_greedy_keeps_card_dice_for_the_museum() -> None:
    """A die on a completed card goes into a workroom only to finish a card at once, and a
    two-value die is switched only when the museum then takes it."""
    from engine.moves import CARD, Complete, Place, Switch, ToMuseum

    switched = 0
    for seed in range(1, 5):
        game = Game.new(3, seed)
        bots = [make_player("greedy", seed * 10 + i) for i in range(3)]
        while not game.is_over:
            bot = bots[game.current_player]
            move = bot.choose(game)
            game.apply(move)
            if isinstance(move, Place) and move.die.kind == CARD:
                after = bot.choose(game)
                assert isinstance(after, Complete) and after.room == move.room, (seed, move, after)
            if isinstance(move, Switch):
                switched += 1
                after = bot.choose(game)
                assert isinstance(after, ToMuseum) and after.die == move.die, (seed, move, after)
    assert switched


def _turn(bot: Player, game: Game) -> list[str]:
    """The moves ``bot`` makes over the rest of this turn."""
    moves = []
    turn = game.state.turn
    while not game.is_over and game.state.turn == turn:
        move = bot.choose(game)
        moves.append(str(move))
        game.apply(move)
    return moves


def test_greedy_does_not_trade_a_near_card_for_a_far_one() -> None:
    """Each workroom holds one 1 and the offer is a row of three (#1), a row of four (#4) and
    #13 (columns of 3, 2 and 2): a 2 beside a 1 makes two thirds of #1, a second 1 on top
    fits only #13, five dice away. With two 1s in the storeroom the greedy level builds no
    tower; the plain player (the pictures' positions) still does."""

    def position() -> Game:
        game = Game.new(2, 5)
        s = game.state
        s.installation_deck = [c for c in s.offer + s.installation_deck if c not in (1, 4, 13)]
        s.offer = [1, 4, 13]
        return setup(game, w1="1", w2="1", storeroom=[1, 1])

    level = _turn(make_player("greedy", 1), position())
    assert not [m for m in level if m.startswith("place")], level
    plain = _turn(GreedyPlayer(1), position())
    assert [m for m in plain if m.startswith("place 1 w")], plain


def test_greedy_starts_a_workroom_with_a_die_that_takes_neighbours_both_ways() -> None:
    """A 1 takes only one value beside it (a 2), a 3 or a 5 two: an empty studio starts on
    the latter (the plain player takes the first die it finds, the 1)."""
    for other in (3, 5):
        game = setup(Game.new(2, 5), w1="", w2="", storeroom=[1, other])
        assert str(make_player("greedy", 1).choose(game)) == f"place {other} w1 c3"
        assert str(GreedyPlayer(1).choose(game)) == "place 1 w1 c3"
