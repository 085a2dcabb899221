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
@pytest.mark.parametrize("exact", [False, True])
def test_mcnemar_matches_statsmodels(b, c, exact):
    result = stats.mcnemar_test(b, c, exact=exact)
    reference = mcnemar([[0, b], [c, 0]], exact=exact, correction=False)
    assert result.exact is exact
    assert (result.statistic, result.p_value) == pytest.approx((reference.statistic, reference.pvalue), rel=1e-10)


def _score_by_numeric_likelihood(delta, b, c, n):
    """Tango's statistic with the B-only cell maximised numerically (not by the closed form under test)."""
    from scipy.optimize import minimize_scalar

    m = n - b - c
    lo, hi = max(0.0, -delta), (1.0 - delta) / 2

    def nll(p):
        return -(b * np.log(p + delta) + c * np.log(p) + m * np.log1p(-2 * p - delta))

    p21 = minimize_scalar(nll, bounds=(lo + 1e-15, hi - 1e-15), method="bounded", options={"xatol": 1e-14}).x
    return (b - c - n * delta) / np.sqrt(n * (2 * p21 + delta * (1 - delta)))


@pytest.mark.parametrize("b,c,n", [(150, 86, 1600), (40, 20, 160), (3, 0, 100), (0, 14, 20_000), (7, 2, 30)])
def test_paired_difference_interval_is_where_the_score_test_stops_rejecting(b, c, n):
    """Tango's interval: at each end the score statistic (its nuisance cell maximised numerically here) is
    exactly ∓1.96; the large-sample Agresti example (1600 people, 150 vs 86) stays near its Wald (0.021, 0.059)."""
    low, high = stats.paired_difference_interval(b, c, n)
    z = stats._z(0.95)
    assert low < (b - c) / n < high
    assert _score_by_numeric_likelihood(low, b, c, n) == pytest.approx(z, abs=1e-5)
    if high < 1:
        assert _score_by_numeric_likelihood(high, b, c, n) == pytest.approx(-z, abs=1e-5)
    if (b, c, n) == (150, 86, 1600):
        assert (low, high) == pytest.approx((0.021, 0.059), abs=1e-3)


def test_paired_difference_interval_agrees_with_mcnemar_and_is_never_empty():
    """0 lies outside the interval exactly when McNemar's p < 0.05 (the same score test), over every split of
    up to 40 discordant battles; with none at all the interval still has width (the Wald one was [0, 0])."""
    for m in range(1, 41):
        for b in range(m + 1):
            low, high = stats.paired_difference_interval(b, m - b, 1000)
            assert (low > 0 or high < 0) == (stats.mcnemar_test(b, m - b).p_value < 0.05), (b, m - b)
    low, high = stats.paired_difference_interval(0, 0, 20_000)
    assert low == pytest.approx(-high) and 1e-4 < high < 3e-4


def test_paired_difference_interval_covers_the_true_difference_95_percent_of_the_time():
    """Few discordant battles (each kind 0.05%-0.4% of 2,000, drawn afresh for each of 4,000 replications): the
    Tango interval's average coverage is 95% within 3.5 standard errors of that estimate (±1.2 points); the Wald
    interval it replaced falls short (0 discordant battles gave it zero width)."""
    rng = np.random.default_rng(7)
    n, reps = 2_000, 4_000
    p12, p21 = rng.uniform(0.0005, 0.004, reps), rng.uniform(0.0005, 0.004, reps)
    cells = np.array([rng.multinomial(n, [x, y, 1 - x - y]) for x, y in zip(p12, p21)])
    truth = p12 - p21
    low, high = stats.paired_difference_interval(cells[:, 0], cells[:, 1], n)
    covered = np.mean((low <= truth) & (truth <= high))
    assert abs(covered - 0.95) < 0.012
    wald = (cells[:, 0] - cells[:, 1]) / n
    se = np.sqrt(np.maximum(cells[:, 0] + cells[:, 1] - (cells[:, 0] - cells[:, 1]) ** 2 / n, 0)) / n
    assert np.mean((wald - 1.96 * se <= truth) & (truth <= wald + 1.96 * se)) < covered - 0.004


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
