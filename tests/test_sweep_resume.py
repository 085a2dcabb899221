"""Running sweeps into a folder: chunk rows, manifest, SIGKILL + resume, refusals, growing a sweep."""

import fcntl
import hashlib
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from dsim import results
from dsim.executors import LocalExecutor
from dsim.paths import REPO_ROOT
from dsim.results import HIST_BINS, HIST_LOW
from dsim.sweep import ExperimentError, expand, load_experiment, run_sweep
from tests.toygame import ToyGame, write_experiment


def _sweep(path, out, **kwargs):
    return run_sweep(load_experiment(path), out, LocalExecutor(), **kwargs)


def _same_chunk_files(a, b):
    names = sorted(p.name for p in a.glob("*.parquet"))
    assert names == sorted(p.name for p in b.glob("*.parquet"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    return names


def test_one_row_per_chunk_holds_exact_aggregates_of_every_battle(tmp_path):
    path = write_experiment(tmp_path, battles=3000, chunk=500)
    status = _sweep(path, tmp_path / "out")
    assert (status.cells, status.chunks_pending, status.battles) == (2, 12, 6000)
    raw = pd.read_parquet(tmp_path / "out")
    assert len(raw) == 12  # rows = chunks, not battles: disk and memory stay flat
    for cell in expand(load_experiment(path).experiment):
        rows = raw[raw.cell == cell.id].sort_values("chunk")
        assert list(rows.start) == [0, 500, 1000, 1500, 2000, 2500] and set(rows["count"]) == {500}
        full = ToyGame().play(cell.settings, 11, cell.stream, 0, 3000)
        win, rounds = full["win"], full["rounds"]
        assert rows.wins.sum() == win.sum()
        assert rows.rounds_sum.sum() == rounds.sum() and rows.rounds_sumsq.sum() == (rounds**2).sum()
        assert rows.deaths_sum.sum() == full["deaths"].sum() and rows.heatup_sum.sum() == full["heatup"].sum()
        assert rows.damage_dealt_sum.sum() == pytest.approx(full["damage_dealt"].sum(), rel=1e-12)
        hist = np.sum(np.stack(rows.rounds_hist_win.to_numpy()), axis=0)
        assert len(hist) == HIST_BINS
        assert list(hist) == list(np.bincount(rounds[win] - HIST_LOW, minlength=HIST_BINS))
        assert rows.settings.iloc[0] == results.canonical_json(cell.settings)
        assert set(rows.stream) == {cell.stream} and set(rows.seed) == {11}


def test_manifest_records_provenance_and_timings(tmp_path):
    path = write_experiment(tmp_path)
    _sweep(path, tmp_path / "out")
    manifest = results.read_manifest(tmp_path / "out")
    assert manifest["experiment"]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert manifest["experiment"]["text"] == path.read_text()
    assert (manifest["seed"], manifest["chunk"], manifest["battles"], manifest["game"]) == (11, 100, 400, "toy")
    cells = expand(load_experiment(path).experiment)
    assert list(manifest["cells"]) == [c.id for c in cells]
    assert all(entry["data_hash"] == "toy-data-v1" for entry in manifest["cells"].values())
    (run,) = manifest["runs"]
    for key in ("host", "python", "numba", "dsim", "git_commit", "executor", "started", "finished"):
        assert key in run
    for cell in cells:
        timing = run["cells"][cell.id]
        assert (timing["chunks"], timing["battles"]) == (4, 400)
        assert timing["started"] <= timing["finished"]


def test_sigkilled_sweep_resumes_to_bit_identical_chunks(tmp_path):
    path = write_experiment(tmp_path, battles=600, chunk=100, fixed="max_rounds = 8\nsleep = 0.15")
    out, reference = tmp_path / "killed", tmp_path / "reference"
    command = [sys.executable, "-m", "dsim", "sweep", str(path), "--out", str(out), "--game-module", "tests.toygame"]
    sweep = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list(out.glob("*.parquet"))) < 3:
        assert sweep.poll() is None, "the sweep ended before it could be killed"
        assert time.monotonic() < deadline, "the sweep never wrote a chunk"
        time.sleep(0.01)
    sweep.send_signal(signal.SIGKILL)
    sweep.wait()
    assert 3 <= len(list(out.glob("*.parquet"))) < 12
    (out / ".stray-000009.parquet.4242.tmp").write_bytes(b"half a chunk")  # what a kill mid-write leaves

    subprocess.run(command, cwd=REPO_ROOT, check=True, capture_output=True, timeout=120)
    _sweep(path, reference)
    assert len(_same_chunk_files(out, reference)) == 12
    assert not list(out.glob("*.tmp"))
    pd.testing.assert_frame_equal(results.load(out), results.load(reference))
    runs = results.read_manifest(out)["runs"]
    assert len(runs) == 2 and runs[0]["finished"] is None and runs[1]["finished"]


def test_growing_a_finished_sweep_matches_a_sweep_run_at_full_size(tmp_path):
    path = write_experiment(tmp_path, battles=250)
    _sweep(path, tmp_path / "grown")
    status = _sweep(path, tmp_path / "grown", battles=430)
    assert status.chunks_pending == 2 * 3  # chunk 2 (50 → 100 battles), 3 and 4 of each cell
    _sweep(path, tmp_path / "direct", battles=430)
    _same_chunk_files(tmp_path / "grown", tmp_path / "direct")
    assert list(results.load(tmp_path / "grown").battles) == [430, 430]


def test_rerunning_a_finished_sweep_plays_nothing(tmp_path):
    path = write_experiment(tmp_path)
    _sweep(path, tmp_path / "out")
    status = _sweep(path, tmp_path / "out")
    assert (status.chunks_pending, status.cells_done, status.battles_done) == (0, 2, 800)


@pytest.mark.parametrize("change,message", [
    ({"seed": 12}, "different experiment"),
    ({"chunk_override": 50}, "written with chunks of 100 battles"),
    ({"battles_override": 300}, "already targets 400 battles per cell"),
])
def test_resume_refuses_another_experiment_chunk_size_or_fewer_battles(tmp_path, change, message):
    _sweep(write_experiment(tmp_path), tmp_path / "out")
    path = write_experiment(tmp_path, seed=change.get("seed", 11))
    with pytest.raises(ExperimentError, match=message):
        _sweep(path, tmp_path / "out", chunk=change.get("chunk_override"), battles=change.get("battles_override"))


def test_a_comment_name_or_description_edit_does_not_block_resuming(tmp_path):
    """Any edit of the experiment file, a comment included, refused the resume (audit, session 12)."""
    path = write_experiment(tmp_path, battles=200)
    _sweep(path, tmp_path / "out")
    path.write_text("# the Gargoyle study, again\n" + path.read_text("utf-8").replace(
        'name = "toy test"', 'name = "toy study"\ndescription = "now described"\nbattles = 400  # more'
    ).replace("battles = 200\n", ""), "utf-8")
    status = _sweep(path, tmp_path / "out")
    assert (status.battles_done, status.battles) == (400, 800)  # the first 200 of each cell were kept
    assert results.read_manifest(tmp_path / "out")["experiment"]["text"].startswith("# the Gargoyle study")


def test_resume_refuses_changed_game_data(tmp_path, monkeypatch):
    path = write_experiment(tmp_path)
    _sweep(path, tmp_path / "out")
    monkeypatch.setattr(ToyGame, "data_hash", lambda self, settings: "edited")
    with pytest.raises(ExperimentError, match="game data changed"):
        _sweep(path, tmp_path / "out")


def test_folder_of_unknown_files_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    with pytest.raises(ExperimentError, match=r"not empty and has no _manifest\.json"):
        _sweep(write_experiment(tmp_path), tmp_path / "out")


def test_two_sweeps_never_write_into_one_folder(tmp_path):
    (tmp_path / "out").mkdir()
    with open(tmp_path / "out" / "_sweep.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with pytest.raises(ExperimentError, match="another dsim sweep"):
            _sweep(write_experiment(tmp_path), tmp_path / "out")
