"""The Dark Maiden kernel's dice against the exact values of :mod:`dsim.games.dark_maiden.exact` (fixed seeds).

Each sample is a hand-set scene (``tests/dark_maiden/kit.py``) rolling random dice: scene ``i`` is reseeded with
game ``i``'s stream (``kit.reseed``), never forced. A rate passes when the 99.9% Wilson interval of its count
holds the exact value, and each interval is also shown to exclude the nearest wrong value (the test has power).
The one-hero exchange is a chi-square test of the whole (hero damage, enemy damage) distribution.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pytest
from scipy.stats import chisquare

from dsim.games.dark_maiden import exact
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.loader import load_data
from dsim.stats import wilson_interval
from tests.dark_maiden import kit as K

LEVEL = 0.999
"""Confidence of the Wilson intervals: a correct kernel fails one rate test in 1000 seeds."""
P_THRESHOLD = 1e-3
"""Chi-square: a correct kernel fails at this p for about 1 seed in 1000; a wrong rule moves whole cells."""
PRECIPICES = 5_000
"""Precipice steps of four heroes and one enemy: 20 000 hero tests, 5 000 enemy tests."""
STRIKES = 20_000
EXCHANGES = 36_000
TWO_DICE_AT_LEAST = {total: Fraction(sum(a + b >= total for a in range(1, 7) for b in range(1, 7)), 36)
                     for total in (6, 7, 8)}


def logged(s) -> dict[str, list[dict]]:
    """The scene's trace events by name."""
    out: dict[str, list[dict]] = {}
    for e in K.events(s):
        out.setdefault(e["event"], []).append(e)
    return out


def assert_rate(count: int, n: int, value: Fraction, wrong: tuple[Fraction, ...]) -> None:
    """The 99.9% Wilson interval of ``count`` in ``n`` holds ``value`` and none of the ``wrong`` values."""
    low, high = (float(x) for x in wilson_interval(count, n, LEVEL))
    assert low <= value <= high, f"{count}/{n}: interval ({low:.4f}, {high:.4f}) misses {float(value):.4f}"
    for other in wrong:
        assert not low <= other <= high, f"{count}/{n} cannot tell {float(value):.4f} from {float(other):.4f}"


def test_DM_5_2_1_precipice_tests_pass_21_in_36_and_failures_fall():
    """Four heroes and an Asesino on a precipice: each hero tests once in turn order (DM-5.2.1), then the team once
    for the enemies (DM-5.2.4); a failed hero test is a fall (DM-5.2.3), a failed enemy test throws the Asesino off.
    Both rates are 2d6 ≥ 7 = 21/36, not ≥ 6 (26/36) nor ≥ 8 (15/36)."""
    party = ("amazona", "barbara", "guerrero", "amazona")
    heroes = Counter[bool]()
    enemies = Counter[bool]()
    falls = thrown = 0
    for i in range(PRECIPICES):
        s = K.reseed(K.scene(party), i)
        K.add_foe(s, "asesino")
        K.step(s, "precipice")
        ev = logged(s)
        tests = ev["precipice"]
        assert [e["seat"] for e in tests] == [0, 1, 2, 3]
        assert all(e["passed"] == (e["white"] + e["red"] >= exact.PASS_TOTAL) for e in tests)
        heroes.update(e["passed"] for e in tests)
        (enemy,) = ev["enemy_precipice"]
        enemies[enemy["passed"]] += 1
        falls += len(ev.get("fall", []))
        thrown += len(ev.get("foe_falls", []))
    assert falls == heroes[False] and thrown == enemies[False]
    wrong = (TWO_DICE_AT_LEAST[6], TWO_DICE_AT_LEAST[8])
    assert_rate(heroes[True], heroes.total(), exact.precipice_pass(), wrong)
    assert_rate(enemies[True], enemies.total(), exact.precipice_pass(), wrong)


def test_DM_7_6_quick_strike_succeeds_21_in_36_and_silences_its_target():
    """Amazona quick-strikes a lone Asesino (DM-7.6): 2d6 ≥ 7 deals 2 damage and the Asesino cannot strike back;
    she is exhausted either way. The success rate is 21/36 whatever her faces."""
    done = Counter[bool]()
    quick = K.script(attack="quick strike")
    for i in range(STRIKES):
        s = K.reseed(K.scene(), i)
        K.add_foe(s, "asesino")
        K.step(s, "attack", 0, quick)
        ev = logged(s)
        (roll,) = ev["roll"]
        hits = ev.get("hero_hits", [])
        success = roll["white"] + roll["red"] >= exact.PASS_TOTAL
        assert roll["roll"] == "quick strike" and [h["damage"] for h in hits] == ([2] if success else [])
        assert not (success and "enemies_hit" in ev)
        assert s.heroes[0, L.H_EXHAUSTED] == 1
        done[success] += 1
    assert_rate(done[True], STRIKES, exact.quick_strike_success(), (TWO_DICE_AT_LEAST[6], TWO_DICE_AT_LEAST[8]))


