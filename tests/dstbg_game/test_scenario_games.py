"""Campaign scenarios played whole (R-13.10, R-13.11): areas in order, each closed by its boss fights; two
Gargoyles in a row; the campaign's sparks and treasure between areas (R-13.5, A-54, A-55)."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg.game import game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg_game import engine
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.compile import compile_game
from dsim.games.dstbg_game.cell import _areas
from dsim.games.dstbg_game.strategy import REGISTRY
from tests.dstbg_game.scripted_strategy import SCRIPTED, script

PARTY = ["knight", "warrior"]


def journey(house_rules=None, variants=None):
    data = game_data(None)
    areas = _areas(data, {"scenario": "first_journey"}, "campaign")
    return compile_game(data, PARTY, areas, variants, house_rules, True)


def table(cg):
    battle = get_policy("tactician")
    t = engine.Table(cg, battle.decide, SCRIPTED.decide, battle.vector(), script())
    t.step(K.STEP_SETUP, 2)
    return t


def test_R_13_10_the_first_journey_is_three_areas_closed_by_their_bosses():
    cg = journey()
    assert cg.boss_ids == ("gargoyle", "titanite_demon", "ornstein_and_smough")
    assert cg.game.area_bosses.tolist() == [[0, 0], [1, -1], [2, -1]]
    assert cg.game.area_levels[:, :5].tolist() == [[1, 1, 2, -1, -1], [1, 1, 2, 2, -1], [2, 2, 3, 3, 3]]
    t = table(cg)
    pub = t.s.pub
    assert pub[G.R_GAME, G.G_N_TILES] == 3  # the Undead Burg: L1, L1, L2
    assert [pub[G.R_TILES + k, G.TL_LEVEL] for k in range(3)] == [1, 1, 2]


def _boss(t, seed):
    lost = t.s.pub[G.R_GAME, G.G_LOST]
    t.step(K.STEP_BOSS, 0, seed)
    return t.s.pub[G.R_GAME, G.G_LOST] == lost


def test_R_13_10_two_gargoyles_in_a_row_then_the_next_area():
    cg = journey({"boss_health_delta": -100})  # one-health bosses: some seed beats each
    g = cg.game
    gargoyle_treasure = {c for c in range(len(g.cards)) if g.cards[c, G.K_GROUP] == G.GROUP_BOSS and g.cards[c, G.K_BOSS] == 0}
    for seed in range(40):
        t = table(cg)
        if not _boss(t, seed):
            continue
        game = t.s.pub[G.R_GAME]
        assert game[G.G_AREA] == 0 and game[G.G_FIGHT] == 1  # the second Gargoyle is still to beat
        assert not gargoyle_treasure & set(np.flatnonzero(t.s.where[:, G.W_PLACE] == G.LOC_INVENTORY).tolist())
        for seed2 in range(seed + 1, seed + 40):
            if _boss(t, seed2):
                break
            game[G.G_FIGHT] = 1  # a loss starts the area's fights over; set it back to try the second again
        assert game[G.G_AREA] == 1 and game[G.G_FIGHT] == 0
        assert gargoyle_treasure <= set(np.flatnonzero(t.s.where[:, G.W_PLACE] == G.LOC_INVENTORY).tolist())
        assert [t.s.pub[G.R_TILES + k, G.TL_LEVEL] for k in range(game[G.G_N_TILES])] == [1, 1, 2, 2]
        assert game[G.G_SPARKS] == 4  # +1 spark, capped at the start
        return
    raise AssertionError("a one-health Gargoyle was never beaten")


def test_R_13_10_losing_the_second_gargoyle_means_fighting_both_again():
    t = table(journey())
    game = t.s.pub[G.R_GAME]
    for seed in range(40):
        game[G.G_FIGHT] = 1
        game[G.G_SPARKS] = 3
        if not _boss(t, seed):
            assert game[G.G_FIGHT] == 0 and game[G.G_SPARKS] == 2 and game[G.G_AREA] == 0
            return
    raise AssertionError("the full-health Gargoyle was never lost to")


def test_R_13_10_a_whole_journey_fights_the_gargoyles_back_to_back():
    cg = journey({"boss_health_delta": -100})
    battle, rush = get_policy("tactician"), REGISTRY.get("rush")
    for index in range(60):
        s, *_ = engine.play_one(cg, battle.decide, rush.decide, battle.vector(), rush.vector(), 1, 2, index)
        log = s.log[: s.cursor[K.C_EVENTS]]
        fights = [r for r in log if r[0] == G.EV_BATTLE and r[1] == G.TILE_BOSS + 0]
        for first, second in zip(fights, fights[1:]):
            if first[2] == 1 and second[3] == first[3] + 1:  # a win, then the very next battle is the second Gargoyle
                won = [r for r in log if r[0] == G.EV_AREA_WON]
                assert won and won[0][2] == 0
                return
    raise AssertionError("no journey beat the first Gargoyle")


def test_dsim_game_plays_a_scenario_and_refuses_mixed_settings():
    runner = CliRunner()
    result = runner.invoke(app, ["game", "--scenario", "first_journey", "--games", "300", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["settings"]["scenario"] == "first_journey" and 0 <= out["reached_mini_boss"] <= 1
    for args, message in ((["--scenario", "first_journey", "--mode", "standard"], "campaign"),
                          (["--scenario", "nowhere"], "unknown scenario"),
                          (["--scenario", "first_journey", "--mini-boss", "winged_knight"], "names its own bosses"),
                          (["--scenario", "first_journey", "--main-boss", "dancer_of_the_boreal_valley"],
                           "names its own bosses"),
                          (["--explain", "0"], "--explain replays one game: drop --games")):
        bad = runner.invoke(app, ["game", *args, "--games", "10"])
        assert bad.exit_code == 1 and message in bad.output and "Traceback" not in bad.output
    mixed = runner.invoke(app, ["run", "--game", "dstbg_game", "--scenario", "spiral_sword", "--mini-boss", "gargoyle",
                                "--games", "10"])
    assert mixed.exit_code == 1 and "not both" in mixed.output
