"""The bosses (R-12, R-12.27, R-13.10): an area's boss fights with the gravestones' reveals (R-12.5), the rewards,
and the next area."""

from __future__ import annotations

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.bonfire import rest
from dsim.games.dstbg_game.kernel.exploration import defeat, earn, fight, retrieve
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.games.dstbg_game.kernel.setup import add_treasure, deal
from dsim.games.dstbg_game.kernel.state import C_BATTLES, glog
from dsim.games.dstbg_game.kernel.treasure import instance, to_inventory


@gk
def fight_boss(g, s, strategy, params, bosses, bt, ba, policy, seed: int, stream: int, k: int) -> None:
    """Boss ``k``'s battle on its tables (``bosses``: a reference to each boss's), with the battle buffers that fit
    its board (a main boss: the arena)."""
    tb = bosses[k]
    boss_battle(g, s, strategy, params, tb, bt if tb.steps.shape[0] == bt.dwalk.shape[0] else ba, policy, seed, stream)


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
         b.glob[BL.G_ROUND])
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
def boss_health(t, b) -> int:
    """Health left on the boss figures at the end of a boss battle."""
    left = 0
    for e in range(b.glob[BL.G_N_ENEMIES]):
        et = b.enemies[e, BL.E_TYPE]
        if t.etypes[et, BL.ET_IS_BOSS] == 1 and b.enemies[e, BL.E_ALIVE] == 1:
            left += t.etypes[et, BL.ET_HEALTH] - b.enemies[e, BL.E_WOUNDS]
    return left


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
