"""The rules of a DS:TBG game played whole (R-1, R-5, R-6, R-8.4–R-8.7, R-12.27, R-13): setup, the bonfire,
exploration, battles with what carries over, defeat and rest, the mini boss, the main boss.

The state machine of R-6.6. Battles are played by the battle kernel (``dsim.games.dstbg.kernel``) on tables
whose scenario vector the game fills before each battle (gear, tokens, first-activation token); every
choice between battles is the strategy's (hooks ``layout.GH_*``), every choice in a battle the battle
policy's. Game ``i`` draws only from ``battle_key(seed, stream, i)``; its battle ``k`` from a key of that
and ``k``: results do not depend on threads or pieces.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg.kernel.battle import battle_buffers, run_battle
from dsim.games.dstbg.kernel.core import ci, ei, ni
from dsim.games.dstbg.kernel.jit import kernel_sources
from dsim.numba_linking import compiled_under
from dsim.numba_ref import keep_alive, ref
from dsim.games.dstbg.whole import layout as G
from dsim.numba_cache import cache_folder
from dsim.rng import battle_key, draw_at, randint

HERE = Path(__file__).resolve().parent
# the battle kernel's sources, this game's, and engine.py, whose entries' compile options Numba's cache key ignores
GAME_SOURCES = kernel_sources() + [HERE / "kernel.py", HERE / "layout.py", HERE / "strategy.py", HERE / "engine.py"]
GAME_CACHE_DIR = cache_folder("dstbg-whole", GAME_SOURCES, HERE / "__pycache__")
gk = compiled_under(GAME_CACHE_DIR, nrt=False)
allocating = compiled_under(GAME_CACHE_DIR, nrt=True)

GAME_KEY = 1 << 40  # index of a game's own stream beside its battles' (battle numbers stay far below)


class GameState(NamedTuple):
    """Mutable buffers of one game."""

    pub: np.ndarray  # int32 (ROWS, WIDTH): game row, party rows, tile rows, option rows (layout.R_*)
    where: np.ndarray  # int32 (n_cards, W_FIELDS): where each card is
    deck: np.ndarray  # int32 (n_cards,): the treasure deck's draw pile, top last
    used: np.ndarray  # int32 (n_encounters,): 1 = dealt before
    rng: np.ndarray  # uint64 (2,): key, counter
    log: np.ndarray  # int32 (max_events, EV_FIELDS [+ SNAP_LEN in replays]), (0, EV_FIELDS) when off
    cursor: np.ndarray  # int32 (4,): events logged, battles fought, stop after this battle (-1 never), deck size
    out: np.ndarray  # int32 (N_OUT,): the game's outcome row, filled as it goes
    traps: np.ndarray  # int32 (MAX_TILES, TRAP_NODES): each tile's trap tokens as they lie, read only once the tile's
    # TL_TRAPS_SET says its battle wrote them (so setup and deal need not clear it); strategies see only pub


C_EVENTS = 0
C_BATTLES = 1
C_STOP = 2
C_DECK = 3

# --- Firekeeper prices per tier raised from (standard / campaign): treasure
LEVEL_COST = np.array([2, 4, 8, 0], np.int32)
LEVEL_COST_CAMPAIGN = np.array([4, 8, 16, 20], np.int32)


# --- small helpers ---------------------------------------------------------------------------------
@gk
def glog(s, ev: int, a: int, b: int, c: int, d: int) -> None:
    """Record one game event when the log is on; a log wide enough (replays) also keeps the game, party and
    tile rows as they are after the event (``layout.SNAP_LEN``)."""
    k = s.cursor[C_EVENTS]
    if k < s.log.shape[0]:
        row = s.log[k]
        row[0], row[1], row[2], row[3], row[4], row[5] = ev, a, b, c, d, s.cursor[C_BATTLES]
        if row.shape[0] >= G.EV_FIELDS + G.SNAP_LEN:
            for r in range(G.R_OPTS):
                for col in range(G.WIDTH):
                    row[G.EV_FIELDS + r * G.WIDTH + col] = s.pub[r, col]
        s.cursor[C_EVENTS] = k + 1


@gk
def opt(s, i: int, kind: int, seat: int, arg: int, cost: int, card: int, attack: int, defence: int,
        old_attack: int, old_defence: int, level: int) -> None:
    """Fill option row ``i`` (columns ``layout.O_*``)."""
    row = s.pub[G.R_OPTS + i]
    row[G.O_KIND], row[G.O_SEAT], row[G.O_ARG], row[G.O_COST], row[G.O_CARD] = kind, seat, arg, cost, card
    row[G.O_ATTACK], row[G.O_DEFENCE], row[G.O_OLD_ATTACK], row[G.O_OLD_DEFENCE] = attack, defence, old_attack, old_defence
    row[G.O_LEVEL] = level


@gk
def ask(s, strategy, params, hook: int, n: int) -> int:
    """The strategy's choice among ``n`` option rows (an answer out of range counts as row 0)."""
    if n <= 1:
        return 0
    game = s.pub[G.R_GAME]
    game[G.G_DECK_LEFT] = s.cursor[C_DECK]  # public: the deck's size (its order stays hidden)
    game[G.G_DECISIONS] += 1  # a nonce from the game's key and the decision count: the game's stream stays untouched
    game[G.G_NONCE] = np.int32(draw_at(s.rng, game[G.G_DECISIONS]) >> np.uint64(34))
    k = strategy(hook, s.pub, n, params)
    return k if 0 <= k < n else 0


@gk
def requirement(g, s, card: int, stat: int) -> int:
    """R-3.10, R-4.5: what ``card`` needs of ``stat``, its attached upgrade's need included."""
    need = g.cards[card, G.K_REQ + stat]
    up = s.where[card, G.W_LINK]
    if up >= 0 and s.where[card, G.W_PLACE] != G.LOC_ATTACHED:
        need = max(need, g.cards[up, G.K_REQ + stat])
    return need


@gk
def meets(g, s, seat: int, card: int, stat: int, extra: int) -> bool:
    """R-3.10: every stat of ``seat`` (``stat`` raised by ``extra`` tiers) meets the card's requirements."""
    p = s.pub[G.R_PARTY + seat]
    for k in range(G.N_STATS):
        tier = p[G.P_TIER + k] + (extra if k == stat else 0)
        if tier > 4 or g.stats[seat, k, tier] < requirement(g, s, card, k):
            return False
    return True


@gk
def instance(g, s, card: int) -> int:
    """The item instance a card plays as: with its attached upgrade (R-4.7), else its own; -1 for none."""
    base = g.cards[card, G.K_ITEM]
    up = s.where[card, G.W_LINK]
    if base >= 0 and up >= 0 and s.where[card, G.W_PLACE] != G.LOC_ATTACHED:
        return g.upgraded[base, g.cards[up, G.K_UPGRADE]]
    return base


@gk
def refresh_worth(g, s, seat: int) -> None:
    """The character's attack and defence worth from its armour and hands (option features)."""
    p = s.pub[G.R_PARTY + seat]
    attack = 0
    defence = 0
    for slot in range(G.SLOT_ARMOUR, G.SLOT_HAND1 + 1):
        card = p[G.P_SLOT + slot]
        if card >= 0:
            attack = max(attack, worth_of(g, s, card, 0))
            defence += worth_of(g, s, card, 1)
    p[G.P_ATTACK] = attack
    p[G.P_DEFENCE] = defence


@gk
def to_inventory(g, s, card: int) -> None:
    """A card back to the inventory (R-5.2); an armour's upgrade comes off with it, free to go on another
    armour (R-4.7: armour upgrades move freely; weapon upgrades stay on their weapon)."""
    if card < 0:
        return
    s.where[card, G.W_PLACE] = G.LOC_INVENTORY
    s.where[card, G.W_SEAT] = -1
    up = s.where[card, G.W_LINK]
    if up >= 0 and g.cards[card, G.K_SLOT] == G.KIND_ARMOUR:
        s.where[card, G.W_LINK] = -1
        s.where[up, G.W_LINK] = -1
        s.where[up, G.W_PLACE] = G.LOC_INVENTORY
        glog(s, G.EV_UPGRADE, up, card, -1, 1)


