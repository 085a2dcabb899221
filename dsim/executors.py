"""Where chunks run: in this process, or on a Dask cluster (a local one or ``tcp://HOST:PORT``).

A chunk is a :class:`ChunkTask` (plain data, picklable); :func:`run_chunk` plays it and returns
its single aggregate row. Battle ``i`` of a cell depends only on ``(seed, stream, i)``, so every
executor produces the same rows; only their order of arrival differs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from dsim.registry import load_game
from dsim.results import chunk_row


@dataclass(frozen=True)
class ChunkTask:
    """Battles ``start .. start+count-1`` of one cell, with everything a worker needs to play them."""

    game: str
    game_module: str | None
    cell: str
    settings: dict[str, Any]
    seed: int
    stream: int
    chunk: int
    start: int
    count: int


@dataclass(frozen=True)
class ChunkResult:
    """The aggregate row of a chunk, and when (epoch seconds) and how long it ran."""

    row: dict[str, Any]
    started: float
    seconds: float


class ExecutorError(Exception):
    """An executor could not start (e.g. the Dask scheduler is unreachable); user-facing."""


class Executor(Protocol):
    """Runs chunk tasks and yields each with its result as soon as it is done."""

    name: str

    def describe(self) -> dict[str, Any]:
        """Executor settings for the provenance manifest."""

    def run(self, tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, ChunkResult]]:
        """Play ``tasks``; results may arrive in any order."""


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk and reduce it to its row (runs in this process or on a Dask worker)."""
    game = load_game(task.game, task.game_module)
    _apply_thread_budget()
    started, t0 = time.time(), time.perf_counter()
    outcomes = game.play(task.settings, task.seed, task.stream, task.start, task.count)
    row = chunk_row(task.cell, task.chunk, task.start, task.count, task.seed, task.stream, task.settings, outcomes,
                    game.outcome.success, game.outcome.rounds)
    return ChunkResult(row, started, time.perf_counter() - t0)


class LocalExecutor:
    """Chunks one after another in this process; the game's kernel spreads battles over threads."""

    name = "local"

    def describe(self) -> dict[str, Any]:
        """Executor settings for the provenance manifest."""
        return {"executor": self.name, "cores": usable_cores()}

    def run(self, tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, ChunkResult]]:
        """Play ``tasks`` in order."""
        for task in tasks:
            yield task, run_chunk(task)


def usable_cores() -> int:
    """CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# Numba threads each Dask worker (by address) may use; set by DaskExecutor on the workers.
_THREAD_BUDGETS: dict[str, int] = {}


def _set_thread_budget(budgets: dict[str, int], client_pid: int, dask_worker: Any = None) -> None:
    """On a worker: remember its Numba thread budget and, in a worker process where Numba is
    not imported yet, cap ``NUMBA_NUM_THREADS`` so the pool is never larger."""
    budget = budgets[dask_worker.address]
    _THREAD_BUDGETS[dask_worker.address] = budget
    if os.getpid() != client_pid and "numba" not in sys.modules:
        current = int(os.environ.get("NUMBA_NUM_THREADS", budget))
        os.environ["NUMBA_NUM_THREADS"] = str(min(current, budget))


def _apply_thread_budget() -> None:
    """Inside a Dask task: limit this thread's Numba parallelism to the worker's budget."""
    if "distributed" not in sys.modules or "numba" not in sys.modules:
        return
    from distributed import get_worker

    try:
        budget = _THREAD_BUDGETS.get(get_worker().address)
    except ValueError:  # not running on a Dask worker
        return
    if budget:
        import numba

        numba.set_num_threads(min(budget, numba.config.NUMBA_NUM_THREADS))


class DaskExecutor:
    """One Dask task per chunk, on the scheduler at ``scheduler`` or on a new ``LocalCluster``.

    A local cluster gets ``workers`` single-threaded workers (default: one per core). Before
    any chunk runs, each worker's Numba threads are capped so that threads × workers ≤ cores
    on its host, and each worker plays one battle to compile (warm) the kernel.
    """

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None, processes: bool = True) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.processes = processes

    def describe(self) -> dict[str, Any]:
        """Executor settings for the provenance manifest."""
        return {"executor": self.name, "scheduler": self.scheduler or "LocalCluster",
                "workers": self.workers, "processes": self.processes}

    def _connect(self) -> tuple[Any, Any]:
        """A client of the configured scheduler, or of a new local cluster (returned too, to close)."""
        from distributed import Client, LocalCluster

        if self.scheduler is None:
            cluster = LocalCluster(
                n_workers=self.workers or usable_cores(),
                threads_per_worker=1,
                processes=self.processes,
                dashboard_address=None,
            )
            return Client(cluster), cluster
        try:
            client = Client(self.scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"cannot connect to the Dask scheduler at {self.scheduler}: {exc}") from None
        if self.workers:
            client.wait_for_workers(self.workers)
        return client, None

    def run(self, tasks: Sequence[ChunkTask]) -> Iterator[tuple[ChunkTask, ChunkResult]]:
        """Submit every chunk, then yield results as they complete."""
        if not tasks:
            return
        from distributed import as_completed

        client, cluster = self._connect()
        try:
            _limit_worker_threads(client)
            warm = replace(tasks[0], start=0, count=1)
            client.gather([client.submit(run_chunk, warm, workers=[addr], allow_other_workers=False, pure=False)
                           for addr in client.nthreads()])
            futures = [client.submit(run_chunk, task, pure=False) for task in tasks]
            pending = {future.key: task for future, task in zip(futures, tasks)}
            arrivals = as_completed(futures, with_results=True)
            del futures  # let each result be released on the cluster once it has been yielded
            for future, result in arrivals:
                yield pending.pop(future.key), result
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _limit_worker_threads(client: Any) -> None:
    """Give every worker a Numba thread budget: its host's cores ÷ Dask threads on that host."""
    from distributed.comm import get_address_host

    nthreads: dict[str, int] = client.nthreads()
    cores: dict[str, int] = client.run(usable_cores)
    per_host: dict[str, int] = {}
    for addr, n in nthreads.items():
        per_host[get_address_host(addr)] = per_host.get(get_address_host(addr), 0) + n
    budgets = {addr: max(1, cores[addr] // per_host[get_address_host(addr)]) for addr in nthreads}
    client.run(_set_thread_budget, budgets, os.getpid())
