"""Python entry points of the DS:TBG kernel: play batches of battles, replay one with a trace.

A policy made with ``@policy_function`` plays its batches through an entry of its own, which calls it directly
and inlines it at every decision (a run compiles that entry once, then loads it from the cache). Any other
policy, and every replay, goes through entries compiled with explicit signatures whose policy argument is a
first-class function type, so one cached kernel serves them all (numba caches nothing for plain dispatcher
arguments). The two give the same battles, provided a policy reads only the move-step columns it declares
(``@policy_function(reads=…)``). Results depend only on (seed, stream, battle index).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache, partial
from pathlib import Path
from types import FunctionType

import numba
import numpy as np
from numba.core import cgutils, config
from numba.extending import intrinsic

from dsim.games.dstbg.kernel import battle as K
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.jit import kernel_cache, kernel_sources
from dsim.numba_linking import BatchEntryPipeline, EntryPipeline, policy_entry_pipeline
from dsim.games.dstbg.policy import BATTLE_TYPE, POLICY_SIG, PolicyFunctionType
from dsim.numba_cache import cache_folder, cache_under
from dsim.numba_ref import check_trailing_dims, typeof_arrays
from dsim.pieces import pieces, play_pieces
from dsim.policy import Deferred, compiled


def _tables_type(tables: X.Tables) -> numba.types.Type:
    """The Numba type of ``tables``, once their columns are checked (the kernel reads them as constants)."""
    check_trailing_dims(tables)
    return typeof_arrays(tables)


@lru_cache(maxsize=None)
def _batch_entry(tables_type: numba.types.Type):
    """Compile (or load from cache) the batch entry for one Tables type: battles one after another,
    without the GIL, so that :func:`play_batch` runs pieces on several threads at once."""
    f64 = numba.types.float64[::1]
    out2d = numba.types.int32[:, ::1]
    i64 = numba.types.int64
    with kernel_cache():
        return numba.njit(
            numba.types.void(tables_type, PolicyFunctionType, f64, i64, i64, i64, i64, i64, out2d),
            cache=True,
            nogil=True,
            pipeline_class=BatchEntryPipeline,
        )(K.play_batch_impl)


@intrinsic
def _entry_policy(typingctx):
    """The policy the entry being compiled plays (:func:`policy_entry_pipeline`), as a value of the policy
    function type whose address is a constant: a direct call, which the entry inlines."""

    def codegen(context, builder, signature, args):
        policy = context.active_code_library.policy
        value = cgutils.create_struct_proxy(PolicyFunctionType)(context, builder)
        value.c_addr = value.py_addr = cgutils.voidptr_t(None)
        value.jit_addr = builder.bitcast(context.declare_function(builder.module, policy.fndesc), cgutils.voidptr_t)
        return value._getvalue()

    return PolicyFunctionType(), codegen


def _play_batch_of_policy(t, params, seed, stream, start, lo, hi, out):
    """``play_batch_impl`` for the one policy the entry is compiled for (:func:`_policy_batch_entry`)."""
    K.play_block(t, _entry_policy(), params, seed, stream, start, lo, hi, out)


def policy_entry_folder(policy: Deferred) -> str:
    """The cache folder of ``policy``'s own entries: named by its function and its move-step read mask, hashed
    over the kernel's sources and the policy's."""
    return cache_folder(f"dstbg-entry-{_policy_name(policy)}-r{step_read_mask(policy) & 0x1FF:x}",
                        [*kernel_sources(), *policy.sources], Path(K.__file__).resolve().parent / "__pycache__")


def _policy_name(policy: Deferred) -> str:
    """``module.qualname`` of the policy's function: what names its entry and cache folder."""
    py = compiled(policy).py_func
    return f"{py.__module__}.{py.__qualname__}"


READ_KINDS = ("step",)  # the kinds of question whose columns a policy may declare it reads


def step_read_mask(policy: Deferred) -> int:
    """The option columns of a move step (``H_MOVE_ON``, ``H_STEP``, ``H_SHIFT``) ``policy`` declares it reads
    (``@policy_function(reads={"step": …})``), a bit each; -1, all of them, when it declares none."""
    unknown = sorted(set(policy.reads) - set(READ_KINDS))
    if unknown:
        raise ValueError(f"policy {policy.__name__!r}: reads names {unknown}; DS:TBG knows {list(READ_KINDS)}")
    columns = policy.reads.get("step")
    if columns is None:
        return -1
    bad = [c for c in columns if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or
           not 0 <= c < L.OPT_FIELDS]
    if bad:
        raise ValueError(f"policy {policy.__name__!r}: reads['step'] names columns 0 to {L.OPT_FIELDS - 1}, got {bad}")
    return sum(1 << int(c) for c in set(columns))


def _search_of_policy(t, params, seed, stream, mode, plays, prefixes, lengths, job_play, job_option, job_key, hidden,
                      lo, hi, values, info, out):
    """``search_block_impl`` for the one policy the entry is compiled for (:func:`_policy_search_entry`)."""
    K.search_block(t, _entry_policy(), params, seed, stream, mode, plays, prefixes, lengths, job_play, job_option,
                   job_key, hidden, lo, hi, values, info, out)


