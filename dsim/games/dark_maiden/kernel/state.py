"""The state of one Dark Maiden game, by entity (named columns in :mod:`.layout`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.jit import allocating
from dsim.games.dark_maiden.policy import public_views


class State(NamedTuple):
    """Heroes, enemies in play, the shared table, the deck and piles, dice and trace. ``table``, ``heroes``,
    ``foes`` and ``opts`` are views into ``public``, the one buffer a policy gets."""

    table: np.ndarray     # int32[T_FIELDS]
    heroes: np.ndarray    # int32[MAX_HEROES, H_FIELDS]
    foes: np.ndarray      # int32[MAX_FOES, F_FIELDS]: rows 0 .. T_FOES-1 in play, in order of entry
    opts: np.ndarray      # int32[MAX_OPTS, OPT_FIELDS]: the rows offered to a policy
    public: np.ndarray    # int32[PUBLIC_ROWS, PUBLIC_WIDTH]
    deck: np.ndarray      # int32[cards]: card ids, the top at T_DECK-1 (DM-2.5)
    discard: np.ndarray   # int32[cards]: the discard pile
    drawn: np.ndarray     # int32[cards]: precipices, goblins and mounts drawn this turn, in draw order (DM-5.1)
    middle: np.ndarray    # int32[MAX_MIDDLE, M_FIELDS]: free mounts (DM-5.4.2)
    hits: np.ndarray      # int32[MAX_FOES]: points of the current grab taken by each foe (DM-7.7)
    variants: np.ndarray  # int32[variants]
    rng: np.ndarray       # uint64[2]: the game's dice and shuffles (battle_key)
    prng: np.ndarray      # uint64[2]: the policies' own random numbers (T_NONCE)
    forced: np.ndarray    # int32[k]: die faces used before random ones (tests)
    trace: np.ndarray     # int32[events, EV_FIELDS]; 0 rows in batch play
    search: np.ndarray    # int64[SR_CHOICES + decisions]: a search's log (layout.SR_*); empty in batch play


@allocating
def new_state(n_cards: int, variants: np.ndarray, forced: np.ndarray, trace_events: int, search_log: int) -> State:
    """Zeroed arrays for one game (reused game after game within a block); ``search_log`` entries of search log
    (0 but in a search's replays)."""
    public = np.zeros((L.PUBLIC_ROWS, L.PUBLIC_WIDTH), np.int32)
    table, heroes, foes, opts = public_views(public)
    return State(table, heroes, foes, opts, public, np.zeros(n_cards, np.int32), np.zeros(n_cards, np.int32),
                 np.zeros(n_cards, np.int32), np.zeros((L.MAX_MIDDLE, L.M_FIELDS), np.int32),
                 np.zeros(L.MAX_FOES, np.int32), variants.copy(), np.zeros(2, np.uint64), np.zeros(2, np.uint64),
                 forced.copy(), np.zeros((trace_events, L.EV_FIELDS), np.int32), np.zeros(search_log, np.int64))
