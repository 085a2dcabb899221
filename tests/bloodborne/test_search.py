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


# ---------------------------------------------------------------- the searchers (dsim.search over engine.GameReplayer)
SMALL = {"rollouts": 4, "decisions": 8}
"""A budget small enough for tests: 4 rollouts an option, the first 8 decisions searched."""


def _cell(policy: str = "expert", opponents: str = "greedy", hunters: int = 4, **params: float):
    from dsim.games.bloodborne.game import prepare

    return prepare({"hunters": hunters, "policy": policy, "opponents": opponents,
                    "policy_params": {**(SMALL if policy == "expert" else {"decisions": 8}), **params}})


def _search(cell, plays, hidden=None):
    from dsim.games.bloodborne.searchers import search_games

    return search_games(cell, cell.params[0, : len(cell.policies[0].params)], 5, 9, np.asarray(plays, np.int64),
                        record=True, hidden=hidden)[0]


def _by_decision(found) -> dict[tuple[int, int], tuple]:
    return {(e.play, e.depth): (e.choice, tuple(e.means)) for e in found.estimates}


@pytest.mark.parametrize("at", [0, 3])
def test_expert_decides_the_same_when_only_what_it_cannot_see_changes(at):
    """Fairness (BB-5.1 secret picks, BB-2.2/2.3 face-down decks, future dice): the true games are disturbed at the
    searcher's decision ``at`` (unseen dungeon cards and upgrade order redrawn, the others' earlier secret picks of
    the step changed); every estimate up to and at that decision is bit-identical, though the games then differ."""
    cell, plays = _cell(), range(6)
    plain, disturbed = _search(cell, plays), _search(cell, plays, hidden=(at, 0xC0FFEE))
    before, after = _by_decision(plain), _by_decision(disturbed)
    upto = [k for k in before if k[1] <= at]
    assert upto and all(after[k] == before[k] for k in upto)
    assert before != after or not np.array_equal(plain.values, disturbed.values)  # the disturbance is real


def test_the_oracle_sees_what_the_expert_cannot():
    """The all-seeing bound reads the true hidden state: the same disturbance changes its estimates at once."""
    cell, plays = _cell("oracle"), range(6)
    plain, disturbed = _search(cell, plays), _search(cell, plays, hidden=(0, 0xC0FFEE))
    first = [k for k in _by_decision(plain) if k[1] == 0]
    assert any(_by_decision(plain)[k] != _by_decision(disturbed)[k] for k in first)


def test_a_named_model_plays_every_other_hunter_past_the_branch():
    """The model's one policy slot (``layout.MODEL_SLOT``): naming the others' own policy as the model searches
    exactly as ``actual`` does (the same policies past the branch, the searcher its base); another policy changes
    the rollouts' estimates."""
    from dsim.games.bloodborne.searchers import MODELS

    plays = range(4)
    actual = _search(_cell(opponents="banker"), plays)
    named = _search(_cell(opponents="banker", model=MODELS.index("banker")), plays)
    other = _search(_cell(opponents="banker", model=MODELS.index("greedy")), plays)
    assert _by_decision(named) == _by_decision(actual) and np.array_equal(named.values, actual.values)
    assert _by_decision(other) != _by_decision(actual)


def test_a_searched_game_is_the_same_on_one_thread_and_on_two():
    """Bit-identical whatever the threads: each replay is a pure function of (seed, stream, game, prefix, key)."""
    import numba

    from dsim.games.bloodborne.game import Bloodborne

    settings = {"hunters": 3, "policy": "expert", "opponents": "spoiler,banker", "policy_params": SMALL}
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = Bloodborne().play(settings, 3, 4, 10, 6)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = Bloodborne().play(settings, 3, 4, 10, 6)
    finally:
        numba.set_num_threads(threads)
    assert all(np.array_equal(one[k], two[k]) for k in one)


def test_a_table_seats_one_searcher_and_names_a_known_model():
    """One searching seat; ``model`` is one of searchers.MODELS (a clear one-line error otherwise)."""
    from dsim.games.bloodborne.game import prepare

    with pytest.raises(ValueError, match="at most one searcher"):
        prepare({"hunters": 3, "policy": "expert,oracle,greedy"})
    with pytest.raises(ValueError, match="model must be one of"):
        prepare({"hunters": 3, "policy": "expert", "opponents": "greedy", "model": "psychic"})
    cell = prepare({"hunters": 3, "policy": "expert", "opponents": "greedy", "model": "banker"})
    assert cell.params[0, [p.name for p in cell.policies[0].params].index("model")] == 2  # MODELS: actual, greedy, banker


def test_expert_among_three_greedy_hunters_wins_beyond_a_fair_share_and_the_oracle_at_least_as_often():
    """Acceptance: `expert` (8 rollouts an option, base greedy, model: the others' actual policies) in one seat of a
    table of three `greedy` hunters wins above 1/4 beyond its 95% Wilson interval; on the same games the all-seeing
    `oracle` wins at least as often, and greedy in that seat gets no more than about its fair share."""
    from dsim.games.bloodborne.game import Bloodborne
    from dsim.stats import wilson_interval

    game, games = Bloodborne(), 40

    def wins(policy: str, **params: float) -> np.ndarray:
        settings = {"hunters": 4, "policy": policy, "opponents": "greedy", "policy_params": params}
        chosen, evaluate = game.evaluator(settings, 11)
        return evaluate(chosen.vector(params), 0, games)

    expert, oracle, greedy = wins("expert", rollouts=8), wins("oracle"), wins("greedy")
    assert wilson_interval(int(expert.sum()), games)[0] > 0.25
    assert oracle.sum() >= expert.sum() > greedy.sum()


def test_policies_ladder_plays_bloodborne_searchers_under_either_model():
    """`dsim policies ladder --game bloodborne`: the scripted policy asked for, then `expert` and the `oracle` ceiling
    in the same seat on the same games; ``--model`` names the searchers' model of the others, and a bad one is one
    line naming the choices."""
    import json

    from typer.testing import CliRunner

    from dsim.cli import app

    runner = CliRunner()
    args = ["policies", "ladder", "--game", "bloodborne", "--hunters", "3", "--opponents", "banker", "--policies",
            "greedy", "--games", "3"]
    out = runner.invoke(app, [*args, "--model", "greedy", "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["policy"]: r for r in json.loads(out.stdout)}
    assert list(rows) == ["greedy", "expert", "oracle"] and rows["oracle"]["ceiling"] and rows["expert"]["searcher"]
    actual = json.loads(runner.invoke(app, [*args, "--model", "actual", "--json"]).stdout)
    assert rows["greedy"] == {r["policy"]: r for r in actual}["greedy"]  # the scripted seat ignores the model
    from dsim.games.bloodborne.game import Bloodborne

    settings = {"hunters": 3, "policy": "expert", "opponents": "banker", "model": "greedy"}
    chosen, _ = Bloodborne().evaluator(settings, 1)
    seen = []
    import dsim.games.bloodborne.searchers as S

    original = S.play_searched
    S.play_searched = lambda cell, vector, *a, **k: seen.append(vector.copy()) or original(cell, vector, *a, **k)
    try:
        Bloodborne().evaluator(settings, 1)[1](chosen.vector(), 0, 1)
    finally:
        S.play_searched = original
    assert seen[0][[p.name for p in chosen.params].index("model")] == 1  # greedy: the evaluator keeps the setting
    bad = runner.invoke(app, [*args, "--model", "psychic"])
    assert bad.exit_code != 0 and "expected one of actual, greedy" in bad.output and "Traceback" not in bad.output
