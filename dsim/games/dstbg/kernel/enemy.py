"""Enemy activation: targets, movement icons with push, attack icons, defence (R-11, R-9.5–R-9.9)."""

from __future__ import annotations

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.character import backstab, offer_estus
from dsim.games.dstbg.kernel.combat import (
    armour_flags,
    can_pay,
    char_conditions,
    char_suffer,
    defence_dice,
    dodge_chance,
    dodge_cost,
    expected_taken,
    pay,
    roll_block,
    roll_dodge,
    ROLL_DODGE,
)
from dsim.games.dstbg.kernel.core import (
    blocks_movement,
    decide,
    decide_for_enemy,
    figures_at,
    log,
    move_dist,
    nearest_dist,
    range_dist,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import kernel
from dsim.numba_linking import always_inline
from dsim.games.dstbg.kernel.movement import (
    is_boss,
    push_char_boss,
    dodge_move,
    place_enemy,
    push_char_any,
    resolve_traps,
    push_char_away,
)
from dsim.rng import randint

PUSH_NONE = 0
PUSH_AWAY = 1  # attack push: farther from the attacker
PUSH_ANY = 2  # move push: any adjacent node
PUSH_BOSS = 3  # out of a boss's own node: same arc, else along the wall


# --- targets ----------------------------------------------------------------------------------
@always_inline
@kernel
def choose_target(t, b, policy, e: int, target: int, for_move: bool) -> int:
    """R-11.4: the aggro holder, or the nearest character; ties → aggro if tied, else highest taunt
    (A-39 pool), equal taunt → players' choice or random (A-40, D-34). −1 if nobody is left."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    if target == L.TGT_AGGRO:
        a = glob[L.G_AGGRO]
        return a if a >= 0 and chars[a, L.C_ALIVE] == 1 else -1
    pos = enemies[e, L.E_POS]
    best = L.UNREACHABLE + 1
    n_tied = 0
    tied = 0  # bitmask of the characters nearest so far
    for c in range(glob[L.G_N_CHARS]):
        if chars[c, L.C_ALIVE] == 1:
            d = move_dist(t, b, pos, chars[c, L.C_POS]) if for_move else nearest_dist(t, b, pos, chars[c, L.C_POS])
            if d < best:
                best = d
                tied = 0
                n_tied = 0
            if d == best:
                tied |= 1 << c
                n_tied += 1
    if n_tied == 0:
        return -1
    if n_tied == 1:
        for c in range(glob[L.G_N_CHARS]):
            if tied & (1 << c):
                return c
    a = glob[L.G_AGGRO]
    if a >= 0 and tied & (1 << a):
        return a
    pool = tied
    if t.variants[L.V_TAUNT_POOL] == 1:
        pool = 0
        for c in range(glob[L.G_N_CHARS]):
            if chars[c, L.C_ALIVE] == 1:
                pool |= 1 << c
    top = -1
    for c in range(glob[L.G_N_CHARS]):
        if pool & (1 << c):
            top = max(top, t.chars[c, L.CT_TAUNT])
    n = 0
    for c in range(glob[L.G_N_CHARS]):
        if pool & (1 << c) and t.chars[c, L.CT_TAUNT] == top:
            set_opt(b, n, c, chars[c, L.C_POS], top, e, 0, 0, 0, 0)
            n += 1
    if n > 1 and t.variants[L.V_TAUNT_EQUAL] == 1:
        return b.opts[randint(b.rng, n), 0]
    return b.opts[decide_for_enemy(t, b, policy, L.H_TAUNT_TIE, n), 0]


# --- defence against one attack ------------------------------------------------------------------
@kernel
def defend_all(t, b, policy, hits: int, e: int, damage: int, magic: bool, difficulty: int, cond: int, push: int,
               printed: int) -> None:
    """Every character of the ``hits`` mask defends against one attack, in the order the players
    choose (D-28); the attacks are simultaneous, so each defends whatever befell the others (F-9.6)."""
    glob, chars = b.glob, b.chars
    while hits != 0 and running(b):
        n = 0
        for c in range(glob[L.G_N_CHARS]):
            if hits & (1 << c):
                set_opt(b, n, c, chars[c, L.C_POS], 10 - chars[c, L.C_STAMINA] - chars[c, L.C_DAMAGE], e, 0, 0, 0, 0)
                n += 1
        c = b.opts[decide(b, policy, L.H_DEFENCE_ORDER, n), 0]
        hits &= ~(1 << c)
        defend(t, b, policy, c, e, damage, magic, difficulty, cond, push, printed)


@kernel
def defend(t, b, policy, c: int, e: int, damage: int, magic: bool, difficulty: int, cond: int, push: int, printed: int) -> bool:
    """D-26: block/resist or dodge one attack; suffer the damage; conditions and push if hit (R-9.5, F-9.5).
    Returns whether the character was hit."""
    chars, enemies = b.chars, b.enemies
    if chars[c, L.C_ALIVE] == 0 or not running(b):
        return False
    if t.variants[L.V_ESTUS_TIMING] == 1:
        offer_estus(t, b, policy, c)  # A-15 also_enemy_turn: D-23 before defending against an attack
    k, u, o, g = defence_dice(t, b, c, magic)
    cost = dodge_cost(b, c)
    may_dodge = can_pay(t, b, c, cost) and not (armour_flags(t, b, c) & L.ITF_NO_DODGE_RUN) \
        and not (t.variants[L.V_FORBID] & L.FORBID_DODGE)  # house rule forbid
    p = dodge_chance(t, g, difficulty)
    set_opt(b, 0, 0, expected_taken(t, k, u, o, damage), damage, difficulty, p, cost, e, 1 if magic else 0)
    n = 1
    if may_dodge:
        set_opt(b, 1, 1, (damage * (1000 - p)) // 10, damage, difficulty, p, cost, e, 1 if magic else 0)
        n = 2
    dodged = False
    if decide(b, policy, L.H_DEFENCE, n) == 1:
        pay(t, b, c, cost)
        if not running(b):
            return False
        resolve_traps(t, b, policy, dodge_move(t, b, policy, c))  # F-9.4; F-7.2 a trap interrupts the attack
        if not running(b) or chars[c, L.C_ALIVE] == 0:
            return False
        _, _, _, g = defence_dice(t, b, c, magic)
        dodged = roll_dodge(t, b, policy, c, g, difficulty, ROLL_DODGE)
        taken = 0 if dodged else damage  # dodge is all or nothing
    else:
        taken = roll_block(t, b, policy, c, k, u, o, damage, magic, e)
    if dodged:
        backstab(t, b, policy, c, e)
        return False
    same_attack = t.variants[L.V_BLEED_SAME] == 1  # tokens land before the damage, so a new bleed adds +2 now
    if same_attack:
        char_conditions(t, b, c, cond)
    char_suffer(t, b, c, taken, L.SRC_ATTACK, printed)
    if taken == 0 and t.variants[L.V_BLEED_ZERO] == 1 and chars[c, L.C_COND] & L.COND_BLEED:
        chars[c, L.C_COND] &= ~L.COND_BLEED  # A-29 trigger_on_hit
        char_suffer(t, b, c, 2, L.SRC_BLEED, -1)
    if not running(b):
        return True
    if not same_attack:
        char_conditions(t, b, c, cond)  # F-9.5: damage, then conditions (A-30 next_damage_only)
    epos = enemies[e, L.E_POS]
    if push == PUSH_BOSS or (push == PUSH_AWAY and is_boss(t, b, e) and chars[c, L.C_POS] == epos):
        push_char_boss(t, b, policy, c, e)
    elif push == PUSH_AWAY:
        push_char_away(t, b, policy, c, epos, L.H_ATTACK_PUSH)  # F-9.7; boss attack elsewhere: F-12.8
    elif push == PUSH_ANY:
        push_char_any(t, b, policy, c, epos, -1)
    return True


# --- icons ----------------------------------------------------------------------------------------
@kernel
def staggered(b, e: int) -> int:
    """1 if the enemy holds a stagger token (its damage values are 1 lower, R-9.10)."""
    return 1 if b.enemies[e, L.E_COND] & L.COND_STAGGER else 0


@kernel
def push_out_of(t, b, policy, e: int, node: int, came_from: int, damage: int, difficulty: int) -> None:
    """R-9.8/R-11.7: push every character out of ``node`` (the enemy entered it from ``came_from``,
    −1 if it did not move, A-35); with push damage each pushed character defends first
    (A-36 defend_then_push) and a successful dodge avoids the push (A-37)."""
    glob, chars = b.glob, b.chars
    here = 0  # the characters in the node as the enemy enters: one pushed back in by a chain is not pushed again
    for c in range(glob[L.G_N_CHARS]):
        if chars[c, L.C_ALIVE] == 1 and chars[c, L.C_POS] == node:
            here |= 1 << c
    for c in range(glob[L.G_N_CHARS]):
        if not running(b):
            return
        if not here & (1 << c) or chars[c, L.C_ALIVE] == 0 or chars[c, L.C_POS] != node:
            continue
        if damage <= 0:
            push_char_any(t, b, policy, c, node, came_from)
            continue
        if t.variants[L.V_PUSH_DMG_ORDER] == 1:
            push_char_any(t, b, policy, c, node, came_from)
            if running(b) and chars[c, L.C_ALIVE] == 1:  # a trap where it lands may have ended the battle
                defend(t, b, policy, c, e, damage, False, difficulty, 0, PUSH_NONE, damage)
            continue
        hit = defend(t, b, policy, c, e, damage, False, difficulty, 0, PUSH_NONE, damage)
        if not running(b) or chars[c, L.C_ALIVE] == 0:
            continue
        # F-9.5: a failed dodge is resolved where the dodge move took the character, push included;
        # a dodged character is pushed only under A-37 still_pushed, and only if it stayed in the node.
        if hit or (t.variants[L.V_PUSH_DMG_DODGED] == 1 and chars[c, L.C_POS] == node):
            push_char_any(t, b, policy, c, node, came_from)


@kernel
def enemy_move(t, b, policy, e: int, s: int) -> None:
    """R-11.5–R-11.7, F-11.4–F-11.6: move N toward/away from the target fixed at the icon's start."""
    chars, enemies = b.chars, b.enemies
    p = t.prog[s]
    target = choose_target(t, b, policy, e, p[L.S_TARGET], True)
    if target < 0:
        return
    tpos_fixed = target  # the figure is fixed; its node is read each step (it may be pushed)
    dist = p[L.S_DIST] - (1 if enemies[e, L.E_COND] & L.COND_FROSTBITE else 0)
    push = p[L.S_PUSH] == 1
    push_dmg = p[L.S_PUSH_DMG]
    if t.variants[L.V_STAGGER_PUSH_DMG] == 1 and push_dmg > 0:
        push_dmg = max(0, push_dmg - staggered(b, e))
    if push and (dist > 0 or t.variants[L.V_FROST_ZERO_PUSH] == 0):
        push_out_of(t, b, policy, e, enemies[e, L.E_POS], -1, 0, 0)  # step 2: no damage here (F-11.5)
    for _ in range(max(dist, 0)):
        if not running(b) or chars[tpos_fixed, L.C_ALIVE] == 0 or enemies[e, L.E_ALIVE] == 0:
            return
        pos = enemies[e, L.E_POS]
        tpos = chars[tpos_fixed, L.C_POS]
        if p[L.S_DIR] == L.DIR_TOWARD and pos == tpos and not push:
            return  # F-11.6
        here = move_dist(t, b, pos, tpos)
        n = 0
        for d in range(8):
            dest = t.adjacent_nodes[pos, d]
            if dest < 0:
                break  # the nodes around come first (Tables.adjacent_nodes)
            if blocks_movement(b, dest):
                continue
            there = move_dist(t, b, dest, tpos)
            if (p[L.S_DIR] == L.DIR_TOWARD and there < here) or (p[L.S_DIR] == L.DIR_AWAY and there > here):
                set_opt(b, n, dest, there, 0, e, 0, 0, 0, 0)
                n += 1
        if n == 0:
            return  # F-11.4: no closer (farther) node, the enemy does not move
        if n > 1:  # the figures there are a feature of a question; one node is taken unasked
            for i in range(n):
                b.opts[i, 2] = figures_at(b, b.opts[i, 0])
        k = decide_for_enemy(t, b, policy, L.H_ENEMY_STEP, n)
        place_enemy(t, b, policy, e, b.opts[k, 0])
        if push:
            push_out_of(t, b, policy, e, enemies[e, L.E_POS], pos, push_dmg, p[L.S_DODGE])


@kernel
def enemy_attack(t, b, policy, e: int, s: int) -> None:
    """R-11.9–R-11.11: attack the aggro holder or nearest character (or every character on its node)
    within range; out of range the attack fails."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    p = t.prog[s]
    target = choose_target(t, b, policy, e, p[L.S_TARGET], False)
    if target < 0:
        return
    pos = enemies[e, L.E_POS]
    tnode = chars[target, L.C_POS]
    if range_dist(t, b, pos, tnode) > p[L.S_RANGE]:
        log(b, L.ACTOR_ENEMY, e, L.EV_ATTACK_FAIL, s, target, range_dist(t, b, pos, tnode), 0, -1)
        return
    damage = max(0, p[L.S_DAMAGE] - staggered(b, e))  # stagger
    log(b, L.ACTOR_ENEMY, e, L.EV_ATTACK, s, target, tnode, damage, -1)
    push = PUSH_AWAY if p[L.S_PUSH] == 1 else PUSH_NONE
    magic = p[L.S_MAGIC] == 1
    if p[L.S_NODE] == 0:
        defend(t, b, policy, target, e, damage, magic, p[L.S_DODGE], p[L.S_COND], push, p[L.S_DAMAGE])
        return
    # every character on the node defends separately (F-9.6, D-28).
    hit_mask = 0
    for c in range(glob[L.G_N_CHARS]):
        if chars[c, L.C_ALIVE] == 1 and chars[c, L.C_POS] == tnode:
            hit_mask |= 1 << c
    defend_all(t, b, policy, hit_mask, e, damage, magic, p[L.S_DODGE], p[L.S_COND], push, p[L.S_DAMAGE])


@kernel
def activate_regular(t, b, policy, e: int) -> None:
    """R-11.2: resolve the data card's behaviour icons left to right, each with its own target (F-11.2, F-11.3)."""
    et = b.enemies[e, L.E_TYPE]
    first = t.etypes[et, L.ET_PROG]
    for s in range(first, first + t.etypes[et, L.ET_PROG_LEN]):
        if not running(b) or b.enemies[e, L.E_ALIVE] == 0:
            return
        if t.prog[s, L.S_OP] == L.OP_MOVE:
            enemy_move(t, b, policy, e, s)
        elif t.prog[s, L.S_OP] == L.OP_ATTACK:
            enemy_attack(t, b, policy, e, s)
