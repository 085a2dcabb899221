"""The batch entry (games one after another, one stream per game; the engine shares a batch out among threads,
:mod:`dsim.pieces`) and the entries of one game: replay and steps."""

from __future__ import annotations

import numpy as np

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel import rules as R
from dsim.games.dark_maiden.kernel.jit import allocating
from dsim.games.dark_maiden.kernel.state import new_state
from dsim.numba_ref import keep_alive, ref
from dsim.rng import battle_key

STEP_TURN, STEP_ATTACK, STEP_PRECIPICE, STEP_GOBLIN, STEP_BONUS, STEP_DRAW, STEP_FIGHT, STEP_CHECK_SITE = range(8)
"""What :func:`step_impl` plays on a hand-set state (``arg``: the hero or the goblin)."""


@allocating
def play_block(t, pol, params, variants, party, lives, items, seed, stream, start, lo, hi, out):
    """Games ``start+lo .. start+hi-1`` on one state of their own (``setup`` resets it). State and tables go
    down by reference (:mod:`dsim.numba_ref`): copying their 23 array descriptors by value on every call
    would cost most of the run time."""
    s = new_state(t.cards.shape[0], variants, np.zeros(0, np.int32), 0, 0)
    sr, tr = ref(s), ref(t)
    for i in range(lo, hi):
        R.play_game(sr, tr, pol, params, party, lives, items, battle_key(seed, stream, start + i), out[i])
    keep_alive(s)


def play_batch_impl(t, pol, params, variants, party, lives, items, seed, stream, start, out):
    """Games ``start .. start+len(out)-1``: game ``i`` draws only from ``battle_key(seed, stream, i)``, so results
    do not depend on threads or pieces."""
    play_block(t, pol, params, variants, party, lives, items, seed, stream, start, 0, out.shape[0], out)


def play_one_impl(t, s, pol, params, party, lives, items, seed, stream, index, out):
    """One game on a prepared state (trace rows, forced faces): ``dsim explain`` and the tests."""
    R.play_game(ref(s), ref(t), pol, params, party, lives, items, battle_key(seed, stream, index), out)


def setup_impl(t, s, party, lives, items, seed, stream, index):
    """DM-2 only: the set-up table of game ``index`` on a prepared state (a test places cards on it next)."""
    R.setup(ref(s), ref(t), party, lives, items, battle_key(seed, stream, index))


def step_impl(t, s, pol, params, which, arg, out):
    """One step (``STEP_*``) on a hand-set state; at the game's end, the outcome row."""
    sr, tr = ref(s), ref(t)
    if which == STEP_TURN:
        R.play_turn(sr, tr, pol, params)
    elif which == STEP_ATTACK:
        R.hero_attack(sr, tr, pol, params, arg)
    elif which == STEP_PRECIPICE:
        R.precipice(sr, tr, pol, params)
    elif which == STEP_GOBLIN:
        R.goblin(sr, tr, pol, params, arg)
    elif which == STEP_BONUS:
        R.bonus_phase(sr, tr, pol, params)
    elif which == STEP_DRAW:
        R.draw(sr, tr, arg)
    elif which == STEP_FIGHT:
        R.fight(sr, tr, pol, params)
    else:
        R.check_site(sr, tr, pol, params)
    if sr.table[L.T_OVER] != L.OVER_RUNNING:
        R.finish(sr, out)


def search_block_impl(t, pol, params, variants, party, lives, items, seed, stream, mode, plays, prefixes, lengths,
                      job_play, job_option, job_key, hidden, lo, hi, values, info, out):
    """Replays ``lo .. hi-1`` of a search (:mod:`dsim.search`; ``layout.SR_*``): job ``j`` plays game
    ``plays[job_play[j]]`` on its true stream with its prefix forced, then (``SEARCH_FAIR``/``_SEEING``) answers the
    next decision with ``job_option[j]`` and plays on from ``job_key[j]`` (fair) or the true stream. ``values[j]``
    is the game's worth to the searcher (``rules.search_value``), ``info[j]`` (``SEARCH_ADVANCE``) its next
    decision's options, hook and the policy's answer; ``out[j]`` its outcome row if ``out`` has rows.
    ``hidden`` (tests): ``(decision, key)`` at which the true game's deck order is redrawn."""
    s = new_state(t.cards.shape[0], variants, np.zeros(0, np.int32), 0, L.SR_CHOICES + prefixes.shape[1] + 1)
    sr, tr = ref(s), ref(t)
    row = np.zeros(L.N_OUT, np.int32)
    for j in range(lo, hi):
        p = job_play[j]
        g = s.search
        g[:] = 0
        n = lengths[p]
        g[L.SR_CHOICES:L.SR_CHOICES + n] = prefixes[p, :n]
        g[L.SR_MODE] = mode
        g[L.SR_FORCED] = n
        if mode != L.SEARCH_ADVANCE:
            g[L.SR_CHOICES + n] = job_option[j]
            g[L.SR_FORCED] = n + 1
            g[L.SR_KEY] = np.int64(job_key[j])
        g[L.SR_HOOK] = -1
        g[L.SR_HIDE_AT] = hidden[0]
        g[L.SR_HIDE_KEY] = hidden[1]
        R.play_game(sr, tr, pol, params, party, lives, items, battle_key(seed, stream, plays[p]), row)
        values[j] = R.search_value(sr)
        info[j, 0] = g[L.SR_OPTIONS]
        info[j, 1] = g[L.SR_HOOK]
        info[j, 2] = g[L.SR_BASE]
        if out.shape[0] > 0:
            out[j] = row
    keep_alive(s)
