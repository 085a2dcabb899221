"""The baseline policy: a sensible, simple party (closes in, hits hardest, blocks unless dodging is better)."""

from __future__ import annotations


from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import Param, Policy, policy_function, register

P_ESTUS_AT = 0  # drink when red + black cubes reach this
P_RESERVE = 1  # free endurance slots kept after paying for an attack
P_DODGE_EDGE = 2  # dodge when its expected damage is lower by at least this (x100)


@policy_function(reads={"step": (1, 2, 4, 7)})
def decide(hook, n, battle):
    """Answer one hook; see ``policies/dstbg/README.md`` for the option columns."""
    st, opts, params = battle, battle.opts, battle.params
    best = 0
    if hook == L.H_STEP or hook == L.H_SHIFT or hook == L.H_MOVE_ON:
        c = st.glob[L.G_ACTIVE]
        attacked = st.chars[c, L.C_USED0] + st.chars[c, L.C_USED1]
        stay = opts[0, 7] > 0 or attacked > 0  # can attack from here, or already attacked
        if hook == L.H_MOVE_ON:
            return 1 if stay else 0
        if stay:
            return 0
        score = 1 << 30
        for i in range(1, n):
            s = -opts[i, 7] * 1000 + opts[i, 4] * 10 + opts[i, 1] * 3 + opts[i, 2] * 5
            if opts[i, 4] < opts[0, 4] or opts[i, 7] > 0:
                if s < score:
                    score = s
                    best = i
        return best
    if hook == L.H_ATTACK:
        c = st.glob[L.G_ACTIVE]
        free = 10 - st.chars[c, L.C_STAMINA] - st.chars[c, L.C_DAMAGE]
        value = 0
        for i in range(1, n):
            if opts[i, 7] >= 2:
                continue  # support lines: not used by the baseline
            if free - opts[i, 4] < params[P_RESERVE] and opts[i, 4] > 0:
                continue
            v = opts[i, 5] + opts[i, 6] - opts[i, 4] * 20
            if v > value:
                value = v
                best = i
        return best
    if hook == L.H_DEFENCE:
        if n > 1 and opts[1, 1] + params[P_DODGE_EDGE] < opts[0, 1]:
            return 1
        return 0
    if hook == L.H_ESTUS:
        return 1 if opts[0, 1] + opts[0, 2] >= params[P_ESTUS_AT] else 0
    if hook == L.H_HEROIC:
        if opts[0, 0] == -1:  # Backstab: rows are free attack options, row 0 = decline
            value = 0
            for i in range(1, n):
                if opts[i, 5] > value:
                    value = opts[i, 5]
                    best = i
            return best
        if opts[0, 1] == L.HEROIC_PERSEVERANCE:
            return 1 if opts[0, 2] >= 4 else 0
        if opts[0, 1] == L.HEROIC_BERSERK:
            return 1
        return 1 if opts[0, 2] - opts[1, 2] >= 100 else 0  # Knight: extra block die when it matters
    if hook == L.H_LUCK:
        low = 99
        for i in range(1, n):
            if opts[i, 2] < low:
                low = opts[i, 2]
                best = i
        kind = opts[0, 3]
        if kind == 0 and low == 0:
            return best
        if kind != 0 and opts[0, 5] < opts[0, 4]:
            return best
        return 0
    if hook == L.H_TRAP:
        return 1 if n > 1 and opts[1, 3] >= 500 else 0
    if hook == L.H_ATTACK_PUSH or hook == L.H_MOVE_PUSH:
        far = -1
        for i in range(n):
            s = opts[i, 1] * 4 - opts[i, 2]
            if s > far:
                far = s
                best = i
        return best
    if hook == L.H_PLACE:
        low = 99
        for i in range(n):
            if opts[i, 1] < low:
                low = opts[i, 1]
                best = i
        return best
    if hook == L.H_AGGRO:
        top = -1
        for i in range(n):
            if opts[i, 1] > top:
                top = opts[i, 1]
                best = i
        return best
    if hook == L.H_NODE_LIMIT:
        for i in range(n):
            if opts[i, 0] == 1:
                return i
        return 0
    return 0


register(
    Policy(
        name="baseline",
        description=(
            "A sensible first-game party: walks toward the nearest enemy until some weapon can reach "
            "it, attacks with the option of highest expected damage while keeping a small stamina "
            "reserve, blocks unless a dodge has clearly lower expected damage, drinks the estus when "
            "the endurance bar is nearly full, and pushes characters away from enemies."
        ),
        decide=decide,
        params=(
            Param("estus_at", 8.0, 1.0, 10.0, "drink the estus when black + red cubes reach this", whole=True),
            Param("stamina_reserve", 1.0, 0.0, 9.0, "free endurance slots kept after paying an attack", whole=True),
            Param("dodge_edge", 0.0, -500.0, 500.0, "dodge when its expected damage (x100) is lower by this"),
        ),
    )
)
