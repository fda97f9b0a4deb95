"""Every word in every picture comes from the labels (the reader's catalogue), and the
header says what happened in plain words, never in move notation."""

from __future__ import annotations

import re

import pytest

import render
from bot.i18n.catalog import catalogues
from bot.i18n.pictures import render_labels
from engine import ArtistKind, Game
from render.canvas import Canvas
from render.demo import DEMO_NAMES, busy_late_game, play
from render.labels import Labels
from render.words import last_turn_line

# Texts that are not words: the game's names for things (p1, w1, #7, i1 +3, cells), numbers, arrows ("→ ①").
NOT_WORDS = re.compile(r"^[→×\sa-h0-9#+/↑–·.pwi\u2460-\u2473-]*$")  # codes, numbers, circled numbers: no words
EN = render_labels("en")
ENGLISH = dict(EN.texts)


def marked(game: Game) -> Labels:
    """Labels whose every message and card name is wrapped in ⟨ ⟩."""
    names = [(f"artist:{k}", f"⟨{k}⟩") for k in ArtistKind] + [(f"artist_short:{k}", f"⟨{k}⟩") for k in ArtistKind]
    names += [(f"installation:{c.name}", f"⟨{c.id}⟩") for c in game.deck.installations]
    names += [(f"museum:{m.name}", f"⟨{m.id}⟩") for m in game.deck.museums]
    return Labels(tuple((k, f"⟨{v}⟩") for k, v in ENGLISH.items()), EN.plural, tuple(names))


def canvases(game: Game, labels: Labels) -> list[Canvas]:
    names = DEMO_NAMES[: game.num_players]
    out = [render.table_canvas(game, names, labels=labels), render.museum_canvas(game, labels=labels)]
    out += [render.studio_canvas(game, seat, names, labels=labels) for seat in range(game.num_players)]
    return out


@pytest.mark.parametrize("game", [play(2, 8), play(3, 5, turns=18), busy_late_game()], ids=["over", "3p", "4p"])
def test_every_text_drawn_comes_from_the_labels(game: Game) -> None:
    labels = marked(game)
    allowed = {"Cubist", *DEMO_NAMES, *(n.split()[0] for n in DEMO_NAMES)}
    seen = 0
    for cv in canvases(game, labels):
        within = ""  # the parent of a wrapped message whose closing mark is still to come
        for box in cv.boxes:
            if box.kind != "text":
                continue
            seen += 1  # (a wrapped message: its first line carries the opening mark, its last the closing)
            text = box.name
            middle = within == box.parent and "⟨" not in text and "⟩" not in text
            within = box.parent if text.count("⟨") > text.count("⟩") or middle else ""
            ok = middle or "⟨" in text or "⟩" in text or NOT_WORDS.match(text) or text in allowed
            ok = ok or text.startswith("Bartholomew")
            assert ok, f"{text!r} is drawn but comes from no catalogue message"
    assert seen > 60


def test_french_catalogue_covers_every_picture_word() -> None:
    fr = catalogues()["fr"]
    for key in ENGLISH:
        base = key.rsplit(".", 1)[0] if key.endswith((".one", ".other")) else key
        assert f"pictures.{base}" in fr, f"pictures.{base} has no French message"
    labels = render_labels("fr")
    assert labels.text("first_turn") != ENGLISH["first_turn"]


def test_header_uses_plain_words_not_notation() -> None:
    game = play(3, 5, turns=18)
    line = last_turn_line(game, DEMO_NAMES, EN)
    assert line.startswith("Last turn: ")
    assert not re.search(r"\b(place|w\d|[a-f]\d|end)\b", line), line
    fr = last_turn_line(game, DEMO_NAMES, render_labels("fr"))
    assert fr.startswith("Dernier tour ") and ("atelier" in fr or "artiste" in fr)


def test_names_are_shortened_at_word_boundaries_never_inside_a_parenthesis() -> None:
    """Issue 26 item 3: "Computer 1 (greedy)" is cut to "Computer 1", never "Computer 1 (." or
    "Computer 1. (."; long names lose later words to initials, then to "…"."""
    from render.fonts import font
    from render.names import _initials, fit_name, plain_name, short_names

    assert plain_name("Computer 1 (greedy)") == "Computer 1"
    assert _initials("Computer 1 (greedy)") == "Computer 1"
    assert short_names("Bartholomew the Magnificent") == ["Bartholomew t. M."]
    for name in ("Computer 1 (greedy)", "Ordinateur 2 (fort)", "Bartholomew the Magnificent Third"):
        for width in (60, 90, 120, 160):
            shown, _f = fit_name(name, font(20, bold=True), width)
            assert shown.count("(") == shown.count(")"), shown
            assert not shown.endswith((" (", "(.", ". (.")), shown


@pytest.mark.parametrize(
    "lang,names",
    [
        ("en", ["Computer 1 (greedy)", "Ada", "Computer 2 (greedy)", "Bruno"]),
        ("fr", ["Ordinateur 1 (glouton)", "Ada", "Ordinateur 2 (glouton)", "Bruno"]),
    ],
)
def test_the_headers_last_turn_names_the_seat_that_played_as_the_posts_do(lang: str, names: list[str]) -> None:
    """Two computers are "Computer 1" and "Computer 2" in the header's last-turn dice, never
    "Computer:" for both; a long name is shortened on purpose (initials) or left out where
    the dice need the room, never cut."""
    from engine.players import GreedyPlayer
    from render.names import _initials, plain_name

    game = Game.new(players=4, seed=3)
    bots = [GreedyPlayer(30 + i) for i in range(4)]
    labels = render_labels(lang)
    seen: set[str] = set()
    for _turn in range(12):
        seat, turn = game.current_player, game.state.turn
        while game.state.turn == turn:
            game.apply(bots[game.current_player].choose(game))
        cv = render.table_canvas(game, names, labels=labels)
        said = [b.name for b in cv.boxes if b.kind == "text" and b.parent == "header" and b.name.endswith(":")]
        if not cv.recap:
            continue
        # The name, shortened on purpose, or left out where the dice need the room.
        whole, initials = (labels.text("recap_who", who=n) for n in (plain_name(names[seat]), _initials(names[seat])))
        assert said in ([], [whole], [initials]), (seat, said)
        seen.update(said)
    assert {labels.text("recap_who", who=plain_name(names[k])) for k in (0, 2)} <= seen, seen
    # French sets a space before the colon, English none.
    assert all(s.endswith(" :") == (lang == "fr") for s in seen), seen
