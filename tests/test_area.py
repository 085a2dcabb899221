"""The area model behind `dsim area` (R-1.4, R-1.6, R-5.10, R-6.5, R-12.5) and the command itself."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg import area as A

ONE_DEAL = np.array([[0]])


def test_R_1_4_spark_dial_starts_at_six_minus_the_party_size():
    assert [A.starting_sparks(n) for n in (1, 2, 3, 4)] == [5, 4, 3, 2]
    with pytest.raises(ValueError, match="1 to 4 characters"):
        A.starting_sparks(5)


def test_R_5_10_s_sparks_give_s_plus_one_attempts():
    # one tile won half the time, the boss half the time: a run wins 1/4; two runs 1 - (3/4)^2
    rates, boss = np.array([0.5]), np.array([0.5])
    assert A.area_win_probability(rates, boss, ONE_DEAL, np.array([0]), 1) == pytest.approx(0.25)
    assert A.area_win_probability(rates, boss, ONE_DEAL, np.array([0]), 2) == pytest.approx(1 - 0.75**2)


def test_R_6_5_a_defeat_turns_the_same_cards_face_down_so_the_deal_is_kept_across_retries():
    # one tile, two level-1 cards: one always won, one always lost. Kept deal: half the deals can
    # never be won, whatever the sparks; a card redrawn on each retry would give 1 - 0.5^3.
    dealt = A.deals([1], {1: [0, 1]})
    chance = A.area_win_probability(np.array([1.0, 0.0]), np.array([1.0]), dealt, np.zeros(len(dealt), int), 3)
    assert chance == pytest.approx(0.5)


def test_R_1_6_each_tile_gets_a_different_card_of_its_level():
    dealt = A.deals([1, 1, 2], {1: [0, 1, 2], 2: [3, 4]})
    assert dealt.shape == (3 * 2, 3)  # C(3, 2) pairs of level-1 cards times 2 level-2 cards
    assert all(row[0] != row[1] and row[2] in (3, 4) for row in dealt.tolist())
    with pytest.raises(ValueError, match="2 tiles of level 2 need 2 encounter cards"):
        A.deals([2, 2], {2: [0]})


def test_R_12_5_the_boss_rate_follows_the_gravestones_the_deal_reveals():
    dealt = A.deals([1], {1: [0, 1]})
    boss = np.array([0.0, 1.0])  # won only with one card revealed
    revealed = np.array([0, 1])  # card 1 has a gravestone
    assert A.area_win_probability(np.ones(2), boss, dealt, revealed, 1) == pytest.approx(0.5)


def test_rate_draws_follow_the_jeffreys_posterior():
    draws = A.rate_draws(np.array([300, 0]), 1000, 4000, np.random.default_rng(0))
    assert draws.shape == (4000, 2)
    assert draws[:, 0].mean() == pytest.approx(300.5 / 1001, abs=0.002)
    assert np.quantile(draws[:, 1], 0.975) < 0.003


def test_dsim_area_json_reports_every_card_the_boss_cells_and_rising_chances_with_sparks():
    result = CliRunner().invoke(app, ["area", "--party", "knight,warrior", "--boss", "gargoyle", "--loadout", "mid_game",
                                      "--battles", "400", "--sparks", "0", "--sparks", "4", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["levels"] == [1, 1, 1, 2] and out["default_sparks"] == 4
    assert len(out["encounters"]) == 24 and {e["level"] for e in out["encounters"].values()} == {1, 2}
    assert out["deals"] == 220 * 12  # C(12, 3) level-1 triples times 12 level-2 cards
    zero, four = out["sparks"]
    assert zero["sparks"] == 0 and four["attempts"] == 5
    assert zero["win_rate"] == pytest.approx(out["attempt_win_rate"])
    assert 0 < zero["win_rate"] < four["win_rate"] < 1
    for row in out["sparks"]:
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]


def test_dsim_area_unknown_boss_is_a_one_line_error():
    result = CliRunner().invoke(app, ["area", "--party", "knight", "--boss", "nobody", "--battles", "10"])
    assert result.exit_code == 1
    assert "unknown boss 'nobody'" in result.output and "Traceback" not in result.output


def test_sparks_as_a_battle_setting_points_to_dsim_area():
    result = CliRunner().invoke(app, ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "10",
                                      "--set", "sparks=3"])
    assert result.exit_code != 0
    assert "dsim area --sparks" in " ".join(result.output.split()).replace("│", "").replace("  ", " ")
