"""What a whole game tells its battles (``G_NEED``: keep the estus, luck and heroic action for the boss, R-5.9) and the
steward strategy that plays for the boss, on hand-set games."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import REGISTRY
from tests.dstbg_game.test_house_rules_game import game, table


def test_R_5_9_a_battle_before_the_boss_asks_to_keep_and_the_boss_battle_to_win():
    t = table()
    t.step(K.STEP_EXPLORE, 0, 1)
    assert t.buffers.tile.glob[BL.G_NEED] == BL.NEED_KEEP and t.buffers.tile.glob[BL.G_IS_BOSS] == 0
    t.step(K.STEP_BOSS, 0, 1)
    board = t.buffers.tile if t.cg.bosses[0].steps.shape[0] == t.buffers.tile.dwalk.shape[0] else t.buffers.arena
    assert board.glob[BL.G_NEED] == BL.NEED_WIN and board.glob[BL.G_IS_BOSS] == 1


def _route(t) -> tuple[list[int], int]:
    t.step(K.STEP_ROUTE)
    n = t.s.cursor[K.C_EVENTS]
    kinds = [int(t.s.pub[G.R_OPTS + i, G.O_KIND]) for i in range(n)]
    pick = REGISTRY.get("steward")
    k = pick.decide.function(G.GH_ROUTE, t.s.pub, n, pick.vector())
    return kinds, kinds[k]


def _at_the_gate(t) -> None:
    for k in range(game(t)[G.G_N_TILES]):
        t.s.pub[G.R_TILES + k, G.TL_CLEARED] = 1
    game(t)[G.G_FOG] = 1


def test_steward_rests_at_the_gate_until_ready_while_the_dial_allows():
    t = table(strategy="steward")
    _at_the_gate(t)
    t.s.pub[G.R_PARTY + 0, G.P_ESTUS] = 0  # a flask spent on the way
    game(t)[G.G_SPARKS] = 3
    assert _route(t)[1] == G.OPT_REST
    game(t)[G.G_SPARKS] = 2  # at the floor: no rest, the boss
    assert _route(t)[1] == G.OPT_BOSS
    game(t)[G.G_SPARKS] = 3
    t.s.pub[G.R_PARTY + 0, G.P_ESTUS] = 1  # ready: the boss at once
    assert _route(t)[1] == G.OPT_BOSS
    t.s.pub[G.R_PARTY + 1, G.P_HEROIC] = 0  # a heroic action spent: not ready
    assert _route(t)[1] == G.OPT_REST


def test_steward_restores_luck_before_buying():
    t = table(strategy="steward")
    t.s.pub[G.R_PARTY + 1, G.P_LUCK] = 0
    game(t)[G.G_SOULS] = 1
    t.step(K.STEP_BONFIRE)
    assert t.s.pub[G.R_PARTY + 1, G.P_LUCK] == 1 and game(t)[G.G_SOULS] == 0
    assert np.all(t.s.pub[G.R_PARTY:G.R_PARTY + 2, G.P_LUCK] == 1)
