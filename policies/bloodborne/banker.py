"""banker: Dreams as soon as the Collected echoes are worth protecting — past a stake, or when the guessed
chance of dying this round times the stake passes a threshold; otherwise hits with its strongest card."""

from __future__ import annotations

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Param, Policy, policy_function, public_views, register
from policies.bloodborne.common import RISK, dream_row, p_die, plain_hook, strongest

P_BANK_AT, P_RISK_AT, P_RISK, P_GUARD_AT, P_KEEP = range(5)
W_CARD = (1.0, 0.3, 1.0, 0.8, 1.0)


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/bloodborne/README.md``)."""
    table, hunters, hand, used, opts = public_views(public)
    if hook == L.HOOK_PLAY:
        stake = hunters[seat, L.H_COLLECTED]
        die = p_die(hunters[seat, L.H_HEALTH], table, params[P_RISK], False)
        weapon = strongest(opts, n)
        if weapon < 0 or stake >= params[P_BANK_AT] or die * stake >= params[P_RISK_AT]:
            if hand[seat].sum() > params[P_KEEP]:  # an Instant bank keeps the Dream for later
                for i in range(n):
                    if opts[i, L.OPT_BANK] > 0 and opts[i, L.OPT_STEP] == L.STEP_INSTANT:
                        return i
            dream = dream_row(opts, n)
            if dream >= 0:
                return dream
        if die >= params[P_GUARD_AT]:
            for i in range(n):
                if opts[i, L.OPT_PREVENT] > 0 or (opts[i, L.OPT_HEAL] > 0 and opts[i, L.OPT_STEP] == L.STEP_INSTANT):
                    return i
        return max(weapon, 0)
    return plain_hook(hook, seat, hunters, table, opts, n, *W_CARD)


register(Policy(
    "banker",
    "Banks when echoes are at risk: Dreams when its Collected echoes reach bank_at, or when the guessed chance of dying this round "
    "(expected monster roll vs health) times those echoes reaches risk_at (an Instant bank instead while "
    "the hand holds more than keep cards); a guard or vial when the risk alone reaches guard_at; else its "
    "strongest weapon. Upgrades favour protection and utility.",
    decide,
    params=(
        Param("bank_at", 4.0, 1.0, 30.0, "Dream once this many echoes are Collected", whole=True),
        Param("risk_at", 0.5, 0.0, 10.0, "Dream when P(die) x Collected echoes reaches this"),
        RISK,
        Param("guard_at", 0.3, 0.0, 1.0, "play a guard or a vial when P(die) reaches this"),
        Param("keep", 3.0, 0.0, 7.0, "use an Instant bank instead of the Dream while the hand holds more cards",
              whole=True),
    ),
))
