"""A registered policy plays its batches through an entry of its own that inlines it (dsim.games.dstbg.engine):
the battles are those of the shared entry, for every policy, and each entry plays its own policy."""

from __future__ import annotations

import numpy as np
import pytest
from numba import config

from dsim.games.dstbg import engine
from dsim.games.dstbg.game import prepare
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import all_policies, policy_function
from dsim.policy import Deferred, compiled

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="without the JIT every policy plays through one function")


@policy_function(reads={"step": (1, 4)})
def _reads_an_undeclared_column(hook, n, battle):
    """Steps onto the first node with figures on it (column 5, which it does not declare it reads), else closer."""
    if hook == L.H_STEP or hook == L.H_SHIFT:
        for i in range(1, n):
            if battle.opts[i, 5] > 0:
                return i
        return 1 if n > 1 and battle.opts[1, 4] < battle.opts[0, 4] else 0
    return 0


CELLS = ({"party": ["knight", "warrior"], "encounter": "the_forgotten"},
         {"party": ["assassin", "herald", "knight", "warrior"], "boss": "gargoyle"})


@pytest.mark.parametrize("cell", CELLS, ids=["level-1", "gargoyle-4p"])
def test_every_policy_plays_the_same_battles_through_its_own_entry_as_through_the_shared_one(cell):
    """All six in one process, so an entry bound to another policy's code (the JIT has one symbol table) shows."""
    plays = {}
    for policy in all_policies():
        prepared = prepare({**cell, "policy": policy.name})
        tables, params = prepared.compiled.tables, policy.vector()
        assert isinstance(policy.decide, Deferred)
        own = engine.play_batch(tables, policy.decide, params, 5, 3, 0, 1500)
        shared = engine.play_batch(tables, compiled(policy.decide), params, 5, 3, 0, 1500)
        np.testing.assert_array_equal(own, shared, err_msg=policy.name)
        plays[policy.name] = own.tobytes()
    # each policy plays its own battles, so a mix-up could not hide; but the veteran answers as the tactician does
    # wherever nothing can kill and no game asks it to keep its tokens, which may be a whole level-1 cell
    distinct = {name: play for name, play in plays.items() if name != "veteran" or play != plays["tactician"]}
    assert len(set(distinct.values())) == len(distinct)


def test_each_policy_has_its_own_entry_cache_hashed_over_its_sources(tmp_path):
    """Numba's cache key (function, signature) is the same for every policy's entry: the folder tells them apart,
    and an edit to a policy's sources must recompile its entry, not load the one of the old code."""
    policies = list(all_policies())
    assert len({engine.policy_entry_folder(policy.decide) for policy in policies}) == len(policies)
    tables_type = engine._tables_type(prepare({**CELLS[0], "policy": "baseline"}).compiled.tables)
    names = {engine._policy_batch_entry(tables_type, policy.decide).py_func.__qualname__ for policy in policies}
    assert len(names) == len(policies)  # and a function each: their symbols, one JIT table for the process, differ
    baseline = next(policy.decide for policy in policies if policy.name == "baseline")
    assert {"baseline.py", "common.py", "layout.py"} <= {path.name for path in baseline.sources}
    source = tmp_path / "helper.py"
    source.write_text("A = 1\n")
    edited = Deferred(lambda: compiled(baseline), "decide", (source,))
    before = engine.policy_entry_folder(edited)
    source.write_text("A = 2\n")
    assert engine.policy_entry_folder(edited) != before
    assert "policies.dstbg.baseline.decide" in before
    source.write_text("A = 1\n")
    assert engine.policy_entry_folder(edited) == before
    declared = Deferred(lambda: compiled(baseline), "decide", (source,), {"step": (1, 4)})
    assert engine.policy_entry_folder(declared) != before  # the reads mask is compiled in: another entry


def test_a_policy_s_own_entry_works_out_only_the_move_step_columns_it_declares():
    """Figures (column 5) are left 0 for a policy that declares it does not read them: one that reads them all
    the same plays other battles in its own entry than in the shared one, which works out every column."""
    assert engine.step_read_mask(_reads_an_undeclared_column) == (1 << 1) | (1 << 4)
    tables = prepare({**CELLS[0], "policy": "baseline"}).compiled.tables
    params = np.zeros(1)
    own = engine.play_batch(tables, _reads_an_undeclared_column, params, 5, 3, 0, 1500)
    shared = engine.play_batch(tables, compiled(_reads_an_undeclared_column), params, 5, 3, 0, 1500)
    assert not np.array_equal(own, shared)


@pytest.mark.parametrize("reads, message", [
    ({"step": (4, 9)}, r"reads\['step'\] names columns 0 to 8, got \[9\]"),
    ({"step": (True,)}, r"reads\['step'\] names columns 0 to 8, got \[True\]"),
    ({"steps": (4,)}, r"reads names \['steps'\]; DS:TBG knows \['step'\]"),
])
def test_a_bad_reads_declaration_is_one_clear_error(reads, message):
    with pytest.raises(ValueError, match=message):
        engine.step_read_mask(Deferred(lambda: None, "decide", (), reads))
    assert engine.step_read_mask(Deferred(lambda: None, "decide", (), {"step": (np.int64(4),)})) == 1 << 4
