"""Policy interface of Dark Maiden: one Numba function per policy answers every hook, for every hero.

``decide(hook, seat, public, n_options, params) -> row``: the hook id (``layout.HOOK_*``), the deciding hero's
seat, the public state as one int32 matrix (:func:`public_views` splits it into the table, the heroes, the
enemies in play and the option rows), the number of option rows and the policy's parameter vector. The game is
co-operative and open: everything on the table is in the matrix; only the deck's order is hidden.
``table[T_NONCE]`` is a fresh random number for policies that roll their own dice. Compiled against
:data:`POLICY_SIG`, so the kernel is compiled once for the function type and a new policy never edits it.
Hooks and columns: ``policies/dark_maiden/README.md``.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit, types

from dsim.games.dark_maiden.kernel import layout as L
from dsim.policy import Param, Policy, PolicyRegistry, policy_decorator

__all__ = ["POLICY_SIG", "PolicyFunctionType", "Param", "Policy", "REGISTRY", "policy_function", "public_views",
           "register"]

POLICY_SIG = types.int64(types.int64, types.int64, types.int32[:, ::1], types.int64, types.float64[::1])
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dark_maiden" / "common.py"
LAYOUT = Path(__file__).resolve().parent / "kernel" / "layout.py"


@njit(cache=True, inline="always")
def public_views(public):
    """``(table, heroes, foes, opts)``: views into the public matrix (``layout.R_*``); the kernel's state holds
    the same views, so what a policy reads is the live table. ``foes`` has ``table[T_FOES]`` meaningful rows."""
    return (public[L.R_TABLE, :L.T_FIELDS], public[L.R_HEROES:L.R_FOES, :L.H_FIELDS],
            public[L.R_FOES:L.R_OPTS, :L.F_FIELDS], public[L.R_OPTS:, :L.OPT_FIELDS])


policy_function = policy_decorator(POLICY_SIG, "dm-policy", [Path(__file__).resolve(), LAYOUT, COMMON])
"""Decorator for a Dark Maiden policy's ``decide`` (:func:`dsim.policy.policy_decorator`): no reference
counting unless ``refcount=True``."""


REGISTRY = PolicyRegistry("policies.dark_maiden")
register = REGISTRY.register
