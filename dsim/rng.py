"""Counter-based randomness usable from Numba (design §5).

A battle's random stream is a pure function of ``(seed, stream, battle)``: the key is a
SplitMix64 hash of the three, and the n-th draw is ``splitmix64(key + n·γ)``. No state is
shared between battles, so results are identical whatever the thread count or chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from dsim import compile_notice
from dsim.numba_start import load_implementations, quicker_compiles

load_implementations()  # before this module's first compile: every kernel imports it (dsim.numba_start says why)
quicker_compiles()
compile_notice.install()  # and before it, so the command line can say when a run compiles

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective 64-bit avalanche hash."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def battle_key(seed: int, stream: int, battle: int) -> np.uint64:
    """The key of one battle's stream: a hash of seed, cell stream and battle index."""
    k = mix64(np.uint64(seed) + _GAMMA)
    k = mix64(k ^ (np.uint64(stream) + _GAMMA * np.uint64(2)))
    return mix64(k ^ (np.uint64(battle) + _GAMMA * np.uint64(3)))


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """Next 64-bit draw of a stream held as ``rng = [key, counter]`` (uint64[2])."""
    rng[1] += np.uint64(1)
    return mix64(rng[0] + rng[1] * _GAMMA)


@njit(cache=True)
def draw_at(rng: np.ndarray, n: int) -> np.uint64:
    """The ``n``-th draw of the stream ``rng`` without moving its counter (e.g. a nonce per decision that leaves
    the stream's own draws untouched)."""
    return mix64(rng[0] + np.uint64(n) * _GAMMA)


@njit(types.int64(types.uint64[::1], types.int64), cache=True)
def randint(rng: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)`` by the multiply-shift method on the high 32 bits. One explicit
    signature: callers passing literals, int32 or int64 share one compiled function (they each
    compiled their own before)."""
    x = next_u64(rng) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


def stream_key(text: str) -> int:
    """A stable 63-bit stream key for a string (e.g. a sweep cell id)."""
    import hashlib

    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1
