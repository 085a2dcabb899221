"""Numba helpers shared by the Dark Maiden policies: what an exchange is likely to cost and bring, and the
answers to the hooks that only pick an enemy (target, split, fall) or a goblin die.

Everything reads only what ``decide`` receives (``public_views``: the table, the heroes, the enemies in play and
the option rows). Values are in *standard damage points*: one point of damage on a hero of vitality
:data:`STD_VITALITY` (so a death costs about 6); an enemy's worth scales with its *threat*, the damage its red
die deals on average per exchange (DM-7.3). Option columns per hook: ``policies/dark_maiden/README.md``.
No helper makes an array: they compile without reference counting, as the policies do (:func:`helper`); an
evaluation of an exchange works from tables of the standing enemies built once in its stack frame
(:func:`standing`, :func:`stack_array`), and sums its worth over the 36 dice in the order of its definition, so a
faster table changes no number (``tests/dark_maiden/test_evaluators.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from dsim.games.dark_maiden.kernel import layout as L
from dsim.numba_cache import cache_folder, cache_under

_HERE = Path(__file__).resolve()
_CACHE = cache_folder("dm-policy-common", [_HERE, Path(L.__file__).resolve()], _HERE.parent / "__pycache__")


def helper(func: Callable[..., Any] | None = None, *, inline: bool = False) -> Any:
    """A shared helper: compiled without reference counting and cached under a folder hashed over this module
    and the layout, so an edit to either recompiles it (Numba's own cache checks only this file, and would
    keep a helper built on old column numbers). Only the smallest helpers are inlined into their callers
    (``inline=True``): inlining the 36-dice evaluators made a policy's compile take minutes."""
    if func is None:
        return lambda f: helper(f, inline=inline)
    with cache_under(_CACHE):
        return njit(cache=True, _nrt=False, inline="always" if inline else "never")(func)


STD_VITALITY = 6.0
"""The hero vitality that one standard damage point is measured on (Bárbara's placeholder 6)."""
GRAB_FACES = 6
"""Faces of the grab's new white die (DM-7.7)."""


# ---------------------------------------------------------------- dice and foes
@helper(inline=True)
def has(mask, face):
    """Whether ``face`` is one of the faces in bit mask ``mask``."""
    return (mask >> face) & 1 == 1


@helper(inline=True)
def foe_left(foes, f, pre):
    """Vitality left of foe ``f`` once ``pre`` potions have been drunk (armour −1 per use, DM-6.3)."""
    return foes[f, L.F_VITALITY] - foes[f, L.F_DAMAGE] - max(0, pre - foes[f, L.F_ARMOUR])


@helper(inline=True)
def foe_hit(foes, f, red):
    """What foe ``f`` deals on red die ``red`` (DM-7.3); the Dark Maiden's red 1 calls reinforcements (DM-9.4)."""
    if red == L.DARK_MAIDEN_CALL and foes[f, L.F_SPECIAL] == L.SP_REINFORCEMENTS:
        return 0
    return red if has(foes[f, L.F_FACES], red) else 0


@helper(inline=True)
def foe_quick_hit(foes, f, white, red):
    """What foe ``f`` deals against a quick strike: the higher die on its faces (DM-7.6)."""
    return max(foe_hit(foes, f, white), foe_hit(foes, f, red))


@helper
def threat(foes, f):
    """Foe ``f``'s mean damage per exchange: the red faces it strikes on, each worth its value, over 6 (DM-7.3)."""
    total = 0
    for face in range(1, 7):
        total += foe_hit(foes, f, face)
    return total / 6.0


@helper
def deal_value(foes, f, eff, left, w_damage, w_kill, w_point):
    """Worth of ``eff`` damage (armour already off) on foe ``f`` with ``left`` vitality: ``w_damage`` per point
    dealt and ``w_kill`` for a kill, both times its threat, plus ``w_point`` per advance point a kill brings
    (DM-10.1)."""
    if eff <= 0 or left <= 0:
        return 0.0
    t = threat(foes, f)
    if eff >= left:
        return t * (w_damage * left + w_kill) + w_point * foes[f, L.F_POINTS]
    return t * w_damage * eff


