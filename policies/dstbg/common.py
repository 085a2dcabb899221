"""Numba helpers shared by the DS:TBG policies: state field access and hook answers several share.

Every function reads only the state views (``st.glob``, ``st.chars``, ``st.enemies``), the option rows and the
walk-distance matrix the kernel hands to a policy, i.e. information the players have at the table. Option columns per hook are
documented in ``policies/dstbg/README.md``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import LAYOUT
from dsim.numba_cache import cache_folder, cache_under

_HERE = Path(__file__).resolve()
_FOLDER = cache_folder("dstbg-policy-common", [_HERE, *LAYOUT], _HERE.parent / "__pycache__")


def helper(func):
    """``njit(cache=True)``, cached under a folder hashed over this module and the state layout whose offsets
    (``C_FIELDS`` …) it compiles in: Numba's own key covers only this file, so a layout change loaded stale code."""
    with cache_under(_FOLDER):
        return njit(cache=True)(func)

ROLL_ATTACK = 0  # H_LUCK column 3: the kind of roll (kernel combat.ROLL_*)
ROLL_BLOCK = 1
ROLL_DODGE = 2
ROLL_TRAP_DODGE = 3

OPT_SINGLE = 0  # H_ATTACK column 7: the kind of option (kernel character.OPT_*)
OPT_NODE = 1
OPT_SUPPORT_ONE = 2
OPT_SUPPORT_ALL = 3

ENEMY_SLOT = 1  # H_NODE_LIMIT column 0: 0 = a character moves out, 1 = an enemy moves out


@helper
def free_slots(st, c):
    """Empty slots of character ``c``'s endurance bar (R-3.2): filling the last one kills (R-3.3)."""
    return 10 - st.chars[c, L.C_STAMINA] - st.chars[c, L.C_DAMAGE]


@helper
def affordable(st, c, cost, keep):
    """Whether paying ``cost`` stamina leaves at least ``keep`` free slots (free options always are)."""
    return cost <= 0 or free_slots(st, c) - cost >= keep


@helper
def has_attacked(st, c):
    """Whether character ``c`` already attacked with a hand weapon in this activation (R-10.5)."""
    return st.chars[c, L.C_USED0] + st.chars[c, L.C_USED1] > 0


@helper
def nearest_enemy(st, node, dist):
    """Walk distance from ``node`` to the nearest living enemy (``UNREACHABLE`` if none)."""
    best = L.UNREACHABLE
    for e in range(st.glob[L.G_N_ENEMIES]):
        if st.enemies[e, L.E_ALIVE] == 1:
            best = min(best, dist[node, st.enemies[e, L.E_POS]])
    return best


@helper
def nearest_figure(st, node, dist):
    """The living enemy slot nearest ``node`` by walk distance, the first slot among ties (−1 if none);
    in boss battles the figure whose arcs the move-step column 8 describes."""
    best = -1
    for e in range(st.glob[L.G_N_ENEMIES]):
        if st.enemies[e, L.E_ALIVE] == 1 and (
            best < 0 or dist[node, st.enemies[e, L.E_POS]] < dist[node, st.enemies[best, L.E_POS]]
        ):
            best = e
    return best


@helper
def pair_focus(st):
    """Ornstein & Smough (facts.md §5.3): the boss figure to focus while both live — the most wounded,
    the first slot among ties. The survivor heals when its partner dies, so wounds spread over both
    are partly undone; −1 outside boss battles with two living figures."""
    if st.glob[L.G_IS_BOSS] == 0:
        return -1
    focus = -1
    living = 0
    for e in range(st.glob[L.G_N_ENEMIES]):
        if st.enemies[e, L.E_ALIVE] == 1:
            living += 1
            if focus < 0 or st.enemies[e, L.E_WOUNDS] > st.enemies[focus, L.E_WOUNDS]:
                focus = e
    return focus if living > 1 else -1


@helper
def focus_steps(st, opts, n, dist, focus):
    """A copy of the move-step rows seen as if ``focus`` were the only enemy: column 4 is the walk
    distance to it, and a node counts as in reach (column 7) only if ``focus`` is among the nearest
    figures from there, since column 7 counts targets of the nearest range."""
    o = opts[:n].copy()
    pos = st.enemies[focus, L.E_POS]
    for i in range(n):
        d = dist[o[i, 0], pos]
        if d > o[i, 4]:
            o[i, 7] = 0
        o[i, 4] = d
    return o


@helper
def defender(st, e, dist):
    """The character an enemy attack most likely targets: the nearest to enemy ``e``, the aggro
    holder among ties (R-11.4). A guess: the defence and trap hooks do not name the character."""
    pos = st.enemies[e, L.E_POS] if 0 <= e < st.glob[L.G_N_ENEMIES] else -1
    best = L.UNREACHABLE + 1
    who = -1
    for c in range(st.glob[L.G_N_CHARS]):
        if st.chars[c, L.C_ALIVE] == 0:
            continue
        d = dist[pos, st.chars[c, L.C_POS]] if pos >= 0 else 0
        if d < best or (d == best and c == st.glob[L.G_AGGRO]):
            best = d
            who = c
    return max(who, 0)


