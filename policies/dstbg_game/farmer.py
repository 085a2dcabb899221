"""farmer: clears every tile, opens every chest and buys; rests to farm the map again while sparks stay above
a floor, then goes for the boss with the gear it bought."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Param, Policy, register, strategy_function, views
from policies.dstbg_game.common import between_battles, explore_then

P_RESERVE, P_ATTACK, P_DEFENCE, P_KEEP_SPARKS, P_LEVEL, P_HEAL_AT = range(6)


@strategy_function
def decide(hook, pub, n, params):
    """Answer one hook (option columns: ``policies/dstbg_game/README.md``)."""
    game, party, tiles, opts = views(pub)
    k = between_battles(hook, game, party, opts, n, params[P_RESERVE], params[P_ATTACK], params[P_DEFENCE],
                        params[P_LEVEL], True, 0.0, params[P_HEAL_AT])
    if k >= 0:
        return k
    # GH_ROUTE: every tile first; then farm again (a rest) while sparks stay above the floor; then the boss
    if game[G.G_SPARKS] > params[P_KEEP_SPARKS]:
        return explore_then(game, opts, n, G.WHY_REST_FARM, 0)
    return explore_then(game, opts, n, 0, G.WHY_BOSS_SPARKS)

register(Policy("farmer", "Farmer: clears every tile and farms it again with rests while sparks last above a floor; "
                "buys everything.", decide, (
                    Param("reserve", 0.0, 0.0, 30.0, "souls kept back when buying treasure", whole=True),
                    Param("attack_weight", 1.0, 0.0, 3.0, "weight of attack worth when equipping"),
                    Param("defence_weight", 1.0, 0.0, 3.0, "weight of defence worth when equipping"),
                    Param("keep_sparks", 2.0, 0.0, 5.0, "sparks kept for the boss: farm (rest) only above this",
                          whole=True),
                    Param("level_margin", 50.0, 0.0, 500.0, "worth (×100) a level must unlock to be bought"),
                    Param("heal_at", 5.0, 1.0, 10.0, "campaign: rest (refilling the estus) once a character with no "
                          "estus carries this many red cubes out of a retreat (R-13.4)", whole=True),
                )))