@helper(inline=True)
def strike_value(foes, f, eff, left, w):
    """:func:`deal_value` with the weight tuple ``w`` = (w_damage, w_kill, w_point, …)."""
    return deal_value(foes, f, eff, left, w[0], w[1], w[2])


# ---------------------------------------------------------------- heroes
@helper(inline=True)
def attack_profile(heroes, h):
    """(faces, damage) of hero ``h``'s white die: its own faces and the die's value (``DIE``), or when mounted
    the mount's printed faces and damage (DM-7.11, the default reading)."""
    if heroes[h, L.H_MOUNT] >= 0:
        return heroes[h, L.H_MOUNT_FACES], heroes[h, L.H_MOUNT_HIT]
    return heroes[h, L.H_FACES], L.DIE


@helper(inline=True)
def item_bonus(heroes, h):
    """Item A: +1 damage on every successful attack (DM-2.9, an invented placeholder)."""
    return (heroes[h, L.H_ITEMS] >> L.ITEM_A) & 1


@helper(inline=True)
def hit_damage(heroes, h, white):
    """Damage of hero ``h``'s white die ``white`` (0 if it misses): the die's value or the mount's damage, +1
    with item A (DM-2.9)."""
    faces, fixed = attack_profile(heroes, h)
    if not has(faces, white):
        return 0
    return (white if fixed == L.DIE else fixed) + item_bonus(heroes, h)


@helper(inline=True)
def strikes_first_on_double(heroes, h):
    """Amazona, not exhausted: her successful double lands first (DM-7.5)."""
    return heroes[h, L.H_SPECIAL] == L.HS_STRIKE_FIRST and heroes[h, L.H_EXHAUSTED] == 0


@helper(inline=True)
def vitality_left(heroes, h):
    """Damage hero ``h`` can still take before dying (DM-7.9)."""
    return heroes[h, L.H_VITALITY] - heroes[h, L.H_DAMAGE]


@helper(inline=True)
def damage_cost(heroes, h, d, w_exhaust, w_mount):
    """Cost of ``d`` enemy damage landing on hero ``h``: each point 1/vitality of a life (a death wipes the
    rest, DM-7.9), in standard points; a mounted hero takes 1, is dismounted and exhausted (DM-7.10)."""
    if d <= 0:
        return 0.0
    cost = 0.0
    if heroes[h, L.H_MOUNT] >= 0:
        d = L.MOUNT_HIT
        cost += w_mount + (w_exhaust if heroes[h, L.H_EXHAUSTED] == 0 else 0.0)
    left = vitality_left(heroes, h)
    return cost + min(d, left) * STD_VITALITY / max(1, heroes[h, L.H_VITALITY])


@helper
def party_damage(table, heroes):
    """The party's damage as a fraction of its vitality (heroes still in the game)."""
    hurt, total = 0, 0
    for h in range(table[L.T_HEROES]):
        if heroes[h, L.H_OUT] == 0:
            hurt += heroes[h, L.H_DAMAGE]
            total += heroes[h, L.H_VITALITY]
    return hurt / total if total > 0 else 0.0


@helper
def top_role(table, foes):
    """The highest role in play (``ROLE_*``; -1: no enemy): from a sub-boss up the attacks go on until it dies
    (DM-5.5.2); after the final boss nothing is left to save potions for (DM-1.2)."""
    top = -1
    for f in range(table[L.T_FOES]):
        top = max(top, foes[f, L.F_ROLE])
    return top


