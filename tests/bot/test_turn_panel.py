"""The turn panel as a player uses it: from the turn-start DM or the channel's Play button,
one message edited in place, Undo, and an End turn that says what it will do."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import Game
from standin import Player

from .asyncplay import start_game, wait_until
from .conftest import Table, custom_ids, started

TYPICAL_TURN_TAPS = 6
NOTATION = re.compile(r"\b(w[12]|[a-f][1-6]|i\d+\.\d+|x[1-6]|p[1-4])\b|#\d|NOTATION")


def panel_select(message: Any, gid: int) -> tuple[str, list[dict[str, Any]]]:
    for row in message.components:
        for c in row.get("components", []):
            if c.get("custom_id", "").startswith(f"cubist:{gid}:t:"):
                return c["custom_id"], c["options"]
    raise AssertionError(f"no panel select in {custom_ids(message)}")


def choice_buttons(message: Any, gid: int) -> list[tuple[str, str]]:
    """(custom_id, label) of the buttons standing for the choices of the panel's level."""
    return [
        (c["custom_id"], c["label"])
        for row in message.components
        for c in row.get("components", [])
        if c.get("custom_id", "").startswith(f"cubist:{gid}:tb:")
    ]


def button(message: Any, gid: int, action: str) -> str:
    ids = [i for i in custom_ids(message) if i.startswith(f"cubist:{gid}:{action}")]
    assert ids, f"no {action} button in {custom_ids(message)}"
    return ids[0]


async def panel_dm(table: Table, user: Player) -> Any:
    """The user's turn-start DM, which carries the turn panel."""
    await wait_until(lambda: any(m.components for m in table.standin.dms(user)))
    return [m for m in table.standin.dms(user) if m.components][-1]


class Taps:
    """Plays through one panel message, counting the interactions (taps) it takes."""

    def __init__(self, table: Table, gid: int, user: Player, message: Any) -> None:
        self.table, self.gid, self.user, self.message = table, gid, user, message
        self.count = 0
        self.selects = 0  # picks made from a select (two physical taps each)

    async def pick(self, starts: str = "", *, index: int | None = None) -> Any:
        """A choice of the panel's current level: by its button where the level has buttons
        for its choices (few choices), else from its select."""
        buttons = choice_buttons(self.message, self.gid)
        if buttons and not panel_select_or_none(self.message, self.gid):
            if index is None:
                index = next(i for i, (_id, label) in enumerate(buttons) if label.startswith(starts))
            r = await self.user.click(self.message, buttons[index][0])
            return self._answered(r)
        select_id, options = panel_select(self.message, self.gid)
        if index is None:
            index = next(i for i, o in enumerate(options) if o["label"].startswith(starts))
        r = await self.user.select(self.message, select_id, [options[index]["value"]])
        self.selects += 1
        return self._answered(r)

    async def press(self, action: str) -> Any:
        r = await self.user.click(self.message, button(self.message, self.gid, action))
        return self._answered(r)

    def _answered(self, r: Any) -> Any:
        self.count += 1
        assert not r.failed, r.violations
        assert r.message is not None
        assert r.message.id == self.message.id, "the panel is edited in place, not posted anew"
        self.message = r.message
        return r


async def place_both_and_end(taps: Taps, words: dict[str, str]) -> None:
    """The typical turn: both rolled dice into workroom 1, then end the turn."""
    record, game = await taps.table.bot.service.queries.game(taps.gid)
    dice = list(game.state.players[game.current_player].storeroom)
    assert len(dice) == 2
    for _die in dice:
        _id, options = panel_select(taps.message, taps.gid)
        first = options[0]["label"]
        assert first.startswith(words["place"]), first
        await taps.pick(index=0)  # "Place the 4 → workroom 1"
        await taps.pick(index=0)  # "c3" / "next to the 3 (c3)"
        assert taps.message.attachments and taps.message.attachments[0].filename == "studio.png"
        assert words["done"] in taps.message.content
    await taps.press("endask")
    assert words["confirm"] in taps.message.content
    mid_turn = taps.message.attachments[0].data
    seat = game.current_player
    await taps.press("endok")
    assert words["over"] in taps.message.content
    assert not taps.message.components
    # The picture left on the panel is the studio as the turn left it, the next player to
    # play, not the mid-turn one still marking this player to play.
    after_record, after = await taps.table.bot.service.queries.game(taps.gid)
    assert after.current_player != seat
    names = [s.display_name for s in after_record.seats]
    lang = words["lang"]
    expected = await taps.table.bot.pictures.studio(taps.gid, after_record.version, after, names, seat, lang)
    assert taps.message.attachments[0].data == expected != mid_turn
    del record


