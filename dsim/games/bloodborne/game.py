"""Bloodborne: The Card Game on the game contract: its data and its combo dice so far.

The kernel (setup, the eight steps of a round, scoring) is not built yet, so ``check_settings``
refuses every cell with a one-line reason; ``dsim data --game bloodborne …`` and
``dsim dice roll --game bloodborne red`` work.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dsim.games.base import Game, Outcome


class Bloodborne(Game):
    """Bloodborne: The Card Game (base game, 3–5 hunters; semi-co-operative: one hunter wins)."""

    name = "bloodborne"
    title = "Bloodborne: The Card Game"
    outcome = Outcome(success=None, seats=5, unit="game")
    rule_tables = ("variants",)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """No cell can be played yet: the game's kernel is still to be written."""
        raise ValueError("Bloodborne games are not simulated yet (data and dice only: "
                         "`dsim data --game bloodborne validate`, `dsim dice roll --game bloodborne red`)")

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Refused like :meth:`check_settings`."""
        self.check_settings(settings)
        return {}

    def data(self) -> Any:
        """Dice, starters, monsters, bosses, Final Bosses, upgrades and trophy tracks (``data/bloodborne``)."""
        from dsim.games.bloodborne.datasupport import BloodborneDataSupport

        return BloodborneDataSupport()

    def dice(self) -> Any:
        """The three monster dice with combo faces: exact pool totals."""
        from dsim.games.bloodborne.dice import BloodborneDice

        return BloodborneDice()