# ---------------------------------------------------------------- the enemies an evaluation faces
FOE_MASK, FOE_LEFT, FOE_ARMOUR, FOE_NEED = range(4)
"""Integer columns of an evaluation's foe rows (:func:`standing`): the red faces the enemy strikes on (its own
faces less the Dark Maiden's call, DM-9.4), its vitality left, its armour and the damage that kills it."""
FOE_INTS = 4
FOE_THREAT, FOE_KILL, FOE_QUICK = range(3)
"""Float columns: its :func:`threat`, the worth of killing it (:func:`deal_value` of a kill) and of a quick
strike's hit on it."""
FOE_FLOATS = 3
MAX_FOES = L.MAX_FOES  # a global of this module, so that a table's size is a literal (:func:`stack_array`)
COSTS = 100
"""Entries of a :func:`cost_table`: a hero's vitality is at most 99 (the schema's bound)."""


@intrinsic
def _stack_array(typingctx, rows, cols, dtype):
    """A C-ordered ``rows`` × ``cols`` array of ``dtype`` (both literal) in the caller's stack frame: an evaluation's
    tables without an allocation (the helpers compile without reference counting). Uninitialised."""
    if not (isinstance(rows, types.IntegerLiteral) and isinstance(cols, types.IntegerLiteral)):
        return None
    r, c = rows.literal_value, cols.literal_value
    array = types.Array(dtype.dtype, 2, "C")

    def codegen(context, builder, signature, args):
        element = context.get_value_type(dtype.dtype)
        size = context.get_abi_sizeof(element)
        intp = context.get_value_type(types.intp)
        out = context.make_array(array)(context, builder)
        context.populate_array(out, data=cgutils.alloca_once(builder, element, size=r * c),
                               shape=[intp(r), intp(c)], strides=[intp(c * size), intp(size)],
                               itemsize=intp(size), meminfo=None)
        return out._getvalue()

    return array(rows, cols, dtype), codegen


def _heap_array(rows: int, cols: int, dtype: Any) -> np.ndarray:
    return np.empty((rows, cols), dtype)


stack_array = _heap_array if config.DISABLE_JIT else _stack_array  # NUMBA_DISABLE_JIT=1 runs the same code


@helper
def standing(foes, nf, pre, rows, worth, w):
    """Fill ``rows`` (``FOE_*`` integer columns) and ``worth`` (``FOE_THREAT``, ``FOE_KILL``) with the enemies that
    ``pre`` potions leave standing, in play order, and return how many: what every evaluation of one exchange
    reads, worked out once (a threat costs a pass over the faces)."""
    k = 0
    for f in range(nf):
        left = foe_left(foes, f, pre)
        if left <= 0:
            continue
        mask = foes[f, L.F_FACES]
        if foes[f, L.F_SPECIAL] == L.SP_REINFORCEMENTS:
            mask &= ~(1 << L.DARK_MAIDEN_CALL)  # the call deals nothing (DM-9.4, :func:`foe_hit`)
        rows[k, FOE_MASK] = mask
        rows[k, FOE_LEFT] = left
        rows[k, FOE_ARMOUR] = foes[f, L.F_ARMOUR]
        rows[k, FOE_NEED] = left + foes[f, L.F_ARMOUR]
        total = 0
        for face in range(1, 7):
            total += face if has(mask, face) else 0
        t = total / 6.0  # threat(foes, f), from the faces it strikes on
        worth[k, FOE_THREAT] = t
        worth[k, FOE_KILL] = t * (w[0] * left + w[1]) + w[2] * foes[f, L.F_POINTS]  # deal_value of a kill
        k += 1
    return k


@helper(inline=True)
def row_strike(rows, worth, k, dmg, w):
    """:func:`strike_value` of ``dmg`` damage (armour not yet off, DM-9.7) on standing row ``k``."""
    eff = max(0, dmg - rows[k, FOE_ARMOUR])
    if eff <= 0:
        return 0.0
    if eff >= rows[k, FOE_LEFT]:
        return worth[k, FOE_KILL]
    return worth[k, FOE_THREAT] * w[0] * eff


@helper(inline=True)
def row_hit(rows, k, red):
    """What standing row ``k`` deals on red die ``red`` (:func:`foe_hit`)."""
    return red if has(rows[k, FOE_MASK], red) else 0


