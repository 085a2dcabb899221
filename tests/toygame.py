"""A tiny fake game for testing sweeps, results and plots without the DS:TBG kernel.

Battle ``i`` of a cell is a biased coin (``p`` from the settings, default 0.5) plus a few
integer and float outcomes, all drawn from a SplitMix64-style counter hash of
``(seed, stream, i)``, so any battle is a pure function of those three numbers.
A second toy, ``"duel"``, is competitive (per-seat wins, no group result). Importing this
module registers the games as ``"toy"`` and ``"duel"`` (experiment key
``game_module = "tests.toygame"``). Settings: ``p`` (0..1), ``max_rounds`` (≥ 1),
``sleep`` (seconds per chunk, to make a sweep slow enough to interrupt).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from dsim.games import register_game
from dsim.games.base import Game, Option, Outcome, RuleSwitch, Workload
from dsim.games.data import BaseDataSupport, CoverageItem, Distribution
from dsim.policy import Param, Policy, PolicyRegistry
from dsim.rng import stream_key
from dsim.validation import DataError, Problem, display_path, read_yaml
from dsim.variants import VariantSet, number

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser (wrapping uint64 arithmetic)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def uniforms(seed: int, stream: int, start: int, count: int, draws: int) -> np.ndarray:
    """``(count, draws)`` uniforms in [0, 1); row ``k`` depends only on (seed, stream, start + k)."""
    battle = np.arange(start, start + count, dtype=np.uint64)[:, None]
    key = _mix(np.array([seed], np.uint64) ^ _mix(np.array([stream], np.uint64) + _GOLDEN))
    counter = battle * np.uint64(draws) + np.arange(draws, dtype=np.uint64)[None, :]
    return (_mix(key + counter * _GOLDEN) >> np.uint64(11)).astype(np.float64) / float(1 << 53)


TOY_POLICIES = PolicyRegistry(None)
TOY_POLICIES.register(Policy("steady", "Steady: plays the coin as it is.", None))
TOY_POLICIES.register(Policy("edgy", "Edgy: its edge (a parameter) adds to the chance to win.", None,
                             (Param("edge", 0.0, 0.0, 0.2, "added to p"),)))


class ToyData(BaseDataSupport):
    """One kind, ``coins``, read from ``coins.yaml`` in the overlay folder (the toy ships no data)."""

    kinds = ("coins",)

    def load(self, overlay: Path | None = None) -> Any:
        """The coins of ``overlay/coins.yaml`` (``DataError`` naming the file and entry when one is bad)."""
        if overlay is None:
            raise DataError([Problem("coins.yaml", message="the toy game ships no data: give --data DIR")])
        path = overlay / "coins.yaml"
        raw = read_yaml(path) or {}
        bad = [Problem(display_path(path), f'coin "{k}"', "p", f"expected a number from 0 to 1, got {v!r}")
               for k, v in raw.items() if not isinstance(v, int | float) or not 0 <= v <= 1]
        if bad:
            raise DataError(bad)
        return ToyCoins(overlay, dict(raw), path)

    def columns(self, kind: str) -> list[str]:
        """``id`` and ``p``."""
        return ["id", "p"]

    def row(self, kind: str, entry: Any) -> list[str]:
        """A coin's id and chance."""
        return [entry.id, f"{entry.p:g}"]

    def coverage(self, data: Any) -> list[CoverageItem]:
        """Coins above 0.9 are flagged as guesses, to exercise the listing."""
        return [CoverageItem("placeholder", "coins", k, k, "p", "a guess") for k, v in data.coins.items() if v > 0.9]


class Coin(BaseModel):
    """One coin of the toy's data (entries are pydantic models, as in every game)."""

    id: str
    p: float


@dataclass
class ToyCoins:
    """The toy's loaded data."""

    data_dir: Path
    coins: dict[str, float]
    path: Path

    def counts(self) -> dict[str, int]:
        """Coins."""
        return {"coins": len(self.coins)}

    def entries(self, kind: str) -> dict[str, Coin]:
        """Coins by id."""
        return {k: Coin(id=k, p=v) for k, v in self.coins.items()}

    def origin(self, kind: str, entry_id: str) -> Path:
        """Every coin comes from ``coins.yaml``."""
        return self.path


class ToyDice:
    """``NdS`` (N dice of S sides): the exact distribution of the total, by convolution."""

    def roll(self, pool: str, overlay: Path | None = None) -> Distribution:
        """``2d6`` → totals 2..12 with exact fractions."""
        count, sep, sides = pool.partition("d")
        if not sep or not count.isdigit() or not sides.isdigit() or not 1 <= int(count) <= 20 or int(sides) < 2:
            raise ValueError(f"expected a pool like 2d6 (1 to 20 dice of 2 or more sides), got {pool!r}")
        pmf = {0: Fraction(1)}
        for _ in range(int(count)):
            step: dict[int, Fraction] = {}
            for total, p in pmf.items():
                for face in range(1, int(sides) + 1):
                    step[total + face] = step.get(total + face, Fraction(0)) + p / int(sides)
            pmf = step
        return Distribution(f"Total: {pool}", dict(sorted(pmf.items())))


TOY_VARIANTS = VariantSet((number("p_shift", "toy", "percentage points added to p", 0, "p + p_shift/100",
                                   seed="toy game", low=-100, high=100),), listing="dsim variants list --game toy")


