"""The web board on a 360 px phone, measured in a real browser (sizes from the page's
layout, taps counted): the last turn above the fold, any player's studio and the museum
large with a way back (and the cards), every button a finger's size, and placing a die, completing an
installation or sending a die to the museum in a few taps."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Locator, Page, async_playwright

from engine.moves import Complete, ToMuseum
from engine.players import GreedyPlayer

from .browser import DESKTOP, PHONE, chromium_path
from .conftest import Board
from .test_page_goldens import mid_game

FINGER = 44  # CSS px: the smallest tap target
HANG_GUARD_MS = 60_000  # waits end when what they wait for happens; this only stops a hung one
SMALLEST_TEXT = 9  # CSS px: the height of the smallest text drawn in a close-up
# Where docs/web's French phone is written (looked at by a person): CUBIST_SCREENSHOTS.
SHOTS_DIR = os.environ.get("CUBIST_SCREENSHOTS")


@asynccontextmanager
async def phone(board: Board, token: str, lang: str = "") -> AsyncIterator[Page]:
    executable = chromium_path()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
            context.set_default_timeout(HANG_GUARD_MS)
            page = await context.new_page()
            await page.goto(f"{board.base}/g/{board.game_id}?t={token}" + (f"&lang={lang}" if lang else ""))
            await page.wait_for_selector("body[data-version]")
            yield page
        finally:
            await browser.close()


async def sizes(found: Locator) -> list[tuple[float, float]]:
    """The width and height of each visible element ``found`` matches."""
    out = []
    for i in range(await found.count()):
        box = await found.nth(i).bounding_box()
        if box is not None and box["width"] > 0 and await found.nth(i).is_visible():
            out.append((box["width"], box["height"]))
    return out


async def after(page: Page, before: str) -> None:
    await page.wait_for_selector(f'body:not([data-version="{before}"])', state="attached")


async def version(page: Page) -> str:
    return str(await page.locator("body").get_attribute("data-version"))


@pytest.mark.timeout(180)
async def test_a_viewer_sees_the_last_turn_and_any_part_large(board: Board) -> None:
    await mid_game(board)
    on_turn = (await board.game()).current_player
    names = ["Ann", "Bob"]
    other = 1 - on_turn
    async with phone(board, board.spectator()) as page:
        # The last turn is said above the fold.
        story = page.locator("#story")
        assert (await story.inner_text()).startswith("Last turn: ")
        box = await story.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
        # One tap on a player's name shows their studio large, one on Back the first again.
        title = page.locator("#studio-title")
        await page.locator("#studio-title", has_text=f"{names[on_turn]}'s studio").wait_for()
        await page.locator(f'#parts button[data-part="{other}"]').tap()
        await page.locator("#studio-title", has_text=f"{names[other]}'s studio").wait_for()
        assert await page.locator(f'#studio .player[data-seat="{other}"]').count() >= 1  # in pieces, on a phone
        assert await page.locator(f'#studio .player:not([data-seat="{other}"])').count() == 0
        assert await page.locator('#parts button[aria-pressed="true"]').inner_text() == names[other]
        await page.locator("#parts button", has_text="The museum").tap()
        await page.locator("#studio-title", has_text="The museum").wait_for()
        assert await page.locator("#studio .museum").count() == 1
        back = page.locator("#back-to")
        assert await back.inner_text() == f"Back to {names[on_turn]}'s studio"  # for a spectator: the player on turn's
        await back.tap()
        await page.locator("#studio-title", has_text=f"{names[on_turn]}'s studio").wait_for()
        assert await back.is_hidden()
        # Every word drawn on the page is readable; the whole table is a tap away, as its parts
        # one under another (each studio, the museum, the cards), its words as readable, and a
        # tap on its museum shows that large too.  The table as one picture is never shown.
        heights = [h for _w, h in await sizes(page.locator(".svg text"))]
        assert heights and min(heights) >= SMALLEST_TEXT, sorted(heights)[:5]
        assert await page.locator("#whole-view .museum").count() == 0
        await page.locator("#whole").tap()
        await page.locator('#whole[aria-expanded="true"]', has_text="Hide the whole table").wait_for()
        whole = page.locator("#whole-view")
        assert [await h.inner_text() for h in await whole.locator("h3").all()] == [
            "Ann's studio", "Bob's studio", "The museum", "The cards"
        ]  # fmt: skip
        heights = [h for _w, h in await sizes(whole.locator("text"))]
        assert len(heights) > 100 and min(heights) >= SMALLEST_TEXT, sorted(heights)[:5]
        assert await sizes(page.locator("#table text")) == []
        await whole.locator(".museum").tap()
        await page.locator("#studio-title", has_text="The museum").wait_for()
        assert await title.inner_text() == "The museum"
        buttons = await sizes(page.locator("button"))
        assert buttons and all(w >= FINGER and h >= FINGER for w, h in buttons), buttons
        # Every close-up's words are readable on the phone, and its spaces a finger's size both
        # ways: each studio, the museum.
        for part in ("0", "1", "museum", "cards"):
            await page.locator(f'#parts button[data-part="{part}"]').tap()
            await page.locator(f'#parts button[data-part="{part}"][aria-pressed="true"]').wait_for()
            heights = [h for _w, h in await sizes(page.locator("#studio text"))]
            assert heights and min(heights) >= SMALLEST_TEXT, (part, sorted(heights)[:5])
            spaces = await sizes(page.locator("#studio .cell"))
            assert all(w >= FINGER and h >= FINGER for w, h in spaces), (part, sorted(spaces)[:3])
            assert part == "cards" or spaces, part
        assert await page.locator("#studio .artist").count() == 4 and await page.locator("#studio .offer").count() >= 1
        # The replay, too, shows the table in parts with readable words.
        await page.locator("#replay-mode").tap()
        await page.locator("#r-step", has_text="of").wait_for()
        await page.locator("#whole-view .museum").wait_for()
        heights = [h for _w, h in await sizes(page.locator("#whole-view text"))]
        assert len(heights) > 100 and min(heights) >= SMALLEST_TEXT, sorted(heights)[:5]
        assert await sizes(page.locator("#table text")) == []


@pytest.mark.timeout(180)
async def test_the_player_places_a_die_in_two_taps_with_buttons_a_finger_wide(board: Board) -> None:
    await mid_game(board)
    player = board.token(await board.current_user())
    async with phone(board, player) as page:
        await page.wait_for_selector("#targets button")  # the last die is chosen at once
        # The turn so far (a die placed), and the last turn, are said above the fold.
        for said, starts in (("#so-far", "This turn: placed "), ("#story", "Last turn: ")):
            assert (await page.locator(said).inner_text()).startswith(starts)
            box = await page.locator(said).bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], (said, box)
        buttons = await sizes(page.locator("button"))
        assert buttons and all(w >= FINGER and h >= FINGER for w, h in buttons), buttons
        # In the studio close-up (cut in pieces on a phone) each space is a finger's size both
        # ways (a workroom wider than the page scrolls sideways); each glowing one is also a
        # button in words (below).
        assert await page.locator("#studio .room-title").all_inner_texts() == ["Workroom 1", "Workroom 2"]
        spaces = await sizes(page.locator("#studio .cell"))
        assert len(spaces) == 72 and all(w >= FINGER and h >= FINGER for w, h in spaces), sorted(spaces)[:3]
        # The spaces the die may go to, as buttons in words as well as glowing on the table.
        targets = page.locator("#targets button")
        cells = {await targets.nth(i).get_attribute("data-cell") for i in range(await targets.count())}
        glowing = page.locator("#table .glow")
        assert cells == {await glowing.nth(i).get_attribute("data-cell") for i in range(await glowing.count())}
        before = await version(page)
        game_before = await board.game()
        await targets.first.tap()
        await after(page, before)
        assert len((await board.game()).log) == len(game_before.log) + 1


async def play_until(board: Board, wanted: type) -> None:
    """Greedy play (both seats) until the player on turn may make a ``wanted`` move."""
    chooser = GreedyPlayer(5)
    for _ in range(2000):
        record, game = await board.service.queries.game(board.game_id)
        assert not game.is_over, f"the game ended before a {wanted.__name__} move"
        if any(isinstance(m, wanted) for m in game.legal_moves()):
            return
        move = chooser.choose(game)
        await board.service.play_in(board.game_id, record.seats[game.current_player].user_id, move)
    raise AssertionError(f"no {wanted.__name__} move came")


@pytest.mark.timeout(300)
async def test_completing_an_installation_and_placing_in_the_museum_take_few_taps(board: Board) -> None:
    await play_until(board, Complete)
    seat = (await board.game()).current_player
    done = len((await board.game()).state.players[seat].completed)
    async with phone(board, board.token(await board.current_user())) as page:
        complete = page.locator("#complete button").first
        await complete.wait_for()
        before = await version(page)
        await complete.tap()  # one tap
        await after(page, before)
    assert len((await board.game()).state.players[seat].completed) == done + 1
    await play_until(board, ToMuseum)
    game = await board.game()
    museum = len(game.state.museum)
    async with phone(board, board.token(await board.current_user())) as page:
        await page.wait_for_selector("#dice button")
        taps = 0
        to_museum = {str(m.die) for m in game.legal_moves() if isinstance(m, ToMuseum)}
        die = page.locator("#dice button[data-die]")
        for i in range(await die.count()):
            if await die.nth(i).get_attribute("data-die") in to_museum:
                if await die.nth(i).get_attribute("aria-pressed") != "true":
                    await die.nth(i).tap()
                    taps += 1
                break
        target = page.locator('#targets button[data-cell^="m."]').first
        before = await version(page)
        await target.tap()
        taps += 1
        await after(page, before)
    assert len((await board.game()).state.museum) == museum + 1
    assert taps <= 2, taps


# What a Tab stop is, in words a test can compare: its id, else the space, die or part it stands
# for, else its words.
NAME_OF = """el => el.id || (el.dataset.cell && 'space ' + el.dataset.cell)
    || (el.dataset.die && 'die ' + el.dataset.die) || (el.dataset.part && 'part ' + el.dataset.part)
    || (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40)"""
CONTROLS = "button, summary, [tabindex='0']"


async def tab_stops(page: Page) -> list[str]:
    """Every stop Tab reaches, in order, from the first one reached round to it again."""
    stops: list[str] = []
    for _ in range(400):
        await page.keyboard.press("Tab")
        focused = page.locator(":focus")
        if await focused.count() == 0:  # past the last stop: the browser's own controls
            continue
        name = str(await focused.evaluate(NAME_OF))
        if stops and name == stops[0]:
            return stops
        stops.append(name)
    raise AssertionError(f"Tab went on past 400 stops: {stops[:20]}")


async def controls(page: Page) -> list[str]:
    """The names of the visible controls a finger can use."""
    found = page.locator(CONTROLS)
    return [str(await c.evaluate(NAME_OF)) for c in await found.all() if await c.is_visible()]


async def hits(page: Page, x: float, y: float) -> str | None:
    """The space a tap at (x, y) on the screen reaches."""
    found = await page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('[data-cell]')?.dataset.cell ?? null", [x, y]
    )
    return None if found is None else str(found)


@pytest.mark.timeout(240)
async def test_every_glowing_space_is_a_finger_wide_apart_and_one_tab_stop(board: Board) -> None:
    """At the start both workrooms are empty: every space glows for the chosen die, side by side."""
    async with phone(board, board.token(await board.current_user())) as page:
        await page.locator("#dice button").first.tap()
        await page.wait_for_selector("#targets button")
        targets = page.locator("#targets button")
        cells = [str(await targets.nth(i).get_attribute("data-cell")) for i in range(await targets.count())]
        glowing = page.locator("#studio .glow")
        assert await glowing.count() == len(cells) >= 72
        # Each glowing space is a finger's size both ways, and a tap well inside it (its middle,
        # and halfway to each corner) reaches that space and no neighbour: none overlap.
        for i in range(await glowing.count()):
            space = glowing.nth(i)
            await space.scroll_into_view_if_needed()
            box = await space.bounding_box()
            assert box is not None and box["width"] >= FINGER and box["height"] >= FINGER, box
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            w, h = box["width"] / 4, box["height"] / 4
            cell = await space.get_attribute("data-cell")
            for x, y in ((cx, cy), (cx - w, cy), (cx + w, cy), (cx, cy - h), (cx, cy + h)):
                assert await hits(page, x, y) == cell, (cell, x - cx, y - cy)
        # By keyboard, each glowing space is one stop (its button in words), and every control
        # on the page is reached.
        stops = await tab_stops(page)
        assert sorted(s for s in stops if s.startswith("space ")) == sorted(f"space {c}" for c in cells), stops
        assert set(await controls(page)) <= set(stops), (await controls(page), stops)
        # Placing a die: the turn so far is said once.
        before = await version(page)
        await targets.first.tap()
        await after(page, before)
        assert (await page.locator("body").inner_text()).count("This turn") == 1


@pytest.mark.timeout(240)
async def test_on_a_desktop_the_turn_so_far_is_said_once_and_each_space_one_tab_stop(board: Board) -> None:
    await mid_game(board)
    executable = chromium_path()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport=DESKTOP, locale="en-GB")
            context.set_default_timeout(HANG_GUARD_MS)
            page = await context.new_page()
            await page.goto(f"{board.base}/g/{board.game_id}?t={board.token(await board.current_user())}")
            await page.wait_for_selector("#studio .glow", state="attached")  # the last die glows at once
            assert (await page.locator("#so-far").inner_text()).startswith("This turn: placed ")
            assert (await page.locator("body").inner_text()).count("This turn") == 1
            glowing = page.locator("#studio .glow")
            cells = {str(await glowing.nth(i).get_attribute("data-cell")) for i in range(await glowing.count())}
            stops = await tab_stops(page)
            assert sorted(s for s in stops if s.startswith("space ")) == sorted(f"space {c}" for c in cells), stops
            assert set(await controls(page)) <= set(stops), (await controls(page), stops)
        finally:
            await browser.close()


@pytest.mark.timeout(300)
async def test_in_french_which_dice_stay_is_one_tap_each(board: Board, tmp_path: Path) -> None:
    """Ending a turn with four dice left (two may stay): the page asks which, in French, each
    answer a button a finger's size."""
    chooser = GreedyPlayer(5)
    for _ in range(400):
        _status, body = await board.get("play", board.token(await board.current_user()))
        end = body["play"]["end"]
        if end is not None and end["move"] is None and len(end["others"]) == 11:  # none, one or two of four
            break
        record, game = await board.service.queries.game(board.game_id)
        await board.service.play_in(board.game_id, record.seats[game.current_player].user_id, chooser.choose(game))
    else:
        raise AssertionError("no turn came with four dice left")
    seat = (await board.game()).current_player
    async with phone(board, board.token(await board.current_user()), lang="fr") as page:
        await page.locator("#end", has_text="Finir le tour").tap()
        await page.locator("#confirm-text", has_text="Lesquels gardez-vous").wait_for()
        assert await page.locator("#confirm-yes").is_hidden()  # no end without the answer
        stays = page.locator("#other-ends button")
        assert await stays.count() == 11
        assert (await stays.first.inner_text()).startswith("Finir le tour : ")
        buttons = await sizes(page.locator("button"))
        assert buttons and all(w >= FINGER and h >= FINGER for w, h in buttons), buttons
        shots = Path(SHOTS_DIR) if SHOTS_DIR else tmp_path
        shots.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(shots / "phone-end-fr.png"), full_page=True)
        before = await version(page)
        await stays.last.tap()
        await after(page, before)
    assert (await board.game()).current_player != seat
