"""Policies answer every hook legally on random states, and each shows its defining behaviour (issue 5).

These put questions to ``decide`` with ``ask`` (no battle kernel), with random states and option rows whose
columns respect the per-hook ranges documented in ``policies/dstbg/README.md``.
"""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import all_policies, ask, get_policy
from policies.dstbg.common import free_slots

HOOKS = (
    L.H_FIRST_CHAR, L.H_PLACE, L.H_AGGRO, L.H_HEROIC, L.H_SWAP, L.H_MOVE_ON, L.H_STEP, L.H_ATTACK, L.H_SHIFT, L.H_ESTUS,
    L.H_LUCK, L.H_LINE_ARC, L.H_DEFENCE_ORDER, L.H_DEFENCE, L.H_DODGE_MOVE, L.H_TRAP, L.H_ATTACK_PUSH, L.H_ENEMY_ORDER, L.H_ENEMY_STEP,
    L.H_MOVE_PUSH, L.H_NODE_LIMIT, L.H_TAUNT_TIE,
)
ACTIVATION_HOOKS = (L.H_SWAP, L.H_MOVE_ON, L.H_STEP, L.H_ATTACK, L.H_SHIFT, L.H_ESTUS)
CASES = 300


def random_state(rng: np.random.Generator, hook: int) -> tuple[np.ndarray, np.ndarray]:
    """A random but well-formed battle state and walk-distance matrix."""
    n_nodes = int(rng.integers(4, L.MAX_NODES + 1))
    d = rng.integers(1, 9, size=(n_nodes, n_nodes))
    dist = np.ascontiguousarray(np.triu(d, 1) + np.triu(d, 1).T, dtype=np.int32)
    st = L.state_views(np.zeros(L.STATE_LEN, np.int32))
    n_chars = int(rng.integers(1, L.MAX_CHARS + 1))
    n_enemies = int(rng.integers(1, 7))
    st.glob[L.G_N_CHARS], st.glob[L.G_N_ENEMIES], st.glob[L.G_N_NODES] = n_chars, n_enemies, n_nodes
    st.glob[L.G_ROUND] = rng.integers(1, 30)
    st.glob[L.G_IS_BOSS] = rng.integers(0, 2)
    st.glob[L.G_WEAK_ARCS] = rng.integers(0, 16)
    st.glob[L.G_ADVERSARIAL] = rng.integers(0, 2)
    for c in range(n_chars):
        stamina = int(rng.integers(0, 10))
        st.chars[c, L.C_STAMINA] = stamina
        st.chars[c, L.C_DAMAGE] = rng.integers(0, 10 - stamina)
        st.chars[c, L.C_POS] = rng.integers(0, n_nodes)
        st.chars[c, L.C_ALIVE] = 1
        st.chars[c, L.C_ARC] = [0, 1, 2, 4, 8][rng.integers(0, 5)]
        st.chars[c, L.C_USED0] = rng.integers(0, 2)
        st.chars[c, L.C_USED1] = rng.integers(0, 2)
        for f in (L.C_ESTUS, L.C_LUCK, L.C_HEROIC, L.C_EMBER):
            st.chars[c, f] = rng.integers(0, 2)
        st.chars[c, L.C_COND] = rng.integers(0, 16)
    for e in range(n_enemies):
        st.enemies[e, L.E_POS] = rng.integers(0, n_nodes)
        st.enemies[e, L.E_ALIVE] = rng.integers(0, 2) if e else 1
        st.enemies[e, L.E_WOUNDS] = rng.integers(0, 10)
        st.enemies[e, L.E_FACING] = rng.integers(0, 8)
    st.glob[L.G_AGGRO] = rng.integers(0, n_chars)
    st.glob[L.G_ACTIVE] = rng.integers(0, n_chars) if hook in ACTIVATION_HOOKS or rng.random() < 0.5 else -1
    return st, dist


