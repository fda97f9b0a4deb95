"""The balance report: does the bundled deck play like a real game?

``python -m engine balance --players 2,3,4 --games N --seats strong [--equal-turns]``

Plays seat-rotated self-play games through ``play_table`` (the one game loop of the
tournaments) and reports, with game counts and 95% intervals: turns per player, how games
end (five installations / museum / both), win share by turn position, by seat and by level,
each card's use (artist) or completion (installation, museum) per game in which it was face
up, points from installations and from the museum, ties and how they were broken, bonus
dice left on the cards, and the storage hoarding of each level.

Seats: ``--seats strong`` puts a strong player in every seat; ``strong,greedy`` gives the
first seat to strong and the others to greedy (the last level listed fills the rest).  Game
``i`` is dealt from seed ``seed + i // players`` with the levels rotated by ``i % players``,
so every deal is played once with each level in each seat (with one level everywhere, every
game has a deal of its own).
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import default_deck
from .game import Game
from .moves import CARD, POOL, STOREROOM, Abandon, Complete, EndTurn, Move, Place, ToArtist, ToMuseum, UseArtist
from .players import evaluate as ev
from .players.factory import Player, make_player
from .players.strong import StrongPlayer
from .players.tournament import parallel_map, play_table, wilson
from .rules import museum as museum_rules
from .state import Completed, GameOptions
from .step import Termination

FIVE, MUSEUM, BOTH, STALLED, LAST = "five installations", "museum", "both", "stalled", "last player"
_ENDINGS = {
    Termination.INSTALLATIONS: FIVE,
    Termination.MUSEUM: MUSEUM,
    Termination.BOTH: BOTH,
    Termination.LAST_PLAYER: LAST,
}
HOARD_TURNS = 8  # a player hoards who keeps the same two dice in storage 8+ turns in a row
# Dead stretches: rounds in a row in which nobody's score changed.
STILL_ROUNDS = 6  # a stretch this long counts as dead (goal: in at most 2% of the games)
STILL_MAX = 10  # no game may have a stretch this long
STILL_SHARE = 0.02
BIG_THROW = 3  # an abandon that sends this many dice or more back to the supply
# The strong player on a small search budget: the same evaluation at a fraction of the time,
# for the test that keeps the deck inside its bands (the report itself uses real players).
FAST_STRONG = "strong-fast"


def _player(level: str, seed: int) -> Player:
    if level == FAST_STRONG:
        return StrongPlayer(seed, budget=120, turn_budget=160)
    return make_player(level, seed)


@dataclass
class GameStats:
    """What one game tells about the deck (plain data: it crosses process boundaries)."""

    seed: int
    levels: list[str]  # per seat
    first: int
    turns: list[int]  # turns taken per seat
    ended_by: str
    scores: list[int]
    installation_points: list[int]
    museum_points: list[int]
    winners: list[int]
    top_tie: bool  # two or more players had the top score
    tie_broken: bool  # ... and museum dice decided it
    museum_card: int
    artists_seen: list[int]
    artist_uses: list[tuple[int, int]]  # (card, seat) per use
    installations_seen: list[int]
    completions: list[tuple[int, int]]  # (card, seat)
    museum_moves: list[int]  # per seat
    card_dice_to_artists: list[int]  # per seat: placements using dice from completed cards
    unused_bonus: list[int]  # per seat: dice still on completed cards at the end
    unused_placeable: list[int]  # ... of which the museum could still have taken (legal cell)
    longest_hoard: list[int]  # per seat: most turns in a row ending with the same two stored dice
    # Turns in a row (any seat) after which no score had changed; rounds = this / players.
    longest_still: int = 0
    longest_still_end: int = 0  # the turn (0-based, of the game) at which it ended
    bare_ends: list[int] = field(default_factory=list)  # per seat: turns whose only action was "end"
    # ... of which something else was possible (a placement, an artist card, a completion or
    # a museum die) and the game went on (not the table's last round under equal_turns)
    bare_chosen: list[int] = field(default_factory=list)
    # ... of which a storeroom die had a legal place in a workroom (dice left to place)
    bare_placeable: list[int] = field(default_factory=list)
    # per seat: workrooms holding dice at the end of a turn, and those fitting no face-up card
    rooms_at_end: list[int] = field(default_factory=list)
    rooms_unfit: list[int] = field(default_factory=list)
    # Per abandon: (seat, dice in the workroom, dice sent back to the supply (not onto artists),
    # whether the workroom could still have become a face-up installation card).
    abandons: list[tuple[int, int, int, bool]] = field(default_factory=list)
    turn_seconds: list[float] = field(default_factory=list)  # every whole turn of every seat
    # per seat: CPU seconds of the process per whole turn (what one core spends on the choice)
    turn_cpu_seconds: list[list[float]] = field(default_factory=list)


_DOING = (Place, ToArtist, UseArtist, Complete, ToMuseum)


def _seat_levels(seats: list[str], players: int, rotation: int) -> list[str]:
    base = [seats[min(i, len(seats) - 1)] for i in range(players)]
    return [base[(i - rotation) % players] for i in range(players)]


def play_balance_game(players: int, seed: int, rotation: int, seats: list[str], options: GameOptions) -> GameStats:
    game = Game.new(players, seed, options)
    levels = _seat_levels(seats, players, rotation)
    bots = [_player(level, seed * 10 + i) for i, level in enumerate(levels)]
    artists_seen: set[int] = set()
    installations_seen: set[int] = set()
    uses: list[tuple[int, int]] = []
    completions: list[tuple[int, int]] = []
    museum = [0] * players
    card_to_artist = [0] * players
    turns = [0] * players
    last_keep: list[tuple[int, ...]] = [()] * players
    hoard = [0] * players
    longest = [0] * players
    bare = [0] * players
    chosen = [0] * players
    placeable = [0] * players
    rooms_at_end = [0] * players
    rooms_unfit = [0] * players
    actions = [0]  # actions of the turn under way, before its end
    abandons: list[tuple[int, int, int, bool]] = []
    pending: list[int] = []  # the abandon under way: [seat, dice, dice onto artists, live]
    still = [0, 0, 0]  # turns without a score change: current run, longest, where it ended
    last_scores = [game.scores()]

    def observe(g: Game, m: Move) -> None:
        s = g.state
        seat = s.current
        artists_seen.update(a.card for a in s.artists if a.card is not None)
        installations_seen.update(c for c in s.offer if c is not None)
        if isinstance(m, UseArtist):
            card = s.artists[m.slot].card
            assert card is not None
            uses.append((card, seat))
        elif isinstance(m, Complete):
            completions.append((m.card, seat))
        elif isinstance(m, ToMuseum):
            museum[seat] += 1
        elif isinstance(m, Abandon):
            room = s.players[seat].workrooms[m.room]
            key = ev.room_key(room)
            live = any(ev.fit(key, c, g.deck) is not None for c in s.offer if c is not None)
            pending[:] = [seat, sum(h for _v, h in room.values()), 0, live]
        elif isinstance(m, ToArtist):
            if any(d.kind == CARD for d in m.dice):
                card_to_artist[seat] += 1
            if pending:
                pending[2] += sum(d.kind == POOL for d in m.dice)
        if isinstance(m, EndTurn):
            if actions[0] == 0:
                bare[seat] += 1
                legal = g.legal_moves()
                live = not s.final_round
                chosen[seat] += live and any(isinstance(x, _DOING) for x in legal)
                placeable[seat] += live and any(isinstance(x, Place) and x.die.kind == STOREROOM for x in legal)
            for room in s.players[seat].workrooms:
                if room:
                    rooms_at_end[seat] += 1
                    key = ev.room_key(room)
                    rooms_unfit[seat] += all(ev.fit(key, c, g.deck) is None for c in s.offer if c is not None)
            actions[0] = 0
            turns[seat] += 1
            keep = tuple(sorted(m.keep))
            hoard[seat] = hoard[seat] + 1 if len(keep) == 2 and keep == last_keep[seat] else 1
            last_keep[seat] = keep
            longest[seat] = max(longest[seat], hoard[seat])
        else:
            actions[0] += 1

    def after(g: Game, m: Move) -> None:
        if pending and not g.is_abandoning():  # the abandon's last die is placed or released
            abandons.append((pending[0], pending[1], pending[1] - pending[2], bool(pending[3])))
            pending.clear()
        if isinstance(m, EndTurn):
            scores = g.scores()
            still[0] = still[0] + 1 if scores == last_scores[0] else 0
            if still[0] > still[1]:
                still[1], still[2] = still[0], g.state.turn
            last_scores[0] = scores

    played = play_table(game, bots, observe=observe, after=after)
    g = played.game
    s = g.state
    outcome = g.outcome()
    ended = STALLED if played.stalled or outcome is None else _ENDINGS[outcome.termination]
    scores = g.scores()
    museum_points = [2 * g.museum_dice(i) for i in range(players)]
    top = max(scores)
    top_tie = scores.count(top) > 1
    return GameStats(
        seed=seed,
        levels=levels,
        first=s.first,
        turns=turns,
        ended_by=ended,
        scores=scores,
        installation_points=[sc - mp for sc, mp in zip(scores, museum_points, strict=True)],
        museum_points=museum_points,
        winners=g.winners(),
        top_tie=top_tie,
        tie_broken=top_tie and len(g.winners()) == 1,
        museum_card=s.museum_card,
        artists_seen=sorted(artists_seen),
        artist_uses=uses,
        installations_seen=sorted(installations_seen),
        completions=completions,
        museum_moves=museum,
        card_dice_to_artists=card_to_artist,
        unused_bonus=[p.card_dice() for p in s.players],
        unused_placeable=[_museum_could_take(g, p.completed) for p in s.players],
        longest_hoard=longest,
        longest_still=still[1],
        longest_still_end=still[2],
        bare_ends=bare,
        bare_chosen=chosen,
        bare_placeable=placeable,
        rooms_at_end=rooms_at_end,
        rooms_unfit=rooms_unfit,
        abandons=abandons,
        turn_seconds=[t for seat in played.turn_seconds for t in seat],
        turn_cpu_seconds=played.turn_cpu_seconds,
    )


def _museum_could_take(game: Game, completed: list[Completed]) -> int:
    """Dice on these cards that have a legal museum cell in the final position (a player who
    left them there could have scored 2 points each)."""
    cols = museum_rules.columns(game)
    return sum(1 for c in completed for v in c.dice if v is not None and museum_rules.cells_for(game, v, cols))


def _job(args: tuple[int, int, int, list[str], GameOptions]) -> GameStats:
    return play_balance_game(*args)


def run_balance(
    players: int,
    games: int,
    seats: list[str],
    *,
    seed: int = 1,
    options: GameOptions | None = None,
    workers: int | None = None,
) -> BalanceReport:
    options = options or GameOptions()
    default_deck()  # read once here: worker processes share it (and a run is one deck)
    if len(set(seats)) == 1:  # the same level everywhere: rotating would replay each deal
        jobs = [(players, seed + i, 0, seats, options) for i in range(games)]
    else:
        jobs = [(players, seed + i // players, i % players, seats, options) for i in range(games)]
    start = time.perf_counter()
    stats = parallel_map(_job, jobs, workers)
    return BalanceReport(players, seats, options, stats, time.perf_counter() - start)


# --- figures ------------------------------------------------------------------------------


def _pct(k: float, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{(k / n if n else 0):.1%} [{lo:.1%}-{hi:.1%}] ({k:g}/{n})"


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation; fine for the counts reported)."""
    if not values:
        return 0.0, 0.0, 0.0
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, max(0.0, m - half), m + half


