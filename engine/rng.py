"""The game's own random generator: SplitMix64, a single 64-bit integer of state.

The whole state fits in the saved JSON, so a game is reproducible from its seed and
its move list, and a reloaded game rolls exactly the dice it would have rolled.
"""

from __future__ import annotations

from typing import Any

MASK = (1 << 64) - 1


def next_state(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) (rejection sampling keeps it exactly uniform)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, z = next_state(state)
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list[Any]) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """Mix a user seed of any size into a 64-bit starting state."""
    state, _ = next_state(seed & MASK)
    return state ^ ((seed >> 64) & MASK)
