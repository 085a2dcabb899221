"""The veteran: the tactician's play, with the habits of a group that has played a few games — it prices stamina near
damage (both fill the endurance bar, R-3.2: its own defaults of two tactician parameters), it keeps the estus,
luck and heroic action for the boss when the whole game asks it to (``G_NEED``), chooses block or dodge by the
chance of dying rather than by expected damage alone, reads the boss's behaviour deck as players do (the known next
card, ``deck.known_next_card``: after its attack it steps where that card cannot hit), and (a switch, off by default:
it lost battles) in boss battles lets the boss come instead of paying stamina to run where it cannot attack."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from numba import njit

from dsim.games.dstbg import policy as P
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import POLICY_SIG, Param, Policy, register
from dsim.numba_linking import always_inline
from dsim.policy import policy_decorator
from policies.dstbg import tactician
from policies.dstbg.common import (
    affordable,
    defender,
    free_slots,
    has_attacked,
    lowest,
    nearest_figure,
)

# the tactician's module is compiled into the veteran (its answer is inlined): its edits must recompile it too
veteran_function = policy_decorator(POLICY_SIG, "policy", [Path(P.__file__).resolve(), P.COMMON, *P.LAYOUT,
                                                             Path(tactician.__file__).resolve()])
# The tactician's answer compiled once (with reference counting: its focus_steps builds an array) and called at three
# places: LLVM inlines it where an entry links the veteran (numba_linking.always_inline), as Numba's inline="always"
# did at the cost of copying, typing and lowering it three times (7 of the 11 s the veteran took to compile cold).
tactician_answer = always_inline(njit(_nrt=True)(tactician.answer))

N_TACTICIAN = len(tactician.PARAMS)  # the veteran's first parameters are the tactician's, in its order
P_KEEP = N_TACTICIAN
P_KEEP_ESTUS_AT = N_TACTICIAN + 1
P_DEATH_DEFENCE = N_TACTICIAN + 2
P_BLOCK_SPREAD = N_TACTICIAN + 3
P_DEATH_COST = N_TACTICIAN + 4
P_LET_COME = N_TACTICIAN + 5
P_READ_DECK = N_TACTICIAN + 6
P_ESCAPE_COST = N_TACTICIAN + 7
P_ESCAPE_REACH = N_TACTICIAN + 8
P_RESERVE = tactician.P_RESERVE

ROLL_BLOCK = 1  # H_LUCK column 3 (kernel combat.ROLL_*)

# The veteran's own defaults for two of the tactician's parameters: a black cube fills the endurance bar as a red one
# does (R-3.2, R-3.3: stamina and damage together kill), so it prices a stamina cube at 0.6 damage (the tactician,
# 0.3) when choosing attacks, dodges and traps, and, the dodge dearer, lets a dodge win a near tie with a block
# (``dodge_edge`` −0.5 damage: a block's dice leave damage on a hit that a dodge avoids whole, R-9.5). Chosen on seed
# 1 (10,000 battles a cell): the tactician's defaults cost 17 points against the Gargoyle with `late_game` gear.
OWN_DEFAULTS = {"stamina_value": 0.6, "dodge_edge": -50.0}


@njit(inline="always")
def keeping(st, params):
    """Whether this battle should keep the estus, luck and heroic action for the boss (the game asks, R-5.9: they
    come back only at a rest)."""
    return params[P_KEEP] > 0.5 and st.glob[L.G_NEED] == L.NEED_KEEP


@njit(inline="always")
def block_death(expected, free, spread):
    """A smooth guess of P(a block leaves ``free`` or more damage): the policy knows the expected damage taken, not
    its spread (the block dice are the kernel's)."""
    return 1.0 / (1.0 + math.exp(-(expected - free + 0.5) / spread))


@njit(inline="always")
def death_defence(st, opts, dist, params):
    """D-26 with the chance of dying priced in: a failed dodge takes the whole hit (R-9.5), after paying its stamina;
    a block takes what the dice leave. Each side's expected damage (the tactician's measure, stamina at its value) plus
    ``death_cost`` damage per unit chance of dying now; -1 when neither can kill (the tactician decides)."""
    c = defender(st, opts[0, 6], dist)
    free = free_slots(st, c)
    damage = opts[0, 2]
    cost = opts[1, 5]
    if damage < free - cost:
        return -1  # nothing at stake: no death either way
    dodge = 1.0 - opts[1, 4] / 1000.0
    block = block_death(opts[0, 1] / 100.0, free, params[P_BLOCK_SPREAD]) if damage >= free else 0.0
    death = params[P_DEATH_COST] * 100.0
    dodge_score = opts[1, 1] + params[2] * 100.0 * cost + death * dodge + params[4]  # stamina_value, dodge_edge
    block_score = opts[0, 1] + death * block
    return 1 if dodge_score < block_score else 0


@njit(inline="always")
def next_safe(opts, i):
    """Whether the known next behaviour card (column 8's ``NEXT_*`` bits, from ``deck.known_next_card``: public
    information only) cannot hit a character ending its move on row ``i``'s node: beyond its reach (column 6, range
    distance), or, all its attacks coming before any move, outside their attack arcs (R-12.13, A-45 ``arc_limited``).
    False when the next card is unknown."""
    f = opts[i, 8]
    if not f & L.NEXT_KNOWN:
        return False
    if opts[i, 6] > (f >> L.NEXT_REACH_SHIFT) & 15:
        return True
    return not f & L.NEXT_LATER and (f & (f >> L.NEXT_ARCS_SHIFT) & 15) == 0


@njit(inline="always")
def deck_step(hook, n, battle):
    """R-12.7 read as players do, in a boss battle with the next card known: having attacked (a move after attacking,
    F-10.1), step at the least stamina (``escape_cost`` a step at most, within the reserve) where that card cannot hit;
    with ``read_deck`` 2, before attacking, take instead of the tactician's step one as good for the attack (reach,
    the weak arc's die, cost, distance) that the card cannot hit. −1: the tactician decides."""
    st, opts, params = battle, battle.opts, battle.params
    c = st.glob[L.G_ACTIVE]
    if c < 0 or st.glob[L.G_IS_BOSS] == 0 or not opts[0, 8] & L.NEXT_KNOWN:
        return -1
    if hook == L.H_MOVE_ON:  # row 0 = look on (list the steps), row 1 = stop here: where H_STEP might not stop
        attacked = has_attacked(st, c)
        return 0 if not next_safe(opts, 0) and (attacked or params[P_READ_DECK] > 1.5) else -1
    if has_attacked(st, c):
        if next_safe(opts, 0):
            return 0
        best = -1
        top = 1e18
        for i in range(1, n):
            if not next_safe(opts, i) or opts[i, 1] > params[P_ESCAPE_COST] or \
                    not affordable(st, c, opts[i, 1], params[P_RESERVE]):
                continue
            s = opts[i, 1] * 100.0 - params[P_ESCAPE_REACH] * 10.0 * min(opts[i, 7], 1) - opts[i, 6]
            if s < top:  # the cheapest; then (escape_reach) one still in reach of a target; then the farthest
                best, top = i, s
        return best if best >= 0 else 0
    if params[P_READ_DECK] < 1.5 or hook == L.H_MOVE_ON:
        return -1
    k = tactician_answer(hook, n, battle)
    if next_safe(opts, k):
        return k
    e = nearest_figure(st, opts[k, 0], battle.dwalk)
    weak = st.enemies[e, L.E_WEAK] if e >= 0 else 0
    best = k
    for i in range(n):  # as good for the attack (reach, the weak arc's die, R-12.12), no dearer, no farther: and safe
        if next_safe(opts, i) and min(opts[i, 7], 1) >= min(opts[k, 7], 1) and opts[i, 1] <= opts[best, 1] and \
                (opts[i, 8] & weak != 0) >= (opts[k, 8] & weak != 0) and opts[i, 4] <= opts[k, 4] and \
                (best == k or opts[i, 1] < opts[best, 1]):
            best = i
    return best


@veteran_function(refcount=True, reads=tactician.READS)
def decide(hook, n, battle):
    """Answer one hook (option columns: ``policies/dstbg/README.md``); the tactician's answer where the veteran has
    no habit of its own."""
    st, opts, params = battle, battle.opts, battle.params
    if hook == L.H_ESTUS and keeping(st, params):
        return 1 if opts[0, 1] + opts[0, 2] >= params[P_KEEP_ESTUS_AT] else 0
    if hook == L.H_LUCK and keeping(st, params):
        # only a block roll that would leave a lethal hit is rerolled: the token is the boss's
        c = opts[0, 6]
        if n > 1 and opts[0, 3] == ROLL_BLOCK and opts[0, 4] - opts[0, 5] >= free_slots(st, c):
            return lowest(opts, n, 2, 1)
        return 0
    if hook == L.H_HEROIC and keeping(st, params):
        if opts[0, 0] == -1 or opts[0, 1] != L.HEROIC_KNIGHT_BLOCK:
            return 0  # Backstab, Perseverance, Berserk Charge: kept for the boss
        return 1 if opts[0, 3] >= free_slots(st, defender(st, -1, battle.dwalk)) else 0  # the Knight's die: if lethal
    if hook == L.H_DEFENCE and n > 1 and params[P_DEATH_DEFENCE] > 0.5:
        k = death_defence(st, opts, battle.dwalk, params)
        if k >= 0:
            return k
    if (hook == L.H_STEP or hook == L.H_SHIFT or hook == L.H_MOVE_ON) and params[P_READ_DECK] > 0.5:
        k = deck_step(hook, n, battle)
        if k >= 0:
            return k
    if hook == L.H_STEP and params[P_LET_COME] > 0.5 and st.glob[L.G_IS_BOSS] == 1:
        k = tactician_answer(hook, n, battle)
        c = st.glob[L.G_ACTIVE]
        if k > 0 and opts[k, 1] > 0 and opts[k, 7] == 0 and c >= 0 and st.chars[c, L.C_ALIVE] == 1:
            return 0  # a run that reaches no target: stop, and let the boss come (its move is free)
        return k
    return tactician_answer(hook, n, battle)


register(
    Policy(
        name="veteran",
        description=(
            "The tactician's play with a veteran's habits: it prices a stamina cube at 0.6 damage (the tactician, "
            "0.3: stamina fills the endurance bar as damage does) and lets a dodge win a near tie; in a whole game's "
            "battles before the boss (G_NEED) it drinks the estus only when nearly dead and keeps luck and the heroic "
            "action unless a hit would kill; it blocks or dodges by the chance of dying when a hit can kill, not by "
            "expected damage alone; in boss battles, once the next behaviour card is known (the deck repeats, "
            "R-12.7), it attacks, then steps where that card cannot hit; with let_boss_come, in boss battles it does "
            "not pay stamina to run to a node where it cannot attack."
        ),
        decide=decide,
        params=tuple(replace(p, default=OWN_DEFAULTS.get(p.name, p.default)) for p in tactician.PARAMS) + (
            Param("keep_for_boss", 1.0, 0.0, 1.0, "1: honour the game's request to keep estus, luck and the heroic "
                  "action for the boss", whole=True),
            Param("keep_estus_at", 8.0, 1.0, 10.0, "while keeping for the boss, drink only when black + red cubes "
                  "reach this", whole=True),
            Param("death_defence", 1.0, 0.0, 1.0, "1: when a hit can kill, block or dodge by the chance of dying",
                  whole=True),
            Param("block_spread", 0.8, 0.1, 3.0, "spread (damage) of a block's damage around its expectation, for "
                  "the chance a block leaves a lethal hit"),
            Param("death_cost", 1.5, 0.0, 20.0, "damage a certain death now is worth against expected damage, when a "
                  "hit can kill (0: the tactician's expectation alone)"),
            Param("let_boss_come", 0.0, 0.0, 1.0, "1: in boss battles, never pay stamina to run where no target is "
                  "in reach (off: on seed 1 it lost 5.6 points against the Boreal Outrider, mid_game)", whole=True),
            Param("read_deck", 1.0, 0.0, 2.0, "in boss battles with the next behaviour card known (R-12.7): 1, having "
                  "attacked, step where it cannot hit; 2, also, before attacking, take a node as good for the attack that it cannot "
                  "hit", whole=True),
            Param("escape_cost", 0.0, 0.0, 2.0, "stamina a step out of the known next card's reach may cost (0: the free "
                  "walk and steps round the boss only)", whole=True),
            Param("escape_reach", 1.0, 0.0, 1.0, "1: among the safe nodes, prefer one still in reach of a target",
                  whole=True),
        ),
    )
)
