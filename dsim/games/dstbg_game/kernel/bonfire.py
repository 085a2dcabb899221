"""The bonfire (R-5.4–R-5.9, R-13.5, R-13.8): resting, upgrades, equipment, then buying, levelling, luck, sparks
and selling in the strategy's order."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.games.dstbg_game.kernel.state import C_DECK, ask, glog, opt
from dsim.games.dstbg_game.kernel.treasure import draw, meets, place, refill_deck, refresh_worth, requirement, worth_of

# Firekeeper prices per tier raised from (standard / campaign)
LEVEL_COST = np.array([2, 4, 8, 0], np.int32)
LEVEL_COST_CAMPAIGN = np.array([4, 8, 16, 20], np.int32)


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
