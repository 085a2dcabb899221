"""Boss activation: behaviour cards, facing, directional moves, leaps, turns, area attacks (R-12)."""

from __future__ import annotations


from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.combat import enemy_end_of_activation
from dsim.games.dstbg.kernel.core import (
    arc_centre,
    blocks_movement,
    char_arc,
    decide,
    decide_for_enemy,
    log,
    move_dist,
    range_dist,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import boss_step, kernel
from dsim.games.dstbg.kernel.deck import build_deck, draw_card, reshuffle
from dsim.games.dstbg.kernel.enemy import PUSH_AWAY, PUSH_NONE, choose_target, defend, defend_all, staggered
from dsim.games.dstbg.kernel.movement import boss_at, place_enemy, push_char_any, push_char_boss
from dsim.rng import randint



@kernel
def side_offset(direction: int) -> int:
    """Direction offset from the facing of a forward, backward, left or right move (R-12.18)."""
    if direction == L.DIR_BACKWARD:
        return 4
    if direction == L.DIR_LEFT:
        return 6
    if direction == L.DIR_RIGHT:
        return 2
    return 0


@kernel
def turn_to(b, e: int, facing: int) -> None:
    """Set a boss's facing; characters in its node stay where they are (R-12.16)."""
    if b.enemies[e, L.E_FACING] != facing:
        b.enemies[e, L.E_FACING] = facing
        log(b, L.ACTOR_ENEMY, e, L.EV_TURN, facing, 0, 0, 0, -1)


@kernel
def face(t, b, policy, e: int, c: int, away: bool) -> bool:
    """R-12.14/R-12.15/F-12.6: rotate toward (front arc) or away (back arc) on an adjacent node
    closer to / farther from the target (A-44 face_closer_adjacent; under target_in_front_arc only
    when the target's node is outside the front arc); R-12.16: a target in the boss's node is faced directly.
    Returns True when the target stands in the boss's node."""
    chars, enemies = b.chars, b.enemies
    bpos = enemies[e, L.E_POS]
    tpos = chars[c, L.C_POS]
    if tpos == bpos:
        if not away:
            side = chars[c, L.C_ARC]
            turn_to(b, e, side - 1 if side > 0 else enemies[e, L.E_FACING])
        return True
    if not away and t.variants[L.V_BOSS_TOWARD] == 1 and t.arcs[enemies[e, L.E_FACING], bpos, tpos] & L.ARC_FRONT:
        return False  # A-44 target_in_front_arc: the target's node already lies in the front arc, no turn
    here = move_dist(t, b, bpos, tpos)
    n = 0
    for d in range(8):
        dest = t.neighbour[bpos, d]
        if dest < 0 or blocks_movement(b, dest):
            continue
        there = move_dist(t, b, dest, tpos)
        if (not away and there < here) or (away and there > here):
            set_opt(b, n, dest, there, d, e, 0, 0, 0, 0)
            n += 1
    if n > 0:
        d = b.opts[decide_for_enemy(t, b, policy, L.H_ENEMY_STEP, n), 2]
        turn_to(b, e, (d + 4) % 8 if away else d)
        return False
    best = L.UNREACHABLE + 1
    best_d = enemies[e, L.E_FACING]
    for d in range(8):  # F-12.6: nowhere to go: front arc toward the adjacent node closest to the target
        dest = t.neighbour[bpos, d]
        if dest >= 0 and t.steps[dest, tpos] < best:
            best = t.steps[dest, tpos]
            best_d = d
    turn_to(b, e, best_d)
    return False


@kernel
def enter_node(t, b, policy, e: int, dest: int) -> None:
    """Move a boss onto ``dest``: another boss there is pushed (R-2.7, D-33); characters there without
    a push keep their node, against the arc that faced them (R-12.17)."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    other = boss_at(t, b, dest)
    if other >= 0 and other != e:
        n = 0
        for d in range(8):
            z = t.neighbour[dest, d]
            if z >= 0 and not blocks_movement(b, z) and boss_at(t, b, z) < 0:
                set_opt(b, n, z, 0, 0, other, 0, 0, 0, 0)
                n += 1
        if n > 0:
            k = decide(b, policy, L.H_NODE_LIMIT, n)
            place_enemy(t, b, policy, other, b.opts[k, 0])
    bpos = enemies[e, L.E_POS]
    facing = enemies[e, L.E_FACING]
    for c in range(glob[L.G_N_CHARS]):
        if chars[c, L.C_ALIVE] == 1 and chars[c, L.C_POS] == dest:
            arc = t.arcs[facing, bpos, dest]
            chars[c, L.C_ARC] = arc_centre(facing, arc) + 1  # the side that faced where it stood
    place_enemy(t, b, policy, e, dest)


@kernel
def push_out(t, b, policy, e: int, damage: int, difficulty: int, leap: bool) -> None:
    """Push every character out of the boss's node: same arc (R-12.23), or anywhere after a leap
    (R-12.20); push damage is a physical attack each pushed character defends (R-11.8, A-36/A-37)."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    node = enemies[e, L.E_POS]
    for c in range(glob[L.G_N_CHARS]):
        if not running(b):
            return
        if chars[c, L.C_ALIVE] == 0 or chars[c, L.C_POS] != node:
            continue
        if damage <= 0 or t.variants[L.V_PUSH_DMG_ORDER] == 1:  # A-36 push_then_defend: pushed, then hit there
            push_off(t, b, policy, c, e, leap)
            if damage > 0 and running(b) and chars[c, L.C_ALIVE] == 1:
                defend(t, b, policy, c, e, damage, False, difficulty, 0, PUSH_NONE, damage)
            continue
        hit = defend(t, b, policy, c, e, damage, False, difficulty, 0, PUSH_NONE, damage)
        if (hit or t.variants[L.V_PUSH_DMG_DODGED] == 1) and chars[c, L.C_POS] == node and running(b):
            push_off(t, b, policy, c, e, leap)


@kernel
def push_off(t, b, policy, c: int, e: int, leap: bool) -> None:
    """Character ``c`` pushed off boss ``e``'s node: to any adjacent node after a leap (R-12.20), else within
    its arc (R-12.23)."""
    if leap:
        push_char_any(t, b, policy, c, b.enemies[e, L.E_POS], -1)
    else:
        push_char_boss(t, b, policy, c, e)


@kernel
def boss_move(t, b, policy, e: int, s: int) -> None:
    """R-12.14–R-12.18, F-11.5, F-12.7: turn to face the target (if the icon has one), then step
    forward/back/sideways without turning, pushing as the icon says."""
    chars, enemies = b.chars, b.enemies
    p = t.prog[s]
    target = -1
    if p[L.S_FACE] != L.TGT_NONE:
        target = choose_target(t, b, policy, e, p[L.S_FACE], True)
    dist = p[L.S_DIST] - (1 if enemies[e, L.E_COND] & L.COND_FROSTBITE else 0)
    push = p[L.S_PUSH] == 1
    away = p[L.S_DIR] == L.DIR_BACKWARD
    if push and (dist > 0 or t.variants[L.V_FROST_ZERO_PUSH] == 0):
        push_out(t, b, policy, e, 0, 0, False)
    if dist <= 0:
        if target >= 0 and running(b):
            face(t, b, policy, e, target, away)
        return
    for _ in range(dist):
        if not running(b):
            return
        if target >= 0 and chars[target, L.C_ALIVE] == 1:
            in_node = face(t, b, policy, e, target, away)
            if in_node and not away and not push:
                return  # turns instead of moving
        k = side_offset(p[L.S_DIR])
        dest = t.neighbour[enemies[e, L.E_POS], (enemies[e, L.E_FACING] + k) % 8]
        if dest < 0 or blocks_movement(b, dest):
            return  # F-12.7: the centre node of that arc is not free: no move
        enter_node(t, b, policy, e, dest)
        if push:
            push_out(t, b, policy, e, p[L.S_PUSH_DMG], p[L.S_DODGE], False)


@kernel
def boss_leap(t, b, policy, e: int, s: int) -> None:
    """R-12.20: lifted onto the target's node keeping its facing; pushes everyone there anywhere."""
    p = t.prog[s]
    target = choose_target(t, b, policy, e, p[L.S_TARGET], True)
    if target < 0:
        return
    dest = b.chars[target, L.C_POS]
    log(b, L.ACTOR_ENEMY, e, L.EV_LEAP, b.enemies[e, L.E_POS], dest, 0, 0, -1)
    if dest != b.enemies[e, L.E_POS]:
        enter_node(t, b, policy, e, dest)
    push_out(t, b, policy, e, p[L.S_PUSH_DMG], p[L.S_DODGE], True)


@kernel
def in_attack_arcs(t, b, c: int, e: int, arcs: int) -> bool:
    """Whether a character stands in one of the attack arcs shown (R-12.22); no arcs = no limit."""
    return arcs == 0 or (char_arc(t, b, c, e) & arcs) != 0


@kernel
def boss_attack(t, b, policy, e: int, s: int) -> None:
    """R-12.22: an area attack hits every character in the shown arcs within range, each defending;
    a single-target (or node) attack needs its target in range and, by default, in the arcs (A-45)."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    p = t.prog[s]
    bpos = enemies[e, L.E_POS]
    damage = max(0, p[L.S_DAMAGE] - staggered(b, e))
    magic = p[L.S_MAGIC] == 1
    push = PUSH_AWAY if p[L.S_PUSH] == 1 else PUSH_NONE
    hits = 0
    if p[L.S_TARGET] == L.TGT_AREA:
        for c in range(glob[L.G_N_CHARS]):
            if chars[c, L.C_ALIVE] == 1 and range_dist(t, b, bpos, chars[c, L.C_POS]) <= p[L.S_RANGE]:
                if in_attack_arcs(t, b, c, e, p[L.S_ARCS]):
                    hits |= 1 << c
    else:
        target = choose_target(t, b, policy, e, p[L.S_TARGET], False)
        if target < 0:
            return
        tnode = chars[target, L.C_POS]
        limited = t.variants[L.V_BOSS_ARC_LIMIT] == 0 and not in_attack_arcs(t, b, target, e, p[L.S_ARCS])
        if range_dist(t, b, bpos, tnode) > p[L.S_RANGE] or limited:
            log(b, L.ACTOR_ENEMY, e, L.EV_ATTACK_FAIL, s, target, range_dist(t, b, bpos, tnode), 0, -1)
            return
        if p[L.S_NODE] == 1:
            for c in range(glob[L.G_N_CHARS]):
                if chars[c, L.C_ALIVE] == 1 and chars[c, L.C_POS] == tnode:
                    hits |= 1 << c
        else:
            hits = 1 << target
    log(b, L.ACTOR_ENEMY, e, L.EV_ATTACK, s, hits, bpos, damage, -1)
    defend_all(t, b, policy, hits, e, damage, magic, p[L.S_DODGE], p[L.S_COND], push, p[L.S_DAMAGE])  # F-9.6, D-28


@kernel
def resolve_half(t, b, policy, e: int, card: int, h: int) -> None:
    """Resolve one boss figure's half of a card: its icons left to right (F-11.2), the repeat
    icon repeating the whole half (R-12.7) or only its attacks (``boss_repeat_scope``)."""
    base = X.CARD_HALF + h * X.HALF_FIELDS
    first = t.cards[card, base + X.HALF_PROG]
    count = t.cards[card, base + X.HALF_LEN]
    repeat = t.cards[card, base + X.HALF_REPEAT]
    b.enemies[e, L.E_WEAK] = t.cards[card, base + X.HALF_WEAK]
    b.glob[L.G_WEAK_ARCS] = t.cards[card, base + X.HALF_WEAK]
    attacks_only = t.variants[L.V_BOSS_REPEAT_SCOPE] == 1
    for r in range(repeat):
        for s in range(first, first + count):
            if not running(b) or b.enemies[e, L.E_ALIVE] == 0:
                return
            op = t.prog[s, L.S_OP]
            if r > 0 and attacks_only and op != L.OP_ATTACK:
                continue
            if op == L.OP_MOVE:
                boss_move(t, b, policy, e, s)
            elif op == L.OP_LEAP:
                boss_leap(t, b, policy, e, s)
            elif op == L.OP_TURN:
                turn_to(b, e, (b.enemies[e, L.E_FACING] + t.prog[s, L.S_DEGREES] // 45 + 8) % 8)
            else:
                boss_attack(t, b, policy, e, s)


@boss_step
def boss_activation(t, b, policy) -> int:
    """R-12.7: draw the next behaviour card and resolve its halves, each by its living boss figure;
    returns the bitmask of enemy slots that activated. Dancer: reshuffle after a heat-up card."""
    card = draw_card(b)
    log(b, L.ACTOR_NONE, -1, L.EV_CARD, card, b.glob[L.G_DECK_POS], b.glob[L.G_DECK_LEN], 0, -1)
    done = 0
    special = 0
    for h in range(t.cards[card, X.CARD_HALVES]):
        e = t.cards[card, X.CARD_HALF + h * X.HALF_FIELDS + X.HALF_SLOT]
        if b.enemies[e, L.E_ALIVE] == 0 or not running(b):
            continue
        done |= 1 << e
        special = t.etypes[b.enemies[e, L.E_TYPE], L.ET_SPECIAL]
        log(b, L.ACTOR_ENEMY, e, L.EV_ACTIVATE, card, 0, 0, 0, -1)
        resolve_half(t, b, policy, e, card, h)
        if running(b):
            enemy_end_of_activation(t, b, e)
    if special == L.SP_RESHUFFLE_AFTER_HEATUP and t.cards[card, X.CARD_HEATUP] == 1:
        reshuffle(t, b)
    return done


@boss_step
def boss_setup(t, b, policy) -> None:
    """R-12.4, R-12.5: each boss figure's facing, then the behaviour deck."""
    for e in range(b.glob[L.G_N_ENEMIES]):
        initial_facing(t, b, policy, e)
    build_deck(t, b)


@kernel
def initial_facing(t, b, policy, e: int) -> None:
    """A-42: toward the entry door (default), the nearest character (1), or at random (2)."""
    mode = t.variants[L.V_BOSS_FACING]
    facing = t.scen[X.SC_BOSS_FACING]
    if mode == 1:
        c = choose_target(t, b, policy, e, L.TGT_NEAREST, True)
        if c >= 0:
            facing = direction_toward(t, b.enemies[e, L.E_POS], b.chars[c, L.C_POS])
    elif mode == 2:
        facing = randint(b.rng, 8)
    b.enemies[e, L.E_FACING] = max(facing, 0)


@kernel
def direction_toward(t, a: int, z: int) -> int:
    """The direction from ``a`` whose neighbour is fewest steps from ``z``."""
    best = L.UNREACHABLE + 1
    best_d = 0
    for d in range(8):
        n = t.neighbour[a, d]
        if n >= 0 and t.steps[n, z] < best:
            best = t.steps[n, z]
            best_d = d
    return best_d
