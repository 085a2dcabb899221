"""The batch entry (games one after another, one stream per game; the engine shares a batch out among threads,
:mod:`dsim.pieces`) and the one-game replay entry."""

from __future__ import annotations

import numpy as np
from numba import prange

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.kernel.jit import jit
from dsim.games.bloodborne.kernel.rules import finish, play_game, play_round, setup
from dsim.games.bloodborne.kernel.state import new_row, new_state
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


@jit
def search_value(s, row):
    """A game's value to the searcher (listed ``SR_LISTED``): 1 for a win, plus ``SEARCH_SHAPING`` times its score
    margin over the best other hunter (``SEARCH_MARGIN`` points, clipped)."""
    me = -1
    for h in range(s.table[L.T_HUNTERS]):
        if s.table[L.T_LISTED + h] == s.search[L.SR_LISTED]:
            me = h
    mine = row[L.OUT_SEAT + L.S_SCORE * L.MAX_HUNTERS + me]
    best = -(1 << 30)
    for h in range(s.table[L.T_HUNTERS]):
        if h != me:
            best = max(best, row[L.OUT_SEAT + L.S_SCORE * L.MAX_HUNTERS + h])
    margin = min(max((mine - best) / L.SEARCH_MARGIN, -1.0), 1.0)
    return row[L.OUT_SEAT + L.S_WIN * L.MAX_HUNTERS + me] + L.SEARCH_SHAPING * margin


@jit
def arm(s, mode, searcher, model, prefix, length, option, key, monsters, bosses, hidden):
    """Set the searcher's hold (``s.search``) for one replay. A call of its own: Numba's parallel pass
    hoists a loop-invariant slice assignment such as ``s.search[:SR_FIELDS] = 0`` out of the replay loop."""
    for f in range(L.SR_FIELDS):
        s.search[f] = 0
    s.search[L.SR_MODE], s.search[L.SR_LISTED], s.search[L.SR_LENGTH] = mode, searcher, length
    s.search[L.SR_MODEL] = model
    s.search[L.SR_OPTION], s.search[L.SR_KEY] = option, key
    s.search[L.SR_MONSTERS], s.search[L.SR_BOSSES] = monsters, bosses
    s.search[L.SR_HIDDEN_AT], s.search[L.SR_HIDDEN_KEY] = hidden[0], hidden[1]
    for i in range(length):
        s.search[L.SR_PREFIX + i] = prefix[i]


SEARCH_BLOCK = 32
"""Replays per parallel block of a search call (each block reuses one state)."""


def search_impl(t, pols, params, variants, hunters, seatings, seed, stream, mode, searcher, model, hidden, plays,
                prefixes, lengths, job_play, job_option, job_key, values, info, out):
    """Replays of a searcher's games (dsim.search): job ``j`` plays game ``plays[job_play[j]]`` on its true stream
    with the searcher's first ``lengths[...]`` decisions forced from ``prefixes``; an advance (``mode``
    SEARCH_ADVANCE) plays on under the base policy and writes the next decision to ``info[j]`` (options, hook,
    base answer); a rollout answers it with ``job_option[j]`` and plays on under the models, from the stream
    ``job_key[j]`` with the unseen redrawn (SEARCH_FAIR) or as it truly lies (SEARCH_SEEING). ``values[j]`` is
    :func:`search_value`; ``out`` (one row per job, or none) the outcome rows. ``model``: 1 when the others play
    the policy in ``MODEL_SLOT`` past the branch, 0 their own. ``hidden`` (tests): the searcher's
    decision at which the true game is disturbed (``rules.disturb``; -1: never) and the key of the disturbance."""
    count = job_play.shape[0]
    blocks = (count + SEARCH_BLOCK - 1) // SEARCH_BLOCK
    empty = np.zeros(0, np.int32)
    nm, nb = t.sizes[L.Z_MONSTERS], t.sizes[L.Z_BOSSES]
    for b in prange(blocks):
        s = new_state(t.cards.shape[0], t.bonus.shape[0], t.upgrades.shape[0], max(nm, nb), variants, empty, 0)
        row = new_row()
        lo = b * SEARCH_BLOCK
        hi = min(count, lo + SEARCH_BLOCK)
        for j in range(lo, hi):
            g = job_play[j]
            n = lengths[g]
            arm(s, mode, searcher, model, prefixes[g], n, job_option[j], job_key[j], nm, nb, hidden)
            index = plays[g]
            play_game(s, t, pols, params, hunters, seatings[index % seatings.shape[0]],
                      battle_key(seed, stream, index), row)
            values[j] = search_value(s, row)
            info[j, 0], info[j, 1], info[j, 2] = s.search[L.SR_ASKED_N], s.search[L.SR_ASKED_HOOK], \
                s.search[L.SR_ASKED_BASE]
            if out.shape[0] > 0:
                out[j] = row

