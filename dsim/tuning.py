"""Noise-aware tuning of a policy's parameter vector (issue 5).

Candidates are the incumbent (at first the defaults) plus a Latin-hypercube sample of a box
(``scipy.stats.qmc``): the whole parameter box in the first stage, then a box shrunk around the
incumbent in each later stage. Successive halving plays every surviving candidate on the *same*
battles (common random numbers: one seed, one stream, the same battle indices), keeps the best
``1/eta`` and gives the survivors ``eta`` times more battles. The winner and the defaults are then
replayed on fresh, shared validation battles, so the reported win rates (Wilson intervals) and the
paired gain (interval from the discordant battles, McNemar test) are free of the selection bias.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import qmc

from dsim.games.base import Evaluate
from dsim.play import chunks, count_true
from dsim.stats import mcnemar_test, paired_difference_interval, wilson_interval

VALIDATION_START = 1 << 40  # validation battles never overlap the search battles
STAGE_OFFSET = 1 << 32  # each stage plays its own battles, so an incumbent's luck is not carried over


@dataclass(frozen=True)
class Bounds:
    """The box searched: parameter names, defaults and [low, high] per parameter."""

    names: tuple[str, ...]
    defaults: np.ndarray
    low: np.ndarray
    high: np.ndarray
    whole: np.ndarray | None = None  # bool per parameter: whole numbers only (None: none is)


@dataclass(frozen=True)
class HalvingRound:
    """One round of successive halving: how many candidates played, and their battles so far."""

    stage: int
    candidates: int
    battles_each: int
    best_rate: float


@dataclass
class TuneResult:
    """Outcome of a tuning run (win rates measured on the validation battles)."""

    names: tuple[str, ...]
    defaults: dict[str, float]
    best: dict[str, float]
    best_is_default: bool
    validation_battles: int
    best_wins: int
    default_wins: int
    best_ci: tuple[float, float]
    default_ci: tuple[float, float]
    gain: float
    gain_ci: tuple[float, float]
    only_best: int
    only_default: int
    mcnemar_p: float
    search_battles: int
    rounds: list[HalvingRound] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (rates as floats, intervals as 2-lists)."""
        n = self.validation_battles
        return {
            "best": self.best, "defaults": self.defaults, "best_is_default": self.best_is_default,
            "validation_battles": n, "search_battles": self.search_battles,
            "best_win_rate": self.best_wins / n, "best_ci95": list(self.best_ci),
            "default_win_rate": self.default_wins / n, "default_ci95": list(self.default_ci),
            "gain": self.gain, "gain_ci95": list(self.gain_ci),
            "won_only_best": self.only_best, "won_only_default": self.only_default, "mcnemar_p": self.mcnemar_p,
            "rounds": [r.__dict__ for r in self.rounds],
        }


def latin_hypercube(low: np.ndarray, high: np.ndarray, count: int, seed: int,
                    whole: np.ndarray | None = None) -> np.ndarray:
    """``count`` Latin-hypercube points scaled to the box [low, high] (one row per candidate). A ``whole``
    coordinate is drawn on [low − ½, high + ½] and rounded, so each whole number in [low, high] is equally
    likely (scaling to [low, high] and rounding would give both ends half a share)."""
    if count <= 0:
        return np.zeros((0, len(low)))
    sample = qmc.LatinHypercube(d=len(low), seed=seed).random(count)
    if whole is None or not whole.any():
        return low + sample * (high - low)
    low, high = np.where(whole, np.ceil(low), low), np.where(whole, np.floor(high), high)  # whole ends
    pad = np.where(whole, 0.5, 0.0)
    points = (low - pad) + sample * (high - low + 2 * pad)
    return np.where(whole, np.clip(np.round(points), low, high), points)


def distinct_rows(vectors: np.ndarray) -> np.ndarray:
    """The rows of ``vectors`` without repeats, in their first order (rounded whole coordinates can repeat a
    candidate, and a repeat would only spend battles on a result already known)."""
    _, first = np.unique(vectors, axis=0, return_index=True)
    return vectors[np.sort(first)]


