"""Named columns of every Dark Maiden kernel array: data tables, per-entity state, option rows, events, outcomes.

State is kept by entity: ``s.heroes[h, H_DAMAGE]``, ``s.foes[f, F_DAMAGE]`` (the enemies in play, in the
order they entered), ``s.table[T_ADVANCE]``; the tables compiled from the data likewise
(``t.units[u, U_VITALITY]``, ``t.cards[c, CD_KIND]``). Rule IDs refer to ``rules/dark_maiden.md``.
"""

from __future__ import annotations

MAX_HEROES = 4
"""1–4 heroes (DM-1.4)."""
MAX_FOES = 24
"""Enemies in play at once; a card that finds no free slot is discarded (a trace event says so)."""
MAX_MIDDLE = 8
"""Free mounts in the middle of the table (DM-5.4.2)."""
MAX_SITE_BOSSES = 4
"""Boss cards a site brings in (Lords ×2, Armaduras ×2, …)."""
N_ITEMS = 2
"""Special items of solo and 2-player games (DM-2.9)."""
PASS_TOTAL = 7
"""A precipice test and a quick strike pass on 2d6 ≥ 7 (DM-5.2.1, DM-7.6)."""
GRAB_DAMAGE = 2 + 1
"""A successful grab deals 3 damage, split among enemies (DM-7.7)."""
QUICK_DAMAGE = 2
"""A successful quick strike deals 2 damage (DM-7.6)."""
MOUNT_HIT = 1
"""A mounted hero hit by any number of enemies takes 1, the mount 1 (DM-7.10)."""
DARK_MAIDEN_CALL = 1
"""The red face on which the Dark Maiden calls reinforcements instead of striking (DM-9.4)."""
FIGHT_ROUNDS_PER_TURN = 50
"""Turn budget of one fight's rounds of attacks: a fight longer than ``max_turns`` × this is a timeout."""

# card kinds (DM-5.1) and what a card is
K_GO, K_PRECIPICE, K_GOBLIN, K_MOUNT, K_ENEMY, K_BOSS, K_ITEM = 0, 1, 2, 3, 4, 5, 6
KIND_NAMES = ("go", "precipice", "goblin", "mount", "enemy", "boss", "item")
PILE_BOSSES, PILE_ITEMS = 0, 4
"""``CD_PILE``: 1–3 the level-1 deck and the level-2/3 piles, 0 the boss pile, 4 the special items."""

# roles of a foe in play (DM-5.5.2, DM-9.3)
ROLE_ENEMY, ROLE_SUB_BOSS, ROLE_BOSS, ROLE_FINAL = 0, 1, 2, 3
ROLE_NAMES = ("enemy", "sub-boss", "boss", "final boss")

# specials (schema.py)
SP_NONE, SP_TAKES_MOUNTS, SP_DRAWS_CARD, SP_REINFORCEMENTS, SP_HEALS = 0, 1, 2, 3, 4
HS_NONE, HS_STRIKE_FIRST, HS_REROLL, HS_GRAB_EQUAL = 0, 1, 2, 3
ITEM_A, ITEM_B = 0, 1
"""Item A: +1 damage on successful attacks; item B: +1 potion maximum and the first point of damage each turn
ignored (both invented placeholders, data/dark_maiden/items.yaml)."""
ITEMS_KEPT, ITEMS_LOST_ON_DEATH, ITEMS_IN_DECK = 0, 1, 2
"""How a difficulty treats the special items (DM-2.9)."""
DIE = 0
"""A mount's damage that is the white die's value (DM-7.11 level 3)."""

# --- t.heroes[k, HT_*] ----------------------------------------------------------------------------
HT_VITALITY, HT_MAX_POTIONS, HT_FACES, HT_SPECIAL = 0, 1, 2, 3
HT_FIELDS = 4
# --- t.units[u, U_*]: deck enemies, then bosses -----------------------------------------------------
U_VITALITY, U_FACES, U_ARMOUR, U_POINTS, U_SPECIAL, U_BOSS, U_LEVEL = 0, 1, 2, 3, 4, 5, 6
U_FIELDS = 7
# --- t.mounts[m, MT_*] -------------------------------------------------------------------------------
MT_VITALITY, MT_FACES, MT_DAMAGE, MT_LEVEL = 0, 1, 2, 3
MT_FIELDS = 4
# --- t.goblins[g, G_*] -------------------------------------------------------------------------------
G_DICE, G_POTION_FACES, G_STEAL_FACES, G_HEAL_FACES, G_LEVEL = 0, 1, 2, 3, 4
G_FIELDS = 5
# --- t.sites[s, S_*] ---------------------------------------------------------------------------------
S_GO, S_ABILITY_GO, S_TARGET, S_GOBLIN, S_PILE = 0, 1, 2, 3, 4
S_FIELDS = 5
"""``S_GOBLIN`` -1: no printed goblin; ``S_PILE``: the level pile added to the deck before this site (0: none)."""
# --- t.cards[c, CD_*]: every physical card ----------------------------------------------------------
CD_KIND, CD_REF, CD_PILE = 0, 1, 2
CD_FIELDS = 3

