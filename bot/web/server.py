"""The web board's HTTP side (aiohttp): the page, its state, its live event stream, the
replay, and moves.

Who may do what is the link's (bot/web/links.py): every request names its game and carries
a token signed for that game, in the ``X-Cubist-Token`` header.  The link's own URL carries
it as ``?t=`` once: the page moves it into an ``HttpOnly; Secure; SameSite=Strict`` cookie
scoped to the game's path, which the event stream and a reload then use, so no later URL
holds it (a proxy's access log would keep it).  A move takes the header only: no cookie, no
query, so no other site can make a browser play; and its Origin must be PUBLIC_URL's.

A member's token plays their seat on their turn, through ``GameService.play_in`` pinned
to the version the page showed (a replayed or double-sent move is refused as stale),
exactly as a panel button does: the store's transaction queues the turn's channel post and
the next player's DM, and the outbox sends them.  A spectator's token, or a member no
longer seated, only watches.

Every response carries the headers of bot/web/headers.py, refusals and the event stream
included.  Connections are kept in check by bot/web/guard.py, and the address a limit counts
is the client's, behind a trusted proxy too (bot/web/proxy.py)."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import logging
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.config import LOOPBACK
from bot.i18n import language, t
from bot.i18n.catalog import catalogues
from bot.i18n.core import localize
from bot.refusal_words import said
from bot.service.game import GameService, parse
from bot.service.gate import Entry
from bot.service.refusals import StaleChoice, UserError
from bot.store import GameRecord, Status
from bot.store.changes import Fresh, listen_postgres
from bot.store.errors import GameNotFound
from bot.web import view
from bot.web.guard import (
    IDLE_S,
    PER_ADDRESS,
    Guard,
    GuardedHandler,
    Listener,
    connection_cap,
    raise_open_files,
    redact,
)
from bot.web.headers import secure
from bot.web.links import BadLink, Pass, check
from bot.web.live import CLOSED, GONE, Live
from bot.web.proxy import Proxies, origin_of
from bot.web.throttle import Throttle
from engine import Game
from engine.history import replay, start_of

log = logging.getLogger(__name__)

STATIC = {"board.js": "text/javascript", "board.css": "text/css"}
KEEP_ALIVE_S = 20.0
MAX_STREAMS = 8  # event streams per member
SPECTATOR_STREAMS = (200, 2000, 32)  # streams that only watch: per game, in all, per client address
COOKIE = "cubist"  # holds the link's token, for the game's path only
BODY_S = 10.0  # a move's body must arrive within this
STATE_CACHE = 512
SENT_KEPT = 4  # versions per game whose pieces are remembered, to make patches against
SHUTDOWN_S = 2.0
LOCALE_TTL_S = 60.0  # a member's Discord language, looked up again after this long
GZIP_LEVEL = 1  # fast: the state is compressed on the way to every viewer of its kind
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _static(name: str) -> bytes:
    return (resources.files("bot.web") / "static" / name).read_bytes()


class WebBoard:
    """``await board.start()`` serves on ``host:port`` (0: any free port; ``board.port``
    says which); ``await board.stop()``."""

    def __init__(
        self,
        service: GameService,
        *,
        secret: str,
        host: str = "127.0.0.1",
        port: int = 0,
        clock: Callable[[], float] = time.time,
        wake: Callable[[], None] | None = None,
        move_rate: tuple[float, float] = (4.0, 12.0),
        read_rate: tuple[float, float] = (20.0, 60.0),
        public_url: str | None = None,
        trusted_proxies: Iterable[str] = LOOPBACK,
        idle_timeout: float = IDLE_S,
        per_address: int = PER_ADDRESS,
        connections: int | None = None,
        spectator_streams: tuple[int, int, int] = SPECTATOR_STREAMS,
    ) -> None:
        """``public_url``: where players open the board (its origin is the only one whose
        pages may play; unset: ``http://host:port``); ``trusted_proxies``: the addresses
        whose X-Forwarded-For is believed; ``connections``: the cap on open connections
        (unset: below the open-files limit, raised to its hard limit at start)."""
        self.service = service
        self.secret = secret
        self.host = host
        self.port = port
        self.clock = clock
        self.wake = wake or (lambda: None)  # the outbox's poller: the turn post goes out now
        self.live = Live()
        self.moves = Throttle(*move_rate)
        self.reads = Throttle(*read_rate)
        self._streams: dict[str, int] = {}
        self.public_url = public_url
        self.origin = origin_of(public_url) if public_url else None
        self.proxies = Proxies(trusted_proxies)
        self.idle_timeout = idle_timeout
        self.per_address = per_address
        self.connections = connections
        self.spectator_streams = spectator_streams
        self.guard: Guard | None = None
        self._listener: Listener | None = None
        self._secure_cookie = True
        self._cache: OrderedDict[tuple[Any, ...], tuple[bytes, bytes]] = OrderedDict()  # states: JSON, gzipped
        # The quick way to a state nothing has changed since (no database read): per game, a
        # count of the changes heard, and per game and language the state built at that count.
        self._epochs: dict[int, int] = {}
        self._fresh: dict[int, tuple[int, tuple[GameRecord, Game]]] = {}  # game -> (epoch, as committed)
        self._latest: dict[tuple[int, str], tuple[int, tuple[Any, ...]]] = {}
        self._locales: dict[int, tuple[str | None, float]] = {}
        self._loading: dict[tuple[int, int], asyncio.Future[tuple[GameRecord, Game] | None]] = {}
        self._packs: dict[tuple[Any, ...], bytes] = {}  # states as event-stream events
        # (game, lang) -> the last few versions sent (whole or as a patch): their pieces, style
        self._sent: dict[tuple[int, str], dict[int, tuple[frozenset[str], str]]] = {}
        self.drawings = view.Drawings()
        self._runner: web.AppRunner | None = None
        self._unlisten: Callable[[], None] | None = None
        self._stop_pg: Callable[[], Awaitable[None]] | None = None
        self._pages = {name: _static(name) for name in (*STATIC, "board.html")}

    # --- running ----------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=16 * 1024)
        game = "/g/{game:\\d{1,18}}"  # a game id (a longer number is no game, and costly to read)
        app.router.add_get(game, self.page)
        app.router.add_get(f"{game}/state", self.state)
        app.router.add_get(f"{game}/events", self.events)
        app.router.add_get(f"{game}/replay", self.replay)
        app.router.add_get(f"{game}/others", self.others)
        app.router.add_get(f"{game}/me", self.me)
        app.router.add_get(f"{game}/play", self.play)
        app.router.add_post(f"{game}/move", self.move)
        app.router.add_get("/static/{name}", self.asset)
        app.router.add_get("/healthz", self.health)
        return app

    async def start(self) -> None:
        changes = self.service.queries.changes
        self._unlisten = changes.listen(self._heard)
        url = self.service.queries.postgres_url
        if url is not None:
            self._stop_pg = await listen_postgres(url, changes)  # every process's moves
        open_files = raise_open_files()
        total = self.connections or connection_cap(open_files)
        self.guard = Guard(self.proxies, total=total, per_address=self.per_address)
        # Streams end when told (``live.close``); what is left gets SHUTDOWN_S, not a minute.
        self._runner = web.AppRunner(self.app(), handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_S)
        await self._runner.setup()
        server, guard = self._runner.server, self.guard
        assert server is not None
        loop = asyncio.get_running_loop()
        handling: dict[str, Any] = {"keepalive_timeout": self.idle_timeout, "access_log": None}
        self._listener = Listener(guard, lambda peer: GuardedHandler(server, guard, peer, loop=loop, **handling))
        self.port = await self._listener.start(self.host, self.port)  # the port chosen, when asked for any (0)
        if self.origin is None:
            self.origin = origin_of(f"http://{self.host}:{self.port}")
        # Browsers keep a Secure cookie from https, and from http on this machine only.
        host = urlsplit(self.origin).hostname or ""
        self._secure_cookie = self.origin.startswith("https://") or host in ("localhost", "127.0.0.1", "::1")
        log.info(
            "web board on http://%s:%s for %s (open files: %s, connections at most %s)",
            self.host, self.port, self.origin, open_files, total,
        )  # fmt: skip

    def _heard(self, game_id: int, version: int, fresh: Fresh = None) -> None:
        epoch = self._epochs[game_id] = self._epochs.get(game_id, 0) + 1  # what viewers were sent is old now
        self._fresh.pop(game_id, None)
        if fresh is not None and self.live.viewers(game_id) and fresh[0].status != Status.LOBBY:
            # The game as this process committed it: the viewers woken now need no read.
            self._fresh[game_id] = (epoch, fresh)
        self.live.heard(game_id, version)

    async def stop(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._stop_pg is not None:
            await self._stop_pg()
            self._stop_pg = None
        self.live.close()
        if self._listener is not None:
            self._listener.close()  # no new connection; the runner ends the others
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as e:  # a 404 carries the same headers
            secure(e.headers)
            raise
        except (ConnectionError, asyncio.CancelledError):
            raise  # the page left: nobody to answer
        except Exception:  # a fault of ours, said once, without the request's token
            log.exception("web request %s %s failed", request.method, redact(request.path_qs))
            response = self._error(500, "internal", await self._lang(request, None))
        if response.status == 400:
            log.warning("refused a malformed web request from %s: %s", self._client(request), redact(request.path_qs))
        secure(response.headers)
        return response

    # --- who is asking ------------------------------------------------------------------------

    def _token(self, request: web.Request, *, header_only: bool = False) -> str:
        token = request.headers.get("X-Cubist-Token", "")
        if not token and not header_only:
            token = request.query.get("t", "") or request.cookies.get(COOKIE, "")
        return token

    def _check(self, request: web.Request, game: int, *, header_only: bool = False) -> Pass:
        return check(self.secret, self._token(request, header_only=header_only), game, self.clock())

    def _client(self, request: web.Request) -> str:
        """The client's address (behind a trusted proxy, the one it names)."""
        return self.proxies.client(request.remote, request.headers)

    def _who(self, request: web.Request, p: Pass | None) -> str:
        """Whose limits a request counts against: a member's, or else its client address's."""
        if p is not None and not p.spectator:
            return f"m{p.member}"
        return f"a{self._client(request)}"

    async def _lang(self, request: web.Request, p: Pass | None) -> str:
        asked = request.query.get("lang") or request.headers.get("X-Cubist-Lang")
        if asked:
            return language(asked)
        if p is not None and not p.spectator:
            stored, when = self._locales.get(p.member, (None, -1e9))
            if time.monotonic() - when > LOCALE_TTL_S:
                stored = await self.service.queries.user_locale(p.member)
                self._locales[p.member] = (stored, time.monotonic())
                if len(self._locales) > 10_000:
                    self._locales.clear()
            if stored:
                return language(stored)
        for part in request.headers.get("Accept-Language", "").split(","):
            tag = part.split(";")[0].strip().lower()
            if tag and language(tag) == tag.split("-")[0]:  # the first language we have
                return language(tag)
        return language(None)

    def _error(self, status: int, key: str, lang: str, **params: Any) -> web.Response:
        return web.json_response({"error": t(f"web.error.{key}", lang, **params), "reason": key}, status=status)

    async def _load(self, game_id: int) -> tuple[GameRecord, Game] | None:
        try:
            record, game = await self.service.queries.game(game_id)
        except GameNotFound:
            return None
        if record.status == Status.LOBBY:
            return None
        return record, game

    async def _load_once(self, game_id: int) -> tuple[GameRecord, Game] | None:
        """``_load``, shared by the viewers who ask at once after a change (they all come
        together, woken by the same event): one database read for all of them."""
        key = (game_id, self._epochs.get(game_id, 0))
        fresh = self._fresh.get(game_id)
        if fresh is not None and fresh[0] == key[1]:
            return fresh[1]
        loading = self._loading.get(key)
        if loading is None:
            loading = asyncio.ensure_future(self._load(game_id))
            self._loading[key] = loading
            loading.add_done_callback(lambda _done: self._loading.pop(key, None))
        return await asyncio.shield(loading)  # one viewer leaving does not cancel the others' read

    def _seat(self, record: GameRecord, game: Game, p: Pass) -> tuple[int | None, bool]:
        """(the viewer's seat, whether they may play it)."""
        if p.spectator:
            return None, False
        found = record.seat_of(p.member)
        if found is None:
            return None, False
        seat = found.seat
        return seat, not game.state.players[seat].removed and record.status == Status.ACTIVE

    async def _packed(self, game_id: int, lang: str, version: int) -> bytes:
        """The event that carries the game's newest state, as a patch on the state sent
        before it (the table's pieces that changed, the words; gzipped JSON in base64: SSE
        is text), or just its version when the game cannot be read (the page then asks)."""
        loaded = await self._load_once(game_id)
        if loaded is None:
            return f"event: version\ndata: {version}\n\n".encode()
        record, game = loaded
        key = self._state_key(record, lang)
        packed = self._packs.get(key)
        if packed is None:
            shared = self.drawings.public(record, game, lang)
            # Against what went out last for this game: the pages that got it hold its pieces
            # (a page that missed it lacks some, and asks for the whole state).
            known, css_id = self._before(record, lang)
            packed = b"event: patch\ndata: " + base64.b64encode(_gzip(shared.patch(known, css_id))) + b"\n\n"
            self._held(record, lang, shared)
            self._packs[key] = packed
            while len(self._packs) > STATE_CACHE:
                del self._packs[next(iter(self._packs))]
        return packed

    def _held(self, record: GameRecord, lang: str, shared: view.Shared) -> None:
        """Pages were sent this version (whole or as a patch): they hold its pieces."""
        sent = self._sent.setdefault((record.id, lang), {})
        sent[record.version] = (shared.ids, shared.css_id)
        for old in sorted(sent)[:-SENT_KEPT]:
            del sent[old]
        while len(self._sent) > STATE_CACHE:
            del self._sent[next(iter(self._sent))]

    def _before(self, record: GameRecord, lang: str) -> tuple[frozenset[str], str | None]:
        """The pieces and style of the newest version before this one that pages were sent:
        what a page that followed the game holds (a move's own answer, sent whole to the
        player who made it, is the same version, not an earlier one)."""
        sent = self._sent.get((record.id, lang), {})
        earlier = [v for v in sent if v < record.version]
        return sent[max(earlier)] if earlier else (frozenset(), None)

    @staticmethod
    def _state_key(record: GameRecord, lang: str) -> tuple[Any, ...]:
        return (record.id, record.version, str(record.status), lang, tuple(record.seats))

    def _state(self, record: GameRecord, game: Game, lang: str) -> tuple[bytes, bytes]:
        """The game's state as JSON, and gzipped (the SVG shrinks about eightfold): the same
        for every viewer of this version, so built and compressed once for all of them."""
        key = self._state_key(record, lang)
        cached = self._cache.get(key)
        if cached is None:
            shared = self.drawings.public(record, game, lang)
            raw = shared.full({"ui": ui_words(lang)})
            cached = raw, _gzip(raw)
            self._held(record, lang, shared)
            self._cache[key] = cached
            while len(self._cache) > STATE_CACHE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        self._latest[(record.id, lang)] = (self._epochs.get(record.id, 0), key)
        return cached

    async def _enter(self, request: web.Request, *, header_only: bool = False) -> tuple[int, Pass, str] | web.Response:
        """Every read's way in: the game named, the link checked for it, the reader's
        language, the rate limit; or the refusal to send."""
        game_id = int(request.match_info["game"])  # at most 18 digits (the route)
        try:
            p = self._check(request, game_id, header_only=header_only)
        except BadLink as e:
            return self._error(403, e.reason, await self._lang(request, None))
        lang = await self._lang(request, p)
        if not self.reads.allow(self._who(request, p)):
            return self._error(429, "too_fast", lang)
        return game_id, p, lang

    async def _loaded(
        self, request: web.Request, *, header_only: bool = False
    ) -> tuple[Pass, str, GameRecord, Game] | web.Response:
        """``_enter``, and the game as stored (404 when there is none, or only a lobby)."""
        entered = await self._enter(request, header_only=header_only)
        if isinstance(entered, web.Response):
            return entered
        game_id, p, lang = entered
        loaded = await self._load(game_id)
        if loaded is None:
            return self._error(404, "no_game", lang, game=game_id)
        return p, lang, *loaded

    # --- routes -------------------------------------------------------------------------------

    async def health(self, _request: web.Request) -> web.Response:
        connections = self.guard.numbers() if self.guard is not None else {}
        return web.json_response({"ok": True, "viewers": self.live.viewers(), **connections})

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(
            body=self._pages[name], content_type=STATIC[name], headers={"Cache-Control": "public, max-age=300"}
        )

    async def page(self, request: web.Request) -> web.Response:
        game_id = int(request.match_info["game"])  # at most 18 digits (the route)
        lang = await self._lang(request, None)
        if not self.reads.allow(self._who(request, None)):
            return self._error(429, "too_fast", lang)
        try:
            p = self._check(request, game_id)
        except BadLink as e:
            html = self._pages["board.html"].decode()
            said = _escape(t(f"web.error.{e.reason}", lang))
            html = html.replace("<!--error-->", f'<p class="error" role="alert">{said}</p>')
            return web.Response(text=html.replace("{lang}", lang), content_type="text/html", status=403)
        html = self._pages["board.html"].decode().replace("{lang}", lang)
        response = web.Response(text=html, content_type="text/html")
        if "t" in request.query:  # the link itself: its token goes where no later URL holds it
            response.set_cookie(
                COOKIE,
                self._token(request),
                path=f"/g/{game_id}",
                max_age=max(0, int(p.expires - self.clock())),
                httponly=True,
                secure=self._secure_cookie,
                samesite="Strict",
            )
        return response

    async def state(self, request: web.Request) -> web.Response:
        entered = await self._enter(request)
        if isinstance(entered, web.Response):
            return entered
        game_id, _p, lang = entered
        latest = self._latest.get((game_id, lang))
        if latest is not None and latest[0] == self._epochs.get(game_id, 0) and latest[1] in self._cache:
            return _json_bytes(request, self._cache[latest[1]])  # nothing changed since: no database read
        loaded = await self._load_once(game_id)
        if loaded is None:
            return self._error(404, "no_game", lang, game=game_id)
        record, game = loaded
        return _json_bytes(request, self._state(record, game, lang))

    async def me(self, request: web.Request) -> web.Response:
        """Who the link is for: their seat (None: watching), whether they may play it."""
        entered = await self._loaded(request, header_only=True)
        if isinstance(entered, web.Response):
            return entered
        p, _lang, record, game = entered
        seat, may_play = self._seat(record, game, p)
        return web.json_response({"seat": seat, "may_play": may_play, "expires": p.expires})

    async def play(self, request: web.Request) -> web.Response:
        """The moves of the player on turn, for them alone (their link, in the header)."""
        entered = await self._loaded(request, header_only=True)
        if isinstance(entered, web.Response):
            return entered
        p, lang, record, game = entered
        return _json_bytes(request, (self._play(record, game, lang, p), b""))

    def _play(self, record: GameRecord, game: Game, lang: str, p: Pass) -> bytes:
        seat, may_play = self._seat(record, game, p)
        yours = may_play and seat == game.current_player and not game.is_over
        play = self.drawings.play(record, game, lang) if yours else b"null"
        return b'{"version":' + str(record.version).encode() + b',"play":' + play + b"}"

    async def events(self, request: web.Request) -> web.StreamResponse:
        game_id = int(request.match_info["game"])  # at most 18 digits (the route)
        try:
            p = self._check(request, game_id)
        except BadLink as e:
            return self._error(403, e.reason, await self._lang(request, None))
        who = self._who(request, p)
        if p.spectator:  # many may watch, but not without end: per game, in all, per address
            per_game, in_all, per_address = self.spectator_streams
            counted = {f"g{game_id}": per_game, "watching": in_all}
            if not self.proxies.trusts(self._client(request)):  # a proxy that names nobody speaks for many
                counted[who] = per_address
        else:
            counted = {who: MAX_STREAMS}
        full = any(self._streams.get(key, 0) >= cap for key, cap in counted.items())
        if full or not self.reads.allow(who):
            return self._error(429, "too_fast", await self._lang(request, p))
        lang = await self._lang(request, p)
        record = await self._load(game_id)
        if record is None:
            return self._error(404, "no_game", lang, game=game_id)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        secure(response.headers)  # sent with the stream's start, before any handler returns
        for key in counted:
            self._streams[key] = self._streams.get(key, 0) + 1
        try:
            with self.live.stream(game_id) as queue:
                connection = request.protocol
                # The page leaving ends the stream at once, freeing its place.
                gone = lambda: self.live.tell(queue, GONE)  # noqa: E731
                if isinstance(connection, GuardedHandler) and not connection.on_lost(gone):
                    return response
                await response.prepare(request)
                await response.write(f"retry: 1000\nevent: version\ndata: {record[0].version}\n\n".encode())
                while p.expires > self.clock():
                    try:
                        async with asyncio.timeout(KEEP_ALIVE_S):  # no task per wait, as wait_for makes
                            version = await queue.get()
                    except TimeoutError:
                        await response.write(b": still here\n\n")
                        continue
                    if version == GONE:
                        return response
                    if version == CLOSED:
                        break  # the board is stopping; the page's EventSource tries again
                    # The new state itself, built (and packed) once for every stream woken with
                    # this one: no request per viewer per move.
                    await response.write(await self._packed(game_id, lang, version))
                else:
                    await response.write(b"event: expired\ndata: 0\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            for key in counted:
                self._streams[key] -= 1
                if not self._streams[key]:
                    del self._streams[key]
        return response

    async def replay(self, request: web.Request) -> web.Response:
        entered = await self._loaded(request)
        if isinstance(entered, web.Response):
            return entered
        _p, lang, record, game = entered
        try:
            ply = int(request.query.get("ply", "0"))
        except ValueError:
            return self._error(400, "bad_request", lang)
        log_ = list(game.log)
        ply = max(0, min(ply, len(log_)))
        step = await asyncio.to_thread(_replayed, record, game, ply, lang, self.drawings)
        return web.json_response(step, dumps=_dumps)

    async def others(self, request: web.Request) -> web.Response:
        """The current player's other moves in words (asked for when "Other moves" opens)."""
        entered = await self._loaded(request, header_only=True)
        if isinstance(entered, web.Response):
            return entered
        p, lang, record, game = entered
        seat, may_play = self._seat(record, game, p)
        if not may_play or seat != game.current_player or game.is_over:
            return web.json_response({"version": record.version, "moves": []})
        moves = await asyncio.to_thread(view.other_moves, game, view.names_of(record), lang)
        return web.json_response({"version": record.version, "moves": moves}, dumps=_dumps)

    async def move(self, request: web.Request) -> web.Response:
        game_id = int(request.match_info["game"])  # at most 18 digits (the route)
        try:
            p = self._check(request, game_id, header_only=True)
        except BadLink as e:
            return self._error(403, e.reason, await self._lang(request, None))
        lang = await self._lang(request, p)
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != self.origin:  # PUBLIC_URL's, whatever Host a proxy sends
            return self._error(403, "forged", lang)
        if p.spectator:
            return self._error(403, "watching", lang)
        if not self.moves.allow(self._who(request, p)):
            return self._error(429, "too_fast", lang)
        try:
            async with asyncio.timeout(BODY_S):
                body = await request.json()
            text, version = body["move"], body["version"]
            if not isinstance(text, str) or not isinstance(version, int) or len(text) > 200:
                raise ValueError
        except TimeoutError:
            return self._error(408, "bad_request", lang)
        except (ValueError, KeyError, TypeError, RecursionError):
            return self._error(400, "bad_request", lang)  # nested JSON too deep to read is no move
        try:
            move = parse(text)
            outcome = await self.service.play_in(game_id, p.member, move, entry=Entry.WEB, version=version)
        except StaleChoice:
            return await self._answer(game_id, p, lang, 409, t("web.error.stale", lang))
        except UserError as e:
            return await self._answer(game_id, p, lang, 422, localize(said(e), lang))
        self.wake()  # a finished turn's post and the next DM, queued with the move, go out now
        return await self._answer(game_id, p, lang, 200, None, (outcome.record, outcome.game))

    async def _answer(
        self,
        game_id: int,
        p: Pass,
        lang: str,
        status: int,
        error: str | None,
        stored: tuple[GameRecord, Game] | None = None,
    ) -> web.Response:
        """A move's answer: the game as it now stands (``stored``: as the move's own
        transaction left it, no second read), and the player's moves in it."""
        loaded = stored or await self._load(game_id)
        if loaded is None:
            return self._error(404, "no_game", lang, game=game_id)
        record, game = loaded
        raw, _gzipped = self._state(record, game, lang)
        said = f',"error":{_dumps(error)}' if error is not None else ""
        body = b'{"state":' + raw + b',"play":' + self._play(record, game, lang, p) + said.encode() + b"}"
        return web.Response(body=body, status=status, content_type="application/json", charset="utf-8")


def _replayed(record: GameRecord, game: Game, ply: int, lang: str, drawings: view.Drawings) -> dict[str, Any]:
    """The table after the first ``ply`` moves of the log, replayed by the engine."""
    after, before = start_of(game), None
    for _step, g in itertools.islice(replay(game), ply):
        before, after = after, g.clone()
    move = game.log[ply - 1] if ply else None
    return view.replay_step(record, before, after, move, ply, len(game.log), lang, drawings)


def ui_words(lang: str) -> dict[str, str]:
    keys = (
        "table", "studio_of", "in_words", "watching", "your_turn", "pick_space", "waiting", "dice", "actions",
        "undo", "end", "confirm", "not_yet", "other_ends", "live", "replay", "first", "back", "forward", "last",
        "step", "reconnecting", "lost", "sending", "last_turn", "scores", "museum", "see_large", "back_to",
        "show_table", "hide_table", "cards",
    )  # fmt: skip
    # Templates stay templates ({name}, {ply}, {room}): the page fills them in.
    return {k: _template(f"web.ui.{k}", lang) for k in keys} | {"room_title": _template("web.room_title", lang)}


def _template(key: str, lang: str) -> str:
    entry = catalogues()[lang].get(key)
    return entry if isinstance(entry, str) else key


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _gzip(raw: bytes) -> bytes:
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)  # 31: a gzip stream
    return packer.compress(raw) + packer.flush()


def _json_bytes(request: web.Request, body: tuple[bytes, bytes], status: int = 200) -> web.Response:
    """``body``: the JSON and, if made, its gzipped form (sent to browsers that take it)."""
    raw, gzipped = body
    headers = {"Vary": "Accept-Encoding"}
    if gzipped and "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"
        raw = gzipped
    return web.Response(body=raw, status=status, content_type="application/json", charset="utf-8", headers=headers)


def _dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