def _mean(values: Sequence[float]) -> str:
    m, lo, hi = mean_interval(values)
    return f"{m:.2f} [{lo:.2f}-{hi:.2f}] (n={len(values)})"


def quantile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@dataclass
class CardRate:
    card: int
    games: int  # games in which it was face up
    count: int  # uses / completions in those games
    games_with: int  # games in which it was used / completed at least once

    @property
    def rate(self) -> float:
        return self.count / self.games if self.games else 0.0


@dataclass
class BalanceReport:
    players: int
    seats: list[str]
    options: GameOptions
    stats: list[GameStats]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.stats)

    def finished(self) -> list[GameStats]:
        return [g for g in self.stats if g.ended_by != STALLED]

    def turns_per_player(self) -> list[float]:
        return sorted(sum(g.turns) / self.players for g in self.finished())

    def still_rounds(self) -> list[float]:
        """Per game: the longest stretch without a score change, in rounds."""
        return [g.longest_still / self.players for g in self.stats]

    def dead_games(self, rounds: int = STILL_ROUNDS) -> int:
        return sum(r >= rounds for r in self.still_rounds())

    def abandon_figures(self, level: str) -> tuple[int, int, list[tuple[int, int, bool]], int, int]:
        """For the seats of ``level``: (turns, bare ends, (dice, thrown away, still fitting a
        face-up card) per abandon, abandons, bare ends with something else possible)."""
        turns = bare = chosen = 0
        ab: list[tuple[int, int, bool]] = []
        for g in self.stats:
            for seat, lv in enumerate(g.levels):
                if lv != level:
                    continue
                turns += g.turns[seat]
                bare += g.bare_ends[seat] if g.bare_ends else 0
                chosen += g.bare_chosen[seat] if g.bare_chosen else 0
                ab += [(d, t, live) for s, d, t, live in g.abandons if s == seat]
        return turns, bare, ab, len(ab), chosen

    def idle_figures(self, level: str) -> tuple[int, int, int]:
        """For the seats of ``level``: (bare ends with a storeroom die that had a legal place
        in a workroom, not the last round; workrooms holding dice at a turn's end; of those,
        the ones that fit no face-up installation card)."""
        placeable = rooms = unfit = 0
        for g in self.stats:
            for seat, lv in enumerate(g.levels):
                if lv == level and g.rooms_at_end:
                    placeable += g.bare_placeable[seat]
                    rooms += g.rooms_at_end[seat]
                    unfit += g.rooms_unfit[seat]
        return placeable, rooms, unfit

    def cpu_times(self, level: str) -> list[float]:
        """CPU seconds per whole turn of the seats of ``level``, sorted."""
        return sorted(
            t for g in self.stats for seat, lv in enumerate(g.levels) if lv == level for t in g.turn_cpu_seconds[seat]
        )

    def ended(self, how: str) -> int:
        return sum(g.ended_by == how for g in self.stats)

    def museum_end_share(self) -> float:
        """Games the museum ended (alone or with a fifth installation)."""
        return (self.ended(MUSEUM) + self.ended(BOTH)) / self.games if self.games else 0.0

    def position_wins(self) -> list[float]:
        """Win share per turn position (0 = first to play); a shared win counts 1/k."""
        wins = [0.0] * self.players
        for g in self.finished():
            for w in g.winners:
                wins[(w - g.first) % self.players] += 1 / len(g.winners)
        return wins

    def seat_wins(self) -> list[float]:
        wins = [0.0] * self.players
        for g in self.finished():
            for w in g.winners:
                wins[w] += 1 / len(g.winners)
        return wins

    def level_wins(self) -> dict[str, tuple[float, int]]:
        """Per level: (win share summed over its seats, seats it held)."""
        out: dict[str, list[float]] = {}
        for g in self.finished():
            for seat, level in enumerate(g.levels):
                row = out.setdefault(level, [0.0, 0])
                row[1] += 1
                if seat in g.winners:
                    row[0] += 1 / len(g.winners)
        return {k: (v[0], int(v[1])) for k, v in out.items()}

    def artist_rates(self, level: str | None = None) -> list[CardRate]:
        """Uses per game in which the card was face up (by players of ``level``, or anyone)."""
        return self._rates(
            lambda g: g.artists_seen,
            lambda g: [c for c, seat in g.artist_uses if level is None or g.levels[seat] == level],
        )

    def artist_kind_uses(self, level: str | None = None) -> dict[str, tuple[int, int]]:
        """(uses, face-up games) summed over the cards of one kind and dice count (``marc 3``,
        ``la_fresnaye 2``...): samples too small to judge each card still show a kind
        nobody uses."""
        deck = default_deck()
        out: dict[str, tuple[int, int]] = {}
        for r in self.artist_rates(level):
            card = deck.artist(r.card)
            key = f"{card.artist.value} {card.dice}"
            uses, games = out.get(key, (0, 0))
            out[key] = (uses + r.count, games + r.games)
        return out

    def installation_rates(self) -> list[CardRate]:
        return self._rates(lambda g: g.installations_seen, lambda g: [c for c, _seat in g.completions])

    def museum_rates(self) -> list[CardRate]:
        return self._rates(lambda g: [g.museum_card], lambda g: [g.museum_card] if g.ended_by in (MUSEUM, BOTH) else [])

    def _rates(self, seen, counted) -> list[CardRate]:  # type: ignore[no-untyped-def]
        games: Counter[int] = Counter()
        count: Counter[int] = Counter()
        with_: Counter[int] = Counter()
        for g in self.finished():
            shown = set(seen(g))
            games.update(shown)
            got = Counter(c for c in counted(g) if c in shown)
            count.update(got)
            with_.update(got.keys())
        return [CardRate(c, games[c], count[c], with_[c]) for c in sorted(games)]

    def rows(self) -> list[tuple[str, str]]:
        n = self.games
        fin = self.finished()
        label = f"{self.players}p {','.join(self.seats)}{' equal_turns' if self.options.equal_turns else ''}"
        rows: list[tuple[str, str]] = [(f"{label}: games", f"{n} ({n - len(fin)} stalled), {self.seconds:.0f} s")]
        tpp = self.turns_per_player()
        if tpp:
            rows.append(
                (
                    f"{label}: turns per player median / p10 / p90",
                    f"{statistics.median(tpp):.1f} / {quantile(tpp, 0.1):.1f} / {quantile(tpp, 0.9):.1f}",
                )
            )
        for how in (FIVE, MUSEUM, BOTH):
            rows.append((f"{label}: ended by {how}", _pct(self.ended(how), n)))
        k = len(fin)
        for pos, w in enumerate(self.position_wins()):
            rows.append((f"{label}: win share, turn position {pos + 1} (fair {1 / self.players:.1%})", _pct(w, k)))
        for seat, w in enumerate(self.seat_wins()):
            rows.append((f"{label}: win share, seat p{seat + 1}", _pct(w, k)))
        levels = self.level_wins()
        if len(levels) > 1:
            for level, (w, held) in sorted(levels.items()):
                rows.append((f"{label}: win share per {level} seat", _pct(w, held)))
        inst = [p for g in fin for p in g.installation_points]
        mus = [p for g in fin for p in g.museum_points]
        rows.append((f"{label}: points per player from installations", _mean(inst)))
        rows.append((f"{label}: points per player from the museum", _mean(mus)))
        still = sorted(self.still_rounds())
        if still:
            rows.append(
                (
                    f"{label}: longest stretch without a score change, rounds, median / p90 / max",
                    f"{statistics.median(still):.1f} / {quantile(still, 0.9):.1f} / {still[-1]:.1f}",
                )
            )
            rows.append((f"{label}: games with a stretch of {STILL_ROUNDS}+ rounds", _pct(self.dead_games(), n)))
            rows.append((f"{label}: games with a stretch of {STILL_MAX}+ rounds", _pct(self.dead_games(STILL_MAX), n)))
        ties = sum(g.top_tie for g in fin)
        broken = sum(g.tie_broken for g in fin)
        rows.append(
            (
                f"{label}: ties for the top",
                f"{_pct(ties, k)}; broken by museum dice {broken}, shared {ties - broken}",
            )
        )
        for level in sorted(levels):
            seats = [(g, s) for g in fin for s, lv in enumerate(g.levels) if lv == level]
            rows.append(
                (
                    f"{label}: {level}: bonus dice left on cards at the end, per player",
                    _mean([g.unused_bonus[s] for g, s in seats]),
                )
            )
            rows.append(
                (
                    f"{label}: {level}: ... of which the museum could still take, per player",
                    _mean([g.unused_placeable[s] for g, s in seats]),
                )
            )
            rows.append((f"{label}: {level}: museum dice per player", _mean([g.museum_moves[s] for g, s in seats])))
            rows.append(
                (
                    f"{label}: {level}: card dice moved to artists, per player",
                    _mean([g.card_dice_to_artists[s] for g, s in seats]),
                )
            )
            rows.append(
                (
                    f"{label}: {level}: players who kept the same two dice {HOARD_TURNS}+ turns",
                    _pct(sum(g.longest_hoard[s] >= HOARD_TURNS for g, s in seats), len(seats)),
                )
            )
            turns, bare, ab, k_ab, chosen = self.abandon_figures(level)
            if turns:
                rows.append((f"{label}: {level}: turns whose only action is end", _pct(bare, turns)))
                rows.append(
                    (
                        f"{label}: {level}: ... with a placement, artist or completion possible, not the last round",
                        _pct(chosen, turns),
                    )
                )
                placeable, rooms, unfit = self.idle_figures(level)
                rows.append(
                    (
                        f"{label}: {level}: ... with a storeroom die that had a place in a workroom",
                        _pct(placeable, turns),
                    )
                )
                rows.append(
                    (f"{label}: {level}: workrooms at a turn's end that fit no face-up card", _pct(unfit, rooms))
                )
                rows.append((f"{label}: {level}: abandons per 100 turns", f"{100 * k_ab / turns:.1f} ({k_ab})"))
            if ab:
                rows.append(
                    (
                        f"{label}: {level}: dice per abandon / thrown away (to the supply) per abandon",
                        f"{statistics.fmean(a[0] for a in ab):.2f} / {statistics.fmean(a[1] for a in ab):.2f}",
                    )
                )
                rows.append(
                    (
                        f"{label}: {level}: abandons of {BIG_THROW}+ dice / throwing away {BIG_THROW}+",
                        f"{_pct(sum(d >= BIG_THROW for d, _t, _l in ab), len(ab))}"
                        f" / {_pct(sum(t >= BIG_THROW for _d, t, _l in ab), len(ab))}",
                    )
                )
                rows.append(
                    (
                        f"{label}: {level}: abandons of a workroom that still fit a face-up card",
                        _pct(sum(live for _d, _t, live in ab), len(ab)),
                    )
                )
            lowest = min(self.artist_rates(level), key=lambda r: r.rate, default=None)
            if lowest is not None:
                rows.append(
                    (
                        f"{label}: {level}: least used artist card",
                        f"#{lowest.card} {lowest.rate:.2f} uses per face-up game ({lowest.games} games)",
                    )
                )
        for r in self.artist_rates():
            rows.append(
                (
                    f"{label}: artist #{r.card} uses per face-up game",
                    f"{r.rate:.2f} (used in {_pct(r.games_with, r.games)})",
                )
            )
        for r in self.installation_rates():
            rows.append((f"{label}: installation #{r.card} completed when face up", _pct(r.games_with, r.games)))
        for r in self.museum_rates():
            rows.append((f"{label}: museum #{r.card} completed", _pct(r.count, r.games)))
        times = sorted(t for g in fin for t in g.turn_seconds)
        if times:
            rows.append(
                (
                    f"{label}: time per whole turn median / p95 (busy machine)",
                    f"{statistics.median(times) * 1e3:.0f} / {quantile(times, 0.95) * 1e3:.0f} ms",
                )
            )
        return rows