@gk
def weapons(s, seat: int) -> int:
    """Weapon cards the character holds, hands and backup (R-4.2: at most three)."""
    p = s.pub[G.R_PARTY + seat]
    n = 0
    for slot in range(G.SLOT_HAND0, G.SLOT_BACKUP1 + 1):
        n += 1 if p[G.P_SLOT + slot] >= 0 else 0
    return n


@gk
def worth_of(g, s, card: int, column: int) -> int:
    """Attack (column 0) or defence (1) worth of the card as it would play, its upgrade included; 0 for none."""
    if card < 0:
        return 0
    inst = instance(g, s, card)
    return g.worth[inst, column] if inst >= 0 else 0


# --- treasure (R-5.4, R-5.5, R-4.2, R-3.8, R-7.6) ---------------------------------------------------
@gk
def placements(g, s, card: int, free_only: bool) -> int:
    """Option rows for where ``card`` can go: row 0 the inventory, then every slot of every character who
    meets its requirements (R-4.2 slots, R-3.10), with the worth of what it would displace."""
    opt(s, 0, G.OPT_STOP, -1, -1, 0, card, 0, 0, 0, 0, 0)
    n = 1
    kind = g.cards[card, G.K_SLOT]
    if kind != G.KIND_ARMOUR and kind != G.KIND_ONE_HAND and kind != G.KIND_TWO_HANDS:
        return n
    attack = worth_of(g, s, card, 0)
    defence = worth_of(g, s, card, 1)
    for seat in range(s.pub[G.R_GAME, G.G_N_CHARS]):
        if not meets(g, s, seat, card, 0, 0):
            continue
        p = s.pub[G.R_PARTY + seat]
        if kind == G.KIND_ARMOUR:
            old = p[G.P_SLOT + G.SLOT_ARMOUR]
            if not free_only:  # exactly one armour: a new one always displaces the old
                opt(s, n, G.OPT_EQUIP, seat, G.SLOT_ARMOUR, 0, card, attack, defence, worth_of(g, s, old, 0),
                    worth_of(g, s, old, 1), 0)
                n += 1
            continue
        h0 = p[G.P_SLOT + G.SLOT_HAND0]
        h1 = p[G.P_SLOT + G.SLOT_HAND1]
        two = kind == G.KIND_TWO_HANDS
        h0_two = h0 >= 0 and g.cards[h0, G.K_SLOT] == G.KIND_TWO_HANDS
        # hand 0: displaces it (and hand 1 for a two-handed card)
        old_a = max(worth_of(g, s, h0, 0), worth_of(g, s, h1, 0) if two else 0)
        old_d = worth_of(g, s, h0, 1) + (worth_of(g, s, h1, 1) if two else 0)
        if not free_only or (h0 < 0 and (not two or h1 < 0)):
            opt(s, n, G.OPT_EQUIP, seat, G.SLOT_HAND0, 0, card, attack, defence, old_a, old_d, 0)
            n += 1
        if not two and not h0_two and (not free_only or h1 < 0):
            opt(s, n, G.OPT_EQUIP, seat, G.SLOT_HAND1, 0, card, attack, defence, worth_of(g, s, h1, 0),
                worth_of(g, s, h1, 1), 0)
            n += 1
        if weapons(s, seat) < 3 and (p[G.P_SLOT + G.SLOT_BACKUP0] < 0 or p[G.P_SLOT + G.SLOT_BACKUP1] < 0):
            opt(s, n, G.OPT_EQUIP, seat, G.SLOT_BACKUP0, 0, card, 0, 0, 0, 0, 0)  # backups add nothing
            n += 1
    return n


@gk
def equip(g, s, seat: int, slot: int, card: int) -> None:
    """R-4.2: put ``card`` in the slot; what it displaces goes to the inventory (R-5.2)."""
    p = s.pub[G.R_PARTY + seat]
    if slot == G.SLOT_BACKUP0:
        slot = G.SLOT_BACKUP0 if p[G.P_SLOT + G.SLOT_BACKUP0] < 0 else G.SLOT_BACKUP1
    to_inventory(g, s, p[G.P_SLOT + slot])
    if slot == G.SLOT_HAND0 and g.cards[card, G.K_SLOT] == G.KIND_TWO_HANDS:
        to_inventory(g, s, p[G.P_SLOT + G.SLOT_HAND1])  # a two-handed weapon leaves the other hand empty
        p[G.P_SLOT + G.SLOT_HAND1] = -1
    if slot == G.SLOT_HAND1:
        h0 = p[G.P_SLOT + G.SLOT_HAND0]
        if h0 >= 0 and g.cards[h0, G.K_SLOT] == G.KIND_TWO_HANDS:
            to_inventory(g, s, h0)
            p[G.P_SLOT + G.SLOT_HAND0] = -1
    p[G.P_SLOT + slot] = card
    s.where[card, G.W_PLACE] = G.LOC_EQUIPPED
    s.where[card, G.W_SEAT] = seat
    refresh_worth(g, s, seat)


@gk
def place(g, s, strategy, params, card: int, free_only: bool) -> None:
    """D-9, D-12: the strategy puts ``card`` (in the inventory or just drawn) on a character or leaves it."""
    n = placements(g, s, card, free_only)
    k = ask(s, strategy, params, G.GH_PLACE, n)
    row = s.pub[G.R_OPTS + k]
    if row[G.O_KIND] == G.OPT_EQUIP:
        equip(g, s, row[G.O_SEAT], row[G.O_ARG], card)
        glog(s, G.EV_PLACE, card, row[G.O_SEAT], row[G.O_ARG], -1)
    elif s.where[card, G.W_PLACE] != G.LOC_INVENTORY:
        to_inventory(g, s, card)
        glog(s, G.EV_PLACE, card, -1, -1, -1)


@gk
def shuffle_deck(s) -> None:
    """Shuffle the whole draw pile (R-1.8, R-1.12)."""
    n = s.cursor[C_DECK]
    for i in range(n - 1, 0, -1):
        j = randint(s.rng, i + 1)
        s.deck[i], s.deck[j] = s.deck[j], s.deck[i]


@gk
def add_to_deck(s, card: int) -> None:
    s.deck[s.cursor[C_DECK]] = card
    s.cursor[C_DECK] += 1
    s.where[card, G.W_PLACE] = G.LOC_DECK
    s.where[card, G.W_SEAT] = -1


@gk
def refill_deck(g, s) -> None:
    """A-8 ``reshuffle_inventory_unused``: an empty deck becomes the inventory's cards, shuffled."""
    if s.cursor[C_DECK] > 0 or g.rules[G.V_DECK_EMPTY] != 1:
        return
    for card in range(g.cards.shape[0]):
        if s.where[card, G.W_PLACE] == G.LOC_INVENTORY:
            add_to_deck(s, card)
    shuffle_deck(s)


@gk
def give_ember(g, s, strategy, params, card: int) -> bool:
    """R-3.8, F-3.2: a drawn Ember goes at once to a character without one, then leaves the game; if every
    character has one, it is shuffled back (False: draw a replacement without paying)."""
    n = 0
    for seat in range(s.pub[G.R_GAME, G.G_N_CHARS]):
        if s.pub[G.R_PARTY + seat, G.P_EMBER] == 0:
            opt(s, n, G.OPT_EMBER, seat, 0, 0, card, 0, 0, 0, 0, 0)
            n += 1
    if n == 0:
        add_to_deck(s, card)
        j = randint(s.rng, s.cursor[C_DECK])  # shuffled back: a random place in the pile
        last = s.cursor[C_DECK] - 1
        s.deck[last], s.deck[j] = s.deck[j], s.deck[last]
        glog(s, G.EV_EMBER, -1, card, 0, 0)
        return False
    seat = s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_EMBER, n), G.O_SEAT]
    s.pub[G.R_PARTY + seat, G.P_EMBER] = 1
    s.where[card, G.W_PLACE] = G.LOC_GONE
    s.out[G.OUT_EMBERS] += 1
    glog(s, G.EV_EMBER, seat, card, 0, 0)
    return True


