"""Setup (R-1): the dial, the soul cache, starting kits, the treasure deck (R-1.8) and each area's map (R-1.2,
R-1.3, R-1.6, A-5, A-9); the advanced and legendary treasure added after the mini boss (R-1.12)."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.games.dstbg_game.kernel.state import C_DECK, glog
from dsim.games.dstbg_game.kernel.treasure import add_to_deck, refresh_worth, shuffle_deck
from dsim.rng import randint


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
