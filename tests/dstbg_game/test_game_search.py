"""Whole DS:TBG games with every battle decision searched (``--battle-policy expert|oracle``): the game's replay with
forced decisions, the battle snapshots the rollouts start from, fairness, threads, the CLI."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg_game import engine
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game.cell import prepare
from dsim.games.dstbg_game.searched import GameReplayer
from dsim.search import Budget, search
from tests.searchtoy import assert_play_thread_identical, assert_search_thread_identical, prefix_matrix

SEED, STREAM = 5, 4242
SETTINGS = {"party": ["knight", "warrior"], "battle_policy": "tactician"}  # Gargoyle then Ornstein & Smough


@lru_cache(maxsize=None)
def _cell():
    return prepare(SETTINGS)


def _replayer(hidden=None, base: str = "tactician") -> GameReplayer:
    cell, policy = _cell(), get_policy(base)
    return GameReplayer(cell.compiled, policy.decide, cell.strategy.decide, policy.vector(), cell.strategy_params, SEED,
                        STREAM, 4096, hidden)


def _base_answers(rep: GameReplayer, plays: np.ndarray, until=None) -> list[list[int]]:
    """Each game's decisions as its base policy answers them, one decision at a time (``until``: a game's count)."""
    answers: list[list[int]] = [[] for _ in plays]
    while True:
        prefixes, lengths = prefix_matrix([np.array(a, np.int32) for a in answers])
        adv = rep.advance(plays, prefixes, lengths)
        asking = [i for i in range(len(plays)) if adv.options[i] > 0 and (until is None or len(answers[i]) < until[i])]
        if not asking:
            return answers
        for i in asking:
            answers[i].append(int(adv.base[i]))


def test_replays_without_forced_decisions_are_the_batch_games():
    """A game replayed for the search with nothing forced is the batch entry's game, outcome row for outcome row."""
    cell, policy = _cell(), get_policy("tactician")
    plays = np.arange(24)
    batch = engine.play_batch(cell.compiled, policy.decide, cell.strategy.decide, policy.vector(), cell.strategy_params,
                              SEED, STREAM, 0, 24)
    np.testing.assert_array_equal(_replayer().outcomes(plays, np.zeros((24, 1), np.int32), np.zeros(24, np.int64)),
                                  batch)


