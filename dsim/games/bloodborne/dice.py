"""Exact maths of the Bloodborne combo dice (BB-8.2): a "+" face adds its value and rolls the same die again.

For one die with ``n`` faces let ``A(z) = Σ_plain z^v / n`` and ``B(z) = Σ_combo z^v / n``; the total
has the generating function ``A(z) / (1 − B(z))`` (chains unbounded). A pool multiplies these, so its
pmf is the coefficient series of ``N(z) / D(z)`` with polynomials ``N = Π A``, ``D = Π (1 − B)``, found
exactly (``Fraction``) by the recurrence ``p(t) = (N_t − Σ_{k≥1} D_k p(t−k)) / D_0``. The support is
infinite when a combo face is ≥ 1, so a listed pmf stops at the first total where the remaining mass
is below 1e-12 (itself exact). Mean and variance are closed forms, P(total ≥ k) is exact for any k.

Pool notation: terms joined by ``+``; a term is ``[count]die`` with a die id or a unique prefix of one
(``red``, ``2red+yellow``, ``r+g``), or a whole number added to the total (``red+1``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
from numba import njit

from dsim.games.bloodborne.schema import Die
from dsim.games.data import Distribution
from dsim.rng import randint

TAIL = 1e-12
"""A listed pmf stops once the mass of larger totals is below this."""
MAX_POOL_DICE = 50
"""Largest pool :func:`parse_pool` accepts (guards the CLI against huge products)."""
_TERM_RE = re.compile(r"\s*(\d*)\s*([a-z_][a-z0-9_]*)\s*|\s*(\d+)\s*")


def _poly_mul(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _plain_and_combo(die: Die) -> tuple[list[Fraction], list[Fraction]]:
    """Coefficients of ``A(z)`` and ``B(z)`` of one die (index = face value)."""
    top = max(face.value for face in die.faces)
    plain, combo = [Fraction(0)] * (top + 1), [Fraction(0)] * (top + 1)
    weight = Fraction(1, len(die.faces))
    for face in die.faces:
        (combo if face.combo else plain)[face.value] += weight
    return plain, combo


def die_moments(die: Die) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of one die's total: with ``p = P(combo)``,
    ``E = E[V] / (1 − p)`` and ``E[T²] = (E[V²] + 2 E[V·combo] E) / (1 − p)``."""
    n = len(die.faces)
    p = Fraction(sum(f.combo for f in die.faces), n)
    ev = Fraction(sum(f.value for f in die.faces), n)
    ev2 = Fraction(sum(f.value**2 for f in die.faces), n)
    evc = Fraction(sum(f.value for f in die.faces if f.combo), n)
    mean = ev / (1 - p)
    second = (ev2 + 2 * evc * mean) / (1 - p)
    return mean, second - mean**2


@dataclass
class ComboPool:
    """The exact distribution of a pool's total (dice plus a flat ``modifier``)."""

    dice: tuple[Die, ...]
    modifier: int = 0
    _num: list[Fraction] = field(init=False, repr=False)
    _den: list[Fraction] = field(init=False, repr=False)
    _pmf: list[Fraction] = field(init=False, repr=False, default_factory=list)

    def __post_init__(self) -> None:
        num, den = [Fraction(1)], [Fraction(1)]
        for die in self.dice:
            plain, combo = _plain_and_combo(die)
            num = _poly_mul(num, plain)
            den = _poly_mul(den, [1 - combo[0], *(-c for c in combo[1:])])
        self._num, self._den = num, den

    @property
    def mean(self) -> Fraction:
        """Exact mean (closed form, sum of the dice's ``E[V] / (1 − p)``) plus the modifier."""
        return sum((die_moments(die)[0] for die in self.dice), Fraction(self.modifier))

    @property
    def variance(self) -> Fraction:
        """Exact variance (closed form; the dice are independent)."""
        return sum((die_moments(die)[1] for die in self.dice), Fraction(0))

    def _dice_total(self, t: int) -> Fraction:
        """P(dice total = t), extending the recurrence as far as needed."""
        while len(self._pmf) <= t:
            i = len(self._pmf)
            value = self._num[i] if i < len(self._num) else Fraction(0)
            for k in range(1, min(i, len(self._den) - 1) + 1):
                value -= self._den[k] * self._pmf[i - k]
            self._pmf.append(value / self._den[0])
        return self._pmf[t]

    def probability(self, total: int) -> Fraction:
        """Exact P(total = ``total``)."""
        t = total - self.modifier
        return self._dice_total(t) if t >= 0 else Fraction(0)

    def at_least(self, k: int) -> Fraction:
        """Exact P(total ≥ k) = 1 − Σ_{t<k} P(t)."""
        return 1 - sum((self.probability(t) for t in range(self.modifier, k)), Fraction(0))

    def truncated(self, tail: float = TAIL) -> tuple[dict[int, Fraction], Fraction]:
        """Exact probabilities of the totals up to the first one after which less than ``tail`` remains,
        and that remaining mass (0 when the support is finite)."""
        pmf: dict[int, Fraction] = {}
        remaining, t = Fraction(1), 0
        while remaining >= tail and remaining > 0:
            p = self._dice_total(t)
            if p:
                pmf[t + self.modifier] = p
            remaining -= p
            t += 1
        return pmf, remaining


