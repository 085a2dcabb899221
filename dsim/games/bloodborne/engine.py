"""Python entry points of the Bloodborne kernel: batches of games and one replayed game.

The batch entry is compiled once with an explicit signature whose policies argument is a tuple of
five first-class policy functions (one per seat), so one cached kernel serves every policy mix.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

import numba
import numpy as np

from dsim.games.bloodborne.compile import Tables
from dsim.games.bloodborne.kernel import batch as B
from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.kernel.jit import entry, kernel_cache
from dsim.games.bloodborne.kernel.state import State, new_state
from dsim.games.bloodborne.policy import PolicyFunctionType
from dsim.pieces import pieces, play_pieces

GAME_PIECE = 128  # games a thread takes at a time: a four-hunter game takes ~30 us a thread, so ~4 ms
MIN_GAME_PIECE = 64  # fewer games than this (~2 ms) are not worth waking another thread for
LAST_GAME_PIECE = 8  # the smallest piece, at the end of a batch

warnings.filterwarnings("ignore", "First-class function type feature is experimental",
                        numba.NumbaExperimentalFeatureWarning)  # the per-seat policy tuple is such a type
POLICIES_TYPE = numba.types.UniTuple(PolicyFunctionType, L.MAX_HUNTERS)


@lru_cache(maxsize=None)
def _batch(tables_type: Any) -> Any:
    i64 = numba.types.int64
    sig = numba.types.void(tables_type, POLICIES_TYPE, numba.types.float64[:, ::1], numba.types.int32[::1],
                           i64, numba.types.int32[:, ::1], i64, i64, i64, numba.types.int32[:, ::1])
    with kernel_cache():
        return numba.njit(sig, cache=True, nogil=True)(B.play_batch_impl)


@lru_cache(maxsize=None)
def _entry(name: str) -> Any:
    """A one-game entry of :mod:`.kernel.batch` (``play_one``, ``setup``, ``round``), compiled on first use."""
    return entry(getattr(B, f"{name}_impl"))


def _pols(policies: tuple) -> tuple:
    """Five policy functions, one per seat (empty seats repeat the first)."""
    return tuple(policies[k] if k < len(policies) else policies[0] for k in range(L.MAX_HUNTERS))


def _params(params: np.ndarray) -> np.ndarray:
    rows = np.zeros((L.MAX_HUNTERS, max(1, params.shape[1])), np.float64)
    rows[: params.shape[0]] = params
    return np.ascontiguousarray(rows)


@lru_cache(maxsize=None)
def seatings(hunters: int, seating: str) -> np.ndarray:
    """The seat → listed-position rows game ``i`` takes in turn (:data:`layout.SEATINGS`), int32[k, MAX_HUNTERS]."""
    import itertools

    if seating == "fixed":
        orders = [tuple(range(hunters))]
    elif seating == "rotate":
        orders = [tuple((h - k) % hunters for h in range(hunters)) for k in range(hunters)]
    elif seating == "permute":
        orders = list(itertools.permutations(range(hunters)))
    else:
        raise ValueError(f"seating must be one of {', '.join(L.SEATINGS)}, got {seating!r}")
    rows = np.zeros((len(orders), L.MAX_HUNTERS), np.int32)
    rows[:, :hunters] = orders
    return rows


def play_batch(tables: Tables, policies: tuple, params: np.ndarray, variants: np.ndarray, hunters: int,
               seed: int, stream: int, start: int, count: int, seating: str = "fixed") -> np.ndarray:
    """Outcome rows (``count`` × ``N_OUT`` int32) of games ``start .. start+count-1``, the listed policies
    seated by ``seating`` (:data:`layout.SEATINGS`), in pieces that the threads take in turn (:mod:`dsim.pieces`)."""
    out = np.zeros((count, L.N_OUT), np.int32)
    pols, rows, vec = _pols(policies), _params(params), np.ascontiguousarray(variants, np.int32)
    seats = seatings(hunters, seating)
    if numba.config.DISABLE_JIT:
        B.play_batch_impl(tables, pols, rows, vec, hunters, seats, seed, stream, start, out)
        return out
    batch = _batch(numba.typeof(tables))
    threads = numba.get_num_threads()
    play_pieces(pieces(count, threads, GAME_PIECE, MIN_GAME_PIECE, LAST_GAME_PIECE), threads,
                lambda worker, lo, hi: batch(tables, pols, rows, vec, hunters, seats, seed, stream, start + lo,
                                             out[lo:hi]))
    return out


def prepared_state(tables: Tables, variants: np.ndarray, forced: np.ndarray | None = None,
                   trace_events: int = 0) -> State:
    """A state for :func:`play_one` (forced die faces are used before random rolls)."""
    forced = np.zeros(0, np.int32) if forced is None else np.asarray(forced, np.int32)
    s = new_state(tables.cards.shape[0], tables.bonus.shape[0], tables.upgrades.shape[0],
                  int(max(tables.sizes[L.Z_MONSTERS], tables.sizes[L.Z_BOSSES])),
                  np.ascontiguousarray(variants, np.int32), forced, trace_events)
    s.table[L.T_FORCED_N] = forced.shape[0]
    return s


def play_one(tables: Tables, policies: tuple, params: np.ndarray, variants: np.ndarray, hunters: int,
             seed: int, stream: int, index: int, seating: str = "fixed",
             trace_events: int = 20_000) -> tuple[State, np.ndarray]:
    """Replay game ``index`` with its trace: the final state and the outcome row."""
    s = prepared_state(tables, variants, None, trace_events)
    out = np.zeros(L.N_OUT, np.int32)
    _entry("play_one")(tables, s, _pols(policies), _params(params), hunters, seatings(hunters, seating), seed,
                       stream, index, out)
    return s, out


def setup_game(tables: Tables, policies: tuple, params: np.ndarray, variants: np.ndarray, hunters: int,
               seed: int = 0, index: int = 0, forced: np.ndarray | None = None, trace_events: int = 2_000) -> State:
    """The state after BB-2's setup of game ``index`` — the start of a hand-set test scenario."""
    s = prepared_state(tables, variants, forced, trace_events)
    _entry("setup")(tables, s, _pols(policies), _params(params), hunters, seatings(hunters, "fixed")[0], seed, 0,
                    index)
    return s


