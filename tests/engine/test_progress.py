"""Issue 31: games that keep moving.  The strong player's clock never runs out before the
next installation can be completed, dice likely to be bumped off an artist card are worth
less, an abandon pays for the dice it sends back to the supply, and on a table that has
been still for a while the player pushes (points now count more; artist dice that bring a
workroom's missing die count; its workrooms are valued in a hurry).  A plan fits a workroom
only inside its grid, and one card from the end and ahead, the player pushes at once."""

from __future__ import annotations

import pytest

from engine import Game
from engine.moves import Abandon, Complete, EndTurn, Release
from engine.players import GreedyPlayer
from engine.players import evaluate as ev
from engine.players.greedy import _plans, fits
from engine.players.strong import (
    ENABLE_AFTER,
    ENABLE_CLOSE,
    HURRY_AFTER,
    STILL_AFTER,
    TEMPO,
    THROWN_DIE,
    WIN,
    StrongPlayer,
    _bump_chance,
    _Context,
    _enabling,
    _Node,
    evaluate,
    final_value,
    still_rounds,
)
from engine.players.tournament import play_table
from engine.state import ArtistSlot, Completed, GameOptions

from .helpers import grid, rebalance


def _endgame(offer: list[int]) -> Game:
    """Two players, the one to play with four installations and empty workrooms."""
    game = Game.new(2, 4)
    s = game.state
    s.offer = offer
    s.installation_deck = [c for c in s.installation_deck if c not in offer and c not in (1, 2, 3, 4)]
    s.players[s.current].completed = [Completed(c, [None]) for c in (1, 2, 3, 4)]
    s.players[s.current].workrooms = [{}, {}]
    s.players[1 - s.current].workrooms = [{}, {}]
    rebalance(game)
    return game


def test_the_clock_waits_for_the_next_completion_when_only_big_cards_are_offered() -> None:
    """Four installations make a card clock of two turns, but with 6- and 7-dice cards in
    the offer and nothing built, nobody can complete anything that soon: the clock is the
    fastest completion in sight, so plans toward those cards are not all 'too late'."""
    big = _endgame([13, 14, 23])  # 7, 6 and 7 dice
    fastest = min(ev.fit((), c, big.deck).cost for c in (13, 14, 23)) / ev.DICE_PER_TURN  # type: ignore[union-attr]
    assert fastest > 2.0
    assert ev.turns_left(big) == fastest
    small = _endgame([1, 14, 23])  # a 3-dice card: the fifth installation may come sooner
    assert ev.turns_left(small) < 2.0


def test_dice_the_museum_can_take_now_are_counted_on_every_players_cards() -> None:
    game = Game.new(2, 4)
    takes = ev.museum_takes(game)
    assert takes and takes != frozenset(range(1, 7))  # beside the cornerstone only
    fits = min(takes)
    misfit = next(v for v in range(1, 7) if v not in takes)
    s = game.state
    s.players[0].completed = [Completed(1, [fits, misfit])]
    s.players[1].completed = [Completed(2, [fits])]
    rebalance(game)
    assert ev.ready_museum_dice(game) == 2


def test_bump_chance_reads_the_opponents_storage_and_next_roll() -> None:
    game = Game.new(2, 4)
    s = game.state
    me, rival = s.current, 1 - s.current
    s.players[rival].storage = []
    assert _bump_chance(game, me, 6, 2) == pytest.approx(1 / 36)  # only a double six bumps two 6s
    assert _bump_chance(game, me, 1, 3) == 0.0  # two dice never make three
    s.players[rival].storage = [5, 5]
    assert _bump_chance(game, me, 4, 2) == 1.0  # a stored pair of 5s bumps two 4s
    assert _bump_chance(game, me, 6, 2) == pytest.approx(1 / 36)
    assert 0.0 < _bump_chance(game, me, 5, 3) < 1.0  # one more 5 in two dice: 11 in 36
    assert _bump_chance(game, me, 5, 3) == pytest.approx(11 / 36)  # a third 5 bumps three 5s


