"""What a player did, in plain words for everyone ("gave two 2s to Malevich, placed a 3
and a 4 in workroom 1, ended the turn keeping 5 in the storage space").  No move notation: that stays
in ``/cubist move`` and ``/cubist look history``.

Naming the artist a die went to, or the die Popova changed, needs the position before the
move; ``turn_words`` replays the turn from ``before`` when the caller has it, and words the
moves without those names otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from bot.i18n import card_name, has, join, t
from bot.i18n.cards import artist_name
from bot.panel.words import dice
from engine import Game, parse_move
from engine.cards import ArtistKind
from engine.history import replay, start_of
from engine.moves import (
    Abandon,
    Complete,
    DieRef,
    EndTurn,
    Move,
    Place,
    Release,
    Remove,
    Skip,
    Switch,
    ToArtist,
    ToMuseum,
    Undo,
    UseArtist,
)

# "done" words a turn that was played ("placed a 3 in workroom 1"); "do" words a suggestion
# ("place a 3 in workroom 1", the hint), from the catalogues' ``story.do`` where it has the key.
_MOOD: ContextVar[str] = ContextVar("story_mood", default="done")


def _t(key: str, locale: str, /, **params: object) -> str:
    if _MOOD.get() == "do" and has(suggested := key.replace("story.", "story.do.", 1)):
        return t(suggested, locale, **params)
    return t(key, locale, **params)


def _names(names: Sequence[str] | None, n: int, locale: str) -> list[str]:
    return list(names) if names else [t("story.seat", locale, seat=i + 1) for i in range(n)]


def _value(die: DieRef, before: Game | None) -> int | None:
    if die.kind != "i":
        return die.value
    if before is None:
        return None
    me = before.state.players[before.current_player]
    if die.card < len(me.completed):
        return me.completed[die.card].dice[die.space]
    return None


def _a_die(die: DieRef, before: Game | None, locale: str) -> str:
    value = _value(die, before)
    if die.kind == "i":
        if value is None:
            return t("story.card_die", locale)
        return t("story.card_value", locale, value=value)
    return dice(1, die.value, locale)


def _artist(slot: int, before: Game | None, locale: str) -> str:
    card = before.artist_card(slot) if before is not None else None
    if card is None:
        return t("story.artist_slot", locale, slot=slot + 1)
    return artist_name(card, locale, short=True)


def _room(room: int, locale: str) -> str:
    return t("turnpanel.room", locale, room=room + 1)


def move_words(m: Move, before: Game | None, locale: str, names: Sequence[str] | None = None) -> str:
    """One move as a phrase completing "<name> …" ("gave two 2s to Malevich")."""
    seats = _names(names, before.num_players if before else 4, locale)
    if isinstance(m, Place):
        return _t("story.place", locale, die=_a_die(m.die, before, locale), room=_room(m.room, locale))
    if isinstance(m, ToMuseum):
        return _t("story.museum", locale, die=_a_die(m.die, before, locale))
    if isinstance(m, ToArtist):
        value = _value(m.dice[0], before) or next((d.value for d in m.dice if d.kind != "i"), 0)
        text = _t("story.artist", locale, dice=dice(len(m.dice), value, locale), artist=_artist(m.slot, before, locale))
        if before is not None:
            slot = before.state.artists[m.slot]
            if slot.owner is not None and slot.count and slot.owner != before.current_player:
                theirs = dice(slot.count, slot.value, locale)
                text += _t("story.bumped", locale, name=seats[slot.owner], dice=theirs)
        return text
    if isinstance(m, UseArtist):
        return _use(m, before, locale, seats)
    if isinstance(m, Complete):
        card = before.deck.installation(m.card) if before is not None else None
        if card is None:
            return _t("story.complete_plain", locale, room=_room(m.room, locale))
        name = card_name("installation", card, locale)
        return _t("story.complete", locale, name=name, room=_room(m.room, locale), points=card.points)
    if isinstance(m, Abandon):
        return _t("story.abandon", locale, room=_room(m.room, locale))
    if isinstance(m, Release):
        return _t("story.release", locale)
    if isinstance(m, Switch):
        shown = _value(m.die, before)
        return _t("story.switch", locale) if shown is None else _t("story.switch_from", locale, value=shown)
    if isinstance(m, EndTurn):
        if m.keep:
            return _t("story.end_keep", locale, keep=join([str(v) for v in m.keep], locale))
        return _t("story.end", locale)
    if isinstance(m, Undo):
        return _t("story.undo", locale)
    if isinstance(m, Skip):
        return _t("story.skip", locale)
    if isinstance(m, Remove):
        return _t("story.remove", locale, name=seats[m.seat] if m.seat < len(seats) else m.seat + 1)
    return str(m)  # pragma: no cover - a new kind of move


def _use(m: UseArtist, before: Game | None, locale: str, seats: list[str]) -> str:
    artist = _artist(m.slot, before, locale)
    card = before.artist_card(m.slot) if before is not None else None
    kind = card.artist if card is not None else None
    if m.seat is not None and m.die is not None:
        what = _t("story.use.rozanova", locale, name=seats[m.seat], value=m.die.value)
    elif m.source is not None and m.target is not None:
        what = _t("story.use.pascin", locale, source=_room(m.source[0], locale), target=_room(m.target[0], locale))
    elif m.source is not None:
        what = _t("story.use.gris", locale, room=_room(m.source[0], locale))
    elif m.die is not None and kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE) and card is not None:
        value = _value(m.die, before)
        delta = card.delta or 0
        what = _t("story.use.change", locale, value=value, to=(value or 0) + delta) if value else ""
    elif m.die is not None:
        what = _t("story.use.take", locale, value=m.die.value)
    elif card is not None and card.value is not None:
        what = _t("story.use.take", locale, value=card.value)
    else:
        what = ""
    if not what:
        return _t("story.use.plain", locale, artist=artist)
    return _t("story.use.done", locale, artist=artist, what=what)


def _placed(room: int, values: list[int], locale: str) -> str:
    """'placed two 3s and a 4 in workroom 1'."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    told = join([dice(n, v, locale) for v, n in counts.items()], locale)
    return _t("story.place", locale, die=told, room=_room(room, locale))