@helper
def red_totals(rows, ns, reds):
    """``reds[r]``: everything the standing enemies deal on red die ``r`` (they strike together, DM-7.4)."""
    for red in range(1, 7):
        total = 0
        for k in range(ns):
            total += row_hit(rows, k, red)
        reds[red] = total


@helper
def cost_table(heroes, h, w_exhaust, w_mount, costs):
    """``costs[j]`` = :func:`damage_cost` of ``j`` points for ``j`` up to the cap it returns, beyond which the cost
    no longer grows (the vitality left; 1 when mounted): look a cost up as ``costs[min(d, cap)]``."""
    cap = 1 if heroes[h, L.H_MOUNT] >= 0 else min(max(1, vitality_left(heroes, h)), COSTS - 1)
    for j in range(cap + 1):
        costs[j] = damage_cost(heroes, h, j, w_exhaust, w_mount)
    return cap


@helper(inline=True)
def lost_table(reds, costs, cap, lost):
    """``lost[r]``: the cost of everything the standing enemies deal on red die ``r`` (:func:`red_totals`)."""
    for red in range(1, 7):
        lost[red] = costs[min(reds[red], cap)]


@helper
def split_value(rows, worth, ns, points, w):
    """Worth of a grab's ``points`` split among the standing enemies (DM-7.7; an armoured enemy's first point is
    lost): all on one, or enough to kill one and the rest on another."""
    best = 0.0
    for k in range(ns):
        need = rows[k, FOE_NEED]
        v = row_strike(rows, worth, k, points, w)
        if need < points:
            rest = points - need
            more = 0.0
            for j in range(ns):
                if j != k:
                    more = max(more, row_strike(rows, worth, j, rest, w))
            v += more
        best = max(best, v)
    return best


# ---------------------------------------------------------------- one exchange (DM-7)
@helper
def red_total(foes, nf, pre, red):
    """Everything the standing enemies deal on red die ``red`` (they strike together, DM-7.4)."""
    total = 0
    for f in range(nf):
        if foe_left(foes, f, pre) > 0:
            total += foe_hit(foes, f, red)
    return total


@helper(inline=True)
def accept_of(rows, worth, ns, white, red, dmg, hit, reds, lost, costs, cap, hero):
    """Worth of the exchange on dice (``white``, ``red``) as rolled (DM-7.1–7.4, 7.11), from an evaluation's
    tables: the hero's hit ``dmg`` on the best target less the cost of the enemies' strikes; a hit landing first
    that kills a striker stops its strike; enemies striking first may kill the hero before the hit. ``hero``:
    (vitality left, most damage that lands at once — 1 when mounted, DM-7.10 —, strikes first on a double).
    ``lost`` (:func:`lost_table`): the cost of every strike on each red die. ``hit`` (:func:`hit_worths`): the
    best worth of ``dmg`` on one enemy, the same among those it does not kill (-inf if none) and how many it kills.
    The best is taken over the enemies as a group: x ↦ x − c rounds monotonically, so it is the same number."""
    total = reds[red]
    if dmg == 0:
        return -lost[red]
    if red < white and min(total, hero[1]) >= hero[0]:
        return -lost[red]  # dead before the hit (DM-7.4)
    if ns == 0:
        return -1e18
    top, spare, kills = hit
    if kills == 0 or not (white < red or (white == red and hero[2])):
        return top - lost[red]
    best = spare - lost[red]
    for k in range(ns):  # a kill landing first stops that enemy's strike
        if dmg >= rows[k, FOE_NEED]:
            best = max(best, worth[k, FOE_KILL] - costs[min(total - row_hit(rows, k, red), cap)])
    return best


@helper(inline=True)
def hero_at_risk(heroes, h):
    """The ``hero`` tuple of :func:`accept_of`."""
    return (vitality_left(heroes, h), L.MOUNT_HIT if heroes[h, L.H_MOUNT] >= 0 else 1 << 30,
            strikes_first_on_double(heroes, h))


