"""Numba's on-disk cache, made safe across files: a cache folder named by a hash of the sources.

Numba checks only a cached function's own source file, so after an edit to a module whose
functions it calls (and links into its machine code), it would load stale code. Compiling under
:func:`cache_under` a folder from :func:`cache_folder` ties the cache to every source listed.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from numba.core import config


def cache_folder(name: str, sources: Iterable[Path], default_base: Path) -> str:
    """``<NUMBA_CACHE_DIR or default_base>/<name>-<hash of the sources' names and bytes>``."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or str(default_base)
    return os.path.join(base, f"{name}-{digest.hexdigest()[:16]}")


@contextmanager
def cache_under(folder: str) -> Iterator[None]:
    """Functions decorated (or compiled with an explicit signature) inside cache under ``folder``."""
    previous = config.CACHE_DIR
    config.CACHE_DIR = folder
    try:
        yield
    finally:
        config.CACHE_DIR = previous
