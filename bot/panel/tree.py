"""Legal moves as a tree of choices in words, for the private turn panel.

The first select lists what to do ("Place the 4 → workroom 2", "Give dice to Malevich",
"End the turn…"); picking one either plays it or opens the next select ("next to the 3
(c3)").  Discord allows 25 options per select and 100 characters per label, so groups
that are too big are split: the most useful options stay in front (cells near the middle
of an empty workroom first) and the rest go behind "More: …" options.  Every legal move
except Undo (a button of its own) is at most three picks deep; ``leaves`` lists them with
their paths, which the tests check against ``game.legal_moves()``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from bot.panel import words
from engine import Game
from engine.moves import (
    Abandon,
    Complete,
    EndTurn,
    Move,
    Place,
    Release,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
)

MAX_OPTIONS = 25  # Discord's limit of options in one select
MAX_LABEL = 100  # Discord's limit of characters in one option label
FIT = 80  # what every label is written to fit: an option may be shown as a button (80 on Discord)
MAX_DEPTH = 3  # picks to reach any move


class TreeError(ValueError):
    """The moves do not fit in three picks of 25 options (never expected in a real game)."""


@dataclass(frozen=True)
class Choice:
    """One option of a select: a move (the engine's, from ``legal_moves``) or a further select."""

    label: str
    move: Move | None = None
    children: tuple[Choice, ...] = ()

    @property
    def is_leaf(self) -> bool:
        return self.move is not None


@dataclass
class _Group:
    """A first-pick option before fitting: its label and its moves with their sub-labels."""

    label: str
    leaves: list[tuple[tuple[str, ...], Move]] = field(default_factory=list)  # (sub-labels, move)
    single: str | None = None  # the label when the group holds a single move (default: joined path)


def clip(label: str) -> str:
    """The last resort where no short form fits: cut between words, marked "…"."""
    return words.words_cut(label, FIT)


def _leaf(label: str, move: Move) -> Choice:
    return Choice(label, move=move)


def _flat(items: Sequence[tuple[tuple[str, ...], Move]], locale: str) -> list[Choice]:
    return [_leaf(words.path(sub, locale), move) for sub, move in items]


def _more(chunk: list[Choice], locale: str) -> Choice:
    return Choice(words.more(chunk[0].label, chunk[-1].label, locale), children=tuple(chunk))


def _overflow(options: list[Choice], locale: str) -> list[Choice]:
    """At most 25 options: the first ones as they are, the rest behind "More: …" options
    of at most 25 each.  The options put behind must be leaves (one more pick each)."""
    if len(options) <= MAX_OPTIONS:
        return options
    n = len(options)
    more = math.ceil((n - MAX_OPTIONS) / (MAX_OPTIONS - 1))
    keep = MAX_OPTIONS - more
    if more > MAX_OPTIONS or keep < 0:
        raise TreeError(f"{n} options do not fit in two picks")
    rest = options[keep:]
    chunks = [rest[i : i + MAX_OPTIONS] for i in range(0, len(rest), MAX_OPTIONS)]
    return options[:keep] + [_more(c, locale) for c in chunks]


def _below(items: list[tuple[tuple[str, ...], Move]], locale: str) -> list[Choice]:
    """The options under a first pick: two more picks at most."""
    if len(items) <= MAX_OPTIONS:
        return _flat(items, locale)
    if all(len(sub) >= 2 for sub, _m in items):
        # Natural second level (Pascin: which die, then where), each part at most 25.
        natural: dict[str, list[tuple[tuple[str, ...], Move]]] = {}
        for sub, move in items:
            natural.setdefault(sub[0], []).append((sub[1:], move))
        options: list[Choice] = []
        for head, rest in natural.items():
            if len(rest) == 1:
                options.append(_leaf(words.path((head, *rest[0][0]), locale), rest[0][1]))
                continue
            parts = [rest[i : i + MAX_OPTIONS] for i in range(0, len(rest), MAX_OPTIONS)]
            for i, part in enumerate(parts, 1):
                label = head if len(parts) == 1 else words.part(head, i, len(parts), locale)
                options.append(Choice(label, children=tuple(_flat(part, locale))))
        if len(options) <= MAX_OPTIONS:
            return options
    return _overflow(_flat(items, locale), locale)


def _fit(group: _Group, locale: str) -> Choice:
    if len(group.leaves) == 1:
        sub, move = group.leaves[0]
        label = group.single or words.path((group.label, *sub), locale)
        return _leaf(label, move)
    return Choice(group.label, children=tuple(_below(group.leaves, locale)))


def _rank(game: Game, m: Move) -> float:
    """Sort key that keeps the engine's order except for empty workrooms, whose cells near
    the middle come first (the rest of an empty workroom may go behind "More")."""
    rooms = game.state.players[game.current_player].workrooms
    if isinstance(m, Place) and not rooms[m.room]:
        return words.centre_rank(m.cell)
    if isinstance(m, UseArtist) and m.target is not None and not rooms[m.target[0]]:
        return words.centre_rank(m.target[1])
    return 0.0


def _groups(
    game: Game, locale: str, names: Sequence[str] | None, merge_places: bool, short: bool = False
) -> list[_Group]:
    """The first-pick groups in the order a player looks for them (``short``: in the words'
    short forms)."""
    describe = words.Describer(game, locale, names, short=short)
    order = ("place", "artist", "use", "complete", "museum", "switch", "abandon", "release", "end")
    found: dict[str, dict[tuple[object, ...], _Group]] = {k: {} for k in order}
    ends: list[EndTurn] = []
    for m in sorted(game.legal_moves(), key=lambda m: _rank(game, m)):
        if isinstance(m, Undo):
            continue  # a button of its own
        if isinstance(m, EndTurn):
            ends.append(m)
            continue
        if isinstance(m, Place):
            what: object = m.die if m.die.kind == "s" else "card"
            key: tuple[object, ...] = (what,) if merge_places else (what, m.room)
            group = found["place"].get(key)
            if group is None:
                group = found["place"][key] = _Group(describe.place_group(m, by_room=not merge_places))
            group.leaves.append((describe.place_path(m, merged=merge_places), m))
            continue
        if isinstance(m, ToArtist):
            group = found["artist"].setdefault((m.slot,), _Group(describe.artist_group(m.slot)))
            group.leaves.append(((describe.artist_dice(m),), m))
            group.single = describe.artist_single(m) if len(group.leaves) == 1 else None
            continue
        if isinstance(m, UseArtist):
            group = found["use"].setdefault((m.slot,), _Group(describe.use_group(m.slot)))
            group.leaves.append((describe.use_path(m), m))
            continue
        if isinstance(m, Complete):
            group = found["complete"].setdefault((m.room,), _Group(describe.complete_group(m.room)))
            group.leaves.append(((describe.complete_card(m),), m))
            continue
        if isinstance(m, ToMuseum):
            group = found["museum"].setdefault((m.die,), _Group(describe.museum_group(m)))
            group.leaves.append(((describe.museum_cell(m),), m))
            continue
        if isinstance(m, Switch):
            found["switch"][(m.die,)] = _Group(describe.switch(m), [((), m)], single=describe.switch(m))
            continue
        if isinstance(m, Abandon):
            found["abandon"][(m.room,)] = _Group(describe.abandon(m), [((), m)], single=describe.abandon(m))
            continue
        if isinstance(m, Release):
            found["release"][()] = _Group(describe.release(), [((), m)], single=describe.release())
            continue
        raise TreeError(f"no panel words for {str(m)!r}")  # pragma: no cover - a new kind of move
    if ends:
        sensible = words.sensible_end(game, ends)
        if sensible is not None:
            found["end"][()] = _Group(describe.end(sensible), [((), sensible)], single=describe.end(sensible))
            # The other ways to end stay reachable behind the sensible one's group.
            others = [e for e in ends if e != sensible]
            if others:
                found["end"][("others",)] = _Group(
                    describe.end_others(), [((describe.end_option(e),), e) for e in others]
                )
        else:
            found["end"][()] = _Group(describe.end_group(), [((describe.end_option(e),), e) for e in ends])
    return [g for kind in order for g in found[kind].values()]


def choice_tree(game: Game, locale: str, names: Sequence[str] | None = None) -> tuple[Choice, ...]:
    """The first select's options (at most 25) for the current player; ``names``: the seats'
    names, for bumps and Rozanova (default 'p1'…)."""
    if game.is_over:
        return ()
    merge = False
    groups = _groups(game, locale, names, merge_places=False)
    if len(groups) > MAX_OPTIONS:  # many dice at once: one group per die, the workroom inside
        merge = True
        groups = _groups(game, locale, names, merge_places=True)
    if len(groups) > MAX_OPTIONS:
        raise TreeError(f"{len(groups)} kinds of move do not fit in one select")
    tree = _told_final(tuple(_fit(g, locale) for g in groups), game, locale)
    if all(len(c.label) <= FIT for c, _d in _walk(tree)):
        return tree
    # Some label is too long: the same tree in the short forms, taken where the full one does not fit.
    short = _groups(game, locale, names, merge_places=merge, short=True)
    return _fitted(tree, _told_final(tuple(_fit(g, locale) for g in short), game, locale, short=True))


def _walk(tree: Sequence[Choice], depth: int = 0) -> Iterator[tuple[Choice, int]]:
    for c in tree:
        yield c, depth
        yield from _walk(c.children, depth + 1)


def _fitted(full: Sequence[Choice], short: Sequence[Choice]) -> tuple[Choice, ...]:
    """Each label in its full form where it fits, else its short form, else cut between words
    (both trees list the same moves in the same places)."""
    out = []
    for a, b in zip(full, short, strict=True):
        label = a.label if len(a.label) <= FIT else clip(b.label)
        out.append(Choice(label, a.move, _fitted(a.children, b.children)))
    return tuple(out)


def final(game: Game, m: Move) -> bool:
    """True when ``m`` cannot be undone once played: it draws a card or rolls dice (the
    engine keeps no way back past chance).  Ending the turn is asked about on its own."""
    if isinstance(m, EndTurn):
        return False
    after = game.clone()
    after.apply(m)
    return not after.is_over and after.undo_depth() == 0


def _told_final(options: tuple[Choice, ...], game: Game, locale: str, *, short: bool = False) -> tuple[Choice, ...]:
    """Options that cannot be undone say so on their label, before they are picked (the
    label is shortened, never the warning)."""
    out = []
    for c in options:
        if c.is_leaf and c.move is not None and final(game, c.move):
            suffix = words.cannot_undo(locale, short=short)
            out.append(
                Choice(words.words_cut(c.label, FIT - len(suffix)) + suffix if short else c.label + suffix, c.move)
            )
        elif not c.is_leaf:
            out.append(Choice(c.label, children=_told_final(c.children, game, locale, short=short)))
        else:
            out.append(c)
    return tuple(out)


def node_at(tree: Sequence[Choice], path: Sequence[int]) -> tuple[Choice, ...] | None:
    """The options shown after the picks ``path`` (indexes), or None if the path is stale."""
    options = tuple(tree)
    for i in path:
        if not 0 <= i < len(options) or options[i].is_leaf:
            return None
        options = options[i].children
    return options


def leaves(tree: Sequence[Choice], path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Choice]]:
    """Every move in the tree with the picks that reach it."""
    for i, c in enumerate(tree):
        if c.is_leaf:
            yield (*path, i), c
        else:
            yield from leaves(c.children, (*path, i))


def all_moves(game: Game) -> list[Move]:
    """The moves the panel must offer (all legal ones; Undo has its own button)."""
    return [m for m in game.legal_moves() if not isinstance(m, Undo)]
