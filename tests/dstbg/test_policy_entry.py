"""A registered policy plays its batches through an entry of its own that inlines it (dsim.games.dstbg.engine):
the battles are those of the shared entry, for every policy, and each entry plays its own policy."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config

from dsim.games.dstbg import engine
from dsim.games.dstbg.game import prepare
from dsim.games.dstbg.policy import all_policies
from dsim.policy import Deferred, compiled

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="without the JIT every policy plays through one function")

CELLS = ({"party": ["knight", "warrior"], "encounter": "the_forgotten"},
         {"party": ["assassin", "herald", "knight", "warrior"], "boss": "gargoyle"})


@pytest.mark.parametrize("cell", CELLS, ids=["level-1", "gargoyle-4p"])
def test_every_policy_plays_the_same_battles_through_its_own_entry_as_through_the_shared_one(cell):
    """All six in one process, so an entry bound to another policy's code (the JIT has one symbol table) shows."""
    plays = set()
    for policy in all_policies():
        prepared = prepare({**cell, "policy": policy.name})
        tables, params = prepared.compiled.tables, policy.vector()
        assert isinstance(policy.decide, Deferred)
        own = engine.play_batch(tables, policy.decide, params, 5, 3, 0, 1500)
        shared = engine.play_batch(tables, compiled(policy.decide), params, 5, 3, 0, 1500)
        np.testing.assert_array_equal(own, shared, err_msg=policy.name)
        plays.add(own.tobytes())
    assert len(plays) == len(all_policies())  # each policy plays its own battles, so a mix-up could not hide


def test_each_policy_has_its_own_entry_cache_hashed_over_its_sources(tmp_path):
    """Numba's cache key (function, signature) is the same for every policy's entry: the folder tells them apart,
    and an edit to a policy's sources must recompile its entry, not load the one of the old code."""
    policies = list(all_policies())
    assert len({engine.policy_entry_folder(policy.decide) for policy in policies}) == len(policies)
    baseline = next(policy.decide for policy in policies if policy.name == "baseline")
    assert {"baseline.py", "common.py", "layout.py"} <= {path.name for path in baseline.sources}
    source = tmp_path / "helper.py"
    source.write_text("A = 1\n")
    edited = Deferred(lambda: compiled(baseline), "decide", (source,))
    before = engine.policy_entry_folder(edited)
    source.write_text("A = 2\n")
    assert engine.policy_entry_folder(edited) != before
    assert "policies.dstbg.baseline.decide" in before
