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


def prepared_state(tables: Tables, variants: np.ndarray, forced: Any = None, trace_events: int = 0,
                   decisions: np.ndarray | None = None) -> State:
    """A state for :func:`play_one` and the steps (forced die faces are used before random rolls; ``decisions``:
    the first answers of the game's decisions, forced — a searcher's, :mod:`dsim.games.dark_maiden.searchers`)."""
    forced = np.zeros(0, np.int32) if forced is None else _vec(forced, np.int32)
    log = 0 if decisions is None else L.SR_CHOICES + len(decisions)
    s = new_state(tables.cards.shape[0], _vec(variants, np.int32), forced, trace_events, log)
    s.table[L.T_FORCED_N] = forced.shape[0]
    if decisions is not None:
        s.search[L.SR_MODE] = L.SEARCH_ADVANCE
        s.search[L.SR_FORCED] = len(decisions)
        s.search[L.SR_HIDE_AT] = -1
        s.search[L.SR_CHOICES:] = decisions
    return s


def play_one(tables: Tables, policy: Any, params: np.ndarray, variants: np.ndarray, party: np.ndarray, lives: int,
             items: int, seed: int, stream: int, index: int, trace_events: int = 50_000,
             decisions: np.ndarray | None = None) -> tuple[State, np.ndarray]:
    """Replay game ``index`` with its trace: the final state and the outcome row (``decisions``: the first answers
    forced, the policy's after)."""
    s = prepared_state(tables, variants, None, trace_events, decisions)
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


@lru_cache(maxsize=None)
def _search_entry(tables_type: Any) -> Any:
    """Compile (or load from the cache) the search entry (:func:`B.search_block_impl`) for one Tables type: replays
    with forced decisions, without the GIL, so a call's replays share out among threads (:mod:`dsim.pieces`)."""
    t = numba.types
    i64, i64a = t.int64, t.int64[::1]
    sig = t.void(tables_type, PolicyFunctionType, _F64V, _I32V, _I32V, i64, i64, i64, i64, i64, i64a,
                 t.int32[:, ::1], i64a, i64a, i64a, t.uint64[::1], i64a, i64, i64, _F64V, t.int64[:, ::1],
                 t.int32[:, ::1])
    with kernel_cache():
        return numba.njit(sig, cache=True, nogil=True)(B.search_block_impl)


SEARCH_PIECE = 16  # replays a thread takes at a time in a search call (a tactician's game is ~0.2 ms)


class GameReplayer:
    """Games of one cell as a :class:`dsim.search.Replayer`: replays with forced decisions on the compiled search
    entry, each call's replays shared out among the threads. ``hidden`` (tests): ``(decision, key)`` at which the
    true games' deck order is redrawn from ``key`` (their dice are not)."""

    def __init__(self, tables: Tables, policy: Any, params: np.ndarray, variants: np.ndarray, party: np.ndarray,
                 lives: int, items: int, seed: int, stream: int, hidden: tuple[int, int] | None = None) -> None:
        self.tables, self.policy = tables, policy
        self.args = (_vec(params, np.float64), _vec(variants, np.int32), _vec(party, np.int32), int(lives),
                     int(items), int(seed), int(stream))
        at, key = hidden if hidden is not None else (-1, 0)
        self.hidden = np.array([at, np.uint64(key).astype(np.int64)], np.int64)
        self.entry = B.search_block_impl if numba.config.DISABLE_JIT else _search_entry(numba.typeof(tables))

    def _run(self, mode: int, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, job_play: np.ndarray,
             job_option: np.ndarray, job_key: np.ndarray, outcomes: bool = False
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from dsim.pieces import pieces, play_pieces
        from dsim.search import job_arrays

        plays, prefixes, lengths, job_play, job_option, job_key = job_arrays(plays, prefixes, lengths, job_play,
                                                                            job_option, job_key)
        count = len(job_play)
        values = np.empty(count, np.float64)
        info = np.zeros((count, 3), np.int64)
        out = np.zeros((count if outcomes else 0, L.N_OUT), np.int32)
        threads = numba.get_num_threads()

        def play(worker: int, lo: int, hi: int) -> None:
            self.entry(self.tables, self.policy, *self.args, mode, plays, prefixes, lengths, job_play, job_option,
                       job_key, self.hidden, lo, hi, values, info, out)

        play_pieces(pieces(count, threads, SEARCH_PIECE, SEARCH_PIECE // 4, 2), threads, play)
        return values, info, out

    def _true(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, outcomes: bool = False):
        n = len(plays)
        return self._run(L.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                         np.zeros(n, np.uint64), outcomes)

    def outcomes(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Outcome rows (as :func:`play_batch`'s) of the true games with their prefixes forced, the policy after."""
        return self._true(plays, prefixes, lengths, outcomes=True)[2]

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> Any:
        """Each game on its true stream with its prefix forced: its next decision and its value played on."""
        from dsim.search import Advance

        values, info, _ = self._true(plays, prefixes, lengths)
        ended = info[:, 0] == 0
        return Advance(options=info[:, 0].copy(), hook=np.where(ended, -1, info[:, 1]),
                       base=np.where(ended, -1, info[:, 2]), value=values)

    def rollouts(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, job_play: np.ndarray,
                 job_option: np.ndarray, job_key: np.ndarray, fair: bool) -> np.ndarray:
        """Rollout values: fair ones re-keyed with the undrawn cards and dice redrawn, all-seeing ones on the true
        game."""
        mode = L.SEARCH_FAIR if fair else L.SEARCH_SEEING
        return self._run(mode, plays, prefixes, lengths, job_play, job_option, job_key)[0]