@helper(inline=True)
def hit_worths(rows, worth, ns, dmg, w):
    """(top, spare, kills) of :func:`accept_of` for a hit of ``dmg``."""
    top, spare, kills = -1e18, -np.inf, 0
    for k in range(ns):
        v = row_strike(rows, worth, k, dmg, w)
        top = max(top, v)
        if dmg < rows[k, FOE_NEED]:
            spare = max(spare, v)
        else:
            kills += 1
    return top, spare, kills


@helper(inline=True)
def grab_chance(heroes, h, red):
    """P(the grab's new white die beats ``red``; Guerrero: equals it) (DM-7.5, DM-7.7)."""
    wins = GRAB_FACES - red + (1 if heroes[h, L.H_SPECIAL] == L.HS_GRAB_EQUAL else 0)
    return max(0, min(GRAB_FACES, wins)) / GRAB_FACES


@helper(inline=True)
def grab_of(heroes, h, red, won, lost):
    """Worth of a grab against ``red`` (DM-7.7): its chance times ``won`` (the worth of the split points, with no
    strike back), else the enemies' strikes with the red die."""
    p = grab_chance(heroes, h, red)
    return p * won - (1.0 - p) * lost[red]


@helper
def roll_of(heroes, h, rows, worth, ns, reds, costs, cap, w):
    """Expected worth of a normal attack roll (DM-7.1) over the 36 dice from an evaluation's tables, each double
    answered at its best (accept, grab; Bárbara's reroll worth a fresh roll) when the hero is not exhausted. The
    dice are summed in the order white, red, so the worth is the same number whatever the tables."""
    special = heroes[h, L.H_EXHAUSTED] == 0
    won = split_value(rows, worth, ns, L.GRAB_DAMAGE + item_bonus(heroes, h), w) if special else 0.0
    at = stack_array(1, 7, np.float64)[0]  # each double's best answer but the reroll
    lost = stack_array(1, 7, np.float64)[0]
    lost_table(reds, costs, cap, lost)
    hero = hero_at_risk(heroes, h)
    plain, doubles = 0.0, 0.0
    for white in range(1, 7):
        dmg = hit_damage(heroes, h, white)
        hit = hit_worths(rows, worth, ns, dmg, w) if dmg > 0 else (0.0, 0.0, 0)
        for red in range(1, 7):
            v = accept_of(rows, worth, ns, white, red, dmg, hit, reds, lost, costs, cap, hero)
            if white == red and special:
                at[white] = max(v, grab_of(heroes, h, red, won, lost))
                doubles += at[white]
            else:
                plain += v
    ev = (plain + doubles) / 36.0
    if special and heroes[h, L.H_SPECIAL] == L.HS_REROLL:
        doubles = 0.0
        for face in range(1, 7):
            doubles += max(at[face], ev)
        ev = (plain + doubles) / 36.0
    return ev


@helper
def quick_of(heroes, h, rows, worth, ns, costs, cap, w):
    """Expected worth of a quick strike (DM-7.6) over the 36 dice from an evaluation's tables (``costs`` without
    the cost of exhaustion), before the cost of exhaustion: on 2d6 ≥ 7, 2 damage (armour −1) to the best target,
    which cannot strike; every other enemy strikes with the higher die on its faces. Both depend on the dice only
    through the pair's higher and lower face, so each is worked out once per pair of faces, then summed over the
    36 dice in the order white, red."""
    dmg = L.QUICK_DAMAGE + item_bonus(heroes, h)
    for k in range(ns):
        worth[k, FOE_QUICK] = row_strike(rows, worth, k, dmg, w)
    strike = stack_array(7, 7, np.int64)  # [low, high]: enemies striking on high; [high, low]: on low, not high
    strike[:, :] = 0
    for k in range(ns):
        mask = rows[k, FOE_MASK]
        for high in range(1, 7):
            if has(mask, high):
                for low in range(1, high + 1):
                    strike[low, high] += 1
            else:
                for low in range(1, high):
                    strike[high, low] += has(mask, low)
    pair = stack_array(7, 7, np.float64)  # [low, high]: the pair's worth
    for low in range(1, 7):
        for high in range(low, 7):
            total = high * strike[low, high] + (low * strike[high, low] if low < high else 0)
            if low + high < L.PASS_TOTAL:
                pair[low, high] = costs[min(total, cap)]
                continue
            best = -1e18
            for k in range(ns):
                hit = row_hit(rows, k, high) if has(rows[k, FOE_MASK], high) else row_hit(rows, k, low)
                best = max(best, worth[k, FOE_QUICK] - costs[min(total - hit, cap)])
            pair[low, high] = best
    ev = 0.0
    for white in range(1, 7):
        for red in range(1, 7):
            if white + red < L.PASS_TOTAL:
                ev -= pair[min(white, red), max(white, red)]
            else:
                ev += pair[min(white, red), max(white, red)]
    return ev / 36.0


