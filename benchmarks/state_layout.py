"""Kernel state layout: one flat int32 vector (DS:TBG's ``st[base + h*F + f]``) against per-entity
2-D arrays in a named tuple (``s.hunters[h, F_HEALTH]``), on the same toy round loop.

Run: ``python benchmarks/state_layout.py`` (prints ns per entity update for each layout, best of 5,
with one Numba thread). The result is recorded in ``dsim/games/README.md``.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit

HUNTERS, FIELDS, HEALTH, ECHOES = 5, 8, 0, 1
BASE = 3  # the flat vector holds a few game-wide fields first, as DS:TBG's does


class State(NamedTuple):
    game: np.ndarray  # (3,) int32
    hunters: np.ndarray  # (HUNTERS, FIELDS) int32


@njit(cache=True)
def rounds_flat(st: np.ndarray, rounds: int) -> int:
    """Each round every hunter loses 1 health (healed to 8 at 0) and gains echoes; sum at the end."""
    for r in range(rounds):
        for h in range(HUNTERS):
            i = BASE + h * FIELDS
            st[i + HEALTH] -= 1
            if st[i + HEALTH] <= 0:
                st[i + HEALTH] = 8
            st[i + ECHOES] += (r + h) & 3
    return int(st[BASE:].sum())


@njit(cache=True)
def rounds_entity(s: State, rounds: int) -> int:
    """The same loop over per-entity rows of a named tuple of arrays."""
    hunters = s.hunters
    for r in range(rounds):
        for h in range(HUNTERS):
            hunters[h, HEALTH] -= 1
            if hunters[h, HEALTH] <= 0:
                hunters[h, HEALTH] = 8
            hunters[h, ECHOES] += (r + h) & 3
    return int(hunters.sum())


def best_ns(fn, state, rounds: int) -> float:
    """Best of five timings, in ns per hunter update."""
    fn(state, 10)  # compile or load
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        fn(state, rounds)
        times.append(time.perf_counter() - t0)
    return min(times) / (rounds * HUNTERS) * 1e9


if __name__ == "__main__":
    n = 2_000_000
    flat = np.zeros(BASE + HUNTERS * FIELDS, np.int32)
    entity = State(np.zeros(BASE, np.int32), np.zeros((HUNTERS, FIELDS), np.int32))
    a, b = best_ns(rounds_flat, flat, n), best_ns(rounds_entity, entity, n)
    assert rounds_flat(np.zeros_like(flat), 1000) == rounds_entity(
        State(np.zeros(BASE, np.int32), np.zeros((HUNTERS, FIELDS), np.int32)), 1000)
    print(f"flat vector: {a:.2f} ns per update; per-entity named tuple: {b:.2f} ns per update; ratio {b / a:.2f}")
