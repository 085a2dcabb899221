"""random_legal: every decision uniformly at random among the legal options (the floor any strategy must beat)."""

from __future__ import annotations

from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.strategy import Policy, register, strategy_function, views


@strategy_function
def decide(hook, pub, n, params):
    """A uniformly random row, from the decision's fresh random number."""
    return views(pub)[0][G.G_NONCE] % n


register(Policy("random_legal", "Random legal: every decision between battles uniformly at random.", decide))
