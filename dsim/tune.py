"""Tune a whole-number house rule so a cell's win rate (or another outcome's mean) reaches a target:
bisection with CRN.

Every value plays the same battles (same seed, the cell's common stream, see
:func:`dsim.compare.crn_stream`), so the win rate as a function of the value is smooth enough
for bisection on the integers: a value's effect is never hidden by fresh dice. The result is the
value whose win rate is closest to the target, its Wilson interval, whether it is within the
tolerance, and the fractional value where the bracketing win rates cross the target. A numeric
measure (e.g. a competitive game's ``rounds``) is tuned the same way on its mean, with a normal
interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dsim.compare import crn_stream, measure_column, with_rules
from dsim.games.base import Game
from dsim.stats import mean_interval, wilson_interval


@dataclass
class TuneResult:
    """Outcome of :func:`tune`; ``evaluations`` maps each tried value to (win rate, CI low, CI high).
    ``win_rate`` is the measured rate or mean of ``measure`` (the success column by default)."""

    rule: str
    target: float
    tolerance: float
    value: int
    win_rate: float
    ci95: tuple[float, float]
    hit: bool
    interpolated: float | None
    evaluations: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    searched: tuple[int, int] | None = None  # the smallest and largest value tried
    measure: str = "win"
    rate: bool = True  # the measure is a yes/no outcome (a rate); False: a number (its mean)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rule": self.rule, "measure": self.measure, "rate": self.rate, "target": self.target, "tolerance": self.tolerance, "value": self.value,
            "win_rate": self.win_rate, "ci95": list(self.ci95), "hit": self.hit, "interpolated": self.interpolated,
            "searched": list(self.searched) if self.searched else None,
            "evaluations": [{"value": v, "win_rate": w, "ci95": [lo, hi]} for v, (w, lo, hi) in sorted(self.evaluations.items())],
        }


def tune(
    game: Game,
    base: Mapping[str, Any],
    rule: str,
    table: str,
    target: float,
    low: int,
    high: int,
    battles: int,
    seed: int,
    tolerance: float = 0.02,
    bounds: tuple[int, int] | None = None,
    widen: int = 6,
    measure: str | None = None,
) -> TuneResult:
    """Find the value of ``rule`` (in settings table ``table``) in ``[low, high]`` whose win rate is nearest ``target``.

    Assumes the win rate is monotone in the value (either direction). If the target lies outside the
    win rates at the two ends, the range widens toward it (``widen`` times at most, inside ``bounds``);
    if it still does, the nearest value is returned with ``hit`` false unless within tolerance, and
    ``searched`` says the range tried.
    """
    if low >= high:
        raise ValueError(f"the search range must have low < high, got {low}..{high}")
    column = measure_column(game, measure)
    stream = crn_stream(base, game.rule_tables)
    seen: dict[int, tuple[float, float, float]] = {}
    kinds: set[bool] = set()

    def rate(value: int) -> float:
        if value not in seen:
            cols = game.play(with_rules(base, {table: {rule: value}}), seed, stream, 0, battles)
            if column not in cols:
                raise ValueError(f"{game.name} has no outcome {column!r} (outcomes: {', '.join(sorted(cols))})")
            values = np.asarray(cols[column])
            kinds.add(values.dtype == bool)
            if values.dtype == bool:
                if not 0.0 <= target <= 1.0:
                    raise ValueError(f"the target of the rate {column!r} must be in [0, 1], got {target}")
                wins = int(np.count_nonzero(values))
                lo, hi = wilson_interval(wins, battles)
                seen[value] = (wins / battles, float(lo), float(hi))
            else:
                seen[value] = mean_interval(values)
        return seen[value][0]

    lo, hi = _bracket(rate, target, low, high, bounds or (-(2**31), 2**31 - 1), widen)
    if (rate(lo) - target) * (rate(hi) - target) < 0:
        side_lo = rate(lo) - target
        while hi - lo > 1:  # invariant: the target lies between rate(lo) and rate(hi)
            mid = (lo + hi) // 2
            side_mid = rate(mid) - target
            if side_mid == 0:
                lo = hi = mid
                break
            if (side_mid < 0) == (side_lo < 0):
                lo, side_lo = mid, side_mid
            else:
                hi = mid
    best = min(seen, key=lambda v: (abs(seen[v][0] - target), v))
    interpolated = None
    r_lo, r_hi = seen[lo][0], seen[hi][0]
    if r_lo != r_hi and min(r_lo, r_hi) <= target <= max(r_lo, r_hi):
        interpolated = lo + (target - r_lo) / (r_hi - r_lo) * (hi - lo)
    elif lo == hi:
        interpolated = float(lo)
    w, ci_lo, ci_hi = seen[best]
    return TuneResult(rule, target, tolerance, best, w, (ci_lo, ci_hi), abs(w - target) <= tolerance, interpolated, seen,
                      (min(seen), max(seen)), column, kinds == {True})


def _bracket(rate: Callable[[int], float], target: float, low: int, high: int, bounds: tuple[int, int],
             widen: int) -> tuple[int, int]:
    """``[low, high]`` widened until its win rates lie on both sides of ``target``: the end on the
    target's side moves out by twice the span each time (both ends while the rate is flat), at most
    ``widen`` times and never past ``bounds`` (the values the rule takes)."""
    low, high = max(low, bounds[0]), min(high, bounds[1])
    for _ in range(widen):
        r_lo, r_hi = rate(low), rate(high)
        if (r_lo - target) * (r_hi - target) <= 0:
            break
        span, below = 2 * (high - low), r_lo < target  # both ends lie on the same side of the target
        up = r_hi == r_lo or (r_hi > r_lo) == below  # the rate heads for the target upwards
        down = r_hi == r_lo or (r_hi > r_lo) != below
        new_low = max(bounds[0], low - span) if down else low
        new_high = min(bounds[1], high + span) if up else high
        if (new_low, new_high) == (low, high):
            break  # at the rule's bounds
        low, high = new_low, new_high
    return low, high
