"""Outcome columns of six DS:TBG workloads, pinned by digest (issue 46): a refactor of the state, the policy call or
the compiler must leave every play bit-identical. A failure here means the same seeds now play differently; if the
change of play is intended (a rules fix), say so in the commit and re-pin with ``python -m tests.dstbg.test_outcome_digest``."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from dsim.registry import get_game

SEED = 20261207
BATTLES = 300  # per battle workload
GAMES = 6  # per whole-game workload

# (name, game, settings, count): level-1, level-3, the mini boss, the main boss, a whole game, a campaign; the battle
# workloads use four different policies so that more of policies/dstbg is pinned.
WORKLOADS: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("level-1", "dstbg", {"party": ["knight", "warrior"], "encounter": "the_forgotten", "policy": "baseline"}, BATTLES),
    ("level-3", "dstbg", {"party": ["knight", "warrior", "assassin", "herald"], "encounter": "cemetery_of_ash",
                          "policy": "tactician"}, BATTLES),
    ("gargoyle", "dstbg", {"party": ["knight", "warrior"], "boss": "gargoyle", "policy": "careful"}, BATTLES),
    ("ornstein-smough", "dstbg", {"party": ["knight", "warrior", "assassin"], "boss": "ornstein_and_smough",
                                  "gravestones": 2, "policy": "aggressive"}, BATTLES),
    ("whole-game", "dstbg_game", {"party": ["knight", "warrior"], "policy": "balanced"}, GAMES),
    ("campaign", "dstbg_game", {"party": ["knight", "warrior"], "scenario": "first_journey"}, GAMES),
)

PINNED = {
    "level-1": "c0ac9801f23c1b759e4ccf19dc65c78dc9e61bd257b305ca14b30fc9689811c4",
    "level-3": "1eb60a07ec93da4ae59769f0701a8306dfbf27566e6e1c302191a5c0b40a54c7",
    "gargoyle": "d59aa0b7ff4d9f73a70aeefdea05f8e054fc1940ea8357011d4cf517e2600d79",
    "ornstein-smough": "e4817cac85b2160d8c35e468940098dcb3c94140fd11786a4783ce3757e4c9eb",
    "whole-game": "21f10e2146c26ef3c07ed98b03a4c71cf15b78e08e40b51c0c289ca22f576a32",
    "campaign": "74dfa138e0f38d1b776c30de13f92c1222e9af65310111b30246250f540d6a08",
}


def digest(columns: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over every column's name, dtype and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(columns):
        a = np.ascontiguousarray(columns[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def play(game: str, settings: dict[str, Any], count: int) -> dict[str, np.ndarray]:
    """The workload's outcome columns for the pinned seed, stream 0."""
    return get_game(game).play(settings, SEED, 0, 0, count)


@pytest.mark.parametrize(("name", "game", "settings", "count"), WORKLOADS, ids=[w[0] for w in WORKLOADS])
def test_outcome_columns_unchanged(name: str, game: str, settings: dict[str, Any], count: int) -> None:
    columns = play(game, settings, count)
    assert len(next(iter(columns.values()))) == count
    assert digest(columns) == PINNED[name], f"{name}: the same seeds now give different outcome columns"


if __name__ == "__main__":  # re-pin: prints the digests of the current tree
    for name, game, settings, count in WORKLOADS:
        print(f'    "{name}": "{digest(play(game, settings, count))}",')
