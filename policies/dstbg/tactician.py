"""The tactician: focus fire by kill probability, aggro on the tank, weak arcs and reach management."""

from __future__ import annotations

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import Param, Policy, policy_function, register
from policies.dstbg.common import (
    APPROACH_READS,
    affordable,
    approach,
    approach_stops,
    best_attack,
    defender,
    enemy_choice,
    focus_attack,
    focus_steps,
    free_slots,
    has_attacked,
    helper,
    highest,
    lowest,
    nearest_enemy,
    nearest_figure,
    node_limit_choice,
    pair_focus,
    push_destination,
    reroll_row,
    safest_node,
)

P_KILL = 0
P_RESERVE = 1
P_STAMINA_VALUE = 2
P_ESTUS_AT = 3
P_DODGE_EDGE = 4
P_KITE = 5
P_RETREAT = 6
P_HEAL = 7
P_LUCK_ATTACK = 8
P_WEAK_ARC = 9
P_PAIR_FOCUS = 10
P_FLEE = 11


@helper
def weak_arc_step(st, opts, n, reserve, dist, focus):
    """R-12.12: the move-step option to take to attack a boss from a weak arc of its last attack: stay
    (row 0) if already there, else the cheapest affordable node in a weak arc (column 8: the arcs of the
    nearest figure, whose own weak arcs count) with a target in reach; with two figures only nodes
    nearest the ``focus`` figure count (−1: any). −1 if none."""
    c = st.glob[L.G_ACTIVE]
    best = -1
    for i in range(n):
        e = nearest_figure(st, opts[i, 0], dist)
        if e < 0 or (focus >= 0 and e != focus):
            continue
        weak = st.enemies[e, L.E_WEAK]
        if opts[i, 8] & weak and opts[i, 7] >= 1 and affordable(st, c, opts[i, 1], reserve):
            if i == 0:
                return 0
            if best < 0 or opts[i, 1] < opts[best, 1]:
                best = i
    return best


@helper
def _party_distance(st, node, dist):
    """Walk distance from ``node`` to the nearest living character."""
    best = L.UNREACHABLE
    for c in range(st.glob[L.G_N_CHARS]):
        if st.chars[c, L.C_ALIVE] == 1:
            best = min(best, dist[node, st.chars[c, L.C_POS]])
    return best


READS = {"step": (*APPROACH_READS, 8)}  # the move-step columns it reads


def answer(hook, n, battle):
    """Answer one hook (option columns: ``policies/dstbg/README.md``); the veteran asks it too (its first parameters
    are the tactician's, in this order)."""
    st, opts, params, dist = battle, battle.opts, battle.params, battle.dwalk
    reserve = params[P_RESERVE]
    value = params[P_STAMINA_VALUE] * 100.0
    focus = pair_focus(st) if params[P_PAIR_FOCUS] > 0 else -1
    if hook == L.H_STEP or hook == L.H_SHIFT or hook == L.H_MOVE_ON:
        c = st.glob[L.G_ACTIVE]
        rows = focus_steps(st, opts, n, dist, focus) if focus >= 0 else opts
        if params[P_WEAK_ARC] > 0 and st.glob[L.G_IS_BOSS] == 1 and c >= 0 and not has_attacked(st, c):
            if hook == L.H_MOVE_ON:
                return 0  # the weak arc is judged from the steps
            k = weak_arc_step(st, rows, n, reserve, dist, focus)  # D-25: attack from a weak arc for the extra black die
            if k >= 0:
                return k
        if hook == L.H_MOVE_ON:
            return approach_stops(st, rows, params[P_KITE], params[P_RETREAT])
        return approach(st, rows, n, reserve, params[P_KITE], params[P_RETREAT], 300.0)
    if hook == L.H_ATTACK:
        # focus fire: P(kill) weighs heavily, so wounded enemies are finished first (D-19, D-20);
        # against Ornstein & Smough only one figure at a time, as the survivor heals (facts.md §5.3)
        if focus >= 0:
            return focus_attack(st, opts, n, focus, reserve, params[P_KILL], params[P_STAMINA_VALUE], params[P_HEAL])
        return best_attack(st, opts, n, reserve, params[P_KILL], params[P_STAMINA_VALUE], params[P_HEAL])
    if hook == L.H_DEFENCE:
        if n > 1 and affordable(st, defender(st, opts[0, 6], dist), opts[1, 5], 1):
            return 1 if opts[1, 1] + value * opts[1, 5] + params[P_DODGE_EDGE] < opts[0, 1] else 0
        return 0
    if hook == L.H_TRAP:
        c = st.glob[L.G_ACTIVE] if st.glob[L.G_ACTIVE] >= 0 else defender(st, -1, dist)
        if n > 1 and affordable(st, c, opts[1, 4], 1):
            return 1 if opts[1, 3] * opts[1, 1] / 10.0 > value * opts[1, 4] else 0
        return 0
    if hook == L.H_ESTUS:
        return 1 if opts[0, 1] + opts[0, 2] >= params[P_ESTUS_AT] else 0
    if hook == L.H_LUCK:
        return reroll_row(opts, n, params[P_LUCK_ATTACK])
    if hook == L.H_HEROIC:
        if opts[0, 0] == -1:  # Backstab: free attack rows, row 0 = decline
            return best_attack(st, opts, n, 0.0, params[P_KILL], 0.0, 0.0)
        if opts[0, 1] == L.HEROIC_PERSEVERANCE:
            return 1 if opts[0, 2] >= 4 else 0
        if opts[0, 1] == L.HEROIC_BERSERK:
            c = st.glob[L.G_ACTIVE]
            return 1 if nearest_enemy(st, st.chars[c, L.C_POS], dist) <= 2 else 0
        # Knight: the extra die when the hit could be lethal or it saves a full point of damage
        lethal = opts[0, 3] >= free_slots(st, defender(st, -1, dist))
        return 1 if lethal or opts[0, 2] - opts[1, 2] >= 100 else 0
    if hook == L.H_DODGE_MOVE:
        return safest_node(st, opts, n, dist)
    if hook == L.H_LINE_ARC:  # D-25: from a line, stand in the weak arc of that figure's last attack
        weak = st.enemies[opts[0, 2], L.E_WEAK]
        return 1 if params[P_WEAK_ARC] > 0 and opts[1, 1] & weak and not opts[0, 1] & weak else 0
    if hook == L.H_PLACE:
        return lowest(opts, n, 1, 0)
    if hook == L.H_AGGRO or hook == L.H_FIRST_CHAR:
        return highest(opts, n, 1)  # the aggro token (and the first activation) go to the highest taunt
    if hook == L.H_ATTACK_PUSH:
        if st.glob[L.G_ACTIVE] >= 0:  # pushing an enemy: as far as possible from the party
            best = 0
            for i in range(1, n):
                if _party_distance(st, opts[i, 0], dist) > _party_distance(st, opts[best, 0], dist):
                    best = i
            return best
        return push_destination(opts, n)
    if hook == L.H_MOVE_PUSH:
        return push_destination(opts, n)
    if hook == L.H_NODE_LIMIT:
        return node_limit_choice(opts, n)
    if hook == L.H_ENEMY_ORDER or hook == L.H_ENEMY_STEP or hook == L.H_TAUNT_TIE:
        return enemy_choice(hook, st, opts, n)
    if hook == L.H_RETREAT:  # D-39 (campaign, R-13.4): flee when someone this battle has hurt is nearly full of
        for c in range(st.glob[L.G_N_CHARS]):  # cubes with the estus spent (the red cubes stay, so every flight costs health)
            cubes = st.chars[c, L.C_STAMINA] + st.chars[c, L.C_DAMAGE]
            if cubes >= params[P_FLEE] and st.chars[c, L.C_ESTUS] == 0 and st.chars[c, L.C_DMG_TAKEN] > 0:
                return 1
        return 0
    return 0  # keep the starting weapons


