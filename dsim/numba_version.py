"""The Numba versions dsim's compile machinery (:mod:`dsim.numba_linking`) is tested on, and the one-line error
for any other: that machinery subclasses Numba's code libraries and compiler passes, internals that change between
minor versions, so an untested Numba is refused before anything compiles rather than failing inside the compiler.
Light on purpose (no Numba import), so that the command line can catch the error."""

from __future__ import annotations

TESTED = ((0, 68), (0, 69))  # [lowest, first refused): pyproject.toml pins the same range


class UnsupportedNumba(ImportError):
    """The installed Numba is outside :data:`TESTED` (message: one line, with the fix)."""


def _minor(version: str) -> tuple[int, int] | None:
    parts = version.split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def check(version: str) -> None:
    """Raise :class:`UnsupportedNumba` unless Numba ``version`` (e.g. ``"0.68.1"``) is in :data:`TESTED`."""
    (low_major, low_minor), (high_major, high_minor) = TESTED
    minor = _minor(version)
    if minor is None or not (low_major, low_minor) <= minor < (high_major, high_minor):
        raise UnsupportedNumba(
            f"dsim's kernels are tested on numba >={low_major}.{low_minor},<{high_major}.{high_minor} and this is numba "
            f"{version}: install a tested one (pip install 'numba>={low_major}.{low_minor},<{high_major}.{high_minor}')")
