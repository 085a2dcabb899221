"""Numba's implementations loaded without importing ``scipy.linalg``: 0.15–0.3 s of a cached start.

The first compile or cache load in a process makes Numba import its implementations of NumPy,
and ``numba.np.arraymath`` then probes for BLAS by importing ``scipy.linalg.cython_blas``, which
imports all of ``scipy.linalg`` (0.15–0.3 s here; ``numpy.f2py`` comes with it). The kernels use
no linear algebra. :func:`load_implementations` lets that probe fail at once, then lets the module
be imported normally: ``np.dot`` and the ``np.linalg`` functions in Numba code check for BLAS when
they are compiled and work as before; only ``np.correlate``/``np.convolve`` on floats fall back to
Numba's own loop instead of BLAS.
"""

from __future__ import annotations

import sys

_PROBE = "scipy.linalg.cython_blas"


def load_implementations() -> None:
    """Load Numba's CPU implementations now, with the BLAS probe failing (once per process; a no-op when
    they are loaded already or ``scipy.linalg`` was imported anyway)."""
    if "numba.np.arraymath" in sys.modules or _PROBE in sys.modules:
        return
    from numba.core.registry import cpu_target

    sys.modules[_PROBE] = None  # type: ignore[assignment]  # `import` of a None entry raises at once
    try:
        cpu_target.target_context.refresh()
    finally:
        del sys.modules[_PROBE]


_DEFAULTS: dict[type, dict] = {}  # per TargetConfig class: its options' defaults, in its options' order


def _option_values(self) -> dict:
    """``TargetConfig.values`` as Numba computes it (every option, set or default, in the options' order), from the
    class's defaults and the config's own values instead of through a property per option (about 45 of them)."""
    cls = type(self)
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = _DEFAULTS[cls] = {name: option._default for name, option in cls.options.items()}
    own = self._values
    if own.keys() <= defaults.keys():
        return {**defaults, **own}
    return {name: own.get(name, default) for name, default in defaults.items()}


def _is_numba_llvm_lock_timer(callback) -> bool:
    """Whether ``callback`` is one of the two that Numba registers on llvmlite's lock for its ``llvm_lock`` timer."""
    return getattr(callback, "__module__", "") == "numba.core.base" and \
        "_initialize_llvm_lock_event" in getattr(callback, "__qualname__", "")


def quicker_compiles() -> None:
    """Cut two of Numba's bookkeeping costs that a cold compile pays by the hundred thousand; what Numba compiles and
    how stay the same (once per process):

    * every lookup of an ``@overload``'s implementation hashes and compares the compile flags, and each comparison
      builds the dictionary of all their options through one Python property each: the dictionary is built from the
      flags' own values instead (the same dictionary);
    * every call into LLVM (some 130,000 in a cold DS:TBG compile) broadcast two events for Numba's ``llvm_lock``
      timer to every compile in progress, only to fill the diagnostic ``timers`` of its compile metadata: the timer's
      callbacks are removed (it reads 0).

    Together about 8% of a cold compile's CPU time in a profile of DS:TBG's."""
    import llvmlite.binding as ll
    from numba.core import targetconfig

    if getattr(targetconfig.TargetConfig.values, "__wrapped__", None) is None:
        _option_values.__wrapped__ = targetconfig.TargetConfig.values  # type: ignore[attr-defined]
        targetconfig.TargetConfig.values = _option_values
    for acquire, release in list(ll.ffi.lib._lock._cblist):
        if _is_numba_llvm_lock_timer(acquire):
            ll.ffi.unregister_lock_callback(acquire, release)