def parse_pool(pool: str, dice: dict[str, Die]) -> tuple[tuple[Die, ...], int]:
    """``"2red+yellow+1"`` → the dice to roll and the flat modifier (``ValueError`` naming the bad term)."""
    chosen: list[Die] = []
    modifier = 0
    if not pool.strip():
        raise ValueError(f"empty pool; write e.g. 'red' or '2red+yellow' (dice: {', '.join(dice)})")
    for term in pool.lower().split("+"):
        match = _TERM_RE.fullmatch(term)
        if match is None:
            raise ValueError(f"bad pool term {term!r}; expected [count]die (dice: {', '.join(dice)}) or a whole number")
        if match[3] is not None:
            modifier += int(match[3])
            continue
        names = [name for name in dice if name.startswith(match[2])]
        exact = [name for name in names if name == match[2]]
        if len(exact or names) != 1:
            why = "ambiguous" if names else "unknown"
            raise ValueError(f"{why} die {match[2]!r} in the pool; expected one of {', '.join(dice)}")
        count = int(match[1] or 1)
        if len(chosen) + count > MAX_POOL_DICE:  # before the list is built: 10**20 dice would not fit in memory
            raise ValueError(f"a pool of {len(chosen) + count:,} dice; at most {MAX_POOL_DICE}")
        chosen += [dice[(exact or names)[0]]] * count
    if not chosen:
        raise ValueError("the pool has no die")
    return tuple(chosen), modifier


def pool_distribution(pool: str, dice: dict[str, Die], tail: float = TAIL) -> Distribution:
    """The distribution of a pool for ``dsim dice roll``, with the truncation and exact mean in the note."""
    chosen, modifier = parse_pool(pool, dice)
    maths = ComboPool(chosen, modifier)
    pmf, remaining = maths.truncated(tail)
    mean = maths.mean
    note = (
        f"exact probabilities from the generating function A(z)/(1-B(z)) per die (combo chains unbounded); "
        f"listed totals stop where the remaining mass is below {tail:g} (remaining: {float(remaining):.3g}); "
        f"mean {mean} = {float(mean):.6g} (closed form, exact)"
    )
    counts: dict[str, int] = {}
    for die in chosen:
        counts[die.id] = counts.get(die.id, 0) + 1
    title = "+".join(f"{n}{die_id}" if n > 1 else die_id for die_id, n in counts.items())
    return Distribution(title=title + (f"+{modifier}" if modifier else ""), pmf=pmf, note=note, beyond=remaining,
                        mean=mean)


class BloodborneDice:
    """``dsim dice roll`` for Bloodborne: pools of monster dice in the notation of this module."""

    def roll(self, pool: str, overlay: Path | None = None) -> Distribution:
        """The distribution of ``pool`` with the shipped dice (or the overlay's)."""
        from dsim.games.bloodborne.loader import load_data

        return pool_distribution(pool, load_data(overlay).entries("dice"))


def die_arrays(die: Die) -> tuple[np.ndarray, np.ndarray]:
    """A die as the arrays :func:`roll_die` takes: face values (int64) and combo flags (bool)."""
    values = np.array([face.value for face in die.faces], dtype=np.int64)
    combo = np.array([face.combo for face in die.faces], dtype=np.bool_)
    return values, combo


@njit(cache=True)
def roll_die(faces_values: np.ndarray, faces_combo: np.ndarray, rng: np.ndarray) -> int:
    """One roll of a combo die (BB-8.2): add the face, roll again while it is a combo face.

    Chains are unbounded; they end with probability 1 because the loader demands a plain face."""
    n = faces_values.shape[0]
    total = 0
    while True:
        i = randint(rng, n)
        total += faces_values[i]
        if not faces_combo[i]:
            return total
