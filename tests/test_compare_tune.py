"""`dsim compare` (paired CRN comparisons), `dsim tune` (bisection with CRN) and `dsim explain --where`."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.compare import crn_stream, paired_summary, with_rules
from dsim.games.dstbg.game import DSTBG
from dsim.rng import stream_key
from dsim.tune import tune

runner = CliRunner()
CELL = {"party": ["knight", "warrior"], "encounter": "the_forgotten", "policy": "baseline"}


def _compare(*args: str) -> dict:
    out = runner.invoke(app, ["compare", "--party", "knight,warrior", "--battles", "1500", "--seed", "4", "--json", *args])
    assert out.exit_code == 0, out.stdout + str(out.exception)
    return json.loads(out.stdout)


def test_compare_A_29_changes_nothing_without_a_bleed_source():
    # No core-set regular enemy nor starting kit inflicts bleed: the reading cannot matter here.
    res = _compare("--encounter", "the_forgotten", "--variant", "bleed_zero_damage")
    assert res["win_rate_a"] == res["win_rate_b"] and res["diff"] == 0.0
    assert res["won_only_a"] == res["won_only_b"] == 0 and res["changed_battles"] == 0
    assert res["p_value"] == 1.0 and res["ci95"] == [0.0, 0.0]
    assert "changes no battle's result" in res["verdict"]


def test_compare_enemy_health_matters_and_is_significant():
    res = _compare("--encounter", "the_forgotten", "--setting", "enemy_health_delta=2")
    assert res["diff"] < 0 and res["ci95"][1] < 0
    assert res["p_value"] < 1e-6 and "lowers the win rate significantly" in res["verdict"]
    assert res["measures"]["rounds"]["diff"] > 0  # tougher enemies take longer to kill


def test_compare_A_36_push_damage_order_matters_for_a_full_party():
    out = runner.invoke(app, ["compare", "--party", "knight,warrior,herald,assassin", "--encounter", "burned_gardens",
                              "--variant", "push_damage_order", "--battles", "1500", "--seed", "4", "--json"])
    res = json.loads(out.stdout)
    assert res["p_value"] < 1e-4 and res["ci95"][0] > 0 and "significantly" in res["verdict"]


def test_paired_crn_interval_is_narrower_than_unpaired():
    # +1 health changes each battle a little: the paired battles stay strongly correlated
    res = _compare("--encounter", "the_forgotten", "--setting", "enemy_health_delta=1")
    paired = res["ci95"][1] - res["ci95"][0]
    unpaired = res["ci95_unpaired"][1] - res["ci95_unpaired"][0]
    assert res["changed_battles"] > 0
    assert paired < 0.8 * unpaired


def test_compare_grid_adjusts_p_values():
    out = runner.invoke(app, ["compare", "--party", "knight,warrior,herald", "--sizes", "1,3", "--encounter", "the_forgotten",
                              "--encounter", "dark_hollow", "--setting", "first_side=characters_first",
                              "--battles", "500", "--json"])
    assert out.exit_code == 0, out.stdout
    cells = json.loads(out.stdout)["cells"]
    assert [len(c["cell"]["party"]) for c in cells] == [1, 1, 3, 3]
    for c in cells:
        assert {"win_rate_a", "win_rate_b", "diff", "ci95", "p_value"} <= set(c)
        assert c["p_adjusted"] >= c["p_value"]


def test_compare_boss_health_house_rule_with_a_loadout():
    # starting gear almost never beats the Gargoyle; with mid-game gear lower boss health matters
    res = _compare("--boss", "gargoyle", "--loadout", "mid_game", "--setting", "boss_health_delta=-5")
    assert res["cell"]["loadout"] == "mid_game"
    assert res["win_rate_a"] > 0.05 and res["ci95"][0] > 0


def test_compare_boss_cells_fail_cleanly():
    out = runner.invoke(app, ["compare", "--party", "knight", "--boss", "no_such_boss", "--setting", "first_side=characters_first",
                              "--battles", "10"])
    assert out.exit_code == 1 and "boss" in out.stderr
    assert isinstance(out.exception, SystemExit)  # a clean exit, not a traceback


def test_paired_summary_counts_discordant_battles():
    a = {"win": np.array([1, 1, 0, 0, 1], bool), "rounds": np.array([3, 4, 5, 6, 7]), "result": np.array([1, 1, 2, 2, 1])}
    b = {"win": np.array([1, 0, 1, 1, 1], bool), "rounds": np.array([3, 5, 5, 6, 7]), "result": np.array([1, 2, 1, 1, 1])}
    rec = paired_summary(a, b)
    assert (rec["won_only_a"], rec["won_only_b"], rec["changed_battles"]) == (1, 2, 3)
    assert rec["diff"] == pytest.approx(0.2) and rec["measures"]["rounds"]["diff"] == pytest.approx(0.2)


def test_tune_hits_a_reachable_target_within_tolerance():
    game = DSTBG()
    battles = 1500
    at_two = game.play(with_rules(CELL, {"house_rules": {"enemy_health_delta": 2}}), 3, crn_stream(CELL), 0, battles)
    target = float(np.mean(at_two["win"]))
    result = tune(game, CELL, "enemy_health_delta", "house_rules", target, -1, 6, battles, 3, tolerance=0.01)
    assert result.hit and abs(result.win_rate - target) <= 0.01
    assert result.ci95[0] <= result.win_rate <= result.ci95[1]
    assert len(result.evaluations) <= 5  # bisection, not a scan of all 8 values


def test_tune_cli_reports_an_unreachable_target():
    out = runner.invoke(app, ["tune", "--party", "knight,warrior", "--encounter", "the_forgotten", "--rule", "enemy_health_delta",
                              "--target", "1.0", "--low", "0", "--high", "2", "--battles", "400", "--tolerance", "0.001", "--json"])
    assert out.exit_code == 0, out.stdout
    res = json.loads(out.stdout)
    # the range widens toward easier enemies until the rule's bound or the widening limit, then says so
    assert not res["hit"] and res["searched"][0] < 0 and res["searched"][1] == 2
    assert res["value"] == res["searched"][0]  # the easiest value tried is closest to a 100% target


def test_tune_widens_its_range_until_it_brackets_the_target():
    """The Gargoyle at starting gear is out of reach of the default -3..6: the search widens
    downward until the win rates lie on both sides of 50%, then bisects."""
    game = DSTBG()
    cell = {"party": ["knight", "warrior"], "boss": "gargoyle", "policy": "baseline"}
    result = tune(game, cell, "boss_health_delta", "house_rules", 0.5, -3, 6, 600, 3, bounds=(-10_000, 10_000))
    assert result.searched[0] < -3
    rates = sorted(result.evaluations.items())
    assert rates[0][1][0] > 0.5 > rates[-1][1][0]  # bracketed: easier below, harder above
    assert result.interpolated is not None and result.searched[0] <= result.interpolated <= result.searched[1]


def test_tune_rejects_non_numeric_rules():
    out = runner.invoke(app, ["tune", "--party", "knight", "--encounter", "the_forgotten", "--rule", "first_side"])
    assert out.exit_code == 1 and "not a whole-number rule" in out.stderr


def test_explain_where_replays_the_first_matching_battle():
    args = ["explain", "--party", "knight", "--encounter", "ruined_keep", "--seed", "2", "--json"]
    out = runner.invoke(app, [*args, "--where", "lost and rounds >= 3"])
    assert out.exit_code == 0, out.stdout
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[-1]["event"] == "end" and lines[-1]["values"][0] == 2 and lines[-1]["values"][1] >= 3
    found = int(out.stderr.split()[1])
    settings = {"party": ["knight"], "encounter": "ruined_keep", "policy": "baseline"}
    cols = DSTBG().play(settings, 2, stream_key(json.dumps(settings, sort_keys=True)), 0, found + 1)
    matches = (cols["result"] == 2) & (cols["rounds"] >= 3)
    assert matches[found] and not matches[:found].any()
    bad = runner.invoke(app, [*args, "--where", "lost and nonsense > 1"])
    assert bad.exit_code == 1 and "cannot evaluate" in bad.stderr
    none = runner.invoke(app, [*args, "--where", "rounds > 1000", "--search", "50"])
    assert none.exit_code == 1 and "no battle in 0..49" in none.stderr
