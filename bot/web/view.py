"""What the web page shows, as JSON: the table as SVG (render.webboard: the posted table
picture's own drawing, on an SVG surface; the page shows a studio close up by zooming into
its player's part of it), the same in words for screen readers,
the last turn's story, and, on the player's own turn, every legal move as something to
tap: a die and the cells it may go to, the other actions in words, Undo and End.

The table travels in pieces (the header, the museum, each card, each player...): the
page keeps the pieces it shows, and a move's update brings the ids of all of them and the
text of those that changed.

Moves travel as the engine's notation between page and server only (never shown): the
page sends back the text it was given, the server parses it once (``service.parse``)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.i18n import join, t
from bot.i18n.pictures import render_labels
from bot.panel import tree
from bot.panel.words import Describer, sensible_end
from bot.store import GameRecord, Status
from bot.words.story import move_words, this_turn_words, turn_words
from bot.words.texts import scores_lines, seat_colour_name
from engine import Game
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE
from engine.moves import Complete, EndTurn, Move, Place, ToMuseum, Undo
from render import webboard


class Drawings:
    """What every viewer of a game version is sent alike, built once however many viewers
    ask: the table's SVG and the words beside it (a bounded LRU; the replay draws here too,
    from a worker thread)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[object, ...], Any] = OrderedDict()
        self._lock = threading.Lock()
        self.drawn = 0

    def _get(self, key: tuple[object, ...], build: Callable[[], Any]) -> Any:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        found = build()
        with self._lock:
            self.drawn += 1
            self._kept[key] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found

    def pieces(self, record: GameRecord, game: Game, lang: str) -> tuple[list[Piece], str]:
        """The table's SVG without its style, in pieces (each with its id and length), and
        the style's rules."""
        names = names_of(record)
        key = ("table", record.id, len(game.log), game.is_over, lang, tuple(names))

        def build() -> tuple[list[Piece], str]:
            # The header as the turn began: drawn once a turn (this turn's moves glow on the board,
            # and the page says them in words).
            t = webboard.table_pieces(game, names, labels=render_labels(lang), this_turn=False)
            return [piece(text) for text in (t.head, t.defs, *t.sections, t.end)], t.style

        parts, css = self._get(key, build)
        return parts, css

    def table(self, record: GameRecord, game: Game, lang: str) -> tuple[str, str]:
        """The table's SVG without its style, and the style's rules."""
        parts, css = self.pieces(record, game, lang)
        return "".join(p.text for p in parts), css

    def story(self, record: GameRecord, game: Game, lang: str) -> str:
        """The last turn in words: the same from one turn's end to the next (it replays the
        turn, so it is told once a turn)."""
        names = names_of(record)
        key = ("story", record.id, game.state.turn, game.is_over, lang, tuple(names))
        return str(self._get(key, lambda: story(game, names, lang)))

    def public(self, record: GameRecord, game: Game, lang: str) -> Shared:
        """What every viewer of this version is sent alike: the table in pieces and its
        style, and (as JSON members) whose turn, the last turn's story, the scores, the
        table in words."""
        names = names_of(record)
        key = ("public", record.id, len(game.log), str(record.status), lang, tuple(names))

        def build() -> Shared:
            parts, css = self.pieces(record, game, lang)
            words = {
                "game": record.id,
                "version": record.version,
                "status": str(record.status),
                "lang": lang,
                "turn_line": whose_turn(record, game, names, lang),
                "story": self.story(record, game, lang),
                # this turn so far (the table's header shows the turn as it began)
                "so_far": _capital(this_turn_words(game, names, lang)),
                "scores": [line.replace("**", "") for line in scores_lines(game, names, lang)],  # no Markdown
                "text": describe_table(game, names, lang),
                "names": names,
                "current": game.current_player,
            }
            return Shared(_members(words), parts, css, _digest(css))

        found: Shared = self._get(key, build)
        return found

    def play(self, record: GameRecord, game: Game, lang: str) -> bytes:
        """The player on turn's moves, as JSON (built once a version)."""
        key = ("play", record.id, len(game.log), lang, tuple(names_of(record)))
        return bytes(self._get(key, lambda: _json(play_options(game, names_of(record), lang)).encode()))


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _members(obj: dict[str, Any]) -> bytes:
    return _json(obj)[1:-1].encode()


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of the table's SVG: its text, an id from its content, its length as the
    browser counts (UTF-16 code units), so that the page can cut the whole into pieces."""

    id: str
    text: str
    length: int


@lru_cache(maxsize=4096)
def piece(text: str) -> Piece:
    # Remembered by text: most of a table's pieces are as they were one move before.
    return Piece(_digest(text), text, len(text.encode("utf-16-le")) // 2)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Shared:
    """What every viewer of a game version is sent alike (``Drawings.public``)."""

    members: bytes  # JSON object members, no braces: the words
    pieces: list[Piece]  # the table's SVG without its style
    css: str  # the style's rules
    css_id: str

    def full(self, extra: dict[str, Any] | None = None) -> bytes:
        """The whole state as JSON: the words, the table and its style, its pieces' ids and
        lengths, ``extra``'s members."""
        table = "".join(p.text for p in self.pieces)
        tail = b"," + _members(extra) if extra else b""
        return (
            b"{" + self.members + b',"table":' + _json(table).encode() + b"," + self._style(None) + b',"parts":'
            + _json([[p.id, p.length] for p in self.pieces]).encode() + tail + b"}"
        )  # fmt: skip

    def patch(self, known: frozenset[str], css_id: str | None) -> bytes:
        """The state for a page that holds the pieces ``known`` and the style ``css_id``: the
        words, the pieces' ids in order and the text of those it lacks, the style only if
        it changed.  The page rebuilds the table from its pieces (or, lacking one, asks for
        the whole state)."""
        new = {p.id: p.text for p in self.pieces if p.id not in known}
        return (
            b"{" + self.members + b',"parts":' + _json([[p.id, p.length] for p in self.pieces]).encode()
            + b',"new":' + _json(new).encode() + b"," + self._style(css_id) + b"}"
        )  # fmt: skip

    def _style(self, known: str | None) -> bytes:
        if known == self.css_id:
            return b'"css_id":' + _json(self.css_id).encode()
        return b'"css_id":' + _json(self.css_id).encode() + b',"css":' + _json(self.css).encode()

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self.pieces)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def names_of(record: GameRecord) -> list[str]:
    return [s.display_name for s in record.seats]


