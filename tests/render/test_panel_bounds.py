"""Every panel holds its own contents, computed from the layout model: each text, card chip
and die a player's band (or the museum, an artist card, an offer, the header) draws lies
inside that panel, and none lies over another panel's words, over late-game positions and
after every turn of self-play games, in English and French, with long names too."""

from __future__ import annotations

import pytest

import render
from bot.i18n.pictures import render_labels
from engine import Game
from engine.players import GreedyPlayer
from render.demo import DEMO_NAMES, busy_late_game, play
from render.model import DieGlyph

Rect = tuple[int, int, int, int]

# 32 characters each, wide letters among them
LONG_NAMES = [
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Anne-Marguerite de La Tour-Dupin",
    "Wolfgang Amadeus Mozart-Schubert",
    "Maximilian Ferdinand Oberhausers",
]
assert all(len(n) == 32 for n in LONG_NAMES)


def _inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _panel_of(d: DieGlyph) -> str:
    """The panel a die belongs to, from where it is: "p2 w1 c3" and "p2 storage" in the
    band "player p2", "artist 3" on its card, "museum d4" in the museum."""
    head = d.where.split()[0]
    if head.startswith("p") and head[1:].isdigit():
        return f"player {head}"
    if head == "artist":
        return " ".join(d.where.split()[:2])
    return head


def _die_box(d: DieGlyph) -> Rect:
    box = d.body or d.cell
    return (min(box[0], d.glyph[0]), min(box[1], d.glyph[1]), max(box[2], d.glyph[2]), max(box[3], d.glyph[3]))


def spills(cv: render.Canvas) -> list[str]:
    """What lies outside its panel, or over another panel's words."""
    panels = {b.name: b.rect for b in cv.boxes if b.kind == "panel"}
    out = []
    texts = [b for b in cv.boxes if b.kind == "text" and b.parent in panels]
    for b in cv.boxes:
        if b.parent in panels and not _inside(b.rect, panels[b.parent]):
            out.append(f"{b.kind} {b.name!r} {b.rect} crosses the edge of {b.parent} {panels[b.parent]}")
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if a.parent != b.parent and _overlap(a.rect, b.rect):
                out.append(f"{a.parent}'s {a.name!r} lies over {b.parent}'s {b.name!r}")
    for d in cv.dice:
        panel, box = _panel_of(d), _die_box(d)
        assert panel in panels, f"{d.where}: no panel {panel}"
        if not _inside(box, panels[panel]):
            out.append(f"the die {d.where} {box} crosses the edge of {panel} {panels[panel]}")
        out += [f"the die {d.where} lies over {t.parent}'s {t.name!r}" for t in texts
                if t.parent != panel and _overlap(box, t.rect)]  # fmt: skip
    return out


LABELS = {lang: render_labels(lang) for lang in ("en", "fr")}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("style", ["iso", "flat"])
def test_late_game_panels_hold_their_contents(lang: str, style: str) -> None:
    """The table and every studio, 2-4 players, a few seeds and stages of the museum."""
    for n in (2, 3, 4):
        for seed in (3, 5, 8):
            for built in (0.5, 1.0):
                game = busy_late_game(seed, players=n, built=built)
                for names in (DEMO_NAMES[:n], LONG_NAMES[:n]):
                    pictures = [render.table_canvas(game, names, labels=LABELS[lang], style=style)]
                    pictures += [
                        render.studio_canvas(game, s, names, labels=LABELS[lang], style=style) for s in range(n)
                    ]
                    pictures.append(render.museum_canvas(game, labels=LABELS[lang], style=style))
                    for cv in pictures:
                        found = spills(cv)
                        assert not found, f"{n}p seed {seed} {lang} {style}: {found[:3]}"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players,seed", [(2, 8), (3, 5), (4, 3)])