@lru_cache(maxsize=None)
def exchanges(hero: str, enemy: str) -> tuple[Counter[tuple[int, int]], Counter[bool], int]:
    """``EXCHANGES`` attack steps of a fresh ``hero`` (potions kept, a normal roll, a double accepted) against one
    ``enemy`` at full vitality: the (damage the hero dealt, damage the enemy dealt) counts, the attack rolls by
    double or not, and how many times the double choice (DM-7.5, DM-7.7) was offered."""
    pairs = Counter[tuple[int, int]]()
    doubles = Counter[bool]()
    offered = 0
    for i in range(EXCHANGES):
        s = K.reseed(K.scene((hero,)), i)
        K.add_foe(s, enemy)
        K.step(s, "attack", 0)
        ev = logged(s)
        (roll,) = ev["roll"]
        doubles[roll["white"] == roll["red"]] += 1
        offered += sum(e["hook"] == "double" for e in ev["decision"])
        pairs[sum(e["damage"] for e in ev.get("hero_hits", [])),
              sum(e["damage"] for e in ev.get("enemies_hit", []))] += 1
    return pairs, doubles, offered


def expected_exchange(hero: str, enemy: str, strike_first: bool = True) -> dict[tuple[int, int], Fraction]:
    """:func:`exact.attack_distribution` with the order of DM-7.4 applied: an enemy killed by damage that lands first
    deals nothing. Amazona's successful double lands first (DM-7.5) unless ``strike_first`` is false. Valid while no
    enemy strike can kill the hero (else DM-7.8's bonus attack would enter)."""
    data = load_data()
    h, e = data.heroes[hero], data.enemies[enemy]
    assert max(e.success_faces) < h.vitality and e.armour == 0
    first_on_double = strike_first and h.special == "strike_first_on_double"
    out: dict[tuple[int, int], Fraction] = {}
    for o, p in exact.attack_distribution(h.success_faces, e.success_faces).items():
        lands_first = o.first == "hero" or (o.first == "together" and first_on_double)
        key = (o.hero_damage, 0 if lands_first and o.hero_damage >= e.vitality else o.enemy_damage)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def p_value(observed: Counter[tuple[int, int]], expected: dict[tuple[int, int], Fraction]) -> float:
    """Chi-square p-value of the observed pairs against the exact distribution (every pair seen is expected)."""
    assert set(observed) <= set(expected), set(observed) - set(expected)
    n = observed.total()
    keys = sorted(expected)
    return float(chisquare([observed[k] for k in keys], [float(expected[k]) * n for k in keys]).pvalue)


@pytest.mark.parametrize(("hero", "enemy"), [("amazona", "asesino"), ("barbara", "asesino"),
                                             ("guerrero", "mercenaria")])
def test_DM_7_4_one_exchange_follows_the_exact_attack_distribution(hero, enemy):
    """One attack roll of a hero against one enemy (DM-7.1–7.4): the pair (damage dealt, damage taken) follows the
    exact distribution over the 36 rolls; doubles come up 1/6 of the time (DM-7.5), and each one offers the
    double choice to the hero (not exhausted)."""
    pairs, doubles, offered = exchanges(hero, enemy)
    assert p_value(pairs, expected_exchange(hero, enemy)) > P_THRESHOLD
    assert offered == doubles[True]
    assert_rate(doubles[True], EXCHANGES, exact.double_rate(), (Fraction(1, 5), Fraction(1, 7)))  # a d5, a d7


def test_DM_7_5_without_amazona_striking_first_the_exchange_test_rejects():
    """Control: Amazona's exchanges read as if her double landed together with the Asesino's (a 3–3 double would
    then cost her 3) fail the chi-square test, so it can see one cell of 36 move."""
    pairs, _, _ = exchanges("amazona", "asesino")
    assert pairs[3, 3] == 0 and pairs[3, 0] > 0
    assert p_value(pairs, expected_exchange("amazona", "asesino", strike_first=False)) < 1e-10
