"""Bloodborne's searchers (``expert``, ``oracle``) and the speed work under them: the scripted tables' outcomes are
pinned by digest, so a change of the kernel that alters any play fails here (BB-4.1 .. BB-13)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from dsim.games.bloodborne.game import Bloodborne

PINNED = {
    "mixed": ({"hunters": 4, "policy": "greedy,banker,aggressor,spoiler"},
              "48b66bc71a7e865ddd94b693bab1ea1eaa7b496499943f5771e325c25dd7516a"),
    "random_vs_greedy": ({"hunters": 3, "policy": "random_legal", "opponents": "greedy", "seating": "permute"},
                         "08f30e8c36590f384126f2895db7856c634b0e20bde1f32a7ee2a359d503ba09"),
    "five": ({"hunters": 5, "policy": "spoiler,greedy,banker,aggressor,random_legal"},
             "dff13cad1cfaf5482ed0b3e2b307f2351c7beed735883ecdc01adb046cba0925"),
}
"""sha256 of each table's outcome columns (seed 7, stream 3, games 0..1,999), taken on the tree before the searchers'
kernel hooks (commit 6943039)."""


def _digest(settings: dict, count: int) -> str:
    columns = Bloodborne().play(settings, 7, 3, 0, count)
    h = hashlib.sha256()
    for name in sorted(columns):
        h.update(name.encode())
        h.update(np.ascontiguousarray(columns[name]).astype(np.int64).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("table", sorted(PINNED))
def test_the_scripted_tables_play_exactly_as_before_the_searchers_hooks(table):
    """Outcomes identical (BB-4.1 .. BB-13 unchanged): every table gives its pinned digest."""
    settings, digest = PINNED[table]
    assert _digest(settings, 2000) == digest