def random_options(rng: np.random.Generator, hook: int, st: np.ndarray) -> tuple[np.ndarray, int]:
    """Option rows for ``hook`` with every column in its documented range."""
    n_nodes, n_chars, n_enemies = (int(st.glob[k]) for k in (L.G_N_NODES, L.G_N_CHARS, L.G_N_ENEMIES))
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    node = lambda: rng.integers(0, n_nodes)  # noqa: E731
    char = lambda: rng.integers(0, n_chars)  # noqa: E731
    enemy = lambda: rng.integers(0, n_enemies)  # noqa: E731
    if hook in (L.H_FIRST_CHAR, L.H_AGGRO):
        n = max(2, n_chars)
        for i in range(n):
            opts[i, :2] = [i % n_chars, rng.integers(0, 5)]
        return opts, n
    if hook == L.H_ESTUS or (hook == L.H_HEROIC and rng.random() < 0.5):
        n = 2
        kind = L.H_ESTUS if hook == L.H_ESTUS else [L.HEROIC_PERSEVERANCE, L.HEROIC_BERSERK, L.HEROIC_KNIGHT_BLOCK][rng.integers(0, 3)]
        a, b, c = rng.integers(0, 10), rng.integers(0, 10), rng.integers(0, 10)
        for i in range(2):
            if hook == L.H_ESTUS:
                opts[i, :3] = [i, a, min(b, 10 - a)]
            elif kind == L.HEROIC_KNIGHT_BLOCK:
                opts[i, :4] = [i, kind, rng.integers(0, 800), c]
            else:
                opts[i, :4] = [i, kind, a, b]
        return opts, n
    if hook == L.H_LINE_ARC:  # the two sides next to a line, counter-clockwise first
        d = int(rng.integers(0, 8))
        for i in range(2):
            opts[i, :4] = [(d + 7 + 2 * i) % 8 + 1, 1 << int(rng.integers(0, 4)), enemy(), node()]
        return opts, 2
    if hook == L.H_MOVE_ON:  # this node's step row twice: look on, stop
        opts, _ = random_options(rng, L.H_STEP, st)
        opts[0, 1:4] = 0  # no cost, trap or barrel to stay
        opts[1] = opts[0]
        return opts, 2
    n = int(rng.integers(2, 12))
    for i in range(n):
        row = opts[i]
        if hook in (L.H_ATTACK, L.H_HEROIC):
            kind = rng.integers(0, 4)
            row[:8] = [rng.integers(0, 4), rng.integers(0, 30), enemy() if kind < 2 else -1,
                      char() if kind == 2 else (node() if kind < 2 else -1), rng.integers(0, 4),
                      rng.integers(0, 900), rng.integers(0, 1001) if kind < 2 else rng.integers(1, 3), kind]
            if i == 0:
                row[:8] = [-1, -1, -1, -1, 0, 0, 0, -1]
        elif hook in (L.H_STEP, L.H_SHIFT):
            row[:] = [node(), rng.integers(0, 4), rng.integers(0, 2), rng.integers(0, 2), rng.integers(0, 8),
                      rng.integers(0, 4), rng.integers(0, 8), rng.integers(0, 3),
                      rng.integers(0, 16) if st.glob[L.G_IS_BOSS] else 0]  # boss arcs (ARC_* bits)
        elif hook == L.H_PLACE:
            row[:3] = [node(), rng.integers(0, 3), char()]
        elif hook == L.H_SWAP:
            row[:4] = [rng.integers(0, 2), rng.integers(0, 2), rng.integers(0, 20), rng.integers(-1, 20)]
        elif hook == L.H_LUCK:
            row[:8] = [i - 1, rng.integers(0, 4), rng.integers(0, 5), 0, 0, 0, char(), 0]
        elif hook == L.H_DEFENCE:
            row[:8] = [i, rng.integers(0, 800), rng.integers(0, 9), rng.integers(0, 4), rng.integers(0, 1001),
                      rng.integers(1, 3), enemy(), rng.integers(0, 2)]
        elif hook == L.H_TRAP:
            row[:5] = [i, rng.integers(1, 5), 0, rng.integers(0, 1001), rng.integers(1, 3)]
        elif hook == L.H_DODGE_MOVE:
            row[:8] = [node(), rng.integers(0, 2), rng.integers(0, 2), rng.integers(0, 8), 0, rng.integers(0, 4), 0, 0]
        elif hook in (L.H_ATTACK_PUSH, L.H_MOVE_PUSH):
            row[:4] = [node(), rng.integers(0, 6), rng.integers(0, 4), rng.integers(0, 8)]
        elif hook == L.H_ENEMY_ORDER:
            row[:4] = [enemy(), rng.integers(0, 5), node(), rng.integers(1, 5)]
        elif hook == L.H_ENEMY_STEP:
            row[:4] = [node(), rng.integers(0, 8), rng.integers(0, 3), enemy()]
        elif hook == L.H_NODE_LIMIT:
            kind = rng.integers(0, 2)
            row[:4] = [kind, char() if kind == 0 else enemy(), node(), rng.integers(0, 3)]
        elif hook == L.H_DEFENCE_ORDER:
            row[:4] = [char(), node(), rng.integers(0, 11), enemy()]
        elif hook == L.H_TAUNT_TIE:
            row[:4] = [char(), node(), rng.integers(0, 5), enemy()]
    if hook == L.H_LUCK:
        kind, need = rng.integers(0, 4), rng.integers(0, 9)
        opts[:n, 3], opts[:n, 4], opts[:n, 5] = kind, need, opts[1:n, 2].sum()
        opts[0, :3] = -1
    if hook == L.H_HEROIC:
        opts[0, 0] = -1  # Backstab rows
    return opts, n


