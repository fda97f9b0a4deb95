"""Words the bot writes: dice, scores, rules help (a turn's story is ``bot.words.story``).

Every function takes the reader's language (``locale``, English by default; see
``bot.i18n`` for who reads what); the words themselves are in ``bot/i18n/locales``."""

from __future__ import annotations

from functools import lru_cache

from bot.i18n import t
from engine import Game
from engine.moves import DieRef
from render.palette import MARK_GLYPHS, seat_colour_key

COLOUR_NAMES = ("orange", "sky blue", "green", "purple")  # lobby join colours, stored with seats (not drawn)
MARKS = MARK_GLYPHS  # the shape drawn on each seat's dice (render.palette)
RULES_TOPIC_KEYS = ("turn", "placing", "installations", "artists", "museum", "end", "notation")


def seat_colour_name(seat: int, locale: str) -> str:
    """The name of the colour the pictures draw for ``seat`` (0-based), in the reader's
    language: one source (render.palette) for the picture and the words."""
    return t(f"seats.colour.{seat_colour_key(seat)}", locale)


def die_text(d: DieRef, locale: str) -> str:
    if d.kind == "s":
        return t("story.die.supply", locale, value=d.value)
    if d.kind == "x":
        return t("story.die.abandoned", locale, value=d.value)
    return t("story.die.card", locale, card=d.card + 1, space=d.space + 1)


def scores_lines(game: Game, names: list[str], locale: str) -> list[str]:
    winners = frozenset(game.winners()) if game.is_over else frozenset()
    ranks = game.ranks()
    seats = tuple(
        (ranks[i], game.score(i), len(p.completed), game.museum_dice(i), p.removed, i in winners)
        for i, p in enumerate(game.state.players)
    )
    return list(_scores_lines(seats, tuple(names), locale))


_Seat = tuple[int, int, int, int, bool, bool]  # rank, points, installations, museum dice, left, won


@lru_cache(maxsize=1024)
def _scores_lines(
    seats: tuple[tuple[int, int, int, int, bool, bool], ...], names: tuple[str, ...], locale: str
) -> tuple[str, ...]:
    # Remembered: the web board asks after every move, and scores change a few times a game.
    lines = []
    order = sorted(range(len(seats)), key=lambda i: (seats[i][0], i))
    for i in order:
        _rank, points, completed, museum, removed, winner = seats[i]
        lines.append(
            t(
                "table.score_line",
                locale,
                mark=MARKS[i],
                name=names[i],
                points=t("story.points", locale, count=points),
                installations=t("story.installations", locale, count=completed),
                museum=t("story.museum_dice", locale, count=museum),
                left=t("table.left_game", locale) if removed else "",
                flag=" 🏆" if winner else "",
            )
        )
    return tuple(lines)


def tie_break_text(game: Game, names: list[str], locale: str) -> str:
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
        return t("table.tie_one", locale, who=who, points=top, winner=names[winners[0]])
    return t("table.tie_shared", locale, who=who, points=top)


def rules_text(topic: str, locale: str) -> str:
    """The help on one rules topic (one of RULES_TOPIC_KEYS)."""
    return t(f"rules.topic.{topic}", locale)


# The /cubist rules choices (their names stay English, like the commands' names).
RULES_TOPICS: tuple[str, ...] = tuple(RULES_TOPIC_KEYS)
