"""The one narrator: what a player did, in plain words for everyone ("gave two 2s to
Malevich, placed a 3 and a 4 in workroom 1, ended the turn keeping 5 in the storage space").

Every teller of a turn (the channel post, the DMs, the pictures' header, the web board,
history, recap, replay, hints, the demo's transcript) words it here, from the engine's record
(``engine.record``): each move with what it resolved to when it was played, so the artist
named is the card that was used, not the one in its slot now.  No move notation: that stays
in ``/cubist move`` and ``/cubist look history``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import card_name, has, join, t
from bot.i18n.cards import artist_name
from bot.panel.words import dice
from engine import Game, Move, Played, TurnRecord
from engine.cards import ArtistKind, Deck
from engine.moves import (
    CARD,
    Abandon,
    Complete,
    EndTurn,
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
from render.palette import MARK_GLYPHS


@dataclass(frozen=True, slots=True)
class _Voice:
    """How the phrases are said: ``done`` a turn that was played ("placed a 3 in workroom
    1"), ``do`` a suggestion ("place a 3 in workroom 1", from the catalogues' ``story.do``);
    ``told`` whether each phrase carries its auxiliary (French "a posé …, a donné …": a list
    of past participles repeats the verb)."""

    locale: str
    names: tuple[str, ...]
    mood: str = "done"
    told: bool = False

    def t(self, key: str, /, **params: object) -> str:
        if self.mood == "do" and has(suggested := key.replace("story.", "story.do.", 1)):
            return t(suggested, self.locale, **params)
        return t(key, self.locale, **params)

    def seat(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else t("story.seat", self.locale, seat=seat + 1)

    def phrase(self, text: str) -> str:
        return t("story.told", self.locale, what=text) if self.told and self.mood == "done" else text


def _voice(locale: str, names: Sequence[str] | None, mood: str = "done", told: bool = False) -> _Voice:
    return _Voice(locale, tuple(names or ()), mood, told)


def _room(room: int, locale: str) -> str:
    return t("panel.room", locale, room=room + 1)


def _a_die(p: Played, v: _Voice) -> str:
    if p.value is None:
        return t("story.card_die", v.locale)
    if p.bonus:
        return t("story.card_value", v.locale, value=p.value)
    return dice(1, p.value, v.locale)


def _artist(p: Played, deck: Deck, v: _Voice) -> str:
    if p.artist is None:  # pragma: no cover - the engine records the card of every artist move
        slot = p.move.slot if isinstance(p.move, ToArtist | UseArtist) else 0
        return t("story.artist_slot", v.locale, slot=slot + 1)
    return artist_name(deck.artist(p.artist), v.locale, short=True)


def play_words(p: Played, deck: Deck, locale: str, names: Sequence[str] | None = None) -> str:
    """One move as a phrase completing "<name> …" ("gave two 2s to Malevich"; French: the
    participle, "donné deux 2 à Malevitch", which the sentence around it completes)."""
    return _play_words(p, deck, _voice(locale, names))


def _play_words(p: Played, deck: Deck, v: _Voice) -> str:
    m = p.move
    if isinstance(m, Place):
        return v.t("story.place", die=_a_die(p, v), room=_room(m.room, v.locale))
    if isinstance(m, ToMuseum):
        return v.t("story.museum", die=_a_die(p, v))
    if isinstance(m, ToArtist):
        text = v.t("story.artist", dice=dice(len(m.dice), p.value or 0, v.locale), artist=_artist(p, deck, v))
        if p.bumped is not None:
            seat, count, value = p.bumped
            text += v.t("story.bumped", name=v.seat(seat), dice=dice(count, value, v.locale))
        return text
    if isinstance(m, UseArtist):
        return _use(p, m, deck, v)
    if isinstance(m, Complete):
        card = deck.installation(m.card)
        name = card_name("installation", card, v.locale)
        return v.t("story.complete", name=name, room=_room(m.room, v.locale), points=card.points)
    if isinstance(m, Abandon):
        return v.t("story.abandon", room=_room(m.room, v.locale))
    if isinstance(m, Release):
        return v.t("story.release")
    if isinstance(m, Switch):
        if p.value is None or p.to is None:
            return v.t("story.switch")
        return v.t("story.switch_from", value=p.value, to=p.to)
    if isinstance(m, EndTurn):
        if m.keep:
            return v.t("story.end_keep", keep=_dice_told(m.keep, v))  # "keeping a 6 and a 1"
        return v.t("story.end")
    if isinstance(m, Undo):
        return v.t("story.undo")
    if isinstance(m, Skip):
        return v.t("story.skip")
    if isinstance(m, Remove):
        return v.t("story.remove", name=v.seat(m.seat))
    raise AssertionError(f"a move the narrator does not know: {m!r}")  # pragma: no cover


def _use(p: Played, m: UseArtist, deck: Deck, v: _Voice) -> str:
    artist = _artist(p, deck, v)
    card = deck.artist(p.artist) if p.artist is not None else None
    kind = card.artist if card is not None else None
    what = ""
    if kind == ArtistKind.ROZANOVA and m.seat is not None and p.value is not None:
        what = v.t("story.use.rozanova", name=v.seat(m.seat), value=p.value)
    elif kind == ArtistKind.PASCIN and m.source is not None and m.target is not None:
        source, target = _room(m.source[0], v.locale), _room(m.target[0], v.locale)
        what = v.t("story.use.pascin", value=p.value, source=source, target=target)
    elif kind == ArtistKind.GRIS and m.source is not None:
        what = v.t("story.use.gris", value=p.value, room=_room(m.source[0], v.locale))
    elif kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE) and p.value is not None and p.to is not None:
        key = "story.use.change_bonus" if m.die is not None and m.die.kind == CARD else "story.use.change"
        what = v.t(key, value=p.value, to=p.to)
    elif p.value is not None:
        what = v.t("story.use.take", value=p.value)
    if not what:
        return v.t("story.use.plain", artist=artist)
    return v.t("story.use.done", artist=artist, what=what)


def _dice_told(values: Sequence[int], v: _Voice) -> str:
    """'two 3s and a 4', equal values counted together."""
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return join([dice(n, value, v.locale) for value, n in counts.items()], v.locale)


def _placed(room: int, values: list[int], v: _Voice) -> str:
    """'placed two 3s and a 4 in workroom 1'."""
    return v.t("story.place", die=_dice_told(values, v), room=_room(room, v.locale))


def _stored_die(p: Played) -> int | None:
    """The value of a placement from the storeroom (told together with its neighbours)."""
    m = p.move
    if isinstance(m, Place) and m.die.kind != CARD and not p.bonus:
        return p.value if p.value is not None else m.die.value
    return None


def turn_phrases(plays: Sequence[Played], deck: Deck, v: _Voice) -> list[str]:
    """A turn's moves as phrases, consecutive storeroom placements in one workroom together."""
    phrases: list[str] = []
    placed: tuple[int, list[int]] | None = None  # (room, values) of the placements told together
    for p in plays:
        value = _stored_die(p)
        if value is not None and isinstance(p.move, Place) and placed is not None and placed[0] == p.move.room:
            placed[1].append(value)
            continue
        if placed is not None:
            phrases.append(v.phrase(_placed(*placed, v)))
            placed = None
        if value is not None and isinstance(p.move, Place):
            placed = (p.move.room, [value])
        else:
            phrases.append(v.phrase(_play_words(p, deck, v)))
    if placed is not None:
        phrases.append(v.phrase(_placed(*placed, v)))
    return phrases


def turn_words(
    turn: TurnRecord | Sequence[Played],
    deck: Deck,
    locale: str,
    names: Sequence[str] | None = None,
    *,
    suggest: bool = False,
) -> str:
    """A whole turn after "<name>" ("placed a 3 and a 4 in workroom 1; ended the turn";
    French "a posé un 3 et un 4 dans l'atelier 1 ; a terminé son tour"); ``suggest``: as a
    suggestion in the present ("place a 3 in workroom 1; end the turn"), after "Try"."""
    plays = turn.plays if isinstance(turn, TurnRecord) else turn
    v = _voice(locale, names, "do" if suggest else "done", told=not suggest)
    phrases = turn_phrases(plays, deck, v)
    return t("common.summary_sep", locale).join(phrases) if phrases else v.phrase(t("story.passed", locale))


def plan_plays(game: Game, moves: Sequence[Move]) -> tuple[Played, ...]:
    """What ``moves`` would resolve to if played now (a suggestion, told like a turn): played
    on a copy of ``game``, which stays as it is.  Stops at the first move that is not legal."""
    copy = game.clone()
    out: list[Played] = []
    for m in moves:
        try:
            step = copy.apply(m)
        except ValueError:
            break
        if step.played is not None:
            out.append(step.played)
        if step.turn_ended:
            break
    return tuple(out)


def last_play(game: Game) -> Played | None:
    """The record of the move last applied to ``game`` (None before the first, after an undo)."""
    s = game.state
    for turn in (s.this_turn, s.last_turn):
        if turn is not None and turn.plays:
            return turn.plays[-1] if game.log and turn.plays[-1].move == game.log[-1] else None
    return None


def move_words(move: Move, game: Game, locale: str, names: Sequence[str] | None = None) -> str:
    """A move just applied to ``game`` as a phrase ("placed a 4 in workroom 1"), from its
    record; an undo or a move the record does not hold is told from the move alone."""
    played = last_play(game)
    if played is None or played.move != move:
        played = Played(move)
    return play_words(played, game.deck, locale, names)


@dataclass(frozen=True, slots=True)
class Narration:
    """The narrator for one language as the pictures carry it (``render.Labels.narrate``):
    hashable and picklable, so it travels to render workers with the labels."""

    language: str

    def __call__(self, plays: Sequence[Played], deck: Deck, names: Sequence[str] | None) -> str:
        return turn_words(plays, deck, self.language, names)


def this_turn_words(game: Game, names: Sequence[str], locale: str) -> str:
    """This turn's moves so far ("this turn: placed a 3 in workroom 1"), or "" before the first:
    the words the table picture's header uses."""
    plays = game.state.this_turn.plays
    return t("pictures.this_turn", locale, moves=turn_words(plays, game.deck, locale, names)) if plays else ""


def turn_headline(seat: int, turn: TurnRecord, deck: Deck, names: Sequence[str], locale: str) -> str:
    """The first line of a turn's channel post ("🟠 **Ada** placed a 3 in workroom 1; …")."""
    summary = turn_words(turn, deck, locale, names)
    return t("table.headline", locale, mark=MARK_GLYPHS[seat], name=names[seat], summary=summary)
