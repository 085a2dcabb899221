"""Policy interface for DS:TBG: one Numba function answers every decision hook (rules §17).

A policy is ``decide(hook, state, options, n_options, params, dist) -> int``: given the hook id
(``layout.H_*``), the flat battle state, the option rows the kernel enumerated (their columns are
documented per hook in ``policies/dstbg/README.md``), the policy's parameter vector and the walk
distance matrix, it returns the index of the chosen option. It is compiled against
:data:`POLICY_SIG`, so the kernel is compiled once and any policy plugs in without editing it.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, types

from dsim.numba_cache import cache_folder, cache_under

POLICY_SIG = types.int64(
    types.int64, types.int32[::1], types.int32[:, ::1], types.int64, types.float64[::1], types.int32[:, ::1]
)
PolicyFunctionType = types.FunctionType(POLICY_SIG)
COMMON = Path(__file__).resolve().parents[3] / "policies" / "dstbg" / "common.py"


def policy_function(decide: Any) -> Any:
    """Decorator for a policy's ``decide``: compiled for :data:`POLICY_SIG` and cached under a folder
    named by a hash of its module and of the shared helpers (``policies/dstbg/common.py``), so an edit
    to the helpers recompiles the policies that call them (:mod:`dsim.numba_cache`)."""
    module = Path(inspect.getfile(decide)).resolve()
    sources = [module] + ([COMMON] if COMMON.exists() else [])
    with cache_under(cache_folder(f"policy-{module.stem}", sources, module.parent / "__pycache__")):
        return njit(POLICY_SIG, cache=True)(decide)


@dataclass(frozen=True)
class Param:
    """One named, bounded policy parameter."""

    name: str
    default: float
    low: float
    high: float
    doc: str


@dataclass(frozen=True)
class Policy:
    """A registered policy: its decision function, description and parameters."""

    name: str
    description: str
    decide: Any
    params: tuple[Param, ...] = field(default_factory=tuple)

    def vector(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        """The parameter vector: defaults, with named overrides checked against the bounds."""
        values = {p.name: p.default for p in self.params}
        for key, value in (overrides or {}).items():
            spec = next((p for p in self.params if p.name == key), None)
            if spec is None:
                known = ", ".join(p.name for p in self.params) or "none"
                raise ValueError(f"policy {self.name!r} has no parameter {key!r} (known: {known})")
            if not spec.low <= float(value) <= spec.high:
                raise ValueError(f"policy {self.name!r}: {key}={value} is outside [{spec.low}, {spec.high}]")
            values[key] = float(value)
        return np.array([values[p.name] for p in self.params] or [0.0], dtype=np.float64)


_REGISTRY: dict[str, Policy] = {}


def register(policy: Policy) -> Policy:
    """Add a policy to the registry (policy modules call this at import)."""
    _REGISTRY[policy.name] = policy
    return policy


def _discover() -> None:
    """Import every module of the ``policies.dstbg`` package so they register themselves."""
    import policies.dstbg as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"policies.dstbg.{info.name}")


def load_external(spec: str) -> Policy:
    """Load ``path/to/module.py:name`` from outside the package and return the policy it registers."""
    path_text, _, name = spec.partition(":")
    path = Path(path_text)
    if not path.is_file():
        raise ValueError(f"policy file not found: {path}")
    module_spec = importlib.util.spec_from_file_location(f"dsim_external_policy_{path.stem}", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    if name not in _REGISTRY:
        raise ValueError(f"{path} did not register a policy named {name!r}")
    return _REGISTRY[name]


def get_policy(name: str) -> Policy:
    """A registered policy by name, or an external one given as ``path.py:name``."""
    if ".py:" in name:
        return load_external(name)
    _discover()
    if name not in _REGISTRY:
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[name]


def all_policies() -> list[Policy]:
    """Every registered policy, by name."""
    _discover()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
