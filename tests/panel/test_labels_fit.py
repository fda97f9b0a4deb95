"""Labels written to fit: every option of the turn panel (any of which may be shown as a
button, 80 characters on Discord) fits in full or in its short form, chosen on purpose, over
whole self-play games at 2, 3 and 4 players in both languages with 32-character names: none
is cut, and the "More: first … last" options end their halves between words."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from bot.i18n import t
from bot.panel import choice_tree
from bot.panel.tree import FIT, Choice
from bot.panel.words import Describer
from engine import Game
from engine.moves import DieRef
from engine.players import GreedyPlayer

NAMES = {  # 32 characters each, a computer player's among them
    "en": ["Bartholomew Fitzgerald-Ashworths", "Computer 1 (greedy)", "Anastasia Papadopoulou-Brightwel", "Zoë"],
    "fr": ["Bartholomew Fitzgerald-Ashworths", "Ordinateur 1 (glouton)", "Anastasia Papadopoulou-Brightwel", "Zoë"],
}


def _walk(options: Sequence[Choice]) -> Iterator[Choice]:
    for c in options:
        yield c
        yield from _walk(c.children)


def _labels(game: Game, lang: str, names: list[str]) -> Iterator[tuple[str, Choice | None]]:
    """Every label the panel can show now: every option at every pick, every die's button."""
    for c in _walk(choice_tree(game, lang, names)):
        yield c.label, c
    describe = Describer(game, lang, names)
    for value in sorted(set(game.state.players[game.current_player].storeroom)):
        yield t("panel.btn.place", lang, die=describe.die(DieRef.storeroom(value))), None


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_no_panel_label_is_cut(players: int, seed: int, lang: str) -> None:
    names = NAMES[lang][:players]
    assert all(len(n) == 32 for n in names if n != names[1] and n != "Zoë")
    own = {t("panel.end_choose", lang), t("panel.end_others", lang)}  # "End the turn…": a menu
    more = t("panel.more", lang, first="", last="").split("…")[0].strip()
    game = Game.new(players, seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    seen = 0
    while not game.is_over and len(game.log) < 300:
        for label, choice in _labels(game, lang, names):
            seen += 1
            assert len(label) <= FIT, label
            if choice is not None and label.startswith(more) and choice.children:
                first = label.removeprefix(more).strip().split(" … ")[0].removesuffix("…")
                head = choice.children[0].label
                assert head.startswith(first) and (len(first) == len(head) or head[len(first)] in " ,;:→("), label
            else:
                assert not label.endswith("…") or label in own, f"cut: {label!r}"
        game.apply(bots[game.current_player].choose(game))
    assert seen > 1000
