"""The random-legal policy: a uniformly random legal answer to every hook, the floor of all styles."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.policy import Param, Policy, policy_function, register
from policies.dstbg.common import enemy_choice, state_hash

P_PASSIVE = 0


@policy_function
def decide(hook, n, battle):
    """A legal row drawn from a hash of (hook, state, options): deterministic for a given state."""
    st, opts, params = battle, battle.opts, battle.params
    if hook == L.H_MOVE_ON:
        return 0  # always look at the steps: its draw among them includes stopping
    enemy_hook = hook == L.H_ENEMY_ORDER or hook == L.H_ENEMY_STEP or hook == L.H_TAUNT_TIE
    if enemy_hook and st.glob[L.G_ADVERSARIAL] == 1:
        return enemy_choice(hook, st, opts, n)  # A-41 adversarial is a rule reading, not a style
    h = state_hash(hook, st, opts, n, 0)
    u = np.float64(h >> np.uint64(11)) / 9007199254740992.0  # uniform in [0, 1)
    if u < params[P_PASSIVE]:
        return 0
    return np.int64(state_hash(hook, st, opts, n, 1) % np.uint64(n))


register(
    Policy(
        name="random_legal",
        description=(
            "The floor: every decision is a uniformly random legal option (walking, running, attacking, "
            "dodging, spending luck and heroics at random, even paying the last endurance slot). The "
            "randomness is a hash of the state and hook, so a battle replays identically."
        ),
        decide=decide,
        params=(
            Param("passive_bias", 0.0, 0.0, 1.0, "probability of taking row 0 (stop, decline, block) before drawing"),
        ),
    )
)