def cases(seed: int, hook: int):
    """``CASES`` random (state, options, n, dist) tuples for one hook."""
    rng = np.random.default_rng([seed, hook])
    for _ in range(CASES):
        st, dist = random_state(rng, hook)
        opts, n = random_options(rng, hook, st)
        yield st, opts, n, dist


@pytest.mark.parametrize("policy", [p.name for p in all_policies()])
def test_D_every_hook_answered_with_a_legal_row(policy):
    pol = get_policy(policy)
    params = pol.vector()
    for hook in HOOKS:
        for st, opts, n, dist in cases(1, hook):
            before = st.copy(), opts.copy()
            k = ask(pol.decide, hook, st, opts, n, params, dist)
            assert 0 <= k < n, (policy, hook, k, n)
            assert np.array_equal(L.state_vector(before[0]), L.state_vector(st)) and np.array_equal(before[1], opts)  # policies only read


@pytest.mark.parametrize("policy", [p.name for p in all_policies()])
def test_D_18_stopping_on_move_on_is_what_the_step_question_would_answer(policy):
    """``H_MOVE_ON`` may stop a walk only where ``H_STEP``, asked with the steps listed, picks row 0 (stop):
    the early question saves work but never changes a walk. Checked on random states and step rows."""
    pol = get_policy(policy)
    for default, params in ((True, pol.vector()), (False, pol.vector({p.name: p.high for p in pol.params}))):
        stops = 0
        for st, opts, n, dist in cases(11, L.H_STEP):
            opts[0, 1:4] = 0
            here = opts.copy()
            here[1] = here[0]
            if ask(pol.decide, L.H_MOVE_ON, st, here, 2, params, dist) == 1:
                assert ask(pol.decide, L.H_STEP, st, opts, n, params, dist) == 0, (policy, st, opts[:n])
                stops += 1
        assert stops > CASES // 10 or not default or policy == "random_legal", stops  # it does decide early, often


@pytest.mark.parametrize("policy", ["naive", "aggressive", "careful", "tactician", "random_legal"])
def test_policy_has_description_and_bounded_parameters(policy):
    pol = get_policy(policy)
    assert len(pol.description) > 80 and pol.params
    for p in pol.params:
        assert p.low <= p.default <= p.high and p.doc
    assert pol.vector().shape == (len(pol.params),)


def test_D_26_naive_always_blocks_and_never_uses_luck_or_heroics():
    pol = get_policy("naive")
    params = pol.vector()
    for hook in (L.H_DEFENCE, L.H_TRAP, L.H_LUCK, L.H_HEROIC):
        for st, opts, n, dist in cases(2, hook):
            assert ask(pol.decide, hook, st, opts, n, params, dist) == 0


def test_D_20_naive_attacks_the_closest_target_with_the_cheapest_option():
    pol = get_policy("naive")
    params = pol.vector()
    checked = 0
    for st, opts, n, dist in cases(3, L.H_ATTACK):
        k = ask(pol.decide, L.H_ATTACK, st, opts, n, params, dist)
        if k == 0:
            continue
        c = st.glob[L.G_ACTIVE]
        pos = st.chars[c, L.C_POS]
        legal = [i for i in range(1, n) if opts[i, 7] < 2 and (opts[i, 4] == 0 or free_slots(st, c) - opts[i, 4] >= 1)]
        near = min(dist[pos, opts[i, 3]] for i in legal)
        assert dist[pos, opts[k, 3]] == near
        assert opts[k, 4] == min(opts[i, 4] for i in legal if dist[pos, opts[i, 3]] == near)
        checked += 1
    assert checked > CASES // 3


