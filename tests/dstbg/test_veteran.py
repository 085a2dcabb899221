"""The veteran battle policy's habits on hand-set questions (``ask``: no battle kernel), and the game's request
``G_NEED`` it reads (D-23, D-24, D-16, D-26, D-18)."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import ask, get_policy
from policies.dstbg.common import free_slots
from tests.dstbg.test_policies import HOOKS, cases, random_state

VET, TAC = get_policy("veteran"), get_policy("tactician")


def _scene(hook: int, need: int, stamina: int = 0, damage: int = 0, boss: int = 0):
    st, dist = random_state(np.random.default_rng(11), hook)
    st.glob[L.G_NEED], st.glob[L.G_IS_BOSS] = need, boss
    for c in range(st.glob[L.G_N_CHARS]):
        st.chars[c, L.C_STAMINA], st.chars[c, L.C_DAMAGE], st.chars[c, L.C_ALIVE] = stamina, damage, 1
    return st, np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32), dist


def test_veteran_parameters_begin_with_the_tacticians():
    assert [p.name for p in VET.params[:len(TAC.params)]] == [p.name for p in TAC.params]


def test_D_23_keeps_the_estus_for_the_boss_when_the_game_asks():
    for need, drinks in ((L.NEED_KEEP, 0), (L.NEED_WIN, 1)):
        st, opts, dist = _scene(L.H_ESTUS, need, 3, 4)
        opts[0, :3] = [0, 3, 4]  # 7 cubes: the tactician drinks at 6
        opts[1, :3] = [1, 3, 4]
        assert ask(VET.decide, L.H_ESTUS, st, opts, 2, VET.vector(), dist) == drinks
        assert ask(TAC.decide, L.H_ESTUS, st, opts, 2, TAC.vector(), dist) == 1
    st, opts, dist = _scene(L.H_ESTUS, L.NEED_KEEP, 4, 4)
    opts[0, :3], opts[1, :3] = [0, 4, 4], [1, 4, 4]  # 8 cubes: nearly dead, it drinks
    assert ask(VET.decide, L.H_ESTUS, st, opts, 2, VET.vector(), dist) == 1


def _block_roll(st, opts, need: int, total: int) -> None:
    c = 0
    opts[0, :8] = [-1, -1, -1, 1, need, total, c, 0]  # a block roll (kind 1): damage `need`, dice total `total`
    opts[1, :8] = [0, 0, 0, 1, need, total, c, 0]
    opts[2, :8] = [1, 0, 2, 1, need, total, c, 0]


def test_D_24_keeps_luck_unless_the_block_leaves_a_lethal_hit():
    st, opts, dist = _scene(L.H_LUCK, L.NEED_KEEP, 2, 2)  # 6 free slots
    _block_roll(st, opts, 5, 2)  # 3 damage through: survivable
    assert ask(VET.decide, L.H_LUCK, st, opts, 3, VET.vector(), dist) == 0
    assert ask(TAC.decide, L.H_LUCK, st, opts, 3, TAC.vector(), dist) == 1  # the tactician rerolls the blank
    _block_roll(st, opts, 8, 2)  # 6 through: lethal, the luck is spent on it
    assert ask(VET.decide, L.H_LUCK, st, opts, 3, VET.vector(), dist) == 1
    st.glob[L.G_NEED] = L.NEED_WIN
    _block_roll(st, opts, 5, 2)
    assert ask(VET.decide, L.H_LUCK, st, opts, 3, VET.vector(), dist) == 1  # a boss battle: as the tactician


def test_D_16_keeps_the_heroic_action_for_the_boss():
    st, opts, dist = _scene(L.H_HEROIC, L.NEED_KEEP)
    opts[0, :4], opts[1, :4] = [0, L.HEROIC_PERSEVERANCE, 8, 4], [1, L.HEROIC_PERSEVERANCE, 8, 4]
    assert ask(TAC.decide, L.H_HEROIC, st, opts, 2, TAC.vector(), dist) == 1
    assert ask(VET.decide, L.H_HEROIC, st, opts, 2, VET.vector(), dist) == 0
    st.glob[L.G_NEED] = L.NEED_WIN
    assert ask(VET.decide, L.H_HEROIC, st, opts, 2, VET.vector(), dist) == 1


def _defence(opts, block_e: int, damage: int, p_dodge: int, cost: int = 1) -> None:
    opts[0, :8] = [0, block_e, damage, 2, p_dodge, cost, 0, 0]
    opts[1, :8] = [1, damage * (1000 - p_dodge) // 10, damage, 2, p_dodge, cost, 0, 0]


def test_D_26_blocks_where_a_failed_dodge_kills_and_a_block_does_not():
    st, opts, dist = _scene(L.H_DEFENCE, L.NEED_WIN, 2, 3)  # 5 free slots: a 5-damage bolt kills if it lands
    _defence(opts, 260, 5, 500)  # block: 2.6 expected; dodge: 50% (2.5 expected, but 50% death)
    c = 0
    assert free_slots(st, c) == 5
    assert ask(TAC.decide, L.H_DEFENCE, st, opts, 2, TAC.vector({"stamina_value": 0.0}), dist) == 1
    assert ask(VET.decide, L.H_DEFENCE, st, opts, 2, VET.vector({"stamina_value": 0.0}), dist) == 0
    _defence(opts, 600, 7, 600)  # a block leaves 6 of 7 on average: certain death; the dodge is the chance
    assert ask(VET.decide, L.H_DEFENCE, st, opts, 2, VET.vector(), dist) == 1


def test_D_26_nothing_at_stake_the_expectation_decides_as_for_the_tactician():
    st, opts, dist = _scene(L.H_DEFENCE, L.NEED_WIN)  # 10 free slots
    same = {p.name: p.default for p in TAC.params}
    for block_e, p in ((260, 600), (100, 300), (300, 900)):
        _defence(opts, block_e, 4, p)
        assert ask(VET.decide, L.H_DEFENCE, st, opts, 2, VET.vector(same), dist) == \
            ask(TAC.decide, L.H_DEFENCE, st, opts, 2, TAC.vector(), dist)


def test_R_3_2_a_stamina_cube_costs_the_veteran_more_an_attack_too_dear_is_left():
    """R-3.2/R-3.3: black and red cubes fill one endurance bar, so the veteran prices a stamina cube at 0.6 damage
    (the tactician 0.3): a 2-stamina attack for 0.8 more expected damage than a free one is the tactician's choice,
    the free one the veteran's."""
    assert VET.vector()[[p.name for p in VET.params].index("stamina_value")] == 0.6
    st, opts, dist = _scene(L.H_ATTACK, L.NEED_WIN)  # empty bars: both are affordable
    st.glob[L.G_ACTIVE] = 0
    opts[1, :8] = [1, 0, 0, 0, 0, 200, 0, 0]  # free: 2.0 expected damage, no kill
    opts[2, :8] = [2, 0, 0, 0, 2, 280, 0, 0]  # 2 stamina: 2.8 expected damage
    assert ask(TAC.decide, L.H_ATTACK, st, opts, 3, TAC.vector(), dist) == 2  # 280 - 60 > 200
    assert ask(VET.decide, L.H_ATTACK, st, opts, 3, VET.vector(), dist) == 1  # 280 - 120 < 200


