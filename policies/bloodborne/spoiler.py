"""spoiler: denies the leader. While it is not ahead of the best other hunter (``margin`` points behind or
more) it cancels the leader's melee card, fires its pistol when the leader may fire one (BB-7.4: they clash),
and times its damage — through Transform once the step-1 cards are seen — so the kill comes before the
leader's hit or not at all this round. Otherwise it plays the greedy card values."""

from __future__ import annotations

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Param, Policy, policy_function, public_views, register
from policies.bloodborne.common import (
    HITTER_CARDS, RISK, SPREAD, TROPHY, UNKNOWN, UPGRADE, cancel_target, card_hook, lead, leader, pick_weapon,
    play_value, seat_risk, target_reach, trophy_chance_of,
)

P_MARGIN, P_DENY, P_TROPHY, P_SPREAD, P_RISK, P_UPGRADE, P_UNKNOWN, P_TRANSFORM = range(8)
LOSS, BANK, HEAL, RECOVER = 1.0, 0.15, 0.2, 0.4  # as greedy's defaults


@policy_function
def decide(hook, seat, public, n, params):
    """Answer one hook (option columns: ``policies/bloodborne/README.md``)."""
    table, hunters, hand, used, opts = public_views(public)
    target = leader(seat, hunters, table)
    if lead(seat, hunters, table) > -params[P_MARGIN]:
        target = -1  # nobody to deny: play for itself
    unknown, spread, deny = params[P_UNKNOWN], params[P_SPREAD], params[P_DENY]
    if hook == L.HOOK_PLAY:
        w = (params[P_TROPHY], spread, params[P_RISK], LOSS, BANK, HEAL, RECOVER, params[P_UPGRADE], unknown, 1.0)
        before, after, die_now = seat_risk(seat, hunters, hand, table, opts, n, w)
        base, reach = 0.0, (0.0, 0.0)
        if target >= 0:
            reach = target_reach(target, seat, hunters, hand, table, opts, n, unknown)
            base = trophy_chance_of(target, 0, False, seat, table, reach, spread, before + after)
        best, top = 0, -1e18
        for i in range(n):
            v = play_value(opts, i, seat, hunters, hand, used, table, n, w, params[P_TRANSFORM], before, after,
                           die_now)
            if target >= 0:
                # its hit's timing: how much it raises the leader's trophy chance over not hitting (an early
                # kill lowers it); a Transform is timed later, at its own hook
                if opts[i, L.OPT_TYPE] != L.UTILITY:
                    v -= deny * (trophy_chance_of(target, opts[i, L.OPT_DAMAGE], opts[i, L.OPT_STEP] == L.STEP_INSTANT,
                                                  seat, table, reach, spread, before + after) - base)
                if opts[i, L.OPT_CANCEL] > 0:  # the leader's melee card is cancelled (if it plays one)
                    v += 0.5 * deny * min(1.0, reach[0])  # reach[0]: the leader's likely damage
                if opts[i, L.OPT_CLASH] > 0 and hand[target, opts[i, L.OPT_CARD]] > 0:
                    kinds = 0  # the leader fires its own pistol with 1 / (its kinds in hand): both are void
                    for c in range(hand.shape[1]):
                        kinds += hand[target, c] > 0
                    v += deny * opts[i, L.OPT_DAMAGE] / kinds
            if v > top:
                best, top = i, v
        return best
    if hook == L.HOOK_TRANSFORM:
        return pick_weapon(seat, hunters, hand, table, opts, n, unknown, params[P_TROPHY], spread, target, deny)
    if hook == L.HOOK_CANCEL:
        return cancel_target(seat, hunters, table, opts, n, 10.0 if target >= 0 else 0.0)
    return card_hook(hook, opts, n, *HITTER_CARDS)


register(Policy(
    "spoiler",
    "Denies the leader: while margin points or more behind the best other hunter (by default whenever not "
    "ahead), each card's greedy value is lowered by deny x how much it raises the leader's chance of a trophy "
    "(timing the kill before the leader's hit, or not this round), cancel cards and pistols gain what they "
    "take from the leader, a Transform times the kill once the step-1 cards are seen, and cancels hit the "
    "leader. Otherwise it plays like greedy.",
    decide,
    params=(
        Param("margin", 0.0, 0.0, 30.0, "deny while this many points behind the best other hunter (0: not ahead)",
              whole=True),
        Param("deny", 4.0, 0.0, 20.0, "worth (in echoes) of keeping the leader from a trophy"),
        TROPHY,
        SPREAD,
        RISK,
        UPGRADE,
        UNKNOWN,
        Param("transform", 1.0, -5.0, 5.0, "bonus for playing Transform (times the kill once the picks are seen)"),
    ),
))
