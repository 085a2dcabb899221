"""Python entry points of the Dark Maiden kernel: batches of games, one replayed game, steps of a hand-set game.

The entries are compiled with explicit signatures whose policy argument is a first-class function type, so one
cached kernel serves every policy.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

import numba
import numpy as np
from numba.core.registry import CPUDispatcher as Dispatcher

from dsim.games.dark_maiden.compile import Tables
from dsim.games.dark_maiden.kernel import batch as B
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.jit import kernel_cache
from dsim.games.dark_maiden.kernel.state import State, new_state
from dsim.games.dark_maiden.policy import PolicyFunctionType
from dsim.pieces import pieces, play_pieces

GAME_PIECE = 64  # games a thread takes at a time: a game takes 20-300 us a thread (random to normal play)
MIN_GAME_PIECE = 32  # fewer games than this are not worth waking another thread for
LAST_GAME_PIECE = 4  # the smallest piece, at the end of a batch
STEPS = {"turn": B.STEP_TURN, "attack": B.STEP_ATTACK, "precipice": B.STEP_PRECIPICE, "goblin": B.STEP_GOBLIN,
         "bonus": B.STEP_BONUS, "draw": B.STEP_DRAW, "fight": B.STEP_FIGHT, "check_site": B.STEP_CHECK_SITE}

warnings.filterwarnings("ignore", "First-class function type feature is experimental",
                        numba.NumbaExperimentalFeatureWarning)
_I64, _I32V, _F64V = numba.types.int64, numba.types.int32[::1], numba.types.float64[::1]


@lru_cache(maxsize=None)
def _batch(tables_type: Any) -> Any:
    sig = numba.types.void(tables_type, PolicyFunctionType, _F64V, _I32V, _I32V, _I64, _I64, _I64, _I64, _I64,
                           numba.types.int32[:, ::1])
    with kernel_cache():
        return numba.njit(sig, cache=True, nogil=True)(B.play_batch_impl)


_ENTRIES: dict[str, Any] = {}


def _entry(name: str) -> Any:
    """A one-game entry of :mod:`.kernel.batch` (``play_one``, ``setup``, ``step``), compiled (or loaded from the
    cache) at its first call, for the types of that call's arguments (the same at every call: the callers pass
    the tables, a state, contiguous vectors and Python integers). The signature is explicit and the policy a
    first-class function: typed as the dispatcher it is, the policy made a new cache entry, and a 40-second
    compile, in every process."""
    impl = getattr(B, f"{name}_impl")
    if numba.config.DISABLE_JIT:
        return impl

    def call(*args: Any) -> None:
        if name not in _ENTRIES:
            arg_types = (PolicyFunctionType if isinstance(a, Dispatcher) else numba.typeof(a) for a in args)
            with kernel_cache():
                _ENTRIES[name] = numba.njit(numba.types.void(*arg_types), cache=True)(impl)
        _ENTRIES[name](*args)

    return call


def _vec(values: Any, dtype: Any) -> np.ndarray:
    return np.ascontiguousarray(np.atleast_1d(np.asarray(values, dtype)))


def play_batch(tables: Tables, policy: Any, params: np.ndarray, variants: np.ndarray, party: np.ndarray, lives: int,
               items: int, seed: int, stream: int, start: int, count: int) -> np.ndarray:
    """Outcome rows (``count`` × ``N_OUT`` int32) of games ``start .. start+count-1``, in pieces that the threads
    take in turn (:mod:`dsim.pieces`)."""
    out = np.zeros((count, L.N_OUT), np.int32)
    args = (_vec(params, np.float64), _vec(variants, np.int32), _vec(party, np.int32), lives, items, seed, stream)
    if numba.config.DISABLE_JIT:
        B.play_batch_impl(tables, policy, *args, start, out)
        return out
    batch = _batch(numba.typeof(tables))
    threads = numba.get_num_threads()
    play_pieces(pieces(count, threads, GAME_PIECE, MIN_GAME_PIECE, LAST_GAME_PIECE), threads,
                lambda worker, lo, hi: batch(tables, policy, *args, start + lo, out[lo:hi]))
    return out


def prepared_state(tables: Tables, variants: np.ndarray, forced: Any = None, trace_events: int = 0) -> State:
    """A state for :func:`play_one` and the steps (forced die faces are used before random rolls)."""
    forced = np.zeros(0, np.int32) if forced is None else _vec(forced, np.int32)
    s = new_state(tables.cards.shape[0], _vec(variants, np.int32), forced, trace_events)
    s.table[L.T_FORCED_N] = forced.shape[0]
    return s


def play_one(tables: Tables, policy: Any, params: np.ndarray, variants: np.ndarray, party: np.ndarray, lives: int,
             items: int, seed: int, stream: int, index: int, trace_events: int = 50_000) -> tuple[State, np.ndarray]:
    """Replay game ``index`` with its trace: the final state and the outcome row."""
    s = prepared_state(tables, variants, None, trace_events)
    out = np.zeros(L.N_OUT, np.int32)
    _entry("play_one")(tables, s, policy, _vec(params, np.float64), _vec(party, np.int32), int(lives), int(items),
                       int(seed), int(stream), int(index), out)
    return s, out


def new_game(tables: Tables, variants: np.ndarray, party: np.ndarray, lives: int, items: int = -1, seed: int = 0,
             index: int = 0, forced: Any = None, trace_events: int = 2_000) -> State:
    """The state after DM-2's setup of game ``index``: the start of a hand-set test scenario."""
    s = prepared_state(tables, variants, forced, trace_events)
    _entry("setup")(tables, s, _vec(party, np.int32), int(lives), int(items), int(seed), 0, int(index))
    return s


def step(tables: Tables, s: State, policy: Any, params: np.ndarray, which: str, arg: int = 0) -> np.ndarray:
    """Play one step (:data:`STEPS`) on ``s`` in place; the outcome row is filled once the game is over."""
    out = np.zeros(L.N_OUT, np.int32)
    _entry("step")(tables, s, policy, _vec(params, np.float64), int(STEPS[which]), int(arg), out)
    return out
