"""Python entry points of whole games: play batches on threads, replay one game with its log and a battle's trace.

Each thread plays its pieces of games on its own copies of the battle tables whose scenario vector the games
write (gear, tokens). Game ``i`` depends only on (seed, stream, i): results are bit-identical for any thread
count or cutting.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.numba_linking import BatchEntryPipeline, EntryPipeline
from dsim.games.dstbg.policy import PolicyFunctionType
from dsim.games.dstbg_game import kernel as K
from dsim.games.dstbg_game.kernel import replay as R
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.compile import CompiledGame
from dsim.games.dstbg_game.strategy import StrategyFunctionType
from dsim.numba_cache import cache_under
from dsim.numba_ref import check_trailing_dims, typeof_arrays
from dsim.pieces import pieces, play_pieces
from dsim.policy import compiled

GAME_PIECE = 32  # games a thread takes at a time: a two-character game takes ~140 us a thread, so ~5 ms
MIN_GAME_PIECE = 16  # fewer games than this (~2 ms) are not worth waking another thread for
LAST_GAME_PIECE = 2  # the smallest piece, at the end of a batch


def _types(cg: CompiledGame) -> tuple[numba.types.Type, numba.types.Type]:
    """The Numba types of the game's tables and of its battle tables (:class:`kernel.Battles`), once the battle
    tables' columns are checked (the kernel reads them as constants, dsim.numba_ref)."""
    for tables in (cg.encounters, *cg.bosses):
        check_trailing_dims(tables)
    tables = typeof_arrays(cg.encounters)  # every boss's tables are of the encounters' type
    return typeof_arrays(cg.game), numba.types.NamedTuple([tables, numba.types.UniTuple(tables, G.MAX_BOSSES)],
                                                          K.Battles)


@lru_cache(maxsize=None)
def _batch_entry(game_type: numba.types.Type, battles_type: numba.types.Type):
    """Compile (or load from the cache) the batch entry: games one after another, without the GIL."""
    t = numba.types
    sig = t.void(game_type, battles_type, PolicyFunctionType, StrategyFunctionType, t.float64[::1], t.float64[::1],
                 t.int64, t.int64, t.int64, t.int32[:, ::1])
    if numba.config.DISABLE_JIT:
        return K.play_batch_impl
    with cache_under(K.GAME_CACHE_DIR):
        return numba.njit(sig, cache=True, nogil=True, pipeline_class=BatchEntryPipeline)(K.play_batch_impl)


@lru_cache(maxsize=None)
def _buffers_entry(game_type: numba.types.Type, battles_type: numba.types.Type, impl_name: str):
    """Compile (or load from the cache) an entry on caller-provided buffers: ``play_one_impl`` (one game with its
    log and traces) or ``step_impl`` (one step of a hand-set game, the rule tests)."""
    impl = getattr(K, impl_name)
    if numba.config.DISABLE_JIT:
        return impl
    t = numba.types
    state_type = numba.typeof(_state(1, 1, 1))
    battle = X.new_battle(2, np.zeros(1))
    buffers_type = numba.typeof(K.BattleBuffers(battle, battle))
    sig = t.void(game_type, battles_type, state_type, buffers_type, PolicyFunctionType, StrategyFunctionType,
                 t.float64[::1], t.int64, t.int64, t.int64)
    with cache_under(K.GAME_CACHE_DIR):
        return numba.njit(sig, cache=True, pipeline_class=EntryPipeline)(impl)


def _cursor() -> np.ndarray:
    """A new game's cursor: no events logged, no battles fought, no stop, an empty deck."""
    cursor = np.zeros(4, np.int32)
    cursor[K.C_STOP] = -1
    return cursor


def _state(n_cards: int, n_encounters: int, max_events: int) -> K.GameState:
    """Buffers of one game, allocated in Python (the one-game entry)."""
    return K.GameState(
        np.zeros((G.ROWS, G.WIDTH), np.int32), np.zeros((n_cards, G.W_FIELDS), np.int32),
        np.zeros(n_cards, np.int32), np.zeros(n_encounters, np.int32), np.zeros(2, np.uint64),
        np.zeros((max_events, G.EV_FIELDS + G.SNAP_LEN), np.int32), _cursor(), np.zeros(G.N_OUT, np.int32),
        np.zeros((G.MAX_TILES, G.TRAP_NODES), np.int32),
    )


def _own_battles(cg: CompiledGame) -> K.Battles:
    """Copies of the battle tables whose scenario and walk distances a thread's games write."""

    def own(t: X.Tables) -> X.Tables:
        return t._replace(scen=t.scen.copy(), dwalk0=t.dwalk0.copy())

    return K.Battles(own(cg.encounters), tuple(own(t) for t in cg.bosses))


