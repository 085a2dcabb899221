"""Issue 41: no file dsim reads is imported, results are checked against their game, pipes and devices never hang,
full disks and Ctrl-C end with one line, and the silent wrong results (a Dark Maiden party that repeats a hero, a
whole game capped at 0 rounds) are refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dsim.registry
import tests.toygame  # noqa: F401  (registers "toy" and "duel")
from dsim import results
from dsim.cli import app
from dsim.executors import LocalExecutor, run_chunk
from dsim.sweep import ExperimentError, load_experiment, run_sweep
from tests.toygame import write_experiment

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # seconds: a hang fails the test instead of blocking the suite


def _one_line(text: str) -> str:
    """The single error line of a refused command (asserting there is only one)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def _dsim(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """``python -m dsim ARGS`` from the repository (so ``tests.toygame`` imports), with a time limit."""
    return subprocess.run([sys.executable, "-m", "dsim", *args], cwd=REPO, text=True, timeout=TIMEOUT,
                          capture_output="stdout" not in kwargs, **kwargs)


# --------------------------------------------------------------------------- game modules named by files


MARKER_MODULE = '''
from pathlib import Path
from dsim.games import register_game
from tests.toygame import ToyGame

Path({marker!r}).write_text("imported")


class Evil(ToyGame):
    name = {game!r}


register_game({game!r}, Evil)
'''


@pytest.fixture
def marker_module(tmp_path, monkeypatch):
    """A module that registers game ``evil`` and leaves a marker file when imported (from ``tmp_path``)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    for table in ("_FACTORIES", "_INSTANCES"):  # the registration is undone after
        monkeypatch.setattr(dsim.registry, table, dict(getattr(dsim.registry, table)))
    marker = tmp_path / "imported.txt"
    (tmp_path / "evilgame.py").write_text(MARKER_MODULE.format(marker=str(marker), game="evil"), encoding="utf-8")
    yield marker
    sys.modules.pop("evilgame", None)


def test_sweep_never_imports_the_game_module_an_experiment_names(tmp_path, marker_module):
    path = tmp_path / "evil.toml"
    path.write_text('game = "evil"\ngame_module = "evilgame"\nname = "x"\nseed = 1\nbattles = 20\nchunk = 10\n',
                    encoding="utf-8")
    out = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert out.exit_code == 1 and not marker_module.exists() and "evilgame" not in sys.modules
    assert "dsim imports no module a file names; if you trust 'evilgame', pass --game-module evilgame on the " \
           "command line" in _one_line(out.stderr)
    named = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out"), "--game-module", "evilgame"])
    assert named.exit_code == 0 and marker_module.exists(), named.output  # a module the user names is imported
    assert results.read_manifest(tmp_path / "out")["game_module"] == "evilgame"


def test_plot_and_report_never_import_the_game_module_a_manifest_names(tmp_path, marker_module):
    out = tmp_path / "toy"
    run_sweep(load_experiment(write_experiment(tmp_path, battles=20, chunk=10)), out, LocalExecutor())
    manifest = json.loads((out / results.MANIFEST).read_text())
    (out / results.MANIFEST).write_text(json.dumps(manifest | {"game": "evil", "game_module": "evilgame"}))
    for command in (["plot", str(out), "--kind", "forest"], ["report", str(out)]):
        refused = runner.invoke(app, command)
        assert refused.exit_code == 1 and not marker_module.exists() and "evilgame" not in sys.modules
        assert "does not import from a file; if you trust it, pass --game-module evilgame" in _one_line(refused.stderr)
    shown = runner.invoke(app, ["report", str(out), "--game-module", "evilgame"])
    assert shown.exit_code == 0 and marker_module.exists(), shown.output


def test_chunk_tasks_carry_only_the_module_the_user_named(tmp_path):
    """Dask workers import the task's module: the one given to run_sweep, never the file's."""
    seen = []

    class Recording(LocalExecutor):
        def run(self, tasks):
            seen.extend(task.game_module for task in tasks)
            for task in tasks:
                yield task, run_chunk(task)

    path = write_experiment(tmp_path, battles=20, chunk=10)
    run_sweep(load_experiment(path), tmp_path / "a", Recording())
    run_sweep(load_experiment(path), tmp_path / "b", Recording(), game_module="tests.toygame")
    assert seen == [None] * 4 + ["tests.toygame"] * 4


# --------------------------------------------------------------------------- results of another game


@pytest.fixture
def toy_folder(tmp_path) -> tuple[Path, Path]:
    """A finished toy sweep (co-operative; 2 cells) and its experiment file."""
    path = write_experiment(tmp_path, battles=20, chunk=10)
    run_sweep(load_experiment(path), tmp_path / "toy", LocalExecutor())
    return tmp_path / "toy", path


def _rename_game(folder: Path, game: str) -> None:
    manifest = json.loads((folder / results.MANIFEST).read_text())
    (folder / results.MANIFEST).write_text(json.dumps(manifest | {"game": game}))


def test_plot_and_report_refuse_results_whose_manifest_names_another_game(toy_folder):
    """Edited to the duel's name, plot drew every cell at 0% and exited 0 (issue 41)."""
    folder, _ = toy_folder
    _rename_game(folder, "duel")
    for command in (["plot", str(folder), "--kind", "forest"], ["report", str(folder), "--json"]):
        out = runner.invoke(app, command)
        assert out.exit_code == 1, out.output
        assert "names the game 'duel', but its chunks lack that game's outcome column(s) win_seat_0, win_seat_1" \
               in _one_line(out.stderr) and "not results of 'duel'" in out.stderr
    assert not (folder / "_plots" / "forest.png").exists()


def test_sweep_refuses_to_resume_a_folder_whose_manifest_names_another_game(toy_folder):
    folder, path = toy_folder
    _rename_game(folder, "duel")
    out = runner.invoke(app, ["sweep", str(path), "--out", str(folder)])
    assert out.exit_code == 1
    assert "_manifest.json names the game 'duel', this experiment plays 'toy'; use a new --out folder" in \
        _one_line(out.stderr)


# --------------------------------------------------------------------------- output that cannot be written


@pytest.mark.parametrize("args", [
    ["run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "10", "--json"],
    ["explain", "--party", "knight", "--encounter", "the_forgotten", "--json"],
    ["game", "--games", "2", "--json"],
    ["data", "list", "characters", "--json"],
    ["data", "list", "characters"],
    ["report", "{folder}", "--json"],
], ids=["run", "explain", "game", "data-list-json", "data-list-table", "report"])
def test_output_to_a_full_device_is_one_line(args, toy_folder):
    """`… --json > /dev/full` gave an OSError traceback (issue 41)."""
    folder, _ = toy_folder
    args = [a.format(folder=folder) for a in args]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", "import tests.toygame; from dsim.cli import main; main()", *args],
                              cwd=REPO, stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert _one_line(done.stderr) == "Error: cannot write the output: No space left on device"


# --------------------------------------------------------------------------- pipes, devices, empty files

OVERLAY_FILE = {"dstbg": "enemies.yaml", "dstbg_game": "enemies.yaml", "bloodborne": "monsters.yaml",
                "dark_maiden": "enemies.yaml"}


@pytest.mark.parametrize("game", sorted(OVERLAY_FILE))
@pytest.mark.parametrize("make, found", [
    (lambda path: os.mkfifo(path), "expected a YAML file, found a named pipe (FIFO)"),
    (lambda path: path.symlink_to("/dev/zero"), "expected a YAML file, found a character device"),
    (lambda path: path.write_text("# nothing yet\n"), "the file is empty (no entries); add entries, or delete the file"),
    (lambda path: path.mkdir(), "expected a YAML file, found a directory"),
], ids=["pipe", "dev-zero", "empty", "folder"])
def test_an_overlay_file_that_is_not_a_yaml_file_gets_one_line(tmp_path, game, make, found):
    """A pipe blocked forever, a link to /dev/zero filled memory, an empty file was accepted by all but Bloodborne,
    and Bloodborne called a pipe "a directory" (issue 41)."""
    make(tmp_path / OVERLAY_FILE[game])
    done = _dsim("data", "--game", game, "validate", "--data", str(tmp_path))
    assert done.returncode == 1 and f"{tmp_path / OVERLAY_FILE[game]}: {found}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "found a directory" not in done.stderr.replace(found, "")


def test_an_experiment_file_or_its_data_as_a_pipe_gets_one_line(tmp_path):
    os.mkfifo(tmp_path / "experiment.toml")
    done = _dsim("sweep", str(tmp_path / "experiment.toml"), "--out", str(tmp_path / "a"))
    assert done.returncode == 1
    assert _one_line(done.stderr).endswith("experiment.toml: expected an experiment file (TOML), found a named pipe (FIFO)")
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    os.mkfifo(overlay / "enemies.yaml")
    (tmp_path / "e.toml").write_text(f'game = "dstbg"\nname = "x"\nseed = 1\nbattles = 10\n[fixed]\nparty = ["knight"]\n'
                                     f'encounter = "the_forgotten"\ndata = "{overlay}"\n', encoding="utf-8")
    done = _dsim("sweep", str(tmp_path / "e.toml"), "--out", str(tmp_path / "b"))
    assert done.returncode == 1 and "enemies.yaml: expected a YAML file, found a named pipe (FIFO)" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_manifest_that_is_a_pipe_gets_one_line(tmp_path):
    os.mkfifo(tmp_path / results.MANIFEST)
    done = _dsim("report", str(tmp_path))
    assert done.returncode == 1
    assert _one_line(done.stderr).endswith("_manifest.json: expected a _manifest.json file, found a named pipe (FIFO)")


# --------------------------------------------------------------------------- experiment files


def test_an_experiment_file_with_a_byte_order_mark_is_read(tmp_path):
    path = write_experiment(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_experiment(path).experiment.game == "toy"


def test_a_game_played_whole_counts_games_and_a_battle_game_battles(tmp_path):
    duel = tmp_path / "duel.toml"
    duel.write_text('game = "duel"\nname = "d"\nseed = 1\ngames = 30\nchunk = 10\n', encoding="utf-8")
    run_sweep(load_experiment(duel), tmp_path / "duel", LocalExecutor())
    assert results.read_manifest(tmp_path / "duel")["battles"] == 30
    toy = write_experiment(tmp_path, extra="")
    toy.write_text(toy.read_text().replace("battles = 400", "games = 400"), encoding="utf-8")
    with pytest.raises(ExperimentError, match='field "games": toy plays battles, not whole games; write "battles = 400"'):
        run_sweep(load_experiment(toy), tmp_path / "toy", LocalExecutor())
    both = tmp_path / "both.toml"
    both.write_text('game = "duel"\nname = "d"\nseed = 1\ngames = 30\nbattles = 30\n', encoding="utf-8")
    neither = tmp_path / "neither.toml"
    neither.write_text('game = "duel"\nname = "d"\nseed = 1\n', encoding="utf-8")
    for path in (both, neither):
        with pytest.raises(ExperimentError, match='give the plays per cell once: "battles = N"'):
            load_experiment(path)


# --------------------------------------------------------------------------- silent wrong results


@pytest.mark.parametrize("party", ["amazona,amazona,amazona", "amazona,barbara,amazona", "barbara,barbara"])
def test_DM_2_4_a_party_repeats_no_hero_but_a_fourth(party):
    out = runner.invoke(app, ["run", "--game", "dark_maiden", "--party", party, "--games", "5"])
    assert out.exit_code == 1
    assert "is in the party twice: each player picks a different hero (DM-2.4)" in _one_line(out.stderr)


def test_DM_2_4_a_fourth_hero_repeats_one_and_a_sweep_refuses_a_repeat(tmp_path):
    from dsim.games import get_game

    get_game("dark_maiden").check_settings({"party": ["amazona", "barbara", "guerrero", "amazona"]})
    path = tmp_path / "dm.toml"
    path.write_text('game = "dark_maiden"\nname = "x"\nseed = 1\ngames = 10\n[grid]\n'
                    'party = [["amazona", "barbara"], ["guerrero", "guerrero"]]\n', encoding="utf-8")
    with pytest.raises(ExperimentError, match=r"hero 'guerrero' is in the party twice.*DM-2\.4"):
        run_sweep(load_experiment(path), tmp_path / "out", LocalExecutor())


@pytest.mark.parametrize("command", [["game", "--games", "5"], ["run", "--game", "dstbg_game", "--games", "5"]])
@pytest.mark.parametrize("cap", ["0", "9"])
def test_a_whole_game_refuses_a_round_cap_that_decides_its_battles(command, cap):
    out = runner.invoke(app, [*command, "--set", f"max_rounds={cap}"])
    assert out.exit_code == 1
    assert f"variant 'max_rounds' takes a whole number from 10 to 10000 in a whole game, got {cap}" in \
        _one_line(out.stderr)


def test_a_whole_game_takes_a_round_cap_of_ten():
    from dsim.games import get_game

    get_game("dstbg_game").check_settings({"party": ["knight", "warrior"], "variants": {"max_rounds": "10"}})


# --------------------------------------------------------------------------- smaller


def test_ctrl_c_in_a_sweep_says_its_chunks_are_kept_and_how_to_resume(tmp_path):
    path = write_experiment(tmp_path, battles=600, chunk=100, fixed="max_rounds = 8\nsleep = 0.2")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "dsim", "sweep", str(path), "--out", str(out), "--game-module", "tests.toygame"]
    # a pytest-xdist worker ignores SIGINT, and a child would inherit that (Python then installs no Ctrl-C handler)
    sweep = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + TIMEOUT
    while len(list(out.glob("*.parquet"))) < 2:
        assert sweep.poll() is None and time.monotonic() < deadline, "the sweep ended or never wrote a chunk"
        time.sleep(0.01)
    sweep.send_signal(signal.SIGINT)
    stderr = sweep.communicate(timeout=TIMEOUT)[1]
    assert sweep.returncode == 130
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("Stopped: the ") and f"are kept in {out}; run `dsim sweep {path} --out {out} " \
           "--game-module tests.toygame` again to resume." in line, stderr
    assert "Traceback" not in stderr
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=TIMEOUT)
    assert len(list(out.glob("*.parquet"))) == 12


def test_bench_record_into_an_unwritable_folder_fails_before_measuring(tmp_path, monkeypatch):
    import dsim.cli.bench

    def measured(*args, **kwargs):
        raise AssertionError("measured before checking --record's folder")

    monkeypatch.setattr(dsim.cli.bench, "run_bench", measured)
    (tmp_path / "file").write_text("")
    out = runner.invoke(app, ["bench", "--quick", "--record", "--bench-dir", str(tmp_path / "file" / "bench")])
    assert out.exit_code == 1
    assert "--record: cannot write into" in out.stderr and "(Not a directory); choose a writable --bench-dir " \
           "(nothing was measured)" in " ".join(out.stderr.split())


def test_sweep_never_imports_a_policy_file_an_experiment_names(tmp_path):
    """`policy = "path.py:name"` in an experiment ran that file; now only a file given by --policy-file is."""
    policy = tmp_path / "mine.py"
    marker = tmp_path / "imported.txt"
    policy.write_text(f"from pathlib import Path\nPath({str(marker)!r}).write_text('imported')\n", encoding="utf-8")
    path = tmp_path / "dm.toml"
    path.write_text(f'game = "dark_maiden"\nname = "x"\nseed = 1\ngames = 10\n[fixed]\npolicy = "{policy}:mine"\n',
                    encoding="utf-8")
    out = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert out.exit_code == 1 and not marker.exists()
    assert f"dsim imports no policy file that a file names; if you trust {policy}, pass --policy-file {policy} on " \
           "the command line" in _one_line(out.stderr)
    trusted = runner.invoke(app, ["sweep", str(path), "--out", str(tmp_path / "out"), "--policy-file", str(policy)])
    assert marker.exists() and "did not register a policy named 'mine'" in trusted.stderr  # the user named it


def test_a_file_larger_than_the_bound_is_refused_unread(tmp_path):
    from dsim.files import NotARegularFile, read_regular

    (tmp_path / "big.yaml").write_bytes(b"x" * 2049)
    assert read_regular(tmp_path / "big.yaml", limit=4096) == b"x" * 2049
    with pytest.raises(NotARegularFile, match="larger than 2,048 bytes; expected a YAML file"):
        read_regular(tmp_path / "big.yaml", limit=2048)


def test_an_overlay_folder_that_is_a_pipe_says_what_it_is(tmp_path):
    os.mkfifo(tmp_path / "overlay")
    done = _dsim("data", "validate", "--data", str(tmp_path / "overlay"))
    assert done.returncode == 1 and "overlay: is a named pipe (FIFO), not an overlay folder" in done.stderr
