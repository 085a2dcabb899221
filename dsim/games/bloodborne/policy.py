"""Policy interface of Bloodborne: one Numba function per policy answers every hook.

``decide(hook, seat, public, n_options, params) -> row``: the hook id (``layout.HOOK_*``), the deciding
seat, the public state as one int32 matrix, the number of option rows and the seat's own parameter
vector. :func:`public_views` splits the matrix into the shared table, every hunter's row, hand and used
pile (a hand is public knowledge: everyone starts with the same five cards and upgrades are taken from
the open display) and the option rows (columns ``layout.OPT_*``). One matrix rather than five arrays
because a call through the kernel's first-class function type costs per argument (measured: passing
five arrays cost a quarter of a whole game's time). Secret choices of the round are not in the state until they are revealed
(BB-5.1, BB-6.1). ``table[T_NONCE]`` is a fresh random number for policies that roll their own dice.
Compiled against :data:`POLICY_SIG`, so the kernel is compiled once for the function type and a new
policy never edits it. Hooks and columns: ``policies/bloodborne/README.md``.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit, types

from dsim.games.bloodborne.kernel import layout as L
from dsim.policy import Param, Policy, PolicyRegistry, policy_decorator

__all__ = ["POLICY_SIG", "PolicyFunctionType", "Param", "Policy", "REGISTRY", "policy_function", "public_shape",
           "public_views", "register"]

POLICY_SIG = types.int64(types.int64, types.int64, types.int32[:, ::1], types.int64, types.float64[::1])
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "bloodborne" / "common.py"
LAYOUT = Path(__file__).resolve().parent / "kernel" / "layout.py"


@njit(cache=True, inline="always")
def public_shape(cards: int, rows: int) -> tuple[int, int]:
    """Shape of the public matrix for ``cards`` card kinds and ``rows`` option rows (:data:`layout.R_OPTS`)."""
    return L.R_OPTS + rows, max(L.P_HEADER + L.T_FIELDS, L.H_FIELDS, L.OPT_FIELDS, cards)


@njit(cache=True, inline="always")
def public_views(public):
    """``(table, hunters, hand, used, opts)``: views into the public matrix (``layout.P_*``, ``R_*``); the
    kernel's state holds the same views, so what a policy reads is the live table."""
    cards, rows = public[0, L.P_CARDS], public[0, L.P_ROWS]
    return (public[0, L.P_HEADER:L.P_HEADER + L.T_FIELDS], public[L.R_HUNTERS:L.R_HAND, :L.H_FIELDS],
            public[L.R_HAND:L.R_USED, :cards], public[L.R_USED:L.R_OPTS, :cards],
            public[L.R_OPTS:L.R_OPTS + rows, :L.OPT_FIELDS])


policy_function = policy_decorator(POLICY_SIG, "bb-policy", [Path(__file__).resolve(), LAYOUT, COMMON])
"""Decorator for a Bloodborne policy's ``decide`` (:func:`dsim.policy.policy_decorator`): no reference
counting unless ``refcount=True``."""


REGISTRY = PolicyRegistry("policies.bloodborne")
register = REGISTRY.register
