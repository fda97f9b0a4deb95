"""One story of every turn: the channel post, the table picture's header and the web board's
caption tell each turn of whole self-play games alike (the same artists, installations, dice
and players, in the same order), and what they say is what the engine recorded when the
moves were played (the artist used, not the card that took its slot since)."""

from __future__ import annotations

import json
import re

import pytest

from bot.i18n import card_name
from bot.i18n.cards import artist_name
from bot.i18n.pictures import render_labels
from bot.web.view import story
from bot.words.story import turn_headline, turn_words
from engine import ArtistKind, Complete, Game, TurnRecord
from engine.players import GreedyPlayer
from engine.record import record_from_json, record_to_json
from render.words import last_turn_line

NAMES = ["Ada", "Bruno", "Chloé", "Dmitri"]


def _named(text: str, candidates: list[str]) -> list[str]:
    """The candidates ``text`` names, in the order it names them."""
    found = [(m.start(), c) for c in candidates for m in re.finditer(re.escape(c), text)]
    return [c for _at, c in sorted(found)]


def _facts(text: str, game: Game, lang: str, names: list[str]) -> tuple[list[str], list[str], list[str], list[str]]:
    artists = sorted({artist_name(k, lang, short=True) for k in ArtistKind}, key=len, reverse=True)
    installations = [card_name("installation", c, lang) for c in game.deck.installations]
    return (
        _named(text, artists),
        _named(text, installations),
        re.findall(r"\d+", text),
        _named(text, names),
    )


def _told(turn: TurnRecord, game: Game, lang: str, names: list[str]) -> dict[str, str]:
    """The turn as the post, the picture's header and the web board's caption tell it, each
    with the frame around the story taken off (who played it, "Last turn")."""
    stored = record_from_json(json.loads(json.dumps(record_to_json(turn))))  # as the outbox keeps it
    post = turn_headline(turn.seat, stored, game.deck, names, lang)
    header = last_turn_line(game, names, render_labels(lang))
    caption = story(game, names, lang)
    return {
        "post": post.split(f"**{names[turn.seat]}**", 1)[1],
        "picture": header.split(names[turn.seat], 1)[1],
        "web": caption.split(names[turn.seat], 1)[1],
    }


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5), (4, 6)])
def test_post_picture_and_web_tell_every_turn_alike(players: int, seed: int, lang: str) -> None:
    names = NAMES[:players]
    game = Game.new(players, seed)
    bots = [GreedyPlayer(seed * 10 + i) for i in range(players)]
    turns = artists_used = 0
    while not game.is_over:
        step = game.apply(bots[game.current_player].choose(game))
        if step.record is None:
            continue
        turn = step.record
        assert game.state.last_turn == turn
        told = _told(turn, game, lang, names)
        facts = {where: _facts(text, game, lang, names) for where, text in told.items()}
        assert facts["post"] == facts["picture"] == facts["web"], (turn, told)
        # ... and what they say is what was recorded: every artist used or given dice, every
        # installation completed, by name.
        artists, installations, _dice, _players = facts["post"]
        for p in turn.plays:
            if p.artist is not None:
                assert artist_name(game.deck.artist(p.artist), lang, short=True) in artists, told
                artists_used += 1
            if isinstance(p.move, Complete):
                assert card_name("installation", game.deck.installation(p.move.card), lang) in installations
        assert turn_words(turn, game.deck, lang, names) in told["post"]
        turns += 1
    assert turns > 10 * players and artists_used > 0


@pytest.mark.parametrize(
    "lang,keep,said",
    [
        ("en", (6, 1), "ended the turn keeping a 6 and a 1 in the storage space"),
        ("en", (5, 5), "ended the turn keeping two 5s in the storage space"),
        ("fr", (6, 1), "terminé son tour en gardant un 6 et un 1 dans l'espace de stockage"),
        ("fr", (4,), "terminé son tour en gardant un 4 dans l'espace de stockage"),
    ],
)
def test_the_dice_kept_at_the_end_of_a_turn_are_told_as_dice(lang: str, keep: tuple[int, ...], said: str) -> None:
    """ "keeping a 6 and a 1", as "placed a 6 and a 1" is told, never "keeping 6 and 1"."""
    from bot.words.story import play_words
    from engine import EndTurn, Played

    assert play_words(Played(EndTurn(keep)), Game.new(2, 1).deck, lang) == said