@helper
def double_worths(table, heroes, foes, h, w):
    """(accept, grab, reroll): the worths of the answers to the double on the table (DM-7.5, DM-7.7) for a hero
    who is not exhausted; the reroll is worth a fresh roll."""
    rows = stack_array(MAX_FOES, FOE_INTS, np.int64)
    worth = stack_array(MAX_FOES, FOE_FLOATS, np.float64)
    reds = stack_array(1, 7, np.int64)[0]
    costs = stack_array(1, COSTS, np.float64)[0]
    ns = standing(foes, table[L.T_FOES], 0, rows, worth, w)
    red_totals(rows, ns, reds)
    cap = cost_table(heroes, h, w[3], w[4], costs)
    lost = stack_array(1, 7, np.float64)[0]
    lost_table(reds, costs, cap, lost)
    white, red = table[L.T_WHITE], table[L.T_RED]
    dmg = hit_damage(heroes, h, white)
    accept = accept_of(rows, worth, ns, white, red, dmg, hit_worths(rows, worth, ns, dmg, w), reds, lost, costs,
                       cap, hero_at_risk(heroes, h))
    won = split_value(rows, worth, ns, L.GRAB_DAMAGE + item_bonus(heroes, h), w)
    grab = grab_of(heroes, h, red, won, lost)
    return accept, grab, roll_of(heroes, h, rows, worth, ns, reds, costs, cap, w)


@helper
def attack_value(table, heroes, foes, h, pre, w, quick_margin):
    """(worth, quick): the hero's attack after ``pre`` potions — nothing if no enemy would be left (the attack
    is skipped, DM-5.5.1), else the better of a normal roll and, not exhausted, a quick strike less the cost of
    exhaustion ``w[3]`` and less ``quick_margin``. ``w`` = (w_damage, w_kill, w_point, w_exhaust, w_mount)."""
    rows = stack_array(MAX_FOES, FOE_INTS, np.int64)
    worth = stack_array(MAX_FOES, FOE_FLOATS, np.float64)
    reds = stack_array(1, 7, np.int64)[0]
    costs = stack_array(1, COSTS, np.float64)[0]
    ns = standing(foes, table[L.T_FOES], pre, rows, worth, w)
    if ns == 0:
        return 0.0, False
    red_totals(rows, ns, reds)
    cap = cost_table(heroes, h, w[3], w[4], costs)
    normal = roll_of(heroes, h, rows, worth, ns, reds, costs, cap, w)
    if heroes[h, L.H_EXHAUSTED] == 1:
        return normal, False
    cap = cost_table(heroes, h, 0.0, w[4], costs)  # a quick strike's hits cost no exhaustion: it exhausts anyway
    quick = quick_of(heroes, h, rows, worth, ns, costs, cap, w) - w[3] - quick_margin
    if quick > normal:
        return quick, True
    return normal, False


@helper
def potion_value(table, foes, pre, w):
    """Worth of ``pre`` potions' damage to every enemy in play (DM-6.2, armour −1 per use, DM-6.3)."""
    v = 0.0
    for f in range(table[L.T_FOES]):
        left = foe_left(foes, f, 0)
        v += strike_value(foes, f, max(0, pre - foes[f, L.F_ARMOUR]), left, w)
    return v


