"""Dice pools and their exact distributions (game-agnostic: die faces are passed in, never read here).

A pool is a number of dice per colour letter plus a flat modifier, written like ``3K-1`` or
``2K+1U-1``. Distributions are exact (:class:`fractions.Fraction`) by convolving the integer
face counts; :func:`pmf_array` and friends give float arrays for policies and the kernel.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

Faces = Mapping[str, Sequence[int]]
"""Die faces keyed by pool letter, e.g. ``{"K": (0, 1, 1, 1, 2, 2), ...}``."""

CANONICAL_ORDER = "KUOG"
"""Order of letters in a written pool: DS:TBG black, blue, orange (weakest to strongest), green;
any other letter follows alphabetically."""

DEFAULT_LETTERS = CANONICAL_ORDER
"""Letters :func:`parse_pool` accepts unless told otherwise."""

MAX_POOL_DICE = 200
"""Largest pool :func:`parse_pool` accepts (guards the CLI against accidental huge convolutions)."""

DODGE_LETTER = "G"
"""Letter of the dodge die used by :func:`dodge_probability` by default."""


def _letter_key(letter: str) -> tuple[int, str]:
    """Sort key putting known letters in :data:`CANONICAL_ORDER`, others after, alphabetically."""
    position = CANONICAL_ORDER.find(letter)
    return (position if position >= 0 else len(CANONICAL_ORDER), letter)


@dataclass(frozen=True)
class Pool:
    """Dice to roll (``counts``: ``(letter, count)`` pairs, count > 0, canonical order) and a flat modifier."""

    counts: tuple[tuple[str, int], ...] = ()
    modifier: int = 0

    def __post_init__(self) -> None:
        merged: Counter[str] = Counter()
        for letter, count in self.counts:
            if not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha() and letter.isupper()):
                raise ValueError(f"die letter must be one upper-case letter, got {letter!r}")
            if count < 0:
                raise ValueError(f"die count must be ≥ 0, got {count} for {letter}")
            merged[letter] += count
        canonical = tuple((k, merged[k]) for k in sorted(merged, key=_letter_key) if merged[k] > 0)
        object.__setattr__(self, "counts", canonical)

    @classmethod
    def of(cls, counts: Mapping[str, int], modifier: int = 0) -> Pool:
        """Build a pool from a ``{letter: count}`` mapping, e.g. ``Pool.of({"K": 3}, -1)``."""
        return cls(tuple(counts.items()), modifier)

    def count(self, letter: str) -> int:
        """Number of dice of one letter in the pool."""
        return dict(self.counts).get(letter, 0)

    @property
    def n_dice(self) -> int:
        """Total number of dice rolled."""
        return sum(count for _, count in self.counts)

    def __str__(self) -> str:
        dice = "+".join(f"{count}{letter}" for letter, count in self.counts)
        if not dice:
            return str(self.modifier)
        return dice + (f"{self.modifier:+d}" if self.modifier else "")


_TERM = re.compile(r"([+-]?)([^+-]+)")
_DICE_GROUP = re.compile(r"(\d*)([A-Z])")


def parse_pool(text: str, letters: Collection[str] = DEFAULT_LETTERS) -> Pool:
    """Parse a pool such as ``3K-1``, ``K+2U``, ``KKU``, ``K U`` or ``2K+1U-1`` (case-insensitive).

    A term is either an integer (added to the modifier) or dice groups like ``2K``, ``KKU`` or ``2KU``
    (a count binds to the letter after it). Raises ``ValueError`` naming the offending term.
    """
    allowed = {letter.upper() for letter in letters}
    spaced = re.search(r"(\d+)\s+([A-Za-z]+)", text)
    if spaced:  # "3 K": three dice, or a die plus 3? Never guessed.
        number, dice = spaced.groups()
        raise ValueError(f"ambiguous pool {text!r}: write {number}{dice.upper()} for {number} dice "
                         f"or {dice.upper()}+{number} to add {number}")
    compact = re.sub(r"\s+", "+", text.strip().upper())
    compact = re.sub(r"\+*([+-])\+*", r"\1", compact)  # "K + -1" -> "K-1"
    if not compact:
        raise ValueError("empty dice pool")
    counts: Counter[str] = Counter()
    modifier = 0
    position = 0
    for match in _TERM.finditer(compact):
        if match.start() != position:
            break
        position = match.end()
        sign, term = match.groups()
        if term.isdigit():
            modifier += -int(term) if sign == "-" else int(term)
            continue
        if sign == "-":
            raise ValueError(f"cannot subtract dice in pool {text!r} (term '-{term}')")
        groups = list(_DICE_GROUP.finditer(term))
        if "".join(g.group(0) for g in groups) != term:
            raise ValueError(f"bad term {term!r} in pool {text!r}; expected e.g. 3K-1, K+2U, KKU")
        for group in groups:
            number, letter = group.groups()
            if letter not in allowed:
                known = ", ".join(sorted(allowed, key=_letter_key))
                raise ValueError(f"unknown die {letter!r} in pool {text!r}; known dice: {known}")
            counts[letter] += int(number) if number else 1
    if position != len(compact):
        raise ValueError(f"bad dice pool {text!r}; expected e.g. 3K-1, K+2U, KKU")
    if sum(counts.values()) > MAX_POOL_DICE:
        raise ValueError(f"pool {text!r} has {sum(counts.values())} dice; at most {MAX_POOL_DICE} are supported")
    return Pool.of(counts, modifier)


def score_roll(faces_rolled: Sequence[int], modifier: int = 0) -> int:
    """Total of one actual roll: sum of the faces plus the modifier, a total below 0 counting as 0 (R-4.8)."""
    return max(0, sum(faces_rolled) + modifier)


def _faces_key(pool: Pool, faces: Faces) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Hashable (count, faces) per die letter of ``pool``; ``ValueError`` for a letter without faces."""
    key = []
    for letter, count in pool.counts:
        if letter not in faces:
            known = ", ".join(sorted(faces, key=_letter_key))
            raise ValueError(f"no faces known for die {letter!r} (known: {known})")
        die = tuple(int(v) for v in faces[letter])
        if not die:
            raise ValueError(f"die {letter!r} has no faces")
        key.append((count, die))
    return tuple(key)


