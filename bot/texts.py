"""Words the bot writes: move descriptions, turn summaries, scores, rules help.

Every function takes the reader's language (``locale``, English by default; see
``bot.i18n`` for who reads what); the words themselves are in ``bot/i18n/locales``."""

from __future__ import annotations

from engine import Game, parse_move
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE, cell_name
from engine.moves import (
    Abandon,
    Complete,
    DieRef,
    EndTurn,
    Move,
    Place,
    Release,
    Remove,
    Skip,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
)
from render.palette import MARK_GLYPHS, seat_colour_key

from .i18n import card_name, t

COLOUR_NAMES = ("orange", "sky blue", "green", "purple")  # lobby join colours, stored with seats (not drawn)
MARKS = MARK_GLYPHS  # the shape drawn on each seat's dice (render.palette)
RULES_TOPIC_KEYS = ("turn", "placing", "installations", "artists", "museum", "end", "notation")


def seat_colour_name(seat: int, locale: str = "en") -> str:
    """The name of the colour the pictures draw for ``seat`` (0-based), in the reader's
    language: one source (render.palette) for the picture and the words."""
    return t(f"colours.{seat_colour_key(seat)}", locale)


def die_text(d: DieRef, locale: str = "en") -> str:
    if d.kind == "s":
        return t("texts.die.supply", locale, value=d.value)
    if d.kind == "x":
        return t("texts.die.abandoned", locale, value=d.value)
    return t("texts.die.card", locale, card=d.card + 1, space=d.space + 1)


def describe(move: Move | str, game: Game | None = None, locale: str = "en") -> str:
    """A short phrase for a move, e.g. 'placed a 4 on w1 c3' (French: the participle,
    'placé un 4 en w1 c3', which the sentences around it complete with 'a'/'avez')."""
    m = parse_move(move) if isinstance(move, str) else move
    if isinstance(m, Place):
        cell = cell_name(m.cell, WORKROOM_SIZE)
        return t("texts.move.place", locale, die=die_text(m.die, locale), room=m.room + 1, cell=cell)
    if isinstance(m, ToMuseum):
        return t("texts.move.museum", locale, die=die_text(m.die, locale), cell=cell_name(m.cell, MUSEUM_SIZE))
    if isinstance(m, ToArtist):
        values = ", ".join(die_text(d, locale) for d in m.dice)
        return t("texts.move.artist", locale, dice=values, slot=m.slot + 1)
    if isinstance(m, UseArtist):
        return t("texts.move.use", locale, slot=m.slot + 1, move=m)
    if isinstance(m, Complete):
        if game is not None:
            card = game.deck.installation(m.card)
            name = card_name("installation", card, locale)
            return t("texts.move.complete_named", locale, card=m.card, name=name, room=m.room + 1, points=card.points)
        return t("texts.move.complete", locale, card=m.card, room=m.room + 1)
    if isinstance(m, Abandon):
        return t("texts.move.abandon", locale, room=m.room + 1)
    if isinstance(m, Release):
        return t("texts.move.release", locale)
    if isinstance(m, Switch):
        return t("texts.move.switch", locale, die=m.die)
    if isinstance(m, EndTurn):
        if m.keep:
            keep = t("common.and", locale).join(map(str, m.keep))
            return t("texts.move.end_keep", locale, keep=keep)
        return t("texts.move.end", locale)
    if isinstance(m, Undo):
        return t("texts.move.undo", locale)
    if isinstance(m, Skip):
        return t("texts.move.skip", locale)
    if isinstance(m, Remove):
        return t("texts.move.remove", locale, seat=m.seat + 1)
    return str(m)


def turn_summary(moves: list[str], game: Game | None = None, locale: str = "en") -> str:
    parts = [describe(m, game, locale) for m in moves]
    return t("common.summary_sep", locale).join(parts) if parts else t("texts.passed", locale)


def scores_lines(game: Game, names: list[str], locale: str = "en") -> list[str]:
    winners = set(game.winners()) if game.is_over else set()
    lines = []
    order = sorted(range(game.num_players), key=lambda i: (-game.score(i), -game.museum_dice(i), i))
    for i in order:
        p = game.state.players[i]
        lines.append(
            t(
                "texts.score_line",
                locale,
                mark=MARKS[i],
                name=names[i],
                score=game.score(i),
                installations=len(p.completed),
                museum=game.museum_dice(i),
                left=t("texts.left_game", locale) if p.removed else "",
                flag=" 🏆" if i in winners else "",
            )
        )
    return lines


def tie_break_text(game: Game, names: list[str], locale: str = "en") -> str:
    active = game.active_players()
    if not active:
        return ""
    top = max(game.score(i) for i in active)
    tied = [i for i in active if game.score(i) == top]
    if len(tied) == 1:
        return ""
    winners = game.winners()
    who = ", ".join(names[i] for i in tied)
    if len(winners) == 1:
        return t("texts.tie_one", locale, who=who, points=top, winner=names[winners[0]])
    return t("texts.tie_shared", locale, who=who, points=top)


def rules_text(topic: str, locale: str = "en") -> str:
    """The help on one rules topic (one of RULES_TOPIC_KEYS)."""
    return t(f"rules.{topic}", locale)


# English texts by topic; its keys are the /cubist rules choices.
RULES_TOPICS: dict[str, str] = {topic: rules_text(topic) for topic in RULES_TOPIC_KEYS}
