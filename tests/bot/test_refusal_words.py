"""The service refuses with facts (``bot.service.refusals``); ``bot.refusal_words`` says each
kind of refusal in words, English and French, from one table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Message
from bot.i18n.catalog import catalogues, placeholders
from bot.refusal_words import WORDS, possible, refusal_message, said
from bot.service.refusals import Refusal, Refused, StaleChoice, UserError
from engine import Game, IllegalMove, MoveSyntaxError, parse_move
from engine.players import LEVELS


def _engine_refusal(text: str) -> IllegalMove | MoveSyntaxError:
    try:
        Game.new(players=2, seed=5).apply(parse_move(text))
    except (IllegalMove, MoveSyntaxError) as e:
        return e
    raise AssertionError(f"{text!r} was allowed")


SAMPLES: dict[str, Any] = {
    "threads": (111, 222),
    "count": 3,
    "game": 7,
    "computers": 4,
    "max": 4,
    "most": 3,
    "level": "expert",
    "levels": LEVELS,
    "players": 4,
    "seconds": 5,
    "name": "Ada",
    "text": "complete 1 w1",
    "move": "release",
    "legal": ("end", "release"),
    "turn": 3,
    "choice": "maybe",
    "style": "sideways",
}


def _facts(refusal: Refusal) -> dict[str, Any]:
    facts = {name: SAMPLES[name] for name in refusal.facts if name != "reason"}
    if "reason" in refusal.facts:
        facts["reason"] = _engine_refusal("complete 1 w1" if refusal is Refusal.NOT_A_MOVE else "release")
    return facts


@pytest.mark.parametrize("refusal", list(Refusal), ids=lambda r: r.name)
def test_every_refusal_has_words_in_english_and_french(refusal: Refusal) -> None:
    message = said(Refused(refusal, **_facts(refusal)))
    assert isinstance(message, Message) and message.key == WORDS[refusal]
    for lang in ("en", "fr"):
        entry = catalogues()[lang][message.key]
        chooses_form = set() if isinstance(entry, str) else {"count"}  # a plural's count need not be shown
        shown = placeholders(entry)
        assert shown <= set(message.params) and set(message.params) - shown <= chooses_form, (lang, refusal.name)
        text = message.render(lang)
        assert text and "{" not in text and "Refusal" not in text, text


def test_the_facts_are_said_in_the_reader_s_language() -> None:
    full = Refused(Refusal.FULL, max=4)
    assert said(full).render("en") == "The table is full (4 players)." == str(said(full))
    assert said(full).render("fr").startswith("La table est complète")
    threads = said(Refused(Refusal.NO_GAME_HERE_BUT_THREADS, threads=(111, 222))).render("en")
    assert "<#111>, <#222>" in threads
    illegal = refusal_message(Refusal.ILLEGAL, _facts(Refusal.ILLEGAL)).render("fr")
    assert illegal.startswith("`release`") and "`end`, `release`" in illegal and "no_pool" not in illegal
    joining = said(Refused(Refusal.JOIN_CHANGED)).render("en")
    assert joining.startswith("You cannot join: the lobby changed")


def test_a_long_list_of_legal_moves_names_the_first_eight() -> None:
    legal = [f"place {v} w1 c{i}" for v in range(1, 4) for i in range(1, 5)]
    text = possible(legal).render("en")
    assert text.count("`place") == 8 and "and 4 more" in text
    assert possible([]).render("en") == Message("turn.no_move").render("en")


def test_a_refusal_takes_exactly_its_facts() -> None:
    with pytest.raises(TypeError):
        Refused(Refusal.FULL)
    with pytest.raises(TypeError):
        Refused(Refusal.NO_GAME, game=3)
    stale = StaleChoice(Refusal.STALE_CHOICE)
    assert isinstance(stale, UserError) and str(stale) == "STALE_CHOICE"
    assert str(Refused(Refusal.FULL, max=4)) == "FULL {'max': 4}"  # the log's line


def test_the_discord_side_s_own_words_pass_through() -> None:
    chosen = Message("look.not_playing", name="Bo")
    assert said(UserError(chosen)) is chosen
    assert said(UserError("plain text")) == "plain text"


def test_every_answer_to_a_refusal_goes_through_said() -> None:
    """A caught UserError is answered with ``said(e)``: its ``args`` hold a refusal's kind and
    facts, which are no words for a player."""
    root = Path(__file__).resolve().parents[2] / "bot"
    caught = re.compile(r"except [^\n:]*\bUserError\b[^\n:]* as (\w+):\n((?:[ \t]+[^\n]*\n){1,8})")
    found = 0
    for path in sorted(root.rglob("*.py")):
        for m in caught.finditer(path.read_text(encoding="utf-8")):
            found += 1
            assert f"{m.group(1)}.args" not in m.group(2), f"{path.name}: answer with said({m.group(1)})"
    assert found >= 8  # the scan sees the handlers
