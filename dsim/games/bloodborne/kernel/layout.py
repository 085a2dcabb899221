"""Named columns of every kernel array: data tables, per-entity state, option rows, events, outcomes.

State is kept by entity (``s.hunters[h, H_HEALTH]``, ``s.hand[h, card]``, ``s.table[T_ROUND]``), the
tables compiled from the data likewise (``t.cards[c, C_DAMAGE]``, ``t.dungeon[d, DG_HEALTH]``).
"""

from __future__ import annotations

MAX_HUNTERS = 5
"""3-5 hunters (BB-1.3); arrays always hold five rows."""
SEATINGS = ("rotate", "fixed", "permute")
"""How game ``i`` seats the listed policies: ``rotate`` from seat ``i % hunters`` on (each plays every seat
equally often), ``fixed`` as listed, ``permute`` in the ``i % hunters!``-th order (each plays every seat next
to every neighbour order equally often: mixed tables of several policies)."""
START_HEALTH = 8
"""Health at setup and its maximum (BB-2.7)."""
MONSTERS_DRAWN = 7
BOSSES_DRAWN = 3
"""The dungeon deck: 7 random monsters and 3 random bosses (BB-2.2)."""
DECK_SIZE = MONSTERS_DRAWN + BOSSES_DRAWN
FINITE_POOL = 75
"""15 + 60 Blood Echo tokens (BB-1.1), the finite reading of BB-1.2."""
UNLIMITED_POOL = 1_000_000_000
"""The unlimited reserve (BB-1.2 default) as a counter that never reaches 0 in a game."""
MAX_TROPHIES = 64
"""Trophy bonus tables are precomputed up to this many trophies per track (then held)."""

# card types (BB-3.7) and the step a card resolves in (BB-4.1)
MELEE, RANGED, UTILITY = 0, 1, 2
STEP_TRANSFORM, STEP_INSTANT, STEP_HUNTER_ATTACK, STEP_DREAM = 0, 1, 2, 3
# dungeon card classes (BB-3.4 - BB-3.6)
MONSTER, BOSS, FINAL_BOSS = 0, 1, 2

# --- t.cards[c, C_*]: one row per action-card kind (starters first, then upgrades) -------------
C_TYPE = 0
C_STEP = 1
C_DAMAGE = 2
C_COPIES = 3
C_STARTER = 4
C_CHOOSE_WEAPON = 5     # transform: choose_weapon (BB-6.1)
C_CLASH = 6             # instant: clash_same_card (BB-7.4)
C_CANCEL_MELEE = 7      # instant: cancel_melee amount
C_INSTANT_HEAL = 8      # instant: heal_to_full
C_INSTANT_BANK = 9      # instant: bank_collected
C_INSTANT_LOSE = 10     # instant: lose_health amount
C_ATTACK_LOSE = 11      # hunter_attack: lose_health amount
C_PREVENT = 12          # monster_attack: prevent_monster_damage (BB-8.4)
C_HALVE = 13            # monster_attack: halve_monster_damage (BB-8.3)
C_DREAM_BANK = 14       # dream_step: bank_collected (BB-11.1)
C_DREAM_RECOVER = 15    # dream_step: recover_used_pile
C_DREAM_HEAL = 16       # dream_step: heal_to_full
C_DREAM_UPGRADES = 17   # dream_step: take_upgrade amount
C_FIELDS = 18

# --- t.dungeon[d, DG_*]: monsters, then bosses, then Final Bosses -------------------------------
DG_HEALTH = 0
DG_DIE = 1
DG_TROPHY = 2           # trophy track index
DG_TROPHIES = 3
DG_CLASS = 4
DG_REVEAL_DAMAGE = 5    # on_reveal: damage_hunters
DG_ESCAPE_DAMAGE = 6    # on_escape: damage_hunters
DG_ATTACK_BONUS = 7     # while_in_play: monster_attack_bonus
DG_NO_HALVE = 8         # while_in_play: dream_no_halve
DG_INSTANT_BONUS = 9    # while_in_play: instant_damage_bonus
DG_CAP = 10             # while_in_play: cap_damage amount (-1: none)
DG_CAP_TYPE = 11        # ... of this card type
DG_GAME_ATTACK_BONUS = 12   # whole_game (Final Boss): monster_attack_bonus
DG_GAME_NO_HALVE = 13       # whole_game: dream_no_halve
DG_GAME_INSTANT_BONUS = 14  # whole_game: instant_damage_bonus
DG_GAME_ESCAPE_DAMAGE = 15  # whole_game: escape_damage_hunters
DG_GAME_TROPHY_MULT = 16    # whole_game: final_boss_trophy_multiplier (1: none)
DG_FIELDS = 17