# --- s.table[T_*] ---------------------------------------------------------------------------------
T_HEROES = 0        # heroes at the table
T_SITE = 1          # current site (0 Village … 3 Castle)
T_ADVANCE = 2       # the advance track (DM-2.2)
T_TARGET = 3        # this site's advance target
T_GO = 4            # this site's go-card value (DM-4.3)
T_LIVES = 5         # the life counter (DM-2.6)
T_TURN = 6          # turns started
T_FIRST = 7         # holder of the turn-sequence card (DM-2.3, DM-2.8)
T_OVER = 8          # OVER_*
T_BOSSES_IN = 9     # the site's bosses have entered (the target was reached)
T_BOSSES_DUE = 10   # the target was reached in phase 1 and the bosses enter after the drawn cards (DM-4.5 b)
T_NO_BONUS = 11     # no bonus phase this turn (DM-4.5, DM-8.4)
T_FOES = 12         # enemies in play (rows 0 .. T_FOES-1 of s.foes)
T_DECK = 13         # cards in the deck (top = s.deck[T_DECK-1])
T_DISCARD = 14      # cards in the discard pile
T_MIDDLE = 15       # free mounts in the middle
T_DRAWN = 16        # cards drawn this turn awaiting phase 2 (precipices, goblins, mounts)
T_WHITE = 17        # the current exchange's white die (0: none)
T_RED = 18          # ... and red die
T_SPLIT_LEFT = 19   # grab damage still to split (HOOK_SPLIT)
T_ACTOR = 20        # the hero whose attack or test is being resolved (-1: none)
T_NEV = 21          # trace events written
T_FORCED_N = 22     # forced die faces loaded (tests)
T_FORCED_NEXT = 23  # next forced face
T_NONCE = 24        # a fresh random number for each decision
T_ITEMS = 25        # ITEMS_* of the difficulty, -1: no special items in this game
T_FINALS_DUE = 26   # final bosses still to enter one after the other (DM-9.6 b)
T_END_SITE = 27     # the site where the game ended
T_END_CARD = 28     # unit that dealt the last death (-1: a precipice, -2: none)
T_SITES_DONE = 29   # sites completed
T_FIGHT_ROUNDS = 30  # rounds of attacks this game (the timeout guard)
T_DEATHS = 31       # deaths in all
T_ATTACK = 32       # the attack asking at HOOK_TARGET / HOOK_SPLIT: ATTACK_*
T_STOPS = 33        # what the target's choice does to the enemies' strikes: STOPS_*
T_FIELDS = 34

ATTACK_ROLL, ATTACK_QUICK, ATTACK_GRAB, ATTACK_BONUS, ATTACK_DEATH = 0, 1, 2, 3, 4
"""A normal roll's hit (DM-7.2), a quick strike (DM-7.6), a grab's points (DM-7.7), a bonus-phase strike (DM-8.1),
the bonus attack of a hero who died (DM-7.8); also the ``roll`` field of ``E_ROLL``."""
STOPS_NOTHING, STOPS_KILLED, STOPS_TARGET = 0, 1, 2
"""At HOOK_TARGET: the enemies have struck, strike together or do not strike (0); the hit lands first, so a
striker it kills does not strike (1, DM-7.4); the quick strike's target cannot strike, killed or not (2, DM-7.6)."""

OVER_RUNNING, OVER_WON, OVER_LOST, OVER_TIMEOUT = 0, 1, 2, 3
OVER_NAMES = ("running", "won", "lost", "timeout")