@gk
def only_embers_left(g, s) -> bool:
    for i in range(s.cursor[C_DECK]):
        if g.cards[s.deck[i], G.K_SLOT] != G.KIND_EMBER:
            return False
    return True


@gk
def draw(g, s, strategy, params, chest: bool) -> bool:
    """Draw the top treasure card and place it (R-5.4, R-7.6); False when the deck is empty (A-8)."""
    refill_deck(g, s)
    while s.cursor[C_DECK] > 0:
        s.cursor[C_DECK] -= 1
        card = s.deck[s.cursor[C_DECK]]
        s.pub[G.R_GAME, G.G_DRAWN] += 1
        if g.cards[card, G.K_SLOT] == G.KIND_EMBER:
            if give_ember(g, s, strategy, params, card):
                return True
            if only_embers_left(g, s):
                return True  # nothing else to replace it with: the draw is spent
            continue
        place(g, s, strategy, params, card, chest and g.rules[G.V_CHEST_EQUIP] == 1)
        return True
    return False


# --- the map (R-1.2, R-1.3, R-1.6, A-5, A-9) ---------------------------------------------------------
@gk
def deal(g, s, area: int) -> None:
    """R-1.6: a random card of each level the area's boss lists (R-13.10: the scenario part's), lower levels
    nearer the bonfire; the fog gate on the farthest tile (R-1.3). ``chain`` (A-5): tile k is k+1 doors away;
    ``star``: every tile one door."""
    game = s.pub[G.R_GAME]
    n_enc = g.enc_info.shape[0]
    n_tiles = 0
    graves = 0
    exclude = g.rules[G.V_REDRAW] == 1
    for k in range(G.MAX_TILES):
        level = g.area_levels[area, k]
        t = s.pub[G.R_TILES + k]
        t[:] = 0
        t[G.TL_CARD] = -1
        if level < 0:
            continue
        # a card of this level not on the map yet (A-9 exclude_used: nor dealt before, while any is left)
        for rule in range(2):
            count = 0
            for e in range(n_enc):
                if g.enc_info[e, 0] == level and not taken(s, e, k) and not (rule == 0 and exclude and s.used[e] == 1):
                    count += 1
            if count > 0:
                pick = randint(s.rng, count)
                for e in range(n_enc):
                    if g.enc_info[e, 0] == level and not taken(s, e, k) and not (rule == 0 and exclude and s.used[e] == 1):
                        if pick == 0:
                            t[G.TL_CARD] = e
                            break
                        pick -= 1
                break
        e = t[G.TL_CARD]
        if e < 0:  # no card of this level in the data: the tile stays empty
            continue
        s.used[e] = 1
        t[G.TL_LEVEL] = level
        t[G.TL_CHESTS] = g.enc_info[e, 1]
        t[G.TL_DIST] = k + 1 if g.rules[G.V_TILE_LAYOUT] == 0 else 1
        graves += g.enc_info[e, 2]
        n_tiles = k + 1
    # the fog gate on the farthest tile; in a star every tile is farthest and the players pick one (D-2):
    # the lowest level, so the boss is one easy battle away
    fog = n_tiles - 1 if g.rules[G.V_TILE_LAYOUT] == 0 else 0
    s.pub[G.R_TILES + fog, G.TL_FOG] = 1
    game[G.G_N_TILES] = n_tiles
    game[G.G_GRAVESTONES] = graves
    game[G.G_FOG] = 0
    for k in range(n_tiles):
        t = s.pub[G.R_TILES + k]
        glog(s, G.EV_DEAL, k, t[G.TL_CARD], t[G.TL_LEVEL], t[G.TL_FOG])


@gk
def taken(s, e: int, upto: int) -> bool:
    """Whether encounter card ``e`` is already on one of the first ``upto`` tiles."""
    for k in range(upto):
        if s.pub[G.R_TILES + k, G.TL_CARD] == e:
            return True
    return False


# --- rest, defeat, rewards (R-5.9, R-5.10, R-8.4, R-8.5, R-8.6) ----------------------------------------
@gk
def rest(g, s, spend: bool, voluntary: bool) -> None:
    """R-5.9: the dial down one (unless ``spend`` is False, R-1.12), estus refilled, heroic actions and luck
    ready, every encounter card face down (R-6.5) and the fog gate to win again (JP)."""
    game = s.pub[G.R_GAME]
    if spend:
        game[G.G_SPARKS] -= 1
    for seat in range(game[G.G_N_CHARS]):
        p = s.pub[G.R_PARTY + seat]
        p[G.P_ESTUS] = g.numbers[G.N_ESTUS]
        p[G.P_HEROIC] = 1
        p[G.P_LUCK] = 1
    for k in range(game[G.G_N_TILES]):
        s.pub[G.R_TILES + k, G.TL_CLEARED] = 0
    game[G.G_FOG] = 0
    if voluntary:
        game[G.G_RESTS] += 1
    glog(s, G.EV_REST, game[G.G_SPARKS], 1 if voluntary else 0, 0, 0)


@gk
def earn(g, s, souls: int) -> None:
    """Souls received (R-8.4); doubled under the house rule double_souls_half_sparks."""
    if g.rules[G.V_DOUBLE_SOULS] == 1:
        souls *= 2
    game = s.pub[G.R_GAME]
    game[G.G_SOULS] += souls
    game[G.G_SOULS_EARNED] += souls
    glog(s, G.EV_SOULS, souls, game[G.G_SOULS], 0, 0)


@gk
def defeat(g, s, tile: int) -> None:
    """R-8.5: souls dropped where the party fell (souls already lying on the map are lost first, JP), every
    ember removed (R-3.8), a forced rest; at 0 sparks the game is lost (R-5.10; campaign A-56)."""
    game = s.pub[G.R_GAME]
    game[G.G_LOST] += 1
    if game[G.G_DROPPED_TILE] >= 0 and game[G.G_DROPPED_TILE] < G.MAX_TILES:
        s.pub[G.R_TILES + game[G.G_DROPPED_TILE], G.TL_SOULS] = 0
    game[G.G_DROPPED] = game[G.G_SOULS]
    game[G.G_DROPPED_TILE] = tile if game[G.G_SOULS] > 0 else -1
    if tile < G.MAX_TILES and game[G.G_SOULS] > 0:
        s.pub[G.R_TILES + tile, G.TL_SOULS] = game[G.G_SOULS]
    game[G.G_SOULS] = 0
    for seat in range(game[G.G_N_CHARS]):
        s.pub[G.R_PARTY + seat, G.P_EMBER] = 0
    glog(s, G.EV_DEFEAT, game[G.G_DROPPED], game[G.G_SPARKS], tile, 0)
    if game[G.G_SPARKS] <= 0:
        game[G.G_OVER] = G.RESULT_LOST
        glog(s, G.EV_LOST, 0, 0, 0, 0)
        return
    rest(g, s, True, False)
    if game[G.G_CAMPAIGN] == 1 and g.rules[G.V_CAMPAIGN_END] == 1 and game[G.G_SPARKS] == 0:
        game[G.G_OVER] = G.RESULT_LOST  # A-56 dial_reaches_zero
        glog(s, G.EV_LOST, 0, 0, 0, 0)


@gk
def retrieve(s, tile: int) -> None:
    """R-8.6: souls dropped on this tile go back to the cache when the party wins its battle again (the
    simulator's reading: a won battle reaches the node; a later defeat loses them, R-8.5 JP)."""
    game = s.pub[G.R_GAME]
    if game[G.G_DROPPED_TILE] == tile and game[G.G_DROPPED] > 0:
        souls = game[G.G_DROPPED]
        game[G.G_SOULS] += souls
        game[G.G_DROPPED] = 0
        game[G.G_DROPPED_TILE] = -1
        if tile < G.MAX_TILES:
            s.pub[G.R_TILES + tile, G.TL_SOULS] = 0
        glog(s, G.EV_RETRIEVE, souls, game[G.G_SOULS], 0, 0)


