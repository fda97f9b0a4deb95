"""The artists' powers, one rule object per kind (the card data says which kind a card is
and its numbers): ``options`` lists every legal use of a card in a slot, ``problem`` says in
a rule text why a use that is not among them is refused, ``apply`` carries a checked use
out.  ``ARTIST_RULES`` is the table ``Game`` reads; a new artist is a new class here."""

from __future__ import annotations

from typing import ClassVar

from ..cards import ArtistCard, ArtistKind
from ..errors import IllegalMove
from ..geometry import WORKROOM_SIZE
from ..moves import STOREROOM, DieRef, UseArtist
from ..rule_texts import RuleText, listed
from ..structure import legal_cells, placement_problem, put, removable_tops, split_problem, take_top
from .table import Table

ROOMS = (0, 1)


class ArtistRule:
    """What every artist answers.  ``kinds``: the artist kinds this rule serves."""

    kinds: ClassVar[tuple[ArtistKind, ...]] = ()

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        raise NotImplementedError

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        return RuleText("use_other", artist=card.artist)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        raise NotImplementedError


class Malevich(ArtistRule):
    """Gives a die of the card's value from the supply."""

    kinds = (ArtistKind.MALEVICH,)

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        return [UseArtist(slot)]

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        return RuleText("use_malevich", artist=card.artist, slot=m.slot + 1)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert card.value is not None
        game.take_from_supply(card.value)


class Boccioni(ArtistRule):
    """Gives a die of one of the card's two values, the player's choice."""

    kinds = (ArtistKind.BOCCIONI,)

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        assert card.values is not None
        return [UseArtist(slot, die=DieRef.storeroom(v)) for v in sorted(card.values)]

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        assert card.values is not None
        a, b = card.values
        return RuleText("use_boccioni", artist=card.artist, a=a, b=b, slot=m.slot + 1)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert m.die is not None
        game.take_from_supply(m.die.value)


class Marc(Boccioni):
    """Gives a die of any value, the player's choice."""

    kinds = (ArtistKind.MARC,)

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        return [UseArtist(slot, die=DieRef.storeroom(v)) for v in range(1, 7)]

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        return RuleText("use_marc", artist=card.artist, slot=m.slot + 1)


class Shift(ArtistRule):
    """Popova and La Fresnaye: a die of the storeroom or on a completed card changes by the
    card's delta, staying 1-6."""

    kinds = (ArtistKind.POPOVA, ArtistKind.LA_FRESNAYE)

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        assert card.delta is not None
        delta = card.delta
        me = game.mover()
        out = [UseArtist(slot, die=DieRef.storeroom(v)) for v in sorted(set(me.storeroom)) if 1 <= v + delta <= 6]
        out += [UseArtist(slot, die=d) for d, v in game.card_dice() if 1 <= v + delta <= 6]
        return out

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        assert card.delta is not None
        if m.die is None or m.source or m.target or m.seat is not None:
            return RuleText("use_change", artist=card.artist, delta=f"{card.delta:+d}", slot=m.slot + 1)
        try:
            v = game.die_value(m.die)
        except IllegalMove as e:
            return e.rule
        return RuleText("use_change_range", artist=card.artist, value=v, result=v + card.delta)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert m.die is not None and card.delta is not None
        me = game.mover()
        if m.die.kind == STOREROOM:
            me.storeroom.remove(m.die.value)
            me.storeroom.append(m.die.value + card.delta)
            me.storeroom.sort()
        else:
            c = me.completed[m.die.card]
            v = c.dice[m.die.space]
            assert v is not None
            c.dice[m.die.space] = v + card.delta


