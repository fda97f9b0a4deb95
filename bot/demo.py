"""The offline demo: a whole game through the real bot on the local Discord stand-in.

Simple players (the engine's greedy player deciding, the stand-in's driver clicking like a
user) play from ``/cubist lobby new`` to the final scores through the turn panel of their
turn-start DM: each move is found among the panel's choices by its words' place in the
tree and picked, End turn is confirmed.  Every picture the bot posts in the channel and a
transcript (the posts in the order they appeared) go to the output folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.client import CubistBot
from bot.config import WebPlan
from bot.i18n import t
from bot.panel import choice_tree, leaves
from bot.panel.cells import cells_for
from bot.web.links import SPECTATOR
from engine import Game
from engine.moves import EndTurn, Move, Place, verb
from engine.players import GreedyPlayer
from standin import Channel, Player, StandIn
from standin.discord_target import point_discord_at
from standin.models import Permission

NAMES = ("Ada", "Bruno", "Chloé", "Dmitri")


async def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not answer in time")
        await asyncio.sleep(0.005)


async def start_bot(server: StandIn, bot: CubistBot) -> asyncio.Task[None]:
    point_discord_at(server.url)
    task = asyncio.create_task(bot.start(server.token))
    await wait_until(lambda: bot.is_ready() or task.done(), 15)
    if task.done():
        task.result()
    return task


def _select(message: Any, prefix: str) -> str | None:
    for row in message.components:
        for c in row.get("components", []):
            if c.get("custom_id", "").startswith(prefix):
                return c["custom_id"]
    return None


async def _panel_dm(server: StandIn, user: Player, game_id: int, version: int) -> Any:
    """The user's turn-start DM once it carries the panel for this version of the game."""
    prefix = f"cubist:{game_id}:t:{version}:"

    def found() -> Any:
        return next((m for m in reversed(server.dms(user)) if _select(m, prefix)), None)

    await wait_until(lambda: found() is not None)
    return found()


async def _moved_on(bot: CubistBot, game_id: int, version: int, move: Move, message: Any) -> None:
    """The move was stored (the game's version moved on), whatever language the panel speaks."""
    record, _game = await bot.service.queries.game(game_id)
    if record.version <= version:
        raise RuntimeError(f"the bot refused {move}: {message.content}")


async def play_through_panel(server: StandIn, bot: CubistBot, user: Player, game_id: int, move: Move) -> int:
    """Play ``move`` in the user's DM panel as a player would; returns the physical taps it
    took (a button is one, a select two: open it, pick).  A die goes by its button and then
    its lettered cell; an end by End turn and the confirmation; the rest by the menu."""
    record, game = await bot.service.queries.game(game_id)
    message = await _panel_dm(server, user, game_id, record.version)
    parsed = move
    taps = 0

    async def press(custom_id: str) -> Any:
        nonlocal taps, message
        r = await user.click(message, custom_id)
        taps += 1
        if r.failed:
            raise RuntimeError(f"the panel refused {move}: {r.violations}")
        message = r.message
        return r

    if isinstance(parsed, Place):
        die = _select(message, f"cubist:{game_id}:die:{record.version}:{parsed.die}")
        if die is not None:
            await press(die)
            cell = _select(
                message, f"cubist:{game_id}:cell:{record.version}:{parsed.die}:{parsed.room + 1}:{parsed.cell}"
            )
            if cell is not None:
                await press(cell)
                await _moved_on(bot, game_id, record.version, move, message)
                return taps
            await press(_select(message, f"cubist:{game_id}:back:") or "")
    if isinstance(parsed, EndTurn) and (ask := _select(message, f"cubist:{game_id}:endask:")):
        await press(ask)
        keep = sorted("".join(map(str, parsed.keep)))
        prefix = f"cubist:{game_id}:endok:{record.version}:"
        ids = [c.get("custom_id", "") for row in message.components for c in row.get("components", [])]
        wanted = [i for i in ids if i.startswith(prefix) and sorted(i[len(prefix) :]) == keep]
        if not wanted:  # many ways to end: the menu of the others, then the confirmation
            other = _select(message, f"cubist:{game_id}:endpick:")
            assert other is not None, message.components
            r = await user.select(message, other, [str(move)])  # the menu's values are the moves' texts
            taps += 2
            message = r.message
            wanted = [_select(message, prefix) or ""]
        await press(wanted[0])
        return taps
    names = [s.display_name for s in record.seats]
    tree = choice_tree(game, "en", names)
    path = next(p for p, leaf in leaves(tree) if leaf.move == parsed)
    for depth, index in enumerate(path, 1):
        button = _select(message, f"cubist:{game_id}:tb:{record.version}:{'.'.join(map(str, path[:depth]))}")
        if button is not None and button.endswith(f":{'.'.join(map(str, path[:depth]))}"):
            await press(button)  # few choices: a button each
            continue
        select = _select(message, f"cubist:{game_id}:t:")
        assert select is not None, message.components
        r = await user.select(message, select, [str(index)])
        taps += 2  # open the menu, pick
        if r.failed:
            raise RuntimeError(f"the panel refused {move}: {r.violations}")
        message = r.message
    if isinstance(move, EndTurn):
        confirm = _select(message, f"cubist:{game_id}:endok:")
        assert confirm is not None, message.content
        await press(confirm)
    else:
        await _moved_on(bot, game_id, record.version, move, message)
    return taps


