"""The panel's words for moves, in the reader's language ("Place the 4 → workroom 2",
"next to the 3 (c3)", "your two 2s").  The templates are in ``locales/*.panel.json``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import card_name, has, join, t
from bot.i18n.cards import artist_name
from engine import Game
from engine.cards import ArtistKind
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE, cell_name, neighbour_table
from engine.moves import Abandon, Complete, DieRef, EndTurn, Place, Switch, ToArtist, ToMuseum, UseArtist

SHORT = 40  # characters of each end of a "More: first … last" label
NAME_IN_LABEL = 20  # characters of a player's name a label keeps whole (longer: its first word)


def path(parts: Sequence[str], locale: str) -> str:
    return t("panel.arrow", locale).join(p for p in parts if p)


def more(first: str, last: str, locale: str) -> str:
    def cut(s: str) -> str:
        return s if len(s) <= SHORT else words_cut(s, SHORT)

    return t("panel.more", locale, first=cut(first), last=cut(last))


def words_cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, cut between words and marked "…" (the last
    resort of a label no short form fits)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if not text[limit - 1].isspace() and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:→(") + "…"


def label_name(name: str) -> str:
    """A player's name as a label shows it: a computer player's without its level in
    brackets, a long one by its first word ("Bartholomew" for "Bartholomew Fitzgerald-Ashworth")."""
    shown = name.rsplit(" (", 1)[0] if name.endswith(")") and " (" in name else name
    if len(shown) <= NAME_IN_LABEL:
        return shown
    first = shown.split()[0]
    return first if len(first) <= NAME_IN_LABEL else words_cut(shown, NAME_IN_LABEL)


def part(head: str, number: int, parts: int, locale: str) -> str:
    return t("panel.part", locale, head=head, number=number, parts=parts)


def dice(count: int, value: int, locale: str) -> str:
    """'a 4', 'two 2s' ('un 4', 'deux 2')."""
    number = t(f"panel.number.n{count}", locale) if 1 <= count <= 6 else str(count)
    return t("panel.dice", locale, count=count, value=value, number=number)


def centre_rank(cell: int, size: int = WORKROOM_SIZE) -> float:
    """Cells near the middle first: where a player usually starts an installation."""
    y, x = divmod(cell, size)
    mid = (size - 1) / 2
    return (x - mid) ** 2 + (y - mid) ** 2


def sensible_end(game: Game, ends: Sequence[EndTurn]) -> EndTurn | None:
    """The end that needs no choice: two dice or fewer in the storeroom, all kept."""
    room = game.state.players[game.current_player].storeroom
    if len(room) > 2:
        return None
    keep = EndTurn(tuple(room))
    return keep if keep in ends else None


class Describer:
    """Words for the current player's moves in one position.  ``short``: the short forms a
    label takes when the full one does not fit (``panel.short.*`` where the catalogue
    has one: no "from your next turn: …" explanation, players by their short names)."""

    def __init__(self, game: Game, locale: str, names: Sequence[str] | None = None, *, short: bool = False) -> None:
        self.game = game
        self.locale = locale
        self.short = short
        self.me = game.state.players[game.current_player]
        self.names = list(names) if names else [f"p{i + 1}" for i in range(game.num_players)]
        if short:
            self.names = [label_name(n) for n in self.names]

    def say(self, key: str, /, **params: object) -> str:
        """The panel's message ``key`` (``panel.<key>``), in its short form when asked."""
        if self.short and has(f"panel.short.{key}"):
            return t(f"panel.short.{key}", self.locale, **params)
        return t(f"panel.{key}", self.locale, **params)

    # --- pieces --------------------------------------------------------------------------

    def room(self, room: int) -> str:
        return self.say("room", room=room + 1)

    def die_value(self, die: DieRef) -> int:
        if die.kind == "i":
            value = self.me.completed[die.card].dice[die.space]
            return value or 0
        return die.value

    def die(self, die: DieRef) -> str:
        if die.kind == "i":
            return self.say("card_die", value=self.die_value(die), card=die.card + 1)
        if die.kind == "x":
            return self.say("abandoned_die", value=die.value)
        return self.say("the", value=die.value)

    def cell(self, columns: Mapping[int, tuple[int, int]], cell: int, size: int) -> str:
        """'next to the 3 (c3)', 'on top of the 4 (c3)', or 'c3' in an empty structure."""
        name = cell_name(cell, size)
        col = columns.get(cell)
        if col is not None:
            return self.say("on_top", value=col[0], cell=name, level=col[1] + 1)
        near = sorted({columns[n][0] for n in neighbour_table(size)[cell] if n in columns})
        if not near:
            return name
        values = join([self.say("beside", value=v) for v in near], self.locale)
        return self.say("next_to", values=values, cell=name)

    def artist(self, slot: int) -> tuple[str, str]:
        """(name, what it gives) of the artist card in ``slot``."""
        card = self.game.artist_card(slot)
        if card is None:
            return self.say("card_slot", slot=slot + 1), ""
        kind = str(ArtistKind(card.artist))
        a, b = card.values or (0, 0)
        delta = f"{card.delta:+d}" if card.delta is not None else ""
        gives = self.say(f"gives.{kind}", value=card.value, a=a, b=b, delta=delta)
        return artist_name(card, self.locale, short=True), gives

    # --- groups and options --------------------------------------------------------------

    def place_group(self, m: Place, *, by_room: bool) -> str:
        if m.die.kind == "s":
            if by_room:
                return self.say("place_in", value=m.die.value, room=self.room(m.room))
            return self.say("place", value=m.die.value)
        if by_room:
            return self.say("place_card_in", room=self.room(m.room))
        return self.say("place_card")

    def place_path(self, m: Place, *, merged: bool) -> tuple[str, ...]:
        where = self.cell(self.me.workrooms[m.room], m.cell, WORKROOM_SIZE)
        if m.die.kind == "s":
            return (self.room(m.room), where) if merged else (where,)
        if merged:
            return (path((self.die(m.die), self.room(m.room)), self.locale), where)
        return (self.die(m.die), where)

    def museum_group(self, m: ToMuseum) -> str:
        return self.say("museum", die=self.die(m.die))

    def museum_cell(self, m: ToMuseum) -> str:
        columns = {c: (col.value, len(col.owners)) for c, col in self.game.state.museum.items()}
        return self.cell(columns, m.cell, MUSEUM_SIZE)

    def artist_group(self, slot: int) -> str:
        name, gives = self.artist(slot)
        return self.say("artist", artist=name, gives=gives)

    def artist_dice(self, m: ToArtist) -> str:
        value = self.die_value(m.dice[0]) if m.dice[0].kind == "i" else m.dice[0].value
        what = dice(len(m.dice), value, self.locale)
        if all(d.kind == "x" for d in m.dice):
            text = self.say("abandoned", dice=what)
        else:
            text = self.say("yours", dice=what)
            on_cards = sum(d.kind == "i" for d in m.dice)
            if on_cards:
                text += self.say("from_cards", count=on_cards)
        slot = self.game.state.artists[m.slot]
        if slot.owner is not None and slot.owner != self.game.current_player and slot.count:
            theirs = dice(slot.count, slot.value, self.locale)
            text += self.say("bumps", name=self.names[slot.owner], dice=theirs)
        return text

    def artist_single(self, m: ToArtist) -> str:
        name, gives = self.artist(m.slot)
        return self.say("artist_one", dice=self.artist_dice(m), artist=name, gives=gives)

    def use_group(self, slot: int) -> str:
        name, gives = self.artist(slot)
        return self.say("use", artist=name, gives=gives)

    def use_path(self, m: UseArtist) -> tuple[str, ...]:
        card = self.game.artist_card(m.slot)
        if card is None:
            return ()
        kind = card.artist
        if m.seat is not None and m.die is not None:  # Rozanova
            return (self.say("rozanova", name=self.names[m.seat], value=m.die.value),)
        if m.source is not None:
            room, cell = m.source
            value = self.me.workrooms[room][cell][0]
            where = f"{self.room(room)} {cell_name(cell, WORKROOM_SIZE)}"
            if m.target is None:  # Gris
                return (self.say("remove", value=value, where=where),)
            to_room, to_cell = m.target
            target = f"{self.room(to_room)} {cell_name(to_cell, WORKROOM_SIZE)}"
            return (
                self.say("move_from", value=value, where=where),
                self.say("move_to", where=target),
            )
        if m.die is not None:
            if kind in (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE) and card.delta is not None:
                value = self.die_value(m.die)
                return (self.say("change", die=self.die(m.die), to=value + card.delta),)
            return (self.say("take", value=m.die.value),)
        return ()

    def complete_group(self, room: int) -> str:
        return self.say("complete", room=self.room(room))

    def complete_card(self, m: Complete) -> str:
        card = self.game.deck.installation(m.card)
        name = card_name("installation", card, self.locale)
        return self.say("complete_with", name=name, points=card.points)

    def switch(self, m: Switch) -> str:
        value = self.die_value(m.die)
        spaces = self.game.deck.installation(self.me.completed[m.die.card].card).bonus[m.die.space]
        other = next((v for v in spaces if v != value), value)
        return self.say("switch", die=self.die(m.die), to=other)

    def abandon(self, m: Abandon) -> str:
        count = sum(h for _v, h in self.me.workrooms[m.room].values())
        return self.say("abandon", room=self.room(m.room), count=count)

    def release(self) -> str:
        return self.say("release", count=len(self.game.state.pool))

    def end_option(self, e: EndTurn) -> str:
        back = len(self.me.storeroom) - len(e.keep)
        kept = join([str(v) for v in e.keep], self.locale) if e.keep else ""
        nothing = self.say("keep_none") if back else self.say("nothing_left")
        text = self.say("keep", kept=kept) if e.keep else nothing
        if back:
            text += self.say("back", count=back)
        return text

    def end(self, e: EndTurn) -> str:
        return self.say("end_with", what=self.end_option(e))

    def end_group(self) -> str:
        return self.say("end_choose")

    def end_others(self) -> str:
        return self.say("end_others")


def cannot_undo(locale: str, *, short: bool = False) -> str:
    """The suffix of an option that cannot be undone once played (a card is drawn, dice rolled)."""
    return t("panel.short.cannot_undo" if short else "panel.cannot_undo", locale)
