"""Exact dice distributions (dsim.dice) against icepool as an independent oracle, plus pool parsing."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsim.dice import (
    Pool,
    attack_pmf,
    defend_pmf,
    dodge_probability,
    expected_damage_dealt,
    expected_damage_taken,
    mean,
    parse_pool,
    pmf_array,
    score_roll,
    survival,
    survival_array,
    total_pmf,
)
from dsim.games.dstbg.loader import load_game_data

FACES = {die.letter: tuple(die.faces) for die in load_game_data().dice.values()}

pools = st.builds(
    lambda k, u, o, modifier: Pool.of({"K": k, "U": u, "O": o}, modifier),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(-3, 3),
)


def _oracle_total(pool: Pool, faces: dict[str, tuple[int, ...]]) -> icepool.Die:
    """The pool's floored total built with icepool (sum of dice plus modifier, below 0 → 0)."""
    die = icepool.Die([pool.modifier])
    for letter, count in pool.counts:
        die = die + count @ icepool.Die(list(faces[letter]))
    return die.map(lambda total: max(0, total))


def _as_dict(die: icepool.Die) -> dict[int, Fraction]:
    """An icepool die as ``{outcome: probability}``."""
    return dict(zip(die.outcomes(), die.probabilities(), strict=True))


@given(pools)
def test_R_4_8_total_pmf_matches_icepool(pool: Pool) -> None:
    assert total_pmf(pool, FACES) == _as_dict(_oracle_total(pool, FACES))


@given(pools, st.integers(0, 8))
def test_R_9_4_attack_pmf_matches_icepool(pool: Pool, block: int) -> None:
    oracle = _oracle_total(pool, FACES).map(lambda total: max(0, total - block))
    assert attack_pmf(pool, FACES, block) == _as_dict(oracle)


@given(pools, st.integers(0, 8))
def test_R_9_5_defend_pmf_matches_icepool(pool: Pool, damage: int) -> None:
    oracle = _oracle_total(pool, FACES).map(lambda total: max(0, damage - total))
    assert defend_pmf(pool, FACES, damage) == _as_dict(oracle)


@given(st.integers(0, 8), st.integers(0, 8))
def test_R_9_5_dodge_probability_matches_icepool(n_dice: int, difficulty: int) -> None:
    symbols = n_dice @ icepool.Die(list(FACES["G"]))
    assert dodge_probability(n_dice, difficulty, FACES) == symbols.probability(">=", difficulty)


@settings(max_examples=50)
@given(
    st.lists(st.integers(-2, 5), min_size=1, max_size=8),
    st.integers(0, 5),
    st.integers(-3, 3),
)
def test_house_ruled_faces_match_icepool(faces: list[int], count: int, modifier: int) -> None:
    house = {"K": tuple(faces)}
    pool = Pool.of({"K": count}, modifier)
    assert total_pmf(pool, house) == _as_dict(_oracle_total(pool, house))


def test_R_4_8_estoc_roll_2_1_0_minus_1_deals_2() -> None:
    assert score_roll([2, 1, 0], -1) == 2
    assert score_roll([0, 0, 1], -1) == 0
    assert score_roll([0, 0, 0], -1) == 0  # a total below 0 counts as 0


def test_R_4_8_estoc_3K_minus_1_distribution() -> None:
    # (1 + 3x + 2x²)³ = 1, 9, 33, 63, 66, 36, 8 ways for raw totals 0..6; −1 and the floor merge 0 and 1.
    expected = {0: Fraction(10, 216), 1: Fraction(33, 216), 2: Fraction(63, 216), 3: Fraction(66, 216),
                4: Fraction(36, 216), 5: Fraction(8, 216)}
    pmf = total_pmf(parse_pool("3K-1"), FACES)
    assert pmf == expected
    assert mean(pmf) == Fraction(7, 2) - 1 + Fraction(1, 216)
    assert survival(pmf)[0] == 1
    assert survival(pmf)[5] == Fraction(8, 216)
    assert survival(pmf)[2] == Fraction(63 + 66 + 36 + 8, 216)


