"""bold: runs whenever allowed, quick strikes, grabs every double, drinks at once and strikes in the bonus phase."""

from __future__ import annotations

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.policy import Param, Policy, policy_function, public_views, register
from policies.dark_maiden.common import pick, plain_answer

P_DRINK_AT = 0
WEIGHTS = (2.0, 0.5, 1.0, 0.0, 0.5)
"""Target weights (damage, kill, point, exhaust, mount; ``common.deal_value``): the most damage."""
POTION = 3.0
"""Worth of a goblin's potion against a healed point (``common.goblin_gain``): potions first."""
BONUS = (L.A_STRIKE, L.A_MOUNT, L.A_RECOVER)
"""The bonus phase (DM-8.1): strike, else take a mount, else recover."""


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/dark_maiden/README.md``)."""
    table, heroes, foes, opts = public_views(public)
    if hook == L.HOOK_MOVE:  # DM-4.1 (an exhausted hero is not asked, DM-4.2)
        return pick(opts, n, L.A_RUN)
    if hook == L.HOOK_POTIONS:  # DM-6
        drink = heroes[seat, L.H_POTIONS] >= params[P_DRINK_AT]
        return pick(opts, n, L.A_DRINK if drink else L.A_KEEP)
    if hook == L.HOOK_ATTACK:  # DM-7.6 whenever not exhausted
        return pick(opts, n, L.A_QUICK)
    if hook == L.HOOK_DOUBLE:  # DM-7.7
        return pick(opts, n, L.A_GRAB)
    return plain_answer(hook, table, heroes, foes, opts, n, seat, WEIGHTS, POTION, BONUS)


register(Policy(
    "bold",
    "Bold: runs whenever allowed; drinks its potions at once; quick strikes whenever not exhausted; grabs every "
    "double; targets the most damage; in the bonus phase strikes, else takes a mount, else recovers; a goblin's "
    "dice give potions first.",
    decide,
    params=(
        Param("drink_at", 1.0, 1.0, 10.0, "drink (DM-6) once the hero holds at least this many potions", whole=True),
    ),
))
