"""Character activation and character attacks (R-10, R-4.10, R-9.4)."""

from __future__ import annotations

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.deck import next_card_in_battle
from dsim.games.dstbg.kernel.combat import (
    ROLL_ATTACK,
    armour_flags,
    can_pay,
    char_end_of_activation,
    enemy_conditions,
    enemy_suffer,
    gain,
    offer_luck,
    pay,
)
from dsim.games.dstbg.kernel.core import (
    K_BLACK,
    char_arc,
    decide,
    dice_mark,
    face_down_trap,
    figures_at,
    log,
    pool_sum,
    range_dist,
    relative_arc,
    roll_die,
    roll_pool,
    round_side,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import kernel
from dsim.numba_linking import always_inline, step_reads
from dsim.games.dstbg.kernel.movement import boss_at, break_barrel, is_boss, place_char, push_enemy_away, MOVE_VOLUNTARY

# attack option kinds (option column O_H)
OPT_SINGLE = 0
OPT_NODE = 1
OPT_SUPPORT_ONE = 2
OPT_SUPPORT_ALL = 3

STEP_WALK = 0
STEP_SHIFT = 1

# how an attack option's stamina is counted (attack_options)
COST_FULL = 0  # a fresh use of a weapon action
COST_FREE = 1  # Backstab; a repetition under A-28 pay_once_roll_each
COST_REPEAT = 2  # a repetition of a repeat icon paid again; stagger's +1


@kernel
def used_field(slot: int) -> int:
    """The field flagging that the weapon in ``slot`` (0, 1 hands; 2, 3 backups) attacked this activation (R-10.5)."""
    return L.C_USED0 + slot if slot < 2 else L.C_USED2 + slot - 2


@kernel
def attacked(b, c: int) -> bool:
    """Whether character ``c`` attacked with any weapon this activation (A-27 one attack in all)."""
    for slot in range(4):
        if b.chars[c, used_field(slot)] == 1:
            return True
    return False


# --- moving -----------------------------------------------------------------------------------
# the feature columns of a move step's option rows (policies/dstbg/README.md), a bit each in ``step_reads``
STEP_MOVE, STEP_FIGURES, STEP_RANGE, STEP_TARGETS, STEP_ARCS = 4, 5, 6, 7, 8


@kernel
def reach_profile(t, b, c: int):
    """(Longest range of a hand-weapon dice line, −1 if none; whether one of them can hit at range 0,
    i.e. lacks reach, R-4.4): what a move step's "enemies attackable from there" feature needs."""
    longest = -1
    at_zero = False
    for slot in range(2):
        it = b.chars[c, L.C_HAND0 + slot]
        if it < 0:
            continue
        first = t.items[it, L.IT_LINE0]
        for li in range(first, first + t.items[it, L.IT_N_LINES]):
            if t.lines[li, L.L_K] + t.lines[li, L.L_U] + t.lines[li, L.L_O] > 0:
                longest = max(longest, t.lines[li, L.L_RANGE])
                at_zero = at_zero or t.lines[li, L.L_REACH] == 0
    return longest, at_zero


@always_inline
@kernel
def step_features(t, b, lo: int, n: int, longest: int, at_zero: bool) -> None:
    """Fill the features of move-step option rows ``lo .. n-1`` (node in column 0) in one pass: move and
    range distance to the nearest living enemy (A-18, A-17 metrics), figures on the node, and how
    many enemies a hand-weapon line could target from there (``reach_profile``). Only the columns the
    policy reads (``step_reads``: a constant in its own entry, so the rest is compiled out); others stay 0."""
    glob, enemies = b.glob, b.enemies
    opts = b.opts
    reads = step_reads()
    want_move = (reads >> STEP_MOVE) & 1
    want_figures = (reads >> STEP_FIGURES) & 1
    want_range = (reads >> STEP_RANGE) & 1
    want_targets = (reads >> STEP_TARGETS) & 1
    dmove = t.steps if t.variants[L.V_MOVE_METRIC] == 1 else b.dwalk  # as move_dist
    drange = b.dwalk if t.variants[L.V_RANGE_METRIC] == 1 else t.steps  # as range_dist
    nearest = 0 if at_zero else 1  # distances are never negative: d > 0 or at_zero is d >= nearest
    for i in range(lo, n):  # one row at a time, its features in registers until the row is written
        node = opts[i, 0]
        near_move = L.UNREACHABLE
        near_range = L.UNREACHABLE
        figures = 0
        targets = 0
        for e in range(glob[L.G_N_ENEMIES]):  # most calls fill one row (H_MOVE_ON's): nothing gathered first
            if enemies[e, L.E_ALIVE] == 0:
                continue
            p = enemies[e, L.E_POS]
            if want_move:
                near_move = min(near_move, dmove[node, p])
            if want_range or want_targets:
                d = drange[node, p]
                near_range = min(near_range, d)
                targets += 1 if nearest <= d <= longest else 0
        if want_figures:
            figures = figures_at(b, node)
        opts[i, STEP_MOVE] = near_move if want_move else 0
        opts[i, STEP_FIGURES] = figures
        opts[i, STEP_RANGE] = near_range if want_range else 0
        opts[i, STEP_TARGETS] = targets if want_targets else 0
    if glob[L.G_IS_BOSS] == 1 and (reads >> STEP_ARCS) & 1:
        boss_arc_features(t, b, lo, n)


@kernel
def boss_arc_features(t, b, lo: int, n: int) -> None:
    """Column 8 of move-step option rows ``lo .. n-1``: the arcs of the nearest living boss the node lies in (R-12.8);
    the boss's own node keeps the arcs of the side the character stands at or comes from (R-12.9)."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    c = glob[L.G_ACTIVE]
    if c < 0:
        return
    here = chars[c, L.C_POS]
    bosses = 0  # the living boss slots, found once for all rows
    for e in range(glob[L.G_N_ENEMIES]):
        if enemies[e, L.E_ALIVE] == 1 and t.etypes[enemies[e, L.E_TYPE], L.ET_IS_BOSS] == 1:
            bosses |= 1 << e
    card = next_card_in_battle(t, b, 0)
    for i in range(lo, n):
        node = b.opts[i, 0]
        best = L.UNREACHABLE
        for e in range(glob[L.G_N_ENEMIES]):
            if not bosses & (1 << e):
                continue
            epos = enemies[e, L.E_POS]
            if t.steps[node, epos] >= best:
                continue
            best = t.steps[node, epos]
            if node != epos:
                b.opts[i, STEP_ARCS] = t.arcs[enemies[e, L.E_FACING], epos, node]
            elif here == epos:
                b.opts[i, STEP_ARCS] = char_arc(t, b, c, e)
            else:
                b.opts[i, STEP_ARCS] = t.arcs[enemies[e, L.E_FACING], epos, here]
            b.opts[i, STEP_ARCS] |= next_card_bits(t, card, e)


@kernel
def next_card_bits(t, card: int, e: int) -> int:
    """Column 8's bits above the arcs (``layout.NEXT_*``): what boss figure ``e``'s half of the known next behaviour
    card ``card`` (−1: none known) will do — the arcs its attacks before any move hit (R-12.13, A-45), whether an
    attack follows a move, leap or turn, its reach in range distance, its weak arcs (R-12.12). 0 when unknown."""
    if card < 0:
        return 0
    bits = L.NEXT_KNOWN
    for h in range(t.cards[card, X.CARD_HALVES]):
        base = X.CARD_HALF + h * X.HALF_FIELDS
        if t.cards[card, base + X.HALF_SLOT] != e:
            continue
        arcs = 0
        moved = 0  # move distance before the step (15: a leap, anywhere)
        turned = False
        reach = 0
        first = t.cards[card, base + X.HALF_PROG]
        for r in range(t.cards[card, base + X.HALF_REPEAT]):  # the repeat icon repeats the half
            for s in range(first, first + t.cards[card, base + X.HALF_LEN]):
                op = t.prog[s, L.S_OP]
                if op == L.OP_MOVE:
                    moved = min(15, moved + t.prog[s, L.S_DIST])
                    turned = True
                elif op == L.OP_LEAP:
                    moved = 15
                    turned = True
                elif op == L.OP_TURN:
                    turned = True
                elif op == L.OP_ATTACK:
                    reach = max(reach, min(15, moved + t.prog[s, L.S_RANGE]))
                    if turned:
                        bits |= L.NEXT_LATER
                    else:
                        arcs |= t.prog[s, L.S_ARCS] if t.prog[s, L.S_ARCS] != 0 else 15
        bits |= (arcs << L.NEXT_ARCS_SHIFT) | (reach << L.NEXT_REACH_SHIFT)
        bits |= t.cards[card, base + X.HALF_WEAK] << L.NEXT_WEAK_SHIFT
    return bits


@kernel
def move_cost(t, b, c: int, kind: int, free_steps: int) -> int:
    """Stamina for the next node before its terrain: a shift costs nothing (R-4.10); the free walk only
    frostbite's +1, a run 1 more (R-10.4, R-9.10). −1 = the character cannot run (Smough's Armour). The same
    for every node of one step, so it is worked out once per step."""
    if kind == STEP_SHIFT:
        return 0
    frost = 1 if b.chars[c, L.C_COND] & L.COND_FROSTBITE else 0
    if free_steps > 0:
        return frost
    if armour_flags(t, b, c) & L.ITF_NO_DODGE_RUN:
        return -1
    return 1 + frost


@kernel
def step_cost(t, b, base: int, dest: int, kind: int) -> int:
    """Stamina for one node: ``base`` (:func:`move_cost`), +1 for a barrel (R-7.5); never a gravestone or a chest,
    and a shift never enters a barrel by default (A-24). −1 = not allowed."""
    if base < 0:
        return -1
    terr = b.nodes[dest, L.N_TERRAIN]
    if terr == L.TERRAIN_GRAVESTONE or terr == L.TERRAIN_CHEST:
        return -1
    barrel = 1 if terr == L.TERRAIN_BARREL else 0
    if kind == STEP_SHIFT and barrel and t.variants[L.V_SHIFT_INTO_BARREL] == 0:
        return -1
    return base + barrel


@kernel
def move_phase(t, b, policy, c: int, kind: int, max_steps: int, free_steps: int) -> int:
    """D-18/D-21: node by node, the policy picks the next adjacent node or stops; returns steps taken.

    Option rows: (node, stamina cost, face-down trap, barrel, move distance to the nearest enemy,
    figures there, range distance to the nearest enemy, enemies attackable from there, boss arcs of the
    node); row 0 = stop. In a boss's node, under A-43 ``allowed``, the last two rows of a walk or run move
    round the boss into the next arc counter-clockwise, then clockwise (R-12.10): the node itself, with the
    arc it leads to in column 8. Before a walk or run lists a step's nodes, ``H_MOVE_ON`` asks whether to stop
    here, judged from this node's row alone (row 0 = look on, row 1 = stop; both this node with its features):
    a move most often ends where the node alone decides it, and then the other rows are never worked out."""
    taken = 0
    longest, at_zero = reach_profile(t, b, c)  # hands do not change during a move
    while taken < max_steps and running(b):
        pos = b.chars[c, L.C_POS]
        set_opt(b, 0, pos, 0, 0, 0, 0, 0, 0, 0)
        listed = 0  # rows whose features are filled
        if kind == STEP_WALK:  # D-18 in two questions: stop here, judged from this node alone, before listing the rest
            step_features(t, b, 0, 1, longest, at_zero)
            for j in range(L.OPT_FIELDS):
                b.opts[1, j] = b.opts[0, j]
            if decide(b, policy, L.H_MOVE_ON, 2) == 1:
                break
            listed = 1
        n = 1
        boss = boss_at(t, b, pos)
        arc = char_arc(t, b, c, boss) if boss >= 0 else 0
        facing = b.enemies[boss, L.E_FACING] if boss >= 0 else 0
        base = move_cost(t, b, c, kind, free_steps)
        for d in range(8):
            dest = t.adjacent_nodes[pos, d]
            if dest < 0:
                break  # the nodes around come first (Tables.adjacent_nodes)
            if boss >= 0 and (t.arcs[facing, pos, dest] & arc) == 0:
                continue  # R-12.9/F-12.5: a character leaving a boss's node stays in its arc
            cost = step_cost(t, b, base, dest, kind)
            if cost < 0 or not can_pay(t, b, c, cost):
                continue
            trap = face_down_trap(b, dest)
            barrel = 1 if b.nodes[dest, L.N_TERRAIN] == L.TERRAIN_BARREL else 0
            set_opt(b, n, dest, cost, trap, barrel, 0, 0, 0, 0)
            n += 1
        rounds_from = n  # R-12.10 (A-43 allowed): then the two moves round the boss into a next arc
        side = b.chars[c, L.C_ARC] - 1 if boss >= 0 and b.chars[c, L.C_ARC] > 0 else facing
        if boss >= 0 and kind == STEP_WALK and t.variants[L.V_BOSS_ARC_SHIFT] == 0:
            cost = step_cost(t, b, base, pos, kind)
            if cost >= 0 and can_pay(t, b, c, cost):
                for i in range(2):
                    set_opt(b, n, pos, cost, 0, 0, 0, 0, 0, 0)
                    n += 1
        if n == 1:
            break  # no step open: stopping is the only option (decide asks no policy for one row)
        step_features(t, b, listed, n, longest, at_zero)
        for i in range(rounds_from, n):
            b.opts[i, STEP_ARCS] = relative_arc(facing, round_side(facing, side, i - rounds_from))
            if (step_reads() >> STEP_ARCS) & 1:  # the known next card, as for the other rows (boss_arc_features)
                b.opts[i, STEP_ARCS] |= next_card_bits(t, next_card_in_battle(t, b, 0), boss)
        k = decide(b, policy, L.H_SHIFT if kind == STEP_SHIFT else L.H_STEP, n)
        if k == 0:
            break
        dest = b.opts[k, 0]
        cost = b.opts[k, 1]
        if k >= rounds_from:  # round the boss: a step of the move that stays in the node
            pay(t, b, c, cost)
            if free_steps > 0:
                free_steps -= 1
            if not running(b):
                break
            side = round_side(facing, side, k - rounds_from)
            b.chars[c, L.C_ARC] = side + 1
            log(b, L.ACTOR_CHAR, c, L.EV_ARC_SHIFT, pos, side + 1, boss, b.opts[k, 8] & 15, -1)
            taken += 1
            continue
        if b.opts[k, 3] == 1:
            break_barrel(t, b, dest)
        pay(t, b, c, cost)
        if kind == STEP_WALK and free_steps > 0:
            free_steps -= 1
        if not running(b):
            break
        place_char(t, b, policy, c, dest, MOVE_VOLUNTARY)
        taken += 1
    return taken


# --- attacking ----------------------------------------------------------------------------------
@kernel
def line_value(t, li: int, bonus: int, threshold: int, need: int):
    """(E[damage] × 100, P(damage ≥ need) × 1000) of an attack line against block/resist ``threshold``."""
    th = min(max(threshold, 0), t.lstat.shape[2] - 1)
    nd = min(max(need, 1), t.lstat.shape[3] - 1)
    return t.lstat[li, bonus, th, 0], t.lstat[li, bonus, th, nd]


@kernel
def line_range(t, b, c: int, li: int) -> int:
    """The option's range: its own range icon, else the weapon card's range (R-4.4)."""
    return t.lines[li, L.L_RANGE]


@kernel
def attack_cost(t, b, c: int, li: int, repeat: bool) -> int:
    """Stamina cost of one use of a line: +1 when staggered (R-9.10), on a repetition only under
    A-32 per_use; Berserk Charge range-0 attack is free."""
    if b.chars[c, L.C_BERSERK] == 1 and line_range(t, b, c, li) == 0 and t.lines[li, L.L_SUPPORT] == 0:
        return 0
    stagger = 1 if b.chars[c, L.C_COND] & L.COND_STAGGER else 0
    if repeat and t.variants[L.V_STAGGER_REPEAT] == 1:
        stagger = 0  # A-32 once: the repeated option pays stagger's +1 only on its first use
    return t.lines[li, L.L_STAMINA] + stagger + boss_tax(t, b, c)


@kernel
def boss_tax(t, b, c: int) -> int:
    """Gargoyle after heat-up: characters on its node pay 1 more stamina per attack (special ability)."""
    if b.glob[L.G_HEATED] == 0:
        return 0
    for e in range(b.glob[L.G_N_ENEMIES]):
        if b.enemies[e, L.E_ALIVE] == 1 and b.enemies[e, L.E_POS] == b.chars[c, L.C_POS]:
            if t.etypes[b.enemies[e, L.E_TYPE], L.ET_SPECIAL] == L.SP_HEATUP_TAX:
                return 1
    return 0


@kernel
def weak_bonus(t, b, c: int, e: int) -> int:
    """R-12.12: one extra black die when attacking a boss from a weak arc of the last attack icon."""
    if not is_boss(t, b, e) or b.enemies[e, L.E_WEAK] == 0:
        return 0
    return 1 if char_arc(t, b, c, e) & b.enemies[e, L.E_WEAK] else 0


@kernel
def attack_options(t, b, c: int, only_slot: int, only_line: int, only_enemy: int, cost_mode: int) -> int:
    """Option rows for D-19/D-20: row 0 = stop; then (slot, line, enemy, node, cost, E[dmg]×100,
    P(kill)×1000, kind) for every affordable line and legal target (R-10.5, R-10.6, R-4.10).
    ``only_line`` or ``only_slot`` ≥ 0 lists a repetition of that option or weapon (A-28): its use
    this activation does not bar it."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    pos = chars[c, L.C_POS]
    set_opt(b, 0, -1, -1, -1, -1, 0, 0, 0, -1)
    n = 1
    repeat = only_slot >= 0 or only_line >= 0
    if t.variants[L.V_ATTACKS_PER_ACT] == 1 and attacked(b, c) and not repeat:
        return n
    for slot in range(4):
        it = chars[c, L.C_HAND0 + slot]
        if it < 0 or (only_slot >= 0 and slot != only_slot):
            continue
        if chars[c, used_field(slot)] == 1 and not repeat:
            continue  # each weapon, a backup one that attacks from there included, once per activation
        first = t.items[it, L.IT_LINE0]
        for li in range(first, first + t.items[it, L.IT_N_LINES]):
            if only_line >= 0 and li != only_line:
                continue
            if slot >= 2 and t.lines[li, L.L_FROM_BACKUP] == 0:
                continue  # F-4.1: backup weapons attack only if their card says so
            cost = 0 if cost_mode == COST_FREE else attack_cost(t, b, c, li, cost_mode == COST_REPEAT)
            if not can_pay(t, b, c, cost):
                continue
            rng = line_range(t, b, c, li)
            sup = t.lines[li, L.L_SUPPORT]
            if sup != L.SUP_NONE:
                if only_enemy >= 0:
                    continue
                amount = t.lines[li, L.L_SUPPORT_AMT]
                if t.lines[li, L.L_SUPPORT_SCOPE] == L.SCOPE_ALL:
                    if n < L.MAX_OPTS:
                        set_opt(b, n, slot, li, -1, -1, cost, amount * 100, sup, OPT_SUPPORT_ALL)
                        n += 1
                    continue
                for a in range(glob[L.G_N_CHARS]):
                    if chars[a, L.C_ALIVE] == 0:
                        continue
                    if t.lines[li, L.L_SUPPORT_SCOPE] == L.SCOPE_SELF and a != c:
                        continue
                    if range_dist(t, b, pos, chars[a, L.C_POS]) <= rng and n < L.MAX_OPTS:
                        set_opt(b, n, slot, li, -1, a, cost, amount * 100, sup, OPT_SUPPORT_ONE)
                        n += 1
                continue
            if t.lines[li, L.L_K] + t.lines[li, L.L_U] + t.lines[li, L.L_O] == 0:
                continue
            reach = t.lines[li, L.L_REACH]
            shift = t.lines[li, L.L_SHIFT_BEFORE]
            node_attack = t.lines[li, L.L_NODE] == 1 or (
                chars[c, L.C_BERSERK] == 1 and rng == 0
            )
            magic = t.lines[li, L.L_MAGIC]
            for e in range(glob[L.G_N_ENEMIES]):
                if enemies[e, L.E_ALIVE] == 0 or (only_enemy >= 0 and e != only_enemy):
                    continue
                epos = enemies[e, L.E_POS]
                d = range_dist(t, b, pos, epos)
                if d > rng + shift or (reach == 1 and d == 0 and shift == 0):
                    continue
                if node_attack:
                    dup = False  # one option per target node
                    for e2 in range(e):
                        if enemies[e2, L.E_ALIVE] == 1 and enemies[e2, L.E_POS] == epos:
                            dup = True
                    if dup:
                        continue
                et = enemies[e, L.E_TYPE]
                bonus = weak_bonus(t, b, c, e)
                need = t.etypes[et, L.ET_HEALTH] - enemies[e, L.E_WOUNDS]
                defence = t.etypes[et, L.ET_RESIST if magic else L.ET_BLOCK]
                ev, pk = line_value(t, li, bonus, defence, need)
                if node_attack:
                    for e2 in range(e + 1, glob[L.G_N_ENEMIES]):
                        if enemies[e2, L.E_ALIVE] == 1 and enemies[e2, L.E_POS] == epos:
                            et2 = enemies[e2, L.E_TYPE]
                            need2 = t.etypes[et2, L.ET_HEALTH] - enemies[e2, L.E_WOUNDS]
                            d2 = t.etypes[et2, L.ET_RESIST if magic else L.ET_BLOCK]
                            ev2, pk2 = line_value(t, li, bonus, d2, need2)
                            ev += ev2
                            pk += pk2
                if n < L.MAX_OPTS:
                    set_opt(b, n, slot, li, e, epos, cost, ev, pk, OPT_NODE if node_attack else OPT_SINGLE)
                    n += 1
    return n