def print_rows(rows: list[tuple[str, str]], *, flush: bool = False) -> None:
    width = max(len(f) for f, _v in rows)
    for figure, value in rows:
        print(f"{figure.ljust(width)}  {value}", flush=flush)


# --- the goals a balanced deck meets ---------------------------------------------------------

MUSEUM_BANDS = {2: (0.10, 1.0), 3: (0.25, 0.50), 4: (0.25, 0.50)}
TURNS_BAND = (10.0, 18.0)
POSITION_SLACK = 0.05  # equal_turns: every turn position within fair share +- 5 points
MIN_ARTIST_USE = 0.15  # uses per game in which the card was face up (strong)
STRONG_VS_GREEDY_2P = 0.70


@dataclass
class Goal:
    name: str
    met: bool  # judged on the point estimates
    plausible: bool  # the 95% interval reaches the band (what a small-sample test checks)
    detail: str


def _band_goal(name: str, k: float, n: int, lo: float, hi: float) -> Goal:
    p = k / n if n else 0.0
    ilo, ihi = wilson(k, n)
    return Goal(name, lo <= p <= hi, ihi >= lo and ilo <= hi, _pct(k, n))


def deck_goals(report: BalanceReport) -> list[Goal]:
    """The goals one all-strong report can judge (endings, length, cards; positions when
    it was played with equal_turns).  The card goal reads the first level's uses."""
    p = report.players
    n = report.games
    goals: list[Goal] = []
    lo, hi = MUSEUM_BANDS[p]
    goals.append(
        _band_goal(
            f"{p}p: museum ends {lo:.0%}-{hi:.0%} of games",
            report.ended(MUSEUM) + report.ended(BOTH),
            n,
            lo,
            hi,
        )
    )
    tpp = report.turns_per_player()
    med = statistics.median(tpp) if tpp else 0.0
    # The median's interval: order statistics around n/2 (distribution-free).
    half = 1.96 * math.sqrt(len(tpp)) / 2
    mlo = tpp[max(0, int(len(tpp) / 2 - half))] if tpp else 0.0
    mhi = tpp[min(len(tpp) - 1, int(len(tpp) / 2 + half))] if tpp else 0.0
    goals.append(
        Goal(
            f"{p}p: median turns per player {TURNS_BAND[0]:g}-{TURNS_BAND[1]:g}",
            TURNS_BAND[0] <= med <= TURNS_BAND[1],
            mhi >= TURNS_BAND[0] and mlo <= TURNS_BAND[1],
            f"{med:.1f} [{mlo:.1f}-{mhi:.1f}]",
        )
    )
    if report.options.equal_turns:
        fair = 1 / p
        k = len(report.finished())
        for pos, w in enumerate(report.position_wins()):
            goals.append(
                _band_goal(f"{p}p: turn position {pos + 1} wins {fair:.0%} +- 5", w, k, fair - 0.05, fair + 0.05)
            )
    dead = report.dead_games()
    longest = max(report.still_rounds(), default=0.0)
    lo_dead, _hi = wilson(dead, n)
    goals.append(
        Goal(
            f"{p}p: stretches of {STILL_ROUNDS}+ rounds without a score change <= {STILL_SHARE:.0%} of games,"
            f" none of {STILL_MAX}",
            dead / n <= STILL_SHARE and longest < STILL_MAX if n else True,
            lo_dead <= STILL_SHARE,
            f"{_pct(dead, n)}, longest {longest:.1f} rounds",
        )
    )
    rates = report.artist_rates(report.seats[0])
    low = [r for r in rates if r.rate < MIN_ARTIST_USE]
    goals.append(
        Goal(
            f"{p}p: every artist card used >= {MIN_ARTIST_USE} per face-up game",
            not low,
            all(mean_interval_count(r) >= MIN_ARTIST_USE for r in low),
            ", ".join(f"#{r.card} {r.rate:.2f} ({r.games})" for r in low) or "all",
        )
    )
    return goals