def test_R_9_5_a_near_tie_the_veteran_dodges_a_dodge_avoids_the_whole_hit():
    """R-9.5: a dodge that succeeds takes nothing, a block keeps what its dice leave; with nothing at stake (no death
    either way) the veteran's dodge_edge of −0.5 damage takes the dodge where the tactician, 0.3 behind, blocks."""
    st, opts, dist = _scene(L.H_DEFENCE, L.NEED_WIN)  # 10 free slots: a 4-damage hit cannot kill
    _defence(opts, 220, 4, 500)  # block 2.2 expected; dodge 50%: 2.0 expected, plus one stamina
    assert ask(TAC.decide, L.H_DEFENCE, st, opts, 2, TAC.vector(), dist) == 0  # 200 + 30 >= 220: block
    assert ask(VET.decide, L.H_DEFENCE, st, opts, 2, VET.vector(), dist) == 1  # 200 + 60 - 50 < 220: dodge
    assert ask(VET.decide, L.H_DEFENCE, st, opts, 2, VET.vector({"dodge_edge": 0.0}), dist) == 0  # the edge decides


def test_veteran_reads_only_the_public_view():
    """A policy sees what the players see (README): on random states of every hook, its answer does not move when
    the boss deck's hidden order (the state's deck area) is shuffled anew."""
    rng = np.random.default_rng(1)
    for hook in HOOKS:
        for st, opts, n, dist in cases(7, hook):
            if hook == L.H_HEROIC and st.glob[L.G_ACTIVE] < 0:
                st.glob[L.G_ACTIVE] = 0  # Perseverance and Berserk Charge are asked in an activation (the kernel's case)
            answer = ask(VET.decide, hook, st, opts, n, VET.vector(), dist)
            hidden = st.copy()
            hidden.deck[:] = rng.permutation(hidden.deck)
            hidden.deck[:] += rng.integers(0, 3, L.MAX_DECK)
            assert ask(VET.decide, hook, hidden, opts, n, VET.vector(), dist) == answer, hook


def test_veteran_with_its_habits_off_plays_the_tacticians_battles():
    """The veteran asks the tactician for every answer it has no habit of its own: with the habits off, the same
    battles end the same way, round for round."""
    from dsim.games import get_game

    game = get_game("dstbg")
    cell = {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": "mid_game"}
    off = {"keep_for_boss": 0, "death_defence": 0, "let_boss_come": 0, "read_deck": 0,
           **{p.name: p.default for p in TAC.params}}  # and the tactician's own defaults, not the veteran's
    tac = game.play(cell | {"policy": "tactician"}, 3, 17, 0, 300)
    vet = game.play(cell | {"policy": "veteran", "policy_params": off}, 3, 17, 0, 300)
    assert np.array_equal(tac["win"], vet["win"]) and np.array_equal(tac["rounds"], vet["rounds"])
