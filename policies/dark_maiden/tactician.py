"""tactician: every choice by the expected worth of its exchange (``common.py``) against bounded thresholds —
the default Dark Maiden policy."""

from __future__ import annotations

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.policy import Param, Policy, policy_function, public_views, register
from policies.dark_maiden.common import (
    attack_value, best_mount_row, bonus_strike_value, double_worths, mount_attack_gain, party_damage, pick,
    plain_answer, potion_value, top_role,
)

(P_RUN, P_DAMAGE, P_KILL, P_POINT, P_EXHAUST, P_MOUNT, P_QUICK, P_DRINK_GAIN, P_DRINK_KILLS,
 P_POTION, P_POTION_BOSS, P_MOUNT_ATTACK, P_RECOVER) = range(13)


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/dark_maiden/README.md``)."""
    table, heroes, foes, opts = public_views(public)
    w = (params[P_DAMAGE], params[P_KILL], params[P_POINT], params[P_EXHAUST], params[P_MOUNT])
    if hook == L.HOOK_MOVE:  # DM-4.1: run only in a quiet moment with the party fresh
        if table[L.T_FOES] == 0 and party_damage(table, heroes) < params[P_RUN]:
            return pick(opts, n, L.A_RUN)
        return pick(opts, n, L.A_WALK)
    if hook == L.HOOK_POTIONS:  # DM-6: all at once, so drink when they kill enough or pay for themselves
        drink = pick(opts, n, L.A_DRINK)
        if opts[drink, L.OPT_KILLS] >= params[P_DRINK_KILLS]:
            return drink
        have = heroes[seat, L.H_POTIONS]
        keep = attack_value(table, heroes, foes, seat, 0, w, params[P_QUICK])[0]
        drunk = potion_value(table, foes, have, w) + attack_value(table, heroes, foes, seat, have, w,
                                                                   params[P_QUICK])[0]
        role = top_role(table, foes)
        worth = 0.0 if role == L.ROLE_FINAL else params[P_POTION_BOSS] if role > L.ROLE_ENEMY else params[P_POTION]
        if drunk - keep - worth * have >= params[P_DRINK_GAIN]:
            return drink
        return pick(opts, n, L.A_KEEP)
    if hook == L.HOOK_ATTACK:  # DM-7.6
        quick = attack_value(table, heroes, foes, seat, 0, w, params[P_QUICK])[1]
        return pick(opts, n, L.A_QUICK if quick else L.A_ROLL)
    if hook == L.HOOK_DOUBLE:  # DM-7.5, DM-7.7: the dice are on the table
        accept, grab, reroll = double_worths(table, heroes, foes, seat, w)
        best, top = 0, -1e18
        for i in range(n):
            action = opts[i, L.OPT_ACTION]
            v = accept if action == L.A_ACCEPT else grab if action == L.A_GRAB else reroll
            if v > top:
                best, top = i, v
        return best
    if hook == L.HOOK_BONUS:  # DM-8.1: the most useful of strike, recover, take a mount
        best, top = 0, 0.0
        for i in range(n):
            action = opts[i, L.OPT_ACTION]
            v = 0.0
            if action == L.A_STRIKE:
                v = bonus_strike_value(table, heroes, foes, seat, w)
            elif action == L.A_RECOVER:
                v = params[P_RECOVER]
            elif action == L.A_MOUNT and i == best_mount_row(opts, n):
                v = params[P_MOUNT] + params[P_MOUNT_ATTACK] * mount_attack_gain(heroes, seat, opts, i)
            if v > top:
                best, top = i, v
        return best
    # target, split, fall and the goblin's dice by worth, as the other styles (the bonus phase is answered above)
    return plain_answer(hook, table, heroes, foes, opts, n, seat, w, params[P_POTION], (L.A_PASS,))


register(Policy(
    "tactician",
    "Tactician: every choice by the expected worth of the exchange it leads to, over the 36 dice — damage "
    "dealt (per point and per kill, scaled by each enemy's threat, plus advance points) less the damage taken "
    "(as a share of a life, DM-7.9) — against bounded thresholds: walks unless the table is clear and the party "
    "fresh, drinks when the potions kill enough or pay for themselves, quick strikes when that beats a normal "
    "roll by a margin, grabs/accepts/rerolls a double by its worth, targets the hit that kills a striker first, "
    "throws the most costly enemy off a precipice, and in the bonus phase strikes, recovers or mounts by worth.",
    decide,
    params=(
        Param("run_below", 0.0, 0.0, 1.0, "run (DM-4.1) when no enemy is in play and the party's damage is below "
                                          "this fraction of its vitality (0: always walk)"),
        Param("damage", 1.0, 0.0, 5.0, "worth of a damage point dealt, per point of the enemy's threat (its mean "
                                       "damage per exchange)"),
        Param("kill", 1.0, 0.0, 10.0, "worth of a kill, per point of the enemy's threat"),
        Param("point", 0.0, 0.0, 5.0, "worth of an advance point a kill brings (fewer cards, fewer precipices)"),
        Param("exhaust", 0.5, 0.0, 6.0, "cost of being exhausted (DM-7.6: a quick strike, a mounted hero hit)"),
        Param("mount", 1.5, 0.0, 6.0, "worth of riding a mount (DM-7.10): taking one in the bonus phase, losing "
                                      "one when hit"),
        Param("quick_margin", 0.0, -3.0, 3.0, "quick strike (DM-7.6) when its worth less the exhaustion beats a "
                                              "normal roll's by more than this"),
        Param("drink_gain", 0.0, -3.0, 6.0, "drink (DM-6) when the potions' damage and the safer attack after "
                                            "them gain more than this over keeping them"),
        Param("drink_kills", 4.0, 1.0, 12.0, "drink whenever the potions would kill at least this many enemies",
              whole=True),
        Param("potion", 4.0, 0.0, 10.0, "worth of a potion kept for later; also the goblin's potion die (DM-5.3)"),
        Param("potion_boss", 2.0, 0.0, 10.0, "worth of a potion kept while a boss or sub-boss is in play (the fight "
                                            "goes on until it dies, DM-5.5.2)"),
        Param("mount_attack", 4.0, 0.0, 10.0, "worth of each point a mount's attack adds to the hero's mean roll "
                                              "(DM-7.11: a Guerrero loses by riding a level-1 mount)"),
        Param("recover", 0.5, 0.0, 6.0, "worth of recovering from exhaustion in the bonus phase (DM-8.1)"),
    ),
))
