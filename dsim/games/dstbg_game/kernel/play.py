"""A whole game from setup to its end (R-6.6) and the entries: a batch of games, one game with its log, one step
of a hand-set game."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel.battle import battle_buffers
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.bonfire import bonfire, rest, spend_options, upgrade
from dsim.games.dstbg_game.kernel.boss import area_won, fight_boss
from dsim.games.dstbg_game.kernel.exploration import defeat, explore, route_options
from dsim.games.dstbg_game.kernel.jit import allocating, gk
from dsim.games.dstbg_game.kernel.replay import (GA_BASE, GA_FOUND, GA_HIDE_AT, GA_HIDE_HI, GA_HIDE_LO, GA_HOOK,
                                                 GA_LEN, GA_NUMBER, GA_OPTIONS, GA_PREFIX, GA_START, GA_STOP,
                                                 GA_STREAM, GA_TABLE, SR_GAME, rollout)
from dsim.games.dstbg_game.kernel.setup import deal, setup
from dsim.games.dstbg_game.kernel.state import C_BATTLES, C_EVENTS, C_STOP, GameState, glog, ask
from dsim.games.dstbg_game.kernel.treasure import draw
from dsim.numba_ref import keep_alive, ref, refs
from dsim.rng import battle_key

GAME_KEY = 1 << 40  # index of a game's own stream beside its battles' (battle numbers stay far below)


@gk
def play_game(g, s, te, bosses, bt, ba, policy, strategy, params, seed: int, stream: int, index: int) -> None:
    """Game ``index`` from setup to its end: the bonfire, then the strategy's route (a tile, the boss or a
    rest) until the main boss falls, the sparks run out (R-5.10) or the battle cap is reached. ``te`` the encounter
    tables, ``bosses`` each boss's, ``bt`` and ``ba`` the tile and arena battle buffers, all by reference."""
    key = battle_key(seed, stream, index)
    battles = np.int64(key >> np.uint64(1))  # the game's battles draw from (seed, this, battle number)
    s.rng[0] = battle_key(seed, battles, GAME_KEY)
    s.rng[1] = 0
    s.cursor[C_EVENTS] = 0
    s.cursor[C_BATTLES] = 0
    setup(g, s, te.scen[X.SC_N_CHARS])
    game = s.pub[G.R_GAME]
    while game[G.G_OVER] == G.RESULT_NONE:
        if s.cursor[C_BATTLES] >= g.rules[G.V_MAX_BATTLES] or (0 <= s.cursor[C_STOP] < s.cursor[C_BATTLES]):
            game[G.G_OVER] = G.RESULT_CAPPED
            glog(s, G.EV_CAPPED, 0, 0, 0, 0)
            break
        bonfire(g, s, strategy, params)
        n = route_options(g, s)
        row = s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_ROUTE, n)]
        kind = row[G.O_KIND]
        if kind == G.OPT_REST:
            rest(g, s, True, True)
            if game[G.G_CAMPAIGN] == 1 and g.rules[G.V_CAMPAIGN_END] == 1 and game[G.G_SPARKS] == 0:
                game[G.G_OVER] = G.RESULT_LOST
        elif kind == G.OPT_BOSS:
            area = game[G.G_AREA]
            while game[G.G_OVER] == G.RESULT_NONE and game[G.G_AREA] == area:  # the area's fights, in a row
                k = g.area_bosses[area, game[G.G_FIGHT]]
                fight_boss(g, s, strategy, params, bosses, bt, ba, policy, seed, battles, k)
                if game[G.G_FIGHT] == 0:  # lost: back to the bonfire
                    break
        else:
            explore(g, s, strategy, params, te, bt, policy, seed, battles, row[G.O_ARG])
    summarise(s)


@gk
def summarise(s) -> None:
    """The game's outcome row (``layout.OUTCOME_NAMES``)."""
    game = s.pub[G.R_GAME]
    out = s.out
    out[G.OUT_RESULT] = game[G.G_OVER]
    out[G.OUT_STAGE] = game[G.G_REACHED]
    out[G.OUT_SPARKS] = game[G.G_SPARKS]
    out[G.OUT_BATTLES] = game[G.G_BATTLES]
    out[G.OUT_LOST] = game[G.G_LOST]
    out[G.OUT_EARNED] = game[G.G_SOULS_EARNED]
    out[G.OUT_SPENT] = game[G.G_SOULS_SPENT]
    out[G.OUT_DRAWN] = game[G.G_DRAWN]
    out[G.OUT_RESTS] = game[G.G_RESTS]
    out[G.OUT_SOULS_LEFT] = game[G.G_SOULS]


