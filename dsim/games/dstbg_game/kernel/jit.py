"""The whole game's kernel decorators: every function compiles under one cache folder hashed over the sources its
code is built from (with :mod:`dsim.numba_linking`, as the battle kernel it calls)."""

from __future__ import annotations

from pathlib import Path

from dsim.numba_cache import cache_folder, imported_sources
from dsim.numba_linking import compiled_under

HERE = Path(__file__).resolve().parent
# this kernel's modules and engine.py (whose entries' compile options Numba's cache key ignores) with all they import,
# the battle kernel included
GAME_SOURCES = imported_sources([*HERE.glob("*.py"), HERE.parent / "engine.py"])
GAME_CACHE_DIR = cache_folder("dstbg-game", GAME_SOURCES, HERE / "__pycache__")
gk = compiled_under(GAME_CACHE_DIR, nrt=False)
allocating = compiled_under(GAME_CACHE_DIR, nrt=True)
