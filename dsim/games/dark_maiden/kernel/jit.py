"""The kernel's decorators: cached Numba functions under a folder hashed over every kernel source."""

from __future__ import annotations

from pathlib import Path

from dsim.numba_cache import KernelCompiler

_HERE = Path(__file__).resolve().parent
_DSIM = _HERE.parents[2]
SOURCES = sorted(_HERE.glob("*.py")) + [_HERE.parent / "policy.py", _HERE.parent / "variants.py",
                                        _HERE.parent / "engine.py",  # the entries' signatures
                                        _DSIM / "rng.py", _DSIM / "numba_cache.py", _DSIM / "numba_ref.py"]
_COMPILER = KernelCompiler("dark-maiden-kernel", SOURCES, _HERE / "__pycache__")
kernel_cache, jit, allocating, entry = _COMPILER.cache, _COMPILER.jit, _COMPILER.allocating, _COMPILER.entry
