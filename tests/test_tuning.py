"""Successive halving with common random numbers on a synthetic game whose best parameters are known."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.policy import Param, Policy
from dsim.tuning import Bounds, distinct_rows, halving_schedule, latin_hypercube, policy_bounds, tune

BOUNDS = Bounds(names=("a", "b"), defaults=np.array([0.1, 0.5]), low=np.zeros(2), high=np.ones(2))


def win_probability(v: np.ndarray) -> float:
    """Peak 0.7 at a = 0.8 (b does not matter); the defaults (a = 0.1) win 0.35."""
    return 0.7 - 0.5 * abs(v[0] - 0.8)


def evaluate(v: np.ndarray, start: int, count: int) -> np.ndarray:
    """Battle i is won iff its shared uniform draw is below p(v): common random numbers."""
    u = np.random.default_rng([start, count]).random(count)
    return u < win_probability(v)


def test_schedule_fits_the_budget_and_multiplies_battles_by_eta():
    schedule = halving_schedule(27, 50_000, 3)
    assert [c for c, _ in schedule] == [27, 9, 3, 1]
    m0 = schedule[0][1]
    assert [m for _, m in schedule] == [m0, 3 * m0, 9 * m0, 27 * m0]
    spent = sum(c * (m - (schedule[r - 1][1] if r else 0)) for r, (c, m) in enumerate(schedule))
    per_m0 = 27 * 1 + 9 * 2 + 3 * 6 + 1 * 18  # battles each unit of m0 costs over the rounds
    assert spent == m0 * per_m0 and spent <= 50_000 < spent + per_m0  # the largest m0 that fits


def test_schedule_rejects_a_budget_too_small():
    with pytest.raises(ValueError, match="too small"):
        halving_schedule(27, 50, 3)


def test_latin_hypercube_covers_each_parameter_stratum_once():
    pts = latin_hypercube(BOUNDS.low, BOUNDS.high, 10, seed=3)
    assert pts.shape == (10, 2)
    for j in range(2):
        assert sorted(np.floor(pts[:, j] * 10).astype(int)) == list(range(10))


def test_tune_finds_the_optimum_and_beats_the_defaults_beyond_the_interval():
    result = tune(evaluate, BOUNDS, budget=60_000, seed=5)
    assert not result.best_is_default
    assert abs(result.best["a"] - 0.8) < 0.15
    assert result.gain_ci[0] > 0 and result.mcnemar_p < 0.001
    assert result.best_ci[0] <= result.best_wins / result.validation_battles <= result.best_ci[1]
    # the validated rates agree with the truth within their intervals
    lo, hi = result.default_ci
    assert lo <= win_probability(BOUNDS.defaults) <= hi


def test_later_stages_search_near_the_incumbent():
    result = tune(evaluate, BOUNDS, budget=30_000, seed=4, stages=3)
    assert [r.stage for r in result.rounds] == [0] * 4 + [1] * 4 + [2] * 4
    assert result.search_battles <= 30_000 * 0.6


def test_tune_is_reproducible_with_a_seed():
    a = tune(evaluate, BOUNDS, budget=6_000, seed=7).to_json()
    b = tune(evaluate, BOUNDS, budget=6_000, seed=7).to_json()
    c = tune(evaluate, BOUNDS, budget=6_000, seed=8).to_json()
    assert a == b
    assert a["best"] != c["best"] or a["rounds"] != c["rounds"]


def test_tune_keeps_optimal_defaults():
    best = Bounds(names=("a", "b"), defaults=np.array([0.8, 0.5]), low=np.zeros(2), high=np.ones(2))
    result = tune(evaluate, best, budget=30_000, seed=9)
    assert result.best_is_default or result.gain_ci[0] <= 0.0 <= result.gain_ci[1] or abs(result.best["a"] - 0.8) < 0.05


def test_tune_says_the_budget_it_needs():
    """A budget whose search share cannot play one round of the candidates names the budget that would."""
    with pytest.raises(ValueError, match=r"budget 100 leaves 30 plays per search stage, and 27 candidates need 81: "
                                         r"give a budget of at least 270"):
        tune(lambda v, start, count: np.ones(count, dtype=bool), BOUNDS, 100, seed=1)
    tune(lambda v, start, count: np.ones(count, dtype=bool), BOUNDS, 270, seed=1)  # enough, as it said


def test_latin_hypercube_gives_whole_parameters_every_whole_value_equally():
    """A whole parameter on [1, 10] takes each of its ten values equally often (no half share at the ends);
    a real one beside it keeps its strata."""
    low, high, whole = np.array([1.0, 0.0]), np.array([10.0, 1.0]), np.array([True, False])
    pts = latin_hypercube(low, high, 1000, seed=2, whole=whole)
    assert np.array_equal(pts[:, 0], np.round(pts[:, 0]))
    assert np.bincount(pts[:, 0].astype(int))[1:].tolist() == [100] * 10
    assert sorted(np.floor(pts[:, 1] * 1000).astype(int)) == list(range(1000))


def test_latin_hypercube_keeps_whole_parameters_whole_in_a_shrunk_box():
    """Later stages search a box around the incumbent whose ends need not be whole: the samples still are."""
    pts = latin_hypercube(np.array([4.75]), np.array([9.25]), 200, seed=1, whole=np.array([True]))
    assert set(pts[:, 0]) == {5.0, 6.0, 7.0, 8.0, 9.0}


def test_distinct_rows_drop_repeats_and_keep_the_first_order():
    rows = np.array([[3.0, 1.0], [1.0, 1.0], [3.0, 1.0], [2.0, 0.5], [1.0, 1.0]])
    assert distinct_rows(rows).tolist() == [[3.0, 1.0], [1.0, 1.0], [2.0, 0.5]]


def test_tune_searches_whole_parameters_on_whole_numbers():
    """The best of a whole parameter is a whole number, and the search plays no candidate twice: with three
    possible values it stops at three candidates however many are asked for."""
    bounds = policy_bounds(Policy("p", "", None, (Param("k", 1.0, 0.0, 2.0, "a count", whole=True),)))
    seen: list[float] = []

    def peak_at_2(v: np.ndarray, start: int, count: int) -> np.ndarray:
        seen.append(float(v[0]))
        u = np.random.default_rng([start, count]).random(count)
        return u < 0.3 + 0.2 * v[0]

    result = tune(peak_at_2, bounds, budget=20_000, seed=3, stages=1)
    assert result.best == {"k": 2.0}
    assert set(seen) <= {0.0, 1.0, 2.0} and result.rounds[0].candidates == 3


def test_param_refuses_whole_bounds_that_are_not_whole_and_defaults_outside_them():
    with pytest.raises(ValueError, match="whole numbers"):
        Param("k", 1.5, 0.0, 3.0, "a count", whole=True)
    with pytest.raises(ValueError, match="outside"):
        Param("k", 5.0, 0.0, 3.0, "a weight")


def test_policy_vector_refuses_a_fraction_for_a_whole_parameter():
    policy = Policy("p", "", None, (Param("k", 1.0, 0.0, 3.0, "a count", whole=True), Param("w", 0.5, 0.0, 1.0, "x")))
    assert policy.vector({"k": 2, "w": 0.25}).tolist() == [2.0, 0.25]
    with pytest.raises(ValueError, match="k takes a whole number, got 2.5"):
        policy.vector({"k": 2.5})