def turn_words(
    moves: Sequence[str],
    before: Game | None,
    locale: str,
    names: Sequence[str] | None = None,
    *,
    suggest: bool = False,
) -> str:
    """A whole turn, consecutive placements in one workroom told together; ``suggest``: as
    a suggestion in the present ("place a 3 in workroom 1, then end the turn")."""
    token = _MOOD.set("do" if suggest else "done")
    try:
        return _turn_words(moves, before, locale, names)
    finally:
        _MOOD.reset(token)


def _turn_words(moves: Sequence[str], before: Game | None, locale: str, names: Sequence[str] | None) -> str:
    game = before.clone() if before is not None else None
    phrases: list[str] = []
    placed: tuple[int, list[int]] | None = None  # (room, values) of the placements told together
    for text in moves:
        m = parse_move(text)
        if isinstance(m, Place) and m.die.kind == "s" and placed is not None and placed[0] == m.room:
            placed[1].append(m.die.value)
        else:
            if placed is not None:
                phrases.append(_placed(*placed, locale))
                placed = None
            if isinstance(m, Place) and m.die.kind == "s":
                placed = (m.room, [m.die.value])
            else:
                phrases.append(move_words(m, game, locale, names))
        if game is not None:
            try:
                game.apply(m)
            except ValueError:  # the replay disagrees (should not happen): word the rest plainly
                game = None
    if placed is not None:
        phrases.append(_placed(*placed, locale))
    return t("common.summary_sep", locale).join(phrases) if phrases else t("texts.passed", locale)


def before_last_turn(game: Game) -> Game | None:
    """The position at the start of the turn that just ended (a replay of the log: CPU work,
    run it off the event loop).  Kept for the last few games asked about: the turn's channel
    post and the web board both tell that turn (read the position; never change it)."""
    return _before_last_turn(_Log(game))


@dataclass(frozen=True)
class _Log:
    """A game as the key of the cache below: equal when set up alike and played alike."""

    game: Game = field(compare=False, hash=False)
    key: tuple[object, ...] = field(init=False)

    def __post_init__(self) -> None:
        g = self.game
        object.__setattr__(self, "key", (g.seed, g.num_players, id(g.deck), repr(g.options), tuple(g.log)))


@lru_cache(maxsize=64)
def _before_last_turn(log: _Log) -> Game | None:
    game = log.game
    starts = [start_of(game)]  # the starts of the last two turns, latest last
    ended = False
    for step, g in replay(game):
        ended = step.turn_ended and not g.is_over
        if ended:
            starts = [starts[-1], g.clone()]
    if game.is_over and not ended:
        return starts[-1]
    return starts[-2] if len(starts) == 2 else None
