"""Shared kernel primitives: the battle's outcome, decisions, dice, trace, distances, occupancy.

Everything here is a small compiled function over the ``Tables``/``Battle`` bundles; the
rules that use them live in ``combat``, ``movement``, ``enemy``, ``character`` and ``battle``.
The decorators come from ``jit`` (this kernel's cache) over the shared compile machinery of
:mod:`dsim.numba_linking`, whose docstring gives the speed notes: kernel functions never allocate
(:data:`~dsim.games.dstbg.kernel.jit.allocating` for the few that do), take int64 integers, are linked
into the entries rather than generated alone, may be marked :func:`~dsim.numba_linking.always_inline`
or :func:`~dsim.numba_linking.cold`, and index arrays from 0 only, never from the end.
"""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.board import walk_distances_nb
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.jit import allocating, kernel
from dsim.numba_linking import always_inline, cold, copy_same, in_batch
from dsim.rng import randint

K_BLACK = 0
K_BLUE = 1
K_ORANGE = 2
K_GREEN = 3


# --- state ------------------------------------------------------------------------------
@kernel
def running(b) -> bool:
    """True while neither side has won (every rule step checks this, F-8.1 / R-3.3)."""
    return b.glob[L.G_OUTCOME] == L.OUT_RUNNING


# --- trace ---------------------------------------------------------------------------------
@cold
@kernel
def record_event(b, kind: int, actor: int, ev: int, a: int, c: int, d: int, e: int, dice0: int) -> None:
    """Append one event and a snapshot of the state to the trace (when it has room)."""
    k = b.cursor[1]
    if k >= b.trace.shape[0]:
        return
    row = b.trace[k]
    row[0] = b.glob[L.G_ROUND]
    row[1] = kind
    row[2] = actor
    row[3] = ev
    row[4] = a
    row[5] = c
    row[6] = d
    row[7] = e
    row[8] = dice0 if dice0 >= 0 else b.cursor[2]
    row[9] = b.cursor[2] - dice0 if dice0 >= 0 else 0
    for i in range(b.st.shape[0]):
        row[L.EV_FIELDS + i] = b.st[i]
    b.cursor[1] = k + 1


@always_inline
@kernel
def tracing(b) -> bool:
    """Whether the battle records a trace: never in a batch entry (:data:`BATCH`), where the test folds away."""
    return in_batch() == 0 and b.trace.shape[0] > 0


@always_inline
@kernel
def log(b, kind: int, actor: int, ev: int, a: int, c: int, d: int, e: int, dice0: int) -> None:
    """Log one event; inlined so that with tracing off a call costs one comparison, and none in a batch entry."""
    if tracing(b):
        record_event(b, kind, actor, ev, a, c, d, e, dice0)


@kernel
def dice_mark(b) -> int:
    """Position in the trace's dice log, to attach the dice rolled from here to an event."""
    return b.cursor[2]


# --- dice -----------------------------------------------------------------------------------
@kernel
def roll_die(t, b, colour: int) -> int:
    """One die: a forced value if the test script has one left, else a face of the stream."""
    p = b.cursor[0]
    if in_batch() == 0 and p < b.forced.shape[0]:
        v = b.forced[p]
        b.cursor[0] = p + 1
    else:
        v = t.faces[colour, randint(b.rng, 6)]
    q = b.cursor[2]
    if q < b.tdice.shape[0] and tracing(b):
        b.tdice[q] = v
        b.cursor[2] = q + 1
    return v


@always_inline
@kernel
def roll_pool(t, b, k: int, u: int, o: int, g: int) -> int:
    """Roll a pool into the scratch buffers ``b.dice``/``b.dcol``; returns the number of dice."""
    n = 0
    for colour in range(4):
        count = k if colour == K_BLACK else u if colour == K_BLUE else o if colour == K_ORANGE else g
        for _ in range(count):
            if n < b.dice.shape[0]:
                b.dice[n] = roll_die(t, b, colour)
                b.dcol[n] = colour
                n += 1
    return n


@kernel
def pool_sum(b, n: int) -> int:
    """Sum of the first ``n`` dice in the scratch buffer."""
    s = 0
    for i in range(n):
        s += b.dice[i]
    return s


