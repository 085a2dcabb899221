"""`dsim bench`: fixed workloads measured in fresh subprocesses, and the record kept in ``benchmarks/``.

Each measurement runs in its own Python process so that its compile time, Numba thread pool and
peak memory (``resource.getrusage`` in that process) belong to it alone:

* *cached* — the normal Numba cache (warmed first): time of the first battle, then BATTLES
  battles played in batches (throughput, rounds, peak RSS), the fastest of three runs when a run
  takes under ten seconds (as the probe loop's rate is the fastest of three);
* *cold* — a fresh temporary ``NUMBA_CACHE_DIR`` per workload: time of the first battle is the full
  compile of what that workload runs (its game's kernel, its policies, boss code for a boss);
* *no JIT* — ``NUMBA_DISABLE_JIT=1``: the same code as plain Python on a few dozen battles;
* *scaling* — in the cached process, a trivial parallel probe loop's rate, and the speed-up from one thread to
  all of the battles and of the probe, each the median over pairs of the same work played on one thread and on
  all back to back (:func:`_paired_speedup`): every record carries its machine's own ceiling;
* *start* — the wall time of a fresh process that loads the cached kernel and plays one battle;
* *instructions* (``--instructions``) — instructions per battle counted by valgrind's callgrind on one thread
  (:mod:`dsim.instructions`) in one fixed CPU target: repeatable to 0.1%, where the rates move by 10–20% on
  a shared machine.

Every measuring process runs with Python's bytecode cache on, Python's default: a ``PYTHONDONTWRITEBYTECODE``
in the calling environment (some sandboxes set it) is dropped, or each start would compile dsim's sources again,
a cost no installed copy has. The warming run writes the bytecode when the tree is writable.

The subprocess entry is ``python -m dsim.bench '<json>'``; it prints one JSON object.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dsim.paths import REPO_ROOT
from dsim.workloads import (  # noqa: F401  (re-exported: `dsim bench`'s callers and tests take them from here)
    SEED, BenchError, Workload, all_workloads, select_workloads, unsupported,
)

BENCH_DIR = REPO_ROOT / "benchmarks"
RESULTS_FILE = "results.jsonl"
README_FILE = "README.md"
# --------------------------------------------------------------------------- the measuring process


def _peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB (``ru_maxrss`` is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


PROBE_DRAWS = 64  # hash draws per probe item: about as much work per item as a short battle's dice


def _probe_kernel() -> Any:
    """The probe loop: items in parallel, each ``PROBE_DRAWS`` SplitMix64 hashes summed. No memory, no
    branches, no calls: the ceiling of this machine for embarrassingly parallel Numba work."""
    import numba
    import numpy as np

    from dsim.rng import mix64

    @numba.njit(parallel=True, cache=True)
    def probe(n: int) -> np.uint64:
        total = np.uint64(0)
        for i in numba.prange(n):
            x = np.uint64(i)
            for _ in range(PROBE_DRAWS):
                x = mix64(x)
            total += x
        return total

    return probe


def _timed(play: Callable[[], Any]) -> float:
    """Seconds of one call."""
    t0 = time.perf_counter()
    play()
    return time.perf_counter() - t0


REPEAT_UNDER_S = 10.0  # a timed run shorter than this is run twice more and the fastest kept


def _fastest(play: Callable[[], Any]) -> float:
    """Seconds of the fastest of three calls, or of one call that takes ``REPEAT_UNDER_S`` or more: other
    work on a shared machine only ever slows a run down, and one run of a level-1 workload read a quarter low."""
    first = _timed(play)
    return first if first >= REPEAT_UNDER_S else min(first, _timed(play), _timed(play))


PROBE_MIN_ITEMS = 1 << 22  # a searcher's workload plays a few hundred battles: the probe still runs for milliseconds
PROBE_PAIRS = 16  # probe calls on one thread and on all, for its paired speed-up


def _paired_speedup(run: Callable[[int], Any], pairs: int, threads: int) -> float:
    """Median over ``pairs`` of (seconds on one thread / seconds on ``threads``) of the same work ``run(k)``, the
    two of a pair back to back, in alternating order: other work on a shared host slows both of a pair alike,
    where runs seconds apart met different loads (a record read 2.10× from one thread to two)."""
    import numba

    ratios = []
    for k in range(pairs):
        seconds = {}
        for n in (1, threads) if k % 2 else (threads, 1):
            numba.set_num_threads(n)
            seconds[n] = _timed(lambda: run(k))
        ratios.append(seconds[1] / seconds[threads])
    numba.set_num_threads(threads)
    return statistics.median(ratios)


SEARCHED = "searched_decisions"  # the outcome column a searcher's plays carry: decisions it searched in each


def measure(game_name: str, game_module: str | None, settings: Mapping[str, Any], battles: int, batch: int,
            seed: int = SEED, scaling: bool = False) -> dict[str, Any]:
    """In this process: time the first battle (kernel compile or cache load), then ``battles``
    battles in batches of ``batch`` through the game's play (:func:`_fastest` of three runs), summing only,
    so memory is O(batch).
    With ``scaling``, also the probe loop's rate, and the speed-up from one thread to all of the battles (batch by
    batch) and of the probe loop, each measured in pairs (:func:`_paired_speedup`)."""
    import numba

    from dsim.registry import load_game
    from dsim.rng import stream_key

    game = load_game(game_name, game_module)
    stream = stream_key(json.dumps(settings, sort_keys=True))  # as `dsim run`, so the battles are the same
    game.check_settings(settings)
    compile_s = _timed(lambda: game.play(settings, seed, stream, 0, 1))
    sums = {"rounds": 0, "wins": 0, "decisions": 0}
    batches = [(lo, min(batch, battles - lo)) for lo in range(0, battles, batch)]

    def play_all() -> None:
        sums["rounds"] = sums["wins"] = sums["decisions"] = 0
        for lo, count in batches:
            cols = game.play(settings, seed, stream, lo, count)
            sums["rounds"] += int(cols[game.outcome.rounds].sum())
            sums["wins"] += int(cols[game.outcome.success].sum()) if game.outcome.success else 0
            sums["decisions"] += int(cols[SEARCHED].sum()) if SEARCHED in cols else 0  # a searcher's plays

    threads = numba.get_num_threads()
    seconds = _fastest(play_all)
    out = {"battles": battles, "batch": min(batch, battles), "threads": threads, "seconds": seconds, **sums,
           "compile_s": compile_s}
    if scaling:
        probe, items = _probe_kernel(), max(battles * 4, PROBE_MIN_ITEMS)
        probe(threads)  # compile or load
        out["probe_items_per_s"] = items / _fastest(lambda: probe(items))
        if threads > 1:  # one thread over one thread is noise, not a speed-up
            out["thread_speedup"] = _paired_speedup(lambda k: game.play(settings, seed, stream, *batches[k]),
                                                    len(batches), threads)
            out["probe_thread_speedup"] = _paired_speedup(lambda k: probe(max(items // PROBE_PAIRS, 1)),
                                                          PROBE_PAIRS, threads)
    return out | {"peak_rss_mb": _peak_rss_mb()}


def _measure_in_subprocess(workload: Workload, battles: int, batch: int, env: Mapping[str, str],
                           python_flags: Sequence[str] = (), scaling: bool = False) -> dict[str, Any]:
    """Run :func:`measure` in a fresh Python with extra environment ``env``; its JSON result, with the
    subprocess's whole wall time as ``process_s`` (start, imports, kernel load and the battles)."""
    request = json.dumps({"game": workload.game, "module": workload.game_module, "settings": workload.settings,
                          "battles": battles, "batch": batch, "scaling": scaling})
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | dict(env)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *python_flags, "-m", "dsim.bench", request],
                          env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        where = ", ".join(f"{k}={v}" for k, v in env.items()) or "default environment"
        raise BenchError(f"measuring subprocess failed ({where}): {last}")
    return json.loads(done.stdout.splitlines()[-1]) | {"process_s": time.perf_counter() - t0}


