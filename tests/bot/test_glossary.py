"""One vocabulary (issue 27 item 5): the catalogues keep a glossary of the game's words, as the
rulebooks name them, and every string a player reads uses them: the storage space is never
"storage" alone (nor "stockage"), and no seat, workroom or player code (p1, w1, j1) appears
outside the texts that teach the move notation of /cubist move."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import t
from bot.i18n.catalog import catalogues

# The glossary's words the rulebooks use (the others, "bonus die" and "turn panel", are ours).
RULEBOOK_TERMS = ("workroom", "storeroom", "storage", "supply", "studio", "museum", "artist", "installation")
# Texts about the notation itself: /cubist move's help, its refusals, command descriptions.
NOTATION_KEYS = ("rules.", "commands.")
CODE = re.compile(r"\b[pwj][1-4]\b")
WRONG = {
    "en": re.compile(r"\bstorage\b(?! space)|\bwork room\b|\bstore room\b", re.IGNORECASE),
    "fr": re.compile(r"(?<!espace de )\bstockage\b|\bmagasin\b", re.IGNORECASE),
}


def strings(lang: str) -> list[tuple[str, str]]:
    """Every catalogue string, its placeholders' names taken out ("{storage}" is no word)."""
    out = []
    for key, entry in catalogues()[lang].items():
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            out.append((key, re.sub(r"\{[^}]*\}", "", str(text))))
    return out


def test_both_languages_keep_the_same_glossary() -> None:
    en = {k for k in catalogues()["en"] if k.startswith("glossary.")}
    fr = {k for k in catalogues()["fr"] if k.startswith("glossary.")}
    assert en == fr and len(en) >= 8


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_glossary_word_is_the_rulebooks_and_is_used(lang: str) -> None:
    from pathlib import Path

    book = Path(__file__).resolve().parents[3] / "shared" / "rules" / f"cubist-rulebook-{lang}.txt"
    text = book.read_text(encoding="utf-8").lower() if book.exists() else ""
    used = " ".join(t for k, t in strings(lang) if not k.startswith("glossary.")).lower()
    for key, term in strings(lang):
        if not key.startswith("glossary.") or key.removeprefix("glossary.") not in RULEBOOK_TERMS:
            continue
        head = term.lower().split()[-1] if key.endswith(("artist", "installation")) else term.lower()
        assert head in used, (key, term)
        if text:
            assert head in text, f"{key}: {term!r} is not the rulebook's word"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_other_word_for_a_glossary_thing_and_no_codes(lang: str) -> None:
    wrong = [(k, t) for k, t in strings(lang) if not k.startswith("glossary.") and WRONG[lang].search(t)]
    assert wrong == [], wrong
    codes = [(k, t) for k, t in strings(lang) if not k.startswith(NOTATION_KEYS) and CODE.search(t)]
    assert codes == [], codes


# Placeholders that hold a player's name, filled with names a player may have: one starting
# with a vowel, and a computer player's (its first word a common noun).
NAME_KEYS = ("name", "names", "who", "player", "seat", "winner", "voter", "away", "creator", "holder", "owner")
# Posts write names in bold ("**Ada**"): they elide as the plain names do.
REAL_NAMES = {
    "en": ("Ada", "Computer 1 (greedy)", "Émile", "**Ada**"),
    "fr": ("Ada", "Ordinateur 1 (glouton)", "Émile", "**Ada**", "**Ordinateur 1 (glouton)**"),
}
NOT_ELIDED = re.compile(r"\b(de|que|De|Que) \**[AEIOUYÉÈaeiouyéè]|\b(de|à|De|À) \**Ordinateur\b")
DOUBLED = re.compile(r"\b([^\W\d_]+) \1\b", re.IGNORECASE)


def filled(lang: str) -> list[tuple[str, str]]:
    """Every catalogue message as a player reads it: its names filled with real ones, every
    other value with a number, each plural form through its count."""
    out = []
    for key, entry in catalogues()[lang].items():
        templates = entry.values() if isinstance(entry, dict) else [entry]
        fields = {f for text in templates for _l, f, _s, _c in string.Formatter().parse(str(text)) if f}
        for who in REAL_NAMES[lang]:
            for count in (1, 2):
                values = {f: (who if f in NAME_KEYS else count) for f in fields}
                out.append((key, t(key, lang, **values)))
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_message_filled_with_real_names_reads_right(lang: str) -> None:
    """French elides where a name meets "de" ("d'Ada", "de l'Ordinateur 1"); no word is
    written twice in a row ("storage space space") in either language."""
    texts = filled(lang)
    assert len(texts) > 3000
    read = [(k, s) for k, s in texts if not k.startswith(NOTATION_KEYS)]  # notation: "DIE DIE", "de a1"
    if lang == "fr":
        assert [(k, s) for k, s in read if NOT_ELIDED.search(s)] == []
    assert [(k, s) for k, s in read if DOUBLED.search(s)] == []


# The rulebook's word in each language for what the English text names (the glossary): a
# French text says it too, and no other.
SAME_THING = (("studio", "studio"), ("storeroom", "entrepôt"), ("storage space", "espace de stockage"))


def test_french_names_the_same_things_as_english() -> None:
    en, fr = catalogues()["en"], catalogues()["fr"]

    def flat(entry: object) -> str:
        return " ".join(map(str, entry.values())) if isinstance(entry, dict) else str(entry)

    missing = [
        (key, word, flat(fr.get(key, "")))
        for key in en
        for word, mot in SAME_THING
        if word in flat(en[key]).lower() and mot not in flat(fr.get(key, "")).lower()
    ]
    assert missing == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rules_teach_the_game_in_words_and_keep_the_notation_to_its_topic(lang: str) -> None:
    """`/cubist rules`: only the topic about `/cubist move` shows move texts; the others
    name things as the game does, and the hints and `look cards` name cards by title."""
    from bot.words.texts import RULES_TOPIC_KEYS

    for topic in RULES_TOPIC_KEYS:
        text = t(f"rules.topic.{topic}", lang)
        if topic == "notation":
            assert "/cubist move" in text and "`place 4 w1 c3`" in text
        else:
            assert "`" not in text and "#" not in text and not CODE.search(text), (topic, text)
    for key in ("look.cards_installation", "hints.reason.complete", "hints.reason.toward"):
        entry = catalogues()[lang][key]
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            assert "#" not in str(text), (key, text)
