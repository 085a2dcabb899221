"""Playing many games of one cell and summarising them: batching, sums, intervals (game-agnostic).

``dsim run`` and ``dsim area`` call these; ``compare``, ``tune``, ``policies compare`` and ``tune-policy`` play
in the same chunks (:func:`chunks`), so no count holds every play in memory. A game only supplies ``play`` and its
:class:`~dsim.games.base.Outcome` schema, plus optional derived columns and summary figures.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from dsim import compile_notice
from dsim.games.base import Game
from dsim.rng import stream_key

CHUNK = 1 << 16
SEARCH_CHUNK = 1 << 8  # plays a chunk under a searcher (dsim.search): seconds of search, so a progress bar moves


def chunk_size(game: Game, settings: Mapping[str, Any]) -> int:
    """The plays of a chunk of this cell: :data:`SEARCH_CHUNK` (or the game's smaller ``search_chunk``) when a searcher
    plays it (``Game.searching``), else :data:`CHUNK`."""
    return min(SEARCH_CHUNK, game.search_chunk or SEARCH_CHUNK) if game.searching(settings) else CHUNK


def chunks(count: int, start: int = 0, size: int | None = None) -> Iterator[tuple[int, int]]:
    """``(first, n)`` of each chunk of at most ``size`` (default :data:`CHUNK`) plays covering plays ``start ..
    start+count-1``: every command that plays many games plays them this way, so memory stays flat whatever the count."""
    size = size or CHUNK
    for first in range(start, start + count, size):
        yield first, min(size, start + count - first)


def count_true(evaluate: Callable[[Any, int, int], np.ndarray], vector: Any, start: int, count: int,
               on_chunk: Callable[[int], None] = lambda n: None) -> int:
    """How many plays ``start .. start+count-1`` an evaluator (:data:`dsim.games.base.Evaluate`) counts as
    successes, chunk by chunk; ``on_chunk`` gets each chunk's size."""
    wins = 0
    for first, n in chunks(count, start):
        wins += int(np.count_nonzero(evaluate(vector, first, n)))
        on_chunk(n)
    return wins


def cell_stream(settings: Mapping[str, Any]) -> int:
    """The random stream of a cell run from the command line (a hash of its settings)."""
    return stream_key(json.dumps(settings, sort_keys=True))


def play_sums(game: Game, settings: Mapping[str, Any], count: int, seed: int, stream: int,
              on_chunk: Callable[[int], None] = lambda n: None, chunk: int | None = None) -> dict[str, float]:
    """Sums over plays ``0 .. count-1`` of every numeric outcome column (and the game's derived ones),
    chunk by chunk so memory stays flat; ``on_chunk`` gets each chunk's size."""
    totals: dict[str, float] = {}
    for lo, n in chunks(count, 0, chunk):
        cols = game.play(settings, seed, stream, lo, n)
        cols = {**cols, **game.derive(cols, settings)}
        for name, values in cols.items():
            values = np.asarray(values)
            total = values.sum(dtype=np.float64 if values.dtype.kind == "f" else np.int64)
            totals[name] = totals.get(name, 0) + (float(total) if values.dtype.kind == "f" else int(total))
        on_chunk(n)
    return totals


def summarise(game: Game, settings: Mapping[str, Any], totals: Mapping[str, float], count: int, seed: int,
              seconds: float | None = None) -> dict[str, Any]:
    """The summary of ``dsim run``: success rate with its 95% Wilson interval (or win share per seat),
    the mean of the game's rounds column (``mean_rounds``, ``mean_turns`` …), the game's own figures, throughput."""
    from dsim.stats import wilson_interval

    out = game.outcome
    unit = f"{out.unit}s"
    summary: dict[str, Any] = {"game": game.name, "settings": dict(settings), unit: count}
    if out.success is not None:
        wins = int(totals[out.success])
        low, high = wilson_interval(wins, count)
        summary |= {"wins": wins, "win_rate": wins / count, "ci95": [float(low), float(high)]}
    for seat, column in enumerate(out.seat_columns()[: game.seats(settings)]):  # the seats taken
        wins = int(totals[column])
        low, high = wilson_interval(wins, count)
        summary.setdefault("win_share", []).append({"seat": seat, "wins": wins, "share": wins / count,
                                                    "ci95": [float(low), float(high)]})
    summary[f"mean_{out.rounds}"] = totals[out.rounds] / count  # mean_rounds, mean_turns, mean_battles …
    summary["seed"] = seed
    summary |= game.summary(totals, count, settings)
    summary[f"{unit}_per_s"] = count / seconds if seconds else None
    return summary


def run_cell(game: Game, settings: Mapping[str, Any], count: int, seed: int,
             on_chunk: Callable[[int], None] = lambda n: None) -> dict[str, Any]:
    """Play ``count`` games of a command-line cell and summarise them (the first play compiles or loads the kernel;
    a compile's first notice says what to expect, :attr:`Game.compile_cpu_s`)."""
    stream = cell_stream(settings)
    compile_notice.expect(game.compile_cpu_s[0] if game.compile_cpu_s else None)
    game.play(settings, seed, stream, 0, 1)
    start = time.perf_counter()
    totals = play_sums(game, settings, count, seed, stream, on_chunk, chunk_size(game, settings))
    return summarise(game, settings, totals, count, seed, time.perf_counter() - start)