@allocating
def game_buffers(n_cards: int, n_encounters: int, max_events: int):
    """Buffers of one game (``max_events`` 0: no log)."""
    return GameState(
        np.zeros((G.ROWS, G.WIDTH), np.int32),
        np.zeros((n_cards, G.W_FIELDS), np.int32),
        np.zeros(n_cards, np.int32),
        np.zeros(n_encounters, np.int32),
        np.zeros(2, np.uint64),
        np.zeros((max_events, G.EV_FIELDS), np.int32),
        np.full(4, -1, np.int32),
        np.zeros(G.N_OUT, np.int32),
        np.zeros((G.MAX_TILES, G.TRAP_NODES), np.int32),
    )


@allocating
def play_block(g, battles, policy, strategy, bparams, sparams, seed: int, stream: int, start: int, out) -> None:
    """Games ``start .. start+len(out)-1`` on buffers of their own; the bundles go down by reference
    (:mod:`dsim.numba_ref`)."""
    s = game_buffers(g.cards.shape[0], g.enc_info.shape[0], 0)
    bt = battle_buffers(battles.encounters.steps.shape[0], bparams)
    arena = 0
    for tables in battles.bosses:
        arena = max(arena, tables.steps.shape[0])
    ba = battle_buffers(arena, bparams)
    gr, sr, ter, bosses, btr, bar = ref(g), ref(s), ref(battles.encounters), refs(battles.bosses), ref(bt), ref(ba)
    for i in range(out.shape[0]):
        play_game(gr, sr, ter, bosses, btr, bar, policy, strategy, sparams, seed, stream, start + i)
        out[i, :] = s.out
    keep_alive(s)
    keep_alive(bt)
    keep_alive(ba)


def play_batch_impl(g, battles, policy, strategy, bparams, sparams, seed, stream, start, out):
    """Games ``start ..`` one after another (the engine runs one call per thread, each with its own copies of
    the battle tables whose scenario the games write): ``g`` the game's tables (``compile.GameTables``),
    ``battles`` the battle tables (``state.Battles``), the two policies and their parameters."""
    play_block(g, battles, policy, strategy, bparams, sparams, seed, stream, start, out)


def play_one_impl(g, battles, s, buffers, policy, strategy, sparams, seed, stream, index):
    """One game on caller-provided buffers (``s`` a ``state.GameState``, ``buffers`` a ``state.BattleBuffers``):
    logs and battle traces for ``dsim explain`` and the rule tests."""
    play_game(ref(g), ref(s), ref(battles.encounters), refs(battles.bosses), ref(buffers.tile), ref(buffers.arena),
              policy, strategy, sparams, seed, stream, index)


# steps a rule test can run on a hand-set game (``engine.Table.step``)
STEP_SETUP = 0  # arg: characters
STEP_REST = 1  # arg: 1 voluntary (a spark), 0 the free rest
STEP_DEFEAT = 2  # arg: tile (TILE_BOSS: the boss tile)
STEP_EXPLORE = 3  # arg: tile
STEP_BOSS = 4  # the current area's next boss battle (set G_AREA and G_FIGHT by hand)
STEP_AREA_WON = 5
STEP_BONFIRE = 6
STEP_DRAW = 7  # arg: 1 = from a chest
STEP_DEAL = 8  # arg: the area
STEP_ROUTE = 9  # fills the route options (their count in cursor[C_EVENTS])
STEP_SPEND = 10  # fills the bonfire's spending options (their count in cursor[C_EVENTS])
STEP_UPGRADE = 11  # arg: the upgrade card (the strategy picks its item)


def step_impl(g, battles, s, buffers, policy, strategy, sparams, seed, what, arg):
    """One step of the game on caller-provided state (rule tests); the battles of a step draw from ``seed``."""
    gr, sr = ref(g), ref(s)
    if what == STEP_SETUP:
        setup(gr, sr, arg)
    elif what == STEP_REST:
        rest(gr, sr, arg == 1, arg == 1)
    elif what == STEP_DEFEAT:
        defeat(gr, sr, arg)
    elif what == STEP_EXPLORE:
        explore(gr, sr, strategy, sparams, ref(battles.encounters), ref(buffers.tile), policy, seed, seed, arg)
    elif what == STEP_BOSS:
        k = g.area_bosses[s.pub[G.R_GAME, G.G_AREA], s.pub[G.R_GAME, G.G_FIGHT]]
        fight_boss(gr, sr, strategy, sparams, refs(battles.bosses), ref(buffers.tile), ref(buffers.arena), policy,
                   seed, seed, k)
    elif what == STEP_AREA_WON:
        area_won(gr, sr)
    elif what == STEP_BONFIRE:
        bonfire(gr, sr, strategy, sparams)
    elif what == STEP_DRAW:
        draw(gr, sr, strategy, sparams, arg == 1)
    elif what == STEP_DEAL:
        deal(gr, sr, arg)
    elif what == STEP_ROUTE:
        s.cursor[C_EVENTS] = route_options(gr, sr)  # the option count, for the test to read
    elif what == STEP_SPEND:
        s.cursor[C_EVENTS] = spend_options(gr, sr)
    elif what == STEP_UPGRADE:
        upgrade(gr, sr, strategy, sparams, arg)


