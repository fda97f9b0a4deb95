"""Words the bot writes: move descriptions, turn summaries, scores, rules help."""

from __future__ import annotations

from engine import Game, parse_move
from engine.geometry import MUSEUM_SIZE, WORKROOM_SIZE, cell_name
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

COLOUR_NAMES = ("orange", "sky blue", "green", "purple")  # matches render's palette order
MARKS = ("●", "▲", "■", "◆")


def die_text(d: DieRef) -> str:
    if d.kind == "s":
        return f"a {d.value}"
    if d.kind == "x":
        return f"an abandoned {d.value}"
    return f"the die on card {d.card + 1} (space {d.space + 1})"


def describe(move: Move | str, game: Game | None = None) -> str:
    """A short English phrase for a move, e.g. 'placed a 4 on w1 c3'."""
    m = parse_move(move) if isinstance(move, str) else move
    if isinstance(m, Place):
        return f"placed {die_text(m.die)} on w{m.room + 1} {cell_name(m.cell, WORKROOM_SIZE)}"
    if isinstance(m, ToMuseum):
        return f"gave {die_text(m.die)} to the museum at {cell_name(m.cell, MUSEUM_SIZE)} (+2)"
    if isinstance(m, ToArtist):
        values = ", ".join(die_text(d) for d in m.dice)
        return f"put {values} on artist {m.slot + 1}"
    if isinstance(m, UseArtist):
        return f"used artist {m.slot + 1} ({m})"
    if isinstance(m, Complete):
        if game is not None:
            card = game.deck.installation(m.card)
            return f"completed installation #{m.card} '{card.name}' with w{m.room + 1} (+{card.points})"
        return f"completed installation #{m.card} with w{m.room + 1}"
    if isinstance(m, Abandon):
        return f"abandoned w{m.room + 1}"
    if isinstance(m, Release):
        return "sent the abandoned dice back to the supply"
    if isinstance(m, Switch):
        return f"switched the bonus die {m.die}"
    if isinstance(m, EndTurn):
        return "ended the turn" + (f" keeping {' and '.join(map(str, m.keep))} in storage" if m.keep else "")
    if isinstance(m, Undo):
        return "took back the last action"
    if isinstance(m, Skip):
        return "had the turn skipped"
    if isinstance(m, Remove):
        return f"removed p{m.seat + 1} from the game"
    return str(m)


def turn_summary(moves: list[str], game: Game | None = None) -> str:
    parts = [describe(t, game) for t in moves]
    return "; ".join(parts) if parts else "passed"


def scores_lines(game: Game, names: list[str]) -> list[str]:
    winners = set(game.winners()) if game.is_over else set()
    lines = []
    order = sorted(range(game.num_players), key=lambda i: (-game.score(i), -game.museum_dice(i), i))
    for i in order:
        p = game.state.players[i]
        flag = " 🏆" if i in winners else ""
        left = " (left the game)" if p.removed else ""
        lines.append(
            f"{MARKS[i]} **{names[i]}**: {game.score(i)} points — {len(p.completed)} installation(s), "
            f"{game.museum_dice(i)} museum dice{left}{flag}"
        )
    return lines


def tie_break_text(game: Game, names: list[str]) -> str:
    active = game.active_players()
    if not active:
        return ""
    top = max(game.score(i) for i in active)
    tied = [i for i in active if game.score(i) == top]
    if len(tied) == 1:
        return ""
    winners = game.winners()
    who = ", ".join(names[i] for i in tied)
    if len(winners) == 1:
        return f"{who} tied on {top} points; {names[winners[0]]} has the most museum dice and wins the tie."
    return f"{who} tied on {top} points and on museum dice: they share the victory."


RULES_TOPICS: dict[str, str] = {
    "turn": (
        "**A turn**: two dice from your supply are rolled into your storeroom (dice kept in storage join them). "
        "Place storeroom dice in your workrooms or on artist cards; use artists, complete or abandon installations "
        "and move dice from completed cards at any time. At the end, keep up to two storeroom dice in storage; "
        "the rest go back to your supply. Short of dice (fewer than 2 in supply)? First return dice "
        "(complete, abandon, use an artist), then roll."
    ),
    "placing": (
        "**Placing dice**: a die goes on an empty cell touching the structure edge to edge, or on top of a die of "
        "the same value. Side by side dice must differ by exactly 1 (a 3 or a 5 next to a 4). No diagonals, no "
        "floating dice. Cells are named a-f (columns) and 1-6 (rows), as on the pictures: `place 4 w1 c3`."
    ),
    "installations": (
        "**Installations**: when a whole workroom has exactly the footprint and heights of a face-up card "
        "(turned any way, not mirrored), `complete w1 #7`: the dice go back to your supply, you take the card and "
        "put its bonus dice on it. A 3/6 space can be switched later (`switch i1.1`). Abandon a workroom with "
        "`abandon w1`: all its dice go back or onto artist cards."
    ),
    "artists": (
        "**Artists**: put exactly the card's number of dice (2 or 3), all one value, on it (`artist 2 5 5`). "
        "You may bump another player's dice with equal or higher ones. From a later turn, `use 2` returns your "
        "dice and does the action: Malevich/Boccioni/Marc give a die, Popova ±1 and La Fresnaye ±2 change one, "
        "Gris removes and Pascin moves a workroom die, Rozanova takes an opponent's stored die. When all four "
        "cards hold dice after a placement, the whole row is cleared (an option, on by default)."
    ),
    "museum": (
        "**The museum**: only dice on your completed installation cards go there (`museum i1.1 d4`), following "
        "the placement rules, inside the plan and never above its heights. A die that would make the museum "
        "impossible to complete is refused. Each museum die is worth 2 points."
    ),
    "end": (
        "**The end**: after the turn in which someone has five installations or the museum is complete. "
        "Score = installation points + 2 per museum die. Ties: more museum dice wins; then the victory is shared."
    ),
    "notation": (
        "**Move texts**: `place 4 w1 c3`, `place i1.1 w2 b2`, `museum i1.2 d4`, `artist 3 5 5`, `use 2`, "
        "`use 2 5`, `use 2 w1 c3 w2 d4`, `use 2 p3 5`, `complete w1 #7`, `abandon w2`, `release`, "
        "`switch i2.1`, `end 6 2`, `undo`. Autocomplete lists only legal moves."
    ),
}
