"""rush: straight for the boss. Only the tiles on the way to the fog gate, the boss as soon as it is open,
treasure bought with every soul beyond a small reserve; on the way, a rest once the estus is gone."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Param, Policy, register, strategy_function, views
from policies.dstbg_game.common import between_battles, estus_left, explore_fog, first_of

P_RESERVE, P_ATTACK, P_DEFENCE, P_REST_DRY, P_HEAL_AT = range(5)


@strategy_function
def decide(hook, pub, n, params):
    """Answer one hook (option columns: ``policies/dstbg_game/README.md``)."""
    game, party, tiles, opts = views(pub)
    k = between_battles(hook, game, party, opts, n, params[P_RESERVE], params[P_ATTACK], params[P_DEFENCE], 0.0, False,
                        0.0, params[P_HEAL_AT])
    if k >= 0:
        return k
    # GH_ROUTE: the boss as soon as it is open; on the way there, rest first with no estus left and a spark to spare
    boss = first_of(opts, n, G.OPT_BOSS)
    if boss >= 0:
        game[G.G_WHY] = G.WHY_BOSS_RUSH
        return boss
    rest = first_of(opts, n, G.OPT_REST)
    if rest >= 0 and params[P_REST_DRY] > 0.5 and estus_left(game, party) == 0 and game[G.G_SPARKS] > 1:
        game[G.G_WHY] = G.WHY_REST_ESTUS
        return rest
    k = explore_fog(tiles, opts, n)
    if k < 0:
        return 0
    game[G.G_WHY] = G.WHY_FOG
    return k

register(Policy("rush", "Rush: the tiles on the way to the fog gate, then the boss at once; buys with spare souls.",
                decide, (
                    Param("reserve", 0.0, 0.0, 30.0, "souls kept back when buying treasure", whole=True),
                    Param("attack_weight", 1.0, 0.0, 3.0, "weight of attack worth when equipping"),
                    Param("defence_weight", 1.0, 0.0, 3.0, "weight of defence worth when equipping"),
                    Param("rest_when_dry", 1.0, 0.0, 1.0, "1 = before the fog gate is won, rest once the estus is "
                          "gone (if a spark is to spare)", whole=True),
                    Param("heal_at", 5.0, 1.0, 10.0, "campaign: rest (refilling the estus) once a character with no "
                          "estus carries this many red cubes out of a retreat (R-13.4)", whole=True),
                )))
