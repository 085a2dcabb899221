"""The careful policy: a survivor that never spends its stamina reserve and drinks the estus early."""

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
    highest,
    lowest,
    nearest_enemy,
    node_limit_choice,
    push_destination,
    reroll_row,
    safest_node,
)

P_RESERVE = 0
P_ESTUS_AT = 1
P_STAMINA_VALUE = 2
P_KILL = 3
P_RETREAT = 4
P_TRAP_PENALTY = 5
P_HEAL = 6


@policy_function(reads={"step": APPROACH_READS})
def decide(hook, n, battle):
    """Answer one hook (option columns: ``policies/dstbg/README.md``)."""
    st, opts, params, dist = battle, battle.opts, battle.params, battle.dwalk
    reserve = params[P_RESERVE]
    value = params[P_STAMINA_VALUE] * 100.0  # one stamina cube in E[damage] x100 units
    if hook == L.H_MOVE_ON:
        return approach_stops(st, opts, 0.0, params[P_RETREAT])
    if hook == L.H_STEP or hook == L.H_SHIFT:
        return approach(st, opts, n, reserve, 0.0, params[P_RETREAT], params[P_TRAP_PENALTY])
    if hook == L.H_ATTACK:
        return best_attack(st, opts, n, reserve, params[P_KILL], params[P_STAMINA_VALUE], params[P_HEAL])
    if hook == L.H_DEFENCE:
        # exact expectations from the kernel's dice distributions: block E[taken] vs (1 - P(dodge)) x damage
        if n > 1 and affordable(st, defender(st, opts[0, 6], dist), opts[1, 5], reserve):
            return 1 if opts[1, 1] + value * opts[1, 5] < opts[0, 1] else 0
        return 0
    if hook == L.H_TRAP:
        c = st.glob[L.G_ACTIVE] if st.glob[L.G_ACTIVE] >= 0 else defender(st, -1, dist)
        if n > 1 and affordable(st, c, opts[1, 4], reserve):
            return 1 if opts[1, 3] * opts[1, 1] / 10.0 > value * opts[1, 4] else 0
        return 0
    if hook == L.H_ESTUS:
        return 1 if opts[0, 1] + opts[0, 2] >= params[P_ESTUS_AT] else 0
    if hook == L.H_LUCK:
        return reroll_row(opts, n, -1)  # luck is kept for defence rolls
    if hook == L.H_HEROIC:
        if opts[0, 0] == -1:  # Backstab: free attack rows, row 0 = decline
            return best_attack(st, opts, n, 0.0, params[P_KILL], 0.0, 0.0)
        if opts[0, 1] == L.HEROIC_PERSEVERANCE:
            return 1 if opts[0, 2] >= 4 else 0
        if opts[0, 1] == L.HEROIC_BERSERK:
            c = st.glob[L.G_ACTIVE]
            return 1 if nearest_enemy(st, st.chars[c, L.C_POS], dist) <= 2 else 0
        return 1 if opts[0, 2] - opts[1, 2] >= 100 else 0
    if hook == L.H_DODGE_MOVE:
        return safest_node(st, opts, n, dist)
    if hook == L.H_PLACE:
        return lowest(opts, n, 1, 0)
    if hook == L.H_AGGRO or hook == L.H_FIRST_CHAR:
        return highest(opts, n, 1)
    if hook == L.H_ATTACK_PUSH or hook == L.H_MOVE_PUSH:
        return push_destination(opts, n)
    if hook == L.H_NODE_LIMIT:
        return node_limit_choice(opts, n)
    if hook == L.H_ENEMY_ORDER or hook == L.H_ENEMY_STEP or hook == L.H_TAUNT_TIE:
        return enemy_choice(hook, st, opts, n)
    return 0  # keep the starting weapons


register(
    Policy(
        name="careful",
        description=(
            "A survivor: never pays an attack, run, dodge or trap dodge that would eat into its stamina "
            "reserve, ranks attacks by expected damage minus the stamina they cost, dodges (and dodges "
            "traps) only when the exact expected damage saved is worth the stamina, keeps luck for "
            "defence rolls, steps back after attacking, spreads out on entry, gives the aggro token to "
            "the highest taunt, and drinks the estus early."
        ),
        decide=decide,
        params=(
            Param("stamina_reserve", 4.0, 1.0, 9.0, "free endurance slots never spent on attacks, runs or dodges",
                  whole=True),
            Param("estus_at", 5.0, 1.0, 10.0, "drink the estus when black + red cubes reach this", whole=True),
            Param("stamina_value", 0.5, 0.0, 3.0, "damage one stamina cube is worth (attacks, dodges, traps)"),
            Param("kill_weight", 1.0, 0.0, 10.0, "damage an expected kill is worth when ranking attacks"),
            Param("retreat", 1.0, 0.0, 1.0, "1: use the free walk to step away from enemies after attacking",
                  whole=True),
            Param("trap_penalty", 200.0, 0.0, 1000.0, "cost (x100 damage) of stepping onto a face-down trap"),
            Param("heal_weight", 1.0, 0.0, 3.0, "worth of one cube removed by a support line, in damage"),
        ),
    )
)
