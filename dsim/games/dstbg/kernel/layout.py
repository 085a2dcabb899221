"""Array layouts shared by the compile step, the kernel, policies and the trace.

The battle state is one flat ``int32`` vector (explicit, copyable, easy to snapshot into the trace) read and
written through per-entity views of it, made once by :func:`state_views`: the globals ``glob[G_*]``, the
characters ``chars[c, C_*]``, the enemies and bosses ``enemies[e, E_*]``, the nodes ``nodes[n, N_*]`` and the
boss behaviour deck ``deck[i]`` and what the players know of its order, ``known[i]``. This module alone knows where each lies in the vector. Compiled game tables are
small ``int32`` matrices whose columns are named here too. Numba folds module-level ints into constants, so field
access costs nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dsim.games.dstbg.variants import VARIANTS as _V

# --- sizes -------------------------------------------------------------------------------
MAX_CHARS = 4
MAX_ENEMIES = 8  # largest core encounter has 6; bosses use at most 2 slots
MAX_NODES = 26  # the joined main-boss arena
NODE_COLS = 32  # row width of the node-by-node tables (steps, walk distances, arcs): MAX_NODES or more, a power of
# two so a row's offset is a shift; every board pads its rows to it (compile._node_columns)
MAX_OPTS = 64
OPT_FIELDS = 9  # set_opt fills 8; column 8 is a move step's boss-arc feature (else 0)
UNREACHABLE = 999

# --- global fields of the state vector --------------------------------------------------
G_ROUND = 0
G_OUTCOME = 1  # OUT_* below
G_N_CHARS = 2
G_N_ENEMIES = 3
G_AGGRO = 4  # character index holding the aggro token
G_NEXT_CHAR = 5  # character that activates in the next character turn
G_N_NODES = 6
G_ACTIVE = 7  # character index currently activating (-1 in an enemy turn)
G_ADVERSARIAL = 8  # 1 when a (enemy) hook must be answered against the party
G_IS_BOSS = 9
G_WEAK_ARCS = 10  # bitmask of the weak arcs of the last attack icon
G_HEATED = 11  # 1 once the boss has heated up
G_HEATUP_ROUND = 12
G_DECK_LEN = 13
G_DECK_POS = 14
G_CARDS_DRAWN = 15
G_LAST_CARD = 16
G_BARRELS_CHANGED = 17  # walk distances must be recomputed
G_REVEALED = 18  # bitmask of deck positions revealed by gravestones
G_NEED = 19  # NEED_*: what the game needs from this battle (a whole game sets it; a battle alone: NEED_WIN)
G_FIELDS = 20
NEED_WIN = 0  # win it: nothing is kept back (a battle alone, or a boss battle)
NEED_KEEP = 1  # win it, and keep the estus, luck and heroic action for the boss where the battle allows

# --- per-character fields ---------------------------------------------------------------
C_BASE = G_FIELDS
C_POS = 0
C_STAMINA = 1  # black cubes
C_DAMAGE = 2  # red cubes
C_COND = 3  # condition bitmask (COND_*)
C_ESTUS = 4  # uses left in the estus flask: 1 = full, more with the extra_estus house rule
C_LUCK = 5  # 1 = ready
C_HEROIC = 6  # 1 = ready
C_EMBER = 7  # 1 = holds an ember
C_ALIVE = 8
C_ARC = 9  # side of the boss base it stands at when in a boss's node: direction + 1, 0 = none
# 10: free (no rule reads it; kept so that the later fields keep their numbers)
C_HAND0 = 11  # item instance in the first hand slot, -1 empty
C_HAND1 = 12
C_BACKUP0 = 13
C_BACKUP1 = 14
C_ARMOUR = 15
C_USED0 = 16  # hand weapon 0 already attacked this activation
C_USED1 = 17
C_BERSERK = 18  # Berserk Charge armed: next range-0 attack is free and a node attack
C_DMG_DEALT = 19  # outcome counters
C_DMG_TAKEN = 20
C_STAMINA_SPENT = 21
C_ESTUS_USED = 22
C_LUCK_USED = 23
C_HEROIC_USED = 24
C_DODGES = 25
C_DODGES_OK = 26
C_USED2 = 27  # backup weapon 0 already attacked this activation (a card that attacks from backup, F-4.1)
C_USED3 = 28  # backup weapon 1: slot s's flag is C_USED0 + s for hands, C_USED2 + s - 2 for backups
C_FIELDS = 29

# --- per-enemy fields ---------------------------------------------------------------------
E_BASE = C_BASE + MAX_CHARS * C_FIELDS
E_TYPE = 0  # enemy type row in the enemy table
E_POS = 1
E_WOUNDS = 2
E_COND = 3
E_ALIVE = 4
E_FACING = 5  # bosses: direction index 0..7 (board.DIRECTIONS)
E_WEAK = 6  # bosses: weak arcs of the last card half it resolved
E_FIELDS = 8

# --- per-node fields ----------------------------------------------------------------------
N_BASE = E_BASE + MAX_ENEMIES * E_FIELDS
N_TERRAIN = 0  # TERRAIN_*
N_TRAP = 1  # trap token value: -1 none, 0 blank, k = k damage
N_TRAP_UP = 2  # 1 once flipped this battle
N_FIELDS = 3

# --- boss deck (card indices into the card table) -------------------------------------
D_BASE = N_BASE + MAX_NODES * N_FIELDS
MAX_DECK = 16
# --- the deck as the players know it: the card at each position they have seen since the deck was
# last shuffled (drawn this cycle; every position once it repeats), -1 where they have not --------------------------
K_BASE = D_BASE + MAX_DECK
STATE_LEN = K_BASE + MAX_DECK
# where each view of the vector lies, (first element, shape): state_views cuts them so, and compiled code makes them
# from the vector's data pointer so (context: dsim.numba_ref.fixed_views; check_trailing_dims checks they agree)
STATE_VIEWS = {"glob": (0, (G_FIELDS,)), "chars": (C_BASE, (MAX_CHARS, C_FIELDS)),
               "enemies": (E_BASE, (MAX_ENEMIES, E_FIELDS)), "nodes": (N_BASE, (MAX_NODES, N_FIELDS)),
               "deck": (D_BASE, (MAX_DECK,)), "known": (K_BASE, (MAX_DECK,))}


class StateViews(NamedTuple):
    """The views of a state vector by entity, sharing its memory."""

    glob: np.ndarray  # (G_FIELDS,): glob[G_*]
    chars: np.ndarray  # (MAX_CHARS, C_FIELDS): chars[c, C_*]
    enemies: np.ndarray  # (MAX_ENEMIES, E_FIELDS): enemies[e, E_*], bosses included
    nodes: np.ndarray  # (MAX_NODES, N_FIELDS): nodes[n, N_*]
    deck: np.ndarray  # (MAX_DECK,): the behaviour deck's cards in order (hidden from the players)
    known: np.ndarray  # (MAX_DECK,): known[i] the card at deck position i as the players know it, -1 not seen

    def copy(self) -> StateViews:
        """The views of a copy of the vector."""
        return state_views(state_vector(self).copy())


def state_views(st: np.ndarray) -> StateViews:
    """The views of a state vector (a battle's, a test's or a trace row's state); compiled code calls it too
    (``context.state_views``)."""
    return StateViews(st[:G_FIELDS], st[C_BASE:E_BASE].reshape((MAX_CHARS, C_FIELDS)),
                      st[E_BASE:N_BASE].reshape((MAX_ENEMIES, E_FIELDS)),
                      st[N_BASE:D_BASE].reshape((MAX_NODES, N_FIELDS)), st[D_BASE:K_BASE], st[K_BASE:STATE_LEN])


def state_vector(views: StateViews) -> np.ndarray:
    """The state vector the views are of."""
    return views.glob.base if views.glob.base is not None else views.glob

# --- enumerations ---------------------------------------------------------------------------
OUT_RUNNING = 0
OUT_WIN = 1
OUT_LOSS = 2
OUT_TIMEOUT = 3
OUT_RETREAT = 4  # the party retreated (campaign, R-13.4)

COND_BLEED = 1
COND_POISON = 2
COND_FROSTBITE = 4
COND_STAGGER = 8

TERRAIN_NONE = 0
TERRAIN_BARREL = 1
TERRAIN_BARREL_BROKEN = 2
TERRAIN_CHEST = 3
TERRAIN_GRAVESTONE = 4

ARC_FRONT = 1
ARC_RIGHT = 2
ARC_BACK = 4
ARC_LEFT = 8

# a move step's column 8 above its arc bits (0..3), in boss battles: the known next behaviour card of the nearest boss
# figure (deck.known_next_card: public information only), for a policy to stand where its attacks do not reach
NEXT_KNOWN = 1 << 4  # the next card is known (else the bits below are 0)
NEXT_LATER = 1 << 5  # one of its attacks comes after a move, leap or turn: its arcs alone do not say who it hits
NEXT_ARCS_SHIFT = 8  # 4 bits: attack arcs of its attacks before any move (R-12.13; an attack without arcs: all four)
NEXT_REACH_SHIFT = 12  # 4 bits: the farthest range distance it can hit, moves before an attack added (15: a leap)
NEXT_WEAK_SHIFT = 16  # 4 bits: its weak arcs, the bonus of the attacks after it

HEROIC_NONE = 0
HEROIC_BACKSTAB = 1
HEROIC_PERSEVERANCE = 2
HEROIC_KNIGHT_BLOCK = 3
HEROIC_BERSERK = 4

# --- behaviour program steps (enemy icons and boss card halves) ---------------------------
OP_MOVE = 1
OP_ATTACK = 2
OP_LEAP = 3
OP_TURN = 4

DIR_TOWARD = 1
DIR_AWAY = 2
DIR_FORWARD = 3
DIR_BACKWARD = 4
DIR_LEFT = 5
DIR_RIGHT = 6

TGT_NONE = 0
TGT_NEAREST = 1
TGT_AGGRO = 2
TGT_AREA = 3

S_OP = 0
S_DIR = 1
S_TARGET = 2
S_DIST = 3
S_PUSH = 4
S_PUSH_DMG = 5
S_MAGIC = 6
S_DAMAGE = 7
S_NODE = 8
S_ARCS = 9
S_COND = 10
S_RANGE = 11
S_DODGE = 12
S_REPEAT = 13
S_FACE = 14  # boss move: target to face first (TGT_*)
S_DEGREES = 15  # boss turn
S_FIELDS = 16

# --- enemy types ----------------------------------------------------------------------------
ET_THREAT = 0
ET_HEALTH = 1
ET_BLOCK = 2
ET_RESIST = 3
ET_PROG = 4  # first program step
ET_PROG_LEN = 5
ET_IS_BOSS = 6
ET_HEATUP = 7  # boss heat-up health threshold (-1 none)
ET_SPECIAL = 8  # SP_* boss special ability
ET_HEAL = 9  # O&S: health the survivor regains when the other dies
ET_FIELDS = 10

SP_NONE = 0
SP_NO_FROST_STAGGER = 1  # Boreal Outrider Knight
SP_HEATUP_TAX = 2  # Gargoyle
SP_DAMAGE_REDUCTION = 3  # Titanite Demon
SP_BLOCK_PENALTY = 4  # Winged Knight
SP_RESHUFFLE_AFTER_HEATUP = 5  # Dancer
SP_PAIR = 6  # Ornstein & Smough

# --- item instances (hand items and armour, upgrades applied) -------------------------------
IT_BLOCK_K = 0
IT_BLOCK_U = 1
IT_BLOCK_O = 2
IT_RESIST_K = 3
IT_RESIST_U = 4
IT_RESIST_O = 5
IT_DODGE = 6
IT_HANDS = 7
IT_LINE0 = 8
IT_N_LINES = 9
IT_IS_ARMOUR = 10
IT_FLAGS = 11  # ITF_* bitmask of passive effects the kernel simulates
IT_FIELDS = 12

ITF_IMMUNE_POISON = 1
ITF_IMMUNE_BLEED = 2
ITF_IMMUNE_FROSTBITE = 4
ITF_IGNORE_ATTACK_PUSH = 8
ITF_NO_DODGE_RUN = 16

# --- attack lines -------------------------------------------------------------------------
L_STAMINA = 0
L_K = 1
L_U = 2
L_O = 3
L_MOD = 4
L_MAGIC = 5
L_NODE = 6
L_REACH = 7
L_RANGE = 8
L_SHIFT_BEFORE = 9
L_SHIFT_AFTER = 10
L_REPEAT = 11
L_PUSH = 12
L_COND = 13
L_FROM_BACKUP = 14
L_SUPPORT = 15  # SUP_* kind of a support (non-attack) effect
L_SUPPORT_AMT = 16
L_SUPPORT_SCOPE = 17
L_FIELDS = 18

SUP_NONE = 0
SUP_STAMINA = 1
SUP_HEALTH = 2

SCOPE_SELF = 0
SCOPE_ONE = 1
SCOPE_ALL = 2

# --- characters (static) --------------------------------------------------------------------
CT_TAUNT = 0
CT_HEROIC = 1
CT_FIELDS = 2

# --- policy hooks (rules §17) -------------------------------------------------------------------
H_FIRST_CHAR = 5  # D-5 pick the first character to activate
H_PLACE = 14  # D-14 entry node for a character
H_AGGRO = 15  # D-15 who gets the aggro token
H_HEROIC = 16  # D-16 use the heroic action now?
H_SWAP = 17  # D-17 swap weapons with the backup slot
H_STEP = 18  # D-18 next node of a move (or stop)
H_MOVE_ON = 181  # D-18 before a walk/run's next nodes are listed: row 0 look at them, row 1 stop here
H_ATTACK = 19  # D-19/D-20 weapon, option and target (or stop)
H_SHIFT = 21  # D-21 shift step (or stop)
H_ESTUS = 23  # D-23 drink the estus now?
H_LUCK = 24  # D-24 reroll one die?
H_LINE_ARC = 25  # D-25 entering a boss node from a line: the side (arc) to stand at
H_DEFENCE = 26  # D-26 block/resist or dodge
H_DODGE_MOVE = 261  # D-26 where to move on a dodge (or stay)
H_TRAP = 27  # D-27 take the trap damage or dodge it
H_DEFENCE_ORDER = 28  # D-28 which of several characters hit by one attack defends next
H_ATTACK_PUSH = 29  # D-29 push destination among nodes farther from the attacker
H_ENEMY_ORDER = 30  # D-30 (enemy) order among equal threat
H_ENEMY_STEP = 31  # D-31 (enemy) route among equally good nodes
H_MOVE_PUSH = 32  # D-32 where a character pushed by a move/leap goes
H_NODE_LIMIT = 33  # D-33 which figure leaves a full node, and where
H_TAUNT_TIE = 34  # D-34 (enemy) nearest-character tie not settled by aggro/taunt
H_RETREAT = 39  # D-39 retreat after an enemy turn (campaign, R-13.4): row 0 fight on, row 1 retreat

# option row fields (meaning per hook documented in policies/dstbg/README.md)
O_A = 0
O_B = 1
O_C = 2
O_D = 3
O_E = 4
O_F = 5
O_G = 6
O_H = 7

# --- variants (rules §16): index into the int32 variant vector, declared once in ../variants.py ------
# Values are small ints; 0 is always the documented default reading.
V_FIRST_SIDE = _V.index["first_side"]
V_INITIAL_AGGRO = _V.index["initial_aggro"]
V_EMBER_SCOPE = _V.index["ember_scope"]
V_EMBER_THRESHOLD = _V.index["ember_threshold"]
V_EMBER_BLEED = _V.index["ember_bleed"]
V_STAMINA_LAST_SLOT = _V.index["stamina_last_slot"]
V_LUCK_ROLLS = _V.index["luck_rolls"]
V_RANGE_METRIC = _V.index["range_metric"]
V_MOVE_METRIC = _V.index["move_metric"]
V_NEAREST_FOR_ATTACKS = _V.index["nearest_for_attacks"]
V_PUSH_INTO_FULL = _V.index["push_into_full_node"]
V_PUSH_NO_LEGAL = _V.index["push_no_legal_node"]
V_NODE_LIMIT_DEST = _V.index["node_limit_push_destination"]
V_TRAP_TRIGGER = _V.index["trap_trigger_moves"]
V_SHIFT_INTO_BARREL = _V.index["shift_into_barrel"]
V_ATTACKS_PER_ACT = _V.index["attacks_per_activation"]
V_REPEAT_ICON = _V.index["repeat_icon"]
V_BLEED_ZERO = _V.index["bleed_zero_damage"]
V_BLEED_SAME = _V.index["bleed_same_attack"]
V_STAGGER_PUSH_DMG = _V.index["stagger_on_push_damage"]
V_STAGGER_REPEAT = _V.index["stagger_repeat"]
V_DODGE_MOVE = _V.index["dodge_move"]
V_ATTACK_PUSH_CORNERED = _V.index["attack_push_cornered"]
V_MOVE_PUSH_DIR = _V.index["move_push_direction"]
V_PUSH_DMG_ORDER = _V.index["push_damage_order"]
V_PUSH_DMG_DODGED = _V.index["push_damage_dodged"]
V_FROST_ZERO_PUSH = _V.index["frostbite_zero_move_push"]
V_TAUNT_POOL = _V.index["taunt_tiebreak_pool"]
V_TAUNT_EQUAL = _V.index["taunt_equal"]
V_PLAYERS_CHOICE = _V.index["players_choice_policy"]
V_ESTUS_TIMING = _V.index["estus_timing"]
V_FORBID = _V.index["forbid"]  # house rule forbid: FORBID_* bits of what the party may not use
FORBID_DODGE = 1  # no dodge roll, against attacks or traps
FORBID_ESTUS = 2  # the estus flask is never drunk
FORBID_LUCK = 4  # no luck reroll
FORBID_HEROIC = 8  # no heroic action
FORBID_NAMES = ("dodge", "estus", "luck", "heroic")  # bit k is 1 << k
V_BOSS_FACING = _V.index["boss_initial_facing"]
V_BOSS_ARC_SHIFT = _V.index["boss_arc_shift_in_node"]
V_BOSS_TOWARD = _V.index["boss_toward_rotation"]
V_BOSS_ARC_LIMIT = _V.index["boss_attack_arc_limit"]
V_HEATUP_SCOPE = _V.index["heatup_shuffle_scope"]
V_GRAVESTONE_INFO = _V.index["gravestone_reveal_info"]
V_MAX_ROUNDS = _V.index["max_rounds"]  # simulator safety cap on rounds (house setting, default 60)
V_BOSS_REPEAT_SCOPE = _V.index["boss_repeat_scope"]  # repeat icon on a boss card
N_VARIANTS = len(_V)

# --- trace events ----------------------------------------------------------------------------
EV_FIELDS = 10  # round, actor_kind, actor, event, a, b, c, d, dice_start, dice_len
ACTOR_NONE = 0
ACTOR_CHAR = 1
ACTOR_ENEMY = 2

# event codes (names and rule citations for `dsim explain` live in trace.py)
EV_SETUP = 1
EV_PLACE = 2
EV_AGGRO = 3
EV_ROUND = 4
EV_ACTIVATE = 5
EV_MOVE = 6
EV_PUSH = 7
EV_ATTACK = 8
EV_DEFEND = 9
EV_DAMAGE = 10
EV_CONDITION = 11
EV_CONDITION_END = 12
EV_DEATH = 13
EV_ESTUS = 14
EV_LUCK = 15
EV_HEROIC = 16
EV_TRAP = 17
EV_BARREL = 18
EV_GAIN = 19
EV_END = 20
EV_CARD = 21
EV_TURN = 22
EV_HEATUP = 23
# 24: free (no rule records it)
EV_SWAP = 25
EV_ATTACK_FAIL = 26
EV_STAMINA = 27
EV_LEAP = 28
EV_DECISION = 29
EV_REVEAL = 30
EV_RETREAT = 31  # a: round
EV_ARC_SHIFT = 32  # a: node, b: side moved to (direction + 1), c: boss slot, d: its arc bits

# damage sources for EV_DAMAGE
SRC_ATTACK = 0
SRC_BLEED = 1
SRC_POISON = 2
SRC_TRAP = 3
SRC_PUSH = 4