# --- t.sizes[Z_*] --------------------------------------------------------------------------------
Z_MONSTERS = 0
Z_BOSSES = 1
Z_FINALS = 2
Z_CARDS = 3
Z_TRACKS = 4
Z_UPGRADES = 5          # upgrade cards counting copies (32 in the box)
Z_FIELDS = 6

# --- s.hunters[h, H_*] -----------------------------------------------------------------------------
H_HEALTH = 0
H_COLLECTED = 1         # at risk (BB-2.10)
H_BANKED = 2            # safe
H_PLAYED = 3            # this round's step-1 card (-1: none / not yet revealed)
H_WEAPON = 4            # the weapon chosen with Transform (-1: none)
H_DEALT = 5             # echoes taken from the monster this round
H_HIT = 6               # attacked with a weapon this round (even for 0 echoes)
H_DEAD = 7              # died this round (BB-8.5)
H_CANCELLED = 8         # this round's melee card was cancelled
H_DEATHS = 9
H_OWNED = 10            # cards the hunter owns: hand + used pile + played
H_UPGRADES = 11         # upgrades taken so far
H_DISCARDED = 12        # cards discarded at the hand limit
H_TROPHIES = 13         # trophies on all tracks (public: trophy cards lie face up, BB-9.4)
H_BONUS = 14            # the points those trophies are worth now (BB-13.3), so a policy can read the standings
H_FIELDS = 15

# --- s.public: one int32 matrix holding what a hunter may see, so a policy call passes one array -----
# Row 0 is the header then the shared table; then MAX_HUNTERS rows each of hunters, hand and used pile,
# then the option rows; every block a row slice (slicing costs nothing, unlike a reshape).
P_CARDS = 0             # row 0: card kinds (the width of hand and used pile)
P_ROWS = 1              # row 0: option rows
P_HEADER = 2            # row 0: the table starts here
R_HUNTERS = 1
R_HAND = R_HUNTERS + MAX_HUNTERS
R_USED = R_HAND + MAX_HUNTERS
R_OPTS = R_USED + MAX_HUNTERS

# --- s.table[T_*]: the shared table (everything a hunter may see) ----------------------------------
T_HUNTERS = 0
T_ROUND = 1
T_FIRST = 2             # first player this round (BB-2.8, BB-12.4)
T_START_FIRST = 3       # first player of round 1
T_MONSTER = 4           # dungeon index of the current card (-1: none)
T_ECHOES = 5            # echoes left on it (= its health, BB-3.1)
T_MONSTER_CLASS = 6
T_MONSTER_DIE = 7
T_MONSTER_TROPHY = 8
T_MONSTER_MEAN10 = 9    # ten times the expected roll of its die (for policies)
T_DECK_NEXT = 10        # next dungeon-deck position
T_UPDECK_NEXT = 11      # next upgrade-deck position
T_RESERVE = 12          # echoes in the reserve (BB-2.6, BB-1.2)
T_KILLED = 13
T_ESCAPED = 14
T_FINAL = 15            # dungeon index of this game's Final Boss (BB-2.1)
T_OVER = 16             # OVER_*
T_ROLL = 17             # this round's monster roll (after bonuses)
T_NONCE = 18            # a fresh random number before every decision (policies' own dice)
T_NEV = 19              # events written to s.trace
T_FORCED_NEXT = 20      # next forced die face
T_FORCED_N = 21         # forced faces loaded
T_DISPLAY = 22          # upgrades on display
T_HAND_LIMIT = 23
T_LISTED = 24           # T_LISTED + seat: the listed position of the policy in that seat (the seating)
T_FIELDS = T_LISTED + MAX_HUNTERS

OVER_RUNNING, OVER_FINAL_BOSS_DEAD, OVER_TIMEOUT = 0, 1, 2

# --- decision hooks and option-row columns (policies/bloodborne/README.md) --------------------------
HOOK_PLAY = 0           # step 1: which card to play (BB-5.1)
HOOK_TRANSFORM = 1      # step 2: which weapon Transform picks (BB-6.1)
HOOK_CANCEL = 2         # step 3: whose melee card to cancel (cancel_melee)
HOOK_UPGRADE = 3        # step 7: which Available Upgrade to take (BB-11.1, BB-11.5)
HOOK_DISCARD = 4        # step 7: which card to discard at the hand limit (BB-11.7)
HOOK_NAMES = ("play", "transform", "cancel", "upgrade", "discard")

OPT_CARD = 0            # card kind
OPT_TYPE = 1            # MELEE / RANGED / UTILITY
OPT_STEP = 2            # STEP_*
OPT_DAMAGE = 3          # printed damage (0 for utility)
OPT_COUNT = 4           # copies of it in hand
OPT_SEAT = 5            # cancel: target seat; upgrade: display slot
OPT_HALVE = 6           # halves monster damage (the Dream)
OPT_PREVENT = 7         # takes no monster damage
OPT_CLASH = 8           # clashes with copies (pistol)
OPT_BANK = 9            # banks Collected echoes (instant or dream)
OPT_HEAL = 10           # heals to full (instant or dream)
OPT_CANCEL = 11         # cancels melee cards of others
OPT_RECOVER = 12        # takes the used pile back (the Dream)
OPT_LOSE = 13           # health it costs
OPT_FIELDS = 14

