"""Player policies shared by every game: bounded parameters, a registry per game, discovery by package.

A game's policy is a Numba function compiled against that game's own signature, so adding a policy never
edits the kernel (a game may also compile an entry of its own for each policy, as DS:TBG does). What is common
is the bookkeeping: named, bounded parameters (:class:`Param`) that become the float vector the
kernel passes to the policy, and a registry (:class:`PolicyRegistry`) that finds every module of
``policies/<game>/`` and loads ``path/to/module.py:name`` files from outside the package.
"""

from __future__ import annotations

import importlib
import inspect
import importlib.util
import pkgutil
import sys
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np


class Deferred:
    """A Numba function compiled on first use: importing a policy module (to list or pick one)
    compiles nothing, so a run pays only for the policy it plays. Calling it calls the compiled
    function; :func:`compiled` gives the dispatcher itself (what a kernel takes)."""

    def __init__(self, build: Callable[[], Any], name: str, sources: tuple[Path, ...] = (),
                 reads: Mapping[str, tuple[int, ...]] | None = None) -> None:
        self._build, self._function, self.__name__ = build, None, name
        self.sources = sources  # the files its cache folder is hashed over
        self.reads = dict(reads or {})  # per question kind, the only option columns it reads (see policy_decorator)

    @property
    def function(self) -> Any:
        """The compiled dispatcher (compiled, or loaded from the cache, on the first access)."""
        if self._function is None:
            self._function = self._build()
        return self._function

    def __call__(self, *args: Any) -> Any:
        return self.function(*args)


def policy_decorator(signature: Any, prefix: str, sources: list[Path]) -> Callable[..., Any]:
    """A game's ``@policy_function`` decorator: ``decide`` compiled for ``signature`` when first used,
    cached under a folder named by ``prefix``, the module and the compile flag, and hashed over the
    module, this file (the flags) and ``sources`` (the game's policy interface and shared helpers), so an edit to any of them,
    or another flag, recompiles (:mod:`dsim.numba_cache`; Numba's own cache key ignores flags). Policies
    compile without reference counting (calls cost a quarter, and threads stop contending for the
    reference count of the shared parameter array), which forbids making arrays: a policy that does (or
    calls a helper that does) asks ``@policy_function(refcount=True)``.

    ``reads`` declares, per kind of question a game names, the only option columns the policy reads, e.g.
    ``@policy_function(reads={"step": (1, 2, 4, 7)})``: where the game's kernel plays a policy in an entry of its
    own, it may then leave the other columns of those questions 0 instead of working them out (a game's policy
    README says which kinds it honours)."""
    from numba import njit

    from dsim.numba_cache import cache_folder, cache_under

    def policy_function(decide: Any = None, *, refcount: bool = False,
                        reads: Mapping[str, tuple[int, ...]] | None = None) -> Any:
        if decide is None:
            return lambda function: policy_function(function, refcount=refcount, reads=reads)
        module = Path(inspect.getfile(decide)).resolve()
        files = [module, Path(__file__).resolve()] + [path for path in sources if path.exists() and path != module]
        name = f"{prefix}-{module.stem}-{'rc' if refcount else 'norc'}"

        def build() -> Any:
            with cache_under(cache_folder(name, files, module.parent / "__pycache__")):
                return njit(signature, cache=True, _nrt=refcount)(decide)

        return Deferred(build, decide.__name__, tuple(files), reads)

    return policy_function


def compiled(decide: Any) -> Any:
    """The dispatcher of a policy function, compiling a :class:`Deferred` one now."""
    return decide.function if isinstance(decide, Deferred) else decide


@dataclass(frozen=True)
class Param:
    """One named, bounded policy parameter. ``whole`` marks a count or an on/off switch (``0``/``1``):
    it takes whole numbers only, so tuning samples whole numbers and an override such as 2.5 is refused."""

    name: str
    default: float
    low: float
    high: float
    doc: str
    whole: bool = False

    def __post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"parameter {self.name!r}: default {self.default} is outside [{self.low}, {self.high}]")
        if self.whole and not all(float(x).is_integer() for x in (self.default, self.low, self.high)):
            raise ValueError(f"parameter {self.name!r} takes whole numbers: its default and bounds must be whole")


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
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"policy {self.name!r}: {key} takes a number, got {value!r}") from None
            if not spec.low <= number <= spec.high:
                raise ValueError(f"policy {self.name!r}: {key}={value} is outside [{spec.low:g}, {spec.high:g}]")
            if spec.whole and not number.is_integer():
                raise ValueError(f"policy {self.name!r}: {key} takes a whole number, got {value!r}")
            values[key] = number
        return np.array([values[p.name] for p in self.params] or [0.0], dtype=np.float64)

    def describe(self) -> dict[str, Any]:
        """The policy as plain data: name, description and parameters with bounds and defaults."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": [
                {"name": p.name, "default": p.default, "low": p.low, "high": p.high, "whole": p.whole, "doc": p.doc}
                for p in self.params
            ],
        }


class PolicyRegistry:
    """The policies of one game: modules of ``package`` register themselves when imported
    (``package=None``: only the policies registered directly)."""

    def __init__(self, package: str | None) -> None:
        self.package = package
        self._policies: dict[str, Policy] = {}

    def register(self, policy: Policy) -> Policy:
        """Add a policy (policy modules call this at import)."""
        self._policies[policy.name] = policy
        return policy

    def _discover(self) -> None:
        """Import every module of the package so they register themselves."""
        if self.package is None:
            return
        package = importlib.import_module(self.package)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{self.package}.{info.name}")

    def load_external(self, spec: str) -> Policy:
        """Load ``path/to/module.py:name`` from outside the package and return the policy it registers."""
        path_text, _, name = spec.partition(":")
        path = Path(path_text)
        if path.is_dir():
            raise ValueError(f"policy file {path} is a directory, not a Python file")
        if not path.is_file():
            raise ValueError(f"policy file not found: {path}")
        module_spec = importlib.util.spec_from_file_location(f"dsim_external_policy_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"{path}: not a Python module")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_spec.name] = module  # importable by name, as Numba's cache needs when it loads the policy
        registered = dict(self._policies)
        try:
            module_spec.loader.exec_module(module)
        except Exception as error:  # the user's own code: one line naming the file (and line), not a traceback
            sys.modules.pop(module_spec.name, None)
            self._policies = registered  # nothing the failed file registered stays
            where = f": line {error.lineno}" if isinstance(error, SyntaxError) and error.lineno else ""
            what = error.msg if isinstance(error, SyntaxError) else f"{type(error).__name__}: {error}"
            raise ValueError(f"policy file {path}{where}: {what}") from None
        if name not in self._policies:
            raise ValueError(f"{path} did not register a policy named {name!r}")
        return self._policies[name]

    def get(self, name: str) -> Policy:
        """A registered policy by name, or an external one given as ``path.py:name``."""
        if ".py:" in name:
            return self.load_external(name)
        self._discover()
        if name not in self._policies:
            hint = " (a policy file is named as path/to/module.py:name)" if name.endswith(".py") else ""
            raise ValueError(f"unknown policy {name!r} (known: {', '.join(sorted(self._policies))}){hint}")
        return self._policies[name]

    def all(self) -> list[Policy]:
        """Every registered policy, by name."""
        self._discover()
        return [self._policies[k] for k in sorted(self._policies)]

