"""Pictures for the bot: rendered off the event loop and cached by game version.

Rendering is CPU work (tens of milliseconds), so it runs in a worker: a thread by
default, or a process pool when ``workers`` > 0 (the load benchmark uses both cores that
way).  The cache key is (game id, version, picture, seat, language, style): a game at a
given version always draws the same bytes, so a cached picture is never stale.  ``style``
is ``render``'s ("iso", seen from a corner; "flat", from straight above): channel posts use
the default, the pictures only one person sees follow their ``/cubist settings pictures``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor

import render
from bot.i18n.pictures import render_labels
from bot.panel.cells import marks_for
from engine import Game, dump_game, load_game

Key = tuple[int, int, str, int, str, str]


def _draw(kind: str, game_json: str, names: list[str], seat: int, lang: str, style: str) -> bytes:
    game = load_game(game_json)
    labels = render_labels(lang)  # cached per language in each worker
    if kind == "table":
        return render.table_png(game, names, labels=labels, style=style)
    if kind == "studio":
        return render.studio_png(game, seat, names, labels=labels, style=style)
    if kind.startswith("studio:"):  # with the turn panel's letters for one die
        marks = marks_for(game, kind.split(":", 1)[1])
        return render.studio_png(game, seat, names, labels=labels, marks=marks, style=style)
    if kind == "museum":
        return render.museum_png(game, labels=labels, style=style)
    raise ValueError(f"unknown picture {kind!r}")


def _warm() -> None:
    """Fill a worker's caches (palette, fonts, sprites, table frames) before real work
    arrives: the first picture in a fresh process costs about ten ordinary ones."""
    for players in (2, 4):
        game = Game.new(players, seed=1)
        render.table_png(game, labels=render_labels("en"))
        render.studio_png(game, 0, labels=render_labels("en"))


class Pictures:
    def __init__(self, workers: int = 0, cache_size: int = 256) -> None:
        self._pool: Executor | None = ProcessPoolExecutor(workers) if workers > 0 else None
        if self._pool is not None:
            # Start and warm the workers now (one job each, best effort), not on the first
            # turns; forking here, before the store's threads exist, is also the safe moment.
            for _ in range(workers):
                self._pool.submit(_warm)
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._cache_size = cache_size

    async def _get(self, key: Key, game: Game, names: list[str]) -> bytes:
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        kind, seat, lang, style = key[2], key[3], key[4], key[5]
        loop = asyncio.get_running_loop()
        if self._pool is not None:
            png = await loop.run_in_executor(self._pool, _draw, kind, dump_game(game), names, seat, lang, style)
        else:
            # A thread gets its own copy: the caller's game may change while we draw.
            png = await asyncio.to_thread(_draw, kind, dump_game(game), names, seat, lang, style)
        self._cache[key] = png
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return png

    async def table(
        self, game_id: int, version: int, game: Game, names: list[str], lang: str, style: str = "iso"
    ) -> bytes:
        return await self._get((game_id, version, "table", -1, lang, style), game, names)

    async def studio(
        self,
        game_id: int,
        version: int,
        game: Game,
        names: list[str],
        seat: int,
        lang: str,
        die: str | None = None,
        style: str = "iso",
    ) -> bytes:
        """The studio; with ``die``, its cells on offer for that die lettered as the panel's buttons."""
        kind = "studio" if die is None else f"studio:{die}"
        return await self._get((game_id, version, kind, seat, lang, style), game, names)

    async def table_files(
        self, game_id: int, version: int, game: Game, names: list[str], lang: str
    ) -> list[tuple[bytes, str]]:
        """(PNG, file name) pairs for a table post (the default style: everyone sees it): the
        table, and with a table too large to read at Discord's preview (4 players) the current
        player's studio as well."""
        files = [(await self.table(game_id, version, game, names, lang), "table.png")]
        if not game.is_over and render.table_needs_studio(game, "iso", names, labels=render_labels(lang)):
            seat = game.current_player
            files.append((await self.studio(game_id, version, game, names, seat, lang), "studio.png"))
        return files

    async def museum(
        self, game_id: int, version: int, game: Game, names: list[str], lang: str, style: str = "iso"
    ) -> bytes:
        return await self._get((game_id, version, "museum", -1, lang, style), game, names)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