# --- battles ---------------------------------------------------------------------------------------
@gk
def fill_scenario(g, s, sc) -> None:
    """The party's gear and tokens into a battle's scenario (``SC_EQUIP``, ``SC_TOKENS``, ``SC_FIRST``)."""
    game = s.pub[G.R_GAME]
    sc[X.SC_CARRY] = 1
    sc[X.SC_FIRST] = game[G.G_NEXT_CHAR]
    # what the game needs: a boss battle is won at any cost; any other battle is won keeping the estus, luck and
    # heroic action for the boss ahead where it allows (the battle policy decides what that means)
    sc[X.SC_NEED] = BL.NEED_WIN if sc[X.SC_IS_BOSS] == 1 else BL.NEED_KEEP
    # a campaign party may retreat from a battle without a boss (A-51 when)
    retreat = game[G.G_CAMPAIGN] == 1 and sc[X.SC_IS_BOSS] == 0
    sc[X.SC_RETREAT] = 1 + g.rules[G.V_RETREAT_TIMING] if retreat else 0
    for seat in range(game[G.G_N_CHARS]):
        p = s.pub[G.R_PARTY + seat]
        for slot in range(G.N_SLOTS):
            card = p[G.P_SLOT + slot]
            sc[X.SC_EQUIP + 5 * seat + slot] = instance(g, s, card) if card >= 0 else -1
        tokens = X.SC_TOKENS + X.TOKEN_FIELDS * seat
        sc[tokens] = p[G.P_ESTUS]
        sc[tokens + 1] = p[G.P_LUCK]
        sc[tokens + 2] = p[G.P_HEROIC]
        sc[tokens + 3] = p[G.P_EMBER]
        sc[tokens + 4] = p[G.P_DAMAGE]
        sc[tokens + 5] = p[G.P_STAMINA]
        sc[tokens + 6] = p[G.P_COND]


@gk
def fight(g, s, t, b, policy, seed: int, stream: int) -> int:
    """Play one battle on tables ``t`` (scenario filled) and carry its tokens back (R-5.9, R-8.3, R-8.7):
    estus, luck, heroic action and ember as the battle left them; the first-activation token to the
    character after the last to activate. Returns the battle's outcome (``BL.OUT_*``)."""
    game = s.pub[G.R_GAME]
    fill_scenario(g, s, t.scen)
    number = s.cursor[C_BATTLES]
    run_battle(t, b, policy, seed, stream, number)
    st = b.st
    retreated = st[BL.G_OUTCOME] == BL.OUT_RETREAT
    for seat in range(game[G.G_N_CHARS]):
        p = s.pub[G.R_PARTY + seat]
        p[G.P_ESTUS] = st[ci(seat, BL.C_ESTUS)]
        p[G.P_LUCK] = st[ci(seat, BL.C_LUCK)]
        p[G.P_HEROIC] = st[ci(seat, BL.C_HEROIC)]
        p[G.P_EMBER] = st[ci(seat, BL.C_EMBER)]
        # a battle's end clears cubes and conditions: after a retreat the red cubes stay
        # (A-52 black cubes, A-53 conditions)
        p[G.P_DAMAGE] = st[ci(seat, BL.C_DAMAGE)] if retreated else 0
        p[G.P_STAMINA] = st[ci(seat, BL.C_STAMINA)] if retreated and g.rules[G.V_RETREAT_STAMINA] == 1 else 0
        p[G.P_COND] = st[ci(seat, BL.C_COND)] if retreated and g.rules[G.V_RETREAT_CONDITIONS] == 1 else 0
    game[G.G_NEXT_CHAR] = st[BL.G_NEXT_CHAR]
    game[G.G_BATTLES] += 1
    s.cursor[C_BATTLES] = number + 1
    return st[BL.G_OUTCOME]


@gk
def boss_health(t, b) -> int:
    """Health left on the boss figures at the end of a boss battle."""
    left = 0
    for e in range(b.st[BL.G_N_ENEMIES]):
        et = b.st[ei(e, BL.E_TYPE)]
        if t.etypes[et, BL.ET_IS_BOSS] == 1 and b.st[ei(e, BL.E_ALIVE)] == 1:
            left += t.etypes[et, BL.ET_HEALTH] - b.st[ei(e, BL.E_WOUNDS)]
    return left


@gk
def explore(g, s, strategy, params, te, b, policy, seed: int, stream: int, tile: int) -> None:
    """R-6.2: entering a tile whose card is face down starts its battle (R-7, R-8); a win clears it, pays
    2 souls per character (R-8.4) and lets the party open its chests (R-7.6, D-12); a loss is a defeat."""
    game = s.pub[G.R_GAME]
    t = s.pub[G.R_TILES + tile]
    card = t[G.TL_CARD]
    for i in range(te.scen.shape[0]):  # the card's scenario and walk distances into the thread's tables
        te.scen[i] = g.enc_scen[card, i]
    n = te.dwalk0.shape[0]
    for x in range(n):
        for y in range(n):
            te.dwalk0[x, y] = g.enc_dwalk[card, x, y]
    known = t[G.TL_TRAPS_SET] == 1
    if known:  # the traps lie where the tile's last battle left them, turned face down
        te.scen[X.SC_TRAPS_GIVEN] = 1
        for node in range(min(n, G.TRAP_NODES)):
            te.scen[X.SC_TRAP_LAYOUT + node] = s.traps[tile, node]
    result = fight(g, s, te, b, policy, seed, stream)
    if te.scen[X.SC_TRAPS] == 1:
        t[G.TL_TRAPS_SET] = 1
        for node in range(min(n, G.TRAP_NODES)):
            token = b.st[ni(node, BL.N_TRAP)]
            s.traps[tile, node] = token
            # what the players know: where the tokens lie, and the value of each one sprung face up so far
            if token < 0:
                t[G.TL_TRAP0 + node] = -1
            elif b.st[ni(node, BL.N_TRAP_UP)] == 1:
                t[G.TL_TRAP0 + node] = token
            elif not known:
                t[G.TL_TRAP0 + node] = G.TRAP_HIDDEN
    glog(s, G.EV_BATTLE, tile, result, s.cursor[C_BATTLES] - 1, b.st[BL.G_ROUND])
    if result == BL.OUT_RETREAT:  # no souls, the card face down, to be fought (or fled) again
        s.out[G.OUT_RETREATS] += 1
        return
    if result != BL.OUT_WIN:
        defeat(g, s, tile)
        return
    t[G.TL_CLEARED] = 1
    if t[G.TL_FOG] == 1:
        game[G.G_FOG] = 1
    earn(g, s, 2 * game[G.G_N_CHARS])
    retrieve(s, tile)
    while t[G.TL_OPENED] < t[G.TL_CHESTS]:
        opt(s, 0, G.OPT_STOP, -1, tile, 0, -1, 0, 0, 0, 0, t[G.TL_LEVEL])
        opt(s, 1, G.OPT_OPEN, -1, tile, 0, -1, 0, 0, 0, 0, t[G.TL_LEVEL])
        if s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_CHEST, 2), G.O_KIND] != G.OPT_OPEN:
            break
        t[G.TL_OPENED] += 1
        glog(s, G.EV_CHEST, tile, 0, 0, 0)
        for _ in range(2):  # two treasure cards, equipped at once or to the inventory
            draw(g, s, strategy, params, True)


@gk
def tiers(s) -> int:
    total = 0
    for seat in range(s.pub[G.R_GAME, G.G_N_CHARS]):
        for k in range(G.N_STATS):
            total += s.pub[G.R_PARTY + seat, G.P_TIER + k]
    return total


@gk
def record_gear(g, s, boss: int) -> None:
    """The party's tiers and gear at a boss's first fight (outcome columns)."""
    s.out[G.OUT_TIERS_MAIN if boss == 1 else G.OUT_TIERS_MINI] = tiers(s)
    for seat in range(s.pub[G.R_GAME, G.G_N_CHARS]):
        for slot in range(G.GEAR_SLOTS):
            card = s.pub[G.R_PARTY + seat, G.P_SLOT + slot]
            s.out[G.OUT_GEAR + (boss * G.MAX_CHARS + seat) * G.GEAR_SLOTS + slot] = instance(g, s, card) if card >= 0 else -1