def test_an_abandon_counts_the_dice_it_sends_back_to_the_supply() -> None:
    game = Game.new(2, 4)
    s = game.state
    me = s.players[s.current]
    me.workrooms = [grid("3 4\n. 5:2"), {}]
    s.artists = [ArtistSlot(a.card) for a in s.artists]
    rebalance(game)
    player = StrongPlayer(1)
    root = _Node(game.clone(), [])
    visible = frozenset(c for c in s.offer if c is not None)
    children = list(player._expand(root, set(), visible))
    abandon = next(c for c in children if c.moves == [Abandon(0)])
    if abandon.game.is_abandoning():  # dice could go onto artist cards: release them all
        abandon = next(c for c in player._expand(abandon, set(), visible) if c.moves[-1] == Release())
    assert abandon.thrown == 4
    ctx = _Context(abandon.game, s.current)
    player._value(abandon, ctx)
    plain, _keep = evaluate(abandon.game, ctx, abandon.forbidden)
    assert abandon.value == pytest.approx(plain - THROWN_DIE * 4)  # the abandon must gain more than that
    kept = next(c for c in children if not isinstance(c.moves[0], Abandon))
    assert kept.thrown == 0


def test_a_plan_completes_only_cards_face_up_when_it_began() -> None:
    """A completion in the plan draws a card from the search's own shuffle of the hidden
    deck; the plan may not go on to complete that card (it is not known yet, and a hint
    would name a card that is not on the offer)."""
    game = Game.new(2, 4)
    s = game.state
    s.offer = [1, 14, 23]
    s.installation_deck = [c for c in s.installation_deck if c not in (1, 14, 23)]
    s.players[s.current].workrooms = [grid("2 3 2"), {}]  # card 1's plan, three in a row
    rebalance(game)
    node = _Node(game.clone(), [])
    player = StrongPlayer(1)
    assert Complete(0, 1) in player._candidates(node, frozenset({1, 14, 23}))
    assert not [m for m in player._candidates(node, frozenset({14, 23})) if isinstance(m, Complete)]


def _standoff(my_cards: tuple[int, ...]) -> Game:
    """Two players (printed end rule).  The rival to play next holds four installations
    (10 points) and a finished workroom for card 1 (its fifth: 2 points, one bonus 2 the
    museum cannot take); the player to move holds ``my_cards``."""
    game = Game.new(2, 4)
    s = game.state
    me, rival = s.current, 1 - s.current
    s.offer = [1, 14, 23]
    s.installation_deck = [c for c in s.installation_deck if c not in (1, 2, 3, 4, 5, 14, 23, *my_cards)]
    s.players[rival].completed = [Completed(c, [None]) for c in (2, 3, 4, 5)]
    s.players[rival].workrooms = [grid("2 3 2"), {}]
    s.players[me].completed = [Completed(c, [None]) for c in my_cards]
    s.players[me].workrooms = [{}, {}]
    rebalance(game)
    return game


def test_a_finished_fifth_card_that_would_lose_does_not_shorten_the_clock() -> None:
    """A rival one card from the end ends the game when it likes, but only if it is then
    ahead.  Behind, it holds its finished workroom (four-four endgames of issue 31: the
    leader, trusting a clock of half a turn, built nothing for rounds)."""
    ahead = _standoff((13,))  # 6 points: the rival's 10 + 2 win
    assert ev.turns_left(ahead) < 1.0
    behind = _standoff((13, 15, 18))  # 16 points: the rival would lose by ending now
    assert ev.turns_left(behind) >= 2.0  # the card clock of four installations


def test_the_museum_clock_waits_for_a_completion_that_can_feed_it() -> None:
    """With the museum not fillable from the card dice in play, only a card whose bonus
    dice the museum can take brings its end closer; a finished workroom whose card gives
    the museum nothing does not (so taking that card does not lengthen the clock)."""
    game = Game.new(2, 4)
    s = game.state
    assert ev.museum_takes(game) == frozenset({3, 5})
    s.offer = [1, 2, 23]  # bonus 2 (the museum cannot take it), 5 and 2/5 + 4
    s.installation_deck = [c for c in s.installation_deck if c not in (1, 2, 23)]
    me = s.players[s.current]
    me.workrooms = [grid("2 3 2"), {}]  # card 1, finished
    s.players[1 - s.current].workrooms = [{}, {}]
    rebalance(game)
    card_2 = ev.fit((), 2, game.deck)
    assert card_2 is not None
    assert ev._next_end_turns(game) == pytest.approx(card_2.cost / ev.DICE_PER_TURN)
    me.workrooms = [grid("2 3\n3"), {}]  # card 2, finished: its 5 can go to the museum
    rebalance(game)
    assert ev._next_end_turns(game) == 0.0


