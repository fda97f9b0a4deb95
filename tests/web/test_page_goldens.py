"""The web board as a browser draws it, compared with goldens a person looked at: a seeded
2-player game in the middle of a turn, on a 360 px phone (the player on turn, with the dice
to tap and the spaces glowing) and on a desktop (a spectator).  Regenerate with
WEB_REGOLD=1 after a change that is meant, and look at the files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from playwright.async_api import Page, async_playwright

from engine.moves import Place
from engine.players import GreedyPlayer

from .browser import DESKTOP, PHONE, chromium_path
from .conftest import Board

GOLDEN = Path(__file__).parent / "goldens"
CHANNEL_TOLERANCE = 40  # anti-aliasing differences
PIXEL_SHARE = 0.01  # of pixels that may differ by more


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.width * a.height)


async def mid_game(board: Board) -> None:
    """Six turns of greedy play, then the first die of the seventh placed."""
    chooser = GreedyPlayer(5)
    turns = 0
    while True:
        record, game = await board.service.queries.game(board.game_id)
        user = record.seats[game.current_player].user_id
        move = chooser.choose(game)
        if turns >= 6 and isinstance(move, Place):
            await board.service.play_in(board.game_id, user, move)
            return
        outcome = await board.service.play_in(board.game_id, user, move)
        turns += outcome.turn_ended


def compare(name: str, shot: bytes, tmp: Path) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("WEB_REGOLD"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(shot)
    assert path.exists(), f"missing golden {path}: run with WEB_REGOLD=1 and look at it"
    got_path = tmp / f"{name}.png"
    got_path.write_bytes(shot)
    got, want = Image.open(got_path).convert("RGB"), Image.open(path).convert("RGB")
    assert got.size == want.size, f"{name}: size {got.size}, golden {want.size}"
    share = differing_share(got, want)
    assert share <= PIXEL_SHARE, f"{name}: {share:.2%} of pixels differ from the golden (see {got_path})"


async def each_glowing_space_is_one_tab_stop(page: Page, phone: bool) -> None:
    """A space glows in the studio and in the table (both take taps), once in the tab order
    and once a button, with its words: in the drawing on a wide screen, on a phone as a button
    in words (and the drawing's spaces are no stops)."""
    glowing = page.locator(".svg .glow")
    cells = [await glowing.nth(i).get_attribute("data-cell") for i in range(await glowing.count())]
    assert cells and len(cells) > len(set(cells))  # each drawn twice
    where = "#targets button" if phone else '.svg .glow[tabindex="0"]'
    stops = page.locator(where)
    stopped = [await stops.nth(i).get_attribute("data-cell") for i in range(await stops.count())]
    assert sorted(stopped) == sorted(set(cells))
    in_drawing = await page.locator('.svg .glow[role="button"][aria-label]').count()
    assert in_drawing == (0 if phone else len(set(cells)))
    assert await page.locator('.svg .glow[tabindex="0"]').count() == in_drawing


@pytest.mark.timeout(180)
async def test_the_page_looks_as_a_person_saw_it(board: Board, tmp_path: Path) -> None:
    executable = chromium_path()
    await mid_game(board)
    player = board.token(await board.current_user())
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            for name, viewport, token in (("phone-player", PHONE, player), ("desktop-spectator", DESKTOP, None)):
                context = await browser.new_context(viewport=viewport, locale="en-GB")
                page = await context.new_page()
                await page.goto(f"{board.base}/g/{board.game_id}?t={token or board.spectator()}")
                await page.wait_for_selector("body[data-version]")
                if token is not None:  # the last die glows at once; wait for its spaces
                    await page.wait_for_selector("#studio .glow", state="attached")
                    await each_glowing_space_is_one_tab_stop(page, phone=viewport is PHONE)
                shot = await page.screenshot(animations="disabled", caret="hide")
                compare(name, shot, tmp_path)
                await context.close()
        finally:
            await browser.close()