@gk
def face_up_gravestones(g, s) -> int:
    """R-12.5 step 3, R-7.4: the gravestones on tiles whose encounter card is face up (won since the last rest).
    In a chain every tile lies on the way to the fog gate, so that is all of the area's; in a star the tiles the
    party never fought keep their cards face down and reveal nothing."""
    graves = 0
    for k in range(s.pub[G.R_GAME, G.G_N_TILES]):
        t = s.pub[G.R_TILES + k]
        if t[G.TL_CLEARED] == 1 and t[G.TL_CARD] >= 0:
            graves += g.enc_info[t[G.TL_CARD], 2]
    return graves


@gk
def boss_battle(g, s, strategy, params, tb, b, policy, seed: int, stream: int) -> None:
    """R-12: the area's next boss battle, with one behaviour card revealed per gravestone on the area's face-up
    cards (R-12.5). A win pays 1 soul per character per spark left (R-8.4); the area's last fight won closes the area
    (R-12.27); a defeat sends the party back and the area's fights start over (R-13.10: two Gargoyles in a row)."""
    game = s.pub[G.R_GAME]
    area = game[G.G_AREA]
    final = area == g.numbers[G.N_AREAS] - 1
    slot = 1 if final else (0 if area == 0 else -1)  # outcome columns: the first area's boss and the final boss
    fights = G.OUT_MAIN_FIGHTS if slot == 1 else G.OUT_MINI_FIGHTS
    if slot >= 0:
        if s.out[fights] == 0:
            record_gear(g, s, slot)
        s.out[fights] += 1
    game[G.G_REACHED] = max(game[G.G_REACHED], 2 * area + 1)
    tb.scen[X.SC_GRAVESTONES] = face_up_gravestones(g, s)
    result = fight(g, s, tb, b, policy, seed, stream)
    glog(s, G.EV_BATTLE, G.TILE_BOSS + g.area_bosses[area, game[G.G_FIGHT]], result, s.cursor[C_BATTLES] - 1,
         b.st[BL.G_ROUND])
    if final:
        s.out[G.OUT_MAIN_HEALTH] = boss_health(tb, b)
    if result != BL.OUT_WIN:
        game[G.G_FIGHT] = 0
        defeat(g, s, G.TILE_BOSS)
        return
    if slot >= 0:
        s.out[G.OUT_MAIN_FIRST if slot == 1 else G.OUT_MINI_FIRST] = 1 if s.out[fights] == 1 else 0
    if g.rules[G.V_OPTIMAL_BOSS] == 1:  # house rule optimal_boss_rewards: a map cleared per spark left
        earn(g, s, game[G.G_SPARKS] * game[G.G_N_TILES] * 2 * game[G.G_N_CHARS])
    else:
        earn(g, s, game[G.G_N_CHARS] * game[G.G_SPARKS])  # R-8.4 (JP: nothing at 0 sparks)
    retrieve(s, G.TILE_BOSS)
    game[G.G_FIGHT] += 1
    if game[G.G_FIGHT] < G.MAX_FIGHTS and g.area_bosses[area, game[G.G_FIGHT]] >= 0:
        return  # the next fight of the area follows at once
    if final:
        game[G.G_OVER] = G.RESULT_WON
        game[G.G_REACHED] = 2 * g.numbers[G.N_AREAS]
        glog(s, G.EV_WON, 0, 0, 0, 0)
        return
    area_won(g, s)


@gk
def second_tier(g, card: int) -> bool:
    """House rule treasure_tiers (BGG thread 1780370): more than 20 needed in two stats or more than 30 in one."""
    over20 = 0
    over30 = False
    for k in range(G.N_STATS):
        need = g.cards[card, G.K_REQ + k]
        over20 += 1 if need > 20 else 0
        over30 = over30 or need > 30
    return over20 > 1 or over30


@gk
def add_treasure(g, s) -> None:
    """R-1.12: the advanced cards of the classes in play and N random legendary cards of those still in the box
    are shuffled into the treasure deck (house rule treasure_tiers: with the common cards held back at setup)."""
    n_cards = g.cards.shape[0]
    for card in range(n_cards):
        group = g.cards[card, G.K_GROUP]
        if (group == G.GROUP_ADVANCED or group == G.GROUP_COMMON) and s.where[card, G.W_PLACE] == G.LOC_BOX:
            add_to_deck(s, card)
    pool = 0
    for card in range(n_cards):
        if g.cards[card, G.K_GROUP] == G.GROUP_LEGENDARY and s.where[card, G.W_PLACE] == G.LOC_BOX:
            pool += 1
    added = 0
    while added < g.numbers[G.N_LEGENDARY] and pool > 0:
        pick = randint(s.rng, pool)
        for card in range(n_cards):
            if g.cards[card, G.K_GROUP] == G.GROUP_LEGENDARY and s.where[card, G.W_PLACE] == G.LOC_BOX:
                if pick == 0:
                    add_to_deck(s, card)
                    break
                pick -= 1
        pool -= 1
        added += 1
    shuffle_deck(s)


@gk
def area_won(g, s) -> None:
    """R-12.27, R-1.12 (R-13.2 for a scenario's part): the area's boss treasure to the inventory; a new map for the
    next area; the dial back to its start (campaign R-13.5: +1 spark instead, A-54); advanced and legendary
    treasure into the deck after the mini boss (campaign A-55); a rest without a spark; dropped souls lost
    (A-6), chests fresh (A-7)."""
    game = s.pub[G.R_GAME]
    area = game[G.G_AREA]
    given = 0
    for card in range(g.cards.shape[0]):
        boss = g.cards[card, G.K_BOSS]
        if g.cards[card, G.K_GROUP] == G.GROUP_BOSS and s.where[card, G.W_PLACE] == G.LOC_BOX and boss >= 0 and \
                (g.area_bosses[area, 0] == boss or g.area_bosses[area, 1] == boss):
            to_inventory(g, s, card)
            given += 1
    glog(s, G.EV_AREA_WON, given, area, 0, 0)
    if game[G.G_DROPPED] > 0 and g.rules[G.V_DROPPED_AFTER_MINI] == 1:
        game[G.G_SOULS] += game[G.G_DROPPED]
    game[G.G_DROPPED] = 0
    game[G.G_DROPPED_TILE] = -1
    opened = 0
    keep = g.rules[G.V_CHESTS_AFTER_MINI] == 1
    if keep:  # A-7 keep_opened: a tile position whose chest was opened stays opened
        for k in range(game[G.G_N_TILES]):
            opened |= (1 << k) if s.pub[G.R_TILES + k, G.TL_OPENED] > 0 else 0
    deal(g, s, area + 1)
    if keep:
        for k in range(game[G.G_N_TILES]):
            if opened & (1 << k):
                s.pub[G.R_TILES + k, G.TL_OPENED] = s.pub[G.R_TILES + k, G.TL_CHESTS]
    if game[G.G_CAMPAIGN] == 1:  # no reset; +1 spark (A-54 capped at the start)
        game[G.G_SPARKS] += 1
        if g.rules[G.V_SPARK_GAIN_CAP] == 0:
            game[G.G_SPARKS] = min(game[G.G_SPARKS], game[G.G_START_SPARKS])
        rule = g.rules[G.V_CAMPAIGN_TREASURE]
        if (rule == 0 and area == 0) or rule == 1:
            add_treasure(g, s)
    else:
        game[G.G_SPARKS] = game[G.G_START_SPARKS]
        if area == 0:
            add_treasure(g, s)
    game[G.G_AREA] = area + 1
    game[G.G_FIGHT] = 0
    game[G.G_STAGE] = 2 * (area + 1)
    game[G.G_REACHED] = max(game[G.G_REACHED], 2 * (area + 1))
    game[G.G_BOSS_FIGHTS] = 0
    rest(g, s, False, False)  # step 7: a rest without a spark


# --- the bonfire (R-5.4–) ---------------------------------------------------------
@gk
def level_cost(g, s, tier: int) -> int:
    """R-5.7 (2, 4, 8), campaign R-13.9 (4, 8, 16, tier 4: 20); 0 = not allowed."""
    if s.pub[G.R_GAME, G.G_CAMPAIGN] == 1:
        return LEVEL_COST_CAMPAIGN[tier] if tier < 4 else 0
    return LEVEL_COST[tier] if tier < 3 else 0