@kernel
def support(t, b, c: int, li: int, target: int) -> None:
    """A line without dice: gain stamina or health for the chosen allies (F-9.1: not a target; F-4.2)."""
    amount = t.lines[li, L.L_SUPPORT_AMT]
    kind = t.lines[li, L.L_SUPPORT]
    rng = t.lines[li, L.L_RANGE]
    pos = b.chars[c, L.C_POS]
    for a in range(b.glob[L.G_N_CHARS]):
        if b.chars[a, L.C_ALIVE] == 0:
            continue
        if target >= 0 and a != target:
            continue
        if target < 0 and range_dist(t, b, pos, b.chars[a, L.C_POS]) > rng:
            continue
        if kind == L.SUP_STAMINA:
            gain(b, a, amount, 0)
        else:
            gain(b, a, 0, amount)


@kernel
def resolve_attack(t, b, policy, c: int, row: int) -> None:
    """R-10.6: pay, shift before, roll (+weak-arc die, luck), damage each target, conditions, push, shift after."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    o = b.opts[row]
    slot = o[0]
    li = o[1]
    target = o[2]
    node = o[3]
    cost = o[4]
    kind = o[7]
    pay(t, b, c, cost)
    chars[c, used_field(slot)] = 1
    if not running(b):
        return
    if kind == OPT_SUPPORT_ONE or kind == OPT_SUPPORT_ALL:
        support(t, b, c, li, o[3] if kind == OPT_SUPPORT_ONE else -1)
        return
    berserk = chars[c, L.C_BERSERK] == 1 and line_range(t, b, c, li) == 0
    if berserk:
        chars[c, L.C_BERSERK] = 0
    shift = t.lines[li, L.L_SHIFT_BEFORE]
    if shift > 0:
        move_phase(t, b, policy, c, STEP_SHIFT, shift, 0)
        if not running(b):
            return
    pos = chars[c, L.C_POS]
    if enemies[target, L.E_ALIVE] == 1:
        node = enemies[target, L.E_POS]
    d = range_dist(t, b, pos, node)
    if d > line_range(t, b, c, li) or (t.lines[li, L.L_REACH] == 1 and d == 0) or enemies[target, L.E_ALIVE] == 0:
        log(b, L.ACTOR_CHAR, c, L.EV_ATTACK_FAIL, li, target, d, 0, -1)
        return
    bonus = weak_bonus(t, b, c, target)
    mark = dice_mark(b)
    n = roll_pool(t, b, t.lines[li, L.L_K], t.lines[li, L.L_U], t.lines[li, L.L_O], 0)
    if bonus and n < b.dice.shape[0]:
        b.dice[n] = roll_die(t, b, K_BLACK)
        b.dcol[n] = K_BLACK
        n += 1
    offer_luck(t, b, policy, c, n, ROLL_ATTACK, 0)
    total = pool_sum(b, n) + t.lines[li, L.L_MOD]
    if total < 0:
        total = 0  # derived: a total below 0 counts as 0
    magic = t.lines[li, L.L_MAGIC] == 1
    node_attack = kind == OPT_NODE
    same_attack = t.variants[L.V_BLEED_SAME] == 1  # tokens land before the damage, so a new bleed adds +2 now
    log(b, L.ACTOR_CHAR, c, L.EV_ATTACK, li, target, node, total, mark)
    hits = 0  # the targets are fixed when the dice are rolled: a figure pushed in meanwhile is not hit
    for e in range(glob[L.G_N_ENEMIES]):
        if enemies[e, L.E_ALIVE] == 1 and (enemies[e, L.E_POS] == node if node_attack else e == target):
            hits |= 1 << e
    for e in range(glob[L.G_N_ENEMIES]):
        if not hits & (1 << e) or enemies[e, L.E_ALIVE] == 0:
            continue
        et = enemies[e, L.E_TYPE]
        defence = t.etypes[et, L.ET_RESIST if magic else L.ET_BLOCK]
        dmg = total - defence if total > defence else 0
        chars[c, L.C_DMG_DEALT] += min(dmg, t.etypes[et, L.ET_HEALTH] - enemies[e, L.E_WOUNDS])
        if same_attack:
            enemy_conditions(t, b, e, t.lines[li, L.L_COND])
        enemy_suffer(t, b, e, dmg, L.SRC_ATTACK)
        if not running(b):
            return
        if enemies[e, L.E_ALIVE] == 1:
            if not same_attack:
                enemy_conditions(t, b, e, t.lines[li, L.L_COND])  # enemies never dodge, so always hit
            if t.lines[li, L.L_PUSH] == 1:
                push_enemy_away(t, b, policy, e, pos)
    after = t.lines[li, L.L_SHIFT_AFTER]
    if after > 0 and running(b):
        move_phase(t, b, policy, c, STEP_SHIFT, after, 0)


@kernel
def attack_phase(t, b, policy, c: int) -> None:
    """D-19/D-20/D-22: attacks with hand weapons until the policy stops; repeat icons per A-28."""
    mode = t.variants[L.V_REPEAT_ICON]
    cost_mode = COST_FREE if mode == 1 else COST_REPEAT
    while running(b):
        n = attack_options(t, b, c, -1, -1, -1, COST_FULL)
        k = decide(b, policy, L.H_ATTACK, n)
        if k == 0:
            return
        slot = b.opts[k, 0]
        li = b.opts[k, 1]
        resolve_attack(t, b, policy, c, k)
        extra = t.lines[li, L.L_REPEAT] - 1
        while extra > 0 and running(b):
            # each repetition is a full use of the same option (same_option_pay_each), is paid
            # once (pay_once_roll_each), or may be any option of the same weapon (any_option_each).
            n = attack_options(t, b, c, slot if mode == 2 else -1, -1 if mode == 2 else li, -1, cost_mode)
            k = decide(b, policy, L.H_ATTACK, n)
            if k == 0:
                break
            resolve_attack(t, b, policy, c, k)
            extra -= 1


@kernel
def backstab(t, b, policy, c: int, e: int) -> None:
    """Assassin heroic action: after a successful dodge, a free attack on the enemy dodged (R-3.7; card text)."""
    if t.chars[c, L.CT_HEROIC] != L.HEROIC_BACKSTAB or b.chars[c, L.C_HEROIC] != 1 or \
            t.variants[L.V_FORBID] & L.FORBID_HEROIC:
        return
    if b.enemies[e, L.E_ALIVE] == 0 or not running(b):
        return
    # A reaction in the enemy's activation, not one of the character's own attacks: weapons used in
    # its last activation are free for it, and it uses none up.
    used = 0
    for slot in range(4):
        used |= b.chars[c, used_field(slot)] << slot
        b.chars[c, used_field(slot)] = 0
    n = attack_options(t, b, c, -1, -1, e, COST_FREE)
    k = decide(b, policy, L.H_HEROIC, n) if n > 1 else 0
    if k > 0:
        b.chars[c, L.C_HEROIC] = 0
        b.chars[c, L.C_HEROIC_USED] += 1
        log(b, L.ACTOR_CHAR, c, L.EV_HEROIC, L.HEROIC_BACKSTAB, e, 0, 0, -1)
        resolve_attack(t, b, policy, c, k)
    for slot in range(4):
        b.chars[c, used_field(slot)] = (used >> slot) & 1


# --- activation ------------------------------------------------------------------------------------
@always_inline
@kernel
def offer_estus(t, b, policy, c: int) -> None:
    """D-23: drink the estus in the character's own activation (or, under A-15 also_enemy_turn, before
    defending against an attack) to clear all cubes (R-3.5); the flask holds one use, more under the
    extra_estus house rule."""
    chars = b.chars
    if chars[c, L.C_ESTUS] < 1 or not running(b) or t.variants[L.V_FORBID] & L.FORBID_ESTUS:
        return
    set_opt(b, 0, 0, chars[c, L.C_STAMINA], chars[c, L.C_DAMAGE], 0, 0, 0, 0, 0)
    set_opt(b, 1, 1, chars[c, L.C_STAMINA], chars[c, L.C_DAMAGE], 0, 0, 0, 0, 0)
    if decide(b, policy, L.H_ESTUS, 2) == 1:
        chars[c, L.C_ESTUS] -= 1
        chars[c, L.C_ESTUS_USED] += 1
        log(b, L.ACTOR_CHAR, c, L.EV_ESTUS, chars[c, L.C_STAMINA], chars[c, L.C_DAMAGE], 0, 0, -1)
        chars[c, L.C_STAMINA] = 0
        chars[c, L.C_DAMAGE] = 0


@kernel
def offer_swap(t, b, policy, c: int) -> None:
    """D-17: swap a hand weapon with one in the backup slot at the start of activation (R-10.1, R-4.2)."""
    chars = b.chars
    set_opt(b, 0, -1, -1, 0, 0, 0, 0, 0, 0)
    n = 1
    for h in range(2):
        for j in range(2):
            bk = chars[c, L.C_BACKUP0 + j]
            if bk < 0:
                continue
            other = chars[c, L.C_HAND0 + 1 - h]
            if t.items[bk, L.IT_HANDS] == 2 and other >= 0:
                continue  # a two-handed weapon needs the other hand empty
            if other >= 0 and t.items[other, L.IT_HANDS] == 2:
                continue
            set_opt(b, n, h, j, bk, chars[c, L.C_HAND0 + h], 0, 0, 0, 0)
            n += 1
    if n == 1:
        return
    k = decide(b, policy, L.H_SWAP, n)
    if k == 0:
        return
    h = b.opts[k, 0]
    j = b.opts[k, 1]
    held = chars[c, L.C_HAND0 + h]
    chars[c, L.C_HAND0 + h] = chars[c, L.C_BACKUP0 + j]
    chars[c, L.C_BACKUP0 + j] = held
    log(b, L.ACTOR_CHAR, c, L.EV_SWAP, h, j, 0, 0, -1)


@kernel
def offer_heroic_start(t, b, policy, c: int) -> int:
    """D-16 at activation start: Herald's Perseverance (party +2 stamina) or the Warrior's Berserk
    Charge (1 free extra node and a free range-0 node attack); returns extra free steps."""
    glob, chars = b.glob, b.chars
    h = t.chars[c, L.CT_HEROIC]
    if chars[c, L.C_HEROIC] != 1 or (h != L.HEROIC_PERSEVERANCE and h != L.HEROIC_BERSERK) or \
            t.variants[L.V_FORBID] & L.FORBID_HEROIC:
        return 0
    cubes = 0
    for a in range(glob[L.G_N_CHARS]):
        cubes += chars[a, L.C_STAMINA]
    set_opt(b, 0, 0, h, cubes, chars[c, L.C_STAMINA], 0, 0, 0, 0)
    set_opt(b, 1, 1, h, cubes, chars[c, L.C_STAMINA], 0, 0, 0, 0)
    if decide(b, policy, L.H_HEROIC, 2) == 0:
        return 0
    chars[c, L.C_HEROIC] = 0
    chars[c, L.C_HEROIC_USED] += 1
    log(b, L.ACTOR_CHAR, c, L.EV_HEROIC, h, 0, 0, 0, -1)
    if h == L.HEROIC_PERSEVERANCE:
        for a in range(glob[L.G_N_CHARS]):
            if chars[a, L.C_ALIVE] == 1:
                gain(b, a, 2, 0)
        return 0
    chars[c, L.C_BERSERK] = 1
    return 1


@kernel
def activate_character(t, b, policy, c: int) -> None:
    """R-10: gain 2 stamina, take aggro, swap; move before or after attacking (F-10.1); end of activation."""
    glob, chars = b.glob, b.chars
    glob[L.G_ACTIVE] = c
    log(b, L.ACTOR_CHAR, c, L.EV_ACTIVATE, 0, 0, 0, 0, -1)
    gain(b, c, 2, 0)
    glob[L.G_AGGRO] = c
    for slot in range(4):
        chars[c, used_field(slot)] = 0
    offer_swap(t, b, policy, c)
    offer_estus(t, b, policy, c)
    free = 1 + offer_heroic_start(t, b, policy, c)
    moved = move_phase(t, b, policy, c, STEP_WALK, 20, free)  # move before …
    attack_phase(t, b, policy, c)
    if moved == 0 and running(b):
        move_phase(t, b, policy, c, STEP_WALK, 20, free)  # … or after attacking
    chars[c, L.C_BERSERK] = 0
    offer_estus(t, b, policy, c)
    if running(b):
        char_end_of_activation(t, b, c)
    glob[L.G_ACTIVE] = -1