def test_every_turn_of_a_game_keeps_each_panels_contents_inside_it(lang: str, players: int, seed: int) -> None:
    """A whole self-play game, the table after every turn (short names and 32-character
    ones, by turns) and the mover's studio."""
    game = Game.new(players=players, seed=seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    labels = LABELS[lang]
    turns = chips = stored = 0
    while not game.is_over:
        turn = game.state.turn
        while not game.is_over and game.state.turn == turn:
            game.apply(bots[game.current_player].choose(game))
        names = (DEMO_NAMES, LONG_NAMES)[turns % 2][:players]
        table = render.table_canvas(game, names, labels=labels)
        found = spills(table)
        assert not found, f"{players}p {lang} turn {game.state.turn}: {found[:3]}"
        if not game.is_over:
            studio = render.studio_canvas(game, game.current_player, names, labels=labels)
            assert not spills(studio), f"{players}p {lang} turn {game.state.turn}: {spills(studio)[:3]}"
        chips += sum(1 for b in table.boxes if b.kind == "panel" and " i" in b.name)
        stored += sum(1 for d in table.dice if d.where.endswith("storage"))
        turns += 1
    # the games reach what made panels overflow: completed cards and dice kept in storage
    assert turns > 20 and chips and stored, (turns, chips, stored)


def test_the_check_sees_a_die_outside_its_panel() -> None:
    game = busy_late_game(5, players=3)
    cv = render.table_canvas(game, DEMO_NAMES[:3], labels=LABELS["en"])
    assert not spills(cv)
    d = next(d for d in cv.dice if d.where.startswith("p1 w1"))
    panel = next(b.rect for b in cv.boxes if b.name == "player p1")
    lower = (d.glyph[0], panel[3] - 5, d.glyph[2], panel[3] + 10)
    cv.dice.append(DieGlyph(d.where, d.value, 1, lower, lower))
    assert any("crosses the edge of player p1" in s for s in spills(cv))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players,style", [(2, "iso"), (3, "iso"), (3, "flat")])
def test_every_installations_title_is_drawn_whole_on_its_card(lang: str, players: int, style: str) -> None:
    """Each installation's title on a card on offer as wide as the table gives it: all its
    words, inside the card, clear of the points."""
    from render.canvas import Canvas
    from render.cardparts import offer_title
    from render.tableview import TABLE_UNIT, pad, text_size

    game = busy_late_game(5, players=players)
    table = render.table_canvas(game, DEMO_NAMES[:players], labels=LABELS[lang], style=style)
    rect = next(b.rect for b in table.boxes if b.kind == "panel" and b.name == "offer 1")
    u = TABLE_UNIT
    for card in game.deck.installations:
        cv = Canvas(rect[2] + 10, rect[3] + 10, (255, 255, 255))
        offer_title(cv.within("offer"), card, rect, pad(u) // 2 + 2, u, text_size(u), LABELS[lang])
        points, *lines = [b for b in cv.boxes if b.kind == "text"]
        title = LABELS[lang].installation(card)
        said = " ".join(b.name for b in lines).replace("- ", "")  # a long word broken with a hyphen
        assert said == title, f"{title!r} drawn as {[b.name for b in lines]}"
        for b in lines:
            assert _inside(b.rect, rect) and not _overlap(b.rect, points.rect), f"{title!r}: {b.name!r} {b.rect}"


@pytest.mark.parametrize("style", ["iso", "flat"])
@pytest.mark.parametrize("players,seed", [(2, 8), (3, 5), (4, 3)])
def test_whose_turn_and_the_winner_are_said_in_full_beside_the_points(style: str, players: int, seed: int) -> None:
    """ "▶ to play" (mid-game) and "★ winner" (at the end) are never cut in a player's band."""
    for game in (play(players, seed, turns=6), play(players, seed)):
        for lang in ("en", "fr"):
            labels = LABELS[lang]
            cv = render.table_canvas(game, DEMO_NAMES[:players], labels=labels, style=style)
            tags = {labels.text("to_play"), labels.text("winner")}
            said = [b.name for b in cv.boxes if b.kind == "text" and b.parent.startswith("player")]
            assert tags & set(said), f"{players}p {lang} {style}: no tag among {said}"
            assert not [t for t in said if t.endswith("…") and t.rstrip("…") and t[0] in "▶★"], said
