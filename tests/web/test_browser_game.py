"""A whole game played in a real browser: the bot on the Discord stand-in serves its web
board; a player opens the "Open the board" link from their turn DM in headless Chromium and
plays every turn by tapping (a die, a glowing space, End, Yes) against a computer player,
at phone size and then at desktop size; the channel sees each turn posted once."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import statistics
from pathlib import Path

import pytest
from playwright.async_api import Page, async_playwright

from bot.client import CubistBot
from bot.config import WebPlan
from bot.demo import free_port, wait_until
from standin import StandIn

from ..bot.conftest import TEST_LIMITS
from .browser import DESKTOP, PHONE, chromium_path
from .conftest import board_links

pytestmark = pytest.mark.timeout(600)
# Where the screenshots go (looked at by a person; docs/web keeps a set): CUBIST_SCREENSHOTS.
SHOTS_DIR = os.environ.get("CUBIST_SCREENSHOTS")
# Waits end when what they wait for happens; this only stops a hung one (a busy machine's
# slowest page or post comes far sooner).
HANG_GUARD_MS = 60_000


async def tap_a_glowing_space(page: Page) -> None:
    """Taps the first glowing space a finger can reach (not covered by a column in front).
    A covered space never becomes tappable, so each is tried briefly first; on a busy machine
    the browser may need longer to show a reachable one as steady, hence the later, longer tries."""
    cells = page.locator("#studio .glow, #table .glow")
    for patience_ms in (300, 3_000, 30_000):
        for i in range(await cells.count()):
            cell = cells.nth(i)
            try:
                await cell.click(trial=True, timeout=patience_ms)
            except Exception:
                continue
            await cell.click()
            return
    raise AssertionError("no glowing space can be tapped")


async def version(page: Page) -> str:
    return str(await page.locator("body").get_attribute("data-version"))


async def after(page: Page, before: str) -> None:
    """Waits for the page to show the game after the move it just sent.  (Selectors only:
    the page's Content-Security-Policy forbids evaluating strings, so the test cannot.)"""
    await page.wait_for_selector(f'body:not([data-version="{before}"])', state="attached")


async def play_my_turn(page: Page, shot: Path | None = None) -> int:
    """Places up to two dice (a die, then a glowing space; the last die glows by itself),
    then ends the turn and confirms; returns the taps.  ``shot``: a screenshot there after
    the first die is placed."""
    taps = placed = 0
    for _ in range(8):
        if placed < 2 and await page.locator("#dice button").count():
            if await page.locator(".svg .glow").count() == 0:
                await page.locator("#dice button").first.click()
                taps += 1
            before = await version(page)
            await tap_a_glowing_space(page)
            taps += 1
            await after(page, before)
            placed += 1
            # This turn so far is said above the pictures (the table's header shows the turn as it
            # began): "placed a 2", "placed two 1s".
            await page.locator("#so-far", has_text="This turn: placed ").wait_for(timeout=HANG_GUARD_MS)
            if shot is not None and placed == 1:
                await page.screenshot(path=str(shot), full_page=False)
            continue
        before = await version(page)
        if await page.locator("#end").is_visible():
            await page.locator("#end").click()
            if await page.locator("#confirm-yes").is_visible():
                await page.locator("#confirm-yes").click()
            else:  # more than two dice: which stay is the question, one tap each way
                await page.locator("#other-ends button").first.click()
            await after(page, before)
            return taps + 2
        # Ending needs something done first (an installation to abandon, say): the first move offered.
        await page.locator("#actions-title").click()
        await page.locator("#actions button").first.click()  # waits for the list to arrive
        await after(page, before)
        taps += 2
    raise AssertionError("the turn did not end")


async def test_a_whole_game_in_the_browser(standin: StandIn, run_bot, tmp_path: Path) -> None:
    executable = chromium_path()
    guild = standin.add_guild("Cubist Club")
    channel = standin.add_channel(guild, "cubist")
    ada = standin.add_user("Ada")
    port = free_port()
    web = WebPlan(f"http://127.0.0.1:{port}", "127.0.0.1", port, "browser-test-secret")
    bot = CubistBot(
        tmp_path / "web.db", guild_ready_timeout=0.05, seed=3, computer_pause=0, limits=TEST_LIMITS, web=web
    )
    await run_bot(bot)
    answer = await ada.slash(channel, "cubist lobby new", options={"players": 2, "computers": 1, "level": "greedy"})
    assert not answer.failed, answer.content
    await wait_until(lambda: any(board_links(m) for m in ada.dms()), HANG_GUARD_MS / 1000)
    url = next(link for m in ada.dms() for link in board_links(m))
    assert url is not None and url.startswith(f"http://127.0.0.1:{port}/g/")
    game_id = int(url.split("/g/")[1].split("?")[0])
    shots = Path(SHOTS_DIR) if SHOTS_DIR else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    taps_per_turn: list[int] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        context = await browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        context.set_default_timeout(HANG_GUARD_MS)
        page = await context.new_page()
        third_party: list[str] = []
        page.on(
            "request",
            lambda r: third_party.append(r.url) if not r.url.startswith(f"http://127.0.0.1:{port}/") else None,
        )
        whole: list[str] = []  # the whole state asked for; every other update came as a patch
        page.on("request", lambda r: whole.append(r.url) if r.url.split("?")[0].endswith("/state") else None)
        tokens_in_urls: list[str] = []  # after the link itself, none: a cookie and headers carry it
        page.on("request", lambda r: tokens_in_urls.append(r.url) if "t=" in r.url else None)
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        await page.goto(url)
        await page.wait_for_selector("#board:not([hidden])")
        assert "?t=" not in page.url  # the token leaves the address bar
        turn = 0
        while True:
            record, game = await bot.service.queries.game(game_id)
            if game.is_over:
                break
            if record.seats[game.current_player].user_id != ada.id:
                await asyncio.sleep(0.05)
                continue
            await page.wait_for_selector("#play:not([hidden])", timeout=HANG_GUARD_MS)
            turn += 1
            if turn == 2:
                await page.screenshot(path=str(shots / "phone-turn.png"), full_page=False)
            if turn == 6:  # the rest of the game on a desktop screen
                await page.set_viewport_size(DESKTOP)
            if turn == 7:
                await page.screenshot(path=str(shots / "desktop-turn.png"), full_page=False)
            taps_per_turn.append(await play_my_turn(page, shots / "desktop-mid-turn.png" if turn == 8 else None))
        await page.locator("#turn-line", has_text="won").wait_for(timeout=HANG_GUARD_MS)
        asked_whole = len(whole)
        # The replay: back one move, the story says what it was.
        await page.locator("#replay-mode").click()
        await page.locator("#r-step", has_text="of").wait_for()
        await page.locator("#r-back").click()
        await page.locator("#r-story", has_text="Turn").wait_for()
        await page.screenshot(path=str(shots / "desktop-replay.png"))
        await browser.close()
    assert not third_party, third_party
    assert tokens_in_urls == [url], tokens_in_urls
    # The page asked for the whole state once, when it opened; the computer's turns (and
    # the end) reached it as patches it rebuilt the table from.
    assert asked_whole == 1, whole
    assert not problems, problems
    assert turn >= 5 and statistics.median(taps_per_turn) <= 5, taps_per_turn
    # Each turn was posted once in the game's thread, whether the browser or the computer played it.
    await bot.computers.idle()
    record, game = await bot.service.queries.game(game_id)

    async def all_sent() -> bool:
        counts = await bot.store.posts.counts()
        return counts["failed"] == 0 and counts["sent"] == counts["total"]

    loop = asyncio.get_running_loop()
    hang_guard = loop.time() + HANG_GUARD_MS / 1000
    while not await all_sent():
        assert loop.time() < hang_guard, await bot.store.posts.counts()
        await asyncio.sleep(0.1)
    with sqlite3.connect(tmp_path / "web.db") as db:
        (turns,) = db.execute(
            "SELECT count(*) FROM jobs WHERE kind = 'turn_post' AND game_id = ?", (game_id,)
        ).fetchone()
    tables = [m for m in standin.channel_messages(record.channel_id) if m.attachments]
    assert turns >= 2 * turn and len(tables) == turns + 1  # the start post, then one per turn