# --------------------------------------------------------------------------- a benchmark run


SEARCH_BATCH = 64  # plays a batch of a searcher's workload (the thread speed-up pairs them batch by batch)


@dataclass(frozen=True)
class BenchOptions:
    """How to measure: battles per workload (JIT and no-JIT), batch size, threads, cold compile or not."""

    battles: int = 1_000_000  # long enough that thread start-up and the last block do not show
    batch: int = 1 << 16
    threads: int | None = None
    nojit_battles: int = 100
    cold: bool = True
    instructions: bool = False

    def env(self) -> dict[str, str]:
        """Environment of every measuring subprocess (``NUMBA_NUM_THREADS`` when threads are set)."""
        return {"NUMBA_NUM_THREADS": str(self.threads)} if self.threads else {}


def _result(workload: Workload, jit: Mapping[str, Any], nojit: Mapping[str, Any] | None,
            cold_s: float | None, start_s: float, instructions: float | None) -> dict[str, Any]:
    """One workload's JSON object; per-thread rates divide by the Numba threads of the JIT run,
    the JIT speed-up compares that per-thread rate with the (single-threaded) no-JIT rate, and the
    thread speed-ups (all threads over one) of the game and of the probe loop sit side by side; a searcher's
    workload adds its searched decisions a second (and has no no-JIT run)."""
    rate = jit["battles"] / jit["seconds"]
    probe = jit.get("probe_items_per_s")
    several = jit["threads"] > 1  # one thread over one thread is noise, not a speed-up
    scaling = {} if probe is None else {
        "thread_speedup": jit.get("thread_speedup") if several else None,
        "probe_items_per_s": probe,
        "probe_thread_speedup": jit.get("probe_thread_speedup") if several else None,
        "probe_items_per_battle": probe / rate,  # a battle's cost in probe items (the same threads)
    }
    rounds_rate = jit["rounds"] / jit["seconds"]
    nojit_rate = None if nojit is None else nojit["battles"] / nojit["seconds"]
    search = {"decisions_per_s": jit["decisions"] / jit["seconds"]} if jit.get("decisions") else {}
    return {
        "workload": workload.name, "description": workload.description, "settings": workload.settings,
        "battles": jit["battles"], "batch": jit["batch"], "threads": jit["threads"], "seconds": jit["seconds"],
        "battles_per_s": rate, "battles_per_s_per_thread": rate / jit["threads"],
        "rounds_per_s": rounds_rate, "rounds_per_s_per_thread": rounds_rate / jit["threads"],
        "mean_rounds": jit["rounds"] / jit["battles"], "win_rate": jit["wins"] / jit["battles"],
        "nojit_battles": None if nojit is None else nojit["battles"], "nojit_battles_per_s": nojit_rate,
        "jit_speedup": None if nojit_rate is None else rate / jit["threads"] / nojit_rate, **search,
        "compile_s_cold": cold_s, "compile_s_cached": jit["compile_s"], "start_s": start_s,
        "peak_rss_mb": jit["peak_rss_mb"], "instructions_per_battle": instructions, **scaling,
    }


