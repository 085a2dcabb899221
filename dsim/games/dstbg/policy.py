"""Policy interface for DS:TBG: one Numba function answers every decision hook (rules §17).

A policy is ``decide(hook, state, options, n_options, params, dist) -> int``: given the hook id
(``layout.H_*``), the flat battle state, the option rows the kernel enumerated (their columns are
documented per hook in ``policies/dstbg/README.md``), the policy's parameter vector and the walk
distance matrix, it returns the index of the chosen option. It is compiled against
:data:`POLICY_SIG`, so the kernel is compiled once and any policy plugs in without editing it.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from numba import njit, types

from dsim.numba_cache import cache_folder, cache_under
from dsim.policy import Deferred, Param, Policy, PolicyRegistry

__all__ = ["POLICY_SIG", "Param", "Policy", "REGISTRY", "all_policies", "get_policy", "policy_function", "register"]

POLICY_SIG = types.int64(
    types.int64, types.int32[::1], types.int32[:, ::1], types.int64, types.float64[::1], types.int32[:, ::1]
)
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dstbg" / "common.py"


def policy_function(decide: Any = None, *, refcount: bool = False) -> Any:
    """Decorator for a policy's ``decide``: compiled for :data:`POLICY_SIG` when first used, and cached
    under a folder named by the compile flag and a hash of its module, the shared helpers
    (``policies/dstbg/common.py``) and this file, so an edit to any of them, or another flag,
    recompiles the policy and the helpers it calls (:mod:`dsim.numba_cache`; Numba's own cache key
    ignores flags). Policies compile without reference counting (calls cost a quarter and the
    threads stop contending for the shared ``params``), which forbids making arrays: a policy that
    does (or calls a helper that does) asks ``@policy_function(refcount=True)``."""
    if decide is None:
        return lambda function: policy_function(function, refcount=refcount)
    module = Path(inspect.getfile(decide)).resolve()
    sources = [module, Path(__file__).resolve()] + ([COMMON] if COMMON.exists() else [])
    name = f"policy-{module.stem}-{'rc' if refcount else 'norc'}"

    def build() -> Any:
        with cache_under(cache_folder(name, sources, module.parent / "__pycache__")):
            return njit(POLICY_SIG, cache=True, _nrt=refcount)(decide)

    return Deferred(build, decide.__name__)


REGISTRY = PolicyRegistry("policies.dstbg")
register = REGISTRY.register
get_policy = REGISTRY.get
all_policies = REGISTRY.all
