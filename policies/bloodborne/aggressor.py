"""aggressor: the most damage every round; the Dream (or a heal, or a guard) only when the monster's roll
would likely kill it, or when no weapon is left in hand."""

from __future__ import annotations

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Param, Policy, policy_function, public_views, register
from policies.bloodborne.common import RISK, dream_row, p_die, plain_hook, strongest

P_DIE_AT, P_RISK = range(2)
W_CARD = (1.0, 0.2, 0.2, 0.0, 0.0)


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/bloodborne/README.md``)."""
    table, hunters, hand, used, opts = public_views(public)
    if hook == L.HOOK_PLAY:
        weapon = strongest(opts, n)
        if weapon < 0 or p_die(hunters[seat, L.H_HEALTH], table, params[P_RISK], False) >= params[P_DIE_AT]:
            for i in range(n):  # a guard keeps hitting and takes no damage; a vial heals before the roll
                if opts[i, L.OPT_PREVENT] > 0:
                    return i
            for i in range(n):
                if opts[i, L.OPT_HEAL] > 0 and opts[i, L.OPT_STEP] == L.STEP_INSTANT:
                    return i
            dream = dream_row(opts, n)
            if dream >= 0:
                return dream
        return max(weapon, 0)
    return plain_hook(hook, seat, hunters, table, opts, n, *W_CARD)


register(Policy(
    "aggressor",
    "Maximum damage every round: the strongest weapon in hand (upgrades and discards by damage); the Dream, "
    "a guard or a heal only when the guessed chance that the monster's roll kills it reaches die_at, or when "
    "no weapon is left. Cancels the biggest melee card.",
    decide,
    params=(
        Param("die_at", 0.25, 0.0, 1.0, "Dream when the guessed P(die this round) reaches this"),
        RISK,
    ),
))
