"""The two bundles every kernel function receives: compiled tables and one battle's buffers.

Both are named tuples of numpy arrays, which Numba passes by reference and caches by type.
``Tables`` is read-only game data for one cell (board, party, enemies, variants);
``Battle`` is the mutable state of one battle plus its random stream, option buffer and
optional trace buffers; its ``pub`` is the :class:`View` a policy is handed: what the players know.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dsim.games.dstbg.kernel import layout as L
from numba.extending import register_jitable

from dsim.numba_ref import fixed_trailing_dims, fixed_views

# scenario vector layout (one encounter or boss battle, compiled per cell)
SC_N_CHARS = 0
SC_N_ENEMIES = 1
SC_N_NODES = 2
SC_TRAPS = 3
SC_N_ENTRY = 4
SC_IS_BOSS = 5
SC_N_TRAP_TOKENS = 6
SC_BOSS_FACING = 7  # boss's initial facing direction, -1 none
SC_ENEMY = 8  # MAX_ENEMIES x (type, node)
SC_TERRAIN = SC_ENEMY + 2 * L.MAX_ENEMIES
SC_TRAP_OK = SC_TERRAIN + L.MAX_NODES
SC_ENTRY = SC_TRAP_OK + L.MAX_NODES
SC_TRAP_TOKENS = SC_ENTRY + L.MAX_NODES
MAX_TRAP_TOKENS = 24
SC_EQUIP = SC_TRAP_TOKENS + MAX_TRAP_TOKENS  # MAX_CHARS x (armour, hand0, hand1, backup0, backup1)
SC_GRAVESTONES = SC_EQUIP + 5 * L.MAX_CHARS  # behaviour cards revealed at boss setup
SC_DECK_SIZE = SC_GRAVESTONES + 1  # standard cards in the boss deck (data card)
SC_ESTUS = SC_DECK_SIZE + 1  # estus flask uses per character and battle (1; house rule extra_estus)
# A game played whole (dsim.games.dstbg_game) carries tokens from battle to battle:
SC_CARRY = SC_ESTUS + 1  # 1 = start from SC_TOKENS and SC_FIRST instead of full tokens and a chosen first
SC_FIRST = SC_CARRY + 1  # holder of the first-activation token
SC_RETREAT = SC_FIRST + 1  # campaign retreat: 0 none, 1 after any enemy turn, 2 after the first only
SC_TOKENS = SC_RETREAT + 1  # MAX_CHARS x (estus, luck, heroic, ember, red cubes, black cubes, conditions)
TOKEN_FIELDS = 7  # cubes and conditions carry only after a retreat; a battle's end clears them
SC_TRAPS_GIVEN = SC_TOKENS + TOKEN_FIELDS * L.MAX_CHARS  # 1 = the tile's traps lie where a battle left them
SC_TRAP_LAYOUT = SC_TRAPS_GIVEN + 1  # MAX_NODES: the token on each node (−1 none), used when SC_TRAPS_GIVEN is 1
SC_NEED = SC_TRAP_LAYOUT + L.MAX_NODES  # layout.NEED_*: what a whole game needs from this battle (G_NEED)
SC_LEN = SC_NEED + 1


class Tables(NamedTuple):
    """Compiled, read-only data of one cell."""

    neighbour: np.ndarray  # int32 (n, 8): node in direction d, -1 off board
    adjacent_nodes: np.ndarray  # int32 (n, 8): the nodes of neighbour[n] in direction order, then -1 (Board)
    steps: np.ndarray  # int32 (n, NODE_COLS): adjacency steps ignoring terrain (columns from n on unused)
    dwalk0: np.ndarray  # int32 (n, NODE_COLS): walk distances around the setup's blocking terrain
    arcs: np.ndarray  # int32 (8, NODE_COLS, NODE_COLS): arc bitmask of node for boss facing/boss node
    chars: np.ndarray  # int32 (MAX_CHARS, CT_FIELDS)
    items: np.ndarray  # int32 (n_items, IT_FIELDS)
    lines: np.ndarray  # int32 (n_lines, L_FIELDS)
    lstat: np.ndarray  # int32 (n_lines, 2, LSTAT_THRESHOLDS, LSTAT_NEEDS): [.., 0] E[damage]x100,
    # [.., k] P(damage>=k)x1000
    etypes: np.ndarray  # int32 (n_types, ET_FIELDS)
    prog: np.ndarray  # int32 (n_steps, S_FIELDS)
    cards: np.ndarray  # int32 (n_cards, CARD_FIELDS)
    faces: np.ndarray  # int32 (4, 6): black, blue, orange, green
    taken: np.ndarray  # int32 (k, u, o, damage): E[damage taken blocking]×100 (compile._defence_tables)
    dodge: np.ndarray  # int32 (green dice, difficulty): P(dodge)×1000
    variants: np.ndarray  # int32 (N_VARIANTS,)
    scen: np.ndarray  # int32 (SC_LEN,)


class BossTables(Tables):
    """The tables of a cell that may meet a boss (a boss battle; every battle of a game played whole): its
    kernels are compiled with the boss and behaviour-deck rules (R-12), which an encounter's :class:`Tables`
    leave out (``jit.boss_step``)."""

    __slots__ = ()


class View(NamedTuple):
    """What the players at the table know, the only thing a policy is handed (rules §17): every figure's visible
    state, the globals (round, aggro, the deck's size and position, the last card, the gravestone reveals), the deck
    as far as it has been seen, the board's live distances and occupancy, the options of the question and the
    policy's parameters. Views of the battle's own buffers, made once: nothing is copied per decision. The deck's
    order, the face-down traps (``Battle.nodes``) and the random stream are not in it."""

    glob: np.ndarray  # int32 (G_FIELDS,): glob[G_*]
    chars: np.ndarray  # int32 (MAX_CHARS, C_FIELDS): chars[c, C_*], hands and backups included
    enemies: np.ndarray  # int32 (MAX_ENEMIES, E_FIELDS): enemies[e, E_*], bosses' facing and weak arcs included
    known: np.ndarray  # int32 (MAX_DECK,): known[i] the card at deck position i if seen since the last shuffle, else -1
    opts: np.ndarray  # int32 (MAX_OPTS, OPT_FIELDS): the option rows of this question
    params: np.ndarray  # float64: the policy's parameter vector
    dwalk: np.ndarray  # int32 (n, NODE_COLS): walk distances avoiding blocking terrain
    figs: np.ndarray  # int32 (MAX_NODES,): living figures on each node


class Battle(NamedTuple):
    """Mutable buffers of one battle."""

    st: np.ndarray  # int32 (STATE_LEN,)
    rng: np.ndarray  # uint64 (2,): key, counter
    opts: np.ndarray  # int32 (MAX_OPTS, OPT_FIELDS)
    dwalk: np.ndarray  # int32 (n, NODE_COLS) walk distances avoiding blocking terrain
    figs: np.ndarray  # int32 (MAX_NODES,): living figures on each node, kept by the kernel (core.figures_at)
    dice: np.ndarray  # int32 (8,) scratch: last roll's dice values
    dcol: np.ndarray  # int32 (8,) scratch: last roll's dice colours
    forced: np.ndarray  # int32 (k,) forced dice results for tests (consumed first)
    cursor: np.ndarray  # int32 (4,): forced position, trace events, trace dice, preset state flag
    trace: np.ndarray  # int32 (max_events, EV_FIELDS + STATE_LEN) or (0, ...) when off
    tdice: np.ndarray  # int32 (max_dice,) dice values rolled, referenced by events
    params: np.ndarray  # float64 policy parameter vector
    search: np.ndarray  # int64 (SR_CHOICES + k,) the search log (dsim.search), or (0,) outside searches: below
    # the state by entity: views of ``st`` made once with the buffers (layout.state_views), so that a snapshot or a
    # copy of ``st`` is still the whole state
    glob: np.ndarray  # int32 (G_FIELDS,): glob[G_*]
    chars: np.ndarray  # int32 (MAX_CHARS, C_FIELDS): chars[c, C_*]
    enemies: np.ndarray  # int32 (MAX_ENEMIES, E_FIELDS): enemies[e, E_*], bosses included
    nodes: np.ndarray  # int32 (MAX_NODES, N_FIELDS): nodes[n, N_*]
    deck: np.ndarray  # int32 (MAX_DECK,): the behaviour deck's cards in order (deck.py)
    known: np.ndarray  # int32 (MAX_DECK,): the deck as the players know it (layout.K_BASE)
    pub: View  # what a policy is handed: views of the arrays above


# The search log of a replay with forced decisions (engine.BattleReplayer, dsim.search): the first SR_FORCED decisions
# the policy is asked are answered from SR_CHOICES on; then the policy answers. A rollout switches after its last forced
# answer: SEARCH_FAIR re-keys the stream to the rollout key and resamples what the players do not know (the unseen
# behaviour cards' order, the face-down traps); SEARCH_SEEING keeps the true stream and hidden state (a bound).
SEARCH_ADVANCE = 1  # the true play: record the first decision after the forced ones (hook, options, policy's answer)
SEARCH_FAIR = 2
SEARCH_SEEING = 3
SR_MODE = 0
SR_FORCED = 1  # forced answers
SR_ASKED = 2  # decisions asked so far
SR_HOOK = 3  # SEARCH_ADVANCE: the hook of decision SR_FORCED, its options (0: the battle ended first), the policy's answer
SR_OPTIONS = 4
SR_BASE = 5
SR_KEY_HI = 6  # the rollout key, in two 32-bit halves
SR_KEY_LO = 7
SR_HIDE_AT = 8  # tests: before decision SR_HIDE_AT of the true play its hidden state is resampled from this key (-1 never)
SR_HIDE_HI = 9
SR_HIDE_LO = 10
SR_DRAWN = 11  # SEARCH_ADVANCE: behaviour cards drawn by decision SR_FORCED (when the hidden deck was last revealed)
SR_CHOICES = 16


# defence feature tables: dice per colour and damage/difficulty covered (larger pools are clipped;
# these are option features for policies, never rule outcomes)
DEFENCE_DICE = 5
DEFENCE_DAMAGE = 30
DODGE_DIFFICULTY = 4 * DEFENCE_DICE
# attack line statistics: block/resist thresholds and damage needs covered (compile._line_stats)
LSTAT_THRESHOLDS = 8
LSTAT_NEEDS = 41

# boss card table columns: a card has one half per boss figure (two on the O&S dual cards)
CARD_HEATUP = 0
CARD_OWNER = 1  # enemy slot whose heat-up card this is (O&S), -1 shared
CARD_HALVES = 2
CARD_HALF = 3  # per half: slot, first step, step count, weak arcs, repeat
HALF_SLOT = 0
HALF_PROG = 1
HALF_LEN = 2
HALF_WEAK = 3
HALF_REPEAT = 4
HALF_FIELDS = 5
CARD_FIELDS = CARD_HALF + 2 * HALF_FIELDS

# Every cell's tables and every battle's buffers have these columns: compiled code indexes them with constant
# strides (dsim.numba_ref). A level-1 battle took 3.2% fewer instructions than when each array's width was loaded
# to multiply by it, and 2.2% fewer again once the node-by-node tables had rows of NODE_COLS.
fixed_trailing_dims(Tables, {
    "steps": (L.NODE_COLS,), "dwalk0": (L.NODE_COLS,), "arcs": (L.NODE_COLS, L.NODE_COLS), "neighbour": (8,),
    "adjacent_nodes": (8,), "chars": (L.CT_FIELDS,), "items": (L.IT_FIELDS,),
    "lines": (L.L_FIELDS,), "lstat": (2, LSTAT_THRESHOLDS, LSTAT_NEEDS), "etypes": (L.ET_FIELDS,),
    "prog": (L.S_FIELDS,), "cards": (CARD_FIELDS,), "faces": (6,),
    "taken": (DEFENCE_DICE + 1, DEFENCE_DICE + 1, DEFENCE_DAMAGE + 1), "dodge": (DODGE_DIFFICULTY + 1,),
})
fixed_trailing_dims(Battle, {"opts": (L.OPT_FIELDS,), "dwalk": (L.NODE_COLS,), "trace": (L.EV_FIELDS + L.STATE_LEN,),
                             "chars": (L.C_FIELDS,), "enemies": (L.E_FIELDS,), "nodes": (L.N_FIELDS,)})
# Compiled code makes the state's views from ``st``'s data pointer and these constants (dsim.numba_ref.fixed_views):
# every rule step then addresses the state from one pointer, as it did the flat vector; loading each view from the
# bundle cost a level-1 battle 2.9% more instructions.
fixed_views(Battle, "st", L.STATE_VIEWS)
fixed_trailing_dims(View, {"opts": (L.OPT_FIELDS,), "dwalk": (L.NODE_COLS,), "chars": (L.C_FIELDS,),
                           "enemies": (L.E_FIELDS,)})

state_views = register_jitable(L.state_views)  # callable from compiled code (battle.search_buffers) and Python


def with_state(b: Battle, st: np.ndarray) -> Battle:
    """``b`` with the state vector ``st`` (int32, C order) and its views in place of its own."""
    glob, chars, enemies, nodes, deck, known = state_views(st)
    return b._replace(st=st, glob=glob, chars=chars, enemies=enemies, nodes=nodes, deck=deck, known=known,
                      pub=b.pub._replace(glob=glob, chars=chars, enemies=enemies, known=known))


def with_public(b: Battle, **arrays: np.ndarray) -> Battle:
    """``b`` with some of the arrays its :class:`View` shares (``opts``, ``dwalk``, ``params``, ``figs``) replaced in
    both."""
    return b._replace(**arrays, pub=b.pub._replace(**arrays))


def new_battle(
    n_nodes: int,
    params: np.ndarray,
    forced: np.ndarray | None = None,
    trace_events: int = 0,
    search: int = 0,
) -> Battle:
    """Allocate the buffers of one battle (Python side: tests and trace replays)."""
    st = np.zeros(L.STATE_LEN, np.int32)
    glob, chars, enemies, nodes, deck, known = state_views(st)
    opts = np.zeros((L.MAX_OPTS, L.OPT_FIELDS), np.int32)
    dwalk = np.zeros((n_nodes, L.NODE_COLS), np.int32)
    figs = np.zeros(L.MAX_NODES, np.int32)
    params = np.asarray(params, np.float64)
    return Battle(
        st=st,
        rng=np.zeros(2, np.uint64),
        opts=opts,
        dwalk=dwalk,
        figs=figs,
        dice=np.zeros(8, np.int32),
        dcol=np.zeros(8, np.int32),
        forced=np.zeros(0, np.int32) if forced is None else np.asarray(forced, np.int32),
        cursor=np.zeros(4, np.int32),
        trace=np.zeros((trace_events, L.EV_FIELDS + L.STATE_LEN), np.int32),
        tdice=np.zeros(max(trace_events * 4, 1), np.int32),
        params=params,
        search=np.zeros(search, np.int64),
        glob=glob,
        chars=chars,
        enemies=enemies,
        nodes=nodes,
        deck=deck,
        known=known,
        pub=View(glob, chars, enemies, known, opts, params, dwalk, figs),
    )