# --- decisions ------------------------------------------------------------------------------
@always_inline
@kernel
def decide(b, policy, hook: int, n: int) -> int:
    """Ask the policy to pick one of the ``n`` option rows in ``b.opts`` (0 if only one)."""
    if n <= 1:
        return 0
    if in_batch() != 1 and b.search.shape[0] > 0:  # a replay of a search (dsim.search); folds away in batches
        choice = search_decide(b, policy, hook, n)
    else:
        choice = np.int64(policy(hook, n, b.pub))  # what the players know, by reference: one pointer (policy.py)
    if choice < 0 or choice >= n:
        choice = 0
    log(b, L.ACTOR_NONE, -1, L.EV_DECISION, hook, choice, n, b.opts[choice, 0], -1)
    return choice


@kernel
def shuffle_range(b, lo: int, hi: int) -> None:
    """Fisher–Yates shuffle of behaviour-deck positions ``lo .. hi-1`` from the battle's stream."""
    for i in range(lo, hi):  # the players no longer know where these cards lie
        b.known[i] = -1
    for i in range(hi - 1, lo, -1):
        j = lo + randint(b.rng, i - lo + 1)
        a = b.deck[i]
        b.deck[i] = b.deck[j]
        b.deck[j] = a


@kernel
def hide_deck(b) -> None:
    """Forget the order of the behaviour cards the players have not seen (R-12.5, R-12.7), for a fair searcher: the
    draw pile's cards are sorted, then shuffled from the stream. Cards drawn this cycle stay where they are, and so do
    the cards of the draw pile (gravestone reveals among them): only their order is redrawn. Once every card has been
    drawn since the deck was built the deck repeats in a known order (R-12.7), and nothing is redrawn; after a heat-up
    reshuffle (R-12.6) the whole draw pile counts as unseen (the searcher relearns the pattern, conservatively)."""
    glob, deck = b.glob, b.deck
    size = glob[L.G_DECK_LEN]
    lo = glob[L.G_DECK_POS]
    if lo >= size or (glob[L.G_HEATED] == 0 and glob[L.G_CARDS_DRAWN] >= size):
        return
    for i in range(lo + 1, size):  # insertion sort: at most MAX_DECK cards
        card = deck[i]
        j = i - 1
        while j >= lo and deck[j] > card:
            deck[j + 1] = deck[j]
            j -= 1
        deck[j + 1] = card
    shuffle_range(b, lo, size)


@kernel
def hide_traps(b) -> None:
    """Redraw which face-down trap token lies on which node with a face-down token (R-7.7), for a fair searcher: the
    tokens are sorted over those nodes, then shuffled among them from the stream."""
    glob, nodes = b.glob, b.nodes
    n_nodes = glob[L.G_N_NODES]
    m = 0
    for n in range(n_nodes):
        if face_down_trap(b, n) == 1:
            for z in range(n):  # insertion sort over the face-down nodes seen so far
                if face_down_trap(b, z) == 1 and nodes[z, L.N_TRAP] > nodes[n, L.N_TRAP]:
                    a = nodes[z, L.N_TRAP]
                    nodes[z, L.N_TRAP] = nodes[n, L.N_TRAP]
                    nodes[n, L.N_TRAP] = a
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(b.rng, i + 1)
        na, nj = -1, -1
        k = 0
        for n in range(n_nodes):
            if face_down_trap(b, n) == 1:
                if k == i:
                    na = n
                if k == j:
                    nj = n
                k += 1
        a = nodes[na, L.N_TRAP]
        nodes[na, L.N_TRAP] = nodes[nj, L.N_TRAP]
        nodes[nj, L.N_TRAP] = a


@kernel
def hide(b, hi: int, lo: int) -> None:
    """Resample what the players cannot see from the stream keyed ``hi << 32 | lo``, which the battle then goes on
    drawing from (its dice, and every later shuffle, come from it)."""
    b.rng[0] = (np.uint64(hi) << np.uint64(32)) | np.uint64(lo)
    b.rng[1] = 0
    hide_deck(b)
    hide_traps(b)


@kernel
def search_decide(b, policy, hook: int, n: int) -> int:
    """A decision in a replay of a search (``context.SR_*``): forced answers first; after the last one a rollout
    switches to its own stream and resamples what the players cannot see (``SEARCH_FAIR``) or goes on seeing the
    true ones (``SEARCH_SEEING``); then the policy answers. The true play records its first unforced decision."""
    s = b.search
    k = s[X.SR_ASKED]
    s[X.SR_ASKED] = k + 1
    mode = s[X.SR_MODE]
    forced = s[X.SR_FORCED]
    if k == s[X.SR_HIDE_AT] and (mode == X.SEARCH_ADVANCE or k < forced):  # tests: a battle differing in hidden state
        key, counter = b.rng[0], b.rng[1]
        hide(b, s[X.SR_HIDE_HI], s[X.SR_HIDE_LO])
        b.rng[0] = key
        b.rng[1] = counter
    if k < forced:
        choice = s[X.SR_CHOICES + k]
        if k == forced - 1 and mode == X.SEARCH_FAIR:
            hide(b, s[X.SR_KEY_HI], s[X.SR_KEY_LO])
        return choice
    choice = np.int64(policy(hook, n, b.pub))
    if k == forced and mode == X.SEARCH_ADVANCE:
        s[X.SR_HOOK] = hook
        s[X.SR_OPTIONS] = n
        s[X.SR_BASE] = choice
        s[X.SR_DRAWN] = b.glob[L.G_CARDS_DRAWN]
    return choice


