"""dsim.numba_start: Numba's implementations load without importing scipy.linalg, and linear algebra in
Numba code still works (0.15–0.3 s of a cached start went into that import)."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import sys
import numpy as np
import dsim.rng  # loads Numba's implementations (dsim.numba_start)
assert "numba.np.arraymath" in sys.modules, "implementations not loaded"
print("scipy.linalg" in sys.modules)
from numba import njit
@njit
def dot(a):
    return np.dot(a, a)
print(dot(np.arange(3.0)))
"""


def test_kernels_start_without_scipy_linalg_and_numba_linear_algebra_still_works() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "5.0"]


def test_scipy_linalg_imported_first_is_left_as_it_is() -> None:
    program = "import scipy.linalg, sys\nfrom dsim.numba_start import load_implementations\nload_implementations()\n" \
              "print(sys.modules['scipy.linalg.cython_blas'] is not None, 'numba.np.arraymath' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False"]


def test_quicker_compiles_leaves_every_flags_value_as_numba_computes_it() -> None:
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    import dsim.rng  # noqa: F401  (installs quicker_compiles)

    numba_values = TargetConfig.values.__wrapped__
    flags = Flags()
    flags.nrt = True
    flags.no_cpython_wrapper = True
    flags.inline = "always"
    for config in (Flags(), flags, Flags(flags)):
        values = config.values()
        assert values == numba_values(config) and list(values.items()) == list(numba_values(config).items())
    assert flags == Flags(flags) and hash(flags) == hash(Flags(flags)) and flags != Flags()


def test_quicker_compiles_drops_only_numba_s_llvm_lock_timer_and_compiles_as_before() -> None:
    program = ("import llvmlite.binding as ll\nimport numba.core.base\n"
               "before = len(ll.ffi.lib._lock._cblist)\nimport dsim.rng\n"
               "from numba import njit\nprint(before, len(ll.ffi.lib._lock._cblist), njit(lambda x: x * 3)(7))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["1", "0", "21"]