def _halving_counts(n_candidates: int, eta: int) -> list[int]:
    """Candidates left in each round of successive halving."""
    counts = [n_candidates]
    while counts[-1] > 1:
        counts.append(max(1, counts[-1] // eta))
    return counts


def halving_cost(n_candidates: int, eta: int) -> int:
    """Battles one unit of the first round's battles per candidate costs over all rounds (the least budget)."""
    # battles added in round r per candidate are m0 * (eta^r - eta^(r-1)); their total must fit the budget
    return sum(c * (eta**r - (eta ** (r - 1) if r else 0)) for r, c in enumerate(_halving_counts(n_candidates, eta)))


def halving_schedule(n_candidates: int, budget: int, eta: int) -> list[tuple[int, int]]:
    """(candidates, cumulative battles each) per round, spending at most ``budget`` battles in all."""
    counts = _halving_counts(n_candidates, eta)
    cost = halving_cost(n_candidates, eta)
    m0 = budget // cost
    if m0 < 1:
        raise ValueError(f"budget {budget} is too small for {n_candidates} candidates (needs at least {cost})")
    return [(c, m0 * eta**r) for r, c in enumerate(counts)]


def successive_halving(
    evaluate: Evaluate, vectors: np.ndarray, budget: int, eta: int = 3, stage: int = 0,
    on_chunk: Callable[[int], None] = lambda n: None,
) -> tuple[int, list[HalvingRound], int]:
    """Index of the best row of ``vectors``, the rounds played and the battles spent (CRN throughout; chunk by
    chunk, ``on_chunk`` getting the plays of each)."""
    schedule = halving_schedule(len(vectors), budget, eta)
    alive = np.arange(len(vectors))
    wins = np.zeros(len(vectors), np.int64)
    played = 0
    spent = 0
    rounds: list[HalvingRound] = []
    for r, (count, target) in enumerate(schedule):
        for i in alive:
            wins[i] += count_true(evaluate, vectors[i], played, target - played, on_chunk)
        spent += len(alive) * (target - played)
        played = target
        rate = wins[alive] / played
        rounds.append(HalvingRound(stage, len(alive), played, float(rate.max())))
        if r + 1 < len(schedule):
            keep = schedule[r + 1][0]
            order = np.argsort(-rate, kind="stable")  # ties keep the earlier candidate (the defaults first)
            alive = np.sort(alive[order[:keep]])
    best = int(alive[np.argmax(wins[alive] / played)])
    return best, rounds, spent


def tune(
    evaluate: Evaluate, bounds: Bounds, budget: int, seed: int, candidates: int = 27, eta: int = 3,
    stages: int = 2, shrink: float = 0.25, validation_share: float = 0.4, level: float = 0.95,
    on_chunk: Callable[[int], None] = lambda n: None,
) -> TuneResult:
    """Search the box for the highest win rate and validate the winner against the defaults.

    Stage ``s`` samples within ± ``shrink**s`` × (high − low) of the incumbent (the whole box at
    ``s = 0``); the stages share the search budget equally. Every evaluation plays in chunks (memory stays
    flat whatever the budget); ``on_chunk`` gets the plays of each chunk."""
    if not 0.0 < validation_share < 1.0:
        raise ValueError(f"validation share must be in (0, 1), got {validation_share}")
    if candidates < 2 or stages < 1:
        raise ValueError("at least 2 candidates (the defaults and one sample) and 1 stage are needed")
    search_budget = int(budget * (1.0 - validation_share)) // stages
    cost = halving_cost(candidates, eta)
    if search_budget < cost:
        least = int(cost * stages / (1.0 - validation_share))
        while int(least * (1.0 - validation_share)) // stages < cost:  # float rounding: step to the exact least
            least += 1
        raise ValueError(f"budget {budget:,} leaves {search_budget:,} plays per search stage, and {candidates} "
                         f"candidates need {cost:,}: give a budget of at least {least:,}")
    incumbent = bounds.defaults.copy()
    rounds: list[HalvingRound] = []
    spent = 0
    for stage in range(stages):
        half = (bounds.high - bounds.low) * shrink**stage
        low = np.maximum(bounds.low, incumbent - half) if stage else bounds.low
        high = np.minimum(bounds.high, incumbent + half) if stage else bounds.high
        sample = latin_hypercube(low, high, candidates - 1, seed + stage, bounds.whole)
        vectors = distinct_rows(np.vstack([incumbent[None, :], sample]))  # the incumbent stays row 0
        offset = stage * STAGE_OFFSET

        def staged(v: np.ndarray, start: int, count: int, offset: int = offset) -> np.ndarray:
            return evaluate(v, offset + start, count)

        best, played, used = successive_halving(staged, vectors, search_budget, eta, stage, on_chunk)
        incumbent = vectors[best].copy()
        rounds += played
        spent += used
    n_val = max(1, int(budget * validation_share) // 2)
    is_default = bool(np.array_equal(incumbent, bounds.defaults))
    bw = dw = only_best = only_default = 0
    for start, n in chunks(n_val, VALIDATION_START):
        won_best = evaluate(incumbent, start, n)
        won_default = won_best if is_default else evaluate(bounds.defaults, start, n)
        only_best += int(np.count_nonzero(won_best & ~won_default))
        only_default += int(np.count_nonzero(won_default & ~won_best))
        bw, dw = bw + int(np.count_nonzero(won_best)), dw + int(np.count_nonzero(won_default))
        on_chunk(n if is_default else 2 * n)
    low, high = paired_difference_interval(only_best, only_default, n_val, level)
    return TuneResult(
        names=bounds.names,
        defaults=dict(zip(bounds.names, map(float, bounds.defaults))),
        best=dict(zip(bounds.names, map(float, incumbent))),
        best_is_default=is_default,
        validation_battles=n_val,
        best_wins=bw,
        default_wins=dw,
        best_ci=tuple(float(x) for x in wilson_interval(bw, n_val, level)),
        default_ci=tuple(float(x) for x in wilson_interval(dw, n_val, level)),
        gain=(bw - dw) / n_val,
        gain_ci=(float(low), float(high)),
        only_best=only_best,
        only_default=only_default,
        mcnemar_p=mcnemar_test(only_best, only_default).p_value,
        search_battles=spent,
        rounds=rounds,
    )


def policy_bounds(policy: Any) -> Bounds:
    """The box of a policy's parameters (``ValueError`` if it has none)."""
    if not policy.params:
        raise ValueError(f"policy {policy.name!r} has no parameters to tune")
    return Bounds(
        names=tuple(p.name for p in policy.params),
        defaults=np.array([p.default for p in policy.params], np.float64),
        low=np.array([p.low for p in policy.params], np.float64),
        high=np.array([p.high for p in policy.params], np.float64),
        whole=np.array([p.whole for p in policy.params], np.bool_),
    )
