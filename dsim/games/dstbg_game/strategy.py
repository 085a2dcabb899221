"""Strategy interface of a DS:TBG game played whole: one Numba function answers every hook between battles.

``decide(hook, pub, n_options, params) -> row``: the hook id (``layout.GH_*``), the public matrix (the game
row, one row per character, one per tile and the option rows; :func:`views` splits it), the number of
option rows and the strategy's parameter vector. Battles are played by a battle policy (``policies/dstbg``);
a strategy decides what happens around them (rules §17, D-1 … D-13, D-35 … D-39). Hooks and option columns:
``policies/dstbg_game/README.md``. Compiled against :data:`STRATEGY_SIG`, so the game kernel is compiled
once for the function type and a new strategy never edits it.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit, types

from dsim.games.dstbg.policy import LAYOUT as BATTLE_LAYOUT  # layout.py builds on the battle's layout
from dsim.games.dstbg_game import layout as G
from dsim.policy import Param, Policy, PolicyRegistry, policy_decorator

__all__ = ["STRATEGY_SIG", "StrategyFunctionType", "Param", "Policy", "REGISTRY", "register", "strategy_function",
           "views"]

STRATEGY_SIG = types.int64(types.int64, types.int32[:, ::1], types.int64, types.float64[::1])
StrategyFunctionType = types.FunctionType(STRATEGY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dstbg_game" / "common.py"
LAYOUT = Path(__file__).resolve().parent / "layout.py"


@njit(cache=True, inline="always")
def views(pub):
    """``(game, party, tiles, opts)``: views into the public matrix (``layout.R_*``)."""
    return pub[G.R_GAME], pub[G.R_PARTY:G.R_TILES], pub[G.R_TILES:G.R_OPTS], pub[G.R_OPTS:]


strategy_function = policy_decorator(STRATEGY_SIG, "dstbg-strategy", [Path(__file__).resolve(), LAYOUT, COMMON,
                                                                      *BATTLE_LAYOUT])
"""Decorator for a strategy's ``decide`` (:func:`dsim.policy.policy_decorator`)."""

REGISTRY = PolicyRegistry("policies.dstbg_game")
register = REGISTRY.register
