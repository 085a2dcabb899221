"""One battle from setup to its end (R-7, R-8), and a batch of battles (the engine runs batches on threads)."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.character import activate_character
from dsim.games.dstbg.kernel.core import (
    clear,
    copy_distances,
    count_figures,
    decide,
    decide_for_enemy,
    figures_at,
    log,
    move_figure,
    recompute_walk,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import allocating, kernel
from dsim.games.dstbg.kernel.boss import boss_activation, boss_setup
from dsim.games.dstbg.kernel.combat import enemy_end_of_activation
from dsim.games.dstbg.kernel.enemy import activate_regular
from dsim.numba_ref import keep_alive, ref
from dsim.rng import battle_key, randint

# outcome rows (an outcome table holds one row per measure and one column per battle)
OUT_RESULT = 0  # L.OUT_*
OUT_ROUNDS = 1
OUT_DEATHS = 2
OUT_DAMAGE_DEALT = 3
OUT_DAMAGE_TAKEN = 4
OUT_STAMINA_SPENT = 5
OUT_ESTUS = 6
OUT_LUCK = 7
OUT_HEROIC = 8
OUT_KILLED = 9
OUT_BOSS_HEALTH = 10
OUT_HEATUP_ROUND = 11
OUT_CARDS = 12
OUT_DODGES = 13
OUT_DODGES_OK = 14
OUT_NEXT_FIRST = 15
N_OUT = 16
OUTCOME_NAMES = (
    "result", "rounds", "deaths", "damage_dealt", "damage_taken", "stamina_spent", "estus_used",
    "luck_used", "heroic_used", "enemies_killed", "boss_health_left", "heatup_round", "cards_drawn",
    "dodges", "dodges_ok", "next_first_char",
)


@kernel
def setup(t, b, policy) -> None:
    """R-7: enemies on spawn nodes, terrain, traps shuffled onto eligible nodes, characters on entry
    nodes (D-14), aggro (R-7.9, A-3); the first character to activate (D-5)."""
    glob, chars, enemies, nodes = b.glob, b.chars, b.enemies, b.nodes
    st = b.st
    sc = t.scen
    clear(st, L.STATE_LEN)
    glob[L.G_N_CHARS] = sc[X.SC_N_CHARS]
    glob[L.G_N_ENEMIES] = sc[X.SC_N_ENEMIES]
    glob[L.G_N_NODES] = sc[X.SC_N_NODES]
    glob[L.G_IS_BOSS] = sc[X.SC_IS_BOSS]
    glob[L.G_NEED] = sc[X.SC_NEED]  # a whole game's request to the policy (layout.NEED_*)
    glob[L.G_AGGRO] = -1
    glob[L.G_ACTIVE] = -1
    glob[L.G_HEATUP_ROUND] = -1
    n_nodes = sc[X.SC_N_NODES]
    for n in range(n_nodes):
        nodes[n, L.N_TERRAIN] = sc[X.SC_TERRAIN + n]
        nodes[n, L.N_TRAP] = -1
    if sc[X.SC_TRAPS] == 1 and sc[X.SC_TRAPS_GIVEN] == 1:  # a tile fought before keeps its traps, face down
        for n in range(n_nodes):
            nodes[n, L.N_TRAP] = sc[X.SC_TRAP_LAYOUT + n]
    elif sc[X.SC_TRAPS] == 1:
        # shuffle the trap tokens face down, one on each eligible basic node. The option
        # buffer holds the token pool: it is free until the first decision below.
        pool = b.opts[:, 0]
        n_tokens = sc[X.SC_N_TRAP_TOKENS]
        for i in range(n_tokens):
            pool[i] = sc[X.SC_TRAP_TOKENS + i]
        for i in range(n_tokens - 1, 0, -1):
            j = randint(b.rng, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        k = 0
        for n in range(n_nodes):
            if sc[X.SC_TRAP_OK + n] == 1 and k < n_tokens:
                nodes[n, L.N_TRAP] = pool[k]
                k += 1
    for e in range(sc[X.SC_N_ENEMIES]):
        enemies[e, L.E_TYPE] = sc[X.SC_ENEMY + 2 * e]
        enemies[e, L.E_POS] = sc[X.SC_ENEMY + 2 * e + 1]
        enemies[e, L.E_ALIVE] = 1
    for c in range(sc[X.SC_N_CHARS]):
        for j in range(5):
            chars[c, L.C_ARMOUR if j == 0 else L.C_HAND0 + j - 1] = sc[X.SC_EQUIP + 5 * c + j]
        chars[c, L.C_ALIVE] = 1
        chars[c, L.C_POS] = -1
        if sc[X.SC_CARRY] == 1:  # estus, luck, heroic action and ember as the last battle left them
            tokens = X.SC_TOKENS + X.TOKEN_FIELDS * c
            chars[c, L.C_ESTUS] = sc[tokens]
            chars[c, L.C_LUCK] = sc[tokens + 1]
            chars[c, L.C_HEROIC] = sc[tokens + 2]
            chars[c, L.C_EMBER] = sc[tokens + 3]
            chars[c, L.C_DAMAGE] = sc[tokens + 4]  # after a retreat the red cubes stay
            chars[c, L.C_STAMINA] = sc[tokens + 5]
            chars[c, L.C_COND] = sc[tokens + 6]
        else:  # a battle on its own starts with every token ready
            chars[c, L.C_ESTUS] = sc[X.SC_ESTUS]
            chars[c, L.C_LUCK] = 1
            chars[c, L.C_HEROIC] = 1
    copy_distances(b.dwalk, t.dwalk0, n_nodes)  # walk distances of the setup's terrain, computed once per cell
    log(b, L.ACTOR_NONE, -1, L.EV_SETUP, sc[X.SC_N_ENEMIES], sc[X.SC_TRAPS], 0, 0, -1)
    count_figures(b)  # the enemies; each character counts as it is placed
    for c in range(sc[X.SC_N_CHARS]):
        n = 0
        for i in range(sc[X.SC_N_ENTRY]):
            node = sc[X.SC_ENTRY + i]
            there = figures_at(b, node)
            if there < 3:
                set_opt(b, n, node, there, c, 0, 0, 0, 0, 0)
                n += 1
        chars[c, L.C_POS] = b.opts[decide(b, policy, L.H_PLACE, n), 0]
        move_figure(b, -1, chars[c, L.C_POS])
        log(b, L.ACTOR_CHAR, c, L.EV_PLACE, chars[c, L.C_POS], 0, 0, 0, -1)
    for c in range(sc[X.SC_N_CHARS]):
        set_opt(b, c, c, t.chars[c, L.CT_TAUNT], 0, 0, 0, 0, 0, 0)
    mode = t.variants[L.V_INITIAL_AGGRO]
    if mode == 2:
        glob[L.G_AGGRO] = randint(b.rng, sc[X.SC_N_CHARS])
    # in a game played whole the first-activation token's holder; else (and in a game's first battle,
    # SC_FIRST -1) the players pick (R-1.11, D-5)
    carried = sc[X.SC_FIRST] if sc[X.SC_CARRY] == 1 else -1
    first = carried if carried >= 0 else decide(b, policy, L.H_FIRST_CHAR, sc[X.SC_N_CHARS])
    glob[L.G_NEXT_CHAR] = first
    if mode == 1:
        glob[L.G_AGGRO] = first
    elif mode == 0:
        for c in range(sc[X.SC_N_CHARS]):
            set_opt(b, c, c, t.chars[c, L.CT_TAUNT], 0, 0, 0, 0, 0, 0)
        glob[L.G_AGGRO] = decide(b, policy, L.H_AGGRO, sc[X.SC_N_CHARS])
    log(b, L.ACTOR_CHAR, glob[L.G_AGGRO], L.EV_AGGRO, 0, 0, 0, 0, -1)
    if sc[X.SC_IS_BOSS] == 1:
        boss_setup(t, b, policy)


@kernel
def enemy_turn(t, b, policy) -> None:
    """R-11.1: every living enemy activates once, highest threat first; ties are the players' choice (D-30)."""
    glob, enemies = b.glob, b.enemies
    done = 0
    while running(b):
        top = -1
        n = 0  # the rows of the enemies of the highest threat seen so far, in slot order
        for e in range(glob[L.G_N_ENEMIES]):
            if enemies[e, L.E_ALIVE] == 0 or done & (1 << e):
                continue
            threat = t.etypes[enemies[e, L.E_TYPE], L.ET_THREAT]
            if threat < top:
                continue
            if threat > top:
                top = threat
                n = 0
            set_opt(b, n, e, enemies[e, L.E_TYPE], enemies[e, L.E_POS], threat, 0, 0, 0, 0)
            n += 1
        if n == 0:
            return
        e = b.opts[decide_for_enemy(t, b, policy, L.H_ENEMY_ORDER, n), 0]
        if t.etypes[enemies[e, L.E_TYPE], L.ET_IS_BOSS] == 1:
            done |= boss_activation(t, b, policy) | (1 << e)  # one card per turn drives every boss figure
            continue
        done |= 1 << e
        log(b, L.ACTOR_ENEMY, e, L.EV_ACTIVATE, 0, 0, 0, 0, -1)
        activate_regular(t, b, policy, e)
        if running(b):
            enemy_end_of_activation(t, b, e)


