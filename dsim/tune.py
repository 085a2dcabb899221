"""Tune a whole-number house rule so a cell's win rate reaches a target: bisection with CRN.

Every value plays the same battles (same seed, the cell's common stream, see
:func:`dsim.compare.crn_stream`), so the win rate as a function of the value is smooth enough
for bisection on the integers: a value's effect is never hidden by fresh dice. The result is the
value whose win rate is closest to the target, its Wilson interval, whether it is within the
tolerance, and the fractional value where the bracketing win rates cross the target.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dsim.compare import crn_stream, with_rules
from dsim.games.base import Game
from dsim.stats import wilson_interval


@dataclass
class TuneResult:
    """Outcome of :func:`tune`; ``evaluations`` maps each tried value to (win rate, CI low, CI high)."""

    rule: str
    target: float
    tolerance: float
    value: int
    win_rate: float
    ci95: tuple[float, float]
    hit: bool
    interpolated: float | None
    evaluations: dict[int, tuple[float, float, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rule": self.rule, "target": self.target, "tolerance": self.tolerance, "value": self.value,
            "win_rate": self.win_rate, "ci95": list(self.ci95), "hit": self.hit, "interpolated": self.interpolated,
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
) -> TuneResult:
    """Find the value of ``rule`` (in settings table ``table``) in ``[low, high]`` whose win rate is nearest ``target``.

    Assumes the win rate is monotone in the value (either direction); if the target lies outside
    the win rates at the two ends, the nearer end is returned with ``hit`` false unless within tolerance.
    """
    if low >= high:
        raise ValueError(f"the search range must have low < high, got {low}..{high}")
    if not 0.0 <= target <= 1.0:
        raise ValueError(f"the target win rate must be in [0, 1], got {target}")
    stream = crn_stream(base, game.rule_tables)
    seen: dict[int, tuple[float, float, float]] = {}

    def rate(value: int) -> float:
        if value not in seen:
            cols = game.play(with_rules(base, {table: {rule: value}}), seed, stream, 0, battles)
            wins = int(np.count_nonzero(cols[game.outcome.success]))
            lo, hi = wilson_interval(wins, battles)
            seen[value] = (wins / battles, float(lo), float(hi))
        return seen[value][0]

    lo, hi = low, high
    side_lo = rate(lo) - target
    if side_lo * (rate(hi) - target) < 0:
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
    return TuneResult(rule, target, tolerance, best, w, (ci_lo, ci_hi), abs(w - target) <= tolerance, interpolated, seen)
