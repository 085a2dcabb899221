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