def _buffers(cg: CompiledGame, bparams: np.ndarray, trace_events: int) -> K.BattleBuffers:
    """Battle buffers for a tile's battles and the arena's (the largest boss board)."""
    return K.BattleBuffers(X.new_battle(cg.encounters.steps.shape[0], bparams, None, trace_events),
                           X.new_battle(cg.arena.steps.shape[0], bparams, None, trace_events))


def play_batch(cg: CompiledGame, policy, strategy, bparams: np.ndarray, sparams: np.ndarray, seed: int, stream: int,
               start: int, count: int, piece: int = GAME_PIECE) -> np.ndarray:
    """Outcome rows (``count`` × ``N_OUT`` int32) of games ``start .. start+count-1``, in pieces that the
    threads take in turn (:mod:`dsim.pieces`), each thread on its own copies of the tables."""
    batch = _batch_entry(*_types(cg))
    policy, strategy = compiled(policy), compiled(strategy)
    bparams = np.ascontiguousarray(bparams, np.float64)
    sparams = np.ascontiguousarray(sparams, np.float64)
    out = np.zeros((count, G.N_OUT), np.int32)
    threads = numba.get_num_threads()
    parts = pieces(count, threads, piece, MIN_GAME_PIECE, LAST_GAME_PIECE)
    battles = [_own_battles(cg) for _ in range(min(threads, len(parts)))]

    def play(worker: int, lo: int, hi: int) -> None:
        batch(cg.game, battles[worker], policy, strategy, bparams, sparams, seed, stream, start + lo, out[lo:hi])

    play_pieces(parts, threads, play)
    return out


def play_one(cg: CompiledGame, policy, strategy, bparams: np.ndarray, sparams: np.ndarray, seed: int, stream: int,
             index: int, stop_after: int = -1, max_events: int = 20_000, trace_events: int = 0,
             decisions: np.ndarray | None = None) -> tuple[K.GameState, K.BattleBuffers, K.Battles]:
    """Game ``index`` with its event log; ``stop_after`` ends it after that battle (its trace in the returned
    battle buffers when ``trace_events`` > 0); ``decisions``: the first answers of its battles' decisions, forced (a
    searcher's, :mod:`dsim.games.dstbg_game.searched`), the policy's after. Returns the game state, the battle
    buffers (their search log shared, :func:`game_log`) and the battle tables as the last battle left them."""
    one = _buffers_entry(*_types(cg), "play_one_impl")
    s = _state(cg.game.cards.shape[0], cg.game.enc_info.shape[0], max_events)
    s.cursor[K.C_STOP] = stop_after
    buffers = _buffers(cg, np.ascontiguousarray(bparams, np.float64), trace_events)
    if decisions is not None:
        log = game_log(cg, decisions)
        buffers = K.BattleBuffers(buffers.tile._replace(search=log), buffers.arena._replace(search=log))
    battles = _own_battles(cg)
    one(cg.game, battles, s, buffers, compiled(policy), compiled(strategy), np.ascontiguousarray(sparams, np.float64),
        seed, stream, index)
    return s, buffers, battles


class Table:
    """A hand-set game for rule tests: its state, battle buffers and tables; :meth:`step` runs one step."""

    def __init__(self, cg: CompiledGame, policy, strategy, bparams: np.ndarray, sparams: np.ndarray,
                 max_events: int = 2_000, trace_events: int = 0) -> None:
        self.cg, self.policy, self.strategy = cg, compiled(policy), compiled(strategy)
        self.sparams = np.ascontiguousarray(sparams, np.float64)
        self.s = _state(cg.game.cards.shape[0], cg.game.enc_info.shape[0], max_events)
        self.s.rng[0] = 12345
        self.buffers = _buffers(cg, np.ascontiguousarray(bparams, np.float64), trace_events)
        self.battles = _own_battles(cg)

    def step(self, what: int, arg: int = 0, seed: int = 0) -> None:
        """Run ``kernel.STEP_*`` ``what`` with ``arg`` (battles of the step draw from ``seed``)."""
        entry = _buffers_entry(*_types(self.cg), "step_impl")
        entry(self.cg.game, self.battles, self.s, self.buffers, self.policy, self.strategy, self.sparams, seed, what,
              arg)


