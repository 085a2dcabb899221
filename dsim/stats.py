"""Statistics for win rates: intervals, comparisons, multiple-testing control, sample sizes.

All functions accept scalars or numpy arrays (one entry per cell) and broadcast. Intervals
are two-sided at ``level`` (0.95 = 95 %). Cells of a sweep use independent random streams,
so cells are compared with :func:`two_proportion_test`; :func:`mcnemar_test` and
:func:`paired_difference_interval` are for paired runs that share random numbers battle by
battle (common random numbers), where only discordant battles carry information.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


def _alpha(level: float) -> float:
    """Two-sided error rate ``1 - level``; rejects levels outside (0, 1)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be in (0, 1), got {level}")
    return 1.0 - level


def _z(level: float) -> float:
    """Two-sided standard-normal quantile for a confidence ``level`` (the standard library's, so that
    a Wilson interval, all that ``dsim run`` needs, does not import scipy: a second at start-up)."""
    return NormalDist().inv_cdf(1.0 - _alpha(level) / 2.0)


def _scipy() -> Any:
    """``scipy.stats``, imported when a test or exact interval first needs it."""
    from scipy import stats

    return stats


def _scipy_optimize() -> Any:
    """``scipy.optimize`` (root finding for score intervals), imported on first use."""
    from scipy import optimize

    return optimize


def _out(a: np.ndarray) -> np.ndarray | float:
    """Return 0-d results as plain floats, arrays unchanged."""
    return float(a) if np.ndim(a) == 0 else a


