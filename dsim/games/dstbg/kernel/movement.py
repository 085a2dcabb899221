"""Figures entering nodes: the 3-figure limit, traps, barrels and pushes (R-2.6, R-7.5, R-7.7, R-9.6–R-9.9)."""

from __future__ import annotations

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.combat import (
    can_pay,
    char_suffer,
    dodge_chance,
    dodge_cost,
    defence_dice,
    pay,
    roll_dodge,
    armour_flags,
    ROLL_TRAP_DODGE,
)
from dsim.games.dstbg.kernel.core import (
    blocks_movement,
    char_arc,
    decide,
    face_down_trap,
    figures_at,
    log,
    move_dist,
    move_figure,
    recompute_walk,
    relative_arc,
    running,
    set_opt,
)
from dsim.games.dstbg.kernel.jit import kernel
from dsim.numba_linking import always_inline

KIND_CHAR = 0
KIND_ENEMY = 1
MOVE_VOLUNTARY = 0  # walk, run, shift, dodge
MOVE_PUSH = 1


@kernel
def is_boss(t, b, e: int) -> bool:
    """Whether enemy slot ``e`` holds a boss figure (only a boss battle's tables have boss types, ``compile_boss``:
    an encounter answers at once)."""
    return b.glob[L.G_IS_BOSS] == 1 and t.etypes[b.enemies[e, L.E_TYPE], L.ET_IS_BOSS] == 1


@kernel
def break_barrel(t, b, n: int) -> None:
    """Entering an intact barrel destroys it: it blocks nothing for the rest of the battle (R-7.5).

    The walk distances are recomputed at once: an enemy moving later in the same turn (after a dodge
    into the barrel) must already see the node as open."""
    b.nodes[n, L.N_TERRAIN] = L.TERRAIN_BARREL_BROKEN
    b.glob[L.G_BARRELS_CHANGED] = 1
    recompute_walk(t, b)
    log(b, L.ACTOR_NONE, -1, L.EV_BARREL, n, 0, 0, 0, -1)


@always_inline
@kernel
def node_limit(t, b, policy, node: int, entrant_kind: int, entrant: int, came_from: int) -> int:
    """R-2.6/F-2.1: a figure entering a node with three others pushes one out at once (D-33);
    a push into a full node pushes again (A-20 chain_push). Returns the characters moved (bitmask).
    The count is made where the figure enters (a node is seldom over the limit), the pushes in a call."""
    if figures_at(b, node) <= 3 or not running(b):
        return 0
    return node_limit_pushes(t, b, policy, node, entrant_kind, entrant, came_from)


@kernel
def node_limit_pushes(t, b, policy, node: int, entrant_kind: int, entrant: int, came_from: int) -> int:
    """:func:`node_limit` once the node holds four figures: the players push one out, and on along a chain."""
    moved = 0
    glob, chars, enemies = b.glob, b.chars, b.enemies
    for _ in range(8):
        entrant_boss = entrant_kind == KIND_ENEMY and is_boss(t, b, entrant)
        boss = -1 if entrant_boss else boss_at(t, b, node)  # a boss entering sets the sides afterwards
        facing = enemies[boss, L.E_FACING] if boss >= 0 else 0
        n = 0
        for kind in (KIND_CHAR, KIND_ENEMY):
            count = glob[L.G_N_CHARS] if kind == KIND_CHAR else glob[L.G_N_ENEMIES]
            for i in range(count):
                if kind == entrant_kind and i == entrant:
                    continue
                if kind == KIND_CHAR:
                    if chars[i, L.C_ALIVE] == 0 or chars[i, L.C_POS] != node:
                        continue
                else:
                    if enemies[i, L.E_ALIVE] == 0 or enemies[i, L.E_POS] != node:
                        continue
                    if is_boss(t, b, i) and not entrant_boss:
                        continue  # only a boss moves a boss
                arc = char_arc(t, b, i, boss) if kind == KIND_CHAR and boss >= 0 else 0
                for d in range(8):
                    dest = t.adjacent_nodes[node, d]
                    if dest < 0:
                        break  # the nodes around come first (Tables.adjacent_nodes)
                    if blocks_movement(b, dest):
                        continue
                    if arc != 0 and (t.arcs[facing, node, dest] & arc) == 0:
                        continue  # a character pushed out of a boss's node stays in its arc
                    if t.variants[L.V_PUSH_INTO_FULL] == 1 and figures_at(b, dest) >= 3:
                        continue  # A-20 forbidden
                    if t.variants[L.V_NODE_LIMIT_DEST] == 1 and came_from >= 0:
                        if t.steps[dest, came_from] <= t.steps[node, came_from]:
                            continue  # A-22 away_from_entrant
                    if n < L.MAX_OPTS:
                        set_opt(b, n, kind, i, dest, figures_at(b, dest), 0, 0, 0, 0)
                        n += 1
        if n == 0:
            return moved  # A-21 stay: no legal destination
        k = decide(b, policy, L.H_NODE_LIMIT, n)
        kind = b.opts[k, 0]
        who = b.opts[k, 1]
        dest = b.opts[k, 2]
        move_figure(b, node, dest)
        if kind == KIND_CHAR:
            chars[who, L.C_POS] = dest
            chars[who, L.C_ARC] = side_entering(t, b, policy, dest, node)
            moved |= 1 << who
            log(b, L.ACTOR_CHAR, who, L.EV_PUSH, node, dest, 0, 0, -1)
        else:
            enemies[who, L.E_POS] = dest
            log(b, L.ACTOR_ENEMY, who, L.EV_PUSH, node, dest, 0, 0, -1)
        entrant_kind = kind
        entrant = who
        came_from = node
        node = dest
        if figures_at(b, node) <= 3 or not running(b):
            return moved  # the chain ends (A-20 chain_push)
    return moved


