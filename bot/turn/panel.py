"""The private turn panel on Discord: one message that follows the player through the turn.

It is the turn-start DM itself, or an ephemeral message opened from the channel's turn
post, and every pick edits it in place: the studio picture is redrawn after each move,
the first select offers what to do in words (``bot.panel``), Undo works until the turn
ends and End turn says what will happen before it happens.  The service decides
everything; this module only loads, asks and answers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypeVar

import discord

from bot.chat import buttons
from bot.chat.base import Bot
from bot.chat.board_link import board_link
from bot.chat.delivery import deliver_turn
from bot.chat.language import user_language
from bot.chat.load import host, load
from bot.chat.replies import answer, carries_post, clip, defer, in_time, png_file, post_failed, send_error
from bot.i18n import Message, join, localize, t
from bot.panel import Choice, TreeError, choice_tree, node_at
from bot.panel.cells import cells_for, placeable
from bot.panel.rows import ROW_WIDTH, ROWS, chunks
from bot.panel.words import Describer, sensible_end
from bot.refusal_words import said
from bot.service.game import Access, MoveOutcome
from bot.service.gate import Entry
from bot.service.refusals import StaleChoice, UserError
from bot.store import GameRecord
from bot.turn import faces
from bot.words.story import move_words
from engine import Game
from engine.moves import Abandon, EndTurn, Move, Place, Undo

log = logging.getLogger(__name__)
T = TypeVar("T")


# --- answering ---------------------------------------------------------------------------


def in_place(interaction: discord.Interaction) -> bool:
    """True when the interaction comes from a panel we may edit: an ephemeral message, or a
    message of ours in a DM (the turn-start DM becomes the panel)."""
    message = interaction.message
    if message is None:
        return False
    return bool(message.flags.ephemeral) or interaction.guild_id is None


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    view: discord.ui.View | None,
    png: bytes | None = None,
    edit: bool,
) -> None:
    """The one way the panel answers: edit the panel in place (``edit``) or open a new
    private one; the first answer or, after a deferral, an edit of the original response."""
    kwargs: dict[str, Any] = {"content": clip(content), "view": view}
    if edit or interaction.response.is_done():
        if png is not None:
            kwargs["attachments"] = [png_file(png, "studio.png")]
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        return
    if png is not None:
        kwargs["file"] = png_file(png, "studio.png")
    if view is None:
        kwargs.pop("view")
    await interaction.response.send_message(ephemeral=True, **kwargs)


# --- loading -----------------------------------------------------------------------------


async def _load(interaction: discord.Interaction, game_id: int) -> tuple[Bot, GameRecord, Game, int] | None:
    """The game and the clicker's seat, or None after answering why not (bot/chat/load.py)."""
    loaded = await load(interaction, game_id, Access.PANEL)
    if loaded is None or loaded.seat is None:
        return None
    return host(interaction), loaded.record, loaded.game, loaded.seat.seat


def _names(record: GameRecord) -> list[str]:
    return [s.display_name for s in record.seats]


# --- drawing -----------------------------------------------------------------------------


def _status(record: GameRecord, game: Game, lang: str) -> str:
    me = game.state.players[game.current_player]
    room = join([str(v) for v in me.storeroom], lang) if me.storeroom else t("panel.empty", lang)
    return t("panel.status", lang, game=record.id, turn=game.state.turn + 1, storeroom=room, supply=me.supply)


def _row(item: Any, row: int) -> Any:
    item.row = row
    return item


MAX_ACTION_BUTTONS = 2 * ROW_WIDTH  # the top level's choices as buttons: two rows
MAX_CHOICE_BUTTONS = (ROWS - 1) * ROW_WIDTH  # a pick's choices as buttons, above the last row


def _moves_of(choice: Choice) -> list[Move]:
    if choice.move is not None:
        return [choice.move]
    return [m for c in choice.children for m in _moves_of(c)]


def _own_button(choice: Choice) -> bool:
    """Placements have the die buttons and ending the turn its own button: no second one.
    Abandoning a workroom stays in the menu: a rare move, not one to meet a tap away."""
    moves = _moves_of(choice)
    return not all(isinstance(m, Place | EndTurn | Abandon) for m in moves)