def test_F_9_3_dodge_with_zero_dice() -> None:
    assert dodge_probability(0, 1, FACES) == 0
    assert dodge_probability(0, 0, FACES) == 1
    assert dodge_probability(3, 0, FACES) == 1
    assert dodge_probability(1, 1, FACES) == Fraction(1, 2)
    assert dodge_probability(2, 2, FACES) == Fraction(1, 4)
    assert dodge_probability(1, 2, FACES) == 0


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3K-1", "3K-1"),
        ("K+2U", "1K+2U"),
        ("2O+1", "2O+1"),
        ("KKU", "2K+1U"),
        ("K U", "1K+1U"),
        ("2K+1U-1", "2K+1U-1"),
        ("u k k - 1", "2K+1U-1"),
        ("O+K+1+1", "1K+1O+2"),
        ("2KU", "2K+1U"),
        ("3", "3"),
        ("K + -1", "1K-1"),
    ],
)
def test_parse_pool_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_pool(text)) == canonical


def test_parse_pool_counts_and_modifier() -> None:
    pool = parse_pool("2K+1U-1")
    assert (pool.count("K"), pool.count("U"), pool.count("O"), pool.modifier, pool.n_dice) == (2, 1, 0, -1, 3)
    assert pool == Pool.of({"U": 1, "K": 2}, -1)


@given(pools)
def test_parse_pool_round_trips_canonical_form(pool: Pool) -> None:
    assert parse_pool(str(pool)) == pool


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty dice pool"),
        ("   ", "empty dice pool"),
        ("3X", "unknown die 'X'"),
        ("-K", "cannot subtract dice"),
        ("K+", "bad dice pool"),
        ("K--1", "bad dice pool"),
        ("1.5K", "bad term"),
        ("K*2", "bad term"),
        ("201K", "at most 200"),
        ("3 K", "ambiguous pool '3 K': write 3K for 3 dice or K\\+3 to add 3"),  # was read as K+3
        ("K+2 ku", "write 2KU for 2 dice or KU\\+2"),
    ],
)
def test_parse_pool_rejects_bad_pools(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_pool(text)


def test_parse_pool_letters_restrict_the_dice() -> None:
    with pytest.raises(ValueError, match="unknown die 'G'"):
        parse_pool("2G", letters="KUO")
    assert parse_pool("2z", letters="KZ").count("Z") == 2


def test_missing_faces_and_negative_inputs_are_value_errors() -> None:
    with pytest.raises(ValueError, match="no faces known for die 'Z'"):
        total_pmf(Pool.of({"Z": 1}), FACES)
    with pytest.raises(ValueError, match="block must be ≥ 0"):
        attack_pmf(parse_pool("K"), FACES, -1)
    with pytest.raises(ValueError, match="damage must be ≥ 0"):
        defend_pmf(parse_pool("K"), FACES, -1)
    with pytest.raises(ValueError, match="difficulty must be ≥ 0"):
        dodge_probability(1, -1, FACES)


@given(pools)
def test_vectorised_helpers_agree_with_exact(pool: Pool) -> None:
    exact = total_pmf(pool, FACES)
    array = pmf_array(pool, FACES)
    assert len(array) == max(exact) + 1
    np.testing.assert_allclose(array, [float(exact.get(v, 0)) for v in range(len(array))], rtol=1e-12)
    levels = np.arange(-1, 12)
    tail = survival(exact)
    expected_tail = [1.0 if t <= 0 else float(sum(p for v, p in exact.items() if v >= t)) for t in levels]
    np.testing.assert_allclose(survival_array(pool, FACES, levels), expected_tail, rtol=1e-12, atol=1e-15)
    assert float(tail[min(exact)]) == pytest.approx(1.0)
    blocks = np.arange(9)
    np.testing.assert_allclose(
        expected_damage_dealt(pool, FACES, blocks), [float(mean(attack_pmf(pool, FACES, b))) for b in blocks], rtol=1e-12
    )
    np.testing.assert_allclose(
        expected_damage_taken(pool, FACES, blocks), [float(mean(defend_pmf(pool, FACES, d))) for d in blocks], rtol=1e-12
    )