@always_inline
@kernel
def relocate_char(t, b, policy, c: int, dest: int, how: int) -> int:
    """Put a character on ``dest`` and apply the node limit; returns the characters that moved
    and may now spring a trap (A-23: pushes count by default)."""
    src = b.chars[c, L.C_POS]
    b.chars[c, L.C_POS] = dest
    move_figure(b, src, dest)
    b.chars[c, L.C_ARC] = side_entering(t, b, policy, dest, src)
    log(b, L.ACTOR_CHAR, c, L.EV_PUSH if how == MOVE_PUSH else L.EV_MOVE, src, dest, 0, 0, -1)
    pushed = node_limit(t, b, policy, dest, KIND_CHAR, c, src)
    if t.variants[L.V_TRAP_TRIGGER] == 1:  # A-23 voluntary_only: pushes never spring traps
        return (1 << c) if how == MOVE_VOLUNTARY else 0
    return pushed | (1 << c)


@always_inline
@kernel
def boss_at(t, b, n: int) -> int:
    """The living boss slot on node ``n``, or −1 (at once in an encounter: :func:`is_boss`)."""
    if b.glob[L.G_IS_BOSS] == 0:
        return -1
    for e in range(b.glob[L.G_N_ENEMIES]):
        if b.enemies[e, L.E_ALIVE] == 1 and b.enemies[e, L.E_POS] == n and is_boss(t, b, e):
            return e
    return -1


@always_inline
@kernel
def side_entering(t, b, policy, dest: int, src: int) -> int:
    """R-12.9: a character entering a boss's node stands at the side it came from (direction + 1);
    coming from a line between two arcs it takes the side of either arc, the players' choice (D-25).
    0 when ``dest`` holds no boss."""
    e = boss_at(t, b, dest)
    if e < 0:
        return 0
    d = 0
    for k in range(8):
        if t.neighbour[dest, k] == src:
            d = k
    facing = b.enemies[e, L.E_FACING]
    if (d - facing) % 2 == 0:  # even offsets are arc centres, odd ones the lines between two arcs
        return d + 1
    for i in range(2):
        side = (d + 7 + 2 * i) % 8  # the neighbouring sides: counter-clockwise, then clockwise
        set_opt(b, i, side + 1, relative_arc(facing, side), e, dest, 0, 0, 0, 0)
    return b.opts[decide(b, policy, L.H_LINE_ARC, 2), 0]


@kernel
def place_enemy(t, b, policy, e: int, dest: int) -> None:
    """Move an enemy figure onto ``dest``; enemies never trigger traps (R-11.13), but characters
    it pushes out by the node limit may."""
    src = b.enemies[e, L.E_POS]
    b.enemies[e, L.E_POS] = dest
    move_figure(b, src, dest)
    log(b, L.ACTOR_ENEMY, e, L.EV_MOVE, src, dest, 0, 0, -1)
    moved = node_limit(t, b, policy, dest, KIND_ENEMY, e, src)
    if t.variants[L.V_TRAP_TRIGGER] == 0:
        resolve_traps(t, b, policy, moved)


