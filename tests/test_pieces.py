"""dsim.pieces: a batch cut into pieces that threads take in turn (sized as DS:TBG battles are)."""

from __future__ import annotations

import threading
import time

import pytest

from dsim.games.dstbg.engine import LAST_PIECE, MIN_PIECE
from dsim.pieces import pieces, play_pieces


@pytest.mark.parametrize("count, threads, piece", [(0, 2, 8192), (1, 2, 8192), (1500, 2, 8192), (2048, 2, 8192),
                                                   (2048, 2, 2048), (65536, 2, 2048), (100_003, 3, 8192),
                                                   (3000, 2, 257), (5000, 2, 100), (65536, 1, 2048)])
def test_pieces_cover_every_battle_once_tapering_to_small_last_pieces(count, threads, piece):
    cut = pieces(count, threads, piece, MIN_PIECE, LAST_PIECE)
    assert [i for lo, hi in cut for i in range(lo, hi)] == list(range(count))
    sizes = [hi - lo for lo, hi in cut]
    floor = min(piece, LAST_PIECE)
    if len(cut) > 1:  # threads take pieces in turn: full pieces first, then smaller, the last small enough that
        # the threads finish together; a hand-off only for enough battles, and a piece for every thread
        assert sizes[:-1] == sorted(sizes[:-1], reverse=True) and max(sizes[:-1]) <= piece
        assert min(sizes) >= floor and sizes[-1] < 2 * floor and len(cut) >= threads
    assert len(cut) > 1 or threads == 1 or count < threads * min(piece, MIN_PIECE)


def test_pieces_honour_a_game_s_own_sizes():
    cut = pieces(300, 2, 7, min_piece=16, last_piece=2)
    sizes = [hi - lo for lo, hi in cut]
    assert sum(sizes) == 300 and max(sizes) == 7 and min(sizes) >= 2 and sizes[-1] < 4
    assert pieces(31, 2, 32, min_piece=16, last_piece=2) == [(0, 31)]  # under two threads' worth: one piece


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_play_pieces_plays_every_piece_once_on_the_calling_thread_and_helpers(threads):
    parts = pieces(10_000, threads, 300, 100, 20)
    seen: list[tuple[int, int, int, int]] = []

    def play(worker: int, lo: int, hi: int) -> None:  # sleeps without the GIL, as a batch entry plays
        seen.append((lo, hi, worker, threading.get_ident()))
        time.sleep(0.005)

    play_pieces(parts, threads, play)
    assert sorted((lo, hi) for lo, hi, _, _ in seen) == parts
    workers = {(worker, ident) for _, _, worker, ident in seen}
    assert {w for w, _ in workers} <= set(range(threads)) and len({i for _, i in workers}) == len(workers)
    assert (0, threading.get_ident()) in workers  # worker 0 is the caller
    assert len(workers) == threads  # every thread took pieces


def test_play_pieces_raises_what_a_piece_raised():
    def play(worker: int, lo: int, hi: int) -> None:
        if lo == 0:
            raise ValueError("piece 0")

    with pytest.raises(ValueError, match="piece 0"):
        play_pieces(pieces(5000, 2, 500, 100, 20), 2, play)


def test_play_pieces_stops_the_helpers_when_the_calling_thread_fails():
    """An error (or Ctrl-C) on the calling thread: no piece starts after it, and no helper is still playing."""
    started: list[int] = []

    def play(worker: int, lo: int, hi: int) -> None:
        started.append(lo)
        time.sleep(0.005)
        if worker == 0:
            raise KeyboardInterrupt

    parts = pieces(10_000, 2, 100, 100, 20)
    with pytest.raises(KeyboardInterrupt):
        play_pieces(parts, 2, play)
    played = len(started)
    time.sleep(0.05)
    assert played == len(started) and played <= 10 < len(parts)  # ~2: the caller's piece and a helper's
