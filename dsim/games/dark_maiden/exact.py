"""Exact probabilities the Dark Maiden rules imply, as fractions over the outcomes of plain d6.

Used to check the engine and the data against hand counts, and by ``dsim dice roll --game dark_maiden``;
rule IDs refer to ``rules/dark_maiden.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

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


MAX_DICE = 10
"""Largest ``Nd6`` sum :class:`DarkMaidenDice` lists."""


def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` d6 (DM-5.2.1, DM-7.6 pass on 2d6 ≥ 7)."""
    pmf: Counter[int] = Counter({0: 1})
    for _ in range(dice):
        step: Counter[int] = Counter()
        for total, ways in pmf.items():
            for face in FACES:
                step[total + face] += ways
        pmf = step
    return {total: Fraction(ways, 6**dice) for total, ways in sorted(pmf.items())}


def strike_distribution(faces: Iterable[int], damage: int | None = None) -> dict[int, Fraction]:
    """Damage of one die by a hero, enemy, boss or mount: the die's value on a success face, or the fixed
    ``damage`` of a mount (DM-7.2, DM-7.3, DM-7.11); 0 on any other face."""
    hits = _faces(faces)
    pmf: Counter[int] = Counter((damage or face) if face in hits else 0 for face in FACES)
    return {value: Fraction(n, 6) for value, n in sorted(pmf.items())}


class DarkMaidenDice:
    """``dsim dice roll --game dark_maiden``: ``2d6`` (a sum of d6) or an id of a hero, enemy, boss or mount (the
    damage its one die deals)."""

    def roll(self, pool: str, overlay: Path | None = None) -> Any:
        """The exact distribution of ``pool`` with the shipped data (or the overlay's)."""
        from dsim.games.dark_maiden.loader import load_data
        from dsim.games.dark_maiden.schema import DIE_DAMAGE
        from dsim.games.data import Distribution

        text = pool.strip().lower()
        match = re.fullmatch(r"(\d*)d6", text)
        if match:
            dice = int(match.group(1) or 1)
            if not 1 <= dice <= MAX_DICE:
                raise ValueError(f"a sum of 1 to {MAX_DICE} d6, got {dice}")
            return Distribution(f"Dark Maiden: {dice}d6", sum_distribution(dice), "a precipice test and a quick strike "
                                "pass on 2d6 ≥ 7 (DM-5.2.1, DM-7.6)" if dice == 2 else "")
        data = load_data(overlay)
        for kind in ("heroes", "enemies", "bosses"):
            entry = data.entries(kind).get(text)
            if entry is not None:
                note = " (a red 1 calls reinforcements, DM-9.4)" if getattr(entry, "special", None) == \
                    "reinforcements_on_red_1" else ""
                return Distribution(f"Dark Maiden: {entry.name}, damage of one die", strike_distribution(
                    entry.success_faces), f"the die's value on faces {list(entry.success_faces)}{note}")
        mount = data.mounts.get(text)
        if mount is not None:
            fixed = None if mount.damage == DIE_DAMAGE else mount.damage
            return Distribution(f"Dark Maiden: {mount.name}, damage of the rider's die",
                                strike_distribution(mount.attack_faces, fixed), f"on faces {list(mount.attack_faces)}")
        known = sorted({*data.heroes, *data.enemies, *data.bosses, *data.mounts})
        raise ValueError(f"unknown pool {pool!r}: expected Nd6 (e.g. 2d6) or one of {', '.join(known)}")
