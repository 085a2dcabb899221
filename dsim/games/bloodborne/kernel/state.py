"""The state of one Bloodborne game, by entity (named columns in :mod:`.layout`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.kernel.jit import allocating
from dsim.games.bloodborne.policy import public_shape, public_views


class State(NamedTuple):
    """Hunters, their cards, the shared table, decks, display, scratch rows, dice and trace. ``table``,
    ``hunters``, ``hand``, ``used`` and ``opts`` are views into ``public``, the one buffer a policy gets."""

    hunters: np.ndarray   # int32[MAX_HUNTERS, H_FIELDS]
    hand: np.ndarray      # int32[MAX_HUNTERS, cards]: copies of each card kind in hand (BB-2.10)
    used: np.ndarray      # int32[MAX_HUNTERS, cards]: the face-up used pile
    trophies: np.ndarray  # int32[MAX_HUNTERS, tracks] (BB-2.4)
    table: np.ndarray     # int32[T_FIELDS]
    deck: np.ndarray      # int32[DECK_SIZE]: dungeon indices, top first (BB-2.2)
    updeck: np.ndarray    # int32[upgrade copies]: card kinds, top first (BB-2.3)
    display: np.ndarray   # int32[MAX_HUNTERS]: Available Upgrades (-1: empty slot)
    opts: np.ndarray      # int32[option rows, OPT_FIELDS]: the rows offered to a policy
    scratch: np.ndarray   # int32[pool]: shuffles and per-hunter counts
    variants: np.ndarray  # int32[variants]
    rng: np.ndarray       # uint64[2]: the game's dice and shuffles (battle_key)
    prng: np.ndarray      # uint64[2]: the policies' own random numbers (T_NONCE)
    forced: np.ndarray    # int32[k]: die faces used before random ones (tests)
    trace: np.ndarray     # int32[events, EV_FIELDS]; 0 rows in batch play
    public: np.ndarray    # int32[R_OPTS + rows, width]: header and table, hunters, hand, used, opts (layout.P_*, R_*)
    search: np.ndarray    # int64[SR_POOL + pool]: a searcher's hold on a replay (layout.SR_*), its forced answers and
                          # the redraw's pool; SEARCH_OFF in plain play


@allocating
def new_state(n_cards: int, n_tracks: int, n_upgrades: int, pool: int, variants: np.ndarray,
              forced: np.ndarray, trace_events: int) -> State:
    """Zeroed arrays for one game (reused game after game within a block)."""
    rows = max(n_cards, L.MAX_HUNTERS) + 1
    public = np.zeros(public_shape(n_cards, rows), np.int32)
    public[0, L.P_CARDS], public[0, L.P_ROWS] = n_cards, rows
    table, hunters, hand, used, opts = public_views(public)
    return State(
        hunters, hand, used, np.zeros((L.MAX_HUNTERS, n_tracks), np.int32), table, np.zeros(L.DECK_SIZE, np.int32),
        np.zeros(n_upgrades, np.int32), np.zeros(L.MAX_HUNTERS, np.int32), opts,
        np.zeros(max(pool, L.MAX_HUNTERS * 2), np.int32), variants.copy(), np.zeros(2, np.uint64),
        np.zeros(2, np.uint64), forced.copy(), np.zeros((trace_events, L.EV_FIELDS), np.int32), public,
        np.zeros(L.SR_POOL + pool, np.int64),
    )


@allocating
def new_row() -> np.ndarray:
    """One outcome row (``layout.OUT_*``): a call, so that Numba's parallel pass never hoists it out of a ``prange``
    block and shares it among threads, as it does a bare ``np.zeros``."""
    return np.zeros(L.N_OUT, np.int32)
