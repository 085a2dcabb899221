"""Named columns of a DS:TBG game played whole: the public matrix a strategy reads, the card table, hooks,
options, events and outcome columns (rules R-1, R-5, R-6, R-8.4–R-8.7, R-12.27, R-13).

The game's state is one int32 matrix ``pub`` whose rows are named by entity (``layout.R_*``): the game
row (``G_*``), one row per character (``P_*``), one per exploration tile (``TL_*``) and the option rows
(``O_*``) the kernel enumerates for the strategy's current hook. Cards live in ``where`` (``W_*`` per card).
"""

from __future__ import annotations

from dsim.games.dstbg.kernel import layout as BL

MAX_CHARS = BL.MAX_CHARS
MAX_TILES = 6
MAX_AREAS = 3  # a game's areas: the mini boss's and the main boss's, or a campaign scenario's parts
MAX_FIGHTS = 2  # boss battles closing one area (R-13.10: two Gargoyles in a row)
MAX_BOSSES = 3  # different bosses of one game (battle tables)
MAX_OPTS = 64
WIDTH = 28  # columns of the public matrix (the widest row kind)

# rows of the public matrix
R_GAME = 0
R_PARTY = 1
R_TILES = R_PARTY + MAX_CHARS
R_OPTS = R_TILES + MAX_TILES
ROWS = R_OPTS + MAX_OPTS

# --- the game row -------------------------------------------------------------------------------
G_STAGE = 0  # STAGE_*: where the party is in the game
G_REACHED = 1  # the furthest stage reached
G_OVER = 2  # RESULT_*: 0 while the game runs
G_SPARKS = 3  # the spark dial
G_START_SPARKS = 4  # the dial's starting value (R-1.4, reset after the mini boss)
G_SOULS = 5  # the soul cache
G_N_CHARS = 6
G_N_TILES = 7
G_FOG = 8  # 1 = the fog-gate tile is won since the last rest (R-6.4, R-5.9 JP)
G_NEXT_CHAR = 9  # holder of the first-activation token, -1 before the first battle (R-8.3, D-5)
G_DROPPED = 10  # souls lying on the map
G_DROPPED_TILE = 11  # their tile (TILE_BOSS for the boss tile), -1 none
G_BATTLES = 12
G_LOST = 13  # battles lost
G_SOULS_EARNED = 14
G_SOULS_SPENT = 15
G_DRAWN = 16  # treasure cards drawn (bought, chests)
G_RESTS = 17  # voluntary rests (D-7)
G_DECK_LEFT = 18  # cards in the treasure deck
G_CAMPAIGN = 19  # 1 = campaign rules
G_PRICE = 20  # souls per treasure card
G_BOSS_FIGHTS = 21  # fights against the current boss
G_GRAVESTONES = 22  # gravestones on the area's encounter cards, face up or not (a boss reveals those face up, R-12.5)
G_DECISIONS = 23  # strategy decisions so far
G_NONCE = 24  # a fresh random number at each decision (for strategies that roll their own dice)
G_AREA = 25  # the area being explored (0: the mini boss's, then the main boss's; or a scenario's part)
G_FIGHT = 26  # the next of the area's boss battles (R-13.10: a second Gargoyle follows the first at once)
G_WHY = 27  # WHY_*: why the strategy gave its last answer (0: not said), for explain; cleared at every question
G_FIELDS = 28

