"""A page refused its event stream (its member already holds as many as they may) tries
again after 1, 2, 4, 8, 16 and 30 seconds, then says plainly that it could not reconnect,
and still recovers when a place frees: headless Chromium, its timers run forward by
Playwright's clock, against the real board."""

from __future__ import annotations

import pytest
from playwright.async_api import async_playwright

from bot.i18n import t
from bot.web.server import MAX_STREAMS
from engine.moves import Place

from .browser import PHONE, chromium_path
from .conftest import Board, until

RETRIES_S = [1, 2, 4, 8, 16, 30]


@pytest.mark.timeout(180)
async def test_a_refused_stream_is_tried_again_then_said_and_recovers(board: Board) -> None:
    executable = chromium_path()
    user = await board.current_user()
    token = board.token(user)
    url = f"{board.base}/g/{board.game_id}/events"
    held = [await board.http.get(url, headers={"X-Cubist-Token": token}) for _ in range(MAX_STREAMS)]
    assert all(r.status == 200 for r in held)
    board.web.reads.burst = board.web.reads.rate = 1000.0  # the page's own reads are not what is refused
    asked: list[int] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport=PHONE)
            await page.clock.install()
            page.on("response", lambda r: asked.append(r.status) if r.url.endswith("/events") else None)
            urls: list[str] = []
            page.on("request", lambda r: urls.append(r.url))
            await page.goto(f"{board.base}/g/{board.game_id}?t={token}")
            await page.wait_for_selector("body[data-version]")
            for tries, wait_s in enumerate(RETRIES_S, start=1):
                await until(lambda n=tries: len(asked) >= n, 10, f"the page did not try again ({tries})")
                assert asked[-1] == 429
                await page.locator("#notice", has_text=t("web.ui.reconnecting", "en")).wait_for()
                await page.clock.run_for(wait_s * 1000)
            await until(lambda: len(asked) > len(RETRIES_S), 10, "the last try")
            await page.locator("#notice", has_text=t("web.ui.lost", "en")).wait_for()
            # A place frees: at the next minute's try the page is live again, and shows a move.
            for r in held:
                r.close()
            await until(lambda: board.web.live.viewers() == 0, 5, "the held streams ended")
            await page.clock.run_for(60_000)
            await until(lambda: board.web.live.viewers() == 1, 10, "the page never reconnected")
            await page.locator("#notice", has_text=t("web.ui.lost", "en")).wait_for(state="detached")
            game = await board.game()
            before = await page.locator("body").get_attribute("data-version")
            await board.service.play_in(
                board.game_id, user, next(m for m in game.legal_moves() if isinstance(m, Place))
            )
            await page.wait_for_selector(f'body:not([data-version="{before}"])', state="attached")
            assert [u for u in urls if "t=" in u] == [urls[0]]  # the token was in the link's URL only
        finally:
            await browser.close()