# --- s.trace[k, EV_*]: events of one replayed game --------------------------------------------------
EV_KIND = 0
EV_ROUND = 1
EV_SEAT = 2
EV_A = 3
EV_B = 4
EV_C = 5
EV_FIELDS = 6
(E_SETUP, E_REVEAL, E_PLAY, E_TRANSFORM, E_CLASH, E_CANCEL, E_INSTANT, E_HEAL, E_BANK, E_ROLL, E_WOUND,
 E_DEATH, E_ATTACK, E_KILL, E_TROPHY, E_ESCAPE, E_RECOVER, E_REVIVE, E_UPGRADE, E_DISCARD, E_FIRST,
 E_SCORE, E_END, E_DECISION, E_LOSE_HEALTH) = range(25)

# --- out[i, OUT_*]: one row per game -------------------------------------------------------------------
OUT_WINNER = 0
OUT_ROUNDS = 1
OUT_OVER = 2
OUT_KILLED = 3
OUT_ESCAPED = 4
OUT_FIRST = 5
OUT_FINAL = 6
OUT_SEAT = 7            # per-seat blocks start here: OUT_SEAT + S_* * MAX_HUNTERS + seat
S_SCORE, S_WIN, S_BANKED, S_COLLECTED, S_TROPHIES, S_DEATHS, S_LISTED = range(7)
S_NAMES = ("score", "win", "banked", "collected", "trophies", "deaths", "listed")  # listed: the seat's policy
N_OUT = OUT_SEAT + len(S_NAMES) * MAX_HUNTERS

# --- s.search[SR_*]: a searcher's hold on one replayed game (dsim.search; engine.GameReplayer) -------------------
# In plain play SR_MODE is SEARCH_OFF and ``ask`` never looks further. The searcher is the policy listed
# SR_LISTED-th; its decisions (two options or more) are counted, the first SR_LENGTH answered from the forced
# prefix (s.search[SR_PREFIX:]). One array for the whole hold: every state field is passed by value through each
# kernel call that is not inlined, so plain play pays per field, not per element.
SEARCH_OFF, SEARCH_ADVANCE, SEARCH_FAIR, SEARCH_SEEING = 0, 1, 2, 3
SR_MODE = 0
SR_LISTED = 1           # listed position of the searching policy
SR_LENGTH = 2           # decisions forced from the prefix
SR_COUNT = 3            # the searcher's decisions asked so far
SR_OPTION = 4           # a rollout's answer at decision SR_LENGTH (the branch)
SR_KEY = 5              # a rollout's stream key (the uint64's bits)
SR_ASKED_N = 6          # advance: options at decision SR_LENGTH (0: the game ended first)
SR_ASKED_HOOK = 7
SR_ASKED_BASE = 8       # advance: the base policy's answer there
SR_ROLLING = 9          # 1 past the branch: every seat plays its model (SR_MODEL)
SR_REPICK = 10          # 1 when the secret picks made before the branch in this step are to be drawn again
SR_SEAT = 11            # the searcher's seat in this game (set at the branch)
SR_MONSTERS = 12        # monster and boss counts of the data (the unseen dungeon cards are redrawn from them)
SR_BOSSES = 13
SR_HIDDEN_AT = 14       # tests: at the searcher's decision of this index (-1: never) the true game's unseen state
SR_HIDDEN_KEY = 15      # ... is redrawn from this key and the earlier secret picks of the step changed (rules.disturb)
SR_MODEL = 16           # past the branch, the others play: 0 their own listed policies, 1 the policy in MODEL_SLOT
SR_FIELDS = 17
SEARCH_PREFIX = 4096
"""Forced decisions a replay holds (dsim.search.MAX_DECISIONS)."""
SR_PREFIX = SR_FIELDS   # the forced answers, SEARCH_PREFIX of them
SR_POOL = SR_FIELDS + SEARCH_PREFIX  # then a buffer of monster/boss indices (the redraw's pool)
MODEL_SLOT = MAX_HUNTERS
"""The policy tuple's slot past the listed ones: the one policy a searcher's model plays for all the others (SR_MODEL;
plain play repeats the first listed policy there)."""
POLICY_SLOTS = MAX_HUNTERS + 1
SEARCH_SHAPING = 0.05
"""A rollout's value: 1 for a win, plus this times the score margin over the best other hunter / SEARCH_MARGIN
(clipped to ±1), so a lost game still tells a near miss from a rout."""
SEARCH_MARGIN = 20
