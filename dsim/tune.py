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

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dsim.compare import crn_stream, measure_column, with_rules
from dsim.games.base import Game
from dsim.play import chunks
from dsim.stats import Moments, wilson_interval
from dsim.variants import INT32


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
    bracketed: bool = True  # the target lies between the measures at the two ends of ``searched``
    stopped: str | None = None  # not bracketed: why the range stopped widening, e.g. "it does not change from -3 to -21"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rule": self.rule, "measure": self.measure, "rate": self.rate, "target": self.target, "tolerance": self.tolerance, "value": self.value,
            "win_rate": self.win_rate, "ci95": list(self.ci95), "hit": self.hit, "interpolated": self.interpolated,
            "searched": list(self.searched) if self.searched else None,
            "bracketed": self.bracketed, "stopped": self.stopped,
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
    on_chunk: Callable[[int], None] = lambda n: None,
) -> TuneResult:
    """Find the value of ``rule`` (in settings table ``table``) in ``[low, high]`` whose win rate is nearest ``target``.

    Assumes the win rate is monotone in the value (either direction). If the target lies outside the
    win rates at the two ends, the range widens toward it (``widen`` times at most, inside ``bounds``,
    and not past a stretch where the measure stops changing); if it still does, the nearest value is
    returned with ``hit`` false unless within tolerance, ``bracketed`` false, ``stopped`` saying why
    the widening stopped and ``searched`` the range tried. Each value plays its battles chunk by chunk
    (memory stays flat); ``on_chunk`` gets the plays of each chunk.
    """
    if low >= high:
        raise ValueError(f"the search range must have low < high, got {low}..{high}")
    if not (math.isfinite(target) and math.isfinite(tolerance)):
        raise ValueError(f"the target and the tolerance must be finite numbers, got {target} and {tolerance}")
    bounds = bounds or INT32
    if max(low, bounds[0]) >= min(high, bounds[1]):
        raise ValueError(f"the search range {low}..{high} leaves no room inside the values {rule} takes "
                         f"({bounds[0]}..{bounds[1]})")
    column = measure_column(game, measure)
    stream = crn_stream(base, game.rule_tables)
    seen: dict[int, tuple[float, float, float]] = {}
    plays: dict[int, tuple[bytes, bytes, bool]] = {}  # digests of the measure's and of every column, measure constant
    kinds: set[bool] = set()

    def rate(value: int) -> float:
        if value not in seen:
            seen[value], plays[value] = measured(value)
        return seen[value][0]

    def measured(value: int) -> tuple[tuple[float, float, float], tuple[bytes, bytes, bool]]:
        """The measure's rate or mean with its interval at ``value``, and the digests :func:`unchanged` compares,
        from the plays chunk by chunk (memory stays flat whatever the count)."""
        settings = with_rules(base, {table: {rule: value}})
        digest, every, moments = hashlib.sha256(), hashlib.sha256(), Moments()
        first: Any = None
        constant = True
        for start, n in chunks(battles):
            cols = game.play(settings, seed, stream, start, n)
            if column not in cols:
                raise ValueError(f"{game.name} has no outcome {column!r} (outcomes: {', '.join(sorted(cols))})")
            values = np.asarray(cols[column])
            if values.dtype == bool:
                if not 0.0 <= target <= 1.0:
                    raise ValueError(f"the target of the rate {column!r} must be in [0, 1], got {target}")
                if tolerance >= 1.0:
                    raise ValueError(f"a tolerance of {tolerance} accepts every rate of {column!r}; give one below 1")
            digest.update(values.tobytes())
            for name in sorted(cols):
                every.update(name.encode() + np.ascontiguousarray(cols[name]).tobytes())
            first = values.flat[0] if first is None else first
            constant = constant and bool((values == first).all())
            moments.add(values)
            on_chunk(n)
        kinds.add(values.dtype == bool)
        if values.dtype == bool:
            wins = int(moments.total)
            lo, hi = wilson_interval(wins, battles)
            figures = (wins / battles, float(lo), float(hi))
        else:
            figures = moments.interval()
        return figures, (digest.digest(), every.digest(), constant)

    def unchanged(a: int, b: int) -> bool:
        """The measure is the same play by play at ``a`` and ``b``; when it is one value in every play (a
        0% or 100% rate, a floor), that can hide a real effect, so then every outcome must be the same."""
        rate(a), rate(b)
        (measure_a, every_a, constant_a), (measure_b, every_b, constant_b) = plays[a], plays[b]
        return measure_a == measure_b and (not (constant_a and constant_b) or every_a == every_b)

    lo, hi, stopped = _bracket(rate, unchanged, target, low, high, bounds, widen, rule)
    bracketed = (rate(lo) - target) * (rate(hi) - target) <= 0
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
                      (min(seen), max(seen)), column, kinds == {True}, bracketed, None if bracketed else stopped)


