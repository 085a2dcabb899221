"""Bloodborne combo dice (BB-8.2): exact distribution, closed-form moments, and the Numba sampler."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from dsim.games.bloodborne.dice import TAIL, BloodborneDice, ComboPool, die_arrays, die_moments, parse_pool, roll_die
from dsim.games.bloodborne.loader import load_data
from dsim.games.bloodborne.schema import Die
from dsim.rng import battle_key

DICE = load_data().entries("dice")
SAMPLES = 200_000
P_THRESHOLD = 1e-3
"""Chi-square rejection level. The seed is fixed, so the test is deterministic; at 1e-3 a correct sampler
would fail for about 1 seed in 1000, while a wrong die (a capped chain, a lost combo face) gives p far
below 1e-10 at 200 000 rolls, as the control test shows."""


@njit(cache=True)
def _sample(values: np.ndarray, combo: np.ndarray, seed: int, n: int) -> np.ndarray:
    """``n`` rolls, roll ``i`` on its own counter-based stream (as the kernel will draw them)."""
    out = np.empty(n, dtype=np.int64)
    rng = np.zeros(2, dtype=np.uint64)
    for i in range(n):
        rng[0] = battle_key(seed, 7, i)
        rng[1] = 0
        out[i] = roll_die(values, combo, rng)
    return out


def _chi_square(rolls: np.ndarray, pool: ComboPool) -> float:
    """p-value of the rolls against the exact pmf, pooling the tail so every expected count is ≥ 5."""
    cut = 0
    while pool.at_least(cut + 1) * SAMPLES >= 5:
        cut += 1
    expected = [float(pool.probability(t)) * SAMPLES for t in range(cut)] + [float(pool.at_least(cut)) * SAMPLES]
    observed = [int(np.sum(rolls == t)) for t in range(cut)] + [int(np.sum(rolls >= cut))]
    return float(chisquare(observed, expected).pvalue)


@pytest.mark.parametrize("die_id", sorted(DICE))
def test_BB_8_2_exact_pmf_sums_to_one_within_the_truncation(die_id: str) -> None:
    pmf, remaining = ComboPool((DICE[die_id],)).truncated()
    assert 0 <= remaining < TAIL
    assert sum(pmf.values()) + remaining == 1
    assert all(isinstance(p, Fraction) for p in pmf.values())


@pytest.mark.parametrize("die_id", sorted(DICE))
def test_BB_8_2_truncated_mean_matches_the_closed_form(die_id: str) -> None:
    die = DICE[die_id]
    pool = ComboPool((die,))
    pmf, _ = pool.truncated()
    mean = sum(t * p for t, p in pmf.items())
    faces = die.faces
    closed = Fraction(sum(f.value for f in faces), 6) / (1 - Fraction(sum(f.combo for f in faces), 6))
    assert pool.mean == closed
    assert abs(float(mean - closed)) < 1e-9


def test_facts_1_table_figures() -> None:
    """facts.md §1: expected total, SD, P(≥3), P(≥5) per die (rounded as printed)."""
    table = {"green": (1.25, 1.20, 0.13, 0.014), "yellow": (1.60, 1.13, 0.25, 0.007), "red": (3.00, 2.00, 0.61, 0.17)}
    for die_id, (mean, sd, p3, p5) in table.items():
        die = DICE[die_id]
        pool = ComboPool((die,))
        got_mean, var = die_moments(die)
        assert round(float(got_mean), 2) == mean and round(float(var) ** 0.5, 2) == sd
        assert round(float(pool.at_least(3)), 2) == p3
        assert round(float(pool.at_least(5)), 3 if p5 < 0.1 else 2) == p5


def test_BB_8_2_seed_example_red_two_plus_then_zero() -> None:
    """P(red = 2) includes the "2+" then "0" chain of seed L82 and the plain 2 face."""
    red = ComboPool((DICE["red"],))
    # plain 2; 1+ then 1; 2+ then 0; 1+,1+ then 0
    sixth = Fraction(1, 6)
    assert red.probability(2) == sixth + sixth * red.probability(1) + sixth * red.probability(0)
    assert red.probability(0) == sixth and red.probability(1) == sixth * sixth


def test_pool_is_the_convolution_of_its_dice() -> None:
    pool = ComboPool((DICE["red"], DICE["red"], DICE["green"]), modifier=1)
    r, g = ComboPool((DICE["red"],)), ComboPool((DICE["green"],))
    for total in range(12):
        conv = sum(
            (r.probability(a) * r.probability(b) * g.probability(total - 1 - a - b)
             for a in range(total) for b in range(total - a)),
            Fraction(0),
        )
        assert pool.probability(total) == conv
    assert pool.mean == 2 * r.mean + g.mean + 1
    assert pool.at_least(1) == 1


def test_zero_valued_combo_face_is_exact() -> None:
    """A "0+" face makes B(0) > 0; the recurrence divides by D_0 = 1 − B(0)."""
    die = Die(id="z", name="Z", source="t", faces=["0+", "0+", 1, 1, 2, 2])
    pool = ComboPool((die,))
    pmf, remaining = pool.truncated()
    assert remaining == 0 and pmf == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    assert pool.mean == Fraction(3, 2)


def test_pool_notation_and_dice_support() -> None:
    dice, modifier = parse_pool("2red+y+1", DICE)
    assert [d.id for d in dice] == ["red", "red", "yellow"] and modifier == 1
    dist = BloodborneDice().roll("2red+yellow")
    assert dist.title == "2red+yellow"
    assert "1e-12" in dist.note and "exact" in dist.note
    assert abs(float(sum(dist.pmf.values())) - 1) < TAIL
    for bad in ("", "purple", "red+", "2x3"):
        with pytest.raises(ValueError):
            parse_pool(bad, DICE)


def test_a_huge_dice_count_is_refused_before_the_pool_is_built() -> None:
    """`99999999999999999999red` raised an OverflowError building a list of that many dice (audit, session 15)."""
    for pool in ("99999999999999999999red", "1000000000red", "30red+21yellow"):
        with pytest.raises(ValueError, match="at most 50"):
            parse_pool(pool, DICE)
    assert len(parse_pool("30red+20yellow", DICE)[0]) == 50


@pytest.mark.parametrize("die_id", sorted(DICE))
def test_BB_8_2_numba_sampler_agrees_with_the_exact_distribution(die_id: str) -> None:
    values, combo = die_arrays(DICE[die_id])
    rolls = _sample(values, combo, 20261203, SAMPLES)
    assert _chi_square(rolls, ComboPool((DICE[die_id],))) > P_THRESHOLD


def test_chi_square_control_rejects_a_die_without_combo_faces() -> None:
    """The test has power: red rolls against red read without its "+" faces are rejected."""
    values, combo = die_arrays(DICE["red"])
    rolls = _sample(values, combo, 20261203, SAMPLES)
    flat = Die(id="flat", name="F", source="t", faces=[0, 1, 2, 2, 3, 4])
    assert _chi_square(rolls, ComboPool((flat,))) < 1e-10