@always_inline
@kernel
def decide_for_enemy(t, b, policy, hook: int, n: int) -> int:
    """A players' choice made on an enemy's behalf, answered per ``players_choice_policy`` (A-41)."""
    if n <= 1:
        return 0
    mode = t.variants[L.V_PLAYERS_CHOICE]
    if mode == 1:
        return np.int64(randint(b.rng, n))
    b.glob[L.G_ADVERSARIAL] = 1 if mode == 2 else 0
    choice = decide(b, policy, hook, n)
    b.glob[L.G_ADVERSARIAL] = 0
    return np.int64(choice)


@always_inline
@kernel
def set_opt(b, i: int, a: int, c: int, d: int, e: int, f: int, g: int, h: int, k: int) -> None:
    """Fill option row ``i``."""
    o = b.opts[i]
    o[0] = a
    o[1] = c
    o[2] = d
    o[3] = e
    o[4] = f
    o[5] = g
    o[6] = h
    o[7] = k
    o[8] = 0


# --- distances and occupancy ----------------------------------------------------------------
@kernel
def range_dist(t, b, a: int, z: int) -> int:
    """Distance used for range checks (A-17 ``range_metric``)."""
    if t.variants[L.V_RANGE_METRIC] == 1:
        return b.dwalk[a, z]
    return t.steps[a, z]


@kernel
def move_dist(t, b, a: int, z: int) -> int:
    """Distance deciding closer/farther/nearest for movement (A-18 ``move_metric``)."""
    if t.variants[L.V_MOVE_METRIC] == 1:
        return t.steps[a, z]
    return b.dwalk[a, z]


@kernel
def nearest_dist(t, b, a: int, z: int) -> int:
    """Distance deciding "nearest" for attack targets (A-19 ``nearest_for_attacks``)."""
    if t.variants[L.V_NEAREST_FOR_ATTACKS] == 1:
        return move_dist(t, b, a, z)
    return range_dist(t, b, a, z)


@kernel
def blocks_movement(b, n: int) -> bool:
    """Gravestones, chests and intact barrels block walking, enemy moves and pushes (R-7.4–R-7.6, F-7.1)."""
    terr = b.nodes[n, L.N_TERRAIN]
    return terr == L.TERRAIN_GRAVESTONE or terr == L.TERRAIN_CHEST or terr == L.TERRAIN_BARREL


@kernel
def face_down_trap(b, n: int) -> int:
    """1 if node ``n`` holds a trap token still face down (R-7.7), else 0. Both fields are read and combined
    without a branch: whether a node hides a trap is the kind of test a branch predictor keeps missing."""
    return int((b.nodes[n, L.N_TRAP] >= 0) & (b.nodes[n, L.N_TRAP_UP] == 0))


@always_inline
@kernel
def figures_at(b, n: int) -> int:
    """Number of living figures on node ``n`` (R-2.6 limit is 3), kept in ``b.figs`` by :func:`count_figures`
    and :func:`move_figure`: the node limit asks at every placement, where counting every figure cost more."""
    return b.figs[n]


@always_inline
@kernel
def clear(a, n: int) -> None:
    """``a[:n] = 0`` for a buffer of at least ``n`` elements. With ``n`` a constant at the call, LLVM stores the
    zeros inline: ``a[:] = 0`` calls ``memset`` for the buffer's length, and for a few dozen bytes the call cost
    more than the stores (a battle's small resets took 2.6% of its time, 0.6% of its instructions)."""
    for i in range(n):
        a[i] = 0


