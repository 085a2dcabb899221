"""`dsim bench`: throughput, JIT speed-up, compile times and peak memory of fixed workloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from dsim.bench import (
    BENCH_DIR, COLUMNS, BenchError, BenchOptions, check_record_folder, record, run_bench, select_workloads, table_row,
)
from dsim.games.base import SettingsError, split_list

console = Console()
err = Console(stderr=True, highlight=False, soft_wrap=True)


def bench(
    battles: Annotated[int, typer.Option(
        "--battles", min=1, help="Battles per workload in the timed (JIT) run (a searcher's workload, expert-*, "
        "plays its own few hundred).",
    )] = BenchOptions.battles,
    threads: Annotated[int | None, typer.Option(
        "--threads", min=1, help="Numba threads (NUMBA_NUM_THREADS of the measuring processes; default: all cores).",
    )] = None,
    batch: Annotated[int, typer.Option(
        "--batch", min=1, help="Battles per call of the game's play (the engine shares each call out among "
        "the threads).",
    )] = BenchOptions.batch,
    nojit_battles: Annotated[int, typer.Option(
        "--nojit-battles", min=1, help="Battles for the NUMBA_DISABLE_JIT=1 run (plain Python is slow).",
    )] = BenchOptions.nojit_battles,
    quick: Annotated[bool, typer.Option("--quick", help="Skip the cold compile (it takes minutes).")] = False,
    instructions: Annotated[bool, typer.Option(
        "--instructions", help="Also count instructions per battle under valgrind (one thread, 2,000 battles, half "
        "a minute a workload): repeatable to 0.1%, unlike the rates.",
    )] = False,
    workloads: Annotated[str | None, typer.Option(
        "--workloads",
        help="Comma-separated workload names or globs (default: every registered game's workloads, "
             "listed by `dsim games`).",
    )] = None,
    do_record: Annotated[bool, typer.Option(
        "--record",
        help="Append the results with machine info to benchmarks/results.jsonl and rewrite benchmarks/README.md.",
    )] = False,
    bench_dir: Annotated[Path, typer.Option("--bench-dir", help="Folder --record writes to.")] = BENCH_DIR,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print a JSON list, one object per measured workload.",
    )] = False,
) -> None:
    """Measure battles/s and rounds/s (per thread too), the JIT speed-up, cold and cached compile time
    and peak memory of every game's fixed workloads, each in a fresh subprocess."""
    options = BenchOptions(battles=battles, batch=batch, threads=threads, nojit_battles=nojit_battles, cold=not quick,
                           instructions=instructions)
    try:
        chosen = select_workloads(None if workloads is None else split_list("--workloads", workloads))
        if do_record:
            check_record_folder(bench_dir)
        with err.status("benchmarking") as status:
            def step(message: str) -> None:
                if message.startswith("skipped") or not err.is_terminal:  # a log or a pipe: each step on a line
                    err.print(message, markup=False)
                status.update(message)

            results = run_bench(chosen, options, step)
        if do_record and results:
            path = record(results, options, bench_dir)
            err.print(f"recorded in {path} and {path.with_name('README.md')}")
    except (BenchError, SettingsError) as exc:
        err.print(f"[red]Error:[/red] {exc}")
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(results))
        return
    console.print(results_table([table_row(result) for result in results], console.width))


def results_table(rows: list[list[str]], width: int) -> Table:
    """A row per workload when that fits ``width`` columns; else turned round (a row per measure, a column per
    workload), so an 80-column terminal still shows every figure."""
    wide = Table(title="dsim bench")
    for column in COLUMNS:
        wide.add_column(column, justify="left" if column == "workload" else "right", no_wrap=True)
    for row in rows:
        wide.add_row(*row)
    if Console(width=10_000).measure(wide).maximum <= width:
        return wide
    tall = Table(title="dsim bench")
    tall.add_column("measure", no_wrap=True)
    for row in rows:
        tall.add_column(row[0], justify="right", overflow="fold")
    for k, column in enumerate(COLUMNS[1:], start=1):
        tall.add_row(column, *(row[k] for row in rows))
    return tall