@kernel
def offer_retreat(t, b, policy) -> None:
    """R-13.4 (campaign, battles without a boss): once the enemies' actions are resolved the party may retreat
    (D-39); A-51: after any enemy turn (``SC_RETREAT`` 1) or only the first (2). Row 0 fights on, row 1 retreats."""
    mode = t.scen[X.SC_RETREAT]
    if mode == 0 or (mode == 2 and b.glob[L.G_ROUND] > 1) or not running(b):
        return
    set_opt(b, 0, 0, b.glob[L.G_ROUND], 0, 0, 0, 0, 0, 0)
    set_opt(b, 1, 1, b.glob[L.G_ROUND], 0, 0, 0, 0, 0, 0)
    if decide(b, policy, L.H_RETREAT, 2) == 1:
        b.glob[L.G_OUTCOME] = L.OUT_RETREAT
        log(b, L.ACTOR_NONE, -1, L.EV_RETREAT, b.glob[L.G_ROUND], 0, 0, 0, -1)


@kernel
def play(t, b, policy) -> None:
    """R-8.8: after setup, enemy turns and single-character turns alternate until one side is defeated."""
    glob = b.glob
    max_rounds = t.variants[L.V_MAX_ROUNDS]
    enemies_first = t.variants[L.V_FIRST_SIDE] == 0
    n_chars = glob[L.G_N_CHARS]
    while running(b):
        glob[L.G_ROUND] += 1
        if glob[L.G_ROUND] > max_rounds:
            glob[L.G_OUTCOME] = L.OUT_TIMEOUT
            break
        log(b, L.ACTOR_NONE, -1, L.EV_ROUND, glob[L.G_ROUND], 0, 0, 0, -1)
        if enemies_first:
            enemy_turn(t, b, policy)
            offer_retreat(t, b, policy)
        if not running(b):
            break
        c = glob[L.G_NEXT_CHAR]
        activate_character(t, b, policy, c)
        glob[L.G_NEXT_CHAR] = c + 1 if c + 1 < n_chars else 0  # clockwise (no division: ~26 cycles a round)
        if not enemies_first and running(b):
            enemy_turn(t, b, policy)
            offer_retreat(t, b, policy)
        if glob[L.G_BARRELS_CHANGED] == 1:
            recompute_walk(t, b)
    log(b, L.ACTOR_NONE, -1, L.EV_END, glob[L.G_OUTCOME], min(glob[L.G_ROUND], max_rounds), 0, 0, -1)  # rounds played


