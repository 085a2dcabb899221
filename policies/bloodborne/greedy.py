"""greedy: a last-hitter — plays the card worth most in echoes plus the chance of damaging in the killing
round (the trophy, BB-9.4), reading the seat order and the others' likely damage; Dreams when banking,
healing and the used pile are worth more than a hit."""

from __future__ import annotations

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Param, Policy, policy_function, public_views, register
from policies.bloodborne.common import (
    HITTER_CARDS, RISK, SPREAD, TROPHY, UNKNOWN, UPGRADE, best_play, cancel_target, card_hook, pick_weapon,
)

P_TROPHY, P_SPREAD, P_RISK, P_LOSS, P_BANK, P_HEAL, P_RECOVER, P_UPGRADE, P_UNKNOWN, P_TRANSFORM = range(10)


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/bloodborne/README.md``)."""
    table, hunters, hand, used, opts = public_views(public)
    if hook == L.HOOK_PLAY:
        w = (params[P_TROPHY], params[P_SPREAD], params[P_RISK], params[P_LOSS], params[P_BANK], params[P_HEAL],
             params[P_RECOVER], params[P_UPGRADE], params[P_UNKNOWN], 1.0)
        return best_play(opts, n, seat, hunters, hand, used, table, w, params[P_TRANSFORM])
    if hook == L.HOOK_TRANSFORM:
        return pick_weapon(seat, hunters, hand, table, opts, n, params[P_UNKNOWN], params[P_TROPHY],
                           params[P_SPREAD], -1, 0.0)
    if hook == L.HOOK_CANCEL:
        return cancel_target(seat, hunters, table, opts, n, 0.0)
    return card_hook(hook, opts, n, *HITTER_CARDS)


register(Policy(
    "greedy",
    "Last-hitter: each card is worth the echoes it takes plus the chance of damaging in the killing round "
    "(the trophy), given the seat order and the others' likely damage, less the Collected echoes a death "
    "would lose; the Dream is worth banking, healing, the used pile and an upgrade. Transform picks the "
    "weapon that best secures the kill once the step-1 cards are seen.",
    decide,
    params=(
        TROPHY,
        SPREAD,
        RISK,
        Param("loss", 1.0, 0.0, 3.0, "weight of the Collected echoes a death would lose"),
        Param("bank", 0.15, 0.0, 2.0, "worth of banking, per Collected echo"),
        Param("heal", 0.2, 0.0, 2.0, "worth of each health point healed"),
        Param("recover", 0.4, 0.0, 2.0, "worth of each used card taken back by the Dream"),
        UPGRADE,
        UNKNOWN,
        Param("transform", 1.0, -5.0, 5.0, "bonus for playing Transform (seeing the picks first, two cards spent)"),
    ),
))