decide = policy_function(refcount=True, reads=READS)(answer)  # focus_steps builds a new option array

PARAMS = (
    Param("kill_weight", 3.0, 0.0, 10.0, "damage an expected kill is worth when ranking attacks"),
    Param("stamina_reserve", 2.0, 1.0, 9.0, "free endurance slots kept after attacks and runs", whole=True),
    Param("stamina_value", 0.3, 0.0, 3.0, "damage one stamina cube is worth (attacks, dodges, traps)"),
    Param("estus_at", 6.0, 1.0, 10.0, "drink the estus when black + red cubes reach this", whole=True),
    Param("dodge_edge", 0.0, -1000.0, 1000.0, "extra expected damage (x100) a dodge must save"),
    Param("kite", 1.0, 0.0, 1.0, "1: slide (free walk) to a node still in reach but farther away", whole=True),
    Param("retreat", 0.0, 0.0, 1.0, "1: use the free walk to step away after attacking", whole=True),
    Param("heal_weight", 1.0, 0.0, 3.0, "worth of one cube removed by a support line, in damage"),
    Param("luck_attack_max", 0.0, -1.0, 3.0, "reroll an attack die showing at most this (-1: never)", whole=True),
    Param("weak_arc_hold", 1.0, 0.0, 1.0, "1: before attacking a boss, step into or hold a weak arc in reach "
          "(and take it from a line)", whole=True),
    Param("pair_focus", 1.0, 0.0, 1.0, "1: against two boss figures, attack and approach only the most wounded",
          whole=True),
    Param("flee_at", 11.0, 1.0, 11.0, "campaign (R-13.4): retreat once a character hurt this battle, with no "
          "estus left, holds this many cubes (11: never; fleeing at 9 halved how often Knight + Warrior "
          "reached the mini boss: the tile must be won again, wounded)", whole=True),
)

register(
    Policy(
        name="tactician",
        description=(
            "A boss tactician: focuses fire by kill probability so wounded enemies fall first, keeps a "
            "small stamina reserve, gives the aggro token and first activation to the highest taunt, "
            "lets ranged characters slide to a node still in reach but farther away, pushes enemies away "
            "from the party, dodges and dodges traps on exact expectations, spends luck on weak attack "
            "dice and short defence rolls, and in boss battles walks into (or holds) a weak arc of the boss's "
            "last attack before attacking (R-12.12), taking the weak side when it enters the boss's node from a "
            "line; against Ornstein & Smough it focuses one figure, the most wounded, since the survivor heals "
            "(facts.md §5.3)."
        ),
        decide=decide,
        params=PARAMS,
    )
)