@pytest.mark.parametrize("reserve", [2.0, 4.0, 6.0])
def test_R_3_3_careful_never_spends_its_reserve(reserve):
    pol = get_policy("careful")
    params = pol.vector({"stamina_reserve": reserve})
    cost_col = {L.H_ATTACK: 4, L.H_STEP: 1, L.H_SHIFT: 1}
    spent = 0
    for hook, col in cost_col.items():
        for st, opts, n, dist in cases(4, hook):
            k = ask(pol.decide, hook, st, opts, n, params, dist)
            cost = opts[k, col] if k > 0 else 0
            assert cost == 0 or free_slots(st, st.glob[L.G_ACTIVE]) - cost >= reserve, (hook, k)
            spent += cost > 0
    assert spent > 0  # it does spend stamina above the reserve


def test_D_26_careful_dodges_exactly_when_the_expectation_favours_it():
    pol = get_policy("careful")
    params = pol.vector({"stamina_reserve": 1.0, "stamina_value": 0.0})
    for st, opts, n, dist in cases(5, L.H_DEFENCE):
        for c in range(st.glob[L.G_N_CHARS]):
            st.chars[c, L.C_STAMINA], st.chars[c, L.C_DAMAGE] = 0, 0  # every dodge affordable
        k = ask(pol.decide, L.H_DEFENCE, st, opts, n, params, dist)
        assert k == (1 if opts[1, 1] < opts[0, 1] else 0)


def test_D_19_tactician_focuses_fire_on_the_likeliest_kill():
    pol = get_policy("tactician")
    params = pol.vector()
    rng = np.random.default_rng(6)
    st, dist = random_state(rng, L.H_ATTACK)
    c = st.glob[L.G_ACTIVE]
    st.chars[c, L.C_STAMINA], st.chars[c, L.C_DAMAGE] = 0, 0
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    opts[0, :8] = [-1, -1, -1, -1, 0, 0, 0, -1]
    opts[1, :8] = [0, 1, 0, 0, 1, 300, 100, 0]  # more expected damage on a healthy enemy
    opts[2, :8] = [0, 1, 0, 0, 1, 250, 700, 0]  # a little less, but likely to finish a wounded one
    assert ask(pol.decide, L.H_ATTACK, st, opts, 3, params, dist) == 2
    assert ask(get_policy("aggressive").decide, L.H_ATTACK, st, opts, 3, get_policy("aggressive").vector({"kill_weight": 0.0}), dist) == 1


def test_D_15_tactician_and_careful_give_aggro_to_the_highest_taunt():
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    opts[:3, :2] = [[0, 1], [1, 4], [2, 2]]
    st, dist = random_state(np.random.default_rng(7), L.H_AGGRO)
    for name in ("tactician", "careful"):
        pol = get_policy(name)
        assert ask(pol.decide, L.H_AGGRO, st, opts, 3, pol.vector(), dist) == 1


def test_D_16_aggressive_uses_berserk_charge_at_once():
    pol = get_policy("aggressive")
    for st, opts, n, dist in cases(8, L.H_HEROIC):
        if opts[0, 1] == L.HEROIC_BERSERK and opts[0, 0] == 0:
            assert ask(pol.decide, L.H_HEROIC, st, opts, n, pol.vector(), dist) == 1


def test_R_12_12_tactician_attacks_from_a_weak_arc_when_it_can():
    """Step option column 8 holds the node's boss arcs: the tactician holds a weak arc it stands in,
    walks to the cheapest weak-arc node with a target in reach, and otherwise approaches as usual."""
    pol = get_policy("tactician")
    rng = np.random.default_rng(9)
    st, dist = random_state(rng, L.H_STEP)
    c = st.glob[L.G_ACTIVE]
    st.glob[L.G_IS_BOSS], st.glob[L.G_N_ENEMIES], st.enemies[0, L.E_WEAK] = 1, 1, L.ARC_BACK | L.ARC_LEFT
    st.chars[c, L.C_USED0], st.chars[c, L.C_USED1] = 0, 0
    st.chars[c, L.C_STAMINA], st.chars[c, L.C_DAMAGE] = 0, 0
    here = st.chars[c, L.C_POS]
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    opts[0] = [here, 0, 0, 0, 0, 1, 0, 1, L.ARC_BACK]
    opts[1] = [(here + 1) % st.glob[L.G_N_NODES], 0, 0, 0, 1, 0, 1, 1, L.ARC_FRONT]  # farther, still in reach: kite bait
    opts[2] = [(here + 2) % st.glob[L.G_N_NODES], 1, 0, 0, 1, 0, 1, 1, L.ARC_LEFT]  # weak arc, costs a run
    assert ask(pol.decide, L.H_STEP, st, opts, 3, pol.vector(), dist) == 0  # holds the back arc
    opts[0, 8] = L.ARC_FRONT
    assert ask(pol.decide, L.H_STEP, st, opts, 3, pol.vector(), dist) == 2  # runs to the left arc
    opts[2, 7] = 0  # ... unless no target is in reach from there
    assert ask(pol.decide, L.H_STEP, st, opts, 3, pol.vector(), dist) == 1
    st.chars[c, L.C_USED0] = 1  # after attacking, weak arcs no longer steer the move
    opts[2, 7] = 1
    base = get_policy("tactician").vector()
    base[list(p.name for p in pol.params).index("weak_arc_hold")] = 0.0
    assert ask(pol.decide, L.H_STEP, st, opts, 3, pol.vector(), dist) == ask(pol.decide, L.H_STEP, st, opts, 3, base, dist)