def cell_id(seat: int, room: int, cell: int) -> str:
    """The SVG's ``data-cell`` of a workroom cell (render/webboard.py)."""
    return f"p{seat}.w{room}.{cell}"


def museum_id(cell: int) -> str:
    return f"m.{cell}"


def _where(cell: int, lang: str, size: int = WORKROOM_SIZE) -> str:
    y, x = divmod(cell, size)
    return t("web.cell", lang, row=y + 1, column=x + 1)


def _column(value: int, height: int, lang: str) -> str:
    return t("web.column", lang, count=height, value=value)


def describe_table(game: Game, names: Sequence[str], lang: str) -> list[str]:
    """Every die's value and place, in words: what a screen reader reads for the pictures."""
    lines = [
        _seat_words(
            seat,
            names[seat],
            game.score(seat),
            tuple(tuple(sorted(cells.items())) for cells in p.workrooms),
            tuple(p.storeroom),
            tuple(p.storage),
            len(p.completed),
            lang,
        )
        for seat, p in enumerate(game.state.players)
    ]
    museum = [
        t("web.museum_cell", lang, where=_where(c, lang, MUSEUM_SIZE), value=col.value, count=len(col.owners))
        for c, col in sorted(game.state.museum.items())
    ]
    lines.append(t("web.museum", lang, cells="; ".join(museum) if museum else t("web.none", lang)))
    for slot, a in enumerate(game.state.artists):
        if a.card is not None and a.count:
            owner = names[a.owner] if a.owner is not None and a.owner < len(names) else ""
            lines.append(t("web.artist", lang, slot=slot + 1, count=a.count, value=a.value, name=owner))
    return lines


@lru_cache(maxsize=2048)
def _seat_words(
    seat: int,
    name: str,
    score: int,
    workrooms: tuple[tuple[tuple[int, tuple[int, int]], ...], ...],
    storeroom: tuple[int, ...],
    storage: tuple[int, ...],
    completed: int,
    lang: str,
) -> str:
    """One player's part of the table in words (remembered: a move changes one player's)."""
    head = t("web.seat", lang, name=name, colour=seat_colour_name(seat, lang), count=score)
    rooms = []
    for room, cells in enumerate(workrooms):
        if not cells:
            rooms.append(t("web.room_empty", lang, room=room + 1))
            continue
        parts = [f"{_where(c, lang)}: {_column(v, h, lang)}" for c, (v, h) in cells]
        rooms.append(t("web.room", lang, room=room + 1, columns="; ".join(parts)))
    store = join([str(v) for v in storeroom], lang) if storeroom else t("web.none", lang)
    kept = join([str(v) for v in storage], lang) if storage else t("web.none", lang)
    done = t("web.completed", lang, count=completed)
    return f"{head} {' '.join(rooms)} {t('web.storeroom', lang, dice=store, kept=kept)} {done}"


def story(game: Game, names: Sequence[str], lang: str) -> str:
    last = game.state.last_turn
    if last is None:
        return ""
    return t("web.story", lang, name=names[last.seat], what=turn_words(last, game.deck, lang, names))


def whose_turn(record: GameRecord, game: Game, names: Sequence[str], lang: str) -> str:
    if record.status == Status.CANCELLED:
        return t("web.cancelled", lang)
    if game.is_over:
        return t("web.over", lang, names=join([names[w] for w in game.winners()], lang))
    return t("web.to_play", lang, name=names[game.current_player])