def panel_view(
    record: GameRecord,
    game: Game,
    lang: str,
    path: tuple[int, ...] = (),
    options: tuple[Choice, ...] | None = None,
    *,
    link: discord.ui.Item[Any] | None = None,
    extras: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.View:
    """The panel, in rows: a button per die that can be placed (tap it, then a lettered cell);
    the other choices as buttons where they are few and there is room (a button is one tap,
    a select two); the select of every choice; Back or End turn, Undo, Board and ``link``;
    ``extras`` (the turn-start DM's Snooze and Stop) in a row of their own."""
    if options is None:
        options = node_at(choice_tree(game, lang, _names(record)), path) or ()
    v = record.version
    rows: list[list[discord.ui.Item[Any]]] = []
    last = 1 + bool(extras)  # the rows under the choices
    if not path:
        describe = Describer(game, lang, _names(record))
        dice: list[discord.ui.Item[Any]] = [
            faces.die_button(record.id, v, str(die), t("panel.btn.place", lang, die=describe.die(die))[:80])
            for die in placeable(game)
        ]
        rows += chunks(dice)
        actions = [(i, c) for i, c in enumerate(options) if _own_button(c)]
        room = (ROWS - len(rows) - bool(options) - last) * ROW_WIDTH
        if len(actions) <= min(MAX_ACTION_BUTTONS, room):
            shortcuts: list[discord.ui.Item[Any]] = [faces.tree_button(record.id, v, (i,), c.label) for i, c in actions]
            rows += chunks(shortcuts)
    elif len(options) <= min(MAX_CHOICE_BUTTONS, (ROWS - last) * ROW_WIDTH):
        picks: list[discord.ui.Item[Any]] = [
            faces.tree_button(record.id, v, (*path, i), c.label) for i, c in enumerate(options)
        ]
        rows += chunks(picks)
        options = ()  # every choice has its button
    if options:
        select_options = [discord.SelectOption(label=c.label, value=str(i)) for i, c in enumerate(options)]
        placeholder = t("panel.pick" if not path else "panel.pick_more", lang)
        rows.append([faces.tree_select(record.id, v, path, select_options, placeholder)])
    nav: list[discord.ui.Item[Any]] = []
    if path:  # inside a choice: back out of it (the turn ends from the first level)
        nav.append(faces.back_button(record.id, v, lang))
    if game.can_undo():
        nav.append(faces.undo_button(record.id, v, lang))
    if not path and any(isinstance(m, EndTurn) for m in game.legal_moves()):
        nav.append(faces.end_turn_button(record.id, v, lang))
    nav.append(buttons.game_button(record.id, "board", lang))
    if link is not None:  # "Open the board": the web board, for this member (bot/chat/board_link.py)
        nav.append(link)
    rows.append(nav)
    if extras:
        rows.append(list(extras))
    view = buttons.Faces()
    for number, items in enumerate(rows):
        for item in items:
            view.add_item(_row(item, number))
    return view


def cells_view(record: GameRecord, die: str, cells: list[tuple[str, Place]], lang: str) -> discord.ui.View:
    """A lettered button per cell ``die`` may go to, and Back."""
    view = buttons.Faces()
    for i, (letter, move) in enumerate(cells):
        view.add_item(
            _row(faces.cell_button(record.id, record.version, die, move.room, move.cell, letter), i // ROW_WIDTH)
        )
    view.add_item(_row(faces.back_button(record.id, record.version, lang), ROWS - 1))
    return view


async def show(
    interaction: discord.Interaction,
    bot: Bot,
    record: GameRecord,
    game: Game,
    seat: int,
    note: str = "",
    *,
    picture: bool = True,
) -> None:
    """The panel's first select with (``picture``) a freshly drawn studio."""
    lang = user_language(interaction)
    png = None
    if picture:
        style = await bot.service.picture_style(interaction.user.id)
        drawing = bot.pictures.studio(record.id, record.version, game, _names(record), seat, lang, style=style)
        png = await in_time(interaction, drawing, edit=in_place(interaction))
    content = "\n".join(p for p in (note, _status(record, game, lang)) if p)
    if seat != game.current_player:
        who = record.seats[game.current_player].display_name
        content = "\n".join(p for p in (note, t("panel.waiting", lang, name=who)) if p)
        await reply(interaction, content, view=None, png=png, edit=in_place(interaction))
        return
    view = panel_view(record, game, lang, link=board_link(bot, record.id, lang, interaction.user.id))
    await reply(interaction, content, view=view, png=png, edit=in_place(interaction))


# --- what the items do -------------------------------------------------------------------


async def open_panel(interaction: discord.Interaction, game_id: int) -> None:
    loaded = await _load(interaction, game_id)
    if loaded is None:
        return
    bot, record, game, seat = loaded
    await show(interaction, bot, record, game, seat)


async def _fresh(interaction: discord.Interaction, game_id: int, version: int) -> tuple[Any, ...] | None:
    """Load; a panel drawn before the last move is redrawn as the game stands (None then)."""
    loaded = await _load(interaction, game_id)
    if loaded is None:
        return None
    bot, record, game, seat = loaded
    if record.version != version or seat != game.current_player:
        note = t("panel.stale", user_language(interaction))
        await show(interaction, bot, record, game, seat, note)
        return None
    return loaded


async def pick_die(interaction: discord.Interaction, game_id: int, version: int, die: str) -> None:
    """A die was tapped: the cells it may go to, as lettered buttons, and the studio with the
    same letters on those cells."""
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    bot, record, game, seat = loaded
    lang = user_language(interaction)
    cells = cells_for(game, die)
    if not cells:
        await show(interaction, bot, record, game, seat, t("panel.stale", lang))
        return
    view = cells_view(record, die, cells, lang)
    words = Describer(game, lang, _names(record)).die(cells[0][1].die)
    offered = sum(1 for m in game.legal_moves() if isinstance(m, Place) and str(m.die) == die)
    lines = [t("panel.where", lang, die=words, count=len(cells))]
    if offered > len(cells):
        lines.append(t("panel.where_more", lang))
    style = await bot.service.picture_style(interaction.user.id)
    drawing = bot.pictures.studio(record.id, record.version, game, _names(record), seat, lang, die=die, style=style)
    png = await in_time(interaction, drawing, edit=in_place(interaction))
    await reply(interaction, "\n".join(lines), view=view, png=png, edit=in_place(interaction))


async def place(
    interaction: discord.Interaction, game_id: int, version: int, die: str, room: int, cell: int, letter: str
) -> None:
    """A lettered cell was tapped: place the die there (the engine decides whether it may)."""
    lang = user_language(interaction)
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    bot, record, game, seat = loaded
    placing = (m for m in game.legal_moves() if isinstance(m, Place) and str(m.die) == die)
    move = next((m for m in placing if (m.room, m.cell) == (room, cell)), None)
    if move is None:
        await show(interaction, bot, record, game, seat, t("panel.stale", lang))
        return
    words = Describer(game, lang, _names(record)).die(move.die)
    await play(interaction, game_id, version, move, what=t("panel.placed", lang, die=words, letter=letter))


async def back(interaction: discord.Interaction, game_id: int, version: int) -> None:
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    bot, record, game, _seat = loaded
    lang = user_language(interaction)
    view = panel_view(record, game, lang, link=board_link(bot, record.id, lang, interaction.user.id))
    await reply(interaction, _status(record, game, lang), view=view, edit=in_place(interaction))


async def pick(
    interaction: discord.Interaction, game_id: int, version: int, path: tuple[int, ...], values: list[str]
) -> None:
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    bot, record, game, seat = loaded
    lang = user_language(interaction)
    try:
        tree = choice_tree(game, lang, _names(record))
    except TreeError:  # never seen; the panel is unusable, typing still works
        log.exception("no panel for game %s", game_id)
        await send_error(interaction, Message("panel.no_panel"))
        return
    options = node_at(tree, path)
    index = int(values[0]) if values and values[0].isdigit() else -1
    if options is None or not 0 <= index < len(options):
        await show(interaction, bot, record, game, seat, t("panel.stale", lang))
        return
    labels = [c.label for c in _trail(tree, (*path, index))]
    choice = options[index]
    if not choice.is_leaf:
        content = t("panel.choosing", lang, what=t("panel.arrow", lang).join(labels))
        link = board_link(bot, record.id, lang, interaction.user.id)
        view = panel_view(record, game, lang, (*path, index), choice.children, link=link)
        await reply(interaction, content, view=view, edit=in_place(interaction))
        return
    assert choice.move is not None
    if isinstance(choice.move, EndTurn):
        await ask_end(interaction, game_id, version, choice.move)
        return
    await play(interaction, game_id, version, choice.move, what=t("panel.arrow", lang).join(labels))


def _trail(tree: tuple[Choice, ...], path: tuple[int, ...]) -> list[Choice]:
    out, options = [], tree
    for i in path:
        out.append(options[i])
        options = options[i].children
    return out


def end_view(
    record: GameRecord, game: Game, seat: int, lang: str, ends: list[EndTurn], move: EndTurn | None = None
) -> tuple[str, discord.ui.View]:
    """What ending now would do (``move``, or the sensible end), its confirmation, the other
    ways to end, and Back."""
    chosen: EndTurn | None = None
    if move is not None:
        chosen = move if move in ends else None
    if chosen is None:
        chosen = sensible_end(game, ends)
    describe = Describer(game, lang, _names(record))
    view = buttons.Faces()
    if chosen is not None:
        kept = join([str(v) for v in chosen.keep], lang) if chosen.keep else t("panel.none", lang)
        back = list(game.state.players[seat].storeroom)
        for v in chosen.keep:
            back.remove(v)
        returned = join([str(v) for v in back], lang) if back else t("panel.none", lang)
        content = t("panel.confirm", lang, kept=kept, returned=returned)
        view.add_item(
            _row(faces.confirm_end_button(record.id, record.version, "".join(map(str, chosen.keep)), lang), 0)
        )
    else:
        content = t("panel.which", lang, dice=join([str(v) for v in game.state.players[seat].storeroom], lang))
    others = [e for e in ends if e != chosen]
    if others and len(others) <= MAX_ACTION_BUTTONS:  # few other ways to end: a button each, one tap
        for k, e in enumerate(others):
            keep = "".join(map(str, e.keep))
            label = describe.end(e)
            view.add_item(
                _row(faces.confirm_end_button(record.id, record.version, keep, lang, label), 1 + k // ROW_WIDTH)
            )
    elif others:
        options = [discord.SelectOption(label=describe.end_option(e)[:100], value=str(e)) for e in others[:25]]
        view.add_item(_row(faces.end_choice_select(record.id, record.version, options, t("panel.keep_other", lang)), 3))
    view.add_item(_row(faces.back_button(record.id, record.version, lang), ROWS - 1))
    return content, view


async def ask_end(interaction: discord.Interaction, game_id: int, version: int, move: EndTurn | None = None) -> None:
    """What ending now would do, with a button to confirm (and the other ways to end)."""
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    _bot, record, game, seat = loaded
    lang = user_language(interaction)
    ends = [m for m in game.legal_moves() if isinstance(m, EndTurn)]
    if not ends:
        await send_error(interaction, Message("panel.cannot_end", why=_why_no_end(game)))
        return
    content, view = end_view(record, game, seat, lang, ends, move)
    await reply(interaction, content, view=view, edit=in_place(interaction))


def _why_no_end(game: Game) -> Message:
    if game.is_abandoning():
        return Message("panel.why_abandoning")
    if not game.has_rolled():
        return Message("panel.why_short")
    return Message("panel.why_none")


async def play(interaction: discord.Interaction, game_id: int, version: int, move: Move, *, what: str = "") -> None:
    """A move picked on the panel drawn at ``version`` (``what``: the picks, in words)."""
    loaded = await _fresh(interaction, game_id, version)
    if loaded is None:
        return
    await answer_move(loaded[0], interaction, game_id, move, entry=Entry.PANEL, version=version, what=what)


async def answer_move(
    bot: Bot,
    interaction: discord.Interaction,
    game_id: int,
    move: Move,
    *,
    entry: Entry,
    version: int | None = None,
    what: str = "",
) -> None:
    """The one way a move is made and answered, typed or picked: the service applies it
    (``entry``: where it came from; ``version``: the panel's, so a second press is stale), in
    time or after a deferral; inside the turn the panel comes back saying what was done
    (``what``, or the move in words), at its end the table goes to the channel."""
    lang = user_language(interaction)
    edit = in_place(interaction)
    playing = bot.service.play_in(game_id, interaction.user.id, move, entry=entry, version=version)
    try:
        outcome = await in_time(interaction, playing, edit=edit)
    except StaleChoice:  # pressed twice, or somebody moved meanwhile: nothing stored
        again = await _load(interaction, game_id)
        if again is not None:
            await show(interaction, *again, t("panel.stale", lang))
        return
    except UserError as e:
        await send_error(interaction, said(e))
        return
    try:
        if outcome.turn_ended:
            await finish_turn(bot, interaction, outcome, edit)
            return
        if isinstance(outcome.move, Undo):
            note = t("panel.undone", lang)
        elif what:
            note = t("panel.done", lang, what=what)
        else:
            note = t("panel.you_did", lang, what=move_words(outcome.move, outcome.game, lang, _names(outcome.record)))
        await show(interaction, bot, outcome.record, outcome.game, outcome.seat, note)
    except Exception as e:  # the move is stored: never "unchanged"; the outbox posts what is missing
        log.exception("answering a stored move in game %s failed", game_id)
        await send_error(interaction, post_failed(e))


async def finish_turn(bot: Bot, interaction: discord.Interaction, outcome: MoveOutcome, edit: bool) -> None:
    """The turn is over: the table goes to the game's channel, the panel says so and loses
    its items.  The post was queued in the outbox with the move: if it fails here, the
    outbox worker posts it and the player reads that the move is saved."""
    record = outcome.record
    lang = user_language(interaction)
    key = "panel.game_over" if outcome.finished else "panel.turn_over"
    carry = carries_post(interaction, record) and interaction.channel is not None
    if not carry:
        await defer(interaction, edit)  # drawing the table takes a while
    channel: Any = (
        interaction.channel if carry else bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
    )
    try:
        # In the game's channel the table post is this interaction's public answer (no
        # request under the global limit); the panel gets a private word after it.
        posted = await deliver_turn(bot, channel, outcome, interaction=interaction if carry else None)
    except Exception as e:
        log.warning("turn post of game %s failed; the outbox has it: %r", record.id, e)
        if carry:
            await send_error(interaction, post_failed(e))
        else:  # the panel itself says so, and loses its buttons: the turn is over
            await _close_panel(bot, interaction, outcome, localize(post_failed(e), interaction.locale), lang)
        return
    # Where the post went: the game may have moved out of a thread that is gone.
    note = t(key, lang, channel=posted.channel.id if posted is not None else record.channel_id)
    if carry:
        await send_error(interaction, note)
        return
    await _close_panel(bot, interaction, outcome, note, lang)


async def _close_panel(bot: Bot, interaction: discord.Interaction, outcome: MoveOutcome, note: str, lang: str) -> None:
    """The panel loses its items and says ``note``.  Its picture was drawn mid-turn, this
    player still to play: it shows the studio as the turn left it, the next player to play."""
    record = outcome.record
    style = await bot.service.picture_style(interaction.user.id)
    png = await bot.pictures.studio(
        record.id, record.version, outcome.game, _names(record), outcome.seat, lang, style=style
    )
    await interaction.edit_original_response(content=note, view=None, attachments=[png_file(png, "studio.png")])


async def studio_reply(
    bot: Bot,
    interaction: discord.Interaction,
    record: GameRecord,
    game: Game,
    seat: int,
    note: str,
) -> None:
    """Answer the player privately with their studio picture and the turn panel."""
    lang = user_language(interaction)
    names = [s.display_name for s in record.seats]
    style = await bot.service.picture_style(interaction.user.id)
    png = await bot.pictures.studio(record.id, record.version, game, names, seat, lang, style=style)
    file = png_file(png, "studio.png")
    mine = game.current_player == seat and not game.is_over
    view = panel_view(record, game, lang, link=board_link(bot, record.id, lang, interaction.user.id)) if mine else None
    await answer(interaction, clip(note), files=[file], view=view)


async def old_panel_button(interaction: discord.Interaction, game_id: int, *, ending: bool) -> None:
    """Buttons and selects of posts from before the turn panel open it (End turn asks first)."""
    loaded = await load(interaction, game_id, Access.SEAT_IN_PLAY)
    if loaded is None or loaded.seat is None:
        return
    record, game, seat = loaded.record, loaded.game, loaded.seat
    if seat.seat != game.current_player:
        playing = record.seats[game.current_player].display_name
        await send_error(interaction, Message("turn.not_your_turn", name=playing))
        return
    if ending:
        await ask_end(interaction, game_id, record.version)
    else:
        await open_panel(interaction, game_id)
