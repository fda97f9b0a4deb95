"""The message catalogues: complete in both languages, same placeholders, every key used
in the code present and every key present used, one feature a file, every command
description translated, card names per the rulebook."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import render
from bot.chat.translator import CubistTranslator, translation_key
from bot.i18n import Message, card_name, join, language, localize, t
from bot.i18n.catalog import CatalogueError, catalogues, compare, languages, parse_catalogue, placeholders
from bot.i18n.pictures import render_labels
from engine import Game
from engine.cards import ARTIST_NAMES, ArtistKind, load_deck

ROOT = Path(__file__).resolve().parents[2]
EN, FR = catalogues()["en"], catalogues()["fr"]


# --- the catalogues themselves ----------------------------------------------------------------


def test_every_key_is_in_both_languages_with_the_same_placeholders() -> None:
    assert set(EN) == set(FR)
    for key in EN:
        assert placeholders(EN[key]) == placeholders(FR[key]), key
        assert isinstance(EN[key], str) == isinstance(FR[key], str), key
    assert compare(EN, FR, "fr.json") == []


def test_the_check_names_missing_keys_and_placeholder_mismatches() -> None:
    en = parse_catalogue({"a": "x {n}", "b": {"c": "y"}, "p": {"one": "{count} die", "other": "{count} dice"}}, "en")
    fr = parse_catalogue({"a": "x {m}", "p": "{count} dés"}, "fr")
    problems = compare(en, fr, "fr.json")
    assert any("missing b.c" in p for p in problems)
    assert any("a: placeholders ['m'] differ" in p for p in problems)
    assert any("p: plural forms in one language only" in p for p in problems)
    with pytest.raises(CatalogueError):
        parse_catalogue({"a": "unclosed {n"}, "x")
    with pytest.raises(CatalogueError):
        parse_catalogue({"a": "positional {}"}, "x")
    with pytest.raises(CatalogueError):
        parse_catalogue({"a": 3}, "x")


def _python_files() -> list[Path]:
    return sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "render").rglob("*.py"))


KEY_CALL = re.compile(r"""\b(?:t|Message)\(\s*(f?)(["'])([a-z_][\w .()-]*?)\2""")


def test_every_key_used_in_the_code_exists() -> None:
    """Literal keys in ``t("...")`` / ``Message("...")`` must exist; for f-string keys the
    literal part before the first brace must start some key."""
    used = 0
    for path in _python_files():
        for m in KEY_CALL.finditer(path.read_text(encoding="utf-8")):
            is_f, key = m.group(1), m.group(3)
            used += 1
            if is_f and "{" in key:
                prefix = key.split("{")[0]
                assert any(k.startswith(prefix) for k in EN), f"{path.name}: no key starts with {prefix!r}"
            else:
                assert key in EN, f"{path.name}: unknown message key {key!r}"
    assert used > 50  # the scan does find the calls


# A string in the code: a key ("lobby.full"), or the fixed start of keys made at run time
# (f"seats.level.{level}", key.startswith("pictures.")).
CODE_STRING = re.compile(r"""(?<![\w])(f?)(["'])([a-z_][\w.]*)(\{?)""")


def test_every_key_in_the_catalogues_is_used_in_the_code() -> None:
    """A key is used when the code names it, or names the group it is made in at run time
    (a group has a dot: ``seats.level.``, ``votes.votes_``).  The glossary is the translators'
    word list, which test_glossary.py holds every message to."""
    keys: set[str] = set()
    groups = {"glossary."}
    for path in _python_files():
        for m in CODE_STRING.finditer(path.read_text(encoding="utf-8")):
            is_f, text, brace = m.group(1), m.group(3), m.group(4)
            if (is_f and brace) or text.endswith("."):
                if "." in text:
                    groups.add(text)
            else:
                keys.add(text)
    unused = [k for k in EN if k not in keys and not k.startswith(tuple(groups))]
    assert not unused, f"{len(unused)} catalogue keys no code uses: " + ", ".join(unused[:20])


def test_each_catalogue_file_holds_one_feature() -> None:
    """``<language>.<feature>.json`` holds the keys ``<feature>.*`` and ``<language>.json`` the
    shared ``common.*``; English and French have the same files."""
    folder = ROOT / "bot" / "i18n" / "locales"
    names = {lang: sorted(p.name.removeprefix(lang) for p in folder.glob(f"{lang}.*json")) for lang in ("en", "fr")}
    assert names["en"] == names["fr"] and len(names["en"]) > 10
    for path in folder.glob("*.json"):
        area = path.name.split(".")[1] if path.name.count(".") == 2 else "common"
        part = parse_catalogue(json.loads(path.read_text(encoding="utf-8")), path.name)
        assert part and all(key.startswith(f"{area}.") for key in part), path.name


def test_unknown_keys_raise_in_tests() -> None:
    with pytest.raises(KeyError):
        t("no.such.key", "fr")


def test_language_choice() -> None:
    assert language("fr") == language(discord.Locale.french) == language("fr-CA") == "fr"
    for other in ("en-US", "en-GB", discord.Locale.german, "pt-BR", None, "", 42):
        assert language(other) == "en"
    assert languages() == ("en", "fr")


def test_placeholders_plurals_and_lazy_messages() -> None:
    assert t("pictures.die_count", "en", count=1) == "1 die"
    assert t("pictures.die_count", "en", count=0) == "0 dice"
    assert t("pictures.die_count", "fr", count=0) == "0 dé"  # French: 0 and 1 are singular
    assert t("pictures.die_count", "fr", count=2) == "2 dés"
    msg = Message("lobby.full", max=3)
    assert str(msg) == "The table is full (3 players)." == localize(msg, "de")
    assert localize(msg, discord.Locale.french) == "La table est complète (3 joueurs)."
    assert localize("plain text", "fr") == "plain text"
    nested = Message("lobby.cannot_join", reason=Message("pictures.nothing"))
    assert nested.render("fr") == "Vous ne pouvez pas rejoindre la partie : rien."
    # What the service says when the store refuses a seat: the reason is words of the
    # catalogue too, never the store's English.
    refused = Message("lobby.cannot_join", reason=Message("lobby.join_changed"))
    assert refused.render("fr").startswith("Vous ne pouvez pas rejoindre la partie : la table a changé")
    assert refused.render("en").startswith("You cannot join: the lobby changed")
    assert join(["a", "b", "c"], "fr") == "a, b et c" and join(["a", "b"], "en") == "a and b"


def test_french_uses_the_rulebook_terms() -> None:
    """A few spot checks that the French speaks the French rulebook's language."""
    rulebook = Path("/work/shared/rules/cubist-rulebook-fr.txt")
    words = {"réserve": "rules.topic.turn", "entrepôt": "rules.topic.turn", "atelier": "rules.topic.installations"}
    for word, key in words.items():
        assert word in t(key, "fr")
        if rulebook.exists():
            assert word in rulebook.read_text(encoding="utf-8")
    assert "espace de stockage" in t("rules.topic.turn", "fr")
    assert "Vous" in t("panel.you_did", "fr", what="x") and " tu " not in " ".join(map(str, FR.values()))


# --- card names ----------------------------------------------------------------------------------


def test_english_card_names_match_the_engine_data() -> None:
    deck = load_deck()
    for card in deck.installations:
        assert card_name("installation", card, "en") == card.name == t(f"cards.installation.{card.id}", "en")
    for museum in deck.museums:
        assert card_name("museum", museum, "en") == museum.name == t(f"cards.museum.{museum.id}", "en")
    for artist in deck.artists:
        assert card_name("painting", artist, "en") == artist.title == t(f"cards.painting.{artist.id}", "en")
    for kind in ArtistKind:
        assert t(f"cards.artist.{kind}", "en") == ARTIST_NAMES[kind]


def test_french_card_names_follow_the_rulebook() -> None:
    deck = load_deck()
    for kind in ArtistKind:
        assert card_name("artist", kind, "fr") == ARTIST_NAMES[kind]  # the rulebook's spellings
    popova = next(c for c in deck.artists if c.title == "Spatial Force Construction")
    assert card_name("painting", popova, "fr") == "La Force de la Construction Spatiale"  # rulebook p. 4
    assert all(card_name("installation", c, "fr") != c.name for c in deck.installations)
    assert all(card_name("museum", c, "fr") != c.name for c in deck.museums)


def test_a_swapped_in_deck_keeps_its_own_names() -> None:
    deck = load_deck()
    card = deck.installations[0].model_copy(update={"name": "Our Own Plan"})
    assert card_name("installation", card, "fr") == "Our Own Plan"
    labels = render_labels("fr")
    assert labels.installation(card) == "Our Own Plan"
    assert labels.installation(deck.installations[0]) == t("cards.installation.1", "fr")


# --- pictures ---------------------------------------------------------------------------------------


def test_pictures_take_every_word_from_the_catalogue() -> None:
    """render has no words of its own: the labels are the catalogue's ``pictures.*`` messages,
    with the language's CLDR plural rule (French counts 0 as singular, English does not)."""
    for lang in languages():
        flat: dict[str, str] = {}
        for key, entry in catalogues()[lang].items():
            if key.startswith("pictures."):
                name = key.removeprefix("pictures.")
                if isinstance(entry, str):
                    flat[name] = entry
                else:
                    flat.update({f"{name}.{form}": text for form, text in entry.items()})
        assert dict(render_labels(lang).texts) == flat, lang
    assert render_labels("en").count("dice", 0) == "0 dice" and render_labels("en").count("dice", 1) == "1 die"
    assert render_labels("fr").count("dice", 0) == "0 dé" and render_labels("fr").count("dice", 2) == "2 dés"


def test_french_pictures_draw_french_words() -> None:
    game = Game.new(players=2, seed=5)
    boxes = render.table_canvas(game, ["Ada", "Bo"], labels=render_labels("fr")).boxes
    texts = " ".join(b.name for b in boxes if b.kind == "text")
    assert "réserve" in texts and "entrepôt" in texts and "Musée" in texts
    assert "supply" not in texts and "storeroom" not in texts
    boxes = render.table_canvas(game, ["Ada", "Bo"], labels=render_labels("en")).boxes
    english = " ".join(b.name for b in boxes if b.kind == "text")
    assert "supply" in english and "réserve" not in english


# --- slash command descriptions ------------------------------------------------------------------


async def _tree() -> app_commands.CommandTree:
    from bot.client import CubistBot
    from bot.cog import CubistCog

    bot = CubistBot(Path(tempfile.mkdtemp()) / "unused.db")
    await bot.add_cog(CubistCog(bot))
    return bot.tree


def _strings(tree: app_commands.CommandTree) -> list[tuple[str | None, str, Where]]:
    out: list[tuple[str | None, str, Where]] = []

    def walk(node: app_commands.Command | app_commands.Group) -> None:
        if isinstance(node, app_commands.Group):
            out.append(
                (
                    translation_key(node.description, Where.group_description, node),
                    node.description,
                    Where.group_description,
                )
            )
            for child in node.commands:
                walk(child)
            return
        out.append(
            (
                translation_key(node.description, Where.command_description, node),
                node.description,
                Where.command_description,
            )
        )
        for p in node.parameters:
            out.append(
                (
                    translation_key(p.description, Where.parameter_description, p),
                    p.description,
                    Where.parameter_description,
                )
            )
            for choice in p.choices:
                out.append((translation_key(choice.name, Where.choice_name, choice), choice.name, Where.choice_name))

    for command in tree.get_commands():
        walk(command)  # type: ignore[arg-type]
    return out


async def test_every_command_option_and_choice_has_a_french_translation() -> None:
    strings = _strings(await _tree())
    assert len(strings) > 40
    missing = [f"{key} ({text!r})" for key, text, _w in strings if key not in EN]
    assert not missing, "add these to bot/i18n/locales/en.commands.json and fr.commands.json: " + ", ".join(missing)
    unused = {k for k in EN if k.startswith("commands.")} - {key for key, _t, _w in strings}
    assert not unused, f"no command has these strings: {sorted(unused)}"
    for key, text, where in strings:
        assert key is not None
        # The English catalogue mirrors the decorators: a changed description needs a new translation.
        assert t(key, "en") == text, f"{key}: the command says {text!r}; update en.commands.json and fr.commands.json"
        french = t(key, "fr")
        assert 1 <= len(french) <= 100, f"{key}: Discord allows 1-100 characters ({len(french)})"
        if where is not Where.choice_name:
            assert french != text, f"{key} is not translated"


async def test_the_translator_answers_french_only_and_keeps_names() -> None:
    tree = await _tree()
    translator = CubistTranslator()
    await tree.set_translator(translator)
    group = tree.get_commands()[0]
    payload = await group.get_translated_payload(tree, translator)  # type: ignore[union-attr]
    assert payload["name"] == "cubist" and not payload.get("name_localizations")
    assert payload["description_localizations"] == {"fr": t("commands.cubist.description", "fr")}
    lobby = next(o for o in payload["options"] if o["name"] == "lobby")
    assert lobby["description_localizations"]["fr"] == t("commands.cubist.lobby.description", "fr")
    new = next(o for o in lobby["options"] if o["name"] == "new")
    assert new["description_localizations"]["fr"] == t("commands.cubist.lobby.new.description", "fr")
    players = next(o for o in new["options"] if o["name"] == "players")
    assert players["description_localizations"]["fr"] == t("commands.cubist.lobby.new.option.players", "fr")
    rules = next(o for o in payload["options"] if o["name"] == "rules")
    topic = rules["options"][0]
    turn = next(c for c in topic["choices"] if c["value"] == "turn")
    assert turn["name"] == "turn" and turn["name_localizations"] == {"fr": "tour"}
    assert translator.missing == set()


def test_a_hint_reads_the_same_in_english_and_is_translated_to_french() -> None:
    from bot.i18n.rules import reasons_text
    from bot.turn.computer import advise
    from engine import Game
    from engine.players import GreedyPlayer

    game, greedy = Game.new(2, seed=8), GreedyPlayer(3)
    seen_card = False
    for _ in range(120):  # hints along a whole game: every kind of reason gets a chance
        if game.is_over:
            break
        if game.has_rolled() and not game.state.this_turn.plays:
            _moves, found = advise(game, 1)
            english, french = reasons_text(found, "en"), reasons_text(found, "fr")
            assert english and not any(f"{r.key}(" in english for r in found)  # words, not the engine's keys
            # ... and no move notation: "workroom 1", not "w1"; "uses Malevich", not "use 3 6"
            assert not re.search(r"\bw[12]\b|\buse \d|#\d", english + french), english
            assert french and french != english
            seen_card = seen_card or " toward '" in english or "completes '" in english  # a card by its title
        game.apply(greedy.choose(game))
    assert seen_card


def test_refusals_are_said_in_english_and_french_from_the_catalogues() -> None:
    from bot.i18n.rules import error_message
    from tests.engine.test_rule_texts import refusals

    for error in refusals():
        message = error_message(error)
        assert isinstance(message, Message) and message.key == f"rules.refusal.{error.key}"
        english, french = message.render("en"), message.render("fr")
        assert english and french and french != english, english
        assert f"{error.key}(" not in english and "_" not in english, english  # words, not keys


def test_quiet_hours_off_words_come_from_every_catalogue() -> None:
    from bot.cog import parse_reminder_options
    from bot.i18n import words_in_any_language

    off = words_in_any_language("settings.quiet_off_words")
    assert {"off", "none", "non", "aucune"} <= off
    for word in ("off", "Aucune", " non "):
        changes = parse_reminder_options(None, None, word, None)
        assert changes["quiet_start"] is None and changes["quiet_end"] is None, word
    assert parse_reminder_options(None, None, "22-7", None)["quiet_start"] == 22 * 60


def test_no_function_defaults_the_language() -> None:
    """Wherever text or pictures are made the language is a required argument: a default
    (English) is how pictures once came out in English for French readers."""
    import ast

    found = []
    for path in _python_files() + sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            with_default = positional[len(positional) - len(args.defaults) :]
            with_default += [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
            found += [f"{path.name}: {node.name}({a.arg}=...)" for a in with_default if a.arg in LANGUAGE_ARGS]
    assert not found, found


LANGUAGE_ARGS = {"lang", "locale", "headline_lang", "reader"}


def test_plural_forms_are_checked_against_the_language_s_cldr_rule() -> None:
    en = parse_catalogue({"p": {"one": "{count} die", "other": "{count} dice"}}, "en")
    russian = parse_catalogue({"p": {"one": "{count} кубик", "other": "{count} кубика"}}, "ru")
    assert compare(en, russian, "ru.json") == ["ru.json: p: no few, many form"]
    complete = {"one": "{count} кубик", "few": "{count} кубика", "many": "{count} кубиков", "other": "{count} кубика"}
    assert compare(en, parse_catalogue({"p": complete}, "ru"), "ru.json") == []
    # "other" is every language's form: without it these are two messages, which the
    # comparison with English then names.
    no_other = parse_catalogue({"p": {"one": "{count} кубик", "few": "{count} кубика"}}, "ru")
    assert set(no_other) == {"p.one", "p.few"} and "ru.json: missing p" in compare(en, no_other, "ru.json")


def test_times_of_day_are_written_as_each_language_writes_them() -> None:
    from bot.i18n import time_of_day

    assert time_of_day(22 * 60, "en") == "22:00" == time_of_day(22 * 60, "fr")
    assert time_of_day(7 * 60 + 5, discord.Locale.french) == "07:05"