def _pair_scene() -> tuple[np.ndarray, np.ndarray]:
    """Ornstein (slot 0, unwounded) on node 1 and Smough (slot 1, 4 wounds) on node 3; one fresh
    character on node 0 takes its activation; nodes on a line, walk distance = index difference."""
    nodes = 5
    dist = np.abs(np.subtract.outer(np.arange(nodes), np.arange(nodes))).astype(np.int32)
    st = L.state_views(np.zeros(L.STATE_LEN, np.int32))
    st.glob[L.G_N_CHARS], st.glob[L.G_N_ENEMIES], st.glob[L.G_N_NODES], st.glob[L.G_IS_BOSS], st.glob[L.G_ACTIVE] = 1, 2, nodes, 1, 0
    st.chars[0, L.C_ALIVE], st.chars[0, L.C_POS] = 1, 0
    for e, (pos, wounds) in enumerate(((1, 0), (3, 4))):
        st.enemies[e, L.E_ALIVE], st.enemies[e, L.E_POS], st.enemies[e, L.E_WOUNDS] = 1, pos, wounds
    return st, dist


def test_R_12_1_tactician_focuses_the_most_wounded_of_ornstein_and_smough():
    """facts.md §5.3: the survivor heals when its partner dies, so while both live the tactician
    attacks only the more wounded figure when some attack reaches it (else whatever it can), and
    walks toward it rather than holding a node in reach of the other only."""
    pol = get_policy("tactician")
    params = pol.vector()
    off = pol.vector({"pair_focus": 0.0})
    st, dist = _pair_scene()
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    opts[0, :8] = [-1, -1, -1, -1, 0, 0, 0, -1]
    opts[1, :8] = [0, 1, 0, 1, 0, 400, 0, 0]  # the unwounded Ornstein: more expected damage
    opts[2, :8] = [0, 2, 1, 3, 0, 300, 0, 0]  # the wounded Smough
    assert ask(pol.decide, L.H_ATTACK, st, opts, 3, params, dist) == 2
    assert ask(pol.decide, L.H_ATTACK, st, opts, 3, off, dist) == 1
    assert ask(pol.decide, L.H_ATTACK, st, opts, 2, params, dist) == 1  # Smough out of reach: hit Ornstein
    st.enemies[1, L.E_ALIVE] = 0  # a lone figure: plain focus fire
    assert ask(pol.decide, L.H_ATTACK, st, opts, 2, params, dist) == 1
    st, dist = _pair_scene()
    steps = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    for i, node in enumerate((0, 2)):  # stay (Ornstein in reach only) or walk on toward Smough
        steps[i, :8] = [node, 0, 0, 0, abs(node - 1), 0, abs(node - 1), 1 if node == 0 else 0]
    steps[1, 7] = 1  # from node 2 both figures are one node away
    assert ask(pol.decide, L.H_STEP, st, steps, 2, params, dist) == 1
    assert ask(pol.decide, L.H_STEP, st, steps, 2, off, dist) == 0


def test_R_12_12_tactician_weak_arc_of_the_figure_it_stands_beside():
    """R-12.12 with two boss figures: a node counts as weak only for the weak arcs of the figure
    whose arcs column 8 gives (the nearest), not the last half resolved (``G_WEAK_ARCS``)."""
    pol = get_policy("tactician")
    st, dist = _pair_scene()
    st.enemies[1, L.E_WOUNDS] = 0  # no focus yet: Ornstein (slot 0) is the tie's first slot
    st.enemies[0, L.E_WEAK], st.enemies[1, L.E_WEAK], st.glob[L.G_WEAK_ARCS] = L.ARC_BACK, L.ARC_LEFT, L.ARC_LEFT
    steps = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    steps[0] = [0, 0, 0, 0, 1, 0, 1, 1, L.ARC_LEFT]  # Ornstein's left arc: not weak on his last half
    steps[1] = [2, 0, 0, 0, 1, 0, 1, 1, L.ARC_BACK]  # Ornstein's back arc: weak
    assert ask(pol.decide, L.H_STEP, st, steps, 2, pol.vector(), dist) == 1


