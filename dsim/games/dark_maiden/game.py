"""Dark Maiden on the game contract: its data so far.

The kernel (sites, turns, attacks, bosses, lives) is not built yet, so ``check_settings`` refuses
every cell with a one-line reason; ``dsim data --game dark_maiden …`` works.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dsim.games.base import Game, Outcome


class DarkMaiden(Game):
    """Dark Maiden (co-operative dice adventure, 1–4 heroes, a shared life counter)."""

    name = "dark_maiden"
    title = "Dark Maiden"
    outcome = Outcome(success="win", rounds="turns", unit="game")
    rule_tables = ("variants",)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """No cell can be played yet: the game's kernel is still to be written."""
        raise ValueError("Dark Maiden games are not simulated yet (data only: `dsim data --game dark_maiden validate`)")

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Refused like :meth:`check_settings`."""
        self.check_settings(settings)
        return {}

    def data(self) -> Any:
        """Heroes, enemies, bosses, mounts, goblins, sites, piles, difficulties and items (``data/dark_maiden``)."""
        from dsim.games.dark_maiden.datasupport import DarkMaidenDataSupport

        return DarkMaidenDataSupport()