@kernel
def summarise(t, b, out: np.ndarray, i: int) -> None:
    """Fill row ``i`` of the outcome table (a row per battle, ``N_OUT`` columns) from the final state.
    The sums run in locals and each column is stored once."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    row = out[i]
    deaths = dealt = taken = stamina = estus = luck = heroic = dodges = dodges_ok = 0
    for c in range(glob[L.G_N_CHARS]):
        deaths += 1 - chars[c, L.C_ALIVE]
        dealt += chars[c, L.C_DMG_DEALT]
        taken += chars[c, L.C_DMG_TAKEN]
        stamina += chars[c, L.C_STAMINA_SPENT]
        estus += chars[c, L.C_ESTUS_USED]
        luck += chars[c, L.C_LUCK_USED]
        heroic += chars[c, L.C_HEROIC_USED]
        dodges += chars[c, L.C_DODGES]
        dodges_ok += chars[c, L.C_DODGES_OK]
    killed = 0
    boss_health = -1
    for e in range(glob[L.G_N_ENEMIES]):
        killed += 1 - enemies[e, L.E_ALIVE]
        et = enemies[e, L.E_TYPE]
        if t.etypes[et, L.ET_IS_BOSS] == 1:
            left = t.etypes[et, L.ET_HEALTH] - enemies[e, L.E_WOUNDS]
            boss_health = left if boss_health < 0 else boss_health + left
    row[OUT_RESULT] = glob[L.G_OUTCOME]
    row[OUT_ROUNDS] = min(glob[L.G_ROUND], t.variants[L.V_MAX_ROUNDS])
    row[OUT_DEATHS] = deaths
    row[OUT_DAMAGE_DEALT] = dealt
    row[OUT_DAMAGE_TAKEN] = taken
    row[OUT_STAMINA_SPENT] = stamina
    row[OUT_ESTUS] = estus
    row[OUT_LUCK] = luck
    row[OUT_HEROIC] = heroic
    row[OUT_KILLED] = killed
    row[OUT_BOSS_HEALTH] = boss_health
    row[OUT_HEATUP_ROUND] = glob[L.G_HEATUP_ROUND]
    row[OUT_CARDS] = glob[L.G_CARDS_DRAWN] if boss_health >= 0 else -1  # no boss, no behaviour deck
    row[OUT_DODGES] = dodges
    row[OUT_DODGES_OK] = dodges_ok
    row[OUT_NEXT_FIRST] = glob[L.G_NEXT_CHAR]


@kernel
def run_battle(t, b, policy, seed: int, stream: int, index: int) -> None:
    """Play battle ``index`` of a cell on the buffers ``b`` (reset first); randomness from (seed, stream, index).

    With ``b.cursor[PRESET]`` set, the state in ``b.st`` was placed by hand (rule tests): setup is
    skipped and the battle goes on from that state."""
    preset = b.cursor[PRESET] == 1
    b.rng[0] = battle_key(seed, stream, index)
    b.rng[1] = 0
    clear(b.cursor, 4)  # b.opts needs no reset: every decision fills the rows it offers (set_opt) before asking
    clear(b.dice, 8)
    clear(b.dcol, 8)
    if preset:
        recompute_walk(t, b)
        count_figures(b)
    else:
        setup(t, b, policy)
    play(t, b, policy)


PRESET = 3  # cursor slot: 1 = the state is given (run_one_impl on a hand-placed state)


@allocating
def battle_buffers(n_nodes: int, params):
    """Buffers for battles on a board of ``n_nodes`` nodes, without forced dice, a trace or a search log."""
    return search_buffers(n_nodes, params, 0)


@allocating
def search_buffers(n_nodes: int, params, search: int):
    """Buffers for battles on a board of ``n_nodes`` nodes with a search log of ``search`` entries (0: none)."""
    st = np.zeros(L.STATE_LEN, np.int32)
    glob, chars, enemies, nodes, deck, known = X.state_views(st)
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    dwalk = np.zeros((n_nodes, L.NODE_COLS), np.int32)
    figs = np.zeros(L.MAX_NODES, np.int32)
    return X.Battle(
        st,
        np.zeros(2, np.uint64),
        opts,
        dwalk,
        figs,
        np.zeros(8, np.int32),
        np.zeros(8, np.int32),
        np.zeros(0, np.int32),
        np.zeros(4, np.int32),
        np.zeros((0, L.EV_FIELDS + L.STATE_LEN), np.int32),
        np.zeros(1, np.int32),
        params,
        np.zeros(search, np.int64),
        glob,
        chars,
        enemies,
        nodes,
        deck,
        known,
        X.View(glob, chars, enemies, known, opts, params, dwalk, figs),
    )


@allocating
def play_block(t, policy, params, seed: int, stream: int, start: int, lo: int, hi: int, out) -> None:
    """Battles ``start+lo .. start+hi-1`` on one set of buffers of their own (``run_battle`` resets
    them). The bundles go down by reference (:mod:`dsim.numba_ref`): copying them by value on every
    call cost most of the run time."""
    b = battle_buffers(t.steps.shape[0], params)
    tr = ref(t)
    br = ref(b)
    for i in range(lo, hi):
        run_battle(tr, br, policy, seed, stream, start + i)
        summarise(tr, br, out, i)
    keep_alive(b)


def play_batch_impl(t, policy, params, seed, stream, start, lo, hi, out):
    """Battles ``start+lo .. start+hi-1`` into rows ``lo .. hi-1`` of ``out``, one after another on one
    set of buffers. The engine runs several calls at once on threads of its own (the entry releases the GIL):
    a ``prange`` here made Numba optimise and generate the whole kernel three more times (parallel body, its
    wrapper, this function), a third of a cold compile. Results do not depend on threads or pieces."""
    play_block(t, policy, params, seed, stream, start, lo, hi, out)


def run_one_impl(t, b, policy, seed, stream, index):
    """One battle on caller-provided buffers (trace replays and rule tests)."""
    run_battle(ref(t), ref(b), policy, seed, stream, index)


SEARCH_SHAPING = 0.01  # weight of the enemies' health removed in a search value: it only orders equal win estimates


@kernel
def search_value(t, b) -> float:
    """A battle's value to a searcher (dsim.search): 1 for a win, else ``SEARCH_SHAPING`` times the share of the
    enemies' health removed (a dead enemy counts whole), which tells apart options of equal win estimates."""
    glob, enemies = b.glob, b.enemies
    if glob[L.G_OUTCOME] == L.OUT_WIN:
        return 1.0
    total = 0
    removed = 0
    for e in range(glob[L.G_N_ENEMIES]):
        health = t.etypes[enemies[e, L.E_TYPE], L.ET_HEALTH]
        total += health
        removed += health if enemies[e, L.E_ALIVE] == 0 else min(enemies[e, L.E_WOUNDS], health)
    return SEARCH_SHAPING * removed / total if total > 0 else 0.0