def test_A_41_enemy_choices_flip_when_adversarial():
    pol = get_policy("careful")
    st, dist = random_state(np.random.default_rng(10), L.H_ENEMY_STEP)
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    opts[:2, :4] = [[0, 1, 0, 0], [1, 3, 0, 0]]  # row 1 leaves the enemy farther from its target
    st.glob[L.G_ADVERSARIAL] = 0
    assert ask(pol.decide, L.H_ENEMY_STEP, st, opts, 2, pol.vector(), dist) == 1
    st.glob[L.G_ADVERSARIAL] = 1
    assert ask(pol.decide, L.H_ENEMY_STEP, st, opts, 2, pol.vector(), dist) == 0


def test_random_legal_is_deterministic_and_roughly_uniform():
    pol = get_policy("random_legal")
    params = pol.vector()
    counts = np.zeros(4, np.int64)
    rng = np.random.default_rng(11)
    for _ in range(2000):
        st, dist = random_state(rng, L.H_STEP)
        st.glob[L.G_ADVERSARIAL] = 0
        opts, _ = random_options(rng, L.H_STEP, st)
        k = ask(pol.decide, L.H_STEP, st, opts, 4, params, dist)
        assert k == ask(pol.decide, L.H_STEP, st.copy(), opts.copy(), 4, params, dist)
        counts[k] += 1
    # each of 4 rows has probability 1/4: 2000 draws put every count within ±5 sd of 500
    assert np.all(np.abs(counts - 500) < 5 * np.sqrt(2000 * 0.25 * 0.75))
    passive = pol.vector({"passive_bias": 1.0})
    assert ask(pol.decide, L.H_STEP, st, opts, 4, passive, dist) == 0


def test_policy_caches_are_hashed_over_the_layout_they_compile_in():
    """A policy reads the state at offsets from ``kernel/layout.py`` compiled in as constants: when C_FIELDS grew
    (session 15) the cached policies, hashed only over their own module and helpers, read the old offsets."""
    from pathlib import Path

    import dsim.games.dstbg.kernel.layout as layout
    import dsim.games.dstbg.variants as variants
    from dsim.games.dstbg.policy import all_policies
    from dsim.games.dstbg_game.strategy import REGISTRY as STRATEGIES

    needed = {Path(layout.__file__).resolve(), Path(variants.__file__).resolve()}
    for policy in [*all_policies(), *STRATEGIES.all()]:
        assert needed <= set(policy.decide.sources), policy.name
    from policies.dstbg import common

    # its shared helpers compile the same offsets in: their cache folder is hashed over the layout too
    assert common.free_slots._cache._cache_path.startswith(common._FOLDER)
    assert "dstbg-policy-common-" in common._FOLDER


def test_ask_hands_the_policy_the_caller_s_own_arrays_and_refuses_others():
    st, dist = random_state(np.random.default_rng(10), L.H_AGGRO)
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    with pytest.raises(ValueError, match="ask: st must be a C-ordered int32 array, got int64"):
        ask(get_policy("naive").decide, L.H_AGGRO, L.state_vector(st).astype(np.int64), opts, 3, get_policy("naive").vector(), dist)
    with pytest.raises(ValueError, match="ask: dist must be a C-ordered int32 array"):
        ask(get_policy("naive").decide, L.H_AGGRO, st, opts, 3, get_policy("naive").vector(), dist.T)
    with pytest.raises(ValueError, match=r"ask: dist must be n × n with n ≤ 32, got shape \(3, 4\)"):
        ask(get_policy("naive").decide, L.H_AGGRO, st, opts, 3, get_policy("naive").vector(),
            np.zeros((3, 4), np.int32))
    with pytest.raises(ValueError, match=r"Battle\.opts: expected a C-contiguous array of shape \(n, 9\)"):
        ask(get_policy("naive").decide, L.H_AGGRO, st, np.zeros((L.MAX_OPTS, 8), np.int32), 3,
            get_policy("naive").vector(), dist)