REPLAY_INFO = 8  # columns of a game replay's info row (replay_impl)


def replay_impl(g, battles, s, buffers, policy, strategy, sparams, seed, stream, plays, prefixes, lengths, stop,
                hidden, lo, hi, info, snap, out):
    """Games ``plays[lo:hi]`` replayed with ``prefixes[j, :lengths[j]]`` forced in their battles (``kernel.replay``;
    the buffers share one search log). Per game: ``info[j]`` (found, hook, options, base answer, the found battle's
    first decision in the prefix, its tables, number, stream), ``snap[j]`` the found battle's scenario and walk
    distances, ``out[j]`` the outcome row (a whole game's only when ``stop`` is 0 or nothing was found). ``hidden``
    (tests): (decision, key hi, key lo) at which the true battle's hidden state is redrawn, decision -1 never."""
    gr, sr = ref(g), ref(s)
    te, bosses, bt, ba = ref(battles.encounters), refs(battles.bosses), ref(buffers.tile), ref(buffers.arena)
    log = buffers.tile.search
    a = X.SR_CHOICES + prefixes.shape[1] + 1
    for j in range(lo, hi):
        for i in range(GA_PREFIX):
            log[a + i] = 0
        log[SR_GAME] = a
        log[a + GA_LEN] = lengths[j]
        log[a + GA_STOP] = stop
        log[a + GA_HIDE_AT], log[a + GA_HIDE_HI], log[a + GA_HIDE_LO] = hidden[0], hidden[1], hidden[2]
        for i in range(lengths[j]):
            log[a + GA_PREFIX + i] = prefixes[j, i]
        play_game(gr, sr, te, bosses, bt, ba, policy, strategy, sparams, seed, stream, plays[j])
        row = info[j]
        row[0], row[1], row[2], row[3] = log[a + GA_FOUND], log[a + GA_HOOK], log[a + GA_OPTIONS], log[a + GA_BASE]
        row[4], row[5], row[6], row[7] = log[a + GA_START], log[a + GA_TABLE], log[a + GA_NUMBER], log[a + GA_STREAM]
        if log[a + GA_FOUND] == 1:
            at = a + GA_PREFIX + lengths[j]
            for i in range(snap.shape[1]):
                snap[j, i] = log[at + i]
        out[j, :] = s.out


def rollouts_impl(g, battles, buffers, policy, seed, info, snap, prefixes, lengths, mode, job_play, job_option,
                  job_key, hidden, keep, lo, hi, values, asked):
    """Rollouts ``lo .. hi-1``: job ``j`` replays the found battle of game row ``job_play[j]`` from its snapshot
    (``info``, ``snap`` as :func:`replay_impl` left them; the battle's own decisions so far are ``prefixes[p,
    :lengths[p]]``), answers ``job_option[j]`` and plays on from rollout key ``job_key[j]`` (``kernel.replay.rollout``,
    ``keep`` its weight of the tokens kept). In ``SEARCH_ADVANCE`` mode a job replays the true battle with the option
    forced and ``asked[j]`` gets its next decision: options (0: the battle ended first), hook, the policy's answer."""
    te, bosses, bt, ba = ref(battles.encounters), refs(battles.bosses), ref(buffers.tile), ref(buffers.arena)
    last = -1
    for j in range(lo, hi):
        p = job_play[j]
        k = info[p, 5]
        if p != last:  # the battle's snapshot into this thread's tables
            scen = te.scen if k < 0 else bosses[k].scen
            for i in range(X.SC_LEN):
                scen[i] = snap[p, i]
            if k < 0:
                n = te.dwalk0.shape[0]
                for x in range(n):
                    for y in range(n):
                        te.dwalk0[x, y] = snap[p, X.SC_LEN + x * n + y]
            last = p
        key_hi = np.int64(job_key[j] >> np.uint64(32))
        key_lo = np.int64(job_key[j] & np.uint64(0xFFFFFFFF))
        args = (policy, seed, info[p, 7], info[p, 6], prefixes[p], lengths[p], job_option[j], mode, key_hi, key_lo,
                hidden, info[p, 4], keep)
        log = bt.search
        if k < 0:
            values[j] = rollout(te, bt, *args)
        elif bosses[k].steps.shape[0] == bt.dwalk.shape[0]:  # the board a boss battle is played on (fight_boss)
            values[j] = rollout(bosses[k], bt, *args)
        else:
            values[j] = rollout(bosses[k], ba, *args)
            log = ba.search
        if mode == X.SEARCH_ADVANCE:
            asked[j, 0], asked[j, 1], asked[j, 2] = log[X.SR_OPTIONS], log[X.SR_HOOK], log[X.SR_BASE]