@allocating
def search_block(t, policy, params, seed: int, stream: int, mode: int, plays, prefixes, lengths, job_play, job_option,
                 job_key, hidden, lo: int, hi: int, values, info, out) -> None:
    """Replays ``lo .. hi-1`` of a search (``context.SR_*``): job ``j`` replays battle ``plays[job_play[j]]`` with its
    prefix forced (and, unless ``mode`` is ``SEARCH_ADVANCE``, ``job_option[j]`` after it, then the switch to the
    rollout key ``job_key[j]``); its value goes to ``values[j]``, the decision after the prefix (options, hook, the
    policy's answer, the cards drawn by then) to ``info[j]``, its outcomes to row ``j`` of ``out`` if it has one.
    ``hidden`` (tests): (decision, key) at which the true play's hidden state is
    redrawn, decision -1 for never."""
    b = search_buffers(t.steps.shape[0], params, X.SR_CHOICES + prefixes.shape[1] + 1)
    tr = ref(t)
    br = ref(b)
    s = b.search
    for j in range(lo, hi):
        p = job_play[j]
        k = lengths[p]
        clear(s, X.SR_CHOICES)
        for i in range(k):
            s[X.SR_CHOICES + i] = prefixes[p, i]
        s[X.SR_MODE] = mode
        s[X.SR_FORCED] = k
        if mode != X.SEARCH_ADVANCE:
            s[X.SR_CHOICES + k] = job_option[j]
            s[X.SR_FORCED] = k + 1
            s[X.SR_KEY_HI] = np.int64(job_key[j] >> np.uint64(32))
            s[X.SR_KEY_LO] = np.int64(job_key[j] & np.uint64(0xFFFFFFFF))
        s[X.SR_HIDE_AT] = hidden[0]
        s[X.SR_HIDE_HI] = hidden[1]
        s[X.SR_HIDE_LO] = hidden[2]
        run_battle(tr, br, policy, seed, stream, plays[p])
        values[j] = search_value(tr, br)
        info[j, 0] = s[X.SR_OPTIONS]
        info[j, 1] = s[X.SR_HOOK]
        info[j, 2] = s[X.SR_BASE]
        info[j, 3] = s[X.SR_DRAWN]
        if j < out.shape[0]:
            summarise(tr, br, out, j)
    keep_alive(b)


def search_block_impl(t, policy, params, seed, stream, mode, plays, prefixes, lengths, job_play, job_option, job_key,
                      hidden, lo, hi, values, info, out):
    """The search entry's body (:func:`search_block`; ``engine.BattleReplayer`` runs pieces of it on threads)."""
    search_block(t, policy, params, seed, stream, mode, plays, prefixes, lengths, job_play, job_option, job_key,
                 hidden, lo, hi, values, info, out)
