"""A scripted strategy for rule tests: per hook, the first option of a wanted kind (and seat, and argument).

``params[3 * hook: 3 * hook + 3]`` = (option kind, seat or -1 for any, argument or -1 for any); a kind of -1
takes row 0. No matching row: row 0 (stop, inventory, …)."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Policy, register, strategy_function, views


@strategy_function
def decide(hook, pub, n, params):
    """The first row matching the hook's script."""
    opts = views(pub)[3]
    kind, seat, arg = int(params[3 * hook]), int(params[3 * hook + 1]), int(params[3 * hook + 2])
    if kind < 0:
        return 0
    for i in range(n):
        row = opts[i]
        if row[G.O_KIND] == kind and (seat < 0 or row[G.O_SEAT] == seat) and (arg < 0 or row[G.O_ARG] == arg):
            return i
    return 0


SCRIPTED = register(Policy("scripted_test", "Rule tests: answers from the parameter vector.", decide))


def script(**hooks: tuple[int, int, int]) -> np.ndarray:
    """A parameter vector: ``place=(OPT_EQUIP, 0, SLOT_HAND0)`` etc.; unnamed hooks take row 0."""
    vector = np.full(3 * len(G.HOOK_NAMES), -1.0)
    for name, answer in hooks.items():
        h = G.HOOK_NAMES.index(name)
        vector[3 * h: 3 * h + 3] = answer
    return vector
