"""Whole DS:TBG games with every battle decision made by a searcher (``--battle-policy expert|oracle``).

The strategy (``--policy``) still decides everything between battles; every decision inside every battle is the
battle searcher's (:mod:`dsim.games.dstbg.searchers`): one-step rollouts of its base policy, each rollout the rest
of the current battle from the battle's start snapshot (:class:`GameReplayer`, ``kernel/replay.py``), valued as a
lone battle is (``battle.search_value``: a win 1), plus, in a battle the game asks to win keeping the tokens for the boss (every
battle but the bosses'), :data:`GAME_KEEP` times the share of estus, luck and heroic action a won battle keeps. Fairness is the battle searcher's: ``expert`` redraws at the decision what the
players cannot see (the unseen behaviour cards' order, face-down traps, future dice); the game's own hidden state
(the treasure deck, face-down encounter cards) never enters a rollout, which ends with the battle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

GROUP = 64  # games searched in lockstep: a step's rollouts (~64 × options × rollouts battles) fill the threads
GAME_BASE = "veteran"  # the base a game's searcher rolls out unless named: it keeps the tokens a battle's G_NEED asks for
GAME_DECISIONS = 4096  # searched decisions per game unless the searcher's `decisions` is given (a game asks ~1,000)
GAME_KEEP = 0.25  # a rollout's weight of the tokens a won battle keeps for the boss (G_NEED): on 150 paired games
# (docs/game-search.md) 0.25 beat the mini boss 12 points more often than 0 (95% CI +3 to +21) over the veteran's first
# defaults; over its defaults since (commit 6867c2c) +2.7 (-4.2 to +9.7) and +7.3 (-0.9 to +15.6) on reaching the
# main boss: kept, not established


REPLAY_PIECE = 4  # games a thread replays at a time (a whole game is ~0.1-0.3 ms)
ROLLOUT_PIECE = 64  # battle rollouts a thread plays at a time (a Gargoyle rollout is ~10-20 us)


@dataclass(frozen=True)
class _Found:
    """A replay's first unforced decision in each game (rows as the plays asked), with its battle's snapshot."""

    plays: np.ndarray
    prefixes: np.ndarray
    lengths: np.ndarray
    info: np.ndarray  # int64 (plays, REPLAY_INFO): kernel.replay_impl
    snap: np.ndarray  # int32 (plays, SC_LEN + nodes²)
    out: np.ndarray  # int32 (plays, N_OUT)


class GameReplayer:
    """Whole games of one cell as a :class:`dsim.search.Replayer`: the decisions are the battles' (the strategy
    decides between battles). :meth:`advance` replays each game from its start with its prefix forced, up to the
    battle that asks the next decision, and keeps that battle's snapshot (its scenario and walk distances at its
    start); :meth:`rollouts` then replay that battle alone from the snapshot, valued as a lone battle
    (``battle.search_value``): a rollout costs one battle, not a game. ``width``: the longest prefix asked;
    ``hidden`` (tests): ``(decision, key)`` before which the true battle's hidden state (the unseen behaviour cards'
    order, the face-down traps) is redrawn from ``key``, its dice staying the same; ``keep``: the weight of the tokens
    a won battle keeps for the boss (``kernel.replay.rollout``; 0: the battle's win alone)."""

    def __init__(self, cg, policy, strategy, bparams: np.ndarray, sparams: np.ndarray, seed: int, stream: int,
                 width: int, hidden: tuple[int, int] | None = None, keep: float = 0.0) -> None:
        from dsim.games.dstbg_game import engine
        from dsim.policy import compiled

        self.cg, self.seed, self.stream, self.width, self.keep = cg, seed, stream, max(int(width), 1), float(keep)
        self.policy, self.strategy = compiled(policy), compiled(strategy)
        self.bparams = np.ascontiguousarray(bparams, np.float64)
        self.sparams = np.ascontiguousarray(sparams, np.float64)
        self.replay, self.rollout = engine.search_entries(cg)
        self.nodes = cg.encounters.dwalk0.shape[0]
        self._workers: list = []
        self._found: _Found | None = None
        at, key = hidden if hidden is not None else (-1, 0)  # tests: (decision, key) of a redraw of the hidden state
        self.hidden = np.array([at, key >> 32, key & 0xFFFFFFFF], np.int64)

    def _run(self, count: int, piece: int, body: Callable) -> None:
        """``body(worker's tables, buffers and state, lo, hi)`` over ``count`` items on the threads, each thread on
        buffers of its own."""
        import numba

        from dsim.games.dstbg_game import engine
        from dsim.pieces import pieces, play_pieces

        threads = numba.get_num_threads()
        parts = pieces(count, threads, piece, piece // 4 or 1, 1)
        while len(self._workers) < min(threads, len(parts)):
            self._workers.append(engine.search_buffers(self.cg, self.bparams, self.width))
        play_pieces(parts, threads, lambda worker, lo, hi: body(*self._workers[worker], lo, hi))

    def _replay(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, stop: bool) -> _Found:
        from dsim.games.dstbg_game import kernel as K
        from dsim.games.dstbg_game import layout as G
        from dsim.games.dstbg.kernel import context as X

        plays, lengths = np.ascontiguousarray(plays, np.int64), np.ascontiguousarray(lengths, np.int64)
        if prefixes.shape[1] > self.width:
            raise ValueError(f"a prefix of {prefixes.shape[1]} decisions is wider than this replayer's {self.width}")
        n = len(plays)
        wide = np.zeros((n, self.width), np.int32)
        wide[:, :prefixes.shape[1]] = prefixes
        info = np.zeros((n, K.REPLAY_INFO), np.int64)
        snap = np.zeros((n, X.SC_LEN + self.nodes ** 2), np.int32)
        out = np.zeros((n, G.N_OUT), np.int32)
        self._run(n, REPLAY_PIECE, lambda battles, buffers, state, lo, hi: self.replay(
            self.cg.game, battles, state, buffers, self.policy, self.strategy, self.sparams, self.seed, self.stream,
            plays, wide, lengths, int(stop), self.hidden, lo, hi, info, snap, out))
        return _Found(plays, prefixes, lengths, info, snap, out)

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray):
        """Each game replayed with its prefix forced, up to the battle asking the next decision; a game that ends
        first has value 1 if won, else 0. A game whose prefix is the last advance's plus one answer in the battle
        found then replays that battle alone from its snapshot, and the whole game only if the battle ends first."""
        from dsim.games.dstbg_game import layout as G
        from dsim.search import Advance

        plays, lengths = np.asarray(plays, np.int64), np.asarray(lengths, np.int64)
        found = self._follow(plays, prefixes, lengths)
        self._found = found
        asks = found.info[:, 0] == 1
        won = found.out[:, G.OUT_RESULT] == G.RESULT_WON
        return Advance(options=np.where(asks, found.info[:, 2], 0), hook=np.where(asks, found.info[:, 1], -1),
                       base=np.where(asks, found.info[:, 3], -1), value=np.where(asks, 0.0, won.astype(np.float64)))

    def _follow(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> _Found:
        """:meth:`_replay` (a search replay) of these games, the battle found last time alone where a game's prefix
        is the last one plus an answer to its decision."""
        from dsim.games.dstbg.kernel import context as X
        from dsim.games.dstbg_game import layout as G

        last, n = self._found, len(plays)
        if last is None:
            return self._replay(plays, prefixes, lengths, True)
        rows = self._rows(last, plays)
        follows = rows >= 0
        follows[follows] = (last.info[rows[follows], 0] == 1) & (last.lengths[rows[follows]] + 1 == lengths[follows])
        for i in np.flatnonzero(follows):  # the same prefix before the answer
            k = lengths[i] - 1
            follows[i] = np.array_equal(last.prefixes[rows[i], :k], prefixes[i, :k])
        if not follows.any():
            return self._replay(plays, prefixes, lengths, True)
        i = np.flatnonzero(follows)
        info, snap = last.info[rows[i]].copy(), last.snap[rows[i]]
        battle, blen = self._battle_prefixes(info, prefixes[i], lengths[i] - 1)
        asked = np.zeros((len(i), 3), np.int64)
        self._battles(info, snap, battle, blen, X.SEARCH_ADVANCE, np.arange(len(i)), prefixes[i, lengths[i] - 1],
                      np.zeros(len(i), np.uint64), asked)
        info[:, 1], info[:, 2], info[:, 3] = asked[:, 1], asked[:, 0], asked[:, 2]  # hook, options, base answer
        ended = asked[:, 0] == 0  # the battle ended before asking again: the game goes on from there
        whole = ~follows
        whole[i[ended]] = True
        found = _Found(plays, prefixes, lengths, np.zeros((n, info.shape[1]), np.int64),
                       np.zeros((n, snap.shape[1]), np.int32), np.zeros((n, G.N_OUT), np.int32))
        found.info[i], found.snap[i] = info, snap
        if whole.any():
            w = np.flatnonzero(whole)
            replayed = self._replay(plays[w], prefixes[w], lengths[w], True)
            found.info[w], found.snap[w], found.out[w] = replayed.info, replayed.snap, replayed.out
        return found

    @staticmethod
    def _rows(found: _Found, plays: np.ndarray) -> np.ndarray:
        """Each play's row in ``found`` (-1 where absent)."""
        at = {int(p): i for i, p in enumerate(found.plays)}
        return np.array([at.get(int(p), -1) for p in plays], np.int64)

    @staticmethod
    def _battle_prefixes(info: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The found battles' own decisions so far: the tails of the games' prefixes from each battle's first."""
        start = info[:, 4]
        blen = lengths - start
        battle = np.zeros((len(blen), max(int(blen.max(initial=0)), 1)), np.int32)
        for i in range(len(blen)):
            battle[i, :blen[i]] = prefixes[i, start[i]:lengths[i]]
        return battle, blen

    def _battles(self, info, snap, battle, blen, mode: int, job_play, job_option, job_key, asked) -> np.ndarray:
        """The found battles replayed from their snapshots (``kernel.rollouts_impl``): each job's value."""
        from dsim.search import job_arrays

        _, battle, blen, job_play, job_option, job_key = job_arrays(blen, battle, blen, job_play, job_option, job_key)
        values = np.empty(len(job_play), np.float64)
        info, snap = np.ascontiguousarray(info), np.ascontiguousarray(snap)
        self._run(len(job_play), ROLLOUT_PIECE, lambda battles, buffers, state, lo, hi: self.rollout(
            self.cg.game, battles, buffers, self.policy, self.seed, info, snap, battle, blen, mode, job_play,
            job_option, job_key, self.hidden, self.keep, lo, hi, values, asked))
        return values

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair: bool) -> np.ndarray:
        """Rollout values of the battles that :meth:`advance` found for these plays (the same prefixes)."""
        from dsim.games.dstbg.kernel import context as X

        plays, lengths = np.asarray(plays, np.int64), np.asarray(lengths, np.int64)
        found = self._found
        rows = self._rows(found, plays) if found is not None else np.full(len(plays), -1)
        if found is None or (rows < 0).any() or not np.array_equal(found.lengths[rows], lengths):
            raise ValueError("rollouts follow the advance of the same plays and prefixes")
        info = found.info[rows]
        battle, blen = self._battle_prefixes(info, prefixes, lengths)
        return self._battles(info, found.snap[rows], battle, blen, X.SEARCH_FAIR if fair else X.SEARCH_SEEING,
                             job_play, job_option, job_key, np.zeros((0, 3), np.int64))

    def outcomes(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Outcome rows of the games with their prefixes forced, the base policy answering after them."""
        return self._replay(plays, prefixes, lengths, False).out


def _search(cell, seed: int, stream: int, plays: np.ndarray, record: bool = False,
            progress: Callable[[int], None] | None = None, keep: float = GAME_KEEP):
    """The search of games ``plays`` (:func:`dsim.search.search`) and its replayer (``keep``: its weight of the tokens
    a won battle keeps for the boss). The rollout keys hash (seed, stream), so a game's search is a pure function of
    (seed, stream, index)."""
    from dsim.games.dstbg.policy import get_policy
    from dsim.rng import stream_key
    from dsim.search import search

    budget, base_name = cell.battle_policy.budget_of(cell.battle_params)
    base = get_policy(base_name)
    replayer = GameReplayer(cell.compiled, base.decide, cell.strategy.decide, base.vector(), cell.strategy_params, seed,
                            stream, budget.decisions, keep=keep)
    found = search(replayer, plays, budget, stream_key(f"game-search:{seed}:{stream}"), fair=cell.battle_policy.fair,
                   record=record, progress=progress)
    return found, replayer


def _matrix(prefixes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Prefixes as a zero-padded matrix and their lengths."""
    lengths = np.array([len(p) for p in prefixes], np.int64)
    matrix = np.zeros((len(prefixes), max(1, int(lengths.max(initial=1)))), np.int32)
    for i, p in enumerate(prefixes):
        matrix[i, :len(p)] = p
    return matrix, lengths


KEPT = 20_000  # searched games whose outcome rows are kept: `dsim game` reads the games it played again (the gear)
_KEPT: dict[tuple, tuple[np.ndarray, int, object]] = {}


def _kept_key(cell, seed: int, stream: int) -> tuple:
    """What a searched game's outcome depends on besides its index: the compiled tables by identity (each kept row
    holds them alive, so that their id names them while it is kept), the policies and their parameters, the stream."""
    return (id(cell.compiled), cell.strategy.name, cell.strategy_params.tobytes(), cell.battle_policy.name,
            cell.battle_params.tobytes(), seed, stream)


def play_searched(cell, seed: int, stream: int, start: int, count: int,
                  progress: Callable[[int], None] | None = None, keep: float = GAME_KEEP
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Games ``start .. start+count-1`` with their battles searched: outcome rows (as ``engine.play_batch``'s) and
    the decisions searched in each game; ``keep``: the rollouts' weight of the tokens a won battle keeps for the boss
    (:data:`GAME_KEEP`; docs/make_game_search.py compares others). The last :data:`KEPT` games' rows are kept and not searched again."""
    from dsim.games.dstbg_game import layout as G

    key = (*_kept_key(cell, seed, stream), keep)
    rows = np.zeros((count, G.N_OUT), np.int32)
    searched = np.zeros(count, np.int64)
    todo = [i for i in range(start, start + count) if (key, i) not in _KEPT]
    for i in range(start, start + count):
        if (key, i) in _KEPT:
            rows[i - start], searched[i - start], _ = _KEPT[key, i]
    for lo in range(0, len(todo), GROUP):  # a group's rollouts at a time: memory bounded whatever the count
        plays = np.array(todo[lo:lo + GROUP], np.int64)
        found, replayer = _search(cell, seed, stream, plays, progress=progress, keep=keep)
        prefixes, lengths = _matrix(found.prefixes)
        rows[plays - start] = replayer.outcomes(plays, prefixes, lengths)
        searched[plays - start] = lengths
        for i in plays:
            _KEPT[key, int(i)] = (rows[i - start].copy(), int(searched[i - start]), cell.compiled)
        while len(_KEPT) > KEPT:
            _KEPT.pop(next(iter(_KEPT)))
    return rows, searched


def explain_searched(cell, seed: int, stream: int, index: int):
    """Game ``index``'s search with every decision's estimates (:class:`dsim.search.Estimate`, in the order the
    battles asked them) and its forced prefix."""
    found, _ = _search(cell, seed, stream, np.array([index], np.int64), record=True)
    return found


_EXPLAINED: dict[tuple[int, int, int, int], object] = {}  # the last few searched games replayed (explain asks twice)


def battle_player(cell, seed: int, stream: int, index: int):
    """Who plays game ``index``'s battles in a replay: ``(policy, parameters, decisions, estimates)``: the cell's
    battle policy (no decisions forced, no estimates), or for a searcher its base policy with the searched decisions
    forced and each searched decision's estimates by its position in the game's decisions."""
    from dsim.games.dstbg.policy import get_policy
    from dsim.games.dstbg.searchers import SearchPolicy

    if not isinstance(cell.battle_policy, SearchPolicy):
        return cell.battle_policy.decide, cell.battle_params, None, {}
    key = (id(cell), seed, stream, index)
    if key not in _EXPLAINED:
        if len(_EXPLAINED) >= 4:
            _EXPLAINED.pop(next(iter(_EXPLAINED)))
        _EXPLAINED[key] = explain_searched(cell, seed, stream, index)
    found = _EXPLAINED[key]
    base = get_policy(cell.battle_policy.budget_of(cell.battle_params)[1])
    return base.decide, base.vector(), found.prefixes[0], {e.depth: e for e in found.estimates}


def estimate_record(estimate) -> dict:
    """A searched decision's option values as ``dsim explain`` shows a battle's: value, 95% interval (a value lies in
    0 to 1 + :data:`GAME_KEEP`: a win and the tokens kept), rollouts."""
    top = 1.0 + GAME_KEEP
    return {"estimates": [{"option": k, "value": round(float(m), 4), "ci95": [round(max(float(m - h), 0.0), 4),
                                                                             round(min(float(m + h), top), 4)],
                           "rollouts": int(n)} for k, (m, h, n) in
                          enumerate(zip(estimate.means, estimate.half_widths, estimate.rollouts))],
            "base_choice": estimate.base}
