"""The aggressive policy: maximise damage now, spend stamina freely, heroics and luck at once."""

from __future__ import annotations


from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import Param, Policy, policy_function, register
from policies.dstbg.common import (
    APPROACH_READS,
    approach,
    approach_stops,
    best_attack,
    enemy_choice,
    highest,
    nearest_enemy,
    node_limit_choice,
    push_destination,
    reroll_row,
)

P_KILL = 0
P_FLOOR = 1
P_RUN_KEEP = 2
P_ESTUS_FREE = 3
P_DODGE_EDGE = 4
P_KNIGHT_GAIN = 5


@policy_function(reads={"step": APPROACH_READS})
def decide(hook, n, battle):
    """Answer one hook (option columns: ``policies/dstbg/README.md``)."""
    st, opts, params, dist = battle, battle.opts, battle.params, battle.dwalk
    if hook == L.H_MOVE_ON:
        return approach_stops(st, opts, 0.0, 0.0)
    if hook == L.H_STEP:
        return approach(st, opts, n, params[P_RUN_KEEP], 0.0, 0.0, 0.0)
    if hook == L.H_SHIFT:
        return approach(st, opts, n, params[P_FLOOR], 0.0, 0.0, 0.0)
    if hook == L.H_ATTACK:
        return best_attack(st, opts, n, params[P_FLOOR], params[P_KILL], 0.0, 0.0)
    if hook == L.H_DEFENCE:
        return 1 if n > 1 and opts[1, 1] + params[P_DODGE_EDGE] < opts[0, 1] else 0
    if hook == L.H_ESTUS:
        return 1 if 10 - opts[0, 1] - opts[0, 2] <= params[P_ESTUS_FREE] else 0
    if hook == L.H_LUCK:
        return reroll_row(opts, n, 1)
    if hook == L.H_HEROIC:
        if opts[0, 0] == -1:  # Backstab: free attack rows, row 0 = decline
            return best_attack(st, opts, n, 0.0, params[P_KILL], 0.0, 0.0)
        if opts[0, 1] == L.HEROIC_PERSEVERANCE:
            return 1 if opts[0, 2] >= 2 else 0
        if opts[0, 1] == L.HEROIC_BERSERK:
            return 1
        return 1 if opts[0, 2] - opts[1, 2] >= params[P_KNIGHT_GAIN] else 0
    if hook == L.H_PLACE:  # the entry node closest to the enemies
        best = 0
        for i in range(1, n):
            if nearest_enemy(st, opts[i, 0], dist) < nearest_enemy(st, opts[best, 0], dist):
                best = i
        return best
    if hook == L.H_AGGRO or hook == L.H_FIRST_CHAR:
        return highest(opts, n, 1)
    if hook == L.H_ATTACK_PUSH:
        if st.glob[L.G_ACTIVE] >= 0:  # pushing an enemy: keep it close to the active character
            pos = st.chars[st.glob[L.G_ACTIVE], L.C_POS]
            best = 0
            for i in range(1, n):
                if dist[pos, opts[i, 0]] < dist[pos, opts[best, 0]]:
                    best = i
            return best
        return push_destination(opts, n)
    if hook == L.H_MOVE_PUSH:
        return push_destination(opts, n)
    if hook == L.H_NODE_LIMIT:
        return node_limit_choice(opts, n)
    if hook == L.H_ENEMY_ORDER or hook == L.H_ENEMY_STEP or hook == L.H_TAUNT_TIE:
        return enemy_choice(hook, st, opts, n)
    return 0  # keep the weapons, take trap damage, stay put when dodging


register(
    Policy(
        name="aggressive",
        description=(
            "A damage maximiser: runs at the enemies while it keeps a few free slots, attacks with the "
            "option of highest expected damage (plus a bonus per expected kill) and keeps attacking down "
            "to a one-slot floor, uses Berserk Charge, Perseverance and Backstab at once, rerolls weak "
            "attack dice, blocks unless a dodge saves clearly more damage, and drinks the estus late."
        ),
        decide=decide,
        params=(
            Param("kill_weight", 1.0, 0.0, 10.0, "damage an expected kill is worth when ranking attacks"),
            Param("stamina_floor", 1.0, 1.0, 9.0, "free endurance slots that must remain after an attack", whole=True),
            Param("run_keep", 3.0, 1.0, 9.0, "free endurance slots that must remain after a run step", whole=True),
            Param("estus_free", 1.0, 0.0, 9.0, "drink the estus when at most this many slots are free", whole=True),
            Param("dodge_edge", 100.0, -1000.0, 1000.0, "dodge only if its expected damage (x100) is lower by this"),
            Param("knight_block_gain", 50.0, 0.0, 500.0, "Knight's extra block die when it saves this much (x100)"),
        ),
    )
)
