"""random_legal: every decision uniformly at random among the legal options (the floor any policy must beat)."""

from __future__ import annotations

from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.policy import Policy, policy_function, public_views, register


@policy_function
def decide(hook, seat, public, n, params):
    """A uniformly random row, from the decision's fresh random number."""
    table = public_views(public)[0]
    return table[L.T_NONCE] % n


register(Policy("random_legal", "Random legal: every decision uniformly at random among the legal options.", decide))
