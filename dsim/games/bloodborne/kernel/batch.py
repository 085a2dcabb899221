"""The batch entry (games one after another, one stream per game; the engine shares a batch out among threads,
:mod:`dsim.pieces`) and the one-game replay entry."""

from __future__ import annotations

import numpy as np

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.kernel.rules import finish, play_game, play_round, setup
from dsim.games.bloodborne.kernel.state import new_state
from dsim.rng import battle_key

def play_batch_impl(t, pols, params, variants, hunters, seatings, seed, stream, start, out):
    """Games ``start .. start+len(out)-1`` on one state: game ``i`` draws only from ``battle_key(seed, stream, i)``
    and seats the listed policies as ``seatings[i % len(seatings)]`` (seat → listed position), so results do not
    depend on threads or pieces."""
    s = new_state(t.cards.shape[0], t.bonus.shape[0], t.upgrades.shape[0],
                  max(t.sizes[L.Z_MONSTERS], t.sizes[L.Z_BOSSES]), variants, np.zeros(0, np.int32), 0)
    for i in range(out.shape[0]):
        seating = seatings[(start + i) % seatings.shape[0]]
        play_game(s, t, pols, params, hunters, seating, battle_key(seed, stream, start + i), out[i])


def play_one_impl(t, s, pols, params, hunters, seatings, seed, stream, index, out):
    """One game on a prepared state (trace rows, forced faces) — ``dsim explain`` and the tests."""
    seating = seatings[index % seatings.shape[0]]
    play_game(s, t, pols, params, hunters, seating, battle_key(seed, stream, index), out)



def setup_impl(t, s, pols, params, hunters, seating, seed, stream, index):
    """BB-2 only: the set-up table of game ``index`` on a prepared state (a test places cards on it next)."""
    setup(s, t, pols, params, hunters, seating, battle_key(seed, stream, index))


def round_impl(t, s, pols, params, out):
    """One round (BB-4.1) on a hand-set state; at the game's end, the outcome row (BB-13)."""
    play_round(s, t, pols, params)
    if s.table[L.T_OVER] != L.OVER_RUNNING:
        finish(s, t, out)
