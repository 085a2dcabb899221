"""The party's cards: requirements (R-3.10), upgrades as they play (R-4.7), equipping (R-4.2, R-5.5) and the
treasure deck (R-5.4, R-3.8, R-7.6, A-8)."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.games.dstbg_game.kernel.state import C_DECK, ask, glog, opt
from dsim.rng import randint


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
