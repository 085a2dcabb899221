"""Exploration (R-6, R-7, R-8): the route, a tile's battle with what carries over (R-5.9, R-8.3, R-8.7), souls
(R-8.4), defeat (R-8.5, R-5.10) and dropped souls (R-8.6)."""

from __future__ import annotations

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg.kernel.battle import run_battle
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.bonfire import rest
from dsim.games.dstbg_game.kernel.replay import battle_begin, battle_end
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.games.dstbg_game.kernel.state import C_BATTLES, ask, glog, opt
from dsim.games.dstbg_game.kernel.treasure import draw, instance


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
            token = b.nodes[node, BL.N_TRAP]
            s.traps[tile, node] = token
            # what the players know: where the tokens lie, and the value of each one sprung face up so far
            if token < 0:
                t[G.TL_TRAP0 + node] = -1
            elif b.nodes[node, BL.N_TRAP_UP] == 1:
                t[G.TL_TRAP0 + node] = token
            elif not known:
                t[G.TL_TRAP0 + node] = G.TRAP_HIDDEN
    glog(s, G.EV_BATTLE, tile, result, s.cursor[C_BATTLES] - 1, b.glob[BL.G_ROUND])
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
    replay = battle_begin(b)  # a replay with the searcher's decisions forced (kernel.replay), else 0
    run_battle(t, b, policy, seed, stream, number)
    if replay > 0:
        battle_end(g, s, t, b, stream, number)
    glob, chars = b.glob, b.chars
    retreated = glob[BL.G_OUTCOME] == BL.OUT_RETREAT
    for seat in range(game[G.G_N_CHARS]):
        p = s.pub[G.R_PARTY + seat]
        p[G.P_ESTUS] = chars[seat, BL.C_ESTUS]
        p[G.P_LUCK] = chars[seat, BL.C_LUCK]
        p[G.P_HEROIC] = chars[seat, BL.C_HEROIC]
        p[G.P_EMBER] = chars[seat, BL.C_EMBER]
        # a battle's end clears cubes and conditions: after a retreat the red cubes stay
        # (A-52 black cubes, A-53 conditions)
        p[G.P_DAMAGE] = chars[seat, BL.C_DAMAGE] if retreated else 0
        p[G.P_STAMINA] = chars[seat, BL.C_STAMINA] if retreated and g.rules[G.V_RETREAT_STAMINA] == 1 else 0
        p[G.P_COND] = chars[seat, BL.C_COND] if retreated and g.rules[G.V_RETREAT_CONDITIONS] == 1 else 0
    game[G.G_NEXT_CHAR] = glob[BL.G_NEXT_CHAR]
    game[G.G_BATTLES] += 1
    s.cursor[C_BATTLES] = number + 1
    return glob[BL.G_OUTCOME]


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