@helper
def highest(opts, n, col):
    """The first row with the largest value in column ``col``."""
    best = 0
    for i in range(1, n):
        if opts[i, col] > opts[best, col]:
            best = i
    return best


@helper
def lowest(opts, n, col, first):
    """The first row from ``first`` on with the smallest value in column ``col``."""
    best = first
    for i in range(first + 1, n):
        if opts[i, col] < opts[best, col]:
            best = i
    return best


@helper
def enemy_choice(hook, st, opts, n):
    """D-30/D-31/D-34, choices made on an enemy's behalf: in the party's favour, or against it
    when the kernel asks adversarially (A-41 ``players_choice_policy``)."""
    against = st.glob[L.G_ADVERSARIAL] == 1
    if hook == L.H_TAUNT_TIE:  # (char, node, taunt, enemy): the character best able to take it
        best = 0
        for i in range(1, n):
            a = free_slots(st, opts[i, 0])
            b = free_slots(st, opts[best, 0])
            if (a < b) if against else (a > b):
                best = i
        return best
    if hook == L.H_ENEMY_STEP:  # (node, distance to target from it, figures, enemy): slowest approach
        best = 0
        for i in range(1, n):
            a = opts[i, 1] * 4 - opts[i, 2]
            b = opts[best, 1] * 4 - opts[best, 2]
            if (a < b) if against else (a > b):
                best = i
        return best
    if hook == L.H_ENEMY_ORDER:  # (enemy, type, node, threat): the most wounded acts last
        best = 0
        for i in range(1, n):
            a = st.enemies[opts[i, 0], L.E_WOUNDS]
            b = st.enemies[opts[best, 0], L.E_WOUNDS]
            if (a > b) if against else (a < b):
                best = i
        return best
    return 0


@helper
def push_destination(opts, n):
    """D-29/D-32: the node farthest from the enemy (column 1), then the least crowded (column 2)."""
    best = 0
    for i in range(1, n):
        if opts[i, 1] * 4 - opts[i, 2] > opts[best, 1] * 4 - opts[best, 2]:
            best = i
    return best


@helper
def node_limit_choice(opts, n):
    """D-33: move an enemy out of the full node if one may go (F-2.1), to the least crowded node."""
    best = -1
    for i in range(n):
        if opts[i, 0] == ENEMY_SLOT and (best < 0 or opts[i, 3] < opts[best, 3]):
            best = i
    return max(best, 0)


@helper
def safest_node(st, opts, n, dist):
    """D-26/D-27 dodge move: the node (column 0) farthest from every enemy, avoiding face-down traps
    (column 2) and barrels that cost stamina (column 1)."""
    best = 0
    top = -(1 << 30)
    for i in range(n):
        s = nearest_enemy(st, opts[i, 0], dist) * 10 - opts[i, 2] * 50 - opts[i, 1] * 1000 - opts[i, 5]
        if s > top:
            top = s
            best = i
    return best


@helper
def reroll_row(opts, n, low_max):
    """D-24: the die to reroll (its row) when the roll falls short of its need (column 4 vs sum in
    column 5) for defence rolls, or when an attack die shows at most ``low_max``; 0 = keep."""
    die = lowest(opts, n, 2, 1) if n > 1 else 0
    if die == 0:
        return 0
    if opts[0, 3] == ROLL_ATTACK:
        return die if opts[die, 2] <= low_max else 0
    if opts[0, 5] < opts[0, 4] and (opts[0, 3] == ROLL_BLOCK or opts[die, 2] == 0):
        return die
    return 0


@helper
def support_value(st, opts, i):
    """Value (×100, like E[damage]) of a support attack row: cubes it would actually remove (R-3.4)."""
    kind = opts[i, 6]
    field = L.C_STAMINA if kind == L.SUP_STAMINA else L.C_DAMAGE
    amount = opts[i, 5] // 100
    total = 0
    for a in range(st.glob[L.G_N_CHARS]):
        if st.chars[a, L.C_ALIVE] == 0:
            continue
        if opts[i, 7] == OPT_SUPPORT_ONE and a != opts[i, 3]:
            continue
        total += min(amount, st.chars[a, field])
    return total * 100


@helper
def state_hash(hook, st, opts, n, salt):
    """A 64-bit mix (splitmix64 steps) of the hook, the public state (globals, figures, the deck as known) and the
    option rows: a deterministic stand-in for randomness, since a policy has no random stream of its own."""
    h = np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(hook + 7919 * salt + (1 << 20))
    for i in range(st.glob.shape[0]):
        h = _mix(h ^ np.uint64(np.int64(st.glob[i]) + (1 << 31)))
    for rows in (st.chars, st.enemies):
        for i in range(rows.shape[0]):
            for j in range(rows.shape[1]):
                h = _mix(h ^ np.uint64(np.int64(rows[i, j]) + (1 << 31)))
    for i in range(st.known.shape[0]):
        h = _mix(h ^ np.uint64(np.int64(st.known[i]) + (1 << 31)))
    for i in range(n):
        for j in range(opts.shape[1]):
            h = _mix(h ^ np.uint64(np.int64(opts[i, j]) + (1 << 31)))
    return h


