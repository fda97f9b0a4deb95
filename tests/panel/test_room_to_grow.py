"""Room to grow: every message the turn panel can build stays within Discord's limits (as the
stand-in checks them) with a free place in every row of buttons, over self-play games at 2, 3
and 4 players, in both languages, with 32-character names and the longest board link."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.chat.buttons import game_buttons, rematch_view, reminder_view
from bot.config import LINK_MAX, PUBLIC_URL_MAX, Settings
from bot.i18n import t
from bot.panel import choice_tree
from bot.panel.cells import cells_for, placeable
from bot.service.game import MAX_ID
from bot.store import GameRecord, ReminderPrefs, SeatRecord, Status
from bot.table.away import vote_view
from bot.turn.hints import hint_view
from bot.turn.panel import cells_view, end_view, panel_view
from bot.turn.reminders import turn_dm_view
from bot.web.links import Links
from engine import Game, GameOptions
from engine.moves import EndTurn
from engine.players import make_player
from standin.limits import ROW_BUTTONS_MAX, check_message

GAMES = 2  # per table size and language
NAME = "Wolfgang Amadeus Mozart-Salzburg"  # 32 characters, Discord's longest display name
BASE = "https://" + "b" * (PUBLIC_URL_MAX - len("https://"))
LINKS = Links(BASE, "a secret of a realistic length, 32+", 72)


def record_of(game: Game, game_id: int, version: int) -> GameRecord:
    seats = tuple(
        SeatRecord(game_id, i, 10**18 + i, f"{NAME[:-1]}{i}", None, False, None, True, ReminderPrefs(), 0.0)
        for i in range(game.num_players)
    )
    return GameRecord(
        game_id, 1, 1, seats[0].user_id or 0, GameOptions(), Status.ACTIVE, 0.0, 0.0, 0.0, None, 1,
        game.num_players, version, game.current_player, game.state.turn, seats,
    )  # fmt: skip


def link(game_id: int, member: int, lang: str = "fr") -> discord.ui.Button[Any]:
    # The latest expiry a link can have for years to come (a longer number of seconds is longer).
    url = LINKS.url(game_id, member, 9_999_999_999 - 72 * 3600)
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t("web.open", lang), url=url)


def problems(view: discord.ui.View, content: str = "") -> list[str]:
    """What Discord would refuse, and every row of buttons left without a free place."""
    components = view.to_components()
    found = [str(e) for e in check_message({"content": content or "-", "components": components})]
    for i, row in enumerate(components):
        items = row["components"]
        if all(c["type"] == 2 for c in items) and len(items) >= ROW_BUTTONS_MAX:
            found.append(f"row {i} is full: {[c.get('label') for c in items]}")
        found += [f"link of {len(c['url'])} characters" for c in items if len(c.get("url") or "") > LINK_MAX]
    return found


def views_at(record: GameRecord, game: Game, lang: str) -> list[tuple[str, discord.ui.View]]:
    """Every panel message of this moment of the turn: the turn-start DM, the panel at every
    node of the choice tree, the cells of every die, the end of the turn, the hint."""
    member = record.seats[game.current_player].user_id or 0

    def own() -> discord.ui.Button[Any]:  # an item belongs to one view: its row is set there
        return link(record.id, member)

    out: list[tuple[str, discord.ui.View]] = [
        ("turn-start DM", turn_dm_view(record, game, lang, own())),
        ("panel", panel_view(record, game, lang, link=own())),
        ("panel without link", panel_view(record, game, lang)),
        ("hint", hint_view(record.id, record.version, lang)),
    ]
    stack = [((i,), c) for i, c in enumerate(choice_tree(game, lang, [s.display_name for s in record.seats]))]
    while stack:
        path, choice = stack.pop()
        if not choice.is_leaf:
            out.append((f"panel at {path}", panel_view(record, game, lang, path, choice.children, link=own())))
            stack += [((*path, i), c) for i, c in enumerate(choice.children)]
    for die in placeable(game):
        out.append((f"cells of {die}", cells_view(record, str(die), cells_for(game, str(die)), lang)))
    ends = [m for m in game.legal_moves() if isinstance(m, EndTurn)]
    if ends:
        seat = game.current_player
        for move in [None, *ends]:
            content, view = end_view(record, game, seat, lang, ends, move)
            out.append((f"end {move}", view))
            assert len(content) <= 2000
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_panel_message_fits_with_room_to_grow(players: int, lang: str) -> None:
    checked = 0
    for number in range(GAMES):
        seed = 1000 * players + number
        game = Game.new(players, seed, GameOptions())
        bots = [make_player("random" if (seat + number) % 2 else "greedy", seed + seat) for seat in range(players)]
        rng = random.Random(seed)
        version = 0
        while not game.is_over:
            if rng.random() < 0.35:  # a sample of moments: every one would take minutes
                record = record_of(game, MAX_ID, version)
                for what, view in views_at(record, game, lang):
                    assert not problems(view), (what, game.state.turn, problems(view))
                    checked += 1
            game.apply(bots[game.current_player].choose(game.clone()))
            version += 1
        record = record_of(game, MAX_ID, version)
        for what, view in [
            ("turn post", game_buttons(record.id, lang, link(record.id, 0))),
            ("final post", rematch_view(record.id, lang, link(record.id, 0))),
            ("reminder", reminder_view(record.id, lang)),
            ("away vote", vote_view(record, game, lang)),
        ]:
            assert not problems(view), (what, problems(view))
    assert checked > 100


def test_a_public_url_too_long_for_discords_links_is_refused_at_start() -> None:
    def plan(url: str) -> object:
        return Settings(_env_file=None, public_url=url, web_port=8080).web()  # type: ignore[call-arg]

    assert plan(BASE) is not None  # the longest allowed
    with pytest.raises(ValueError, match="PUBLIC_URL is 368 characters long"):
        plan(BASE + "c")
    assert len(link(MAX_ID, MAX_ID).url or "") <= LINK_MAX
