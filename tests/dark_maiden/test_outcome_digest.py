"""Pinned outcomes of every Dark Maiden policy: a digest of the outcome columns of fixed games, taken on the tree
before the kernel and the tactician were sped up (issue 43), so a speed change that changes a single game fails here.
A change of play that is meant must say so in its commit and re-pin the digest."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from dsim.games.dark_maiden.game import DarkMaiden

CELLS = (({"party": ["amazona", "barbara", "guerrero"], "difficulty": "normal"}, 3000),
         ({"party": ["guerrero"], "difficulty": "hard"}, 1000),
         ({"party": ["amazona", "barbara", "guerrero", "amazona"], "difficulty": "easy"}, 1000))
PINNED = {"tactician": "18eb91ce1a9259ec", "cautious": "6736961f1317c5ec", "bold": "dbcf324e2c5c29e0",
          "random_legal": "e9dffff3cdbf550e"}
TUNED = {"run_below": 0.3, "damage": 1.5, "kill": 2.0, "point": 1.0, "exhaust": 1.0, "mount": 0.5,
         "quick_margin": -0.5, "drink_gain": -1.0, "drink_kills": 2, "potion": 1.0, "potion_boss": 0.5,
         "mount_attack": 1.0, "recover": 1.0}
"""The tactician with every weight moved off its default, so that each term of its evaluators counts somewhere."""
PINNED_TUNED = "18e73da4bee76db9"


def digest(policy: str, params: dict[str, float] | None = None) -> str:
    """SHA-256 (16 hex digits) over every outcome column, by name, of the pinned cells' games (seed 7, stream 3)."""
    h = hashlib.sha256()
    for settings, n in CELLS:
        cols = DarkMaiden().play({**settings, "policy": policy, "policy_params": params or {}}, 7, 3, 0, n)
        for name in sorted(cols):
            h.update(name.encode())
            h.update(np.ascontiguousarray(cols[name]).astype(np.int64).tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("policy", sorted(PINNED))
def test_outcomes_are_those_pinned(policy):
    assert digest(policy) == PINNED[policy]


def test_tuned_tactician_outcomes_are_those_pinned():
    assert digest("tactician", TUNED) == PINNED_TUNED
