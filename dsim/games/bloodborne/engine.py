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
POLICIES_TYPE = numba.types.UniTuple(PolicyFunctionType, L.POLICY_SLOTS)
"""A policy function per listed position, then (``layout.MODEL_SLOT``) the one a searcher's model plays for all the
other hunters past the branch (``rules.searched_answer``). One slot, not one per position: every slot is passed
through each kernel call that is not inlined, in plain play too."""


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


def _pols(policies: tuple, model: Any = None) -> tuple:
    """The policy slots: a function per listed position (empty ones repeat the first), then a searcher's model
    (by default the first listed policy, never played)."""
    own = tuple(policies[k] if k < len(policies) else policies[0] for k in range(L.MAX_HUNTERS))
    return own + (policies[0] if model is None else model,)


def _params(params: np.ndarray, model: np.ndarray | None = None) -> np.ndarray:
    """The parameter rows of :func:`_pols`' slots (the model's vector last, zeros without one)."""
    width = max(1, params.shape[1], 0 if model is None else len(model))
    rows = np.zeros((L.POLICY_SLOTS, width), np.float64)
    rows[: params.shape[0], : params.shape[1]] = params
    if model is not None:
        rows[L.MODEL_SLOT, : len(model)] = model
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


@lru_cache(maxsize=None)
def _search(tables_type: Any) -> Any:
    """The searcher's replay entry (:func:`.kernel.batch.search_impl`), parallel over replays."""
    t = numba.types
    i64, i64a = t.int64, t.int64[::1]
    sig = t.void(tables_type, POLICIES_TYPE, t.float64[:, ::1], t.int32[::1], i64, t.int32[:, ::1], i64, i64, i64,
                 i64, i64, i64a, i64a, t.int32[:, ::1], i64a, i64a, i64a, i64a, t.float64[::1], t.int64[:, ::1],
                 t.int32[:, ::1])
    with kernel_cache():
        return numba.njit(sig, cache=True, parallel=True)(B.search_impl)


class GameReplayer:
    """Games of one cell as a :class:`dsim.search.Replayer` for the searcher listed ``searcher``-th: replays with its
    decisions forced (the other seats playing their listed policies; the searcher's own slot is its base policy),
    then rollouts in which the others play ``model`` (one policy function for all, with its parameter vector
    ``model_params``), or their own listed policies when it is ``None``. ``hidden`` (tests): ``(decision, key)`` at
    which the true games' unseen state and earlier secret picks are changed."""

    def __init__(self, tables: Tables, policies: tuple, params: np.ndarray, model: Any, model_params: np.ndarray | None,
                 variants: np.ndarray, hunters: int, seating: str, seed: int, stream: int, searcher: int,
                 hidden: tuple[int, int] | None = None) -> None:
        self.tables, self.hunters, self.seed, self.stream, self.searcher = tables, hunters, seed, stream, searcher
        self.pols, self.params = _pols(policies, model), _params(params, model_params)
        self.model = 0 if model is None else 1
        self.variants = np.ascontiguousarray(variants, np.int32)
        self.seats = seatings(hunters, seating)
        at, key = hidden if hidden is not None else (-1, 0)
        self.hidden = np.array([at, np.array([key], np.uint64).view(np.int64)[0]], np.int64)
        self.entry = B.search_impl if numba.config.DISABLE_JIT else _search(numba.typeof(tables))

    def _run(self, mode: int, plays, prefixes, lengths, job_play, job_option, job_key, outcomes: bool = False):
        count = len(job_play)
        values, info = np.zeros(count, np.float64), np.zeros((count, 3), np.int64)
        out = np.zeros((count if outcomes else 0, L.N_OUT), np.int32)
        from dsim.search import job_arrays

        *jobs, job_key = job_arrays(plays, prefixes, lengths, job_play, job_option, job_key)
        self.entry(self.tables, self.pols, self.params, self.variants, self.hunters, self.seats, self.seed,
                   self.stream, mode, self.searcher, self.model, self.hidden, *jobs, job_key.view(np.int64), values,
                   info, out)
        return values, info, out

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray):
        """Each game on its true stream with the prefix forced: the searcher's next decision, the value played on."""
        from dsim.search import Advance

        n = len(plays)
        values, info, _ = self._run(L.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                                    np.zeros(n, np.uint64))
        ended = info[:, 0] == 0
        return Advance(options=info[:, 0].copy(), hook=np.where(ended, -1, info[:, 1]),
                       base=np.where(ended, -1, info[:, 2]), value=values)

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair: bool) -> np.ndarray:
        """Rollout values: fair ones on the rollout stream with the unseen redrawn, all-seeing ones as it lies."""
        mode = L.SEARCH_FAIR if fair else L.SEARCH_SEEING
        return self._run(mode, plays, prefixes, lengths, job_play, job_option, job_key)[0]

    def outcomes(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The outcome rows of the true games with the prefixes forced (the base policy answering after them)."""
        n = len(plays)
        return self._run(L.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                         np.zeros(n, np.uint64), outcomes=True)[2]


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