def _policy_entry(body: FunctionType, signature: numba.types.Type, policy: Deferred, batch: int):
    """Compile (or load from cache, :func:`policy_entry_folder`) ``body`` as an entry of one policy.

    Each policy's entry is a copy of ``body`` named for it, so that its symbols in the JIT (one table for the
    process) and its entries in Numba's cache index are its own: same function, same signature, Numba would tell
    two policies' entries apart by nothing else."""
    dispatcher = compiled(policy)
    mask = step_read_mask(policy)
    key = hashlib.sha256(f"{_policy_name(policy)}:{mask}".encode()).hexdigest()[:12]
    entry = FunctionType(body.__code__, body.__globals__, f"{body.__name__}_{key}")
    entry.__qualname__ = entry.__name__
    with cache_under(policy_entry_folder(policy)):
        return numba.njit(
            signature,
            cache=True,
            nogil=True,
            pipeline_class=policy_entry_pipeline(dispatcher.overloads[POLICY_SIG.args], mask, batch),
        )(entry)


@lru_cache(maxsize=None)
def _policy_batch_entry(tables_type: numba.types.Type, policy: Deferred):
    """The batch entry of one policy for one Tables type (:func:`_policy_entry`)."""
    f64 = numba.types.float64[::1]
    i64 = numba.types.int64
    return _policy_entry(_play_batch_of_policy,
                         numba.types.void(tables_type, f64, i64, i64, i64, i64, i64, numba.types.int32[:, ::1]),
                         policy, 1)


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


def _search_args(tables_type: numba.types.Type) -> tuple[numba.types.Type, ...]:
    """The search entries' arguments after the Tables and the policy (:func:`K.search_block`)."""
    t = numba.types
    i64, i64a = t.int64, t.int64[::1]
    return (t.float64[::1], i64, i64, i64, i64a, t.int32[:, ::1], i64a, i64a, i64a, t.uint64[::1], i64a, i64, i64,
            t.float64[::1], t.int64[:, ::1], t.int32[:, ::1])


@lru_cache(maxsize=None)
def _search_entry(tables_type: numba.types.Type):
    """Compile (or load from cache) the search entry (:func:`K.search_block_impl`) for one Tables type: replays with
    forced decisions, without the GIL, for a policy passed as a function value. Its own entry, so that the batch
    entries stay as they were (their decisions never look at a search log: ``core.decide`` folds the test away where
    ``BATCH`` is 1)."""
    with kernel_cache():
        return numba.njit(
            numba.types.void(tables_type, PolicyFunctionType, *_search_args(tables_type)),
            cache=True,
            nogil=True,
            pipeline_class=EntryPipeline,
        )(K.search_block_impl)


@lru_cache(maxsize=None)
def _policy_search_entry(tables_type: numba.types.Type, policy: Deferred):
    """The search entry of one policy for one Tables type (:func:`_policy_entry`, ``BATCH`` 2): the policy inlined
    and no trace or forced-dice tests: Gargoyle replays 1.2 times as fast as through the function value (median
    of four runs of 3,000 on the loaded host: 12,700/s against 10,600/s; the batch entry 16,800/s)."""
    return _policy_entry(_search_of_policy, numba.types.void(tables_type, *_search_args(tables_type)), policy, 2)


SEARCH_PIECE = 64  # replays a thread takes at a time in a search call (a Gargoyle replay is ~10-20 us)