@kernel
def count_figures(b) -> None:
    """Count the living figures placed on each node into ``b.figs`` (the battle's start: after setup places
    the enemies, or a hand-placed state)."""
    glob, chars, enemies = b.glob, b.chars, b.enemies
    clear(b.figs, L.MAX_NODES)
    for c in range(glob[L.G_N_CHARS]):
        if chars[c, L.C_ALIVE] == 1 and chars[c, L.C_POS] >= 0:
            b.figs[chars[c, L.C_POS]] += 1
    for e in range(glob[L.G_N_ENEMIES]):
        if enemies[e, L.E_ALIVE] == 1 and enemies[e, L.E_POS] >= 0:
            b.figs[enemies[e, L.E_POS]] += 1


@always_inline
@kernel
def move_figure(b, src: int, dest: int) -> None:
    """A living figure leaves node ``src`` for ``dest`` (−1: off the board, as at a death), in ``b.figs``."""
    if src >= 0:
        b.figs[src] -= 1
    if dest >= 0:
        b.figs[dest] += 1


@allocating
def recompute_walk(t, b) -> None:
    """All-pairs walk distances that never pass through blocking terrain (A-18 default); called
    at setup and again after a barrel is destroyed."""
    n = t.steps.shape[0]
    blocked = np.zeros(n, np.bool_)
    for x in range(n):
        blocked[x] = blocks_movement(b, x)
    dist = walk_distances_nb(t.neighbour, blocked)
    if b.dwalk.shape[0] < n or b.dwalk.shape[1] < n:
        raise ValueError("the battle's walk-distance buffer is smaller than the board")
    copy_distances(b.dwalk, dist.astype(np.int32), n)  # the board's distances are int16
    b.glob[L.G_BARRELS_CHANGED] = 0


@kernel
def copy_distances(dst, src, n: int) -> None:
    """``dst[:n, :n] = src[:n, :n]``: one ``memcpy`` when both have ``n`` rows of one width, as a battle's own
    buffers and its tables do; element by element otherwise (a game played whole keeps buffers sized for its
    largest board; a board's fresh walk distances are ``n`` × ``n``)."""
    if dst.shape[0] == n and src.shape[0] == n and dst.shape[1] == src.shape[1]:
        copy_same(dst, src)
        return
    for x in range(n):  # element by element: a slice assignment compiles a shape-error message, string code
        for y in range(n):
            dst[x, y] = src[x, y]


@kernel
def living_enemies(b) -> int:
    """Number of living enemies (bosses included)."""
    cnt = 0
    for e in range(b.glob[L.G_N_ENEMIES]):
        cnt += b.enemies[e, L.E_ALIVE]
    return cnt


@kernel
def relative_arc(facing: int, direction: int) -> int:
    """Arc bits of a side of the boss base, given as an absolute direction (R-12.8: lines are in both)."""
    rel = (direction - facing) % 8
    if rel == 0:
        return L.ARC_FRONT
    if rel == 1:
        return L.ARC_FRONT | L.ARC_RIGHT
    if rel == 2:
        return L.ARC_RIGHT
    if rel == 3:
        return L.ARC_RIGHT | L.ARC_BACK
    if rel == 4:
        return L.ARC_BACK
    if rel == 5:
        return L.ARC_BACK | L.ARC_LEFT
    if rel == 6:
        return L.ARC_LEFT
    return L.ARC_LEFT | L.ARC_FRONT


@kernel
def arc_centre(facing: int, arcs: int) -> int:
    """The absolute direction at the centre of the first arc in ``arcs`` (front, right, back, left)."""
    if arcs & L.ARC_FRONT:
        return facing
    if arcs & L.ARC_RIGHT:
        return (facing + 2) % 8
    if arcs & L.ARC_BACK:
        return (facing + 4) % 8
    return (facing + 6) % 8


@kernel
def round_side(facing: int, side: int, i: int) -> int:
    """R-12.10: the side at the centre of an arc next to the one a character at ``side`` (a direction) stands
    in, ``i`` 0 counter-clockwise, 1 clockwise: two sides round from an arc's centre, three from a line
    (on a line it is in both arcs already)."""
    step = 2 if (side - facing) % 2 == 0 else 3
    return (side + (8 - step if i == 0 else step)) % 8


@kernel
def char_arc(t, b, c: int, e: int) -> int:
    """Arc(s) of boss ``e`` that character ``c`` stands in: by node (R-12.8), or by its side of the
    base when in the boss's node (R-12.9)."""
    pos = b.chars[c, L.C_POS]
    epos = b.enemies[e, L.E_POS]
    facing = b.enemies[e, L.E_FACING]
    if pos != epos:
        return t.arcs[facing, epos, pos]
    side = b.chars[c, L.C_ARC]
    return relative_arc(facing, side - 1) if side > 0 else L.ARC_FRONT