def _bracket(rate: Callable[[int], float], unchanged: Callable[[int, int], bool], target: float, low: int,
             high: int, bounds: tuple[int, int], widen: int, rule: str = "the rule") -> tuple[int, int, str]:
    """``[low, high]`` widened until its win rates lie on both sides of ``target``: the end on the
    target's side moves out by twice the span each time (both ends while the rate is flat), at most
    ``widen`` times, never past ``bounds`` (the values the rule takes) and no further in a direction
    once the measure is ``unchanged`` over the last step that way (a floor: enemy health cannot go
    below 1). Returns the range and why it stopped widening (meaningful if the target is still outside)."""
    low, high = max(low, bounds[0]), min(high, bounds[1])
    flat: dict[str, str] = {}  # direction → "it does not change from a to b"
    for _ in range(widen):
        r_lo, r_hi = rate(low), rate(high)
        if (r_lo - target) * (r_hi - target) <= 0:
            return low, high, ""
        span, wanted = 2 * (high - low), _toward(r_lo, r_hi, target)
        new_low = max(bounds[0], low - span) if wanted["down"] and "down" not in flat else low
        new_high = min(bounds[1], high + span) if wanted["up"] and "up" not in flat else high
        if (new_low, new_high) == (low, high):
            return low, high, _why(wanted, flat, low, high, bounds, rule)
        if new_low != low and unchanged(new_low, low):
            flat["down"] = f"it does not change from {low} to {new_low}"
        if new_high != high and unchanged(high, new_high):
            flat["up"] = f"it does not change from {high} to {new_high}"
        low, high = new_low, new_high
    r_lo, r_hi = rate(low), rate(high)
    blocked = _why(_toward(r_lo, r_hi, target), flat, low, high, bounds, rule)
    if (r_lo - target) * (r_hi - target) > 0 and blocked:
        return low, high, blocked
    times = f"{widen} time{'s' if widen != 1 else ''}"
    return low, high, f"the range widened {times} (give a wider --low/--high to search further)"


def _toward(r_lo: float, r_hi: float, target: float) -> dict[str, bool]:
    """The directions in which the rate heads for ``target`` (both ends lie on the same side of it): both
    while it is the same at the two ends."""
    below = r_lo < target
    return {"down": r_hi == r_lo or (r_hi > r_lo) != below, "up": r_hi == r_lo or (r_hi > r_lo) == below}


def _why(wanted: dict[str, bool], flat: dict[str, str], low: int, high: int, bounds: tuple[int, int], rule: str) -> str:
    """Why the range cannot widen in any of the directions ``wanted`` (the measure is flat there, or the rule's
    values end), or ``""`` if it could."""
    reasons = []
    for direction, end, bound, word in (("down", low, bounds[0], "below"), ("up", high, bounds[1], "above")):
        if not wanted[direction]:
            continue
        if direction in flat:
            reasons.append(flat[direction])
        elif end == bound:
            reasons.append(f"{rule} takes no value {word} {bound}")
        else:
            return ""
    return " and ".join(reasons)