def _as_offered(game: Game, move: Move) -> Move:
    """A person starting an empty workroom taps one of the lettered cells the panel offers
    (its middle), not any cell of it: the same die in the same workroom, there."""
    if not isinstance(move, Place) or game.state.players[game.current_player].workrooms[move.room]:
        return move
    offered = [m for _letter, m in cells_for(game, str(move.die)) if m.room == move.room]
    return move if not offered or move in offered else offered[0]


async def play_demo_game(
    server: StandIn,
    bot: CubistBot,
    users: list[Player],
    channel,
    seed: int,
    *,
    computers: int = 0,
    panel: bool = False,
    progress: bool = False,
    tap_log: list[tuple[list[str], int]] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> int:
    """Drive a whole game (with ``computers`` computer players besides ``users``); returns
    the game id.  ``panel``: the players click through their DM panel instead of typing
    ``/cubist move``; ``progress``: print a line per turn; ``tap_log`` collects each human
    turn's kinds of action and physical taps (with ``panel``)."""
    options: dict[str, object] = {"players": len(users) + computers}
    if computers:
        options.update(computers=computers, level="greedy")
    first = await users[0].slash(channel, "cubist lobby new", options=options)
    assert not first.failed, first
    channel = await game_channel(server, channel, first)  # the game's own thread, where the bot may open one
    for u in users[1:]:
        r = await u.slash(channel, "cubist lobby join")
        assert not r.failed and "joined" in r.content, r.content
    if not computers or len(users) > 1:  # a solo table starts by itself
        r = await users[0].slash(channel, "cubist lobby start")
        assert not r.failed, r.content
    record = await bot.service.queries.game_in_channel(channel.id)
    assert record is not None
    if on_start is not None:
        on_start(record.id)
    by_id = {u.id: u for u in users}
    deciders = {s.user_id: GreedyPlayer(seed + s.seat) for s in record.seats if s.user_id is not None}
    taps_this_turn = 0
    turn_taps = tap_log if tap_log is not None else []
    while True:
        record, game = await bot.service.queries.game(record.id)
        if game.is_over:
            # A computer's last move is stored before its turn is posted: wait for the post,
            # or a caller reading the channel may miss the end (the tests did, now and then).
            await bot.computers.idle()
            return record.id
        user_id = record.seats[game.current_player].user_id
        if user_id is None:  # a computer player's turn: the bot plays it
            await bot.computers.idle()
            await asyncio.sleep(0.01)
            continue
        move = deciders[user_id].choose(game)
        if panel:
            move = _as_offered(game, move)
        user = by_id[user_id]
        posted = len(server.channel_messages(channel))
        if panel:
            taps = await play_through_panel(server, bot, user, record.id, move)
            taps_this_turn = taps + (taps_this_turn if game.state.this_turn.plays else 0)
            if isinstance(move, EndTurn):
                await wait_until(lambda n=posted: len(server.channel_messages(channel)) > n)
                kinds = [*(verb(p.move) for p in game.state.this_turn.plays), "end"]
                turn_taps.append((kinds, taps_this_turn))
                if progress:
                    what = ", ".join(kinds)
                    print(f"  turn {game.state.turn + 1}: {user.name} played {taps_this_turn} taps ({what})")
            continue
        if isinstance(move, EndTurn):
            result = await user.slash(channel, "cubist end", keep=" ".join(map(str, move.keep)))
        else:
            result = await user.slash(channel, "cubist move", move=str(move))
        if result.failed or "not allowed" in result.content or "not your turn" in result.content:
            raise RuntimeError(f"the bot refused {move}: {result.content}")
        if isinstance(move, EndTurn):
            await wait_until(lambda n=posted: len(server.channel_messages(channel)) > n)


async def game_channel(server: StandIn, channel: Channel, answer: Any, *, thread: object = None) -> Channel:
    """Where the game opened in ``channel`` by the ``/cubist lobby new`` that got ``answer``
    lives: the thread the bot opens from its answer where it may create threads (and was not
    told ``thread:False``), else the channel.  Waits until the thread holds the lobby post."""
    may = server.bot_permissions_in(channel) & Permission.CREATE_PUBLIC_THREADS
    if not may or thread is False or answer.message is None:
        return channel
    opened = answer.message.id  # a thread started from a message takes its id

    def ready() -> bool:
        found = server.channels.get(opened)
        return found is not None and bool(server.channel_messages(found))

    await wait_until(ready)
    return server.channels[opened]


MENTION = re.compile(r"<([@#])!?(\d+)>")
DEMO_FILE = re.compile(r"^\d{3}-.+\.(png|gif)$")


def _controls(components: list[dict[str, Any]]) -> str:
    """A message's buttons and menus as a player sees them: [Place the 4] [End turn] ⟨What do you do?⟩."""
    shown = []
    for row in components:
        for c in row.get("components", []):
            if c.get("type") == 2:
                shown.append(f"[{c.get('label') or c.get('emoji', {}).get('name', '?')}]")
            elif c.get("placeholder"):
                shown.append(f"⟨{c['placeholder']}⟩")
    return " ".join(shown)


def write_transcript(
    server: StandIn, channel: Channel, users: list[Player], out: Path, game_id: int, players: int, computers: int
) -> tuple[int, list[str], list[str]]:
    """The demo's transcript: every channel and thread post and every DM the players got, in
    the order they happened, pictures inline; a DM or panel as it was sent (its text, buttons
    and pictures), then each edit as what changed; mentions as @Name and #channel.  Needs a
    stand-in that keeps edits (``StandIn(keep_edits=True)``) to show more than the last
    version.  Returns (pictures written, lines, picture files)."""
    names = {u.id: u.name for u in users} | {c.id: c.name or "channel" for c in server.channels.values()}

    def plain(text: str) -> str:
        return MENTION.sub(lambda m: f"{m.group(1)}{names.get(int(m.group(2)), m.group(2))}", text)

    places = [channel, *(c for c in server.channels.values() if c.parent_id == channel.id)]
    seen = [(m, "") for place in places for m in server.channel_messages(place)]
    seen += [(m, u.name) for u in users for m in server.dms(u)]
    # One event per version: the message as sent, then each edit, all in the order they happened.
    events = [(v, m, to, i) for m, to in seen for i, v in enumerate(m.versions or [m.version(m.id)])]
    lines = [f"# Cubist demo: game {game_id}, {players} players ({_computers(computers)})\n"]
    files: list[str] = []
    for version, msg, to, index in sorted(events, key=lambda e: e[0].at):
        where = f"{msg.author.name} → {to} (DM)" if to else msg.author.name
        if index == 0:
            before = None
            lines.append(f"**{where}**: {plain(version.content)}\n")
        else:
            before = msg.versions[index - 1]
            if version.content != before.content:
                said = plain(version.content)
            else:  # which message: its first words
                first = plain(version.content).split("\n", 1)[0].replace("**", "")
                quoted = f"“{first[:60]}…”" if len(first) > 60 else f"“{first}”"
                took_off = before.components and not version.components
                said = f"{quoted} loses its buttons" if took_off else f"{quoted}, same text"
            lines.append(f"**{where}, edited**: {said}\n")
        controls = _controls(version.components)
        if controls and (before is None or version.components != before.components):
            lines.append(f"> {controls}\n")
        kept = {a.id for a in before.attachments} if before else set()
        for a in version.attachments:
            if a.id in kept:
                continue
            name = f"{len(files) + 1:03d}-{a.filename}"
            (out / name).write_bytes(a.data)
            files.append(name)
            lines.append(f"![{name}]({name})\n")
    (out / "transcript.md").write_text("\n".join(lines), encoding="utf-8")
    return len(files), lines, files


def _computers(n: int) -> str:
    return "no computer" if n == 0 else "1 computer" if n == 1 else f"{n} computers"


def quiet_discord_logs() -> None:
    """The demo's log without discord.py's connection lines ("logging in using static token",
    "Shard ID 0 has connected to Gateway"), which read as if the demo reached Discord: it
    reaches the stand-in, and says so itself.  Warnings and errors still show."""
    for name in ("discord", "bot.client", "bot.web.server"):
        logging.getLogger(name).setLevel(logging.WARNING)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run_demo(out: Path, *, players: int = 3, computers: int = 1, seed: int = 7, keep_open: bool = False) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for earlier in out.iterdir():  # this demo's own pictures from an earlier run, nothing else
        if DEMO_FILE.match(earlier.name) or earlier.name == "transcript.md":
            earlier.unlink()
    db = out / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{db}{suffix}").unlink()
    quiet_discord_logs()
    server = StandIn(keep_edits=True)
    await server.start()
    print(f"A local Discord stand-in listens on {server.url}: the bot talks to it, never to Discord.")
    guild = server.add_guild("Cubist Club")
    channel = server.add_channel(guild, "cubist")
    users = [server.add_user(n) for n in NAMES[: players - computers]]
    port = free_port()  # the web board, on this machine only
    web = WebPlan(f"http://127.0.0.1:{port}", "127.0.0.1", port, None)
    bot = CubistBot(db, guild_ready_timeout=0.05, seed=seed, computer_pause=0.2, web=web)
    task = await start_bot(server, bot)

    def watch_link(game_id: int) -> str:
        assert bot.links is not None
        return bot.links.url(game_id, SPECTATOR, bot.clock())

    def announce(game_id: int) -> None:
        print(f"Watch it live in a browser while the demo plays: {watch_link(game_id)}", flush=True)

    try:
        print(f"Playing a {players}-player game ({_computers(computers)}) through the turn panel…")
        game_id = await play_demo_game(
            server, bot, users, channel, seed, computers=computers, panel=True, progress=True, on_start=announce
        )
        record, game = await bot.service.queries.game(game_id)
        n, _lines, shown = write_transcript(server, channel, users, out, game_id, players, computers)
        names = [s.display_name for s in record.seats]
        won = t("common.and", "en").join(names[w] for w in game.winners())
        points = game.score(game.winners()[0]) if game.winners() else 0
        chart = next((f for f in shown if f.endswith("scores.png")), "")
        replay = next((f for f in shown if f.endswith("replay.gif")), "")
        files = (
            f"Game {game_id} finished: {won} won with {points} points. {n} pictures; the transcript is "
            f"{out / 'transcript.md'}, the score chart {out / chart}, the replay {out / replay}."
        )
        if keep_open:
            print(files)
            print(f"The web board stays open (replay the game there) until Ctrl-C: {watch_link(game_id)}", flush=True)
            await asyncio.Event().wait()
        print(f"{files} The web board stops with the demo now (--keep-open keeps it up for the replay).")
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(task, 5)
        await server.stop()
    problems = [str(e) for e in server.errors] + [str(v) for v in server.violations]
    for p in problems:
        print("stand-in:", p)
    return 1 if problems else 0