# reasons a strategy may give (G_WHY; their words: trace.WHY), by the question they answer
WHY_EXPLORE = 1  # route: every face-down tile first, the lowest level first (D-6)
WHY_REST_READY = 2  # route: a rest to ready the estus, luck and heroic actions for the boss (D-7, R-5.9)
WHY_REST_ESTUS = 3  # route: a rest because the estus is spent, with sparks to spare
WHY_REST_FARM = 4  # route: a rest to farm the map again, sparks above the floor kept for the boss
WHY_REST_WOUNDS = 5  # route: a rest to refill the estus a retreat's wounds need (campaign, R-13.4)
WHY_BOSS_READY = 6  # route: the boss, every estus, luck and heroic action in hand
WHY_BOSS_SPARKS = 7  # route: the boss, a rest would cost sparks the strategy keeps
WHY_BOSS_NO_REST = 8  # route: the boss, this strategy does not rest before it
WHY_BOSS_RUSH = 9  # route: the boss as soon as its gate is open
WHY_FOG = 10  # route: the tile on the way to the fog gate
WHY_NOT_OFFERED = 11  # route: the boss, no rest being offered here
WHY_LUCK = 12  # spend: a used luck token readied for the boss
WHY_LEVEL = 13  # spend: a level toward a card worth it per tier
WHY_BUY = 14  # spend: treasure, the souls left above the reserve
WHY_EQUIP = 15  # place: the slot whose kit it improves most, above the margin
WHY_INVENTORY = 16  # place: no slot gains enough, so the inventory

# stage 2a: exploring area a; 2a + 1: at its boss; 2 × areas: won. A standard game's two areas:
STAGE_EXPLORE_1 = 0
STAGE_MINI_BOSS = 1
STAGE_EXPLORE_2 = 2
STAGE_MAIN_BOSS = 3
STAGE_WON = 4
STAGE_NAMES = ("exploration 1", "mini boss", "exploration 2", "main boss", "won")

RESULT_NONE = 0
RESULT_WON = 1
RESULT_LOST = 2
RESULT_CAPPED = 3  # the battle cap (house rule max_battles) ended it

TILE_BOSS = MAX_TILES  # G_DROPPED_TILE of souls dropped in a boss battle

# --- one row per character ------------------------------------------------------------------------
P_TIER = 0  # 4 stats: strength, dexterity, intelligence, faith tiers
N_STATS = 4
P_ESTUS = 4  # estus uses left
P_LUCK = 5  # 1 = ready
P_HEROIC = 6  # 1 = ready
P_EMBER = 7  # 1 = holds an ember
P_SLOT = 8  # 5 slots: armour, hand 0, hand 1, backup 0, backup 1 (card index, -1 empty)
N_SLOTS = 5
SLOT_ARMOUR = 0
SLOT_HAND0 = 1
SLOT_HAND1 = 2
SLOT_BACKUP0 = 3
SLOT_BACKUP1 = 4
P_ATTACK = 13  # the best attack worth among the hand items (card K_ATTACK)
P_DEFENCE = 14  # the summed defence worth of armour and hands (card K_DEFENCE)
P_CHAR = 15  # character index in the data (for requirements)
P_DAMAGE = 16  # red cubes carried after a retreat; 0 after any other battle
P_STAMINA = 17  # black cubes carried after a retreat (A-52 keep_black)
P_COND = 18  # conditions carried after a retreat (A-53 keep)
P_FIELDS = 19

# --- one row per exploration tile (R-1.2, R-1.6) ----------------------------------------------------
TL_CARD = 0  # encounter card index (GameTables.enc_*)
TL_LEVEL = 1
TL_CLEARED = 2  # 1 = its card is face up and won; a rest turns it face down
TL_CHESTS = 3  # chests on its card
TL_OPENED = 4  # chests opened (they stay open, R-5.9)
TL_DIST = 5  # door crossings from the bonfire
TL_FOG = 6  # 1 = the fog gate is on this tile
TL_SOULS = 7  # souls dropped on this tile
TL_TRAPS_SET = 8  # 1 = a battle placed its traps: they stay on their nodes, face down, for the next
TL_TRAP0 = 9  # TRAP_NODES fields: each node's trap token as the players know it: −1 none, TRAP_HIDDEN face down and
# never sprung, else the token it showed when sprung, damage × 8 + dodge difficulty (it is turned face
# down again, but they saw it)
TRAP_HIDDEN = -2
TRAP_NODES = 13  # nodes of an exploration tile
TL_FIELDS = TL_TRAP0 + TRAP_NODES

