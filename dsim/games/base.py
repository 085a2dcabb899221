"""The contract between game-agnostic infrastructure (sweeps, results, stats) and one game.

A game plugs in by providing a :class:`Game`: it validates the settings of one sweep cell
and plays a contiguous block of battles of that cell. Everything downstream (chunks,
Parquet, reports, plots) only sees the per-battle outcome columns it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np


class Game(Protocol):
    """What sweeps and executors need from a game."""

    name: str

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` with a user-facing message if a cell's settings are invalid."""

    def play(
        self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int
    ) -> dict[str, np.ndarray]:
        """Play battles ``start .. start+count-1`` of one cell.

        Battle ``i`` uses the random stream keyed by ``(seed, stream, i)``, so results do not
        depend on how battles are split into chunks, threads or workers. Returns per-battle
        outcome columns of length ``count``; at least ``win`` (bool) and ``rounds`` (int).
        """
