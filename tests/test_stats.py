"""dsim.stats against scipy / statsmodels and textbook values."""

import numpy as np
import pytest
from scipy.stats import binomtest, false_discovery_control
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, proportions_ztest

from dsim import stats

COUNTS = [(0, 1), (0, 10), (3, 10), (10, 10), (1, 1000), (500, 1000), (999, 1000), (123_456, 1_000_000)]


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_wilson_matches_scipy_and_statsmodels(level):
    wins, n = np.array(COUNTS).T
    low, high = stats.wilson_interval(wins, n, level)
    for k, m, lo, hi in zip(wins, n, low, high):
        ci = binomtest(int(k), int(m)).proportion_ci(confidence_level=level, method="wilson")
        assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)
        assert (lo, hi) == pytest.approx(proportion_confint(k, m, alpha=1 - level, method="wilson"), abs=1e-12)


def test_wilson_scalar_in_scalar_out_and_nan_without_battles():
    low, high = stats.wilson_interval(5, 10)
    assert isinstance(low, float) and low < 0.5 < high
    low, high = stats.wilson_interval([5, 0], [10, 0])
    assert np.isnan(low[1]) and np.isnan(high[1])


def test_clopper_pearson_matches_scipy_exact():
    wins, n = np.array(COUNTS).T
    low, high = stats.clopper_pearson_interval(wins, n)
    for k, m, lo, hi in zip(wins, n, low, high):
        ci = binomtest(int(k), int(m)).proportion_ci(method="exact")
        assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)


@pytest.mark.parametrize("w1,n1,w2,n2", [(30, 100, 40, 100), (5, 50, 1, 80), (4_900, 10_000, 5_100, 10_000)])
def test_two_proportion_test_matches_statsmodels(w1, n1, w2, n2):
    test = stats.two_proportion_test(w1, n1, w2, n2)
    z, p = proportions_ztest([w1, w2], [n1, n2])
    assert (test.z, test.p_value) == pytest.approx((z, p), rel=1e-10)
    assert (test.ci_low, test.ci_high) == pytest.approx(
        confint_proportions_2indep(w1, n1, w2, n2, method="newcomb"), abs=1e-12)
    assert test.difference == pytest.approx(w1 / n1 - w2 / n2)


def test_two_proportion_test_equal_certain_rates_are_not_significant():
    test = stats.two_proportion_test([0, 50], [50, 50], [0, 70], [70, 70])
    assert list(test.p_value) == [1.0, 1.0]


@pytest.mark.parametrize("b,c", [(3, 10), (0, 5), (12, 12), (30, 50), (400, 350)])
def test_mcnemar_matches_statsmodels(b, c):
    result = stats.mcnemar_test(b, c)
    reference = mcnemar([[0, b], [c, 0]], exact=result.exact, correction=True)
    assert result.exact == (b + c < 25)
    assert (result.statistic, result.p_value) == pytest.approx((reference.statistic, reference.pvalue), rel=1e-10)


def test_paired_difference_interval_matches_agresti_example():
    # Agresti, Categorical Data Analysis (2002) §10.1: 1600 people, 150 vs 86 discordant
    # answers; difference 0.04 with 95 % Wald interval (0.021, 0.059).
    low, high = stats.paired_difference_interval(150, 86, 1600)
    assert (low, high) == pytest.approx((0.021, 0.059), abs=5e-4)


def test_holm_matches_statsmodels_and_hand_computation():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    adjusted = stats.adjust_pvalues(p, "holm")
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert adjusted == pytest.approx(multipletests(p, method="holm")[1])


def test_benjamini_hochberg_matches_scipy():
    p = np.random.default_rng(3).uniform(0, 0.2, 25)
    assert stats.adjust_pvalues(p, "bh") == pytest.approx(false_discovery_control(p, method="bh"))


def test_adjust_pvalues_rejects_unknown_method():
    with pytest.raises(ValueError, match="unknown adjustment"):
        stats.adjust_pvalues([0.1], "bonferroni")


def _width(p, n):
    low, high = stats.wilson_interval(p * n, n)
    return high - low


@pytest.mark.parametrize("p", [0.0, 0.03, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("width", [0.2, 0.02, 0.005])
def test_battles_needed_is_the_smallest_count_reaching_the_width(p, width):
    n = stats.battles_needed(p, width)
    assert _width(p, n) <= width + 1e-12
    assert n == 1 or _width(p, n - 1) > width


def test_battles_needed_is_vectorised_and_checks_width():
    assert list(stats.battles_needed([0.5, 0.5], 0.02)) == [stats.battles_needed(0.5, 0.02)] * 2
    with pytest.raises(ValueError, match="width"):
        stats.battles_needed(0.5, 1.5)