# --- option rows (columns per hook: policies/dstbg_game/README.md) -------------------------------
O_KIND = 0  # OPT_*
O_SEAT = 1  # the character it concerns, -1 none
O_ARG = 2  # a stat (level), a tile (explore), a slot (equip)
O_COST = 3  # souls it costs
O_CARD = 4  # the card it concerns, -1 none
O_ATTACK = 5  # attack worth of the card (equip) or of the card a level unlocks
O_DEFENCE = 6  # defence worth of the same
O_OLD_ATTACK = 7  # attack worth of the card it displaces (equip), 0 none
O_OLD_DEFENCE = 8  # defence worth of the card it displaces
O_LEVEL = 9  # a tile's encounter level (explore); tiers still needed for O_CARD, this one included (level)
O_FIELDS = 10

OPT_STOP = 0  # spend nothing more / leave the card in the inventory / keep the chest shut
OPT_BUY = 1  # draw a treasure card
OPT_LEVEL = 2  # raise one stat one tier
OPT_LUCK = 3  # ready a luck token
OPT_SPARK = 4  # buy a spark (campaign)
OPT_SELL = 5  # sell an inventory card (campaign)
OPT_EQUIP = 6  # put the card in a slot
OPT_EXPLORE = 7  # enter a tile whose card is face down
OPT_BOSS = 8  # enter the boss battle
OPT_REST = 9  # rest (a spark)
OPT_EMBER = 10  # this character takes the ember
OPT_OPEN = 11  # open the chest
OPT_UPGRADE = 12  # put the upgrade card on the item O_CARD (held by O_SEAT, -1 in the inventory)
OPT_PICK = 13  # house rule tiny_shop: keep the card O_CARD of the two on top of the treasure deck
OPT_NAMES = ("stop", "buy", "level", "luck", "spark", "sell", "equip", "explore", "boss", "rest", "ember", "open",
             "upgrade", "pick")

# hooks (rules §17)
GH_SPEND = 0  # D-9, D-10, D-13, D-36, D-37: the next thing bought at the bonfire, or stop
GH_PLACE = 1  # D-9, D-12: who equips a card and where, or the inventory
GH_ROUTE = 2  # D-6, D-7, D-8: the next tile, the boss, or a rest
GH_EMBER = 3  # D-11: who takes a drawn ember
GH_CHEST = 4  # D-12: open a chest after a win
GH_UPGRADE = 5  # D-9: which item an upgrade card goes on, or none
GH_PICK = 6  # house rule tiny_shop: which of the top two treasure cards a purchase keeps (the other goes under)
HOOK_NAMES = ("spend", "place", "route", "ember", "chest", "upgrade", "pick")

# --- cards (GameTables.cards, static) ----------------------------------------------------------------
K_ITEM = 0  # item instance (battle tables' item row), -1 for an Ember card
K_GROUP = 1  # GROUP_*
K_SLOT = 2  # KIND_*: where it can go
K_REQ = 3  # 4 stat requirements
K_ATTACK = 7  # attack worth ×100: best line's expected damage against block 1, less 0.5 per stamina
K_DEFENCE = 8  # defence worth ×100: expected block and resist dice, dodge dice
K_SEAT = 9  # class / advanced cards: the seat of their class; -1 otherwise
K_BOSS = 10  # boss treasure: the boss's index in the game (its battle table), -1 otherwise
K_UPGRADE = 11  # upgrade cards: their column in GameTables.upgraded; -1 otherwise
K_UPGRADE_SLOTS = 12  # items: upgrade slots (R-4.7; the simulator fits at most one upgrade)
K_FIELDS = 13