def game_log(cg: CompiledGame, decisions: np.ndarray) -> np.ndarray:
    """The search log of a game replayed with ``decisions`` forced in its battles, played to its end
    (``kernel.replay``); after the replay ``log[game_log_used(log)]`` counts the decisions its battles used."""
    width = max(len(decisions), 1)
    log = np.zeros(K.game_log_len(width, cg.encounters.dwalk0.shape[0]), np.int64)
    at = X.SR_CHOICES + width + 1
    log[R.SR_GAME] = at
    log[at + R.GA_LEN] = len(decisions)
    log[at + R.GA_HIDE_AT] = -1
    log[at + R.GA_PREFIX:at + R.GA_PREFIX + len(decisions)] = decisions
    return log


def game_log_used(log: np.ndarray) -> int:
    """Where a game replay's log counts the forced decisions its battles used so far."""
    return int(log[R.SR_GAME]) + R.GA_USED


def outcome_columns(rows: np.ndarray, areas: int = 2) -> dict[str, np.ndarray]:
    """Outcome rows as named columns (plus ``win``): the per-game summary, the funnel and the gear at each boss. In a
    game of more than two ``areas`` (a campaign scenario) the "mini boss" is the first area's, the "main boss" the
    final one."""
    cols = {name: rows[:, i].copy() for i, name in enumerate(G.OUTCOME_NAMES)}
    cols["win"] = rows[:, G.OUT_RESULT] == G.RESULT_WON
    stage = rows[:, G.OUT_STAGE]  # the funnel: how far each game got
    cols["reached_mini_boss"] = stage >= G.STAGE_MINI_BOSS
    cols["beat_mini_boss"] = stage >= G.STAGE_EXPLORE_2
    cols["reached_main_boss"] = stage >= 2 * areas - 1
    for boss, name in enumerate(("mini", "main")):
        for seat in range(G.MAX_CHARS):
            for slot, slot_name in enumerate(("armour", "hand0", "hand1")):
                cols[f"{name}_gear_{seat}_{slot_name}"] = rows[:, G.OUT_GEAR + (boss * G.MAX_CHARS + seat) * G.GEAR_SLOTS
                                                             + slot].copy()
    return cols



class _SearchEntryPipeline(EntryPipeline):
    """An entry whose battles read their search log (``BATCH`` 2): no trace, no forced dice, the policy called
    through the function value (one cached entry for every base policy)."""

    def define_pipelines(self):
        self.state.entry_batch = 2
        return super().define_pipelines()


def search_entries(cg: CompiledGame):
    """The replay and rollout entries of the game's search (``kernel.replay_impl``, ``kernel.rollouts_impl``)."""
    return _search_entries(*_types(cg))


def search_buffers(cg: CompiledGame, bparams: np.ndarray, width: int
                   ) -> tuple[K.Battles, K.BattleBuffers, K.GameState]:
    """A search thread's own battle tables, battle buffers (the tile's and the arena's sharing one search log for
    prefixes of up to ``width`` decisions) and game state."""
    log = np.zeros(K.game_log_len(width, cg.encounters.dwalk0.shape[0]), np.int64)
    tile = X.new_battle(cg.encounters.steps.shape[0], bparams)._replace(search=log)
    arena = X.new_battle(cg.arena.steps.shape[0], bparams)._replace(search=log)
    return _own_battles(cg), K.BattleBuffers(tile, arena), _state(cg.game.cards.shape[0], cg.game.enc_info.shape[0], 0)


@lru_cache(maxsize=None)
def _search_entries(game_type: numba.types.Type, battles_type: numba.types.Type):
    """Compile (or load from the cache) the replay and rollout entries of the game's search."""
    if numba.config.DISABLE_JIT:
        return K.replay_impl, K.rollouts_impl
    t = numba.types
    state_type = numba.typeof(_state(1, 1, 1))
    battle = X.new_battle(2, np.zeros(1))
    buffers_type = numba.typeof(K.BattleBuffers(battle, battle))
    i64, i64a, i64m, i32m = t.int64, t.int64[::1], t.int64[:, ::1], t.int32[:, ::1]
    replay = t.void(game_type, battles_type, state_type, buffers_type, PolicyFunctionType, StrategyFunctionType,
                    t.float64[::1], i64, i64, i64a, i32m, i64a, i64, i64a, i64, i64, i64m, i32m, i32m)
    rollouts = t.void(game_type, battles_type, buffers_type, PolicyFunctionType, i64, i64m, i32m, i32m, i64a, i64,
                      i64a, i64a, t.uint64[::1], i64a, t.float64, i64, i64, t.float64[::1], i64m)
    with cache_under(K.GAME_CACHE_DIR):
        return (numba.njit(replay, cache=True, nogil=True, pipeline_class=_SearchEntryPipeline)(K.replay_impl),
                numba.njit(rollouts, cache=True, nogil=True, pipeline_class=_SearchEntryPipeline)(K.rollouts_impl))
