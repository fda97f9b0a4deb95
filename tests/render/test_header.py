"""The table's header on a long turn: every die the last turn placed is drawn again with
where it went (numerals and places 9 px on a 360 px phone), in the header or in the empty
corner the layout leaves, and the turn in words is never cut; over every turn of self-play
games, in English and French, from both cameras."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Complete, Game, Place, ToMuseum
from engine.players import GreedyPlayer
from render.canvas import Canvas
from render.demo import DEMO_NAMES
from render.labels import Labels
from render.model import phone_scale
from render.names import circled
from render.tableview import MIN_GLYPH, RECAP_FLOOR, TABLE_UNIT, plan_header
from render.words import brief_line, last_turn_line

from .test_legibility import hidden_values, self_play, smallest_value


def _px(box: tuple[int, int, int, int], scale: float) -> float:
    return (box[3] - box[1]) * scale


def _place(where: str, game: Game, labels: Labels) -> str:
    """Where a ringed die of the table stands, as the header names it: ②, the museum, an artist."""
    if where.startswith("museum"):
        return labels.text("museum")
    if where.startswith("artist"):
        card = game.artist_card(int(where.split()[1]) - 1)
        assert card is not None
        return labels.artist_short(card)
    room = where.split()[1]  # "p2 w1 c3"
    assert room.startswith("w"), where
    return circled(int(room[1:]))


def _panel(cv: Canvas, name: str) -> tuple[int, int, int, int] | None:
    return next((b.rect for b in cv.boxes if b.kind == "panel" and b.name == name), None)


def check_header(cv: Canvas, game: Game, labels: Labels, where: str) -> int:
    """The header's promises for one picture; returns how many dice its recap shows."""
    # the header, and the empty corner where a long turn's dice may go instead
    texts = [b for b in cv.boxes if b.kind == "text" and b.parent in ("header", "last turn")]
    panels = {b.name: b.rect for b in cv.boxes if b.kind == "panel" and b.name in ("header", "last turn")}
    assert not [b.name for b in texts if "…" in b.name], f"{where}: a header text is cut"
    for b in texts:  # inside its panel, which grew for what it holds
        panel = panels[b.parent]
        assert panel[0] <= b.rect[0] and b.rect[2] <= panel[2], f"{where}: {b.name!r} leaves the {b.parent}"
        assert panel[1] <= b.rect[1] and b.rect[3] <= panel[3], f"{where}: {b.name!r} leaves the {b.parent}"
    # every die ringed on the table (placed by the last turn, still there) is in the header,
    # with its value and its place
    ringed = Counter((d.value, _place(d.where, game, labels)) for d in cv.dice if d.lit)
    shown = Counter((r.value, r.where.removeprefix("recap ")) for r in cv.recap)
    assert shown == ringed, f"{where}: the header shows {shown}, the table rings {ringed}"
    ph = phone_scale(cv.size[0])
    marks = [b for b in texts if b.name.startswith("→")]
    for r in cv.recap:
        place = r.where.removeprefix("recap ")
        assert _px(r.glyph, ph) >= RECAP_FLOOR, f"{where}: a recap numeral is {_px(r.glyph, ph):.1f} px"
        # its place's words on its row, after it
        beside = [m for m in marks if m.name.removeprefix("→").strip() == place and m.rect[0] >= r.glyph[2]
                  and m.rect[1] < r.glyph[3] and r.glyph[1] < m.rect[3]]  # fmt: skip
        assert beside, f"{where}: the {r.value} in the header does not say where it went ({place})"
        assert min(_px(m.rect, ph) for m in beside) >= RECAP_FLOOR, f"{where}: {place} is too small on a phone"
    assert not hidden_values(cv.recap), f"{where}: {hidden_values(cv.recap)}"
    return len(cv.recap)


def check_brief(brief: str, game: Game, labels: Labels) -> None:
    """The turn in fewer words still names each installation completed and each artist used
    or given dice, in order, and a figure for every die placed."""
    turn = game.state.last_turn
    assert turn is not None
    named = []
    for p in turn.plays:
        if isinstance(p.move, Complete):
            named.append(labels.installation(game.deck.installation(p.move.card)))
        elif p.artist is not None:
            named.append(labels.artist_short(game.deck.artist(p.artist)))
    at = 0
    for name in named:
        found = brief.find(name, at)
        assert found >= 0, f"{name} is not in {brief!r} (after {at})"
        at = found
    placed = sum(isinstance(p.move, Place | ToMuseum) for p in turn.plays)
    assert len(re.findall(r"\b[1-6]\b", brief)) >= placed, brief


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    "level,players,seed",
    [("plain", 2, 8), ("plain", 3, 5), ("plain", 4, 3), ("greedy", 2, 1), ("greedy", 3, 3), ("greedy", 4, 3)],
)
def test_every_turn_the_header_shows_the_whole_last_turn(level: str, players: int, seed: int, lang: str) -> None:
    """Over games of the plain greedy player and of the bot's default computer level."""
    labels = render_labels(lang)
    names = DEMO_NAMES[:players]
    shown = long_turns = 0
    for game in self_play(players, seed, level):
        brief = brief_line(game, names, labels)
        long_turns += last_turn_line(game, names, labels) != brief
        check_brief(brief, game, labels)
        for style in ("iso", "flat"):
            cv = render.table_canvas(game, names, labels=labels, style=style)
            shown += check_header(cv, game, labels, f"{players}p {lang} {style} turn {game.state.turn}")
    assert shown > 40 * players and long_turns > 10, (shown, long_turns)