GROUP_STARTER = 0
GROUP_COMMON = 1
GROUP_CLASS = 2
GROUP_ADVANCED = 3  # "transposed" in the data: added after the mini boss
GROUP_LEGENDARY = 4
GROUP_BOSS = 5
GROUP_EMBER = 6
GROUP_NAMES = ("starter", "common", "class", "advanced", "legendary", "boss", "ember")

KIND_ARMOUR = 0
KIND_ONE_HAND = 1
KIND_TWO_HANDS = 2
KIND_UPGRADE = 3  # upgrade cards: attached to an item at Andre
KIND_EMBER = 4

# where a card is (state ``where[card, W_*]``)
W_PLACE = 0  # LOC_*
W_SEAT = 1  # the character holding it (LOC_EQUIPPED), -1 otherwise
W_LINK = 2  # an item: its attached upgrade card; an attached upgrade (LOC_ATTACHED): its item; -1 none
W_FIELDS = 3
LOC_BOX = 0  # not in play (yet): advanced and legendary before the mini boss, boss treasure, unused legendaries
LOC_DECK = 1
LOC_INVENTORY = 2
LOC_EQUIPPED = 3
LOC_GONE = 4  # an Ember given out (F-3.2), a sold card
LOC_ATTACHED = 5  # an upgrade card on an item

# --- rule readings and house rules (GameTables.rules) ---------------------------------------------
V_TILE_LAYOUT = 0  # 0 chain, 1 star
V_DROPPED_AFTER_MINI = 1  # 0 lost, 1 back to the cache
V_CHESTS_AFTER_MINI = 2  # 0 fresh, 1 keep opened
V_DECK_EMPTY = 3  # 0 no more draws, 1 reshuffle unused inventory cards
V_REDRAW = 4  # 0 reshuffle all, 1 exclude used
V_CHEST_EQUIP = 5  # 0 allow swap, 1 free slot only
V_SPARK_GAIN_CAP = 6  # 0 capped, 1 uncapped
V_CAMPAIGN_TREASURE = 7  # 0 after the first boss, 1 after each boss, 2 never
V_CAMPAIGN_END = 8  # 0 defeat at zero, 1 dial reaches zero
V_MAX_BATTLES = 9  # house rule: battles before a game is cut off (RESULT_CAPPED)
V_SPARKS_DELTA = 10  # house rule: sparks added to R-1.4's start (6 - characters), 0 = printed
V_RETREAT_TIMING = 11  # 0 after any enemy turn, 1 after the first only
V_RETREAT_STAMINA = 12  # 0 black cubes cleared, 1 kept
V_RETREAT_CONDITIONS = 13  # 0 cleared, 1 kept
V_DOUBLE_SOULS = 14  # house rule double_souls_half_sparks: 1 = souls received doubled, the dial's start halved
V_STARTING_SOULS = 15  # house rule starting_souls: the cache's start, -1 = R-1.10 (16 for one character, else 0)
V_OPTIMAL_BOSS = 16  # house rule optimal_boss_rewards: 1 = a boss pays what grinding every spark left would have
V_TINY_SHOP = 17  # house rule tiny_shop: 1 = a purchase looks at the top two cards, keeps one, the other goes under
V_TREASURE_TIERS = 18  # house rule treasure_tiers: 1 = common cards of high requirements wait for the mini boss
N_RULES = 19

# --- numbers of the setup (GameTables.numbers) ----------------------------------------------------
N_CAMPAIGN = 0  # 1 = campaign rules
N_LEGENDARY = 1  # legendary cards added after the mini boss (R-1.12; data/dstbg/treasure.yaml)
N_ESTUS = 2  # estus uses a rest refills (R-3.5; house rule extra_estus)
N_AREAS = 3  # areas in the game (2 in a standard game)
N_NUMBERS = 4