EN = {
    "lang": "en",
    "place": "Place the ",
    "done": "Done: Place the ",
    "confirm": "End your turn?",
    "over": "Your turn is over",
}
FR = {
    "lang": "fr",
    "place": "Poser le ",
    "done": "Fait : Poser le ",
    "confirm": "Finir votre tour ?",
    "over": "Votre tour est fini",
}


@pytest.mark.parametrize("locale,words", [("en-US", EN), ("fr", FR)])
async def test_a_typical_turn_from_the_dm_takes_six_taps(table: Table, locale: str, words: dict[str, str]) -> None:
    for u in table.users:
        u.user.locale = locale
    gid, game, seated = await started(table)
    counts = []
    for _turn in range(2):
        _record, game = await table.bot.service.queries.game(gid)
        user = seated[game.current_player]
        dm = await panel_dm(table, user)
        assert dm.attachments and dm.attachments[0].filename == "studio.png"
        posts_before = len(table.standin.channel_messages(table.channel))
        taps = Taps(table, gid, user, dm)
        await place_both_and_end(taps, words)
        counts.append(taps.count)
        posts = table.standin.channel_messages(table.channel)
        assert len(posts) == posts_before + 1
        # The public post tells the turn in words (the server's language, English here).
        told = posts[-1].content
        assert " in workroom 1" in told and "ended the turn" in told and not NOTATION.search(told), told
        _record, after = await table.bot.service.queries.game(gid)
        assert after.state.turn == game.state.turn + 1
        assert after.state.last_turn is not None and len(after.state.last_turn.plays) == 3
    assert all(c <= TYPICAL_TURN_TAPS for c in counts), counts


async def test_the_channel_play_button_opens_the_same_panel_and_undo_works(table: Table) -> None:
    gid, game, seated = await start_game(table)
    post = table.standin.channel_messages(table.channel)[-1]
    current, other = seated[game.current_player], seated[1 - game.current_player]
    ids = custom_ids(post)
    assert f"cubist:{gid}:play" in ids
    assert not any(i.endswith((":b:end", ":b:undo")) for i in ids), "public buttons do not act on the game"
    waiting = await other.click(post, f"cubist:{gid}:play")
    assert waiting.ephemeral and "turn" in waiting.content and not panel_select_or_none(waiting.message, gid)
    r = await current.click(post, f"cubist:{gid}:play")
    assert r.ephemeral and r.attachments[0].filename == "studio.png"
    taps = Taps(table, gid, current, r.message)
    await taps.pick(index=0)
    await taps.pick(index=0)
    _record, mid = await table.bot.service.queries.game(gid)
    assert len(mid.state.this_turn.plays) == 1
    before = await table.snapshot()
    await taps.press("undo")
    assert "Undone" in taps.message.content
    _record, back = await table.bot.service.queries.game(gid)
    assert back.state.this_turn.plays == () and await table.snapshot() != before
    # A stale select (drawn before the undo) answers with the panel as it stands now.
    await taps.press("endask")
    assert "End your turn?" in taps.message.content
    await taps.press("back")
    assert panel_select(taps.message, gid)


def panel_select_or_none(message: Any, gid: int) -> bool:
    return any(i.startswith(f"cubist:{gid}:t:") for i in custom_ids(message))


