"""The header's last-turn dice: which dice the last turn (and this one so far) put where,
worked out from the turn's moves."""

from __future__ import annotations

from engine import Game
from engine.moves import Place, ToArtist, ToMuseum, UseArtist

from .highlight import highlights, recent_turns
from .labels import Labels
from .names import circled

Recap = tuple[int, str, tuple[tuple[int | str, int, int], ...]]  # seat, where, dice (key, value, height)


def recap(game: Game, labels: Labels) -> list[Recap]:
    """The dice the last turn (and this one, so far) placed that are still there, in the
    order they came, grouped by where they went: ("①", …), the museum, an artist."""
    s = game.state
    hl = highlights(game)
    turns = recent_turns(game)
    out: list[Recap] = []
    seen: set[tuple[str, int, int]] = set()
    for seat, moves in turns:
        if not 0 <= seat < len(s.players):
            continue
        for played in moves:
            m = played.move
            where, die = "", None
            if isinstance(m, Place | UseArtist):
                target = (m.room, m.cell) if isinstance(m, Place) else m.target
                if target is None or (seat, target[0], target[1]) not in hl.workroom:
                    continue
                if ("w", seat * 2 + target[0], target[1]) in seen:
                    continue
                seen.add(("w", seat * 2 + target[0], target[1]))
                value, height = s.players[seat].workrooms[target[0]][target[1]]
                where, die = circled(target[0] + 1), (seat, value, height)
            elif isinstance(m, ToMuseum):
                col = s.museum.get(m.cell)
                if col is None or m.cell not in hl.museum or ("m", 0, m.cell) in seen:
                    continue
                seen.add(("m", 0, m.cell))
                where, die = labels.text("museum"), (seat, col.value, max(1, len(col.owners)))
            elif isinstance(m, ToArtist):
                slot = s.artists[m.slot]
                card = game.artist_card(m.slot)
                if card is None or m.slot not in hl.artists or slot.owner is None:
                    continue
                where = labels.artist_short(card)
                for _ in range(slot.count):
                    out.append((seat, where, ((slot.owner, slot.value, 1),)))
                continue
            if die is None:
                continue
            if out and out[-1][0] == seat and out[-1][1] == where:
                out[-1] = (seat, where, (*out[-1][2], die))
            else:
                out.append((seat, where, (die,)))
    # merge an artist's dice given one by one above
    merged: list[Recap] = []
    for item in out:
        if merged and merged[-1][0] == item[0] and merged[-1][1] == item[1]:
            merged[-1] = (item[0], item[1], (*merged[-1][2], *item[2]))
        else:
            merged.append(item)
    return merged
