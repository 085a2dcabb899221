"""DS:TBG battles under the search core (dsim.search): forced-prefix replays, fairness, threads."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dstbg import engine
from dsim.games.dstbg.game import prepare
from dsim.search import Budget, search
from tests.searchtoy import assert_play_thread_identical, assert_search_thread_identical
from tests.searchtoy import prefix_matrix as _matrix

SEED, STREAM = 7, 12345
GARGOYLE = {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": "mid_game", "policy": "baseline"}
FORGOTTEN = {"party": ["knight", "warrior"], "encounter": "the_forgotten", "policy": "baseline"}


def _replayer(settings, hidden=None) -> engine.BattleReplayer:
    cell = prepare(settings)
    return engine.BattleReplayer(cell.compiled.tables, cell.policy.decide, cell.params, SEED, STREAM, hidden)


def test_replays_without_forced_decisions_are_the_batch_battles():
    """The search entry's true battle is the batch entry's battle: same outcome table, bit for bit."""
    cell = prepare(GARGOYLE)
    plays = np.arange(300)
    table = engine.play_batch(cell.compiled.tables, cell.policy.decide, cell.params, SEED, STREAM, 0, 300)
    rep = _replayer(GARGOYLE)
    np.testing.assert_array_equal(rep.outcomes(plays, np.zeros((300, 1), np.int32), np.zeros(300, np.int64)), table)


def test_forcing_the_policys_own_answers_replays_the_battle():
    """Forcing the first K decisions to what the policy answered there replays the same battle; an all-seeing
    rollout of the policy's own answer on the true stream is the true battle's value."""
    rep = _replayer(GARGOYLE)
    plays = np.arange(40)
    answers = [[] for _ in plays]
    for _ in range(12):  # the policy's first 12 answers, one decision at a time
        prefixes, lengths = _matrix([np.array(a, np.int32) for a in answers])
        info = rep.info(plays, prefixes, lengths)
        for i in range(len(plays)):
            if info[i, 0] > 0:
                answers[i].append(int(info[i, 2]))
    prefixes, lengths = _matrix([np.array(a, np.int32) for a in answers])
    free = rep.outcomes(plays, np.zeros((40, 1), np.int32), np.zeros(40, np.int64))
    np.testing.assert_array_equal(rep.outcomes(plays, prefixes, lengths), free)
    adv = rep.advance(plays, prefixes, lengths)
    asking = np.nonzero(adv.options > 0)[0]
    seeing = rep.rollouts(plays, prefixes, lengths, asking, adv.base[asking], np.zeros(len(asking), np.uint64), False)
    np.testing.assert_array_equal(seeing, adv.value[asking])


def test_expert_beats_its_base_policy_on_a_level_1_encounter():
    """One-step rollouts of the baseline win more level-1 battles than the baseline, paired on the same battles,
    beyond the 95% interval of the paired difference."""
    rep = _replayer(FORGOTTEN)
    plays = np.arange(120)
    base = rep.advance(plays, np.zeros((120, 1), np.int32), np.zeros(120, np.int64)).value == 1.0
    expert = search(rep, plays, Budget(rollouts=8), seed=3).values == 1.0
    diff = expert.astype(float) - base
    assert diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) > 0


@pytest.mark.parametrize("fair, screen", [(True, None), (True, 0), (False, None)],
                         ids=["expert-screened", "expert-unscreened", "oracle"])
def test_fairness_expert_ignores_the_hidden_deck_order_until_a_card_is_drawn(fair, screen):
    """Two Gargoyle battles that differ only in the unseen behaviour cards' order from decision 4 on give the
    expert the same choices until the next card is drawn (R-12.5, R-12.7: it reveals the order), with the screen
    (1 rollout of 4 first) and without; the all-seeing searcher, which reads the order, chooses differently before
    that in some battle (so the test can fail)."""
    plays = np.arange(16)
    at = 4
    budget = Budget(rollouts=4, decisions=40, screen=screen)
    runs = []
    for hidden in (None, (at, 0xDEC0DE)):
        runs.append(search(_replayer(GARGOYLE, hidden), plays, budget, seed=9, fair=fair))
    rep = _replayer(GARGOYLE)
    differs_before_draw = 0
    window = 0
    for i in range(len(plays)):
        a, b = runs[0].prefixes[i], runs[1].prefixes[i]
        assert list(a[:at]) == list(b[:at])
        prefix, length = _matrix([a])
        drawn = [int(rep.info(plays[i:i + 1], prefix, np.array([k]))[0, 3]) for k in range(at, len(a))]
        reveal = next((at + k for k, d in enumerate(drawn) if d > drawn[0]), len(a))  # first decision after a draw
        window += reveal - at
        first_diff = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), None)
        if first_diff is not None and first_diff < reveal:
            differs_before_draw += 1
    assert window > 20  # decisions between the redraw and the next card: the test has something to compare
    if fair:
        assert differs_before_draw == 0
    else:
        assert differs_before_draw > 0


@pytest.mark.parametrize("settings, budget, count", [(FORGOTTEN, Budget(rollouts=4), 30),
                                                     (FORGOTTEN, Budget(rollouts=4, z=1.0, extend=12), 20),
                                                     (GARGOYLE, Budget(), 6)],
                         ids=["forgotten", "forgotten-extended", "gargoyle-default"])
def test_search_is_bit_identical_on_one_and_two_threads(settings, budget, count):
    """The same battles, prefixes and costs on one thread and on two: the screen (1 of 4 rollouts; the default
    budget's 4 of 16) and the extension of close decisions (to 12) included."""
    rep = _replayer(settings)
    plays = np.arange(count)
    assert_search_thread_identical(rep, plays, budget)


def test_the_game_plays_a_searcher_the_same_on_one_and_two_threads():
    """``dsim run --policy expert`` (the game's play, chunk by chunk) gives the same outcome columns and searched
    decisions on one thread and on two, and whatever the chunks."""
    from dsim.games.dstbg.game import DSTBG

    game, settings = DSTBG(), {**FORGOTTEN, "policy": "expert"}
    one = assert_play_thread_identical(game, settings, SEED, STREAM, 12)
    assert one["searched_decisions"].sum() > 12


def test_expert_plays_through_the_game_and_explains_each_decision():
    """``--policy expert`` plays through the game's contract; its replay shows each searched decision's option
    values with intervals, one per option, and the option the battle took is the one the search chose."""
    from dsim.games.dstbg.game import DSTBG

    game = DSTBG()
    settings = {**FORGOTTEN, "policy": "expert", "policy_params": {"rollouts": 8, "screen": 2, "base": 0}}
    cols = game.play(settings, SEED, STREAM, 0, 6)
    assert len(cols["win"]) == 6 and cols["rounds"].min() >= 1
    events = game.explain(settings, SEED, STREAM, 2)
    searched = [e for e in events if "estimates" in e]
    assert searched
    for event in searched:
        taken, options = event["values"][1], event["values"][2]
        assert len(event["estimates"]) == options
        low, high = event["estimates"][taken]["ci95"]
        assert low <= event["estimates"][taken]["value"] <= high
        played = [e["rollouts"] for e in event["estimates"]]  # the screen's 2, all 8 for those played on, or the
        # default extension's 64 for a close decision's gaining options and the base answer
        assert set(played) <= {2, 8, 64} and event["estimates"][taken]["rollouts"] == max(played)
        assert f"n={played[0]}" in game.describe_event(event, settings)
    assert game.play({**FORGOTTEN, "policy": "oracle"}, SEED, STREAM, 0, 6)["win"].mean() >= cols["win"].mean()


def test_ladder_puts_the_searchers_beside_the_scripted_policies():
    """``dsim policies ladder --json``: each scripted policy asked for, then ``expert`` and the ``oracle`` ceiling on
    the same battles, each searcher with its paired gain over the best scripted policy."""
    import json

    from typer.testing import CliRunner

    from dsim.cli import app

    out = CliRunner().invoke(app, ["policies", "ladder", "--party", "knight,warrior", "--encounter", "the_forgotten",
                                   "--policies", "naive,baseline", "--battles", "6", "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["policy"]: r for r in json.loads(out.stdout)}
    assert list(rows) == ["naive", "baseline", "expert", "oracle"]
    assert rows["oracle"]["ceiling"] and not rows["expert"]["ceiling"]
    best = max(("naive", "baseline"), key=lambda n: rows[n]["win_rate"])
    for name in ("expert", "oracle"):
        assert rows[name]["gain_over"] == best
        low, high = rows[name]["gain_ci95"]
        assert low <= rows[name]["gain"] <= high


def test_the_ladder_plays_chunk_by_chunk_with_the_same_figures(monkeypatch):
    """The ladder plays every policy chunk by chunk (memory flat in the count): cut into chunks of 4 battles, its
    figures and paired gains are those of one chunk."""
    import json

    from typer.testing import CliRunner

    import dsim.play
    from dsim.cli import app

    args = ["policies", "ladder", "--party", "knight,warrior", "--encounter", "the_forgotten", "--policies",
            "naive,baseline", "--battles", "10", "--json"]
    whole = CliRunner().invoke(app, args)
    monkeypatch.setattr(dsim.play, "SEARCH_CHUNK", 4)
    cut = CliRunner().invoke(app, args)
    assert whole.exit_code == 0 and cut.exit_code == 0, (whole.output, cut.output)
    assert json.loads(whole.stdout) == json.loads(cut.stdout)


def test_a_searchers_run_moves_its_progress_bar_every_few_hundred_battles():
    """`dsim run --policy expert` plays (and reports progress) in chunks of SEARCH_CHUNK battles, seconds of search
    each, where a scripted policy's chunks are CHUNK battles; the chunked sums are the plays' sums."""
    from dsim.games.dstbg.game import DSTBG
    from dsim.play import CHUNK, SEARCH_CHUNK, chunk_size, play_sums

    game = DSTBG()
    assert chunk_size(game, {**FORGOTTEN, "policy": "expert"}) == SEARCH_CHUNK < CHUNK
    assert chunk_size(game, FORGOTTEN) == CHUNK
    settings = {**FORGOTTEN, "policy": "expert", "policy_params": {"rollouts": 2}}
    seen: list[int] = []
    totals = play_sums(game, settings, 10, SEED, STREAM, seen.append, 4)
    assert seen == [4, 4, 2]
    assert totals["win"] == int(game.play(settings, SEED, STREAM, 0, 10)["win"].sum())


def test_a_searchers_figures_carry_no_hint_of_a_stronger_scripted_policy():
    """`dsim run/explain --policy expert` named the tactician as playing stronger; the hint is for scripted policies."""
    from dsim.games.dstbg.game import DSTBG

    game = DSTBG()
    assert not any("plays stronger" in line for line in game.played_with({**FORGOTTEN, "policy": "expert"}))
    assert any("plays stronger" in line for line in game.played_with(FORGOTTEN))
