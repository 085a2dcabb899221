"""Whole games and a campaign give the same outcome columns, bit for bit, for the same seeds: a SHA-256 over every
outcome column of three workloads, pinned before the whole game moved to ``dsim/games/dstbg_game`` (issue 46), so a
refactor that changes one play anywhere fails here. A rules change that means to change plays rewrites the pins
(say so in its commit)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from dsim.registry import get_game

WORKLOADS = {
    # the README's whole game: Knight + Warrior, Gargoyle then Ornstein & Smough, the balanced strategy
    "standard": ({"party": ["knight", "warrior"], "policy": "balanced"}, 11, 48,
                 "594f6b556f72f687b5ee21cabd69cab74329f7ad912e9ebb5aaabb264b619e95"),
    # games that reach and beat the main boss (the Warrior alone against the Dancer wins ~1.5%): the win's path
    "won": ({"party": ["warrior"], "main_boss": "dancer_of_the_boreal_valley", "policy": "balanced"}, 1, 800,
            "4f404e59427dc2dbac943c2f62816d568d230ed6197017d15e5e3f186f4e902c"),
    # a campaign of three parts and three different bosses: prices, selling, sparks, two Gargoyles
    "campaign": ({"party": ["knight", "warrior", "assassin"], "scenario": "first_journey", "policy": "steward"}, 12, 24,
                 "d5c46d0bf0242742a9e15cfe856fbf7ced3133792d46d6bd435dd7fa356de5b2"),
    # a star of tiles, four characters, the farmer strategy
    "star": ({"party": ["knight", "warrior", "assassin", "herald"], "policy": "farmer",
              "variants": {"tile_layout": "star"}}, 13, 24,
             "81aec717df5a7929833eb03402c5e79445f85077544a559db848a87645cd4531"),
}


def outcome_digest(settings: dict, seed: int, count: int) -> str:
    """SHA-256 of every outcome column (name, dtype, bytes) of games 0 .. count-1 of the cell."""
    columns = get_game("dstbg_game").play(settings, seed, 5, 0, count)
    digest = hashlib.sha256()
    for name in sorted(columns):
        column = np.ascontiguousarray(columns[name])
        digest.update(name.encode() + str(column.dtype).encode() + column.tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_whole_game_outcomes_are_bit_identical(name):
    settings, seed, count, pinned = WORKLOADS[name]
    assert outcome_digest(settings, seed, count) == pinned


EXPLAINED = "ab4d4c1cc0dc62dd43492795db2900d750e8de22e8164874698d1ca2c217e887"  # the log of campaign game 1 (15 battles);
# re-pinned when the strategies began to give their reasons (issue 44: each event's `why` and the game's G_WHY): the
# log without those fields hashes to the first pin, b2eae8c7…


def test_a_replayed_game_logs_the_same_events():
    settings, seed, _, _ = WORKLOADS["campaign"]
    events = get_game("dstbg_game").explain(settings, seed, 5, 1)
    assert hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest() == EXPLAINED