class Gris(ArtistRule):
    """Takes the top die of a workroom column back to the supply."""

    kinds = (ArtistKind.GRIS,)
    moves_die = False  # Pascin moves it instead
    usage = "'use {slot} w1 c3'"

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        me = game.mover()
        return [
            UseArtist(slot, source=(room, c))
            for room in ROOMS
            for c in removable_tops(me.workrooms[room], WORKROOM_SIZE)
        ]

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        name = card.artist
        usage = self.usage.format(slot=m.slot + 1)
        if m.source is None or m.die is not None or m.seat is not None or ((m.target is None) == self.moves_die):
            return RuleText("use_write", artist=name, usage=usage)
        room, cell = m.source
        if room not in ROOMS or not 0 <= cell < WORKROOM_SIZE**2:
            return RuleText("use_write_cells", artist=name, usage=usage)
        me = game.mover()
        problem = split_problem(me.workrooms[room], cell, WORKROOM_SIZE)
        if problem:
            return RuleText("use_in_workroom", artist=name, room=f"w{room + 1}", problem=problem)
        if not self.moves_die or m.target is None:
            return RuleText("use_write", artist=name, usage=usage)
        to_room, to_cell = m.target
        if to_room not in ROOMS or not 0 <= to_cell < WORKROOM_SIZE**2:
            return RuleText("use_write_cells", artist=name, usage=usage)
        if (to_room, to_cell) == (room, cell):
            return RuleText("use_same_place", artist=name)
        after = dict(me.workrooms[room])
        value = take_top(after, cell)
        cols = after if to_room == room else me.workrooms[to_room]
        problem = placement_problem(cols, to_cell, value, WORKROOM_SIZE)
        return RuleText("use_in_workroom", artist=name, room=f"w{to_room + 1}", problem=problem)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert m.source is not None
        me = game.mover()
        take_top(me.workrooms[m.source[0]], m.source[1])
        me.supply += 1


class Pascin(Gris):
    """Moves the top die of a workroom column to another legal cell of either workroom."""

    kinds = (ArtistKind.PASCIN,)
    moves_die = True
    usage = "'use {slot} w1 c3 w2 d4'"

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        me = game.mover()
        return [
            UseArtist(slot, source=(room, c), target=target)
            for room in ROOMS
            for c in removable_tops(me.workrooms[room], WORKROOM_SIZE)
            for target in self.targets(game, room, c)
        ]

    @staticmethod
    def targets(game: Table, room: int, cell: int) -> list[tuple[int, int]]:
        me = game.mover()
        after = dict(me.workrooms[room])
        value = take_top(after, cell)
        return [
            (to_room, c)
            for to_room in ROOMS
            for c in legal_cells(after if to_room == room else me.workrooms[to_room], value, WORKROOM_SIZE)
            if (to_room, c) != (room, cell)
        ]

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert m.source is not None and m.target is not None
        me = game.mover()
        v = take_top(me.workrooms[m.source[0]], m.source[1])
        put(me.workrooms[m.target[0]], m.target[1], v)


class Rozanova(ArtistRule):
    """Takes a die from an opponent's storage: it goes back to their supply and the player
    gets a die of that value from their own."""

    kinds = (ArtistKind.ROZANOVA,)

    def options(self, game: Table, slot: int, card: ArtistCard) -> list[UseArtist]:
        s = game.state
        return [
            UseArtist(slot, die=DieRef.storeroom(v), seat=seat)
            for seat, p in enumerate(s.players)
            if seat != s.current and not p.removed
            for v in sorted(set(p.storage))
        ]

    def problem(self, game: Table, m: UseArtist, card: ArtistCard) -> RuleText:
        name = card.artist
        if m.seat is None or m.die is None or m.die.kind != STOREROOM:
            return RuleText("use_rozanova", artist=name, slot=m.slot + 1)
        seat = f"p{m.seat + 1}"
        if not 0 <= m.seat < game.num_players or m.seat == game.state.current:
            return RuleText("use_not_opponent", artist=name, seat=seat)
        if game.state.players[m.seat].removed:
            return RuleText("use_left", artist=name, seat=seat)
        storage = listed([str(v) for v in game.state.players[m.seat].storage])
        return RuleText("use_no_storage_die", artist=name, seat=seat, value=m.die.value, storage=storage)

    def apply(self, game: Table, m: UseArtist, card: ArtistCard) -> None:
        assert m.seat is not None and m.die is not None
        victim = game.state.players[m.seat]
        victim.storage.remove(m.die.value)
        victim.supply += 1
        game.take_from_supply(m.die.value)


ARTIST_RULES: dict[ArtistKind, ArtistRule] = {
    kind: rule
    for rule in (Malevich(), Boccioni(), Marc(), Shift(), Gris(), Pascin(), Rozanova())
    for kind in rule.kinds
}
assert set(ARTIST_RULES) == set(ArtistKind), "every artist kind needs its rule"
