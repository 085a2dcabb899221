"""balanced: clears every tile on the map once, levels up for cards worth it, buys above a reserve, and goes for
the boss; it rests first only if told to (a rest turns every card face down again, fog gate included: R-6.5)."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Param, Policy, register, strategy_function, views
from policies.dstbg_game.common import between_battles, estus_left, explore_then

P_RESERVE, P_ATTACK, P_DEFENCE, P_LEVEL, P_REST_SPARKS, P_MARGIN, P_LUCK, P_HEAL_AT = range(8)


@strategy_function
def decide(hook, pub, n, params):
    """Answer one hook (option columns: ``policies/dstbg_game/README.md``)."""
    game, party, tiles, opts = views(pub)
    k = between_battles(hook, game, party, opts, n, params[P_RESERVE], params[P_ATTACK], params[P_DEFENCE],
                        params[P_LEVEL], params[P_LUCK] > 0.5, params[P_MARGIN], params[P_HEAL_AT])
    if k >= 0:
        return k
    # GH_ROUTE: every tile once, then (if rest_sparks allows) a rest when the estus is spent, then the boss
    if estus_left(game, party) >= game[G.G_N_CHARS]:
        return explore_then(game, opts, n, 0, G.WHY_BOSS_NO_REST)
    if game[G.G_SPARKS] > params[P_REST_SPARKS]:
        return explore_then(game, opts, n, G.WHY_REST_ESTUS, 0)
    return explore_then(game, opts, n, 0, G.WHY_BOSS_SPARKS)

register(Policy("balanced", "Balanced: every tile once, levels for worthwhile cards, buys above a reserve, then the "
                "boss.", decide, (
                    Param("reserve", 1.0, 0.0, 30.0, "souls kept back when buying treasure", whole=True),
                    Param("attack_weight", 1.0, 0.0, 3.0, "weight of attack worth when equipping"),
                    Param("defence_weight", 1.2, 0.0, 3.0, "weight of defence worth when equipping"),
                    Param("level_margin", 40.0, 0.0, 500.0, "worth (×100) a level must unlock to be bought"),
                    Param("rest_sparks", 5.0, 0.0, 5.0, "rest before the boss when the estus is spent, only with more "
                          "sparks than this (5: never; a rest sends the party through the map again, R-6.5)",
                          whole=True),
                    Param("equip_margin", 10.0, 0.0, 300.0, "worth gain (×100) a card must bring to be equipped"),
                    Param("restore_luck", 0.0, 0.0, 1.0, "1: pay 1 soul to ready a used luck token (R-5.8)",
                          whole=True),
                    Param("heal_at", 5.0, 1.0, 10.0, "campaign: rest (refilling the estus) once a character with no "
                          "estus carries this many red cubes out of a retreat (R-13.4)", whole=True),
                )))