def play_round(tables: Tables, s: State, policies: tuple, params: np.ndarray) -> np.ndarray:
    """Play one round (BB-4.1) on ``s`` in place; the outcome row is filled once the game is over."""
    out = np.zeros(L.N_OUT, np.int32)
    _entry("round")(tables, s, _pols(policies), _params(params), out)
    return out


def outcome_columns(rows: np.ndarray, hunters: int) -> dict[str, np.ndarray]:
    """Outcome rows as named columns: winner, per-seat results (all five seats; empty ones hold 0), totals,
    rounds, timeouts, and ``win_listed_p``: did the policy listed ``p``-th win (wherever the seating put it)."""
    cols: dict[str, np.ndarray] = {"winner": rows[:, L.OUT_WINNER].astype(np.int64),
                                   "rounds": rows[:, L.OUT_ROUNDS].astype(np.int64),
                                   "timeout": rows[:, L.OUT_OVER] == L.OVER_TIMEOUT,
                                   "killed": rows[:, L.OUT_KILLED].astype(np.int64),
                                   "escaped": rows[:, L.OUT_ESCAPED].astype(np.int64),
                                   "first_player": rows[:, L.OUT_FIRST].astype(np.int64)}
    block = {name: rows[:, L.OUT_SEAT + f * L.MAX_HUNTERS: L.OUT_SEAT + (f + 1) * L.MAX_HUNTERS]
             for f, name in enumerate(L.S_NAMES)}
    for name in L.S_NAMES[: L.S_LISTED]:
        for k in range(L.MAX_HUNTERS):  # every seat, so results of 3- and 5-hunter cells share one schema
            cols[f"{name}_seat_{k}"] = block[name][:, k] == 1 if name == "win" else block[name][:, k].astype(np.int64)
        if name != "win" and name != "score":
            cols[name] = block[name][:, :hunters].sum(axis=1).astype(np.int64)
    cols["first_player_won"] = rows[:, L.OUT_WINNER] == rows[:, L.OUT_FIRST]
    wins, seated = block["win"] == 1, np.arange(L.MAX_HUNTERS) < hunters
    for p in range(L.MAX_HUNTERS):  # did the policy listed p-th win, wherever the seating put it
        cols[f"win_listed_{p}"] = (wins & (block["listed"] == p) & seated).any(axis=1)
    return cols