def test_forcing_the_base_answers_replays_the_game_and_its_battles():
    """A game's decisions are its battles' in order: forcing every one to the base policy's answer replays the same
    game; and halfway through, an all-seeing rollout of the base answer from the found battle's snapshot is that
    battle's own outcome in the game (the snapshot restores the battle: gear, tokens, gravestones, board, stream)."""
    from dsim.games.dstbg.kernel import layout as BL
    from dsim.games.dstbg_game import layout as G

    rep = _replayer()
    plays = np.arange(6)
    answers = _base_answers(rep, plays)
    assert min(len(a) for a in answers) > 50  # several battles' decisions, across battles
    prefixes, lengths = prefix_matrix([np.array(a, np.int32) for a in answers])
    free = rep.outcomes(plays, np.zeros((6, 1), np.int32), np.zeros(6, np.int64))
    np.testing.assert_array_equal(rep.outcomes(plays, prefixes, lengths), free)
    cut, cut_len = prefix_matrix([np.array(a[:len(a) // 2], np.int32) for a in answers])
    adv = rep.advance(plays, cut, cut_len)
    assert (adv.options > 0).all()
    number = rep._found.info[:, 6].copy()  # each found battle's number in its game
    seeing = rep.rollouts(plays, cut, cut_len, np.arange(6), adv.base, np.zeros(6, np.uint64), False)
    cell, policy = _cell(), get_policy("tactician")
    for i, play in enumerate(plays):
        s, *_ = engine.play_one(cell.compiled, policy.decide, cell.strategy.decide, policy.vector(),
                                cell.strategy_params, SEED, STREAM, int(play))
        results = {int(r[3]): int(r[2]) for r in s.log[:s.cursor[K.C_EVENTS]] if r[0] == G.EV_BATTLE}
        assert (seeing[i] == 1.0) == (results[int(number[i])] == BL.OUT_WIN), (play, seeing[i])
        assert seeing[i] == 1.0 or 0.0 <= seeing[i] <= 0.01  # a loss: the shaping term alone


def _first_boss_decision(rep: GameReplayer, play: int) -> int:
    """The position in game ``play``'s decisions (base answers) of the first one asked in a boss battle."""
    plays = np.array([play])
    answers = _base_answers(rep, plays)[0]
    for k in range(len(answers)):
        prefixes, lengths = prefix_matrix([np.array(answers[:k], np.int32)])
        rep.advance(plays, prefixes, lengths)
        if rep._found.info[0, 5] >= 0:  # the found battle's tables: a boss's
            return k
    return -1


@pytest.mark.parametrize("fair", [True, False], ids=["expert", "oracle"])
def test_fairness_the_expert_ignores_the_boss_decks_hidden_order(fair):
    """Two games that differ only in the Gargoyle's unseen behaviour-card order (redrawn at a decision of the mini
    boss fight, R-12.5, R-12.7; dice the same) give the expert the same option values there, rollout for rollout; the
    all-seeing searcher, which reads the order, values some option differently in some game (so the test can fail)."""
    differs = 0
    checked = 0
    for play in range(8):
        at = _first_boss_decision(_replayer(), play)
        if at < 0:
            continue
        at += 2  # a decision inside the fight, after its first
        checked += 1
        budget = Budget(rollouts=4, decisions=at + 1, screen=0)
        runs = [search(_replayer(hidden), np.array([play]), budget, seed=9, fair=fair, record=True)
                for hidden in (None, (at, 0xDEC0DE))]
        assert list(runs[0].prefixes[0][:at]) == list(runs[1].prefixes[0][:at])
        if len(runs[0].prefixes[0]) <= at:
            continue
        a, b = (next(e for e in r.estimates if e.depth == at) for r in runs)
        if fair:
            np.testing.assert_array_equal(a.means, b.means)
            assert a.choice == b.choice
        differs += not np.array_equal(a.means, b.means)
    assert checked >= 2
    if not fair:
        assert differs > 0


def test_search_is_bit_identical_on_one_and_two_threads():
    """The same games, prefixes and costs on one thread and on two."""
    rep = _replayer()
    plays = np.arange(3)
    budget = Budget(rollouts=4, decisions=4096)
    assert_search_thread_identical(rep, plays, budget)


def test_the_game_plays_a_searching_battle_player_chunk_by_chunk_on_any_threads():
    """``dsim game --battle-policy expert`` (the game's play): the same outcome columns and searched decisions on one
    thread and on two, whatever the chunks; every game searches its battles' decisions."""
    from dsim.games.dstbg_game.game import DSTBGGame
    from dsim.games.dstbg_game import searched

    game = DSTBGGame()
    settings = {**SETTINGS, "battle_policy": "expert", "battle_policy_params": {"rollouts": 4, "screen": 1}}
    one = assert_play_thread_identical(game, settings, SEED, STREAM, 4, reset=searched._KEPT.clear)
    assert (one["searched_decisions"] > 20).all()
    assert game.searching(settings) and not game.searching(SETTINGS)


def test_expert_battles_lose_fewer_of_a_games_battles_than_their_base():
    """Paired on the same games (the strategy's choices and the game's stream shared), the expert's battles lose a
    smaller share of the battles fought than its base policy's: a scenario check that the searcher plays the battles
    of a game (docs/game-search.md measures the funnel with intervals)."""
    from dsim.games.dstbg_game import layout as G

    rep = _replayer()
    plays = np.arange(8)
    found = search(rep, plays, Budget(rollouts=8, decisions=4096), seed=1)
    prefixes, lengths = prefix_matrix(found.prefixes)
    expert = rep.outcomes(plays, prefixes, lengths)
    base = rep.outcomes(plays, np.zeros((8, 1), np.int32), np.zeros(8, np.int64))
    share = [rows[:, G.OUT_LOST].sum() / rows[:, G.OUT_BATTLES].sum() for rows in (expert, base)]
    assert share[0] < share[1], share


def test_explain_shows_a_searched_battles_option_values():
    """``dsim game --explain I --battle K --battle-policy expert --json``: each decision of the battle with every
    option's value, interval and rollouts, and the option taken among them."""
    import json

    from typer.testing import CliRunner

    from dsim.cli import app

    out = CliRunner().invoke(app, ["game", "--party", "knight,warrior", "--battle-policy", "expert", "--explain", "1",
                                   "--battle", "0", "--json"])
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    searched = [e for e in events if "estimates" in e]
    assert searched
    for event in searched:
        assert len(event["estimates"]) >= 2
        for e in event["estimates"]:
            assert e["ci95"][0] <= e["value"] <= e["ci95"][1] + 1e-9