@always_inline
@kernel
def place_char(t, b, policy, c: int, dest: int, how: int) -> None:
    """Move a character onto ``dest``: node limit first (F-2.1), then face-down traps (R-7.7)."""
    resolve_traps(t, b, policy, relocate_char(t, b, policy, c, dest, how))


@always_inline
@kernel
def resolve_traps(t, b, policy, moved: int) -> None:
    """Spring the traps under every character in ``moved``, and under anyone a trap dodge moves."""
    while moved != 0 and running(b):
        c = 0
        while not moved & (1 << c):
            c += 1
        moved &= ~(1 << c)
        moved |= spring_trap(t, b, policy, c, b.chars[c, L.C_POS])


@kernel
def dodge_move_options(t, b, c: int, allow_stay: bool) -> int:
    """Option rows for the optional 1-node dodge move (R-9.5, F-9.4): stay; in a boss's node, the centre of each
    arc the character is not in (R-12.11: side in column 4, as ``C_ARC``, its arc bit in column 6); an adjacent
    node without gravestone or chest (a barrel node costs 1 more stamina)."""
    pos = b.chars[c, L.C_POS]
    n = 0
    if allow_stay:
        set_opt(b, 0, pos, 0, 0, 0, 0, figures_at(b, pos), 0, 0)
        n = 1
    boss = boss_at(t, b, pos)
    if boss >= 0:  # in the boss's node a dodge may go to any arc (the centre of each it is not in)
        facing = b.enemies[boss, L.E_FACING]
        here = char_arc(t, b, c, boss)
        for k in range(4):
            to = (facing + 2 * k) % 8
            if relative_arc(facing, to) & here == 0:
                set_opt(b, n, pos, 0, 0, 0, to + 1, figures_at(b, pos), relative_arc(facing, to), 0)
                n += 1
    for d in range(8):
        dest = t.neighbour[pos, d]
        if dest < 0:
            continue
        terr = b.nodes[dest, L.N_TERRAIN]
        if terr == L.TERRAIN_GRAVESTONE or terr == L.TERRAIN_CHEST:
            continue
        extra = 1 if terr == L.TERRAIN_BARREL else 0
        if extra and not can_pay(t, b, c, extra):
            continue
        set_opt(b, n, dest, extra, face_down_trap(b, dest), d, 0, figures_at(b, dest), 0, 0)
        n += 1
    return n


@kernel
def dodge_move(t, b, policy, c: int) -> int:
    """D-26: where to move on a dodge (optional by default, A-33); returns the characters moved,
    whose traps the caller resolves before the dodge roll (F-7.2)."""
    n = dodge_move_options(t, b, c, t.variants[L.V_DODGE_MOVE] == 0)
    if n == 0:
        return 0
    k = decide(b, policy, L.H_DODGE_MOVE, n)
    dest = b.opts[k, 0]
    if dest == b.chars[c, L.C_POS]:
        side = b.opts[k, 4]
        if side > 0:  # round the boss to another arc of its node
            b.chars[c, L.C_ARC] = side
            log(b, L.ACTOR_CHAR, c, L.EV_ARC_SHIFT, dest, side, boss_at(t, b, dest), b.opts[k, 6], -1)
        return 0
    if b.opts[k, 1] > 0:
        pay(t, b, c, 1)
        break_barrel(t, b, dest)
        if not running(b):
            return 0
    return relocate_char(t, b, policy, c, dest, MOVE_VOLUNTARY)