def test_a_finished_workroom_is_worth_no_more_than_its_card_taken_now() -> None:
    """Near the end a bonus die on a completed card is worth less (few turns to move it);
    the finished workroom's plan values its bonus dice the same way, so holding the room
    never beats taking the card (a finished 7-dice workroom was held nine rounds)."""
    game = Game.new(2, 4)
    s = game.state
    seat = s.current
    s.players[seat].workrooms = [grid("2 3 2"), {}]
    rebalance(game)
    card = game.deck.installation(1)
    for horizon in (0.5, 1.0, 5.0):
        value, plans = ev.rooms_value(game, seat, [1], horizon, None, 9)
        assert plans[0].card == 1 and plans[0].turns == 0.0
        die = min(ev.BONUS_DIE, ev.card_die_value(horizon))
        assert value == pytest.approx(card.points + len(card.bonus) * die)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_still_rounds_is_the_balance_reports_stretch(players: int) -> None:
    """The strong player's count of still rounds (read from the log) matches the balance
    report's (scores compared turn by turn), at every player count (issue 31)."""
    game = Game.new(players, 7, GameOptions(equal_turns=True))
    still, last = [0], [game.scores()]
    checked: list[float] = []

    def after(g: Game, m: object) -> None:
        if isinstance(m, EndTurn):
            scores = g.scores()
            still[0] = still[0] + 1 if scores == last[0] else 0
            last[0] = scores
            if not g.is_over:
                assert still_rounds(g) * len(g.active_players()) == still[0]
                checked.append(still_rounds(g))

    play_table(game, [GreedyPlayer(i) for i in range(players)], after=after)
    assert len(checked) > 10 and max(checked) > 0  # still turns were seen, not only busy ones


def test_the_strong_player_pushes_only_on_a_still_table() -> None:
    game = Game.new(2, 4)
    assert still_rounds(game) == 0.0
    moving = _Context(game, game.current_player, 0.0)
    assert moving.tempo == 0.0 and moving.still < ENABLE_AFTER
    still = _Context(game, game.current_player, STILL_AFTER + 1.0)
    assert still.tempo == 2 * TEMPO
    assert not moving.hurry and still.hurry
    assert not _Context(game, game.current_player, HURRY_AFTER - 0.5).hurry
    # A card from the end, any completion will do: no hurry.
    closing = _endgame([1, 14, 23])
    assert not _Context(closing, closing.current_player, STILL_AFTER + 1.0).hurry


def test_on_a_still_table_the_workroom_aims_at_the_card_it_finishes_soonest() -> None:
    """A workroom holding a 2 and a 3 side by side is one die from card 1 (three in a row,
    2 points) and two from card 4 (four in a row, 3 points).  Normally it aims at card 4
    (the other, empty room takes card 1); in a hurry it aims at card 1, and the second plan
    is worth less (it waits for all of the first one's turns)."""
    game = Game.new(2, 4)
    s = game.state
    seat = s.current
    s.players[seat].workrooms = [grid("2 3"), {}]
    rebalance(game)
    normal, plans = ev.rooms_value(game, seat, [1, 4], 5.0, None, 9)
    assert [p.card for p in plans] == [4, 1]
    hurried, plans = ev.rooms_value(game, seat, [1, 4], 5.0, None, 9, hurry=True)
    assert [p.card for p in plans] == [1, 4]
    assert plans[0].turns < plans[1].turns
    assert hurried < normal


def test_a_plan_that_would_leave_the_workroom_grid_does_not_fit() -> None:
    """Card 23's five columns around a 2-high centre.  Built against the grid's corner, the
    missing arm of the centre would stand off the grid: the room can never become the card
    (the strong player held such a room, one die short, for 53 rounds).  The same dice in
    the middle of the grid are one die from it."""
    game = Game.new(2, 4)
    corner = grid("3:2 4:2 5\n2")
    middle = grid(". . . .\n. . . .\n. . 3:2 4:2 5\n. . 2")
    assert ev.fit(ev.room_key(corner), 23, game.deck) is None
    fitted = ev.fit(ev.room_key(middle), 23, game.deck)
    assert fitted is not None and fitted.remaining == 1 and fitted.useful == {2, 4}
    plans = _plans(game.deck)
    assert not fits(corner, plans[23]) and fits(middle, plans[23])  # the greedy player's test too


