"""docs/make_ladder.py: a cell's ladder at a tiny budget (the kernels of tests/dstbg/test_search_battles.py: the
Forgotten with naive, baseline, expert, oracle), its per-chunk store (resumed, never replayed), and the acceptance
verdict on hand-made outcomes."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from dsim.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "docs"))
import make_ladder as ML  # noqa: E402

SCRIPTED = ["naive", "baseline"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The Forgotten's ladder on 6 plays stored in chunks of 4 (so one chunk is partial)."""
    store = ML.Store.open(tmp_path_factory.mktemp("ladder"))
    cell = ML.CELLS["the_forgotten-starting"]
    rungs = ML.play_cell(store, cell, 1, 6, 4, None, 0, lambda text: None, SCRIPTED)
    return store, cell, rungs


def test_a_cell_plays_every_rung_on_the_same_plays_as_the_evaluator(played):
    store, cell, rungs = played
    assert [r.label for r in rungs] == [*SCRIPTED, "expert", "oracle"]
    assert [r.ceiling for r in rungs] == [False, False, False, True]
    assert all(len(r.won) == 6 for r in rungs)
    for rung in rungs:  # chunked (4 + 2) outcomes are the evaluator's outcomes of plays 0..5 in one call
        chosen, evaluate = ML._evaluator(cell, rung.label, 1)
        np.testing.assert_array_equal(rung.won, np.asarray(evaluate(chosen.vector(), 0, 6), bool))


def test_the_store_resumes_without_replaying(played, monkeypatch):
    store, cell, rungs = played
    reopened = ML.Store.open(store.folder)
    again = ML.stored_cell(reopened, cell, 1, 6, SCRIPTED)
    assert {r.label: r.won.tolist() for r in again} == {r.label: r.won.tolist() for r in rungs}
    calls = []
    real = ML._evaluator

    def counting(cell_, policy, seed):
        chosen, evaluate = real(cell_, policy, seed)
        return chosen, lambda vector, start, count: calls.append((policy, start, count)) or evaluate(vector, start, count)

    monkeypatch.setattr(ML, "_evaluator", counting)
    ML.play_cell(reopened, cell, 1, 6, 4, None, 0, lambda text: None, SCRIPTED)
    assert calls == []  # everything was stored
    longer = ML.play_cell(reopened, cell, 1, 7, 4, None, 0, lambda text: None, ["naive"])
    assert calls == [(name, 6, 1) for name in ("naive", "expert", "oracle")]  # only the missing play
    assert longer[0].won[:6].tolist() == rungs[0].won.tolist()


def test_the_page_names_every_policy_its_budget_and_the_verdict(played):
    _, cell, rungs = played
    text = ML.page([(cell, rungs), (ML.CELLS["gargoyle-mid_game"], None)], 1, None, 0)
    table = ML.cell_table(rungs)
    for label in (*SCRIPTED, "expert", "oracle (ceiling"):
        assert f"| {label}" in table
    assert "rollouts 16" in text and "not played yet" in text and ML.CELLS["the_forgotten-starting"].title in text
    assert cell.command() + " --battles 6 --seed 1" in text


def _rung(label: str, wins: int, n: int = 200, offset: int = 0, **kind) -> ML.Rung:
    won = np.zeros(n, bool)
    won[offset:offset + wins] = True
    return ML.Rung(label, won, **kind)


@pytest.mark.parametrize("best, expert, oracle, passes", [
    (100, 140, 200, True),   # expert beyond the paired interval, oracle above
    (100, 104, 200, False),  # expert's gain inside the interval (54 plays won only by expert, 50 only by the best)
    (194, 194, 200, True),   # best scripted at 95%+: only oracle >= expert is asked
    (100, 140, 100, False),  # oracle below expert beyond the interval
])
def test_the_acceptance_verdict(best, expert, oracle, passes):
    rungs = [_rung("random_legal", 0), _rung("tactician", best), _rung("expert", expert, offset=50 * (expert < 110), searcher=True),
             _rung("oracle", oracle, searcher=True, ceiling=True)]
    verdict = ML.verdict(rungs)
    assert verdict.best.label == "tactician" and verdict.passes is passes


def test_a_cell_without_searchers_has_no_verdict():
    assert ML.verdict([_rung("balanced", 3), _rung("rush", 1)]).passes is None


def test_a_tie_at_the_top_goes_to_the_searchers_base_policy():
    rungs = [_rung("aggressive", 0), _rung("tactician", 0), _rung("veteran", 0)]
    assert ML.best_scripted(rungs).label == "tactician"
    assert ML.best_scripted([_rung("aggressive", 3), _rung("tactician", 2)]).label == "aggressive"


def _entry(policy: str, won: list[bool], played: list[list] | None = None) -> dict:
    return {"policy": policy, "vector": [0.0], "n": len(won), "wins": ML._pack(np.array(won, bool)),
            "commit": "c0", **({"played": played} if played else {})}


def test_a_cell_is_read_on_the_plays_all_its_kept_rungs_share(tmp_path):
    """A rung played further (8 plays) is cut to the others' 6, so every comparison stays paired; a rung ``keep``
    refuses does not cut it, nor a tuned rung of a policy no longer the best; each rung says which commit played
    which plays."""
    store = ML.Store.open(tmp_path)
    cell = ML.CELLS["the_forgotten-starting"]
    store.put(cell.name, 1, "naive", _entry("naive", [True] * 8, [["aaa", 0, 6], ["bbb", 6, 8]]))
    store.put(cell.name, 1, "baseline", _entry("baseline", [False] * 6))
    store.put(cell.name, 1, "expert", _entry("expert", [True, False] * 4))
    store.put(cell.name, 1, "expert (stale)", _entry("expert", [True] * 2))
    store.put(cell.name, 1, "naive, tuned (9)", _entry("naive", [True] * 6))  # the best's tuned rung: shown
    store.put(cell.name, 1, "baseline, tuned (9)", _entry("baseline", [True] * 2))  # tuned when baseline led: not
    rungs = ML.stored_cell(store, cell, 1, 2, SCRIPTED, keep=lambda label, entry: label != "expert (stale)")
    assert {r.label: len(r.won) for r in rungs} == {"naive": 6, "baseline": 6, "expert": 6, "naive, tuned (9)": 6}
    assert {r.label: r.commit for r in rungs}["naive"] == "aaa"
    assert ML.provenance(store.rung(cell.name, 1, "naive"), 8) == "aaa (plays 0–5), bbb (6–7)"
    assert ML.stored_cell(store, cell, 1, 7, SCRIPTED) is None  # baseline has only 6


def test_a_failing_cell_says_why():
    nobody = ML.verdict([_rung("tactician", 0), _rung("expert", 0, searcher=True),
                         _rung("oracle", 12, searcher=True, ceiling=True)])
    assert not nobody.passes and nobody.why().startswith("nobody wins") and "6.0%" in nobody.why()
    close = ML.verdict([_rung("tactician", 100), _rung("expert", 104, offset=50, searcher=True),
                        _rung("oracle", 200, searcher=True, ceiling=True)])
    assert not close.passes and close.why() == "the gain's interval reaches 0 at 200 plays"
    assert ML.verdict([_rung("tactician", 100), _rung("expert", 140, searcher=True),
                       _rung("oracle", 200, searcher=True, ceiling=True)]).why() == ""