def test_a_long_turn_in_fewer_words_names_every_die_and_its_place() -> None:
    """Ada's turn 11 (3 players, seed 5): nine moves, two installations completed, three
    dice from cards: too long for one line in full, it is told by place."""
    game = Game.new(players=3, seed=5)
    bots = [GreedyPlayer(50 + i) for i in range(3)]
    while game.state.turn < 11:
        turn = game.state.turn
        while game.state.turn == turn:
            game.apply(bots[game.current_player].choose(game))
    en, fr = render_labels("en"), render_labels("fr")
    # the dice placed one after another grouped by place, the rest in between, in order
    assert brief_line(game, DEMO_NAMES, en) == (
        "Last turn, Ada: 5, 5 and 6 in workroom 2; completed Solitary Column No. 9; 1 in workroom 2; "
        "4 in workroom 1; completed Corner of a Quiet Room; 5 in the museum; turned a bonus 1 into a 6; "
        "6 in the museum"
    )
    assert brief_line(game, DEMO_NAMES, fr).startswith(
        "Dernier tour, Ada : 5, 5 et 6 dans l'atelier 2 ; "
        "a terminé l'installation Colonne solitaire n° 9 ; 1 dans l'atelier 2 ; "
    )
    assert len(brief_line(game, DEMO_NAMES, en)) < len(last_turn_line(game, DEMO_NAMES, en)) / 2


def test_a_long_turns_dice_stand_in_the_empty_corner_when_that_lowers_the_header() -> None:
    """Seen from above, 4 players (the bot's default level): on the turns whose dice stand in
    the corner beside the cards, the header is lower by half a line or more than with them
    beside whose turn it is, and everything check_header asks of the dice still holds."""
    names = DEMO_NAMES[:4]
    labels = render_labels("en")
    cornered = 0
    for game in self_play(4, 3, "greedy"):
        cv = render.table_canvas(game, names, labels=labels, style="flat")
        corner, header = _panel(cv, "last turn"), _panel(cv, "header")
        if corner is None:
            continue
        cornered += 1
        assert header is not None
        beside = plan_header(game, names, labels, cv.size[0], TABLE_UNIT)
        assert not beside.corner and header[3] - header[1] <= beside.height - beside.size // 2
        assert all(corner[1] <= r.glyph[1] and r.glyph[3] <= corner[3] for r in cv.recap)
        check_header(cv, game, labels, f"turn {game.state.turn}")
    assert cornered >= 1


def test_a_table_short_of_the_goal_puts_the_turn_in_words_in_the_corner() -> None:
    """3 players from above (the strong level, whose turns are the longest): where the
    header's dice fill two rows and the table would fall short of 10 px, the turn in words
    stands in the empty corner, whole, and the table reaches the goal."""
    names = DEMO_NAMES[:3]
    labels = render_labels("en")
    moved = 0
    for game in self_play(3, 1, "strong"):
        cv = render.table_canvas(game, names, labels=labels, style="flat")
        corner = _panel(cv, "last turn")
        words = [b for b in cv.boxes if b.kind == "text" and b.parent == "last turn" and not b.name.startswith("→")]
        if corner is None or (cv.recap and corner[1] <= cv.recap[0].glyph[1]):
            continue  # no corner, or the dice stand there
        moved += 1
        told = " ".join(b.name for b in words if not b.name.startswith("turn "))
        assert told in (last_turn_line(game, names, labels), brief_line(game, names, labels)), told
        assert all(corner[0] <= b.rect[0] and b.rect[2] <= corner[2] and b.rect[3] <= corner[3] for b in words)
        assert smallest_value(cv) >= MIN_GLYPH, f"turn {game.state.turn}: {smallest_value(cv):.2f} px"
        check_header(cv, game, labels, f"turn {game.state.turn}")
    assert moved >= 1


def test_a_table_still_short_leaves_the_turn_in_words_to_the_post() -> None:
    """A turn of five places, told in words on two lines, on a table whose bands are tall with
    completed cards and whose corner is too small for the words: the picture leaves the words
    out (the post over it tells the turn) and keeps every die of the turn, with where it went,
    and reaches 10 px; the same turn on a roomier table keeps its words."""
    names = DEMO_NAMES[:3]
    labels = render_labels("en")
    game = next(g for g in self_play(3, 1, "strong") if g.state.turn == 26)
    cv = render.table_canvas(game, names, labels=labels)
    texts = [b.name for b in cv.boxes if b.kind == "text" and b.parent in ("header", "last turn")]
    assert not [t for t in texts if t.startswith(("Last turn", "turn "))], texts
    assert _panel(cv, "last turn") is None
    assert check_header(cv, game, labels, "turn 26") >= 6
    assert smallest_value(cv) >= MIN_GLYPH, f"{smallest_value(cv):.2f} px"
    wide = plan_header(game, names, labels, 1100, TABLE_UNIT)
    assert wide.lines and " ".join(wide.lines) == brief_line(game, names, labels)