class BattleReplayer:
    """Battles of one cell as a :class:`dsim.search.Replayer`: replays with forced decisions on the compiled
    search entry, every call's replays shared out among the threads (:mod:`dsim.pieces`). ``hidden`` (tests):
    ``(decision, key)`` at which the true battles' hidden state is redrawn from ``key`` (their dice are not)."""

    def __init__(self, tables: X.Tables, policy, params: np.ndarray, seed: int, stream: int,
                 hidden: tuple[int, int] | None = None) -> None:
        self.tables, self.seed, self.stream = tables, seed, stream
        self.params = np.ascontiguousarray(params, np.float64)
        if isinstance(policy, Deferred) and not config.DISABLE_JIT:
            self.entry = partial(_policy_search_entry(_tables_type(tables), policy), tables)
        else:
            self.entry = partial(_search_entry(_tables_type(tables)), tables, compiled(policy))
        at, key = hidden if hidden is not None else (-1, 0)
        self.hidden = np.array([at, key >> 32, key & 0xFFFFFFFF], np.int64)

    def _run(self, mode: int, plays, prefixes, lengths, job_play, job_option, job_key,
             outcomes: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from dsim.search import job_arrays

        plays, prefixes, lengths, job_play, job_option, job_key = job_arrays(plays, prefixes, lengths, job_play,
                                                                            job_option, job_key)
        count = len(job_play)
        values = np.empty(count, np.float64)
        info = np.empty((count, 4), np.int64)
        out = np.empty((count if outcomes else 0, K.N_OUT), np.int32)
        threads = numba.get_num_threads()
        parts = pieces(count, threads, SEARCH_PIECE, SEARCH_PIECE // 4, 4)

        def play(worker: int, lo: int, hi: int) -> None:
            self.entry(self.params, self.seed, self.stream, mode, plays, prefixes, lengths,
                       job_play, job_option, job_key, self.hidden, lo, hi, values, info, out)

        play_pieces(parts, threads, play)
        return values, info, out

    def info(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Per battle (true stream, prefix forced), its next decision: options (0: ended), hook, the policy's answer
        and the behaviour cards drawn by then."""
        n = len(plays)
        return self._run(X.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                         np.zeros(n, np.uint64))[1]

    def outcomes(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The outcome table (as :func:`play_batch`'s) of the true battles with their prefixes forced, the policy
        answering after them."""
        n = len(plays)
        return self._run(X.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                         np.zeros(n, np.uint64), outcomes=True)[2]

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray):
        """Each battle on its true stream with its prefix forced: its next decision and its value played on."""
        from dsim.search import Advance

        n = len(plays)
        values, info, _ = self._run(X.SEARCH_ADVANCE, plays, prefixes, lengths, np.arange(n), np.zeros(n, np.int64),
                                    np.zeros(n, np.uint64))
        ended = info[:, 0] == 0
        return Advance(options=info[:, 0].copy(), hook=np.where(ended, -1, info[:, 1]),
                       base=np.where(ended, -1, info[:, 2]), value=values)

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair: bool) -> np.ndarray:
        """Rollout values: fair ones re-keyed with the hidden state redrawn, all-seeing ones on the true battle."""
        mode = X.SEARCH_FAIR if fair else X.SEARCH_SEEING
        return self._run(mode, plays, prefixes, lengths, job_play, job_option, job_key)[0]


PIECE = 1 << 11  # battles a thread takes at a time: ~4 ms, so a thread held up by other work delays the rest little
MIN_PIECE = 1 << 10  # fewer battles than this (~2 ms) are not worth waking another thread for
LAST_PIECE = 1 << 7  # the smallest piece, at the end of a call (~0.25 ms): threads finish within about this


def play_batch(
    tables: X.Tables, policy, params: np.ndarray, seed: int, stream: int, start: int, count: int,
    piece: int = PIECE,
) -> np.ndarray:
    """The outcome table of battles ``start .. start+count-1``: ``count`` × ``N_OUT`` int32, a row per battle and a
    column per measure (``K.OUTCOME_NAMES``), as every game's batch returns its outcomes.

    On several threads (``numba.get_num_threads()``, as a ``prange`` would use) each thread takes the next piece
    (:mod:`dsim.pieces`) whenever it is free; battle i's dice depend only on its index, so the cutting changes nothing."""
    params = np.ascontiguousarray(params, np.float64)
    if isinstance(policy, Deferred) and not config.DISABLE_JIT:
        batch = partial(_policy_batch_entry(_tables_type(tables), policy), tables, params)
    else:
        batch = partial(_batch_entry(_tables_type(tables)), tables, compiled(policy), params)
    out = np.empty((count, K.N_OUT), np.int32)  # every battle fills its whole row
    threads = numba.get_num_threads()
    parts = pieces(count, threads, piece, MIN_PIECE, LAST_PIECE)
    play_pieces(parts, threads, lambda worker, lo, hi: batch(seed, stream, start, lo, hi, out))
    return out


def play_one(
    tables: X.Tables, policy, params: np.ndarray, seed: int, stream: int, index: int,
    forced: np.ndarray | None = None, trace_events: int = 4000, decisions: np.ndarray | None = None,
    hidden: tuple[int, int] | None = None,
) -> X.Battle:
    """Replay one battle with its trace; ``forced`` dice values are used first (tests); ``decisions``: the first
    answers of the battle's decisions, forced (a searcher's, :mod:`dsim.games.dstbg.searchers`), the policy's after;
    ``hidden`` (tests): ``(decision, key)`` before which what the players cannot see (the unseen behaviour cards'
    order, the face-down traps) is redrawn from ``key``, the dice staying the same."""
    one = _one_entry(_tables_type(tables))
    policy = compiled(policy)
    if hidden is not None and decisions is None:
        decisions = np.zeros(0, np.int32)
    log = 0 if decisions is None else X.SR_CHOICES + len(decisions)
    b = X.new_battle(tables.steps.shape[0], params, forced, trace_events, log)
    if decisions is not None:
        b.search[X.SR_MODE] = X.SEARCH_ADVANCE
        b.search[X.SR_FORCED] = len(decisions)
        b.search[X.SR_HIDE_AT] = -1 if hidden is None else hidden[0]
        if hidden is not None:
            b.search[X.SR_HIDE_HI], b.search[X.SR_HIDE_LO] = hidden[1] >> 32, hidden[1] & 0xFFFFFFFF
        b.search[X.SR_CHOICES:] = decisions
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


def outcome_columns(table: np.ndarray) -> dict[str, np.ndarray]:
    """An outcome table's columns by name (views, plus ``win``), the form sweeps and reports consume."""
    cols = dict(zip(K.OUTCOME_NAMES, table.T))
    cols["win"] = table[:, K.OUT_RESULT] == L.OUT_WIN
    return cols