def run_bench(workloads: Sequence[Workload], options: BenchOptions,
              on_step: Callable[[str], None] = lambda message: None) -> list[dict[str, Any]]:
    """Measure ``workloads``; those the game cannot play yet are reported via ``on_step`` and left out."""
    playable = []
    for workload in workloads:
        reason = unsupported(workload)
        if reason:
            on_step(f"skipped {workload.name}: {reason}")
        else:
            playable.append(workload)
    if not playable:
        return []
    if options.instructions:
        from dsim.instructions import InstructionsError, require_valgrind

        try:
            require_valgrind()
        except InstructionsError as exc:
            raise BenchError(f"--instructions: {exc}") from None
    env = options.env()
    out = []
    for workload in playable:
        on_step(f"{workload.name}: warming the Numba cache (compiles what it runs if that is not cached yet)")
        _measure_in_subprocess(workload, 1, 1, env)
        cold_s = None
        if options.cold:  # per workload: games have their own kernels, and a boss run compiles more than an encounter
            on_step(f"{workload.name}: cold compile in a fresh NUMBA_CACHE_DIR (half a minute or more)")
            with tempfile.TemporaryDirectory(prefix="dsim-numba-cache-") as cache:
                cold_s = _measure_in_subprocess(workload, 1, 1, env | {"NUMBA_CACHE_DIR": cache})["compile_s"]
        on_step(f"{workload.name}: a fresh process playing one battle (cached start)")
        start_s = _measure_in_subprocess(workload, 1, 1, env)["process_s"]
        plays = workload.plays or options.battles
        batch = SEARCH_BATCH if workload.plays else options.batch
        on_step(f"{workload.name}: {plays:,} battles on all threads and on one, and the probe loop")
        jit = _measure_in_subprocess(workload, plays, batch, env, scaling=True)
        nojit = None
        if not workload.plays:
            on_step(f"{workload.name}: {options.nojit_battles:,} battles with NUMBA_DISABLE_JIT=1")
            nojit = _measure_in_subprocess(workload, options.nojit_battles, options.batch,
                                           env | {"NUMBA_DISABLE_JIT": "1"}, ("-W", "ignore::RuntimeWarning"))
        instructions = None
        if options.instructions and workload.plays:  # thousands of searched battles under valgrind: hours
            on_step(f"{workload.name}: no instruction count for a searcher's workload")
        elif options.instructions:
            from dsim.instructions import BATTLES, InstructionsError, count

            on_step(f"{workload.name}: {BATTLES:,} battles counted under valgrind (half a minute; a minute more "
                    "the first time, to compile for the counting target)")
            try:
                counted = count(workload)
            except InstructionsError as exc:
                raise BenchError(str(exc)) from None
            if counted.compiled:
                raise BenchError(f"--instructions ({workload.name}): {counted.compiled_warning()}; is "
                                 "NUMBA_CACHE_DIR writable?")
            instructions = counted.per_battle
        out.append(_result(workload, jit, nojit, cold_s, start_s, instructions))
    return out


