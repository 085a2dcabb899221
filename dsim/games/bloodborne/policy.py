"""Policy interface of Bloodborne: one Numba function per policy answers every hook.

``decide(hook, seat, hunters, hand, used, table, options, n_options, params) -> row``: the hook id
(``layout.HOOK_*``), the deciding seat, the public state (every hunter's row, hand and used pile —
a hand is public knowledge: everyone starts with the same five cards and upgrades are taken from the
open display — and the shared table), the option rows (columns ``layout.OPT_*``), and the seat's own
parameter vector. Secret choices of the round are not in the state until they are revealed
(BB-5.1, BB-6.1). ``table[T_NONCE]`` is a fresh random number for policies that roll their own dice.
Compiled against :data:`POLICY_SIG`, so the kernel is compiled once for the function type and a new
policy never edits it. Hooks and columns: ``policies/bloodborne/README.md``.
"""

from __future__ import annotations

from pathlib import Path

from numba import types

from dsim.policy import Param, Policy, PolicyRegistry, policy_decorator

__all__ = ["POLICY_SIG", "PolicyFunctionType", "Param", "Policy", "REGISTRY", "policy_function", "register"]

_I32_2D = types.int32[:, ::1]
POLICY_SIG = types.int64(types.int64, types.int64, _I32_2D, _I32_2D, _I32_2D, types.int32[::1], _I32_2D,
                         types.int64, types.float64[::1])
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "bloodborne" / "common.py"
LAYOUT = Path(__file__).resolve().parent / "kernel" / "layout.py"


policy_function = policy_decorator(POLICY_SIG, "bb-policy", [Path(__file__).resolve(), LAYOUT, COMMON])
"""Decorator for a Bloodborne policy's ``decide`` (:func:`dsim.policy.policy_decorator`): no reference
counting unless ``refcount=True``."""


REGISTRY = PolicyRegistry("policies.bloodborne")
register = REGISTRY.register
