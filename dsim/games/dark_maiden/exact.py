"""Exact probabilities the Dark Maiden rules imply, as fractions over the 36 outcomes of two d6.

Used to check the engine and the data against hand counts; rule IDs refer to ``rules/dark_maiden.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

FACES = range(1, 7)
PASS_TOTAL = 7  # DM-5.2.1 and DM-7.6: a 2d6 total of 7 or more passes
First = Literal["hero", "enemy", "together", "none"]


def _two_dice_at_least(total: int) -> Fraction:
    """P(2d6 ≥ total)."""
    return Fraction(sum(a + b >= total for a in FACES for b in FACES), 36)


def precipice_pass() -> Fraction:
    """A hero passes a precipice on 2d6 ≥ 7 (DM-5.2.1): 21/36."""
    return _two_dice_at_least(PASS_TOTAL)


def quick_strike_success() -> Fraction:
    """A quick strike succeeds on 2d6 ≥ 7 whatever the faces (DM-7.6): 21/36."""
    return _two_dice_at_least(PASS_TOTAL)


def double_rate() -> Fraction:
    """The white and red dice of an attack roll (DM-7.1) show the same value (DM-7.5): 1/6."""
    return Fraction(sum(w == r for w in FACES for r in FACES), 36)


@dataclass(frozen=True, order=True)
class AttackOutcome:
    """One attack roll's result: damage each side deals (0 = miss), who lands first, and whether it is a double.

    ``first`` is ``"none"`` unless both sides hit (DM-7.4: lower value first, equal values together).
    """

    hero_damage: int
    enemy_damage: int
    first: First
    double: bool


def _faces(faces: Iterable[int]) -> frozenset[int]:
    chosen = frozenset(faces)
    if not chosen <= set(FACES):
        raise ValueError(f"faces must be 1..6, got {sorted(chosen)}")
    return chosen


def attack_outcome(white: int, red: int, hero_faces: Iterable[int], enemy_faces: Iterable[int]) -> AttackOutcome:
    """The outcome of one white/red roll for a hero and one enemy (DM-7.1–7.4), before specials and armour."""
    hero_hit = white in _faces(hero_faces)  # DM-7.2: success on a printed face, damage = die value
    enemy_hit = red in _faces(enemy_faces)  # DM-7.3: success on its faces, damage = red value to the attacker
    first: First = "none"
    if hero_hit and enemy_hit:  # DM-7.4: weaker strikes first; equal values land together
        first = "hero" if white < red else "enemy" if red < white else "together"
    return AttackOutcome(white if hero_hit else 0, red if enemy_hit else 0, first, white == red)


def attack_distribution(hero_faces: Iterable[int], enemy_faces: Iterable[int]) -> dict[AttackOutcome, Fraction]:
    """Exact distribution of :func:`attack_outcome` over the 36 equally likely (white, red) rolls (DM-7.1)."""
    hero, enemy = _faces(hero_faces), _faces(enemy_faces)
    counts = Counter(attack_outcome(w, r, hero, enemy) for w in FACES for r in FACES)
    return {outcome: Fraction(n, 36) for outcome, n in sorted(counts.items())}
