"""DS:TBG battle rules checked on replayed battles (trace) with fixed seeds and forced dice.

Each test names the rule it guards; the trace records every event with the state after it.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from dsim.games.dstbg import engine
from dsim.games.dstbg.compile import compile_encounter
from dsim.games.dstbg.kernel import battle as K
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg.trace import events


@pytest.fixture(scope="module")
def data():
    return load_game_data()


@pytest.fixture(scope="module")
def baseline():
    return get_policy("baseline")


def replay(data, baseline, party, encounter, index=0, forced=None, variants=None, seed=7):
    comp = compile_encounter(data, party, encounter, variants)
    b = engine.play_one(comp.tables, baseline.decide, baseline.vector(), seed, 0, index, forced=forced)
    return comp, events(b, comp)


def test_R_8_1_enemies_activate_first_in_threat_order(data, baseline):
    comp, evs = replay(data, baseline, ["knight", "warrior"], "the_deeps")
    acts = [e for e in evs if e["event"] == "activate"]
    n_enemies = len(comp.enemy_ids)
    first_turn = [a["actor"].split("#")[0] for a in acts[:n_enemies]]
    threats = [data.enemies[eid].threat for eid in first_turn]
    assert all("#" in a["actor"] for a in acts[:n_enemies]), "R-8.1: the enemies act first"
    assert threats == sorted(threats, reverse=True), "R-11.1: highest threat first"
    assert "#" not in acts[n_enemies]["actor"], "then exactly one character activates"


def test_A_2_characters_first_variant(data, baseline):
    _, evs = replay(data, baseline, ["knight"], "the_deeps", variants={"first_side": "characters_first"})
    first = next(e for e in evs if e["event"] == "activate")
    assert first["actor"] == "knight"


def test_R_9_5_block_takes_damage_minus_roll(data, baseline):
    checked = 0
    for index in range(6):
        _, evs = replay(data, baseline, ["knight", "assassin"], "the_forgotten", index=index)
        for prev, ev in zip(evs, evs[1:]):
            if ev["event"] == "defend" and ev["values"][0] in (0, 1):
                rolled, taken = ev["values"][1], ev["values"][2]
                attack = next(p for p in reversed(evs[: evs.index(ev)]) if p["event"] == "attack" and "#" in p["actor"])
                assert taken == max(0, attack["values"][3] - rolled)
                checked += 1
    assert checked > 0


def test_R_9_5_forced_zero_dice_block_nothing(data, baseline):
    # Every die rolls 0: a block stops nothing, so the first block takes the attack's full value.
    _, evs = replay(data, baseline, ["knight"], "ruined_keep", forced=np.zeros(500, np.int32))
    block = next(e for e in evs if e["event"] == "defend" and e["values"][0] in (0, 1))
    assert block["values"][1] == 0
    attack = next(p for p in reversed(evs[: evs.index(block)]) if p["event"] == "attack")
    assert block["values"][2] == attack["values"][3]


def test_R_10_1_activation_gains_stamina_and_takes_aggro(data, baseline):
    _, evs = replay(data, baseline, ["knight", "warrior"], "the_forgotten", index=1)
    for i, ev in enumerate(evs):
        if ev["event"] == "activate" and "#" not in ev["actor"]:
            after = next(e for e in evs[i + 1 :] if e["event"] not in ("gain", "decision"))["state"]["characters"]
            who = next(c for c in after if c["id"] == ev["actor"])
            assert who["aggro"], "R-10.1: the activating character takes the aggro token"


@pytest.mark.parametrize("encounter", ["the_forgotten", "black_dungeon", "cemetery_of_ash", "dilapidated_bridge"])
def test_invariants_R_3_2_R_2_6_R_9_3(data, baseline, encounter):
    for index in range(4):
        comp, evs = replay(data, baseline, ["knight", "warrior", "herald", "assassin"], encounter, index=index)
        for ev in evs:
            if ev["event"] not in ("round", "activate", "end"):
                continue  # check between actions: a move may briefly make four before F-2.1's push
            st = ev["state"]
            nodes: dict[int, int] = {}
            for c in st["characters"]:
                assert 0 <= c["stamina"] + c["damage"] <= 10
                if c["alive"]:
                    nodes[c["node"]] = nodes.get(c["node"], 0) + 1
            for e in st["enemies"]:
                assert 0 <= e["wounds"] <= data.enemies[e["id"]].health
                if e["alive"]:
                    nodes[e["node"]] = nodes.get(e["node"], 0) + 1
            assert max(nodes.values()) <= 3
        assert evs[-1]["event"] == "end" and evs[-1]["values"][0] in (L.OUT_WIN, L.OUT_LOSS, L.OUT_TIMEOUT)


def test_F_8_1_battle_ends_when_last_enemy_dies(data, baseline):
    for index in range(20):
        _, evs = replay(data, baseline, ["knight", "warrior"], "dark_hollow", index=index)
        if evs[-1]["values"][0] == L.OUT_WIN:
            deaths = [i for i, e in enumerate(evs) if e["event"] == "death"]
            assert all(e["event"] in ("death", "end", "decision") for e in evs[deaths[-1]:])
            return
    pytest.fail("no win in 20 battles")


def test_counter_based_rng_independent_of_chunking(data, baseline):
    comp = compile_encounter(data, ["knight", "warrior"], "the_forgotten")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        whole = engine.play_batch(comp.tables, baseline.decide, baseline.vector(), 3, 11, 0, 3000)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))  # pieces taken by two threads in turn
        pieces = engine.play_batch(comp.tables, baseline.decide, baseline.vector(), 3, 11, 0, 3000, piece=257)
        tail = engine.play_batch(comp.tables, baseline.decide, baseline.vector(), 3, 11, 1000, 2000)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(whole, pieces)
    assert np.array_equal(whole[1000:], tail)


def test_replay_matches_batch(data, baseline):
    comp = compile_encounter(data, ["knight", "warrior"], "the_forgotten")
    table = engine.play_batch(comp.tables, baseline.decide, baseline.vector(), 5, 2, 0, 50)
    for index in (0, 17, 49):
        b = engine.play_one(comp.tables, baseline.decide, baseline.vector(), 5, 2, index)
        assert b.glob[L.G_OUTCOME] == table[index, K.OUT_RESULT]
        assert min(b.glob[L.G_ROUND], 60) == table[index, K.OUT_ROUNDS]


def test_walk_distances_are_copied_whole_or_the_board_corner_of_a_larger_buffer():
    """``core.copy_distances``: one memcpy for equal n x n arrays; into a buffer sized for a larger board (a game
    played whole) only the n x n corner, the rest left as it was."""
    from numba import njit

    from dsim.games.dstbg.kernel.core import copy_distances

    copy = njit(lambda dst, src, n: copy_distances(dst, src, n))
    src = np.arange(16, dtype=np.int32).reshape(4, 4)
    same = np.full((4, 4), -1, np.int32)
    copy(same, src, 4)
    np.testing.assert_array_equal(same, src)
    larger = np.full((6, 6), -1, np.int32)
    copy(larger, src, 4)
    np.testing.assert_array_equal(larger[:4, :4], src)
    assert (larger[4:, :] == -1).all() and (larger[:, 4:] == -1).all()


def test_only_batch_entries_read_batch_as_1_so_replays_keep_their_trace_and_forced_dice():
    """``dsim.numba_linking.BATCH`` is 1 in a batch entry, where the trace and forced-dice tests fold away, and 0 in a
    single-battle entry and in any other compiled code; a replay still records its trace and uses forced dice."""
    from numba import njit, types

    from dsim.numba_linking import BatchEntryPipeline, EntryPipeline, in_batch

    assert njit(lambda: in_batch())() == 0
    assert njit(types.int64(), pipeline_class=EntryPipeline)(lambda: in_batch())() == 0
    assert njit(types.int64(), pipeline_class=BatchEntryPipeline)(lambda: in_batch())() == 1
    comp = compile_encounter(load_game_data(), ["knight", "warrior"], "the_forgotten")
    policy = get_policy("baseline")
    forced = np.full(8, 2, np.int32)
    b = engine.play_one(comp.tables, policy.decide, policy.vector(), 5, 2, 0, forced=forced)
    assert len(events(b, comp)) > 10 and b.cursor[0] == 8  # traced, and every forced die used


def _figures_on_nodes(b) -> np.ndarray:
    """The living figures on each node, counted from the positions in a battle's state."""
    count = np.zeros(L.MAX_NODES, np.int32)
    for rows, n, alive, pos in ((b.chars, b.glob[L.G_N_CHARS], L.C_ALIVE, L.C_POS),
                                (b.enemies, b.glob[L.G_N_ENEMIES], L.E_ALIVE, L.E_POS)):
        for i in range(n):
            if rows[i, alive] == 1 and rows[i, pos] >= 0:
                count[rows[i, pos]] += 1
    return count


@pytest.mark.parametrize("party, encounter, boss", [
    (["knight", "warrior", "assassin", "herald"], "the_forgotten", None),
    (["knight", "warrior"], "the_deeps", None),
    (["knight", "warrior"], None, "gargoyle"),
    (["knight", "warrior", "assassin", "herald"], None, "ornstein_and_smough"),
])
def test_R_2_6_the_figures_kept_on_each_node_match_the_positions_after_every_battle(data, baseline, party, encounter, boss):
    """``b.figs`` (what the node limit, R-2.6, and the entry rule, R-2.8, read) is kept move by move, death by
    death: at the end of each battle it equals the count made from the figures' positions."""
    from dsim.games.dstbg.compile import compile_boss

    comp = compile_boss(data, party, boss, 0) if boss else compile_encounter(data, party, encounter)
    moved = 0
    for index in range(40):
        b = engine.play_one(comp.tables, baseline.decide, baseline.vector(), 3, 1, index, trace_events=0)
        np.testing.assert_array_equal(b.figs, _figures_on_nodes(b), err_msg=f"battle {index}")
        moved += int(b.figs.sum() < b.glob[L.G_N_CHARS] + b.glob[L.G_N_ENEMIES])  # someone died on the way
    assert moved > 0