@kernel
def spring_trap(t, b, policy, c: int, node: int) -> int:
    """R-7.7: the first character to enter a face-down trap flips it; damage cannot be blocked,
    it may be dodged (D-27, F-7.2); the ember does not reduce it (F-3.3). Returns the characters
    a dodge move relocated (their traps are resolved next)."""
    if not running(b) or b.chars[c, L.C_ALIVE] == 0:
        return 0
    token = b.nodes[node, L.N_TRAP]
    if token < 0 or b.nodes[node, L.N_TRAP_UP] == 1:
        return 0
    b.nodes[node, L.N_TRAP_UP] = 1
    damage = token // 8
    difficulty = token % 8
    log(b, L.ACTOR_CHAR, c, L.EV_TRAP, node, damage, difficulty, 0, -1)
    if damage == 0:
        return 0
    _, _, _, g = defence_dice(t, b, c, False)
    cost = dodge_cost(b, c)
    can_dodge = can_pay(t, b, c, cost) and not (armour_flags(t, b, c) & L.ITF_NO_DODGE_RUN) \
        and not (t.variants[L.V_FORBID] & L.FORBID_DODGE)  # house rule forbid
    set_opt(b, 0, 0, damage, damage * 100, 0, 0, 0, 0, 0)
    n = 1
    if can_dodge:
        set_opt(b, 1, 1, damage, 0, dodge_chance(t, g, difficulty), cost, 0, 0, 0)
        n = 2
    moved = 0
    if decide(b, policy, L.H_TRAP, n) == 1:
        pay(t, b, c, cost)
        if not running(b):
            return 0
        moved = dodge_move(t, b, policy, c)
        if roll_dodge(t, b, policy, c, g, difficulty, ROLL_TRAP_DODGE):
            return moved
    char_suffer(t, b, c, damage, L.SRC_TRAP, -1)
    return moved


@kernel
def any_adjacent_options(t, b, pos: int, from_node: int) -> int:
    """A-21 any_adjacent_ignoring_terrain: a push with no legal destination may go to any adjacent
    node, blocking terrain and full nodes included (rows as the push hooks: node, steps from
    ``from_node``, figures there, walk distance to it); under the default ``stay`` there are none."""
    n = 0
    if t.variants[L.V_PUSH_NO_LEGAL] == 1:
        for d in range(8):
            dest = t.adjacent_nodes[pos, d]
            if dest < 0:
                break
            set_opt(b, n, dest, t.steps[dest, from_node], figures_at(b, dest), move_dist(t, b, dest, from_node),
                    0, 0, 0, 0)
            n += 1
    return n


@kernel
def push_char_away(t, b, policy, c: int, from_node: int, hook: int) -> None:
    """R-9.7/F-9.7: pushed to an adjacent node farther from the attacker (players choose among ties, D-29);
    cornered: ``attack_push_cornered`` (A-34)."""
    if armour_flags(t, b, c) & L.ITF_IGNORE_ATTACK_PUSH:
        return
    pos = b.chars[c, L.C_POS]
    here = t.steps[pos, from_node]
    best = -1
    for d in range(8):
        dest = t.adjacent_nodes[pos, d]
        if dest < 0:
            break
        if not blocks_movement(b, dest):
            best = max(best, t.steps[dest, from_node])
    mode = t.variants[L.V_ATTACK_PUSH_CORNERED]
    if best <= here and mode == 1:
        return
    n = 0
    for d in range(8):
        dest = t.adjacent_nodes[pos, d]
        if dest < 0:
            break
        if blocks_movement(b, dest):
            continue
        far = t.steps[dest, from_node]
        ok = far == best and best > here
        if best <= here:
            ok = far >= here if mode == 0 else True
        if ok and t.variants[L.V_PUSH_INTO_FULL] == 1 and figures_at(b, dest) >= 3:
            ok = False
        if ok:
            set_opt(b, n, dest, far, figures_at(b, dest), 0, 0, 0, 0, 0)
            n += 1
    if n == 0:
        n = any_adjacent_options(t, b, pos, from_node)
    if n == 0:
        return  # A-21 stay
    k = decide(b, policy, hook, n)
    place_char(t, b, policy, c, b.opts[k, 0], MOVE_PUSH)


