"""A batch shared out among threads: cut into pieces that the threads take in turn, as each comes free.

A game's batch entry releases the GIL, so several threads play pieces of one batch at once. Pieces go out in
order, full size while plenty are left and then smaller (OpenMP's *guided* schedule), so the threads finish
close together: the last piece is small. Results must not depend on the cutting (a battle's dice depend only on
its index); the tests of each game check that.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from queue import Empty, SimpleQueue


def pieces(count: int, threads: int, piece: int, min_piece: int, last_piece: int) -> list[tuple[int, int]]:
    """``count`` items cut into ``(lo, hi)`` pieces for threads that take them in turn: ``piece`` items while
    plenty are left, then a ``threads``-th of what is left (none under ``last_piece``); one piece when
    fewer than ``threads × min_piece``. A game sizes them by what its items cost: a piece of a few ms, so a
    thread held up by other work delays the rest little, and a last piece a tenth of that."""
    if threads == 1 or count < threads * min(piece, min_piece):
        return [(0, count)] if count else []
    floor = min(piece, last_piece)
    cut, lo = [], 0
    while lo < count:
        left = count - lo
        size = min(piece, max(floor, -(-left // threads)))
        hi = count if left - size < floor else lo + size  # no sliver after the last piece
        cut.append((lo, hi))
        lo = hi
    return cut


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads kept for the process (one per size asked for)."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="dsim-pieces")
    return _POOLS[threads]


def play_pieces(parts: list[tuple[int, int]], threads: int, play: Callable[[int, int, int], None]) -> None:
    """``play(worker, lo, hi)`` for every piece of ``parts``, on ``threads`` threads that each take the next
    piece when free. Worker 0 is the calling thread (it starts at once, where a pool thread would take a
    wake-up first); workers 1 .. threads-1 are pool threads. A worker index lets a game give each thread
    buffers of its own. A piece's hand-off costs ~10 us. When the calling thread's piece raises (or Ctrl-C
    stops it), no further piece starts, and the error is raised once the helpers' pieces are done."""
    todo: SimpleQueue[tuple[int, int]] = SimpleQueue()
    for part in parts:
        todo.put(part)

    def take_pieces(worker: int) -> None:
        while True:
            try:
                lo, hi = todo.get_nowait()
            except Empty:
                return
            play(worker, lo, hi)

    helpers = [_pool(threads - 1).submit(take_pieces, k) for k in range(1, min(threads, len(parts)))]
    try:
        take_pieces(0)
    except BaseException:  # an error or Ctrl-C here: the helpers stop after the piece they are on
        try:
            while True:
                todo.get_nowait()
        except Empty:  # a helper may take the last piece between a check and a get: only Empty ends the drain
            pass
        wait(helpers)
        raise
    for job in helpers:
        job.result()
