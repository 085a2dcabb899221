"""Campaign retreat (R-13.4, D-39, A-51 … A-53): the battle offers it after the enemies' turn; the game carries
the red cubes into the next battle and turns the card face down."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dstbg.game import game_data
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg_game import engine
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.compile import compile_game, standard_areas
from tests.dstbg_game.scripted_strategy import SCRIPTED, script
from tests.kit import play, scene

AREAS = standard_areas(game_data(None), "gargoyle", "ornstein_and_smough")  # mini boss, then main boss


def _placed(retreat: int, rounds: int = 3):
    """A knight and a hollow soldier far apart; ``SC_RETREAT`` set as the game would (0 none, 1 any, 2 first)."""
    pos = scene(["knight"], encounter="the_forgotten", variants={"max_rounds": rounds})
    for e in range(len(pos.comp.enemy_ids)):
        pos.remove_enemy(e)
    hs = next(i for i, e in enumerate(pos.comp.enemy_ids) if e == "hollow_soldier")
    pos.enemy(hs, 0).char("knight", 12)
    pos.comp.tables.scen[X.SC_RETREAT] = retreat
    return pos


@pytest.mark.parametrize(("retreat", "answer", "result"), [(1, 1, L.OUT_RETREAT), (1, 0, L.OUT_TIMEOUT),
                                                             (0, 1, L.OUT_TIMEOUT)])
def test_R_13_4_the_party_may_retreat_after_the_enemies_turn_only_when_the_game_allows_it(retreat, answer, result):
    b, evs = play(_placed(retreat), H_RETREAT=answer)
    assert int(b.glob[L.G_OUTCOME]) == result
    if result == L.OUT_RETREAT:
        ev = next(ev for ev in evs if ev["event"] == "retreat")
        assert ev["rule"] == "R-13.4" and ev["values"][0] == 1  # right after round 1's enemy turn
        assert not any(e["event"] == "activate" and e["actor"] == "knight" for e in evs)  # no character turn


def test_A_51_after_first_enemy_turn_offers_it_once():
    b, evs = play(_placed(2), H_RETREAT=0)
    asked = [ev for ev in evs if ev["event"] == "decision" and ev.get("hook") == "retreat"]
    assert len(asked) == 1  # round 1 only (A-51 after_first_enemy_turn)
    b, evs = play(_placed(1), H_RETREAT=0)
    asked = [ev for ev in evs if ev["event"] == "decision" and ev.get("hook") == "retreat"]
    assert len(asked) == 3  # after every enemy turn of the three rounds


def _campaign(variants=None):
    cg = compile_game(game_data(None), ["knight", "warrior"], AREAS, variants, None, True)
    battle = get_policy("tactician")
    t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector({"flee_at": 1}), script())
    t.step(K.STEP_SETUP, 2)
    return t


@pytest.mark.parametrize(("variants", "black", "conds"), [(None, False, False),
                                                          ({"retreat_stamina": "keep_black",
                                                            "retreat_conditions": "keep"}, True, True)])
def test_R_13_4_A_52_A_53_after_a_retreat_red_cubes_stay_no_souls_and_the_card_stays_face_down(variants, black, conds):
    for seed in range(40):
        t = _campaign(variants)
        for seat in range(2):
            t.s.pub[G.R_PARTY + seat, G.P_ESTUS] = 0  # flee_at 1 with no estus: retreat at the first chance
        t.step(K.STEP_EXPLORE, 0, seed)
        if t.buffers.tile.glob[L.G_OUTCOME] != L.OUT_RETREAT:
            continue
        for seat in range(2):
            p = t.s.pub[G.R_PARTY + seat]
            ch = t.buffers.tile.chars[seat]
            assert p[G.P_DAMAGE] == ch[L.C_DAMAGE]
            assert p[G.P_STAMINA] == (ch[L.C_STAMINA] if black else 0)
            assert p[G.P_COND] == (ch[L.C_COND] if conds else 0)
        game = t.s.pub[G.R_GAME]
        assert game[G.G_SOULS] == 0 and game[G.G_LOST] == 0 and game[G.G_SPARKS] == 4
        assert t.s.pub[G.R_TILES, G.TL_CLEARED] == 0 and t.s.out[G.OUT_RETREATS] == 1
        damage = [t.s.pub[G.R_PARTY + seat, G.P_DAMAGE] for seat in range(2)]
        t.step(K.STEP_EXPLORE, 0, seed + 1000)  # the next battle starts with those red cubes
        sc = t.battles.encounters.scen
        assert [sc[X.SC_TOKENS + X.TOKEN_FIELDS * seat + 4] for seat in range(2)] == damage
        return
    raise AssertionError("no battle ended in a retreat")


def test_R_13_4_no_retreat_in_the_standard_game_or_from_a_boss():
    cg = compile_game(game_data(None), ["knight", "warrior"], AREAS)
    battle = get_policy("tactician")
    t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector({"flee_at": 1}), script())
    t.step(K.STEP_SETUP, 2)
    t.step(K.STEP_EXPLORE, 0, 1)
    assert t.battles.encounters.scen[X.SC_RETREAT] == 0
    t = _campaign()
    t.step(K.STEP_BOSS, 0, 1)
    assert t.battles.bosses[0].scen[X.SC_RETREAT] == 0 and t.buffers.tile.glob[L.G_OUTCOME] != L.OUT_RETREAT
    t = _campaign()
    t.step(K.STEP_EXPLORE, 0, 1)
    assert t.battles.encounters.scen[X.SC_RETREAT] == 1
    assert np.all(t.s.pub[G.R_PARTY:G.R_PARTY + 2, G.P_DAMAGE] >= 0)
