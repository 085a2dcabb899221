"""`dsim bench`: JSON shape of a tiny run, skipped workloads, the benchmarks/ record; and `dsim run`
keeping its memory flat in the number of battles (design: aggregations per chunk)."""

from __future__ import annotations

import json
import subprocess
import sys

import numba
import pytest
from typer.testing import CliRunner

from dsim.bench import BenchError, Workload, all_workloads, select_workloads, unsupported
from dsim.cli import app

KEYS = {"workload", "battles", "threads", "batch", "battles_per_s", "battles_per_s_per_thread", "rounds_per_s",
        "rounds_per_s_per_thread", "jit_speedup", "compile_s_cold", "compile_s_cached", "peak_rss_mb", "start_s",
        "thread_speedup", "probe_items_per_s", "probe_thread_speedup", "probe_items_per_battle",
        "instructions_per_battle"}


@pytest.fixture(scope="module")
def tiny_bench(tmp_path_factory):
    """One quick bench of a level-1 workload and the mini-boss slot, recorded into a temp folder."""
    folder = tmp_path_factory.mktemp("benchmarks")
    done = subprocess.run(
        [sys.executable, "-m", "dsim", "bench", "--quick", "--battles", "200", "--nojit-battles", "4",
         "--workloads", "l1-2p,mini-boss-*", "--json", "--record", "--bench-dir", str(folder)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout), done.stderr, folder


def test_bench_json_is_one_object_per_measured_workload(tiny_bench):
    results, stderr, _ = tiny_bench
    names = [r["workload"] for r in results]
    assert names[0] == "l1-2p"
    # a boss workload is either measured or skipped with a message, never silently dropped
    assert ("mini-boss-2p" in names) != ("skipped mini-boss-2p" in stderr)
    for r in results:
        assert KEYS <= set(r)
        assert r["battles"] == 200 and r["batch"] == 200 and r["threads"] >= 1
        assert r["battles_per_s"] > 0 and r["jit_speedup"] > 0 and r["peak_rss_mb"] > 0
        assert r["compile_s_cold"] is None and r["compile_s_cached"] > 0  # --quick skips the cold compile
        assert r["battles_per_s_per_thread"] == pytest.approx(r["battles_per_s"] / r["threads"])
        # every record carries its own ceiling: the probe loop's rate and thread speed-up, same process
        assert r["start_s"] > r["compile_s_cached"]
        if r["threads"] > 1:  # one thread has no speed-up to report (test_a_one_thread_bench_…)
            assert r["thread_speedup"] > 0 and r["probe_thread_speedup"] > 0
        assert r["probe_items_per_battle"] == pytest.approx(r["probe_items_per_s"] / r["battles_per_s"])


def test_bench_steps_reach_a_log_a_line_each(tiny_bench):
    """Issue 47: `dsim bench --quick` sent to a file printed nothing for 15 minutes (its spinner draws only on a
    terminal); each step is now a line there."""
    _, stderr, _ = tiny_bench
    assert "l1-2p: a fresh process playing one battle (cached start)" in stderr
    assert "l1-2p: 200 battles on all threads and on one, and the probe loop" in stderr


def test_a_one_thread_bench_reports_no_thread_speed_up():
    """`--threads 1` printed "× threads 1.32": one thread against one thread, the noise of two timings."""
    from dsim.bench import _result

    jit = {"battles": 100, "batch": 100, "threads": 1, "seconds": 1.0, "thread_speedup": 1.3, "rounds": 400,
           "wins": 50, "compile_s": 0.1, "peak_rss_mb": 100.0, "probe_items_per_s": 1e9,
           "probe_thread_speedup": 1.25}
    result = _result(all_workloads()[0], jit, {"battles": 2, "seconds": 1.0}, None, 1.0, None)
    assert result["thread_speedup"] is None and result["probe_thread_speedup"] is None
    assert result["probe_items_per_battle"] == pytest.approx(1e7)
    two = _result(all_workloads()[0], {**jit, "threads": 2}, {"battles": 2, "seconds": 1.0}, None, 1.0, None)
    assert two["thread_speedup"] == pytest.approx(1.3) and two["probe_thread_speedup"] == pytest.approx(1.25)


def test_a_searchers_workload_plays_its_own_count_and_reports_decisions_a_second():
    """`expert-*` workloads: a few hundred battles whatever --battles, no no-JIT run (hours of search), and the
    decisions searched a second beside the battles; the table shows "—" for what was not measured."""
    from dsim.bench import _result, table_row

    searching = [w for w in all_workloads() if w.plays]
    assert {w.name for w in searching} >= {"expert-l1-2p", "expert-gargoyle-2p"}
    assert {w.name for w in searching} >= {"expert-game-2p"}  # whole games, every battle decision searched
    assert all("expert" in (w.settings["policy"], w.settings.get("battle_policy")) and w.plays <= 1000
               for w in searching)
    jit = {"battles": 256, "batch": 64, "threads": 2, "seconds": 32.0, "rounds": 2048, "wins": 128, "decisions": 25600,
           "compile_s": 0.1, "peak_rss_mb": 100.0, "probe_items_per_s": 1e8, "probe_thread_speedup": 1.9}
    result = _result(searching[0], jit, None, None, 1.0, None)
    assert result["decisions_per_s"] == pytest.approx(800.0) and result["battles_per_s"] == pytest.approx(8.0)
    assert result["jit_speedup"] is None and result["probe_items_per_battle"] == pytest.approx(1.25e7)
    row = table_row(result)
    assert row[6] == "800" and row[11] == "—"


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two Numba threads")
def test_paired_speed_up_is_the_median_of_pairs_so_one_slowed_run_does_not_move_it(monkeypatch):
    """Work twice as fast on two threads, one run slowed fivefold (another job on the host): its pair reads 10,
    a mean of the six pairs 3.3; the median is 2. The clock is the test's (a sleep's wake-up on a loaded host, as
    beside another pytest worker, moved the ratios)."""
    import dsim.bench
    from dsim.bench import _paired_speedup

    calls = []

    def run(k: int) -> None:
        calls.append(k)

    def timed(work) -> float:
        work()
        return 0.008 / numba.get_num_threads() * (5 if len(calls) == 7 else 1)

    monkeypatch.setattr(dsim.bench, "_timed", timed)

    before = numba.get_num_threads()
    try:
        speedup = _paired_speedup(run, 6, 2)
        assert numba.get_num_threads() == 2  # left on all threads, as the run after it expects
    finally:
        numba.set_num_threads(before)
    assert speedup == pytest.approx(2.0)
    assert calls == [k for k in range(6) for _ in range(2)]  # each piece of work on one thread and on two


def test_bench_record_appends_machine_info_and_writes_the_readme_table(tiny_bench):
    results, _, folder = tiny_bench
    (entry,) = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert {"platform", "cpu_model", "cpu_count", "numba", "git_commit"} <= set(entry["machine"])
    assert entry["results"] == results and entry["options"]["battles"] == 200
    readme = (folder / "README.md").read_text()
    assert sum(line.startswith(f"| {entry['date'][:10]}") for line in readme.splitlines()) == len(results)


def test_workload_filter_takes_globs_and_rejects_unknown_names():
    assert [w.name for w in select_workloads(["l3-*"])] == ["l3-2p", "l3-4p"]
    assert select_workloads(None) == list(all_workloads())
    with pytest.raises(BenchError, match="no workload matches 'l9'"):
        select_workloads(["l9"])


def test_unplayable_workload_reports_the_game_s_reason():
    assert unsupported(Workload("x", "", {"party": ["nobody"], "encounter": "the_forgotten"}, "dstbg")) is not None
    assert unsupported(all_workloads()[0]) is None


def test_bench_unknown_workload_is_a_one_line_error():
    done = CliRunner().invoke(app, ["bench", "--workloads", "nope", "--json"])
    assert done.exit_code == 1
    assert "no workload matches 'nope'" in done.stderr and done.stdout == ""


# `dsim run` with the kernel replaced by a fast fake (every battle a 3-round win), so that 10^7
# battles take seconds: what is measured is the CLI's own memory per battle.
FAKE_KERNEL_RUN = """
import atexit
import sys
import numpy as np

def report_peak():  # VmHWM: this process's own peak; wait4's ru_maxrss also counts the parent's RSS at fork
    with open("/proc/self/status") as status:
        print(next(line for line in status if line.startswith("VmHWM")).split()[1], file=sys.stderr)

atexit.register(report_peak)
from dsim.games.dstbg import engine
from dsim.games.dstbg.kernel import battle as K

def fake_play_batch(tables, policy, params, seed, stream, start, count, piece=0):
    table = np.zeros((count, K.N_OUT), np.int32)
    table[:, K.OUT_RESULT], table[:, K.OUT_ROUNDS] = 1, 3
    return table

engine.play_batch = fake_play_batch
from dsim.cli import app
app(sys.argv[1:])
"""


def _run_peak_mb(battles: int) -> tuple[dict, float]:
    """`dsim run --json` (fake kernel) in a subprocess: its summary and its own peak RSS in MiB (VmHWM).

    Not wait4's ``ru_maxrss``: Linux carries the forking parent's RSS into it, and the pytest process
    may have grown past 1 GiB compiling the kernel."""
    proc = subprocess.Popen([sys.executable, "-c", FAKE_KERNEL_RUN, "run", "--party", "knight,warrior",
                             "--encounter", "the_forgotten", "--battles", str(battles), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    return json.loads(out), int(err.split()[-1]) / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_run_memory_does_not_grow_with_battles():
    small, small_mb = _run_peak_mb(10_000)
    large, large_mb = _run_peak_mb(10_000_000)
    assert (large["battles"], large["wins"], large["mean_rounds"]) == (10_000_000, 10_000_000, 3.0)
    # keeping every battle's outcome row and its columns would cost over 1 GiB here
    assert large_mb - small_mb < 50 and large_mb < 1024


def test_bench_table_turns_round_to_fit_an_80_column_terminal():
    """At 80 columns the 15 measures do not fit side by side: the table becomes a row per measure, and every
    figure is still printed whole; a wide terminal keeps a row per workload."""
    from rich.console import Console

    from dsim.bench import COLUMNS
    from dsim.cli.bench import results_table

    rows = [["bb-4p-random", "1,000,000", "2", "119,166", "59,583", "2,284,454", "—", "1.94", "2.00", "111", "—",
             "244", "15.0", "0.03", "0.71", "234"],
            ["l1-2p", "1,000,000", "2", "594,058", "297,029", "2,383,694", "—", "1.94", "2.00", "22", "51,515", "386",
             "15.3", "0.06", "0.87", "208"]]
    for width in (80, 250):
        console = Console(width=width, record=True)
        console.print(results_table(rows, width))
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= width
        for row in rows:
            assert all(cell in text for cell in row), (width, row)
        lines = [line for line in text.splitlines() if "bb-4p-random" in line]
        assert len(lines) == 1 and ("119,166" in lines[0]) == (width == 250)
    assert len(COLUMNS) == len(rows[0])


def test_cold_compile_is_measured_for_each_workload_in_its_own_fresh_cache(monkeypatch):
    """Two workloads of two games: each is warmed, and each gets its own cold compile in its own empty
    NUMBA_CACHE_DIR (it once measured the first workload's compile and reported it for every game)."""
    from dsim import bench as B

    calls = []
    cold = {"bb-4p-random": 15.0, "l1-2p": 58.0}

    def fake(workload, battles, batch, env, python_flags=(), scaling=False):
        calls.append((workload.name, env.get("NUMBA_CACHE_DIR"), env.get("NUMBA_DISABLE_JIT")))
        fresh = env.get("NUMBA_CACHE_DIR") is not None
        return {"compile_s": cold[workload.name] if fresh else 0.1, "process_s": 0.7, "battles": battles,
                "batch": batch, "threads": 2, "seconds": 1.0, "rounds": 10 * battles, "wins": battles // 2,
                "peak_rss_mb": 200.0}

    monkeypatch.setattr(B, "_measure_in_subprocess", fake)
    monkeypatch.setattr(B, "unsupported", lambda workload: None)
    chosen = B.select_workloads(["bb-4p-random", "l1-2p"])
    results = B.run_bench(chosen, B.BenchOptions(battles=10, nojit_battles=2))
    assert {r["workload"]: r["compile_s_cold"] for r in results} == cold
    caches = [c for name, c, _ in calls if c is not None]
    assert len(caches) == 2 and len(set(caches)) == 2
    for name in cold:  # warmed (cached, JIT) before its own cold compile
        mine = [c for c in calls if c[0] == name]
        assert mine[0][1] is None and mine[0][2] is None and mine[1][1] is not None


def test_a_quick_timed_run_keeps_the_fastest_of_three_and_a_long_one_runs_once(monkeypatch):
    from dsim import bench

    def clock(*readings):
        ticks = iter(readings)
        monkeypatch.setattr(bench.time, "perf_counter", lambda: next(ticks))

    calls = []
    clock(0.0, 2.0, 2.0, 3.0, 3.0, 6.0)  # runs of 2 s, 1 s and 3 s: other work only ever slows a run
    assert bench._fastest(lambda: calls.append(1)) == 1.0 and len(calls) == 3
    calls.clear()
    clock(0.0, bench.REPEAT_UNDER_S)  # a long run is not repeated (a slow workload would take minutes)
    assert bench._fastest(lambda: calls.append(1)) == bench.REPEAT_UNDER_S and len(calls) == 1


def test_a_measuring_process_keeps_pythons_bytecode_cache_on(monkeypatch):
    """A sandbox's PYTHONDONTWRITEBYTECODE would make every measured start compile dsim's sources again."""
    from dsim import bench

    seen = {}

    def run(command, env, **kwargs):
        seen.update(env)
        return subprocess.CompletedProcess(command, 0, stdout='{"compile_s": 0.1}\n', stderr="")

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(bench.subprocess, "run", run)
    out = bench._measure_in_subprocess(select_workloads(["l1-2p"])[0], 1, 1, {"NUMBA_NUM_THREADS": "2"})
    assert out["compile_s"] == 0.1
    assert "PYTHONDONTWRITEBYTECODE" not in seen and seen["NUMBA_NUM_THREADS"] == "2"
