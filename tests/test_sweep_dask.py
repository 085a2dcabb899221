"""The Dask executor gives exactly the chunks of the in-process one."""

from dsim import executors, results
from dsim.executors import DaskExecutor, LocalExecutor
from dsim.sweep import load_experiment, run_sweep
from tests.toygame import write_experiment


def test_dask_local_cluster_and_in_process_give_identical_chunks(tmp_path):
    source = load_experiment(write_experiment(tmp_path, battles=500, chunk=100))
    run_sweep(source, tmp_path / "local", LocalExecutor())
    run_sweep(source, tmp_path / "dask", DaskExecutor(workers=1, processes=True), game_module="tests.toygame")
    names = sorted(p.name for p in (tmp_path / "local").glob("*.parquet"))
    assert len(names) == 10
    assert names == sorted(p.name for p in (tmp_path / "dask").glob("*.parquet"))
    for name in names:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()
    run = results.read_manifest(tmp_path / "dask")["runs"][0]
    assert run["executor"] == "dask" and run["scheduler"] == "LocalCluster"


class _FakeClient:
    """Two hosts: a (two 1-thread workers, 4 cores) and b (one 4-thread worker, 8 cores)."""

    def __init__(self):
        self.calls = []

    def nthreads(self):
        return {"tcp://10.0.0.1:1": 1, "tcp://10.0.0.1:2": 1, "tcp://10.0.0.2:1": 4}

    def run(self, function, *args):
        self.calls.append((function, args))
        return {"tcp://10.0.0.1:1": 4, "tcp://10.0.0.1:2": 4, "tcp://10.0.0.2:1": 8}


def test_numba_threads_times_dask_threads_fit_the_cores_of_each_host():
    client = _FakeClient()
    executors._limit_worker_threads(client)
    function, (budgets, _) = client.calls[-1]
    assert function is executors._set_thread_budget
    assert budgets == {"tcp://10.0.0.1:1": 2, "tcp://10.0.0.1:2": 2, "tcp://10.0.0.2:1": 2}