async def test_an_old_panel_redraws_itself_instead_of_playing_a_stale_choice(table: Table) -> None:
    gid, game, seated = await start_game(table)
    current = seated[game.current_player]
    dm = await panel_dm(table, current)
    post = table.standin.channel_messages(table.channel)[-1]
    r = await current.click(post, f"cubist:{gid}:play")
    channel_panel = Taps(table, gid, current, r.message)
    await channel_panel.pick(index=0)
    await channel_panel.pick(index=0)  # a move from the channel panel: the DM's panel is now stale
    _record, mid = await table.bot.service.queries.game(gid)
    select_id, options = panel_select(dm, gid)
    again = await current.select(dm, select_id, [options[0]["value"]])
    assert "moved on" in again.content
    _record, still = await table.bot.service.queries.game(gid)
    assert still.state.this_turn.plays == mid.state.this_turn.plays


class PhysicalTaps(Taps):
    """Counts physical taps: a button is one, a select two (open it, pick)."""

    async def pick(self, starts: str = "", *, index: int | None = None) -> Any:
        before = self.selects
        r = await super().pick(starts, index=index)
        self.count += self.selects - before  # a select is opened first
        return r

    async def press_id(self, custom_id: str) -> Any:
        r = await self.user.click(self.message, custom_id)
        return self._answered(r)


def ids_starting(message: Any, prefix: str) -> list[str]:
    return [i for i in custom_ids(message) if i.startswith(prefix)]


@pytest.mark.parametrize("locale,place,where", [("en-US", "Place the ", "Where does"), ("fr", "Poser le ", "Où va")])
async def test_tap_a_die_tap_a_lettered_cell_six_taps_a_turn(table: Table, locale: str, place: str, where: str) -> None:
    """Issue 27 item 1 and 2: die buttons, then a button per cell lettered A, B, C… as the
    studio picture shows them; two dice and the end of the turn in six physical taps."""
    for u in table.users:
        u.user.locale = locale
    gid, game, seated = await started(table)
    user = seated[game.current_player]
    taps = PhysicalTaps(table, gid, user, await panel_dm(table, user))
    for _die in range(2):
        dice = ids_starting(taps.message, f"cubist:{gid}:die:")
        assert dice, custom_ids(taps.message)
        labels = [c["label"] for row in taps.message.components for c in row["components"] if c["custom_id"] in dice]
        assert all(label.startswith(place) for label in labels), labels
        await taps.press_id(dice[0])
        assert where in taps.message.content, taps.message.content
        cells = ids_starting(taps.message, f"cubist:{gid}:cell:")
        letters = [c["label"] for row in taps.message.components for c in row["components"] if c["custom_id"] in cells]
        assert letters == [chr(ord("A") + i) for i in range(len(letters))] and len(letters) <= 20
        assert taps.message.attachments[0].filename == "studio.png"
        await taps.press_id(cells[0])
        assert "A" in taps.message.content
    await taps.press("endask")
    await taps.press("endok")
    assert taps.count == 6, taps.count
    _record, after = await table.bot.service.queries.game(gid)
    assert after.state.turn == game.state.turn + 1


def test_cell_letters_go_in_reading_order_across_the_studio_picture() -> None:
    """Issue 27 item 2: A, B, C… row by row across the picture (workroom 1 left of workroom 2)."""
    from bot.panel.cells import cells_for, marks_for, placeable
    from engine.moves import EndTurn, Place

    game = Game.new(2, 4)
    for _ in range(3):  # a few dice in both workrooms
        for m in [m for m in game.legal_moves() if isinstance(m, Place)][:1]:
            game.apply(m)
        game.apply(next(m for m in game.legal_moves() if isinstance(m, EndTurn)))
    die = str(placeable(game)[0])
    cells = cells_for(game, die)
    keys = [(m.cell // 6, m.room, m.cell % 6) for _letter, m in cells]
    assert keys == sorted(keys) and [letter for letter, _m in cells] == list("ABCDEFGHIJKLMNOPQRST"[: len(cells)])
    assert marks_for(game, die) == {(m.room, m.cell): letter for letter, m in cells}