# --- s.heroes[h, H_*]: one row per seat -----------------------------------------------------------
H_KIND = 0          # index in t.heroes
H_VITALITY = 1
H_DAMAGE = 2        # damage tokens (DM-2.7)
H_POTIONS = 3
H_MAX_POTIONS = 4   # the printed maximum (+1 with item B)
H_FACES = 5         # bit f set: face f succeeds (DM-7.2)
H_SPECIAL = 6       # HS_*
H_EXHAUSTED = 7     # DM-4.2, DM-7.6
H_MOUNT = 8         # index in t.mounts of the mount ridden, -1: none
H_MOUNT_CARD = 9    # its card
H_MOUNT_DAMAGE = 10
H_OUT = 11          # out of the game (DM-2.6)
H_DEATHS = 12
H_POTIONS_USED = 13
H_ITEMS = 14        # bit i: holds item i (DM-2.9)
H_SHIELD_USED = 15  # item B's point already ignored this turn
H_MOUNT_FACES = 16  # the ridden mount's attack faces (bit mask; 0: no mount, DM-7.11)
H_MOUNT_HIT = 17    # ... and its damage (DIE: the white die's value)
H_FIELDS = 18

# --- s.foes[f, F_*]: the enemies in play, in the order they entered ---------------------------------
F_CARD = 0
F_UNIT = 1          # index in t.units
F_ROLE = 2          # ROLE_*
F_VITALITY = 3
F_DAMAGE = 4
F_FACES = 5         # bit f set: a red f strikes (DM-7.3)
F_ARMOUR = 6        # DM-9.7
F_POINTS = 7        # advance points when killed or thrown off a precipice (DM-9.1, DM-9.3)
F_SPECIAL = 8       # SP_*
F_MOUNT = 9         # a riding amazon's mount (index in t.mounts), -1: none (DM-9.1)
F_MOUNT_CARD = 10
F_MOUNT_DAMAGE = 11
F_STUNNED = 12      # hit by this exchange's quick strike: cannot strike (DM-7.6)
F_LATE = 13         # entered after this exchange's dice were rolled: not in it (DM-7.1, seed L165)
F_FIELDS = 14

# --- s.middle[m, M_*]: free mounts ---------------------------------------------------------------
M_MOUNT, M_CARD, M_DAMAGE = 0, 1, 2
M_FIELDS = 3

# --- policy hooks (every decision the rules leave to players) --------------------------------------
HOOK_MOVE = 0       # DM-4.1 walk or run
HOOK_POTIONS = 1    # DM-6.1 drink every potion before the attack roll, or keep them
HOOK_ATTACK = 2     # DM-7.6 a normal attack roll or a quick strike
HOOK_DOUBLE = 3     # DM-7.5/7.7 on a double: accept, reroll (Bárbara), grab
HOOK_TARGET = 4     # DM-7.2, DM-7.6, DM-7.8, DM-8.1 the enemy that takes the damage
HOOK_SPLIT = 5      # DM-7.7 the enemy that takes the next point of a grab
HOOK_FALL = 6       # DM-5.2.4 the enemy thrown off a precipice
HOOK_BONUS = 7      # DM-8.1 strike, recover, take a mount, or nothing
HOOK_GOBLIN = 8     # DM-5.3.3 (reading "choose") which die gives potions
HOOK_NAMES = ("move", "potions", "attack", "double", "target", "split", "fall", "bonus", "goblin")

# actions (OPT_ACTION)
A_WALK, A_RUN = 0, 1
A_KEEP, A_DRINK = 0, 1
A_ROLL, A_QUICK = 0, 1
A_ACCEPT, A_REROLL, A_GRAB = 0, 1, 2
A_FOE = 0
A_PASS, A_STRIKE, A_RECOVER, A_MOUNT = 0, 1, 2, 3
A_WHITE_POTIONS, A_RED_POTIONS = 0, 1

# --- option rows: s.opts[k, OPT_*] ----------------------------------------------------------------
OPT_ACTION = 0      # A_* of the hook
OPT_FOE = 1         # the foe row (target, split, fall), -1: none
OPT_DAMAGE = 2      # damage the option deals (after armour); potions: to every enemy
OPT_KILLS = 3       # enemies the option kills
OPT_POINTS = 4      # advance points those kills bring
OPT_STRIKES = 5     # the foe strikes back in this exchange (target rows)
OPT_ROLE = 6        # the foe's ROLE_*
OPT_LEFT = 7        # the foe's vitality left before the option
OPT_MOUNT = 8       # a middle-mount row (bonus A_MOUNT), -1: none
OPT_LEVEL = 9       # that mount's level
OPT_POTIONS = 10    # goblin: potions the row gains (negative: stolen)
OPT_HEAL = 11       # goblin: damage the row heals
OPT_FACES = 12      # bonus mount row: the mount's attack faces (bit mask)
OPT_FIELDS = 13
MAX_OPTS = MAX_FOES + MAX_MIDDLE + 4

