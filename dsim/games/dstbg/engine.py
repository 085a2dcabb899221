"""Python entry points of the DS:TBG kernel: play batches of battles, replay one with a trace.

The two Numba entries are compiled with explicit signatures whose policy argument is a
first-class function type, so one cached kernel serves every policy (numba caches nothing
for plain dispatcher arguments). Results depend only on (seed, stream, battle index).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numba
import numpy as np

from dsim.games.dstbg.kernel import battle as K
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.core import EntryPipeline, kernel_cache
from dsim.games.dstbg.policy import BATTLE_TYPE, PolicyFunctionType
from dsim.policy import compiled

DEFAULT_CHUNK = 1 << 16


def _tables_type(tables: X.Tables) -> numba.types.Type:
    return numba.typeof(tables)


@lru_cache(maxsize=None)
def _batch_entry(tables_type: numba.types.Type):
    """Compile (or load from cache) the batch entry for one Tables type: battles one after another,
    without the GIL, so that :func:`play_batch` runs one call per thread."""
    f64 = numba.types.float64[::1]
    out2d = numba.types.int32[:, ::1]
    i64 = numba.types.int64
    with kernel_cache():
        return numba.njit(
            numba.types.void(tables_type, PolicyFunctionType, f64, i64, i64, i64, out2d),
            cache=True,
            nogil=True,
            pipeline_class=EntryPipeline,
        )(K.play_batch_impl)


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads kept for the process (one per thread count asked for)."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="dstbg")
    return _POOLS[threads]


@lru_cache(maxsize=None)
def _one_entry(tables_type: numba.types.Type):
    """Compile (or load from cache) the single-battle entry (replays, rule tests) for one Tables type:
    a run of many battles never needs it, so it compiles only when a replay asks."""
    i64 = numba.types.int64
    with kernel_cache():
        return numba.njit(
            numba.types.void(tables_type, BATTLE_TYPE, PolicyFunctionType, i64, i64, i64),
            cache=True,
            pipeline_class=EntryPipeline,
        )(K.run_one_impl)


def play_batch(
    tables: X.Tables, policy, params: np.ndarray, seed: int, stream: int, start: int, count: int,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    """Outcome rows (``count`` × ``N_OUT`` int32) of battles ``start .. start+count-1``."""
    batch = _batch_entry(_tables_type(tables))
    policy = compiled(policy)
    out = np.zeros((count, K.N_OUT), np.int32)
    params = np.ascontiguousarray(params, np.float64)
    threads = numba.get_num_threads()  # NUMBA_NUM_THREADS / numba.set_num_threads, as a prange would use
    for lo in range(0, count, chunk):
        hi = min(count, lo + chunk)
        # one slice per thread (battle i's dice depend only on its index, so the slicing changes nothing)
        cuts = [lo + (hi - lo) * k // threads for k in range(threads + 1)]
        parts = [(a, z) for a, z in zip(cuts, cuts[1:]) if z > a]
        if len(parts) == 1:
            batch(tables, policy, params, seed, stream, start + lo, out[lo:hi])
            continue
        jobs = [_pool(threads).submit(batch, tables, policy, params, seed, stream, start + a, out[a:z]) for a, z in parts]
        for job in jobs:
            job.result()
    return out


def play_one(
    tables: X.Tables, policy, params: np.ndarray, seed: int, stream: int, index: int,
    forced: np.ndarray | None = None, trace_events: int = 4000,
) -> X.Battle:
    """Replay one battle with its trace; ``forced`` dice values are used first (tests)."""
    one = _one_entry(_tables_type(tables))
    policy = compiled(policy)
    b = X.new_battle(tables.steps.shape[0], params, forced, trace_events)
    one(tables, b, policy, seed, stream, index)
    return b


def play_from(
    tables: X.Tables, policy, params: np.ndarray, state: np.ndarray, seed: int = 0,
    forced: np.ndarray | None = None, trace_events: int = 4000,
) -> X.Battle:
    """Play on from a hand-placed state (:class:`dsim.games.dstbg.position.Position`) instead of a
    random setup; ``forced`` dice values are used first. The rule tests' entry point."""
    one = _one_entry(_tables_type(tables))
    policy = compiled(policy)
    b = X.new_battle(tables.steps.shape[0], params, forced, trace_events)
    b.st[:] = state
    b.cursor[K.PRESET] = 1
    one(tables, b, policy, seed, 0, 0)
    return b


def outcome_columns(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Outcome rows as named columns (plus ``win``), the form sweeps and reports consume."""
    cols = {name: rows[:, i].copy() for i, name in enumerate(K.OUTCOME_NAMES)}
    cols["win"] = rows[:, K.OUT_RESULT] == L.OUT_WIN
    return cols
