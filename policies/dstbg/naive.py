"""The naive policy: a party in its first game (closest target, cheapest attack, always block)."""

from __future__ import annotations


from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import Param, Policy, policy_function, register
from policies.dstbg.common import APPROACH_READS, approach, approach_stops, enemy_choice, free_slots

P_ESTUS_FREE = 0
P_FLOOR = 1


@policy_function(reads={"step": APPROACH_READS})
def decide(hook, n, battle):
    """Answer one hook (option columns: ``policies/dstbg/README.md``)."""
    st, opts, params, dist = battle, battle.opts, battle.params, battle.dwalk
    if hook == L.H_MOVE_ON:
        return approach_stops(st, opts, 0.0, 0.0)
    if hook == L.H_STEP or hook == L.H_SHIFT:
        return approach(st, opts, n, params[P_FLOOR], 0.0, 0.0, 0.0)
    if hook == L.H_ATTACK:
        c = st.glob[L.G_ACTIVE]
        pos = st.chars[c, L.C_POS]
        best = 0
        for i in range(1, n):
            if opts[i, 7] >= 2 or (opts[i, 4] > 0 and free_slots(st, c) - opts[i, 4] < params[P_FLOOR]):
                continue  # support lines and attacks that would eat the floor are not for beginners
            if best == 0:
                best = i
                continue
            # closest target first, then the cheapest option, then the one that looks strongest
            d, db = dist[pos, opts[i, 3]], dist[pos, opts[best, 3]]
            cheaper = opts[i, 4] < opts[best, 4] or (opts[i, 4] == opts[best, 4] and opts[i, 5] > opts[best, 5])
            if d < db or (d == db and cheaper):
                best = i
        return best
    if hook == L.H_ESTUS:
        return 1 if 10 - opts[0, 1] - opts[0, 2] <= params[P_ESTUS_FREE] else 0
    if hook == L.H_ENEMY_ORDER or hook == L.H_ENEMY_STEP or hook == L.H_TAUNT_TIE:
        return enemy_choice(hook, st, opts, n)
    # always block (D-26), take trap damage (D-27), never use luck or the heroic action, keep the
    # starting weapons, and take the first listed node, aggro holder or push destination
    return 0


register(
    Policy(
        name="naive",
        description=(
            "A party in its first game: walks to the nearest enemy, attacks the closest target with "
            "the cheapest option while it can pay, always blocks (never dodges, never dodges traps), "
            "never spends luck or heroic actions, drinks the estus only when nearly dead, and otherwise "
            "takes the first option offered (entry node, aggro holder, push destination)."
        ),
        decide=decide,
        params=(
            Param("estus_free", 2.0, 0.0, 9.0, "drink the estus when at most this many endurance slots are free",
                  whole=True),
            Param("stamina_floor", 1.0, 1.0, 9.0, "free endurance slots that must remain after paying an attack or run",
                  whole=True),
        ),
    )
)
