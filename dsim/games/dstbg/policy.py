"""Policy interface for DS:TBG: one Numba function answers every decision hook (rules §17).

A policy is ``decide(hook, state, options, n_options, params, dist) -> int``: given the hook id
(``layout.H_*``), the flat battle state, the option rows the kernel enumerated (their columns are
documented per hook in ``policies/dstbg/README.md``), the policy's parameter vector and the walk
distance matrix, it returns the index of the chosen option. It is compiled against
:data:`POLICY_SIG`, so the kernel is compiled once and any policy plugs in without editing it.
"""

from __future__ import annotations

from pathlib import Path

from numba import types

from dsim.policy import Param, Policy, PolicyRegistry, policy_decorator

__all__ = ["POLICY_SIG", "Param", "Policy", "REGISTRY", "all_policies", "get_policy", "policy_function", "register"]

POLICY_SIG = types.int64(
    types.int64, types.int32[::1], types.int32[:, ::1], types.int64, types.float64[::1], types.int32[:, ::1]
)
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dstbg" / "common.py"
# The state layout and the variant indices it imports are compiled into a policy as constants (C_FIELDS …): an
# edit to them must recompile the policies, not load a build that reads the state at the old offsets.
LAYOUT = [Path(__file__).resolve().parent / "kernel" / "layout.py", Path(__file__).resolve().parent / "variants.py"]


policy_function = policy_decorator(POLICY_SIG, "policy", [Path(__file__).resolve(), COMMON, *LAYOUT])
"""Decorator for a DS:TBG policy's ``decide`` (:func:`dsim.policy.policy_decorator`)."""


REGISTRY = PolicyRegistry("policies.dstbg")
register = REGISTRY.register
get_policy = REGISTRY.get
all_policies = REGISTRY.all
