"""French as a French speaker writes it (issue 27 item 6): no "de le", "à le", "de les", "à
les" anywhere a player reads, whatever the values, and plurals by CLDR's rule instead of
"(s)".  Checked on every catalogue string filled with each class of value the code passes,
and on the words the bot builds over whole games (the panel's menu, the turns told, hints)."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import t
from bot.i18n.catalog import catalogues
from bot.panel import choice_tree, leaves
from bot.words.story import turn_words
from engine import Game
from engine.history import replay
from engine.players import GreedyPlayer

CONTRACTION = re.compile(
    r"\b(de|à) (le|les)\b|\bles l'|\b(terminer|abandonner|terminez|abandonnez|terminé|abandonné) atelier\b",
    re.IGNORECASE,
)
PLURAL_BY_HAND = re.compile(r"\w\(s\)|\(nt\)")
# What a placeholder may hold, by class: names, numbers, and the phrases the code builds
# with an article (a die "le 4", dice "les 3", a workroom "l'atelier 1", an artist).


# The classes of value the code passes, by placeholder: phrases with an article where the code
# builds them ("le 4", "du 3", "à l'intervalle de la table"), plain names and numbers elsewhere.
PLAIN = ("Ada", "3", "Malevich", "atelier 1")
CLASSES = {
    "die": (t("panel.the", "fr", value=4), t("panel.card_die", "fr", value=4, card=1), "un 4"),
    "values": (t("panel.beside", "fr", value=3), "du 3 et du 5"),
    "dice": ("deux 3", "un 4"),
    "every": (t("reminders.table_interval", "fr"), t("reminders.hours", "fr", hours=12)),
}


def renderings(text: str) -> list[str]:
    """``text`` filled with every class of value each of its placeholders may hold."""
    names = sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})
    out = [text.format(**dict.fromkeys(names, value)) for value in PLAIN]
    for name in names:
        for value in CLASSES.get(name, ()):
            out.append(text.format(**{n: (value if n == name else "Ada") for n in names}))
    return out


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_plural_by_hand(lang: str) -> None:
    bad = {k: v for k, v in catalogues()[lang].items() if PLURAL_BY_HAND.search(str(v))}
    assert not bad, bad


def test_no_contraction_left_undone_in_any_catalogue_string() -> None:
    """The literal text never writes "de le"; a placeholder behind "de"/"à" never receives a
    phrase that starts with an article (those are built contracted: "du 4", "au 4")."""
    bad = []
    for key, entry in catalogues()["fr"].items():
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            bad += [(key, shown) for shown in renderings(text) if CONTRACTION.search(shown)]
    assert not bad, bad


def test_the_words_built_over_whole_games_read_as_french() -> None:
    seen = 0
    for seed in (3, 8):
        game = Game.new(3, seed)
        players = [GreedyPlayer(seed + i) for i in range(3)]
        while not game.is_over and len(game.log) < 260:
            for _path, leaf in leaves(choice_tree(game, "fr", ["Ada", "Bruno", "Chloé"])):
                assert not CONTRACTION.search(leaf.label), leaf.label
                seen += 1
            game.apply(players[game.current_player].choose(game))
        # Every finished turn, told as done and as a suggestion.
        for step, _after in replay(game):
            if step.record is not None:
                for suggest in (False, True):
                    told = turn_words(step.record, game.deck, "fr", ["Ada", "Bruno", "Chloé"], suggest=suggest)
                    assert not CONTRACTION.search(told), told
    assert seen > 1000
