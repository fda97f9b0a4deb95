"""A new language is new catalogue files only: a German catalogue dropped into a folder of
catalogues is offered (``/cubist settings language``, Discord's German locale) and used, with
German plural rules and names of languages from CLDR, without a line of code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

import render
from bot.chat.translator import CubistTranslator
from bot.i18n import Message, language, language_choices, language_name, languages, t
from bot.i18n.catalog import LOCALES_VARIABLE, catalogues, use_locale_dirs
from bot.i18n.pictures import render_labels
from engine import Game

GERMAN = {
    "lobby.full": "Der Tisch ist voll ({max} Spieler).",
    "settings.language.set": "Ab jetzt schreibe ich die Spielbeiträge dieses Servers auf Deutsch.",
    "commands.cubist.description": "Cubist spielen, das Würfel-Bildhauer-Brettspiel.",
}
GERMAN_PICTURES = {  # an area file of its own (de.pictures.json), picked up like fr.stats.json
    "pictures.storeroom": "Lager",
    "pictures.museum": "Museum",
    "pictures.header": {
        "one": "Zug {turn} · {count} Installation im Stapel",
        "other": "Zug {turn} · {count} Installationen im Stapel",
    },
}


def nested(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, entry in flat.items():
        *groups, leaf = key.split(".")
        node = out
        for group in groups:
            node = node.setdefault(group, {})
        node[leaf] = entry
    return out


def write_german(folder: Path) -> None:
    """de.json (the English catalogue with a few German messages: the check wants every key)
    and de.pictures.json."""
    english = {key: entry if isinstance(entry, str) else dict(entry) for key, entry in catalogues()["en"].items()}
    main = {key: GERMAN.get(key, entry) for key, entry in english.items() if key not in GERMAN_PICTURES}
    (folder / "de.json").write_text(json.dumps(nested(main), ensure_ascii=False), encoding="utf-8")
    (folder / "de.pictures.json").write_text(json.dumps(nested(GERMAN_PICTURES), ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def german(tmp_path: Path) -> Iterator[Path]:
    write_german(tmp_path)
    use_locale_dirs([tmp_path])
    try:
        yield tmp_path
    finally:
        use_locale_dirs([])


def test_a_german_catalogue_is_offered(german: Path) -> None:
    assert languages() == ("en", "de", "fr")
    assert language(discord.Locale.german) == "de" and language("de-AT") == "de"
    assert ("de", "Deutsch") in language_choices()
    assert language_name("de", "fr") == "allemand" and language_name("de", "en") == "German"


def test_a_german_catalogue_is_used_with_german_plural_rules(german: Path) -> None:
    assert str(Message("lobby.full", max=3)) == "The table is full (3 players)."
    assert Message("lobby.full", max=3).render(discord.Locale.german) == "Der Tisch ist voll (3 Spieler)."
    # CLDR: German counts 0 as plural like English, French as singular.
    assert t("pictures.header", "de", turn=2, count=0) == "Zug 2 · 0 Installationen im Stapel"
    assert t("pictures.header", "de", turn=2, count=1) == "Zug 2 · 1 Installation im Stapel"
    assert t("pictures.header", "fr", turn=2, count=0).startswith("tour 2 · 0 installation ")
    labels = render_labels("de")
    assert labels.count("header", 0, turn=2) == "Zug 2 · 0 Installationen im Stapel"
    boxes = render.table_canvas(Game.new(players=2, seed=5), ["Ada", "Bo"], labels=labels).boxes
    texts = " ".join(b.name for b in boxes if b.kind == "text")
    assert "Lager" in texts and "Installationen im Stapel" in texts


async def test_german_command_descriptions_go_to_discord(german: Path) -> None:
    from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

    group = type("Group", (), {"qualified_name": "cubist"})()
    context: TranslationContext[Any, Any] = TranslationContext(TranslationContextLocation.group_description, group)
    said = await CubistTranslator().translate(locale_str("x"), discord.Locale.german, context)
    assert said == GERMAN["commands.cubist.description"]


def test_the_language_command_offers_the_catalogues_found() -> None:
    """``$CUBIST_LOCALES`` adds folders of catalogues: the slash command built in a fresh
    process offers German, named by CLDR, beside English and French."""
    with tempfile.TemporaryDirectory() as tmp:
        write_german(Path(tmp))
        code = (
            "import asyncio, tempfile, pathlib\n"
            "from bot.client import CubistBot\n"
            "from bot.cog import CubistCog\n"
            "async def main():\n"
            "    bot = CubistBot(pathlib.Path(tempfile.mkdtemp()) / 'unused.db')\n"
            "    await bot.add_cog(CubistCog(bot))\n"
            "    for group in bot.tree.get_commands():\n"
            "        for command in getattr(group, 'walk_commands', lambda: [])():\n"
            "            if command.name == 'language':\n"
            "                print([(c.name, c.value) for c in command.parameters[0].choices])\n"
            "asyncio.run(main())\n"
        )
        env = {**os.environ, LOCALES_VARIABLE: tmp}
        env.pop("PYTEST_CURRENT_TEST", None)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str([("English", "en"), ("Deutsch", "de"), ("Français", "fr")])
