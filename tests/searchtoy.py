"""A toy game with hidden information and a known optimal policy, for the search core (:mod:`dsim.search`).

Higher or lower: play ``i`` shuffles the cards ``0 .. N-1`` face down (a pure function of ``(seed, i)``) and turns
the first one up. Before each further card is turned up the player guesses whether it is higher (1) or lower (0)
than the last one; the play's value is the share of right guesses. The optimal policy counts: guess higher when
more unseen cards are higher than the last card. Guesses never change what comes next, so one-step rollouts of any
base policy find it, given enough rollouts, and only if they resample the unseen order instead of reading it; the
all-seeing searcher, which reads it, guesses right every time.
"""

from __future__ import annotations

import numpy as np

from dsim.search import Advance, _mix

HIGHER = 1
LOWER = 0


def _shuffle_rows(decks: np.ndarray, lo: np.ndarray, keys: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``decks[j, lo[j]:]`` in place from key ``keys[j]`` (vectorised over rows)."""
    n = decks.shape[1]
    rows = np.arange(len(decks))
    with np.errstate(over="ignore"):
        for i in range(n - 1, 0, -1):
            draw = _mix(keys + np.uint64(i) * np.uint64(0x9E3779B97F4A7C15))
            span = np.maximum(i - lo + 1, 1).astype(np.uint64)
            j = lo + ((draw >> np.uint64(32)) * span >> np.uint64(32)).astype(np.int64)
            swap = i > lo
            a = decks[rows[swap], i].copy()
            decks[rows[swap], i] = decks[rows[swap], j[swap]]
            decks[rows[swap], j[swap]] = a


class HigherLower:
    """The toy as a :class:`dsim.search.Replayer`; ``base`` is the base policy's constant guess."""

    def __init__(self, cards: int = 8, seed: int = 3, base: int = LOWER) -> None:
        self.cards = cards
        self.seed = seed
        self.base = base

    def decks(self, plays: np.ndarray) -> np.ndarray:
        """The true order of each play's cards."""
        plays = np.asarray(plays, np.int64)
        decks = np.tile(np.arange(self.cards), (len(plays), 1))
        with np.errstate(over="ignore"):
            keys = _mix(np.uint64(self.seed) ^ _mix(plays.astype(np.uint64) + np.uint64(77)))
        _shuffle_rows(decks, np.zeros(len(plays), np.int64), keys)
        return decks

    def _score(self, decks: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
        """Share of right guesses: the forced prefix, then ``extra`` (if any), then the base policy's guesses."""
        right = np.zeros(len(decks))
        for d in range(self.cards - 1):
            guess = np.full(len(decks), self.base)
            forced = d < lengths
            if forced.any():
                guess[forced] = prefixes[np.nonzero(forced)[0], d]
            if extra is not None:
                guess[d == lengths] = extra[d == lengths]
            higher = decks[:, d + 1] > decks[:, d]
            right += guess == higher
        return right / (self.cards - 1)

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> Advance:
        """The next guess of each play (two options) or its end after the last card."""
        decks = self.decks(plays)
        asking = lengths < self.cards - 1
        return Advance(options=np.where(asking, 2, 0), hook=np.where(asking, 0, -1),
                       base=np.full(len(plays), self.base), value=self._score(decks, prefixes, lengths, None))

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair) -> np.ndarray:
        """Each job's play with its option at the next guess; ``fair``: the unseen cards in an order of the job's
        key (sorted first, so nothing of the true order survives), else the true order."""
        decks = self.decks(plays)[job_play]
        if fair:
            seen = lengths[job_play] + 1  # cards 0 .. length are face up at decision `length`
            up = np.arange(self.cards)[None, :] < seen[:, None]
            ordered = np.sort(np.where(up, -1, decks), axis=1)  # each row: -1 per card up, then the rest sorted
            decks = np.where(up, decks, ordered)
            _shuffle_rows(decks, seen, np.asarray(job_key, np.uint64))
        return self._score(decks, prefixes[job_play], lengths[job_play], np.asarray(job_option))

    def optimal(self, decks: np.ndarray, depth: int) -> np.ndarray:
        """The counting policy's guess at decision ``depth`` of each deck: +1 higher, 0 lower, -1 either (a tie)."""
        last = decks[:, depth][:, None]
        unseen = decks[:, depth + 1:]
        up = (unseen > last).sum(axis=1)
        down = (unseen < last).sum(axis=1)
        return np.where(up > down, HIGHER, np.where(up < down, LOWER, -1))


def prefix_matrix(prefixes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Forced decision prefixes of different lengths as a replayer takes them: a zero-padded matrix and the lengths."""
    width = max(1, max(len(p) for p in prefixes))
    out = np.zeros((len(prefixes), width), np.int32)
    for i, p in enumerate(prefixes):
        out[i, :len(p)] = p
    return out, np.array([len(p) for p in prefixes], np.int64)


def assert_search_thread_identical(replayer, plays: np.ndarray, budget, seed: int = 5):
    """Search the same plays on one thread and on two: the option values, the prefixes taken and the costs must be
    bit-identical (each replay is a pure function of its seed, play, prefix and rollout key). Returns the search."""
    import numba

    from dsim.search import search

    before = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            results.append(search(replayer, plays, budget, seed=seed))
    finally:
        numba.set_num_threads(before)
    one, two = results
    np.testing.assert_array_equal(one.values, two.values)
    assert [list(p) for p in one.prefixes] == [list(p) for p in two.prefixes]
    assert one.rollouts == two.rollouts and one.decisions == two.decisions
    return one


def assert_play_thread_identical(game, settings, seed: int, stream: int, count: int, reset=None) -> dict:
    """A game's play of ``count`` plays in one call on one thread, then in two halves on two threads: every outcome
    column must be identical (``reset``, if given, runs between them: e.g. a cache of kept searches to clear, so the
    plays are played again rather than read back). Returns the one-thread columns."""
    import numba

    half = count // 2
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = game.play(settings, seed, stream, 0, count)
        if reset is not None:
            reset()
        numba.set_num_threads(2)
        two = [game.play(settings, seed, stream, lo, n) for lo, n in ((0, half), (half, count - half))]
    finally:
        numba.set_num_threads(before)
    for name, column in one.items():
        np.testing.assert_array_equal(column, np.concatenate([t[name] for t in two]), err_msg=name)
    return one
