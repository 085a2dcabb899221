"""exact.py against an independent brute-force count of the 36 (white, red) rolls, and the issue's values."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dsim.games.dark_maiden import exact
from dsim.games.dark_maiden.loader import load_data

ROLLS = list(itertools.product(range(1, 7), repeat=2))


def test_DM_5_2_1_precipice_pass_is_21_in_36() -> None:
    brute = Fraction(sum(1 for a, b in ROLLS if a + b >= 7), len(ROLLS))
    assert exact.precipice_pass() == brute == Fraction(21, 36)


def test_DM_7_6_quick_strike_success_is_21_in_36() -> None:
    brute = Fraction(sum(1 for a, b in ROLLS if a + b > 6), len(ROLLS))
    assert exact.quick_strike_success() == brute == Fraction(21, 36)


def test_DM_7_5_double_rate_is_one_sixth() -> None:
    assert exact.double_rate() == Fraction(len([1 for w, r in ROLLS if w == r]), 36) == Fraction(1, 6)


def _brute(hero: set[int], enemy: set[int]) -> dict[tuple[int, int, str, bool], Fraction]:
    """Hand-written DM-7.2–7.4 per roll: each side's damage, the strike order when both hit, double."""
    out: dict[tuple[int, int, str, bool], Fraction] = {}
    for white, red in ROLLS:
        h, e = (white if white in hero else 0), (red if red in enemy else 0)
        order = "none" if not (h and e) else {-1: "hero", 0: "together", 1: "enemy"}[(white > red) - (white < red)]
        key = (h, e, order, white == red)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


def _as_tuples(dist: dict[exact.AttackOutcome, Fraction]) -> dict[tuple[int, int, str, bool], Fraction]:
    return {(o.hero_damage, o.enemy_damage, o.first, o.double): p for o, p in dist.items()}


@pytest.mark.parametrize("hero_faces", [{1, 2, 3}, {2, 3, 4}, {3, 4, 5}, {6}, set(range(1, 7))])
@pytest.mark.parametrize("enemy_faces", [{1, 2}, {2, 3}, {3, 5}, {2, 3, 4, 5, 6}, set()])
def test_DM_7_4_attack_distribution_matches_brute_force(hero_faces: set[int], enemy_faces: set[int]) -> None:
    dist = exact.attack_distribution(hero_faces, enemy_faces)
    assert sum(dist.values()) == 1
    assert _as_tuples(dist) == _brute(hero_faces, enemy_faces)


def test_DM_7_2_hit_rate_and_mean_damage_of_shipped_heroes() -> None:
    for hero in load_data().heroes.values():
        dist = exact.attack_distribution(hero.success_faces, ())
        assert sum(p for o, p in dist.items() if o.hero_damage) == Fraction(1, 2)  # three faces of six (L15)
        assert sum(o.hero_damage * p for o, p in dist.items()) == Fraction(sum(hero.success_faces), 6)


def test_DM_7_4_lower_value_strikes_first_equal_values_together() -> None:
    """Amazona (1–3) against the Asesino (2–3): white 1 vs red 3 both hit, the hero's 1 lands first."""
    outcome = exact.attack_outcome(1, 3, (1, 2, 3), (2, 3))
    assert outcome == exact.AttackOutcome(1, 3, "hero", False)
    assert exact.attack_outcome(2, 2, (1, 2, 3), (2, 3)) == exact.AttackOutcome(2, 2, "together", True)


def test_faces_outside_one_to_six_are_refused() -> None:
    with pytest.raises(ValueError):
        exact.attack_distribution([0, 1], [2])