# --------------------------------------------------------------------------- the record in benchmarks/


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else what :mod:`platform` knows): the same code
    runs twice as fast on some hosts as on others, so a rate means little without it."""
    try:
        for line in Path("/proc/cpuinfo").read_text("utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, Any]:
    """Where the benchmark ran: platform, CPU model, CPUs and their load, Python / Numba / NumPy versions, git commit."""
    from dsim.executors import usable_cores
    from dsim.sweep import _git, _version  # the sweep manifest's own provenance helpers

    status = _git("status", "--porcelain")
    return {
        "platform": platform.platform(), "machine": platform.machine(), "processor": platform.processor(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(), "usable_cores": usable_cores(),
        "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,  # other work on the machine
        "python": platform.python_version(), "numba": _version("numba"), "numpy": _version("numpy"),
        "git_commit": _git("rev-parse", "HEAD"), "git_dirty": None if status is None else bool(status),
    }


def record(results: Sequence[Mapping[str, Any]], options: BenchOptions, folder: Path = BENCH_DIR) -> Path:
    """Append one run (date, machine, options, results) to ``results.jsonl`` and rewrite ``README.md``."""
    entry = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine_info(),
             "options": {"battles": options.battles, "batch": options.batch, "threads": options.threads,
                         "nojit_battles": options.nojit_battles, "cold": options.cold,
                         "instructions": options.instructions},
             "results": list(results)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / RESULTS_FILE, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")
        records = [json.loads(line) for line in (folder / RESULTS_FILE).read_text("utf-8").splitlines() if line]
        (folder / README_FILE).write_text(render_markdown(records), "utf-8")
    except (OSError, json.JSONDecodeError) as exc:
        raise BenchError(f"cannot record the benchmark in {folder}: {exc}") from None
    return folder / RESULTS_FILE


def check_record_folder(folder: Path) -> None:
    """Fail at once, not after minutes of measuring, when ``--record`` could not write into ``folder``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        for name in (RESULTS_FILE, README_FILE):
            if (folder / name).exists():
                with open(folder / name, "a", encoding="utf-8"):
                    pass
    except OSError as exc:
        raise BenchError(f"--record: cannot write into {folder} ({exc.strerror or exc}); choose a writable "
                         "--bench-dir (nothing was measured)") from None


COLUMNS = ("workload", "battles", "threads", "battles/s", "/thread", "rounds/s", "decisions/s", "× threads",
           "probe × threads", "probe/battle", "instr/battle", "JIT ×", "cold s", "cached s", "start s", "peak MiB")


def _fmt(value: float | None, spec: str) -> str:
    """A number for a table; ``—`` when not measured."""
    return "—" if value is None else format(value, spec)


def _rate(value: float) -> str:
    """A rate for a table: whole above 100 a second, one decimal below (a searcher's few battles a second)."""
    return format(value, ",.0f" if value >= 100 else ",.1f")


