"""random_legal: a uniformly random legal option at every hook (the floor of every style)."""

from __future__ import annotations

import numpy as np

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Policy, policy_function, public_views, register


@policy_function
def decide(hook, seat, public, n, params):
    """A row drawn from the table's fresh random number."""
    table, hunters, hand, used, opts = public_views(public)
    return np.int64(table[L.T_NONCE]) % n


register(Policy("random_legal", "The floor: every decision is a uniformly random legal option.", decide))
