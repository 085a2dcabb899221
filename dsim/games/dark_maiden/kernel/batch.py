"""The batch entry (parallel over games, one stream per game) and the entries of one game: replay and steps."""

from __future__ import annotations

import numpy as np
from numba import prange

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel import rules as R
from dsim.games.dark_maiden.kernel.state import new_state
from dsim.rng import battle_key

BLOCK = 256
"""Games per parallel block; each block reuses one state."""

STEP_TURN, STEP_ATTACK, STEP_PRECIPICE, STEP_GOBLIN, STEP_BONUS, STEP_DRAW, STEP_FIGHT, STEP_CHECK_SITE = range(8)
"""What :func:`step_impl` plays on a hand-set state (``arg``: the hero or the goblin)."""


def play_batch_impl(t, pol, params, variants, party, lives, items, seed, stream, start, out):
    """Games ``start .. start+len(out)-1``: game ``i`` draws only from ``battle_key(seed, stream, i)``."""
    count = out.shape[0]
    blocks = (count + BLOCK - 1) // BLOCK
    empty = np.zeros(0, np.int32)
    for b in prange(blocks):
        s = new_state(t.cards.shape[0], variants, empty, 0)
        lo = b * BLOCK
        hi = min(count, lo + BLOCK)
        for i in range(lo, hi):
            R.play_game(s, t, pol, params, party, lives, items, battle_key(seed, stream, start + i), out[i])


def play_one_impl(t, s, pol, params, party, lives, items, seed, stream, index, out):
    """One game on a prepared state (trace rows, forced faces): ``dsim explain`` and the tests."""
    R.play_game(s, t, pol, params, party, lives, items, battle_key(seed, stream, index), out)


def setup_impl(t, s, party, lives, items, seed, stream, index):
    """DM-2 only: the set-up table of game ``index`` on a prepared state (a test places cards on it next)."""
    R.setup(s, t, party, lives, items, battle_key(seed, stream, index))


def step_impl(t, s, pol, params, which, arg, out):
    """One step (``STEP_*``) on a hand-set state; at the game's end, the outcome row."""
    if which == STEP_TURN:
        R.play_turn(s, t, pol, params)
    elif which == STEP_ATTACK:
        R.hero_attack(s, t, pol, params, arg)
    elif which == STEP_PRECIPICE:
        R.precipice(s, t, pol, params)
    elif which == STEP_GOBLIN:
        R.goblin(s, t, pol, params, arg)
    elif which == STEP_BONUS:
        R.bonus_phase(s, t, pol, params)
    elif which == STEP_DRAW:
        R.draw(s, t, arg)
    elif which == STEP_FIGHT:
        R.fight(s, t, pol, params)
    else:
        R.check_site(s, t, pol, params)
    if s.table[L.T_OVER] != L.OVER_RUNNING:
        R.finish(s, out)
