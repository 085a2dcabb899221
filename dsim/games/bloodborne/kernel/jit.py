"""The kernel's decorator: cached Numba functions under a folder hashed over every kernel source."""

from __future__ import annotations

from pathlib import Path

from numba import njit

from dsim.numba_cache import cache_folder, cache_under

_HERE = Path(__file__).resolve().parent
_DSIM = _HERE.parents[2]
SOURCES = sorted(_HERE.glob("*.py")) + [_HERE.parent / "dice.py", _HERE.parent / "policy.py",
                                        _HERE.parent / "variants.py", _DSIM / "rng.py", _DSIM / "numba_cache.py"]
KERNEL_CACHE_DIR = cache_folder("bloodborne-kernel", SOURCES, _HERE / "__pycache__")


def kernel_cache():
    """Compile under :data:`KERNEL_CACHE_DIR` (:mod:`dsim.numba_cache`)."""
    return cache_under(KERNEL_CACHE_DIR)


def jit(func=None, *, inline=False):
    """A cached kernel function that never allocates, so it runs without reference counting (passing the
    15-array state would otherwise cost 30 atomic counter updates per call); plain Python under
    ``NUMBA_DISABLE_JIT=1``. ``inline=True`` inlines it into its callers (Numba IR): a call passes the state
    and tables as some 200 machine words, which costs more than a small hot step itself."""
    if func is None:
        return lambda f: jit(f, inline=inline)
    with kernel_cache():
        return njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                    inline="always" if inline else "never")(func)


def allocating(func):
    """A cached kernel function that allocates (with reference counting)."""
    with kernel_cache():
        return njit(cache=True)(func)