# --- the public matrix a policy gets: rows ------------------------------------------------------
R_TABLE = 0
R_HEROES = 1
R_FOES = R_HEROES + MAX_HEROES
R_OPTS = R_FOES + MAX_FOES
PUBLIC_ROWS = R_OPTS + MAX_OPTS
PUBLIC_WIDTH = max(T_FIELDS, H_FIELDS, F_FIELDS, OPT_FIELDS)

# --- a search's log: s.search[SR_*] (dsim.search; empty in batch play) ---------------------------------------
SR_MODE = 0         # SEARCH_*
SR_FORCED = 1       # decisions answered from SR_CHOICES (the prefix, then a rollout's option)
SR_ASKED = 2        # decisions asked so far
SR_KEY = 3          # a rollout's stream key (uint64 bits), taken after its last forced decision
SR_HOOK = 4         # SEARCH_ADVANCE: the first unforced decision's hook (-1: the game ended first)
SR_OPTIONS = 5      # ... its number of options (0: the game ended first)
SR_BASE = 6         # ... the policy's answer there
SR_HIDE_AT = 7      # tests: the decision at which the true game's deck order is redrawn (-1: never)
SR_HIDE_KEY = 8     # ... from this key
SR_TURN_DICE = 9    # a fair rollout past its forced answers: each later turn's dice come from (SR_KEY, turn)
SR_CHOICES = 10     # the forced answers, in the order asked
SEARCH_ADVANCE, SEARCH_FAIR, SEARCH_SEEING = 0, 1, 2
"""The true game with its prefix forced; a fair rollout (undrawn cards and dice redrawn); an all-seeing one."""

# --- trace events: s.trace[k, EV_*] -----------------------------------------------------------
EV_KIND, EV_TURN, EV_SEAT, EV_A, EV_B, EV_C = 0, 1, 2, 3, 4, 5
EV_FIELDS = 6
E_SETUP = 0          # lives, heroes, items
E_TURN = 1           # first seat
E_MOVE = 2           # action, advance after
E_DRAW = 3           # card, kind
E_RESHUFFLE = 5      # cards in the new deck
E_SITE_REACHED = 6   # site, advance
E_BOSS_ENTERS = 7    # card, unit, role
E_PRECIPICE = 8      # white, red, passed
E_FALL = 9           # (hero falls)
E_ENEMY_TEST = 10    # white, red, passed
E_FOE_FALLS = 11     # unit, points
E_GOBLIN = 12        # potion die, heal die, level
E_POTIONS = 13       # change, potions after
E_HEAL = 14          # healed, damage after
E_MOUNT_TAKEN = 15   # mount, foe unit (-1: a hero took it)
E_MOUNT_MIDDLE = 16  # mount
E_ENTERS = 17        # card, unit, role
E_DRINK = 18         # potions drunk, enemies killed
E_ROLL = 19          # white, red, ATTACK_*
E_HERO_HITS = 20     # foe unit, damage, left
E_FOE_HITS = 21      # total damage, strikers, damage after
E_KILL = 22          # unit, role, points
E_ADVANCE = 23       # points, advance after
E_DEATH = 24         # deaths of this hero, lives after, out
E_DISMOUNT = 25      # mount, mount damage, where (0 middle, 1 discarded, 2 to a riding amazon)
E_REINFORCE = 26     # card drawn, kind, entered
E_PALADIN_HEALS = 27  # healed, damage after
E_BONUS = 28         # action, mount taken (-1: none)
E_SITE_DONE = 30     # site completed, next deck size
E_END = 31           # over
E_DECISION = 32      # hook, chosen row's action, chosen row's foe
E_ITEM = 33          # item, gained (1) or lost (0)
E_NO_ROOM = 34       # card discarded for want of a foe or middle slot
E_REROLL = 35        # white, red
E_GRAB = 36          # new white, red, succeeded
E_FOE_DISMOUNT = 37  # foe unit, mount, where (0 middle, 1 discarded)

# --- outcome rows: out[i, OUT_*] --------------------------------------------------------------------
OUT_WIN = 0
OUT_OVER = 1
OUT_TURNS = 2
OUT_LIVES = 3          # life counter at the end
OUT_END_SITE = 4       # site where the game ended (0 Village … 3 Castle)
OUT_END_CARD = 5       # unit that dealt the last death (-1 precipice, -2 none)
OUT_SITES = 6          # sites completed (4 = the Castle too: a win)
OUT_DEATHS = 7
OUT_POTIONS_USED = 8
OUT_FIGHT_ROUNDS = 9
OUT_DEATHS_SEAT = 10   # + seat, MAX_HEROES columns
N_OUT = OUT_DEATHS_SEAT + MAX_HEROES