def table_row(result: Mapping[str, Any]) -> list[str]:
    """One workload's result as the cells of :data:`COLUMNS` (terminal and Markdown tables)."""
    r = result
    return [r["workload"], f"{r['battles']:,}", str(r["threads"]), _rate(r["battles_per_s"]),
            _rate(r["battles_per_s_per_thread"]), _rate(r["rounds_per_s"]),
            _fmt(r.get("decisions_per_s"), ",.0f"),
            _fmt(r.get("thread_speedup"), ".2f"),
            _fmt(r.get("probe_thread_speedup"), ".2f"), _fmt(r.get("probe_items_per_battle"), ",.0f"),
            _fmt(r.get("instructions_per_battle"), ",.0f"),
            _fmt(r.get("jit_speedup"), ",.0f"), _fmt(r["compile_s_cold"], ".1f"), _fmt(r["compile_s_cached"], ".2f"),
            _fmt(r.get("start_s"), ".2f"), _fmt(r["peak_rss_mb"], ",.0f")]


def render_markdown(records: Sequence[Mapping[str, Any]]) -> str:
    """``benchmarks/README.md``: one table row per workload of every recorded run, newest first."""
    header = ("date", "commit", "machine", *COLUMNS)
    lines = [
        "# Benchmarks",
        "",
        "Written by `dsim bench --record` from `results.jsonl` (one JSON record per run: machine, options,",
        "results). Rates are per second of battle time after the kernel is loaded, from the fastest of three",
        "runs when a run takes under ten seconds (from the 2026-12-06 evening on; one run before, which on",
        "these shared hosts read up to 20% low); */thread* divides by",
        "the Numba threads; *JIT ×* is the per-thread rate over the same code under `NUMBA_DISABLE_JIT=1`;",
        "*cold s* / *cached s* are the compile times (first battle with an empty / a warm Numba cache);",
        "*start s* is the wall time of a fresh process that imports dsim, loads the cached kernel and plays",
        "one battle (from 2026-12-07 with Python's bytecode cache on, as on an installed copy; before, the",
        "hosts' PYTHONDONTWRITEBYTECODE recompiled dsim's sources at each start, about 0.1 s).",
        "*× threads* is the rate on all threads over the rate on one (from 2026-12-07 13:10 on, the median over",
        "batches each played on one thread and on all back to back, so both meet the same load; before, whole runs",
        "seconds apart, which once read 2.10× on two threads); the *probe* is a trivial",
        f"parallel Numba loop ({PROBE_DRAWS} hashes per item) measured in the same process, so *probe × threads*",
        "is the machine's ceiling for that speed-up and *probe/battle* is a battle's cost in probe items",
        "(a ratio that holds across hosts). *instr/battle* (`--instructions`, from 2026-12-06) is the",
        "instructions per battle counted by valgrind on one thread: repeatable to 0.1% (the kernel's own share",
        "exactly) and, counted in one fixed CPU target (x86-64-v3) from the 2026-12-06 evening on, the same on",
        "every host (the records before counted each host's own code), so it is the measure of a kernel change",
        "(`python -m dsim.instructions WORKLOAD` shows where they go).",
        "The *expert-* workloads (from 2026-12-07 22:00) play a few hundred battles under the `expert` searcher",
        "(`dsim.search`: one-step rollouts of the tactician, its default budget), battles/s being searched battles and",
        "*decisions/s* the decisions it searched; *probe/battle* then is a searched battle's cost in probe items,",
        "the figure to carry to a quiet host. They have no no-JIT run.",
        "*peak MiB* is the peak RSS of the measuring process. *load* is the machine's 1-minute load average",
        "when the run was recorded (other work on the machine slows every number down). Hosts differ: the",
        "same kernel ran l1-2p at 163k battles/s on the host of 2026-12-02 and at about 340k/s on the",
        "AMD EPYC host of 2026-12-03, so compare rates within one machine (the CPU model is recorded",
        "from 2026-12-03 on).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 4 else "---:" for i in range(len(header))) + "|",
    ]
    for entry in reversed(records):
        machine = entry["machine"]
        load = machine.get("load_average_1min")
        cpus = f"{machine['cpu_count']} × {machine['cpu_model']}" if machine.get("cpu_model") else f"{machine['cpu_count']} CPUs"
        where = f"{cpus}{'' if load is None else f' (load {load:.1f})'}, numba {machine['numba']}"
        commit = (machine.get("git_commit") or "?")[:10] + ("+" if machine.get("git_dirty") else "")
        for result in entry["results"]:
            cells = [entry["date"][:16].replace("T", " "), commit, where, *table_row(result)]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    _request = json.loads(sys.argv[1])
    print(json.dumps(measure(_request["game"], _request["module"], _request["settings"], _request["battles"],
                             _request["batch"], scaling=_request["scaling"])))