def wilson_interval(
    wins: ArrayLike, n: ArrayLike, level: float = 0.95
) -> tuple[FloatArray | float, FloatArray | float]:
    """Wilson score interval for a proportion ``wins / n`` (NaN where ``n == 0``).

    Matches ``scipy.stats.binomtest(...).proportion_ci(method="wilson")`` and statsmodels
    ``proportion_confint(method="wilson")``; good coverage even near 0 and 1.
    """
    x = np.asarray(wins, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = _z(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        denom = 2.0 * (n + z * z)
        center = (2.0 * x + z * z) / denom
        half = z * np.sqrt(z * z + 4.0 * n * p * (1.0 - p)) / denom
    return _out(np.clip(center - half, 0.0, 1.0)), _out(np.clip(center + half, 0.0, 1.0))


@dataclass
class Moments:
    """Count, mean and spread of numbers added chunk by chunk in O(1) memory: whole numbers as exact sums
    (Python ints), so the figures do not depend on the chunking; other numbers merged by Chan's update."""

    count: int = 0
    total: int | float = 0  # whole numbers: the sum; else the mean so far
    spread: int | float = 0  # whole numbers: the sum of squares; else the sum of squared deviations (M2)

    def add(self, values: ArrayLike) -> Moments:
        """Take in one chunk of values; returns ``self``."""
        x = np.asarray(values).ravel()
        if x.size == 0:
            return self
        if x.dtype.kind in "biu":
            x = x.astype(np.int64)
            self.total += int(x.sum())
            self.spread += int((x * x).sum())
        else:  # Chan, Golub & LeVeque's pairwise merge of (count, mean, M2)
            x = x.astype(np.float64)
            mean, m2, n = float(x.mean()), float(((x - x.mean()) ** 2).sum()), x.size
            delta, both = mean - self.total, self.count + n
            self.total = float(self.total + delta * n / both)
            self.spread = float(self.spread + m2 + delta * delta * self.count * n / both)
        self.count += x.size
        return self

    @property
    def mean(self) -> float:
        """The mean of every value added (NaN before any)."""
        if not self.count:
            return float("nan")
        return self.total / self.count if isinstance(self.total, int) else float(self.total)

    @property
    def std(self) -> float:
        """The sample standard deviation (``ddof=1``; NaN below two values)."""
        n = self.count
        if n < 2:
            return float("nan")
        if isinstance(self.total, int) and isinstance(self.spread, int):
            return math.sqrt(Fraction(n * self.spread - self.total**2, n * (n - 1)))
        return math.sqrt(max(0.0, self.spread) / (n - 1))

    def interval(self, level: float = 0.95) -> tuple[float, float, float]:
        """The mean and its normal-approximation interval (mean, low, high); NaN ends below two values."""
        mean = self.mean
        half = _z(level) * self.std / math.sqrt(self.count) if self.count > 1 else float("nan")
        return mean, mean - half, mean + half


def mean_interval(values: ArrayLike, level: float = 0.95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval (mean, low, high)."""
    return Moments().add(values).interval(level)


def clopper_pearson_interval(
    wins: ArrayLike, n: ArrayLike, level: float = 0.95
) -> tuple[FloatArray | float, FloatArray | float]:
    """Exact (Clopper-Pearson) interval from beta quantiles; conservative, never too narrow."""
    x = np.asarray(wins, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    alpha = _alpha(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(x > 0, _scipy().beta.ppf(alpha / 2, x, n - x + 1), 0.0)
        high = np.where(x < n, _scipy().beta.ppf(1 - alpha / 2, x + 1, n - x), 1.0)
    bad = n <= 0
    return _out(np.where(bad, np.nan, low)), _out(np.where(bad, np.nan, high))


class TwoProportionTest(NamedTuple):
    """Result of comparing two independent win rates (cell 1 minus cell 2)."""

    difference: FloatArray | float
    ci_low: FloatArray | float
    ci_high: FloatArray | float
    z: FloatArray | float
    p_value: FloatArray | float


def two_proportion_test(
    w1: ArrayLike, n1: ArrayLike, w2: ArrayLike, n2: ArrayLike, level: float = 0.95
) -> TwoProportionTest:
    """Pooled two-sided z-test of equal win rates, with Newcombe's hybrid-score interval.

    The z statistic matches statsmodels ``proportions_ztest``; the interval for
    ``p1 - p2`` (Newcombe 1998, method 10, built from the two Wilson intervals) matches
    ``confint_proportions_2indep(method="newcomb")``. Identical rates of 0 or 1 give p = 1.
    """
    w1, n1, w2, n2 = (np.asarray(a, dtype=np.float64) for a in (w1, n1, w2, n2))
    p1, p2 = w1 / n1, w2 / n2
    pooled = (w1 + w2) / (n1 + n2)
    se = np.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    diff = p1 - p2
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.copysign(np.inf, diff)))
    p_value = 2.0 * _scipy().norm.sf(np.abs(z))
    l1, u1 = wilson_interval(w1, n1, level)
    l2, u2 = wilson_interval(w2, n2, level)
    low = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return TwoProportionTest(*(_out(a) for a in (diff, low, high, z, p_value)))


class McNemarResult(NamedTuple):
    """McNemar test of a paired comparison; ``exact`` tells which form was used."""

    statistic: float
    p_value: float
    exact: bool


def mcnemar_test(b: int, c: int, exact: bool = False) -> McNemarResult:
    """McNemar test on the discordant counts of a paired (common-random-numbers) comparison.

    ``b`` = battles won only under setting A, ``c`` = won only under B. The asymptotic test without
    continuity correction, ``(b - c)² / (b + c)``: the score test that :func:`paired_difference_interval`
    inverts, so the difference 0 lies inside the interval exactly when ``p ≥ 1 - level``; it keeps its size
    even for few discordant battles (Fagerland, Lydersen & Laake 2013). ``exact=True``: the exact
    conditional binomial test. Both match statsmodels ``mcnemar``.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be ≥ 0, got b={b}, c={c}")
    m = b + c
    if m == 0:
        return McNemarResult(0.0, 1.0, exact)
    if exact:
        return McNemarResult(float(min(b, c)), float(_scipy().binomtest(b, m, 0.5).pvalue), True)
    stat = (b - c) ** 2 / m
    return McNemarResult(stat, float(_scipy().chi2.sf(stat, 1)), False)


def _tango_score(delta: float, b: float, c: float, n: float) -> float:
    """Tango's score statistic for ``pA - pB = delta``: the cell B-only at its maximum likelihood under that
    difference (the root of ``2n p² - [b + c - (2n - b + c) delta] p - c delta (1 - delta) = 0``)."""
    lin = b + c - (2 * n - b + c) * delta
    p21 = (lin + np.sqrt(max(lin * lin + 8 * n * c * delta * (1 - delta), 0.0))) / (4 * n)  # ≥ 0 but for rounding
    var = n * (2 * p21 + delta * (1 - delta))  # > 0 inside (-1, 1) but at delta 0 with no discordant battle
    return (b - c - n * delta) / np.sqrt(var) if var > 0 else 0.0


def _tango_interval(b: float, c: float, n: float, z: float) -> tuple[float, float]:
    """The differences whose score test does not reject: the statistic falls from +inf to -inf in delta."""
    brentq = _scipy_optimize().brentq
    d = (b - c) / n
    edge = 1.0 - 1e-12
    low = -1.0 if _tango_score(-edge, b, c, n) <= z else brentq(lambda x: _tango_score(x, b, c, n) - z, -edge, d, xtol=1e-12)
    high = 1.0 if _tango_score(edge, b, c, n) >= -z else brentq(lambda x: _tango_score(x, b, c, n) + z, d, edge, xtol=1e-12)
    return low, high


def paired_difference_interval(
    b: ArrayLike, c: ArrayLike, n: ArrayLike, level: float = 0.95
) -> tuple[FloatArray | float, FloatArray | float]:
    """Tango's score interval for ``pA - pB`` from ``n`` paired battles with discordant counts ``b`` (A only)
    and ``c`` (B only): the differences the score test (:func:`mcnemar_test` at 0) does not reject. Unlike the
    Wald interval it keeps its coverage with few discordant battles, and is not empty when there are none
    (Tango 1998; Newcombe 1998; ``PropCIs::scoreci.mp``)."""
    b, c, n = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in (b, c, n)))
    if np.any(n <= 0) or np.any(b < 0) or np.any(c < 0) or np.any(b + c > n):
        raise ValueError("need 0 ≤ b, c and b + c ≤ n, with n > 0")
    z = _z(level)
    bounds = np.array([_tango_interval(float(x), float(y), float(m), z) for x, y, m in zip(b.ravel(), c.ravel(), n.ravel())])
    low, high = bounds[:, 0].reshape(b.shape), bounds[:, 1].reshape(b.shape)
    return _out(low), _out(high)


_ADJUST = {"holm": "holm", "bh": "fdr_bh"}


def adjust_pvalues(p: ArrayLike, method: Literal["holm", "bh"] = "holm") -> FloatArray:
    """P-values adjusted for multiple comparisons: Holm (family-wise) or Benjamini-Hochberg (FDR)."""
    if method not in _ADJUST:
        raise ValueError(f"unknown adjustment {method!r} (expected one of: {', '.join(_ADJUST)})")
    p = np.asarray(p, dtype=np.float64)
    if p.size == 0:
        return p.copy()
    from statsmodels.stats.multitest import multipletests

    return multipletests(p, method=_ADJUST[method])[1]


def battles_needed(p: ArrayLike, width: float, level: float = 0.95) -> NDArray[np.int64] | int:
    """Battles for a Wilson interval of total ``width`` at observed win rate ``p``.

    Solves ``width(n) = width`` for the Wilson width ``2 z sqrt(p q / n + z² / 4n²) / (1 + z² / n)``
    (monotone in ``n``); squaring gives ``w² n² + (2 w² z² - 4 z² p q) n + z⁴ (w² - 1) = 0``,
    whose positive root is rounded up.
    """
    if not 0.0 < width < 1.0:
        raise ValueError(f"interval width must be in (0, 1), got {width}")
    p = np.asarray(p, dtype=np.float64)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("win rates must be in [0, 1]")
    z2 = _z(level) ** 2
    w2 = width * width
    a = w2
    b = 2 * w2 * z2 - 4 * z2 * p * (1 - p)
    c = z2 * z2 * (w2 - 1)
    n = np.ceil((-b + np.sqrt(b * b - 4 * a * c)) / (2 * a) - 1e-9).astype(np.int64)
    n = np.maximum(n, 1)
    return int(n) if n.ndim == 0 else n