def test_one_card_from_the_end_and_ahead_the_player_values_the_artist_that_brings_its_die() -> None:
    """Four installations and the lead: a workroom a die from card 10 (a third 2 on its
    column) and two of its own dice on La Fresnaye -2 make that card worth up to half of card
    10's points at once, though no die in hand is a 4 yet (one comes soon).  Valued the usual
    way (no 4 in hand) it is worth nothing, and behind, a fifth card would lose: no push."""
    game = _endgame([10, 14, 23])
    s = game.state
    seat = s.current
    s.players[seat].workrooms = [grid("2:2 3"), {}]
    s.players[seat].storeroom = []
    s.artists = [ArtistSlot(19, owner=seat, value=4, count=2, placed_turn=s.turn - 1)] + [
        ArtistSlot(c) for c in (1, 7, 12)
    ]
    rebalance(game)
    ctx = _Context(game, seat, 0.0)
    assert ctx.closing and not ctx.hurry
    offer = ctx.offer(game)
    horizon, room = ev.turns_left(game), ev.museum_room(game)
    points = game.deck.installation(10).points
    closing = _enabling(game, seat, offer, horizon, room, frozenset(), closing=True)
    assert 0.0 < closing <= ENABLE_CLOSE * points
    assert _enabling(game, seat, offer, horizon, room, frozenset()) == 0.0
    s.players[1 - seat].completed = [Completed(c, [None]) for c in (5, 6, 7, 8)]
    rebalance(game)
    assert game.score(1 - seat) > game.score(seat)
    assert not _Context(game, seat, 0.0).closing


def _last_round(later_room: str, later_cards: list[Completed]) -> tuple[Game, int]:
    """Three players under equal_turns, the first to play holding card 10 (4 points); one of
    the two seats after it holds ``later_room`` and ``later_cards``, the other nothing."""
    game = Game.new(3, 4, GameOptions(equal_turns=True))
    s = game.state
    me = s.current
    later = game.seats_after_in_round()[0]
    s.offer = [1, 15, 23]  # 15: a column of four and a die beside it, 5 points
    s.installation_deck = [c for c in s.installation_deck if c not in (1, 10, 15, 23)]
    for seat in range(3):
        s.players[seat].workrooms = [{}, {}]
    s.players[me].completed = [Completed(10, [None])]
    s.players[later].workrooms = [grid(later_room), {}]
    s.players[later].completed = later_cards
    rebalance(game)
    return game, later


def test_a_last_turn_counts_what_the_position_allows() -> None:
    """Under equal_turns the seats after the one that ends the game play a last turn: it is
    worth what their workrooms, the offer and the museum let them score, not a flat 3."""
    game, later = _last_round("", [])
    assert ev.last_turn_gain(game, later) == ev.LAST_TURN_FLOOR
    assert ev.museum_takes(game) == frozenset({3, 5})
    game, later = _last_round("3:4", [])  # one die short of card 15
    assert ev.last_turn_gain(game, later) == 5.0
    game, later = _last_round("3:4 4", [])  # card 15, finished
    assert ev.last_turn_gain(game, later) == 5.0 + ev.LAST_TURN_READY
    game, later = _last_round("3:4", [Completed(2, [5]), Completed(3, [2])])  # a 5 the museum takes
    assert ev.last_turn_gain(game, later) == 5.0 + 2.0


def test_ending_with_a_lead_wins_only_if_no_later_seat_can_catch_up() -> None:
    """A 4-point lead ends a game against seats with nothing in reach, not against a seat
    one die from a 5-point card (with a flat 3 points per last turn it did both)."""
    game, _ = _last_round("", [])
    assert final_value(game, game.state.current) > WIN / 2
    game, _ = _last_round("3:4", [])
    assert final_value(game, game.state.current) < 0
