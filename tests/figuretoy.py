"""A toy game whose win rate has a closed form in its data's figures, for ``dsim sensitivity`` (issue 45).

A play wins when a coin comes up heads (chance ``coins.heads.p``) and at least one of ``pools.main.dice`` dice
shows a hit (chance ``pools.main.chance`` each), with the variant ``p_shift`` adding percentage points to the
coin: P(win) = (p + shift/100) · (1 − (1 − c)^n). ``coins.spare`` is never read. Importing this module registers
the game as ``"figtoy"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, Field

from dsim.games import register_game
from dsim.games.base import Game, Outcome, RuleSwitch
from dsim.games.data import BaseDataSupport
from dsim.games.loading import EntriesByKind, held
from dsim.variants import VariantSet, number
from tests.toygame import uniforms

MAX_DICE = 8


class Coin(BaseModel):
    """A coin: its chance of heads."""

    id: str
    source: str = "toy"
    placeholder: str | None = None
    p: float = Field(ge=0, le=1)


class Pool(BaseModel):
    """A pool of dice: how many, and each one's chance of a hit."""

    id: str
    source: str = "toy"
    dice: int = Field(ge=1, le=MAX_DICE)
    chance: float = Field(ge=0, le=1)


@dataclass(frozen=True)
class FigureToyData(EntriesByKind):
    """The toy's data: coins and pools by id."""

    KINDS: ClassVar[tuple[str, ...]] = ("coins", "pools")
    coins: dict[str, Coin] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)


SHIPPED = FigureToyData(
    data_dir=Path("."), overlay=None, origins={},
    coins={"heads": Coin(id="heads", p=0.6), "spare": Coin(id="spare", p=0.3, placeholder="never read")},
    pools={"main": Pool(id="main", dice=3, chance=0.5)},
)


def win_rate(p: float, dice: int, chance: float, shift: int = 0) -> float:
    """The closed form of the toy's win rate."""
    return (p + shift / 100) * (1 - (1 - chance) ** dice)


class FigureToyDataSupport(BaseDataSupport):
    """The shipped figures (no files: an overlay is not read)."""

    kinds = FigureToyData.KINDS

    def load(self, overlay: Path | None = None) -> FigureToyData:
        """The shipped figures."""
        return SHIPPED


VARIANTS = VariantSet((number("p_shift", "toy", "percentage points added to the coin", 0, "p + p_shift/100",
                              seed="toy game", low=-50, high=40),), listing="dsim variants list --game figtoy")


class FigureToy(Game):
    """Coin and dice: the win rate is a known function of the data's figures."""

    name = "figtoy"
    title = "Figure toy"
    outcome = Outcome(success="win", means=("rounds",))
    rule_tables = ("variants",)
    default_policy = "steady"

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Any cell plays."""

    def rules(self) -> list[RuleSwitch]:
        """The numeric variant ``p_shift``."""
        return [v.switch() for v in VARIANTS.listed()]

    def data(self) -> FigureToyDataSupport:
        """The toy's figures."""
        return FigureToyDataSupport()

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Plays ``start .. start+count-1``: one coin, then up to ``MAX_DICE`` dice."""
        data = held(settings.get("data")) or SHIPPED
        coin, pool = data.coins["heads"], data.pools["main"]
        shift = int(settings.get("variants", {}).get("p_shift", 0)) / 100
        u = uniforms(seed, stream, start, count, 1 + MAX_DICE)
        hits = (u[:, 1: 1 + pool.dice] < pool.chance).any(axis=1)
        win = (u[:, 0] < coin.p + shift) & hits
        return {"win": win, "rounds": 1 + (u[:, 1] * 4).astype(np.int64)}


register_game("figtoy", FigureToy)