# ---------------------------------------------------------------- hooks that pick an enemy
@helper
def pick_target(table, heroes, foes, opts, n, seat, w):
    """HOOK_TARGET: the row whose damage is worth most (:func:`deal_value`) plus, when the choice stops a
    strike (``T_STOPS``: a kill stops a striker whose hit lands first, DM-7.4; a quick strike's target cannot
    strike, DM-7.6), the cost of the damage it spares the hero."""
    mode = table[L.T_STOPS]
    white, red = table[L.T_WHITE], table[L.T_RED]
    total = 0
    if mode > 0:
        for f in range(table[L.T_FOES]):
            total += foe_quick_hit(foes, f, white, red) if mode == 2 else foe_hit(foes, f, red)
    full = damage_cost(heroes, seat, total, w[3], w[4])
    best, top = 0, -1e18
    for i in range(n):
        f = opts[i, L.OPT_FOE]
        v = strike_value(foes, f, opts[i, L.OPT_DAMAGE], opts[i, L.OPT_LEFT], w)
        stopped = 0
        if mode == 2:
            stopped = foe_quick_hit(foes, f, white, red)
        elif mode == 1 and opts[i, L.OPT_KILLS] == 1:
            stopped = foe_hit(foes, f, red)
        if stopped > 0:
            v += full - damage_cost(heroes, seat, total - stopped, w[3], w[4])
        if v > top:
            best, top = i, v
    return best


@helper
def split_plan(foes, opts, n, i, points, w):
    """Worth of giving the grab's remaining ``points`` to row ``i`` first (DM-7.7): enough to kill it and the
    rest to the best other row, or all of them. A row's ``OPT_DAMAGE`` 0 is an armoured enemy's lost first
    point."""
    f = opts[i, L.OPT_FOE]
    lost = 1 - opts[i, L.OPT_DAMAGE]
    need = opts[i, L.OPT_LEFT] + lost
    if need > points:
        return strike_value(foes, f, points - lost, opts[i, L.OPT_LEFT], w)
    v = strike_value(foes, f, opts[i, L.OPT_LEFT], opts[i, L.OPT_LEFT], w)
    rest = points - need
    more = 0.0
    for j in range(n):
        if j != i and rest > 0:
            g = opts[j, L.OPT_FOE]
            more = max(more, strike_value(foes, g, rest - (1 - opts[j, L.OPT_DAMAGE]), opts[j, L.OPT_LEFT], w))
    return v + more


@helper
def pick_split(table, foes, opts, n, w):
    """HOOK_SPLIT: the row to take the grab's next point, by the best :func:`split_plan` (``T_SPLIT_LEFT``
    points still to split)."""
    points = table[L.T_SPLIT_LEFT]
    best, top = 0, -1e18
    for i in range(n):
        v = split_plan(foes, opts, n, i, points, w) + 1e-3 * opts[i, L.OPT_DAMAGE]
        if v > top:
            best, top = i, v
    return best


@helper
def pick_fall(foes, opts, n, w):
    """HOOK_FALL (DM-5.2.4): the enemy whose death is worth most — its whole vitality left as damage, the kill
    and its advance points."""
    best, top = 0, -1e18
    for i in range(n):
        v = strike_value(foes, opts[i, L.OPT_FOE], opts[i, L.OPT_LEFT], opts[i, L.OPT_LEFT], w)
        if v > top:
            best, top = i, v
    return best


@helper
def goblin_gain(heroes, h, potions_die, heal_die, w_potion):
    """Worth of a level-2/3 goblin's dice read one way (DM-5.3.1–5.3.3, default data): the potion die's
    1–4 gives up to the maximum or, at the maximum, steals; the heal die heals its value."""
    row = heroes[h]
    have, cap = row[L.H_POTIONS], row[L.H_MAX_POTIONS]
    change = 0
    if 1 <= potions_die <= 4:
        change = -min(have, potions_die) if have >= cap else min(potions_die, cap - have)
    healed = min(heal_die, row[L.H_DAMAGE])
    return w_potion * change + healed * STD_VITALITY / max(1, row[L.H_VITALITY])