@gk
def max_tier(s) -> int:
    """R-3.10: tier 3; campaign R-13.9: tier 4."""
    return 4 if s.pub[G.R_GAME, G.G_CAMPAIGN] == 1 else 3


@gk
def tiers_needed(g, s, seat: int, card: int) -> int:
    """Tiers ``seat`` must raise in all to equip ``card`` (R-3.10); -1 if no tiers will do."""
    p = s.pub[G.R_PARTY + seat]
    total = 0
    for k in range(G.N_STATS):
        need = -1
        for tier in range(p[G.P_TIER + k], max_tier(s) + 1):
            if g.stats[seat, k, tier] >= requirement(g, s, card, k):
                need = tier - p[G.P_TIER + k]
                break
        if need < 0:
            return -1
        total += need
    return total


@gk
def unlocked(g, s, seat: int, stat: int) -> tuple[int, int]:
    """The best inventory card ``seat`` could equip after raising ``stat`` (and any other stats it needs), with
    the tiers that takes in all; (-1, 0) if none needs ``stat``. Worth ties go to fewer tiers."""
    best = -1
    worth = -1
    steps = 0
    p = s.pub[G.R_PARTY + seat]
    for card in range(g.cards.shape[0]):
        if s.where[card, G.W_PLACE] != G.LOC_INVENTORY or g.cards[card, G.K_ITEM] < 0:
            continue
        if g.stats[seat, stat, p[G.P_TIER + stat]] >= requirement(g, s, card, stat):
            continue  # this stat is not what keeps it out of reach
        need = tiers_needed(g, s, seat, card)
        if need <= 0:
            continue
        w = worth_of(g, s, card, 0) + worth_of(g, s, card, 1)
        if w > worth or (w == worth and need < steps):
            best, worth, steps = card, w, need
    return best, steps


@gk
def spend_options(g, s) -> int:
    """R-5.4 buy, R-5.7 level, R-5.8 luck, campaign R-13.5 sparks and R-13.8 selling; row 0 stops."""
    game = s.pub[G.R_GAME]
    souls = game[G.G_SOULS]
    opt(s, 0, G.OPT_STOP, -1, -1, 0, -1, 0, 0, 0, 0, 0)
    n = 1
    price = game[G.G_PRICE]
    if souls >= price and (s.cursor[C_DECK] > 0 or (g.rules[G.V_DECK_EMPTY] == 1 and inventory_size(g, s) > 0)):
        opt(s, n, G.OPT_BUY, -1, -1, price, -1, 0, 0, 0, 0, 0)
        n += 1
    for seat in range(game[G.G_N_CHARS]):
        p = s.pub[G.R_PARTY + seat]
        for stat in range(G.N_STATS):
            cost = level_cost(g, s, p[G.P_TIER + stat])
            if cost > 0 and cost <= souls and n < G.MAX_OPTS:
                card, steps = unlocked(g, s, seat, stat)
                opt(s, n, G.OPT_LEVEL, seat, stat, cost, card, worth_of(g, s, card, 0),
                    worth_of(g, s, card, 1), 0, 0, steps)
                n += 1
        if p[G.P_LUCK] == 0 and souls >= 1 and n < G.MAX_OPTS:
            opt(s, n, G.OPT_LUCK, seat, 0, 1, -1, 0, 0, 0, 0, 0)
            n += 1
    if game[G.G_CAMPAIGN] == 1:
        cost = 2 * game[G.G_N_CHARS]  # 2 souls per character, up to the starting dial
        if game[G.G_SPARKS] < game[G.G_START_SPARKS] and souls >= cost and n < G.MAX_OPTS:
            opt(s, n, G.OPT_SPARK, -1, 0, cost, -1, 0, 0, 0, 0, 0)
            n += 1
        for card in range(g.cards.shape[0]):  # sell a card not in use for 1 soul
            if s.where[card, G.W_PLACE] == G.LOC_INVENTORY and n < G.MAX_OPTS:
                opt(s, n, G.OPT_SELL, -1, 0, -1, card, worth_of(g, s, card, 0), worth_of(g, s, card, 1),
                    0, 0, 0)
                n += 1
    return n


@gk
def inventory_size(g, s) -> int:
    n = 0
    for card in range(g.cards.shape[0]):
        n += 1 if s.where[card, G.W_PLACE] == G.LOC_INVENTORY else 0
    return n


@gk
def pay(s, souls: int) -> None:
    game = s.pub[G.R_GAME]
    game[G.G_SOULS] -= souls
    game[G.G_SOULS_SPENT] += souls


@gk
def upgrade_options(g, s, up: int) -> int:
    """R-4.7: the items ``up`` can go on — weapons for a weapon upgrade, armour for an armour upgrade, with an
    upgrade slot and none on it yet, equipped or in the inventory; an equipped item only if its holder meets the
    upgrade's requirements too (R-4.5). Row 0 leaves the card in the inventory."""
    opt(s, 0, G.OPT_STOP, -1, -1, 0, -1, 0, 0, 0, 0, 0)
    n = 1
    u = g.cards[up, G.K_UPGRADE]
    for card in range(g.cards.shape[0]):
        place = s.where[card, G.W_PLACE]
        if (place != G.LOC_EQUIPPED and place != G.LOC_INVENTORY) or n >= G.MAX_OPTS:
            continue
        base = g.cards[card, G.K_ITEM]
        if base < 0 or s.where[card, G.W_LINK] >= 0 or g.upgraded[base, u] < 0:
            continue
        seat = s.where[card, G.W_SEAT] if place == G.LOC_EQUIPPED else -1
        if seat >= 0:
            p = s.pub[G.R_PARTY + seat]
            ok = True
            for k in range(G.N_STATS):
                ok = ok and g.stats[seat, k, p[G.P_TIER + k]] >= g.cards[up, G.K_REQ + k]
            if not ok:
                continue
        inst = g.upgraded[base, u]
        opt(s, n, G.OPT_UPGRADE, seat, -1, 0, card, g.worth[inst, 0], g.worth[inst, 1], worth_of(g, s, card, 0),
            worth_of(g, s, card, 1), 0)
        n += 1
    return n


@gk
def upgrade(g, s, strategy, params, up: int) -> None:
    """D-9, R-5.6: the strategy puts the upgrade card on an item, at no cost (R-4.7), or keeps it."""
    n = upgrade_options(g, s, up)
    row = s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_UPGRADE, n)]
    if row[G.O_KIND] != G.OPT_UPGRADE:
        return
    card = row[G.O_CARD]
    s.where[up, G.W_PLACE] = G.LOC_ATTACHED
    s.where[up, G.W_SEAT] = -1
    s.where[up, G.W_LINK] = card
    s.where[card, G.W_LINK] = up
    if row[G.O_SEAT] >= 0:
        refresh_worth(g, s, row[G.O_SEAT])
    glog(s, G.EV_UPGRADE, up, card, row[G.O_SEAT], 0)


@gk
def pick_option(g, s, i: int, card: int) -> None:
    """Option row ``i`` of the hook pick: ``card``, its worth, and the character nearest to using it (``O_SEAT``,
    the tiers it still needs in ``O_LEVEL``; -1 and 0 when nobody can ever, or an Ember) with the worth of what
    that character holds (``O_OLD_ATTACK``: its best hand; ``O_OLD_DEFENCE``: its kit's defence)."""
    seat, need = -1, 1 << 20
    if g.cards[card, G.K_ITEM] >= 0:
        for c in range(s.pub[G.R_GAME, G.G_N_CHARS]):
            k = tiers_needed(g, s, c, card)
            if 0 <= k < need:
                seat, need = c, k
    old_a = s.pub[G.R_PARTY + seat, G.P_ATTACK] if seat >= 0 else 0
    old_d = s.pub[G.R_PARTY + seat, G.P_DEFENCE] if seat >= 0 else 0
    opt(s, i, G.OPT_PICK, seat, 0, 0, card, worth_of(g, s, card, 0), worth_of(g, s, card, 1), old_a, old_d,
        need if seat >= 0 else 0)


