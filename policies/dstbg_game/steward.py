"""steward: plays the game for the boss. Every tile once, shopping by the improvement over the kit carried (luck
restored first); at the boss's door it rests to ready the estus, luck and heroic actions while the dial allows, and
goes in ready. Its battles before the boss ask the battle policy to keep those for the boss (``G_NEED``), which the
``veteran`` battle policy honours."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Param, Policy, register, strategy_function, views
from policies.dstbg_game.common import between_battles, explore_then, ready_for_boss, spend_by_improvement

P_RESERVE, P_ATTACK, P_DEFENCE, P_LEVEL, P_MARGIN, P_REST_FLOOR, P_HEAL_AT = range(7)


@strategy_function
def decide(hook, pub, n, params):
    """Answer one hook (option columns: ``policies/dstbg_game/README.md``)."""
    game, party, tiles, opts = views(pub)
    if hook == G.GH_SPEND:
        return spend_by_improvement(game, party, opts, n, params[P_RESERVE], params[P_ATTACK], params[P_DEFENCE],
                                    params[P_LEVEL])
    k = between_battles(hook, game, party, opts, n, params[P_RESERVE], params[P_ATTACK], params[P_DEFENCE],
                        params[P_LEVEL], True, params[P_MARGIN], params[P_HEAL_AT])
    if k >= 0:
        return k
    # GH_ROUTE: every tile once; at the open gate, rest until ready while the dial stays above the floor; the boss
    if ready_for_boss(game, party):
        return explore_then(game, opts, n, 0, G.WHY_BOSS_READY)
    if game[G.G_SPARKS] > params[P_REST_FLOOR]:
        return explore_then(game, opts, n, G.WHY_REST_READY, 0)
    return explore_then(game, opts, n, 0, G.WHY_BOSS_SPARKS)

register(Policy("steward", "Steward: every tile once, shops by improvement over the kit (luck first), rests until the "
                "estus, luck and heroic actions are ready while sparks stay above a floor, then the boss; asks its "
                "battles before the boss to keep those (G_NEED, honoured by the veteran battle policy).", decide, (
                    Param("reserve", 1.0, 0.0, 30.0, "souls kept back when buying treasure", whole=True),
                    Param("attack_weight", 1.0, 0.0, 3.0, "weight of attack worth (equipping, levels, picks)"),
                    Param("defence_weight", 1.2, 0.0, 3.0, "weight of defence worth (equipping, levels, picks)"),
                    Param("level_margin", 20.0, 0.0, 500.0, "improvement (×100 worth) per tier a level must unlock"),
                    Param("equip_margin", 10.0, 0.0, 300.0, "worth gain (×100) a card must bring to be equipped"),
                    Param("rest_floor", 2.0, 0.0, 5.0, "at the boss's door, rest to get ready only with more sparks "
                          "than this", whole=True),
                    Param("heal_at", 5.0, 1.0, 10.0, "campaign: rest (refilling the estus) once a character with no "
                          "estus carries this many red cubes out of a retreat (R-13.4)", whole=True),
                )))
