"""cautious: walks, drinks early, recovers when exhausted, takes mounts, never quick strikes unless nearly dead,
and takes a double's grab only when it is the likelier outcome."""

from __future__ import annotations

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.policy import Param, Policy, policy_function, public_views, register
from policies.dark_maiden.common import grab_chance, pick, plain_answer, red_total, row_of, vitality_left

P_HURT, P_LAST_STAND = range(2)
WEIGHTS = (0.5, 4.0, 0.2, 1.0, 1.5)
"""Target weights (damage, kill, point, exhaust, mount; ``common.deal_value``): kills first."""
POTION = 0.5
"""Worth of a goblin's potion against a healed point (``common.goblin_gain``): healing first."""
BONUS = (L.A_RECOVER, L.A_MOUNT, L.A_STRIKE)
"""The bonus phase (DM-8.1): recover, else take a mount, else strike."""


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/dark_maiden/README.md``)."""
    table, heroes, foes, opts = public_views(public)
    row = heroes[seat]
    if hook == L.HOOK_MOVE:  # DM-4.1: one card at a time
        return pick(opts, n, L.A_WALK)
    if hook == L.HOOK_POTIONS:  # DM-6: as soon as they kill something, the hero is hurt, or a goblin would steal
        drink = pick(opts, n, L.A_DRINK)
        hurt = row[L.H_DAMAGE] >= params[P_HURT] * row[L.H_VITALITY]
        if opts[drink, L.OPT_KILLS] > 0 or hurt or row[L.H_POTIONS] >= row[L.H_MAX_POTIONS]:
            return drink
        return pick(opts, n, L.A_KEEP)
    if hook == L.HOOK_ATTACK:  # DM-7.6: only a hero about to die gambles on a quick strike
        quick = vitality_left(heroes, seat) <= params[P_LAST_STAND]
        return pick(opts, n, L.A_QUICK if quick else L.A_ROLL)
    if hook == L.HOOK_DOUBLE:  # DM-7.5, DM-7.7: grab when it more likely wins than not, else dodge a strike
        red = table[L.T_RED]
        if grab_chance(heroes, seat, red) >= 0.5:
            return pick(opts, n, L.A_GRAB)
        reroll = row_of(opts, n, L.A_REROLL)
        if reroll >= 0 and red_total(foes, table[L.T_FOES], 0, red) > 0:
            return reroll
        return pick(opts, n, L.A_ACCEPT)
    return plain_answer(hook, table, heroes, foes, opts, n, seat, WEIGHTS, POTION, BONUS)


register(Policy(
    "cautious",
    "Cautious: walks; drinks its potions as soon as they kill an enemy, the hero is hurt or a goblin would steal "
    "them; never quick strikes unless nearly dead; grabs a double only when the grab more likely wins (Bárbara "
    "rerolls one the enemies would strike on); targets kills first; in the bonus phase recovers, else takes a "
    "mount, else strikes; a goblin's dice heal first.",
    decide,
    params=(
        Param("hurt", 0.5, 0.0, 1.0, "drink (DM-6) once the hero's damage reaches this fraction of its vitality"),
        Param("last_stand", 1.0, 0.0, 10.0, "quick strike (DM-7.6) only with this much vitality left or less",
              whole=True),
    ),
))