@gk
def tiny_shop(g, s, strategy, params) -> None:
    """House rule tiny_shop: look at the top two cards, keep one on top (the purchase then draws it), the other
    to the bottom of the deck."""
    refill_deck(g, s)
    n = s.cursor[C_DECK]
    if n < 2:
        return
    pick_option(g, s, 0, s.deck[n - 1])
    pick_option(g, s, 1, s.deck[n - 2])
    if ask(s, strategy, params, G.GH_PICK, 2) == 1:
        s.deck[n - 1], s.deck[n - 2] = s.deck[n - 2], s.deck[n - 1]
    under = s.deck[n - 2]  # the card not kept: to the bottom
    for i in range(n - 2, 0, -1):
        s.deck[i] = s.deck[i - 1]
    s.deck[0] = under


@gk
def bonfire(g, s, strategy, params) -> None:
    """F-5.1: at the bonfire, without resting: upgrades (R-5.6) and equipment changes at Andre (R-5.5, D-9),
    then buying, levelling and luck in the strategy's order until it stops (D-13)."""
    for card in range(g.cards.shape[0]):  # upgrade cards in the inventory
        if s.where[card, G.W_PLACE] == G.LOC_INVENTORY and g.cards[card, G.K_SLOT] == G.KIND_UPGRADE:
            upgrade(g, s, strategy, params, card)
    for card in range(g.cards.shape[0]):  # inventory cards someone can equip
        if s.where[card, G.W_PLACE] == G.LOC_INVENTORY and g.cards[card, G.K_ITEM] >= 0:
            place(g, s, strategy, params, card, False)
    game = s.pub[G.R_GAME]
    for _ in range(10_000):
        n = spend_options(g, s)
        row = s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_SPEND, n)]
        kind = row[G.O_KIND]
        if kind == G.OPT_STOP:
            return
        seat = row[G.O_SEAT]
        if kind == G.OPT_BUY:
            pay(s, row[G.O_COST])
            glog(s, G.EV_BUY, -1, row[G.O_COST], 0, 0)
            if g.rules[G.V_TINY_SHOP] == 1:
                tiny_shop(g, s, strategy, params)
            draw(g, s, strategy, params, False)
        elif kind == G.OPT_LEVEL:
            stat = row[G.O_ARG]
            card = row[G.O_CARD]
            pay(s, row[G.O_COST])
            p = s.pub[G.R_PARTY + seat]
            p[G.P_TIER + stat] += 1
            glog(s, G.EV_LEVEL, seat, stat, p[G.P_TIER + stat], row[G.O_COST])
            if card >= 0 and meets(g, s, seat, card, stat, 0):
                place(g, s, strategy, params, card, False)
        elif kind == G.OPT_LUCK:
            pay(s, 1)
            s.pub[G.R_PARTY + seat, G.P_LUCK] = 1
            glog(s, G.EV_LUCK, seat, 1, 0, 0)
        elif kind == G.OPT_SPARK:
            pay(s, row[G.O_COST])
            game[G.G_SPARKS] += 1
            glog(s, G.EV_SPARK, game[G.G_SPARKS], row[G.O_COST], 0, 0)
        elif kind == G.OPT_SELL:  # 1 soul, the card is out of the campaign
            card = row[G.O_CARD]
            game[G.G_SOULS] += 1
            s.where[card, G.W_PLACE] = G.LOC_GONE
            glog(s, G.EV_SELL, card, 0, 0, 0)


@gk
def route_options(g, s) -> int:
    """R-6.2, R-6.4, R-5.9: the tiles the party can reach whose card is face down (``chain``: the first such
    tile along the chain; ``star``: any), the boss once the fog gate is won, and a rest while sparks last."""
    game = s.pub[G.R_GAME]
    n = 0
    for k in range(game[G.G_N_TILES]):
        t = s.pub[G.R_TILES + k]
        if t[G.TL_CLEARED] == 0:
            opt(s, n, G.OPT_EXPLORE, -1, k, 0, t[G.TL_CARD], 0, 0, 0, 0, t[G.TL_LEVEL])
            n += 1
            if g.rules[G.V_TILE_LAYOUT] == 0:  # a chain: the tiles beyond it are out of reach
                break
    if game[G.G_FOG] == 1:
        opt(s, n, G.OPT_BOSS, -1, -1, 0, -1, 0, 0, 0, 0, 0)
        n += 1
    if game[G.G_SPARKS] > 0:
        opt(s, n, G.OPT_REST, -1, -1, 0, -1, 0, 0, 0, 0, 0)
        n += 1
    return n


# --- a whole game (R-6.6) ----------------------------------------------------------------------------
@gk
def setup(g, s, n_chars: int) -> None:
    """R-1: the dial (R-1.4), the soul cache (R-1.10), starting kits and tokens (R-1.7), the treasure deck of
    common and class cards (R-1.8), the map for the mini boss (R-1.2, R-1.3, R-1.6)."""
    s.pub[:, :] = 0
    s.where[:, G.W_PLACE] = G.LOC_BOX
    s.where[:, G.W_SEAT] = -1
    s.where[:, G.W_LINK] = -1
    s.used[:] = 0
    s.out[:] = 0
    s.cursor[C_DECK] = 0
    game = s.pub[G.R_GAME]
    game[G.G_N_CHARS] = n_chars
    campaign = g.numbers[G.N_CAMPAIGN]
    game[G.G_CAMPAIGN] = campaign
    sparks = max(0, 6 - n_chars + g.rules[G.V_SPARKS_DELTA])  # R-1.4 (house rule sparks_delta)
    if g.rules[G.V_DOUBLE_SOULS] == 1:  # house rule double_souls_half_sparks: the dial halved, rounded up
        sparks = (sparks + 1) // 2
    game[G.G_SPARKS] = sparks
    game[G.G_START_SPARKS] = sparks
    souls = g.rules[G.V_STARTING_SOULS]  # house rule starting_souls; -1
    game[G.G_SOULS] = souls if souls >= 0 else (16 if n_chars == 1 else 0)
    game[G.G_PRICE] = 2 if campaign == 1 else 1
    game[G.G_NEXT_CHAR] = -1
    game[G.G_DROPPED_TILE] = -1
    for seat in range(n_chars):
        p = s.pub[G.R_PARTY + seat]
        p[G.P_ESTUS] = g.numbers[G.N_ESTUS]
        p[G.P_LUCK] = 1
        p[G.P_HEROIC] = 1
        p[G.P_CHAR] = seat
        for slot in range(G.N_SLOTS):
            card = g.kits[seat, slot]
            p[G.P_SLOT + slot] = card
            if card >= 0:
                s.where[card, G.W_PLACE] = G.LOC_EQUIPPED
                s.where[card, G.W_SEAT] = seat
        refresh_worth(g, s, seat)
    for card in range(g.cards.shape[0]):
        group = g.cards[card, G.K_GROUP]
        if group == G.GROUP_COMMON and g.rules[G.V_TREASURE_TIERS] == 1 and second_tier(g, card):
            continue  # house rule treasure_tiers: it waits in the box for the mini boss (add_treasure)
        if group == G.GROUP_COMMON or group == G.GROUP_CLASS or group == G.GROUP_EMBER:
            add_to_deck(s, card)
    shuffle_deck(s)
    glog(s, G.EV_SETUP, sparks, game[G.G_SOULS], 0, 0)
    deal(g, s, 0)