@kernel
def push_char_any(t, b, policy, c: int, enemy_node: int, came_from: int) -> None:
    """R-9.8/F-9.9: a move-push sends the character to any adjacent node the players choose (D-32);
    ``move_push_direction = away_from_enemy`` keeps only nodes farther from the node the pushing
    enemy came from, i.e. on along its path (A-35; ``came_from`` −1: no direction, any node)."""
    pos = b.chars[c, L.C_POS]
    away = t.variants[L.V_MOVE_PUSH_DIR] == 1 and came_from >= 0
    n = 0
    for d in range(8):
        dest = t.adjacent_nodes[pos, d]
        if dest < 0:
            break
        if blocks_movement(b, dest):
            continue
        if away and t.steps[dest, came_from] <= t.steps[pos, came_from]:
            continue
        if t.variants[L.V_PUSH_INTO_FULL] == 1 and figures_at(b, dest) >= 3:
            continue
        set_opt(b, n, dest, t.steps[dest, enemy_node], figures_at(b, dest), move_dist(t, b, dest, enemy_node), 0, 0, 0, 0)
        n += 1
    if n == 0:
        n = any_adjacent_options(t, b, pos, enemy_node)
    if n == 0:
        return  # A-21 stay
    k = decide(b, policy, L.H_MOVE_PUSH, n)
    place_char(t, b, policy, c, b.opts[k, 0], MOVE_PUSH)


@kernel
def push_enemy_away(t, b, policy, e: int, from_node: int) -> None:
    """R-9.7: a character's push icon moves a non-boss enemy to an adjacent node farther from the
    attacker (players choose, D-29); bosses are never pushed by characters (R-9.6)."""
    if is_boss(t, b, e) or b.enemies[e, L.E_ALIVE] == 0:
        return
    pos = b.enemies[e, L.E_POS]
    here = t.steps[pos, from_node]
    n = 0
    for d in range(8):
        dest = t.adjacent_nodes[pos, d]
        if dest < 0:
            break
        if not blocks_movement(b, dest) and t.steps[dest, from_node] > here:
            set_opt(b, n, dest, t.steps[dest, from_node], figures_at(b, dest), 0, 0, 0, 0, 0)
            n += 1
    if n == 0:
        n = any_adjacent_options(t, b, pos, from_node)
    if n == 0:
        return  # A-21 stay
    k = decide(b, policy, L.H_ATTACK_PUSH, n)
    place_enemy(t, b, policy, e, b.opts[k, 0])


@kernel
def push_char_boss(t, b, policy, c: int, e: int) -> None:
    """R-12.23/F-12.8: a boss pushes a character out of its own node to an adjacent node in the same
    arc; with none available, to any adjacent node along the wall (D-32)."""
    pos = b.chars[c, L.C_POS]
    bpos = b.enemies[e, L.E_POS]
    if pos != bpos:
        push_char_away(t, b, policy, c, bpos, L.H_MOVE_PUSH)
        return
    arc = char_arc(t, b, c, e)
    facing = b.enemies[e, L.E_FACING]
    n = 0
    for d in range(8):
        dest = t.neighbour[pos, d]
        if dest >= 0 and not blocks_movement(b, dest) and t.arcs[facing, bpos, dest] & arc:
            set_opt(b, n, dest, t.steps[dest, bpos], figures_at(b, dest), 1, 0, 0, 0, 0)
            n += 1
    if n == 0:
        along = along_wall(t, pos)
        for d in range(8):
            dest = t.neighbour[pos, d]
            if dest >= 0 and not blocks_movement(b, dest) and along & (1 << d):
                set_opt(b, n, dest, t.steps[dest, bpos], figures_at(b, dest), 0, 0, 0, 0, 0)
                n += 1
    if n == 0:
        n = any_adjacent_options(t, b, pos, bpos)
    if n == 0:
        return  # A-21 stay: no node in the arc nor along the wall
    k = decide(b, policy, L.H_MOVE_PUSH, n)
    place_char(t, b, policy, c, b.opts[k, 0], MOVE_PUSH)


@kernel
def along_wall(t, n: int) -> int:
    """Bits of the directions from ``n`` parallel to a room wall it lies against (R-12.9, F-12.8): a node
    with no neighbour up, up-left and up-right lies against the top wall, and so on; along the top or
    bottom wall means east or west, along the left or right wall north or south."""
    nb = t.neighbour
    bits = 0
    if (nb[n, 7] < 0 and nb[n, 0] < 0 and nb[n, 1] < 0) or (nb[n, 3] < 0 and nb[n, 4] < 0 and nb[n, 5] < 0):
        bits |= (1 << 2) | (1 << 6)
    if (nb[n, 1] < 0 and nb[n, 2] < 0 and nb[n, 3] < 0) or (nb[n, 5] < 0 and nb[n, 6] < 0 and nb[n, 7] < 0):
        bits |= (1 << 0) | (1 << 4)
    return bits