@lru_cache(maxsize=4096)
def _sum_counts(dice: tuple[tuple[int, tuple[int, ...]], ...]) -> tuple[dict[int, int], int]:
    """Number of ways each raw sum occurs (integer convolution) and the number of outcomes."""
    ways: dict[int, int] = {0: 1}
    outcomes = 1
    for count, die in dice:
        face_ways = Counter(die)
        for _ in range(count):
            step: Counter[int] = Counter()
            for total, n in ways.items():
                for face, m in face_ways.items():
                    step[total + face] += n * m
            ways = dict(step)
            outcomes *= len(die)
    return ways, outcomes


def total_pmf(pool: Pool, faces: Faces) -> dict[int, Fraction]:
    """Exact distribution of the pool's total, modifier included, floored at 0 (R-4.8), sorted by value."""
    ways, outcomes = _sum_counts(_faces_key(pool, faces))
    floored: Counter[int] = Counter()
    for raw, n in ways.items():
        floored[max(0, raw + pool.modifier)] += n
    return {value: Fraction(floored[value], outcomes) for value in sorted(floored)}


def _mapped(pmf: Mapping[int, Fraction], outcome: Callable[[int], int]) -> dict[int, Fraction]:
    """Distribution of ``outcome(value)`` for ``value`` drawn from ``pmf``, sorted by outcome."""
    result: dict[int, Fraction] = {}
    for value, p in pmf.items():
        key = outcome(value)
        result[key] = result.get(key, Fraction(0)) + p
    return dict(sorted(result.items()))


def _check_non_negative(name: str, value: int) -> None:
    """``ValueError`` for a negative block, damage, difficulty or die count."""
    if value < 0:
        raise ValueError(f"{name} must be ≥ 0, got {value}")