class ToyGame(Game):
    """Coin-flip battles with rounds, deaths and damage, for infrastructure tests (a co-operative game)."""

    name = "toy"
    title = "Toy coin flip"
    options = (Option("p", "Chance to win a battle (0..1).", float),
               Option("max_rounds", "Most rounds a battle lasts.", int, minimum=1))
    outcome = Outcome(success="win", means=("rounds", "deaths", "damage_dealt"))
    rule_tables = ("variants",)
    default_policy = "steady"
    workloads = (Workload("toy-coin", "a fair coin", {"p": 0.5}),)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """``p`` must be a probability, ``max_rounds`` a positive integer."""
        p = settings.get("p", 0.5)
        if not isinstance(p, int | float) or not 0 <= p <= 1:
            raise ValueError(f"p must be a number in [0, 1], got {p!r}")
        rounds = settings.get("max_rounds", 10)
        if not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"max_rounds must be an integer ≥ 1, got {rounds!r}")

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """The toy game has no data files; a constant stands in for their hash."""
        return "toy-data-v1"

    def rules(self) -> list[RuleSwitch]:
        """One numeric variant, so that compare and tune have a rule to switch."""
        return [v.switch() for v in TOY_VARIANTS.listed()]

    def policies(self) -> PolicyRegistry:
        """``steady`` and ``edgy`` (whose ``edge`` parameter raises the chance to win)."""
        return TOY_POLICIES

    def evaluator(self, settings: Mapping[str, Any], seed: int) -> tuple[Policy, Any]:
        """Wins of a parameter vector on the cell's common battles (the stream ignores the policy)."""
        policy = TOY_POLICIES.get(settings.get("policy", "steady"))
        base = {k: v for k, v in settings.items() if k not in self.policy_keys}
        stream = stream_key(json.dumps(base, sort_keys=True))

        def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
            edge = float(vector[0]) if policy.params else 0.0
            return uniforms(seed, stream, start, count, 4)[:, 0] < base.get("p", 0.5) + edge

        return policy, evaluate

    def data(self) -> ToyData:
        """Coins from a ``--data`` folder."""
        return ToyData()

    def dice(self) -> ToyDice:
        """``NdS`` pools."""
        return ToyDice()

    def play(
        self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int
    ) -> dict[str, np.ndarray]:
        """Battles ``start .. start+count-1``."""
        time.sleep(settings.get("sleep", 0))
        u = uniforms(seed, stream, start, count, 4)
        shift = int(settings.get("variants", {}).get("p_shift", 0)) / 100  # other variants are inert labels
        edge = float(settings.get("policy_params", {}).get("edge", 0.0))
        win = u[:, 0] < settings.get("p", 0.5) + shift + edge
        rounds = 1 + (u[:, 1] * settings.get("max_rounds", 10)).astype(np.int64)
        return {
            "win": win,
            "rounds": rounds,
            "deaths": np.where(win, 0, 1 + (u[:, 2] * 3).astype(np.int64)),
            "damage_dealt": np.round(u[:, 3] * 20.0, 3),
            "heatup": u[:, 2] < 0.5,
        }


    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> list[dict[str, Any]]:
        """Battle ``index`` as two events: the coin and the result (what ``play`` drew for it)."""
        cols = self.play(settings, seed, stream, index, 1)
        return [{"event": "flip", "win": bool(cols["win"][0])}, {"event": "end", "rounds": int(cols["rounds"][0])}]


class DuelGame(Game):
    """A competitive toy: ``seats`` players each roll a die, the highest wins (ties credit every tied seat)."""

    name = "duel"
    title = "Toy dice duel"
    options = (Option("seats", "Players at the table (2..4).", int, minimum=2),)
    outcome = Outcome(success=None, seats=4, unit="game", means=("rounds",))
    rule_tables = ()
    workloads = (Workload("duel-3", "three players", {"seats": 3}),)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """``seats`` is 2..4."""
        if settings.get("seats", 2) not in (2, 3, 4):
            raise ValueError(f"seats must be 2, 3 or 4, got {settings.get('seats')!r}")

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Games ``start .. start+count-1``: one roll per seat; seat 0 adds one pip (a first-player edge)."""
        seats = settings.get("seats", 2)
        rolls = (uniforms(seed, stream, start, count, 4) * 6).astype(np.int64) + 1
        rolls[:, 0] += 1
        rolls[:, seats:] = -1
        best = rolls.max(axis=1, keepdims=True)
        cols: dict[str, np.ndarray] = {"rounds": np.ones(count, np.int64)}
        for k in range(self.outcome.seats):
            cols[f"win_seat_{k}"] = rolls[:, k] == best[:, 0]
            cols[f"score_seat_{k}"] = rolls[:, k]
        return cols


register_game("toy", ToyGame)
register_game("duel", DuelGame)


def write_experiment(folder: Path, name: str = "toy.toml", *, battles: int = 400, chunk: int = 100,
                     seed: int = 11, fixed: str = "max_rounds = 8", grid: str = "p = [0.3, 0.7]",
                     extra: str = "") -> Path:
    """Write a small toy experiment file into ``folder`` and return its path."""
    path = folder / name
    path.write_text(
        f'game = "toy"\ngame_module = "tests.toygame"\nname = "toy test"\nseed = {seed}\n'
        f"battles = {battles}\nchunk = {chunk}\n{extra}\n[fixed]\n{fixed}\n[grid]\n{grid}\n",
        encoding="utf-8",
    )
    return path
