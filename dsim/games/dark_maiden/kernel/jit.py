"""The kernel's decorators: cached Numba functions under a folder hashed over every kernel source and what they
import (:func:`dsim.numba_cache.imported_sources`), the engine's entries included."""

from __future__ import annotations

from pathlib import Path

from dsim.numba_cache import KernelCompiler, imported_sources

_HERE = Path(__file__).resolve().parent
SOURCES = imported_sources([*_HERE.glob("*.py"), _HERE.parent / "engine.py"])  # engine.py: the entries' signatures
_COMPILER = KernelCompiler("dark-maiden-kernel", SOURCES, _HERE / "__pycache__")
kernel_cache, jit, allocating, entry = _COMPILER.cache, _COMPILER.jit, _COMPILER.allocating, _COMPILER.entry