@gk
def play_game(g, s, te, tb0, tb1, tb2, bt, ba, policy, strategy, params, seed: int, stream: int, index: int) -> None:
    """Game ``index`` from setup to its end: the bonfire, then the strategy's route (a tile, the boss or a
    rest) until the main boss falls, the sparks run out (R-5.10) or the battle cap is reached."""
    key = battle_key(seed, stream, index)
    battles = np.int64(key >> np.uint64(1))  # the game's battles draw from (seed, this, battle number)
    s.rng[0] = battle_key(seed, battles, GAME_KEY)
    s.rng[1] = 0
    s.cursor[C_EVENTS] = 0
    s.cursor[C_BATTLES] = 0
    setup(g, s, te.scen[X.SC_N_CHARS])
    game = s.pub[G.R_GAME]
    while game[G.G_OVER] == G.RESULT_NONE:
        if s.cursor[C_BATTLES] >= g.rules[G.V_MAX_BATTLES] or (0 <= s.cursor[C_STOP] < s.cursor[C_BATTLES]):
            game[G.G_OVER] = G.RESULT_CAPPED
            glog(s, G.EV_CAPPED, 0, 0, 0, 0)
            break
        bonfire(g, s, strategy, params)
        n = route_options(g, s)
        row = s.pub[G.R_OPTS + ask(s, strategy, params, G.GH_ROUTE, n)]
        kind = row[G.O_KIND]
        if kind == G.OPT_REST:
            rest(g, s, True, True)
            if game[G.G_CAMPAIGN] == 1 and g.rules[G.V_CAMPAIGN_END] == 1 and game[G.G_SPARKS] == 0:
                game[G.G_OVER] = G.RESULT_LOST
        elif kind == G.OPT_BOSS:
            area = game[G.G_AREA]
            while game[G.G_OVER] == G.RESULT_NONE and game[G.G_AREA] == area:  # the area's fights, in a row
                k = g.area_bosses[area, game[G.G_FIGHT]]
                fight_boss(g, s, strategy, params, tb0, tb1, tb2, bt, ba, policy, seed, battles, k)
                if game[G.G_FIGHT] == 0:  # lost: back to the bonfire
                    break
        else:
            explore(g, s, strategy, params, te, bt, policy, seed, battles, row[G.O_ARG])
    summarise(s)


@gk
def fight_boss(g, s, strategy, params, tb0, tb1, tb2, bt, ba, policy, seed: int, stream: int, k: int) -> None:
    """Boss ``k``'s battle on its tables, with the battle buffers that fit its board (a main boss: the arena)."""
    if k == 0:
        boss_battle(g, s, strategy, params, tb0, bt if tb0.steps.shape[0] == bt.dwalk.shape[0] else ba, policy,
                    seed, stream)
    elif k == 1:
        boss_battle(g, s, strategy, params, tb1, bt if tb1.steps.shape[0] == bt.dwalk.shape[0] else ba, policy,
                    seed, stream)
    else:
        boss_battle(g, s, strategy, params, tb2, bt if tb2.steps.shape[0] == bt.dwalk.shape[0] else ba, policy,
                    seed, stream)


@gk
def summarise(s) -> None:
    """The game's outcome row (``layout.OUTCOME_NAMES``)."""
    game = s.pub[G.R_GAME]
    out = s.out
    out[G.OUT_RESULT] = game[G.G_OVER]
    out[G.OUT_STAGE] = game[G.G_REACHED]
    out[G.OUT_SPARKS] = game[G.G_SPARKS]
    out[G.OUT_BATTLES] = game[G.G_BATTLES]
    out[G.OUT_LOST] = game[G.G_LOST]
    out[G.OUT_EARNED] = game[G.G_SOULS_EARNED]
    out[G.OUT_SPENT] = game[G.G_SOULS_SPENT]
    out[G.OUT_DRAWN] = game[G.G_DRAWN]
    out[G.OUT_RESTS] = game[G.G_RESTS]
    out[G.OUT_SOULS_LEFT] = game[G.G_SOULS]


@allocating
def game_buffers(n_cards: int, n_encounters: int, max_events: int):
    """Buffers of one game (``max_events`` 0: no log)."""
    return GameState(
        np.zeros((G.ROWS, G.WIDTH), np.int32),
        np.zeros((n_cards, G.W_FIELDS), np.int32),
        np.zeros(n_cards, np.int32),
        np.zeros(n_encounters, np.int32),
        np.zeros(2, np.uint64),
        np.zeros((max_events, G.EV_FIELDS), np.int32),
        np.full(4, -1, np.int32),
        np.zeros(G.N_OUT, np.int32),
        np.zeros((G.MAX_TILES, G.TRAP_NODES), np.int32),
    )


@allocating
def play_block(g, te, tb0, tb1, tb2, policy, strategy, bparams, sparams, seed: int, stream: int, start: int, out) -> None:
    """Games ``start .. start+len(out)-1`` on buffers of their own; the bundles go down by reference
    (:mod:`dsim.numba_ref`)."""
    s = game_buffers(g.cards.shape[0], g.enc_info.shape[0], 0)
    bt = battle_buffers(te.steps.shape[0], bparams)
    ba = battle_buffers(max(tb0.steps.shape[0], tb1.steps.shape[0], tb2.steps.shape[0]), bparams)
    gr, sr, ter, bosses0, bosses1, bosses2 = ref(g), ref(s), ref(te), ref(tb0), ref(tb1), ref(tb2)
    btr, bar = ref(bt), ref(ba)
    for i in range(out.shape[0]):
        play_game(gr, sr, ter, bosses0, bosses1, bosses2, btr, bar, policy, strategy, sparams, seed, stream, start + i)
        out[i, :] = s.out
    keep_alive(s)
    keep_alive(bt)
    keep_alive(ba)


def play_batch_impl(g, te, tb0, tb1, tb2, policy, strategy, bparams, sparams, seed, stream, start, out):
    """Games ``start ..`` one after another (the engine runs one call per thread, each with its own copies of
    the battle tables whose scenario the games write)."""
    play_block(g, te, tb0, tb1, tb2, policy, strategy, bparams, sparams, seed, stream, start, out)


def play_one_impl(g, te, tb0, tb1, tb2, s, bt, ba, policy, strategy, sparams, seed, stream, index):
    """One game on caller-provided buffers (logs and battle traces: ``dsim explain``, rule tests)."""
    play_game(ref(g), ref(s), ref(te), ref(tb0), ref(tb1), ref(tb2), ref(bt), ref(ba), policy, strategy, sparams,
              seed, stream, index)


# steps a rule test can run on a hand-set game (``engine.step``)
STEP_SETUP = 0  # arg: characters
STEP_REST = 1  # arg: 1 voluntary (a spark), 0 the free rest
STEP_DEFEAT = 2  # arg: tile (TILE_BOSS: the boss tile)
STEP_EXPLORE = 3  # arg: tile
STEP_BOSS = 4  # the current area's next boss battle (set G_AREA and G_FIGHT by hand)
STEP_AREA_WON = 5
STEP_BONFIRE = 6
STEP_DRAW = 7  # arg: 1 = from a chest
STEP_DEAL = 8  # arg: the area
STEP_ROUTE = 9  # fills the route options (their count in cursor[C_EVENTS])
STEP_SPEND = 10  # fills the bonfire's spending options (their count in cursor[C_EVENTS])
STEP_UPGRADE = 11  # arg: the upgrade card (the strategy picks its item)


def step_impl(g, te, tb0, tb1, tb2, s, bt, ba, policy, strategy, sparams, seed, what, arg):
    """One step of the game on caller-provided state (rule tests); the battles of a step draw from ``seed``."""
    gr, sr = ref(g), ref(s)
    if what == STEP_SETUP:
        setup(gr, sr, arg)
    elif what == STEP_REST:
        rest(gr, sr, arg == 1, arg == 1)
    elif what == STEP_DEFEAT:
        defeat(gr, sr, arg)
    elif what == STEP_EXPLORE:
        explore(gr, sr, strategy, sparams, ref(te), ref(bt), policy, seed, seed, arg)
    elif what == STEP_BOSS:
        k = g.area_bosses[s.pub[G.R_GAME, G.G_AREA], s.pub[G.R_GAME, G.G_FIGHT]]
        fight_boss(gr, sr, strategy, sparams, ref(tb0), ref(tb1), ref(tb2), ref(bt), ref(ba), policy, seed, seed, k)
    elif what == STEP_AREA_WON:
        area_won(gr, sr)
    elif what == STEP_BONFIRE:
        bonfire(gr, sr, strategy, sparams)
    elif what == STEP_DRAW:
        draw(gr, sr, strategy, sparams, arg == 1)
    elif what == STEP_DEAL:
        deal(gr, sr, arg)
    elif what == STEP_ROUTE:
        s.cursor[C_EVENTS] = route_options(gr, sr)  # the option count, for the test to read
    elif what == STEP_SPEND:
        s.cursor[C_EVENTS] = spend_options(gr, sr)
    elif what == STEP_UPGRADE:
        upgrade(gr, sr, strategy, sparams, arg)