# --- events of the game log (``dsim explain``) --------------------------------------------------------
EV_SETUP = 0  # a: sparks, b: souls
EV_DEAL = 1  # a: tile, b: encounter card, c: level, d: fog
EV_BATTLE = 2  # a: tile (TILE_BOSS + k: boss k), b: result (battle OUT_*, OUT_RETREAT a retreat), c: battle number, d: rounds
EV_SOULS = 3  # a: souls gained, b: cache after
EV_DEFEAT = 4  # a: souls dropped, b: sparks left
EV_REST = 5  # a: sparks after, b: 1 = voluntary, 0 = forced or free
EV_BUY = 6  # a: card, b: price
EV_PLACE = 7  # a: card, b: seat (-1 inventory), c: slot, d: displaced card
EV_LEVEL = 8  # a: seat, b: stat, c: new tier, d: cost
EV_LUCK = 9  # a: seat, b: cost
EV_EMBER = 10  # a: seat (-1 shuffled back)
EV_CHEST = 11  # a: tile
EV_AREA_WON = 12  # a: boss treasure cards to the inventory, b: the area won
EV_WON = 13
EV_LOST = 14
EV_RETRIEVE = 15  # a: souls picked up
EV_SPARK = 16  # a: sparks after, b: price (campaign)
EV_SELL = 17  # a: card
EV_CAPPED = 18
EV_UPGRADE = 19  # a: upgrade card, b: item card, c: seat (-1 inventory), d: 1 = taken off (an armour upgrade)
EV_FIELDS = 6  # event, a, b, c, d, battle index
SNAP_LEN = R_OPTS * WIDTH  # a replay's log row then holds the game, party and tile rows after the event
EVENT_NAMES = ("setup", "deal", "battle", "souls", "defeat", "rest", "buy", "place", "level", "luck", "ember",
               "chest", "area_won", "won", "lost", "retrieve", "spark", "sell", "capped", "upgrade")

assert max(G_FIELDS, P_FIELDS, TL_FIELDS, O_FIELDS) <= WIDTH, "a row kind is wider than the public matrix"

# --- outcome columns (one row per game) ---------------------------------------------------------------
OUTCOME_NAMES = (
    "result", "stage", "sparks_left", "battles", "battles_lost", "souls_earned", "souls_spent", "treasure_drawn",
    "rests", "mini_boss_fights", "mini_boss_first_win", "main_boss_fights", "main_boss_first_win",
    "main_boss_health_left", "tiers_at_mini_boss", "tiers_at_main_boss", "souls_left", "embers_drawn", "retreats",
)
N_OUT = len(OUTCOME_NAMES) + 2 * MAX_CHARS * 3  # + gear at each boss's first fight: armour, hand 0, hand 1 per seat
OUT = {name: i for i, name in enumerate(OUTCOME_NAMES)}
OUT_RESULT = OUT["result"]
OUT_STAGE = OUT["stage"]
OUT_SPARKS = OUT["sparks_left"]
OUT_BATTLES = OUT["battles"]
OUT_LOST = OUT["battles_lost"]
OUT_EARNED = OUT["souls_earned"]
OUT_SPENT = OUT["souls_spent"]
OUT_DRAWN = OUT["treasure_drawn"]
OUT_RESTS = OUT["rests"]
OUT_MINI_FIGHTS = OUT["mini_boss_fights"]
OUT_MINI_FIRST = OUT["mini_boss_first_win"]
OUT_MAIN_FIGHTS = OUT["main_boss_fights"]
OUT_MAIN_FIRST = OUT["main_boss_first_win"]
OUT_MAIN_HEALTH = OUT["main_boss_health_left"]
OUT_TIERS_MINI = OUT["tiers_at_mini_boss"]
OUT_TIERS_MAIN = OUT["tiers_at_main_boss"]
OUT_SOULS_LEFT = OUT["souls_left"]
OUT_EMBERS = OUT["embers_drawn"]
OUT_RETREATS = OUT["retreats"]
OUT_GEAR = len(OUTCOME_NAMES)  # [first area's boss, final boss][seat][armour, hand 0, hand 1]: item instance, -1 none
GEAR_SLOTS = 3
