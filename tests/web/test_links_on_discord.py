"""The "Open the board" buttons on Discord: the turn-start DM and the panel carry a link for
that member, the channel's turn post one that only watches; with the web board off there
are none.  The real bot on the Discord stand-in."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

from bot.client import CubistBot
from bot.config import WebPlan
from bot.demo import free_port, wait_until
from bot.web.links import SPECTATOR, check
from standin import StandIn

from ..bot.conftest import TEST_LIMITS
from .conftest import board_links

SECRET = "links-on-discord-secret"


def pass_of(url: str, bot: CubistBot) -> tuple[int, int]:
    parsed = urlparse(url)
    game = int(parsed.path.split("/g/")[1])
    token = parse_qs(parsed.query)["t"][0]
    granted = check(SECRET, token, game, bot.clock())
    return granted.game, granted.member


async def test_dm_panel_and_turn_post_carry_the_right_links(standin: StandIn, run_bot, tmp_path: Path) -> None:
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("Ada")
    port = free_port()
    plan = WebPlan(f"http://127.0.0.1:{port}", "127.0.0.1", port, SECRET, link_hours=2)
    bot = CubistBot(tmp_path / "l.db", guild_ready_timeout=0.05, seed=3, computer_pause=0, limits=TEST_LIMITS, web=plan)
    await run_bot(bot)
    answer = await ada.slash(channel, "cubist lobby new", options={"players": 2, "computers": 1, "level": "greedy"})
    assert not answer.failed
    await wait_until(lambda: any(board_links(m) for m in ada.dms()), 20)
    dm_link = next(link for m in ada.dms() for link in board_links(m))
    game_id, member = pass_of(dm_link, bot)
    assert member == ada.id
    record = await bot.service.queries.record(game_id)
    # The channel's posts (the start post, turn posts) carry a link that only watches.
    await wait_until(lambda: any(board_links(m) for m in standin.channel_messages(record.channel_id)), 20)
    post_links = [link for m in standin.channel_messages(record.channel_id) for link in board_links(m)]
    assert post_links and all(pass_of(link, bot) == (game_id, SPECTATOR) for link in post_links)
    # The panel opened in the thread: Ada's own link.
    thread = standin.channels[record.channel_id]
    panel = await ada.slash(thread, "cubist turn")
    assert not panel.failed
    links = board_links(panel)
    assert links and pass_of(links[0], bot) == (game_id, ada.id)
    # A link expires: two hours later it opens nothing.
    token = parse_qs(urlparse(dm_link).query)["t"][0]
    assert check(SECRET, token, game_id, bot.clock() + 1) and bot.web is not None
    try:
        check(SECRET, token, game_id, bot.clock() + 3 * 3600)
        raise AssertionError("an expired link was accepted")
    except ValueError as e:
        assert str(e) == "expired"


async def test_no_links_without_the_web_board(standin: StandIn, run_bot, tmp_path: Path) -> None:
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("Ada")
    bot = CubistBot(tmp_path / "n.db", guild_ready_timeout=0.05, seed=3, computer_pause=0, limits=TEST_LIMITS)
    await run_bot(bot)
    answer = await ada.slash(channel, "cubist lobby new", options={"players": 2, "computers": 1, "level": "greedy"})
    assert not answer.failed
    await wait_until(lambda: len(ada.dms()) > 0, 20)
    record = await bot.service.queries.game_in_channel(channel.id)
    channel_id = record.channel_id if record is not None else channel.id
    everything = [*ada.dms(), *standin.channel_messages(channel_id), *standin.channel_messages(channel)]
    assert everything and not any(board_links(m) for m in everything)
    assert bot.web is None and bot.links is None
