"""Damage, conditions, defence rolls and the luck reroll (rules R-3, R-9).

Order of one enemy attack on one character (R-9.5 derived order, F-9.5):
effective value (stagger −1) → block/resist roll or dodge (+ luck) → damage after defence →
ember −1 if ≥ 3 → red cubes → bleed +2 as a separate source → death → conditions → push.
"""

from __future__ import annotations

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.deck import check_heat_up, pair_survivor
from dsim.games.dstbg.kernel.core import (
    K_BLUE,
    decide,
    dice_mark,
    living_enemies,
    log,
    move_figure,
    pool_sum,
    roll_die,
    roll_pool,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import kernel
from dsim.numba_linking import always_inline


# --- characters: cubes, death, stamina ------------------------------------------------------
@kernel
def free_slots(b, c: int) -> int:
    """Empty slots of the endurance bar (R-3.2)."""
    return 10 - b.chars[c, L.C_STAMINA] - b.chars[c, L.C_DAMAGE]


@kernel
def kill_char(b, c: int) -> None:
    """A full bar kills the character and the party is defeated at once (R-3.3, R-8.5)."""
    if b.chars[c, L.C_ALIVE] == 1:
        move_figure(b, b.chars[c, L.C_POS], -1)
    b.chars[c, L.C_ALIVE] = 0
    b.glob[L.G_OUTCOME] = L.OUT_LOSS
    log(b, L.ACTOR_CHAR, c, L.EV_DEATH, 0, 0, 0, 0, -1)


@kernel
def can_pay(t, b, c: int, cost: int) -> bool:
    """A stamina cost needs free slots; filling the last one is allowed and fatal by default (R-3.3, A-13)."""
    free = free_slots(b, c)
    if cost < free or cost == 0:
        return True
    return cost == free and t.variants[L.V_STAMINA_LAST_SLOT] == 0


@always_inline
@kernel
def pay(t, b, c: int, cost: int) -> None:
    """Spend stamina: black cubes from the left (R-3.2); a full bar kills (R-3.3)."""
    if cost <= 0:
        return
    b.chars[c, L.C_STAMINA] += cost
    b.chars[c, L.C_STAMINA_SPENT] += cost
    log(b, L.ACTOR_CHAR, c, L.EV_STAMINA, cost, 0, 0, 0, -1)
    if free_slots(b, c) <= 0:
        kill_char(b, c)


@kernel
def gain(b, c: int, stamina: int, health: int) -> None:
    """Gaining removes cubes of that colour; with none left it does nothing (R-3.4)."""
    s = min(stamina, b.chars[c, L.C_STAMINA])
    h = min(health, b.chars[c, L.C_DAMAGE])
    b.chars[c, L.C_STAMINA] -= s
    b.chars[c, L.C_DAMAGE] -= h
    if s > 0 or h > 0:
        log(b, L.ACTOR_CHAR, c, L.EV_GAIN, s, h, 0, 0, -1)


@kernel
def armour_flags(t, b, c: int) -> int:
    """Passive effect flags of the equipped armour and hand items."""
    f = 0
    for slot in (L.C_ARMOUR, L.C_HAND0, L.C_HAND1):
        it = b.chars[c, slot]
        if it >= 0:
            f |= t.items[it, L.IT_FLAGS]
    return f


@always_inline
@kernel
def char_suffer(t, b, c: int, amount: int, src: int, printed: int) -> None:
    """Suffer damage: ember (R-3.8, A-10..A-12), red cubes from the right, bleed +2 (R-9.10), death.

    ``printed`` is the attack's printed value, used for the ember test under
    ``ember_threshold = printed_value`` (A-11); by default the damage suffered counts.
    """
    chars = b.chars
    if amount <= 0 or not running(b):
        return
    ember_applies = src == L.SRC_ATTACK or src == L.SRC_PUSH or t.variants[L.V_EMBER_SCOPE] == 1
    bleeding = (chars[c, L.C_COND] & L.COND_BLEED) != 0
    if ember_applies and chars[c, L.C_EMBER] == 1:
        basis = printed if printed >= 0 and t.variants[L.V_EMBER_THRESHOLD] == 1 else amount
        basis += 2 if bleeding and t.variants[L.V_EMBER_BLEED] == 1 else 0
        if basis >= 3:
            amount -= 1
    while True:
        dealt = min(amount, free_slots(b, c))
        chars[c, L.C_DAMAGE] += dealt
        chars[c, L.C_DMG_TAKEN] += dealt
        log(b, L.ACTOR_CHAR, c, L.EV_DAMAGE, amount, src, 0, 0, -1)
        if free_slots(b, c) <= 0:
            kill_char(b, c)
            return
        if not (bleeding and src != L.SRC_BLEED and amount > 0):
            return
        # bleed: 2 more damage from a separate source (F-3.4), then the token goes.
        chars[c, L.C_COND] &= ~L.COND_BLEED
        amount = 2
        src = L.SRC_BLEED


@always_inline
@kernel
def char_conditions(t, b, c: int, mask: int) -> None:
    """Put condition tokens on a character hit, one of each at most, minus immunities (R-9.10)."""
    if mask == 0:
        return  # most attacks carry no condition: no item to look at
    flags = armour_flags(t, b, c)
    if flags & L.ITF_IMMUNE_POISON:
        mask &= ~L.COND_POISON
    if flags & L.ITF_IMMUNE_BLEED:
        mask &= ~L.COND_BLEED
    if flags & L.ITF_IMMUNE_FROSTBITE:
        mask &= ~L.COND_FROSTBITE
    new = mask & ~b.chars[c, L.C_COND]
    if new:
        b.chars[c, L.C_COND] |= new
        log(b, L.ACTOR_CHAR, c, L.EV_CONDITION, new, 0, 0, 0, -1)


@kernel
def char_end_of_activation(t, b, c: int) -> None:
    """Poison deals 1 (may trigger bleed, F-9.11), then poison, frostbite, stagger are removed (R-9.10, R-10.8)."""
    chars = b.chars
    if chars[c, L.C_COND] & L.COND_POISON:
        char_suffer(t, b, c, 1, L.SRC_POISON, -1)
    clear = chars[c, L.C_COND] & (L.COND_POISON | L.COND_FROSTBITE | L.COND_STAGGER)
    if clear:
        chars[c, L.C_COND] &= ~clear
        log(b, L.ACTOR_CHAR, c, L.EV_CONDITION_END, clear, 0, 0, 0, -1)


# --- enemies: wounds, conditions -----------------------------------------------------------------
@kernel
def enemy_suffer(t, b, e: int, amount: int, src: int) -> None:
    """Wound tokens; bleed +2 (R-9.10); removal at wounds ≥ health (R-9.3); victory at once (F-8.1)."""
    enemies = b.enemies
    if amount <= 0 or not running(b) or enemies[e, L.E_ALIVE] == 0:
        return
    et = enemies[e, L.E_TYPE]
    health = t.etypes[et, L.ET_HEALTH]
    if src == L.SRC_ATTACK and amount >= 3 and t.etypes[et, L.ET_SPECIAL] == L.SP_DAMAGE_REDUCTION:
        amount -= 1  # Titanite Demon: 3+ damage from one attack roll is reduced by 1
    while True:
        enemies[e, L.E_WOUNDS] += amount
        log(b, L.ACTOR_ENEMY, e, L.EV_DAMAGE, amount, src, 0, 0, -1)
        if enemies[e, L.E_WOUNDS] >= health:
            enemies[e, L.E_WOUNDS] = health
            enemies[e, L.E_ALIVE] = 0
            move_figure(b, enemies[e, L.E_POS], -1)
            log(b, L.ACTOR_ENEMY, e, L.EV_DEATH, 0, 0, 0, 0, -1)
            if living_enemies(b) == 0:
                b.glob[L.G_OUTCOME] = L.OUT_WIN
            elif t.etypes[et, L.ET_SPECIAL] == L.SP_PAIR:
                pair_survivor(t, b, e)
            return
        if t.etypes[et, L.ET_IS_BOSS] == 1:
            check_heat_up(t, b, e)  # R-12.6 (poison included, F-12.3)
        if not ((enemies[e, L.E_COND] & L.COND_BLEED) and src != L.SRC_BLEED):
            return
        enemies[e, L.E_COND] &= ~L.COND_BLEED  # bleed on an enemy
        amount = 2
        src = L.SRC_BLEED


@kernel
def enemy_conditions(t, b, e: int, mask: int) -> None:
    """Condition tokens on an enemy hit (R-9.10); the Boreal Outrider Knight takes no frostbite or stagger."""
    if t.etypes[b.enemies[e, L.E_TYPE], L.ET_SPECIAL] == L.SP_NO_FROST_STAGGER:
        mask &= ~(L.COND_FROSTBITE | L.COND_STAGGER)
    new = mask & ~b.enemies[e, L.E_COND]
    if new:
        b.enemies[e, L.E_COND] |= new
        log(b, L.ACTOR_ENEMY, e, L.EV_CONDITION, new, 0, 0, 0, -1)


@always_inline
@kernel
def enemy_end_of_activation(t, b, e: int) -> None:
    """Poison deals 1 (an enemy can die of it and end the battle, R-11.14), then tokens are removed."""
    enemies = b.enemies
    if enemies[e, L.E_ALIVE] == 0:
        return
    if enemies[e, L.E_COND] & L.COND_POISON:
        enemy_suffer(t, b, e, 1, L.SRC_POISON)
    clear = enemies[e, L.E_COND] & (L.COND_POISON | L.COND_FROSTBITE | L.COND_STAGGER)
    if clear:
        enemies[e, L.E_COND] &= ~clear
        log(b, L.ACTOR_ENEMY, e, L.EV_CONDITION_END, clear, 0, 0, 0, -1)


# --- luck ------------------------------------------------------------------------------------------
ROLL_ATTACK = 0
ROLL_BLOCK = 1
ROLL_DODGE = 2
ROLL_TRAP_DODGE = 3


@always_inline
@kernel
def offer_luck(t, b, policy, c: int, n: int, kind: int, need: int) -> None:
    """D-24: after a roll its owner may flip luck to reroll one die (R-3.6, F-3.1, A-14)."""
    if b.chars[c, L.C_LUCK] != 1 or n == 0 or t.variants[L.V_FORBID] & L.FORBID_LUCK:
        return
    if kind == ROLL_TRAP_DODGE and t.variants[L.V_LUCK_ROLLS] == 1:
        return
    total = pool_sum(b, n)
    set_opt(b, 0, -1, -1, -1, kind, need, total, c, 0)
    for i in range(n):
        set_opt(b, i + 1, i, b.dcol[i], b.dice[i], kind, need, total, c, 0)
    k = decide(b, policy, L.H_LUCK, n + 1)
    if k == 0:
        return
    i = k - 1
    mark = dice_mark(b)
    b.dice[i] = roll_die(t, b, b.dcol[i])
    b.chars[c, L.C_LUCK] = 0
    b.chars[c, L.C_LUCK_USED] += 1
    log(b, L.ACTOR_CHAR, c, L.EV_LUCK, i, b.dice[i], kind, 0, mark)


# --- defence ----------------------------------------------------------------------------------------
@kernel
def defence_dice(t, b, c: int, magic: bool):
    """Block (or resist) dice pooled from the armour and hand slots (R-4.6, R-9.5)."""
    k = 0
    u = 0
    o = 0
    g = 0
    for slot in (L.C_ARMOUR, L.C_HAND0, L.C_HAND1):
        it = b.chars[c, slot]
        if it >= 0:
            off = L.IT_RESIST_K if magic else L.IT_BLOCK_K
            k += t.items[it, off]
            u += t.items[it, off + 1]
            o += t.items[it, off + 2]
            g += t.items[it, L.IT_DODGE]
    return k, u, o, g


@kernel
def expected_taken(t, k: int, u: int, o: int, damage: int) -> int:
    """E[max(0, damage − block total)] × 100, shown to the policy as an option feature (table lookup)."""
    m = X.DEFENCE_DICE
    return t.taken[min(k, m), min(u, m), min(o, m), min(max(damage, 0), X.DEFENCE_DAMAGE)]


@kernel
def dodge_chance(t, g: int, difficulty: int) -> int:
    """P(dodge successes ≥ difficulty) × 1000 (F-9.3: zero dice never beat difficulty ≥ 1)."""
    if difficulty <= 0:
        return 1000
    if difficulty > X.DODGE_DIFFICULTY:
        return 0
    return t.dodge[min(g, X.DEFENCE_DICE), difficulty]


@kernel
def dodge_cost(b, c: int) -> int:
    """A dodge costs 1 stamina, +1 with frostbite (R-9.5, R-9.10)."""
    return 1 + (1 if b.chars[c, L.C_COND] & L.COND_FROSTBITE else 0)


@kernel
def roll_dodge(t, b, policy, c: int, g: int, difficulty: int, kind: int) -> bool:
    """Roll the green dice; success iff dodge symbols ≥ difficulty (R-9.5)."""
    mark = dice_mark(b)
    n = roll_pool(t, b, 0, 0, 0, g)
    offer_luck(t, b, policy, c, n, kind, difficulty)
    ok = pool_sum(b, n) >= difficulty
    b.chars[c, L.C_DODGES] += 1
    if ok:
        b.chars[c, L.C_DODGES_OK] += 1
    log(b, L.ACTOR_CHAR, c, L.EV_DEFEND, 2, pool_sum(b, n), 1 if ok else 0, difficulty, mark)
    return ok


@kernel
def roll_block(t, b, policy, c: int, k: int, u: int, o: int, damage: int, magic: bool, attacker: int) -> int:
    """Block or resist roll of ``k`` black, ``u`` blue and ``o`` orange dice (:func:`defence_dice`) against a fixed
    damage value; returns the damage after defence (R-9.5)."""
    extra_u = 0
    if (
        not magic
        and t.chars[c, L.CT_HEROIC] == L.HEROIC_KNIGHT_BLOCK
        and b.chars[c, L.C_HEROIC] == 1
        and not (t.variants[L.V_FORBID] & L.FORBID_HEROIC)
    ):
        # Knight's heroic action: one extra blue die on one block roll (R-3.7; card text).
        set_opt(b, 0, 0, L.HEROIC_KNIGHT_BLOCK, expected_taken(t, k, u, o, damage), damage, 0, 0, 0, 0)
        set_opt(b, 1, 1, L.HEROIC_KNIGHT_BLOCK, expected_taken(t, k, u + 1, o, damage), damage, 0, 0, 0, 0)
        if decide(b, policy, L.H_HEROIC, 2) == 1:
            extra_u = 1
            b.chars[c, L.C_HEROIC] = 0
            b.chars[c, L.C_HEROIC_USED] += 1
            log(b, L.ACTOR_CHAR, c, L.EV_HEROIC, L.HEROIC_KNIGHT_BLOCK, 0, 0, 0, -1)
    mark = dice_mark(b)
    n = roll_pool(t, b, k, u, o, 0)
    if extra_u and n < b.dice.shape[0]:
        b.dice[n] = roll_die(t, b, K_BLUE)
        b.dcol[n] = K_BLUE
        n += 1
    offer_luck(t, b, policy, c, n, ROLL_BLOCK, damage)
    total = pool_sum(b, n)
    taken = damage - total if damage > total else 0
    log(b, L.ACTOR_CHAR, c, L.EV_DEFEND, 1 if magic else 0, total, taken, attacker, mark)
    if not magic and total >= 3 and t.etypes[b.enemies[attacker, L.E_TYPE], L.ET_SPECIAL] == L.SP_BLOCK_PENALTY:
        pay(t, b, c, 1)  # Winged Knight: a block roll of 3+ against it costs a stamina cube
    return taken
