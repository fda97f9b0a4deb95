"""Texts of ``/cubist stats games`` and ``/cubist stats leaderboard``.

Their words are the ``stats`` group of the catalogues (``bot/i18n/locales/*.stats.json``).
Pure functions: the commands fetch the numbers from the store and pass them in, with the
language to write in.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal
from discord.utils import escape_markdown, escape_mentions

from bot.i18n import artist_name, has, language, t
from bot.i18n.cards import installation_name
from bot.i18n.catalog import babel_locale
from bot.store.stats import PlayerStats, RatingEntry

LEADERBOARD_SIZE = 15


def text(key: str, locale: object, **values: object) -> str:
    return t(f"stats.{key}", locale, **values)


def _decimal(value: float, locale: object) -> str:
    """One decimal, written as the reader's language writes numbers (7.0, 7,0)."""
    return str(format_decimal(value, format="#,##0.0", locale=babel_locale(language(locale))))


def _safe(name: str) -> str:
    """A display name that cannot format the message or ping anybody."""
    return escape_mentions(escape_markdown(name))


def stats_text(name: str, s: PlayerStats, locale: object) -> str:
    lines = [
        text("title", locale, name=_safe(name)),
        text("games", locale, games=s.games, wins=s.wins, win_rate=round(100 * s.wins / s.games)),
        text("score", locale, average=_decimal(s.average_score, locale), best=s.best_score),
    ]
    best = s.best_installation
    if best is not None:
        card = installation_name(best.card, best.name, locale)
        lines.append(text("installation", locale, card=_safe(card), points=best.points))
    else:
        lines.append(text("no_installation", locale))
    lines.append(text("museum", locale, dice=s.museum_dice))
    artist = s.favourite_artist
    lines.append(
        text("artist", locale, artist=artist_name(artist, locale), uses=s.favourite_uses)
        if artist
        else text("no_artist", locale)
    )
    lines.append(
        (
            text("rating", locale, rating=round(s.rating), place=s.place)
            if s.place is not None
            else t("stats.rating_no_place", locale, rating=round(s.rating))  # a DM: no server's table
        )
        if s.rating is not None
        else text("unrated", locale)
    )
    return "\n".join(lines)


def no_stats_text(name: str, *, yourself: bool, locale: object) -> str:
    return text("none_you", locale) if yourself else text("none_other", locale, name=_safe(name))


def entry_name(e: RatingEntry, locale: object) -> str:
    if e.is_computer:
        level = t(f"seats.level.{e.display_name}", locale) if has(f"seats.level.{e.display_name}") else e.display_name
        return text("computer_name", locale, level=level) + text("computer_mark", locale)
    return _safe(e.display_name)


def leaderboard_text(entries: Sequence[RatingEntry], start: float, locale: object) -> str:
    if not entries:
        return text("board_empty", locale)
    lines = [text("board_title", locale, start=round(start))]
    for e in entries:
        games, wins = text("game_count", locale, count=e.games), text("win_count", locale, count=e.wins)
        lines.append(
            text(
                "board_line",
                locale,
                place=e.place,
                name=entry_name(e, locale),
                rating=round(e.rating),
                games=games,
                wins=wins,
            )
        )
    return "\n".join(lines)