def _label(trail: list[tree.Choice], lang: str) -> str:
    return t("panel.arrow", lang).join(c.label for c in trail)


def _trails(options: Sequence[tree.Choice], above: list[tree.Choice]) -> list[list[tree.Choice]]:
    out = []
    for c in options:
        if c.is_leaf:
            out.append([*above, c])
        else:
            out += _trails(c.children, [*above, c])
    return out


def play_options(game: Game, names: Sequence[str], lang: str) -> dict[str, Any]:
    """The current player's moves as the page offers them."""
    seat = game.current_player
    describe = Describer(game, lang, names)
    legal = game.legal_moves()
    dice: dict[str, dict[str, Any]] = {}
    for m in legal:
        if isinstance(m, Place | ToMuseum):
            key = str(m.die)
            entry = dice.setdefault(
                key, {"die": key, "value": describe.die_value(m.die), "label": describe.die(m.die), "targets": []}
            )
            if isinstance(m, Place):
                target = cell_id(seat, m.room, m.cell)
                label = t("web.target", lang, room=m.room + 1, where=_where(m.cell, lang))
            else:
                target = museum_id(m.cell)
                label = t("web.museum_target", lang, where=_where(m.cell, lang, MUSEUM_SIZE))
            entry["targets"].append({"cell": target, "move": str(m), "label": label})
    # The other moves' words cost milliseconds (the panel's choice tree): the page asks for
    # them (``other_moves``) only when the player opens "Other moves".
    others = any(not isinstance(m, Place | ToMuseum | EndTurn | Undo) for m in legal)
    ends = [m for m in legal if isinstance(m, EndTurn)]
    end: dict[str, Any] | None = None
    if ends:
        # As the panel: one end to confirm when nothing is to choose (two dice or fewer
        # stay), else the question which dice stay, with every way to end.
        chosen = sensible_end(game, ends)
        room = list(game.state.players[seat].storeroom)
        if chosen is not None:
            for v in chosen.keep:
                room.remove(v)
            kept = join([str(v) for v in chosen.keep], lang) if chosen.keep else t("panel.none", lang)
            back = join([str(v) for v in room], lang) if room else t("panel.none", lang)
            question = t("panel.confirm", lang, kept=kept, returned=back)
        else:
            question = t("panel.which", lang, dice=join([str(v) for v in room], lang))
        end = {
            "move": str(chosen) if chosen is not None else None,
            "confirm": question,
            "others": [{"label": describe.end(e), "move": str(e)} for e in ends if e != chosen],
        }
    undo = any(isinstance(m, Undo) for m in legal)
    # Completing an installation is one tap on the page, not a search through the other moves.
    arrow = t("panel.arrow", lang)
    complete = [
        {"label": arrow.join((describe.complete_group(m.room), describe.complete_card(m))), "move": str(m)}
        for m in legal
        if isinstance(m, Complete)
    ]
    return {
        "dice": sorted(dice.values(), key=lambda d: (d["die"][0].isdigit() is False, d["value"], d["die"])),
        "others": others,
        "undo": str(Undo()) if undo else None,
        "end": end,
        "complete": complete,
    }


def other_moves(game: Game, names: Sequence[str], lang: str) -> list[dict[str, str]]:
    """The moves other than placing a die, Undo and End, in the panel's words: artists,
    installations (complete, abandon), moving dice from completed cards..."""
    actions = []
    for trail in _trails(tree.choice_tree(game, lang, names), []):
        move = trail[-1].move
        if move is None or isinstance(move, Place | ToMuseum | EndTurn | Undo):
            continue
        actions.append({"label": _label(trail, lang), "move": str(move)})
    return actions


def page_state(
    record: GameRecord, game: Game, lang: str, *, drawings: Drawings | None = None, extra: dict[str, Any] | None = None
) -> bytes:
    """What the page shows, as JSON, the same for every viewer of this version (so it is
    built, and compressed, once for all of them): the table, whose turn, the story, the
    scores, the table in words; ``extra``: more members (the page's words).  Who the viewer
    is and what they may play are asked for apart (the server's ``/me`` and ``/play``)."""
    return (drawings or Drawings(0)).public(record, game, lang).full(extra)


def replay_step(
    record: GameRecord,
    before: Game | None,
    after: Game,
    move: Move | None,
    ply: int,
    total: int,
    lang: str,
    drawings: Drawings | None = None,
) -> dict[str, Any]:
    """One step of the replay: the table after move ``ply`` of ``total`` (0: the start) and
    that move in words."""
    names = names_of(record)
    if before is None or move is None:
        words = t("web.replay_start", lang)
    else:
        who = names[before.current_player]
        what = move_words(move, after, lang, names)
        words = t("web.replay_move", lang, turn=before.state.turn + 1, name=who, what=what)
    table, css = (drawings or Drawings(0)).table(record, after, lang)
    return {
        "ply": ply,
        "total": total,
        "table": table,
        "css": css,
        "story": words,
        "text": describe_table(after, names, lang),
    }