def mean_interval_count(r: CardRate) -> float:
    """Upper end of a 95% interval for a card's uses per face-up game (Poisson counts)."""
    return rate_upper(r.count, r.games)


def rate_upper(count: int, games: int) -> float:
    """Upper end of a 95% interval for ``count`` uses in ``games`` games (Poisson counts)."""
    return (count + 1.96 * math.sqrt(count + 1) + 1) / games if games else math.inf


def completion_goals(reports: list[BalanceReport], installation_ids: list[int], museum_ids: list[int]) -> list[Goal]:
    """Every installation and museum card completed in some game (over all reports)."""
    inst: Counter[int] = Counter()
    mus: Counter[int] = Counter()
    for rep in reports:
        for r in rep.installation_rates():
            inst[r.card] += r.games_with
        for r in rep.museum_rates():
            mus[r.card] += r.count
    never_inst = [c for c in installation_ids if not inst[c]]
    never_mus = [c for c in museum_ids if not mus[c]]
    return [
        Goal("every installation card completed in some game", not never_inst, not never_inst, _never(never_inst)),
        Goal("every museum card completed in some game", not never_mus, not never_mus, _never(never_mus)),
    ]


def _never(ids: list[int]) -> str:
    return "all" if not ids else "never: " + ", ".join(f"#{c}" for c in ids)


def strength_goals(two: BalanceReport | None, four: BalanceReport | None) -> list[Goal]:
    """Strong against greedy (tables of ``strong,greedy``)."""
    goals = []
    if two is not None:
        w, held = two.level_wins().get("strong", (0.0, 0))
        goals.append(_band_goal("2p: strong beats greedy >= 70%", w, held, STRONG_VS_GREEDY_2P, 1.0))
    if four is not None:
        levels = four.level_wins()
        sw, sn = levels.get("strong", (0.0, 0))
        gw, gn = levels.get("greedy", (0.0, 0))
        s, g = (sw / sn if sn else 0.0), (gw / gn if gn else 0.0)
        goals.append(Goal("4p: strong ahead of each greedy seat", s > g, s > g, f"{s:.1%} vs {g:.1%} ({sn} games)"))
    return goals


def goal_rows(goals: list[Goal]) -> list[tuple[str, str]]:
    return [(f"goal: {g.name}", f"{'met' if g.met else 'NOT met'}: {g.detail}") for g in goals]