@helper
def pick_goblin(heroes, seat, opts, n, w_potion):
    """HOOK_GOBLIN (reading ``choose``): the die assignment worth most (:func:`goblin_gain`)."""
    best, top = 0, -1e18
    for i in range(n):
        v = goblin_gain(heroes, seat, opts[i, L.OPT_POTIONS], opts[i, L.OPT_HEAL], w_potion)
        if v > top:
            best, top = i, v
    return best


@helper
def row_of(opts, n, action):
    """The first row offering ``action`` (-1 if none)."""
    for i in range(n):
        if opts[i, L.OPT_ACTION] == action:
            return i
    return -1


@helper
def pick(opts, n, action):
    """The first row offering ``action``, row 0 if none does (a legal answer whatever the rows)."""
    return max(0, row_of(opts, n, action))


@helper
def best_mount_row(opts, n):
    """HOOK_BONUS: the middle mount of the highest level, the least hurt among equals (-1 if none)."""
    best = -1
    for i in range(n):
        if opts[i, L.OPT_ACTION] != L.A_MOUNT:
            continue
        if best < 0 or opts[i, L.OPT_LEVEL] * 100 + opts[i, L.OPT_LEFT] > opts[best, L.OPT_LEVEL] * 100 + opts[
                best, L.OPT_LEFT]:
            best = i
    return best


@helper
def mean_hit(faces, fixed):
    """Mean damage of one white die on ``faces`` dealing ``fixed`` (``DIE``: the die's value) (DM-7.2, 7.11)."""
    total = 0
    for white in range(1, 7):
        if has(faces, white):
            total += white if fixed == L.DIE else fixed
    return total / 6.0


@helper
def mount_attack_gain(heroes, h, opts, i):
    """How much the white die of hero ``h`` gains per roll riding the mount of bonus row ``i`` (its faces and
    damage are in the row) over its own faces (DM-7.11)."""
    return mean_hit(opts[i, L.OPT_FACES], opts[i, L.OPT_DAMAGE]) - mean_hit(heroes[h, L.H_FACES], L.DIE)


@helper
def bonus_strike_value(table, heroes, foes, h, w):
    """Expected worth of a bonus-phase strike (DM-8.1): the white die alone on the best target; enemies never
    strike back (DM-8.2)."""
    rows = stack_array(MAX_FOES, FOE_INTS, np.int64)
    worth = stack_array(MAX_FOES, FOE_FLOATS, np.float64)
    ns = standing(foes, table[L.T_FOES], 0, rows, worth, w)
    v = 0.0
    for white in range(1, 7):
        dmg = hit_damage(heroes, h, white)
        if dmg > 0:
            best = 0.0
            for k in range(ns):
                best = max(best, row_strike(rows, worth, k, dmg, w))
            v += best
    return v / 6.0


@helper
def plain_answer(hook, table, heroes, foes, opts, n, seat, w, potion, bonus_order):
    """The hooks a fixed-style policy answers alike: target, split and fall by worth with the weights ``w``, the
    bonus phase by the first of ``bonus_order``'s actions offered (a mount: the best one, DM-8.1), the goblin's
    dice by need with a potion worth ``potion`` (DM-5.3.3)."""
    if hook == L.HOOK_TARGET:
        return pick_target(table, heroes, foes, opts, n, seat, w)
    if hook == L.HOOK_SPLIT:
        return pick_split(table, foes, opts, n, w)
    if hook == L.HOOK_FALL:
        return pick_fall(foes, opts, n, w)
    if hook == L.HOOK_BONUS:
        for action in bonus_order:
            i = best_mount_row(opts, n) if action == L.A_MOUNT else row_of(opts, n, action)
            if i >= 0:
                return i
        return 0
    return pick_goblin(heroes, seat, opts, n, potion)