def attack_pmf(pool: Pool, faces: Faces, block: int) -> dict[int, Fraction]:
    """Damage dealt to an enemy with ``block`` (or resist): ``max(0, total − block)`` (R-9.4)."""
    _check_non_negative("block", block)
    return _mapped(total_pmf(pool, faces), lambda total: max(0, total - block))


def defend_pmf(pool: Pool, faces: Faces, damage: int) -> dict[int, Fraction]:
    """Damage taken from an attack of ``damage`` when blocking or resisting: ``max(0, damage − total)`` (R-9.5)."""
    _check_non_negative("damage", damage)
    return _mapped(total_pmf(pool, faces), lambda total: max(0, damage - total))


def dodge_pool(n_dice: int, letter: str = DODGE_LETTER) -> Pool:
    """The pool of ``n_dice`` dodge dice (their total is the number of dodge symbols)."""
    _check_non_negative("number of dodge dice", n_dice)
    if n_dice > MAX_POOL_DICE:
        raise ValueError(f"{n_dice} dodge dice; at most {MAX_POOL_DICE} are supported")
    return Pool.of({letter: n_dice})


def dodge_probability(n_dice: int, difficulty: int, faces: Faces, letter: str = DODGE_LETTER) -> Fraction:
    """Probability that ``n_dice`` dodge dice show at least ``difficulty`` dodge symbols (R-9.5).

    Difficulty 0 always succeeds; 0 dice against difficulty ≥ 1 always fails (F-9.3).
    """
    _check_non_negative("difficulty", difficulty)
    symbols = total_pmf(dodge_pool(n_dice, letter), faces)
    return sum((p for value, p in symbols.items() if value >= difficulty), Fraction(0))


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """Expected value of an exact distribution."""
    return sum((value * p for value, p in pmf.items()), Fraction(0))


def survival(pmf: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """``P(X ≥ v)`` for every value ``v`` of the distribution, sorted by value."""
    result: dict[int, Fraction] = {}
    tail = Fraction(0)
    for value in sorted(pmf, reverse=True):
        tail += pmf[value]
        result[value] = tail
    return dict(sorted(result.items()))


def pmf_array(pool: Pool, faces: Faces) -> np.ndarray:
    """``P(total = i)`` as float64, indexed by total ``i`` = 0 .. max total (R-4.8 floor included)."""
    import numpy as np
    pmf = total_pmf(pool, faces)
    array = np.zeros(max(pmf) + 1, dtype=np.float64)
    for value, p in pmf.items():
        array[value] = float(p)
    return array


def survival_array(pool: Pool, faces: Faces, thresholds: np.ndarray) -> np.ndarray:
    """``P(total ≥ t)`` for each threshold ``t``: e.g. the probability that a block holds against damage ``t``."""
    import numpy as np
    pmf = pmf_array(pool, faces)
    tail = np.concatenate([np.cumsum(pmf[::-1])[::-1], [0.0]])
    t = np.asarray(thresholds)
    return np.where(t <= 0, 1.0, tail[np.clip(t, 0, len(pmf))])


def expected_damage_dealt(pool: Pool, faces: Faces, blocks: np.ndarray) -> np.ndarray:
    """Mean of ``max(0, total − b)`` for each enemy block/resist ``b`` (R-9.4), as floats."""
    import numpy as np
    pmf = pmf_array(pool, faces)
    totals = np.arange(len(pmf))
    b = np.asarray(blocks)[..., None]
    return (np.maximum(0, totals - b) * pmf).sum(axis=-1)


def expected_damage_taken(pool: Pool, faces: Faces, damages: np.ndarray) -> np.ndarray:
    """Mean of ``max(0, d − total)`` for each incoming damage ``d`` when blocking (R-9.5), as floats."""
    import numpy as np
    pmf = pmf_array(pool, faces)
    totals = np.arange(len(pmf))
    d = np.asarray(damages)[..., None]
    return (np.maximum(0, d - totals) * pmf).sum(axis=-1)
