"""Policy interface for DS:TBG: one Numba function answers every decision hook (rules §17).

A policy is ``decide(hook, n_options, view) -> int``: given the hook id (``layout.H_*``), the number of
option rows and what the players know (:class:`~dsim.games.dstbg.kernel.context.View`), it reads
``view.glob``, ``view.chars`` and ``view.enemies`` (the state by entity, ``layout.G_*``/``C_*``/``E_*``),
``view.known`` (the behaviour deck as far as it has been seen), ``view.opts`` (the option rows the kernel
enumerated, columns documented per hook in ``policies/dstbg/README.md``), ``view.params`` (its parameter vector),
``view.dwalk`` (the walk distance matrix) and ``view.figs``, and returns the index of the chosen row. The view holds
no deck order, face-down trap or random stream: a policy cannot see them. It is the kernel's own buffers, passed
by reference (:mod:`dsim.numba_ref`): one pointer, nothing copied per decision. It is compiled against
:data:`POLICY_SIG`, so any policy plugs in without editing the kernel: the shared entries take it as an
argument of that function type, and a policy's own entry (``engine``) inlines it; :func:`ask` puts one
question to a policy from Python.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit, typeof, types

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.numba_ref import Ref, check_trailing_dims, keep_alive, ref
from dsim.policy import Param, Policy, PolicyRegistry, compiled, policy_decorator

__all__ = ["POLICY_SIG", "Param", "Policy", "REGISTRY", "all_policies", "ask", "get_policy", "policy_function",
           "register"]

BATTLE_TYPE = typeof(X.new_battle(2, np.zeros(1)))
VIEW_TYPE = typeof(X.new_battle(2, np.zeros(1)).pub)
POLICY_SIG = types.int64(types.int64, types.int64, Ref(VIEW_TYPE))
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dstbg" / "common.py"
# The state layout and the variant indices it imports are compiled into a policy as constants (C_FIELDS …), and the
# battle bundle's fields are read through numba_ref: an edit to them must recompile the policies, not load a build
# that reads the state at the old offsets.
LAYOUT = [Path(__file__).resolve().parent / "kernel" / "layout.py", Path(__file__).resolve().parent / "variants.py",
          Path(__file__).resolve().parent / "kernel" / "context.py", Path(__file__).resolve().parents[2] / "numba_ref.py"]


policy_function = policy_decorator(POLICY_SIG, "policy", [Path(__file__).resolve(), COMMON, *LAYOUT])
"""Decorator for a DS:TBG policy's ``decide`` (:func:`dsim.policy.policy_decorator`)."""


REGISTRY = PolicyRegistry("policies.dstbg")
register = REGISTRY.register
get_policy = REGISTRY.get
all_policies = REGISTRY.all


def _ask_impl(policy, hook, n, battle):
    answer = policy(hook, n, ref(battle.pub))
    keep_alive(battle)
    return answer


@lru_cache(maxsize=1)
def _asker():
    """The compiled trampoline of :func:`ask` (half a second, on first use; not cached on disk)."""
    return njit(types.int64(PolicyFunctionType, types.int64, types.int64, BATTLE_TYPE))(_ask_impl)


def ask(decide, hook: int, st: L.StateViews | np.ndarray, opts: np.ndarray, n: int, params: np.ndarray,
        dist: np.ndarray) -> int:
    """The row a policy's ``decide`` picks for one question put from Python (tests, notebooks): the state (its
    views, ``layout.state_views``, or the vector) and option rows are handed over as they are (int32, C order;
    never copied, so a test sees whatever the policy wrote into them), as the kernel hands them; the walk
    distances (``n`` × ``n``) go in a copy whose rows are widened to the kernel's ``NODE_COLS`` columns."""
    st = L.state_vector(st) if isinstance(st, L.StateViews) else st
    for name, array in (("st", st), ("opts", opts), ("dist", dist)):
        if array.dtype != np.int32 or not array.flags.c_contiguous:
            raise ValueError(f"ask: {name} must be a C-ordered int32 array, got {array.dtype}")
    if dist.ndim != 2 or dist.shape[0] != dist.shape[1] or dist.shape[0] > L.NODE_COLS:
        raise ValueError(f"ask: dist must be n × n with n ≤ {L.NODE_COLS}, got shape {dist.shape}")
    wide = np.full((dist.shape[0], L.NODE_COLS), L.UNREACHABLE, np.int32)
    wide[:, :dist.shape[1]] = dist
    battle = X.with_public(X.with_state(X.new_battle(dist.shape[0], params), st), opts=opts, dwalk=wide)
    check_trailing_dims(battle)
    check_trailing_dims(battle.pub)
    return int(_asker()(compiled(decide), hook, n, battle))