@helper
def _mix(z):
    """One splitmix64 finaliser round."""
    z = (z + np.uint64(0x9E3779B97F4A7C15)) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


APPROACH_READS = (1, 2, 3, 4, 6, 7)
"""The move-step option columns :func:`approach` reads: a policy that steps only through it declares
``@policy_function(reads={"step": APPROACH_READS})``, and its own entry skips the others (figures, boss arcs)."""


@helper
def approach(st, opts, n, keep, kite, retreat, trap_penalty):
    """D-18/D-21: close in on the nearest enemy until some weapon reaches one, paying runs only
    while ``keep`` free slots remain; with ``kite`` > 0 slide (for free) to a node in reach that is
    farther away; with ``retreat`` > 0 step away for free after attacking. Row 0 = stop."""
    c = st.glob[L.G_ACTIVE]
    if c < 0:
        return 0
    best = 0
    if has_attacked(st, c):
        if retreat <= 0:
            return 0
        for i in range(1, n):
            if opts[i, 1] == 0 and opts[i, 2] == 0 and opts[i, 4] > opts[best, 4]:
                best = i
        return best
    if opts[0, 7] > 0:
        if kite <= 0:
            return 0
        for i in range(1, n):
            if opts[i, 7] > 0 and opts[i, 1] == 0 and opts[i, 2] == 0 and opts[i, 6] > opts[best, 6]:
                best = i
        return best
    top = 1e18
    for i in range(1, n):
        if not (opts[i, 7] > 0 or opts[i, 4] < opts[0, 4]) or not affordable(st, c, opts[i, 1], keep):
            continue
        s = -opts[i, 7] * 1000.0 + opts[i, 4] * 10 + opts[i, 1] * 3 + opts[i, 3] * 5 + opts[i, 2] * trap_penalty
        if s < top:
            top = s
            best = i
    return best


@helper
def approach_stops(st, opts, kite, retreat):
    """``H_MOVE_ON`` for :func:`approach`: 1 (stop here) exactly when approach would pick row 0 whatever
    the other rows hold, which this node's row 0 alone tells; else 0 (list the steps)."""
    c = st.glob[L.G_ACTIVE]
    if c < 0:
        return 1
    if has_attacked(st, c):
        return 1 if retreat <= 0 else 0
    return 1 if opts[0, 7] > 0 and kite <= 0 else 0


@helper
def attack_score(st, opts, i, kill_weight, stamina_weight, heal_weight):
    """D-19/D-20 value of attack row ``i`` (×100 damage units): E[damage] plus ``kill_weight``
    damage per expected kill, or the cubes a support line removes, minus the stamina it costs."""
    if opts[i, 7] >= OPT_SUPPORT_ONE:
        return heal_weight * support_value(st, opts, i) - stamina_weight * opts[i, 4] * 100.0
    return opts[i, 5] + kill_weight * opts[i, 6] / 10.0 - stamina_weight * opts[i, 4] * 100.0


@helper
def focus_attack(st, opts, n, focus, keep, kill_weight, stamina_weight, heal_weight):
    """:func:`best_attack` among the rows that hit figure ``focus`` (single or node attacks) and the
    support rows, when any attack reaches it; otherwise among all rows."""
    rows = np.zeros(n, np.int64)
    m = 1  # row 0 = stop
    hits = False
    pos = st.enemies[focus, L.E_POS]
    for i in range(1, n):
        on_focus = opts[i, 2] == focus or (opts[i, 7] == OPT_NODE and opts[i, 3] == pos)
        if on_focus or opts[i, 7] >= OPT_SUPPORT_ONE:
            rows[m] = i
            m += 1
            hits = hits or on_focus
    if not hits:
        return best_attack(st, opts, n, keep, kill_weight, stamina_weight, heal_weight)
    return rows[best_attack(st, opts[rows[:m]], m, keep, kill_weight, stamina_weight, heal_weight)]


@helper
def best_attack(st, opts, n, keep, kill_weight, stamina_weight, heal_weight):
    """The attack row of highest positive :func:`attack_score` that leaves ``keep`` free slots; 0 = stop."""
    c = st.glob[L.G_ACTIVE]
    best = 0
    top = 0.0
    for i in range(1, n):
        if opts[i, 4] > 0 and (c < 0 or not affordable(st, c, opts[i, 4], keep)):
            continue
        s = attack_score(st, opts, i, kill_weight, stamina_weight, heal_weight)
        if s > top:
            top = s
            best = i
    return best
