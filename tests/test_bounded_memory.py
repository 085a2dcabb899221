"""`compare`, `tune`, `policies compare` and `tune-policy` play in chunks: the same figures as when they held
every play (pinned in tests/golden/chunked_figures.json, written by make_chunked_figures.py before the change),
whatever the chunk size, and a billion plays are asked for a chunk at a time in flat memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import dsim.clikit
import dsim.play
from dsim import tuning
from dsim.cli import app
from dsim.compare import compare
from dsim.play import CHUNK, count_true
from dsim.tune import tune
from tests.toygame import ToyGame

runner = CliRunner()
DS = ("--party", "knight,warrior", "--encounter", "the_forgotten", "--seed", "4")
BB = ("--game", "bloodborne", "--seed", "4")
DM = ("--game", "dark_maiden", "--policy", "random_legal", "--seed", "4")
CASES: dict[str, tuple[str, ...]] = {
    "dstbg compare": ("compare", *DS, "--policy", "baseline", "--setting", "enemy_health_delta=1", "--setting",
                      "enemy_health_delta=-1", "--battles", "300"),
    "dstbg tune": ("tune", *DS, "--policy", "baseline", "--rule", "enemy_health_delta", "--target", "0.5",
                   "--battles", "300"),
    "dstbg tune rounds": ("tune", *DS, "--policy", "baseline", "--rule", "enemy_health_delta", "--measure", "rounds",
                          "--target", "6", "--tolerance", "0.2", "--battles", "300"),
    "dstbg policies compare": ("policies", "compare", *DS, "--battles", "300"),
    "dstbg tune-policy": ("tune-policy", *DS, "--policy", "careful", "--budget", "1200", "--candidates", "4",
                          "--eta", "2"),
    "bloodborne compare": ("compare", *BB, "--setting", "dream_heals_full=no", "--measure", "first_player_won",
                           "--games", "200"),
    "bloodborne tune": ("tune", *BB, "--rule", "final_boss_health", "--measure", "rounds", "--target", "23",
                        "--low", "0", "--high", "40", "--tolerance", "0.3", "--games", "200"),
    "bloodborne policies compare": ("policies", "compare", *BB, "--policies", "greedy,banker", "--games", "100"),
    "bloodborne tune-policy": ("tune-policy", *BB, "--policy", "banker", "--budget", "600", "--candidates", "4",
                               "--eta", "2"),
    "dark_maiden compare": ("compare", *DM, "--variant", "final_boss", "--games", "300"),
    "dark_maiden tune": ("tune", *DM, "--rule", "lives", "--target", "0.5", "--low", "0", "--high", "40",
                         "--games", "300"),
    "dark_maiden policies compare": ("policies", "compare", "--game", "dark_maiden", "--seed", "4", "--games", "200"),
    "dark_maiden tune-policy": ("tune-policy", "--game", "dark_maiden", "--seed", "4", "--policy", "cautious",
                                "--budget", "600", "--candidates", "4", "--eta", "2"),
}
GOLDEN = Path(__file__).parent / "golden" / "chunked_figures.json"


def _figures(args: tuple[str, ...]) -> dict:
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output + str(out.exception)
    return json.loads(out.stdout)


def _same(new: object, old: object, path: str = "") -> None:
    """Equal, except that a number measure's paired normal interval (``…/measures/<m>/ci95``) may differ in the
    last bits: its spread now comes from exact whole-number moments (any chunking gives the same) where numpy's
    two-pass std of the whole array rounded otherwise, and z is the standard library's, as everywhere else."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and new.keys() == old.keys(), path
        for key in old:
            _same(new[key], old[key], f"{path}/{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), path
        for k, (a, b) in enumerate(zip(new, old, strict=True)):
            _same(a, b, f"{path}[{k}]")
    elif "/measures/" in path and "/ci95[" in path:
        assert new == pytest.approx(old, rel=1e-14, abs=0), path
    else:
        assert new == old, path


@pytest.mark.parametrize("name", CASES)
def test_small_counts_give_the_figures_pinned_before_chunking(name):
    _same(_figures(CASES[name]), json.loads(GOLDEN.read_text())[name])


@pytest.mark.parametrize("name", ["dstbg compare", "bloodborne tune", "dark_maiden policies compare",
                                  "dstbg tune-policy", "bloodborne compare"])
def test_the_figures_do_not_depend_on_the_chunk_size(name, monkeypatch):
    whole = _figures(CASES[name])
    monkeypatch.setattr(dsim.play, "CHUNK", 37)  # every count above becomes several uneven chunks
    assert _figures(CASES[name]) == whole


class Stop(Exception):
    """Raised by the progress callback: the test has seen enough chunks of a billion plays."""


def _stopper(chunks: int):
    """A progress callback that stops the run after ``chunks`` chunks, recording each chunk's plays."""
    seen: list[int] = []

    def on_chunk(n: int) -> None:
        seen.append(n)
        if len(seen) >= chunks:
            raise Stop

    return seen, on_chunk


TOY = {"p": 0.5, "max_rounds": 10}


def test_compare_and_tune_ask_for_a_billion_plays_a_chunk_at_a_time(monkeypatch):
    asked: list[int] = []
    play = ToyGame.play
    monkeypatch.setattr(ToyGame, "play", lambda self, s, seed, stream, start, count:
                        asked.append(count) or play(self, s, seed, stream, start, count))
    seen, on_chunk = _stopper(3)
    with pytest.raises(Stop):
        compare(ToyGame(), [TOY], [{}, {"variants": {"p_shift": 5}}], 10**9, 1, on_chunk=on_chunk)
    assert asked == [CHUNK] * 6 and seen == [2 * CHUNK] * 3  # both settings of each chunk, then the next chunk
    asked.clear()
    seen, on_chunk = _stopper(3)
    with pytest.raises(Stop):
        tune(ToyGame(), TOY, "p_shift", "variants", 0.6, -3, 6, 10**9, 1, on_chunk=on_chunk)
    assert asked == seen == [CHUNK] * 3


def test_policy_commands_ask_for_a_billion_plays_a_chunk_at_a_time():
    asked: list[int] = []

    def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
        asked.append(count)
        return np.arange(start, start + count) % 3 == 0

    seen, on_chunk = _stopper(4)
    with pytest.raises(Stop):
        count_true(evaluate, np.zeros(1), 0, 10**9, on_chunk)
    assert asked == seen == [CHUNK] * 4
    asked.clear()
    bounds = tuning.Bounds(("edge",), np.zeros(1), np.zeros(1), np.ones(1))
    seen, on_chunk = _stopper(4)
    with pytest.raises(Stop):
        tuning.tune(evaluate, bounds, 10**11, 1, candidates=4, eta=2, on_chunk=on_chunk)
    assert asked == seen == [CHUNK] * 4


def test_memory_stays_flat_however_many_plays():
    """Forty chunks of a paired comparison and of a tune value: the peak is a few chunks, not the plays."""
    battles = 40 * CHUNK
    tracemalloc.start()
    try:
        records = compare(ToyGame(), [TOY], [{}, {"variants": {"p_shift": 5}}], battles, 1)
        tune(ToyGame(), TOY, "p_shift", "variants", 0.55, 3, 7, battles, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    held = 2 * battles * sum(v.nbytes for v in ToyGame().play(TOY, 1, 1, 0, 1).values())  # every play kept
    assert records[0]["battles"] == battles and peak < held / 8, (peak, held)


def test_compare_of_one_play_says_it_has_no_interval_for_the_measures():
    """`compare --battles 1` printed (+nan, +nan): one play has no spread to estimate an interval from."""
    args = ["compare", *DS, "--setting", "enemy_health_delta=1", "--battles", "1"]
    res = _figures(tuple(args))
    assert all(m["ci95"] is None for m in res["measures"].values()) and res["measures"]
    out = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "nan" not in out.stdout and "no interval from 1 play" in out.stdout
    assert "1 paired battle)" in " ".join(out.stdout.split())


def test_explain_search_over_a_big_range_shows_progress_and_finds_the_first_match(monkeypatch):
    """`explain --search` over a million plays showed nothing while it scanned: now a bar (on the terminal's error
    stream) counts the plays searched, in chunks that double from 4,096 up to a run's chunk, and the play found is
    the first match of the whole range scanned at once."""
    import io

    from rich.console import Console

    import dsim.cli.run
    from dsim.cli.run import first_match
    from dsim.play import cell_stream

    where = "lost and damage_dealt > 19.999 and deaths == 3"  # about 1 play in 240,000
    settings = {"p": 0.5, "policy": "steady"}
    cols = ToyGame().play(settings, 4, cell_stream(settings), 0, 10**6)
    expected = first_match(ToyGame(), cols, where)
    assert expected is not None and expected > 4 * CHUNK  # several chunks in
    asked: list[int] = []
    play = ToyGame.play
    monkeypatch.setattr(ToyGame, "play", lambda self, s, seed, stream, start, count:
                        asked.append(count) or play(self, s, seed, stream, start, count))
    screen = io.StringIO()
    monkeypatch.setattr(dsim.clikit, "err", Console(file=screen, force_terminal=True, width=100))
    out = runner.invoke(app, ["explain", "--game", "toy", "--p", "0.5", "--seed", "4", "--where", where,
                              "--search", "1000000"])
    assert out.exit_code == 0, out.output
    assert f"battle {expected} (seed 4) is the first where" in out.stdout
    assert "battles searched" in screen.getvalue() and "/1,000,000" in screen.getvalue()
    scanned = asked[:-1]  # the last play is the replay of the match
    assert scanned[:5] == [4096, 8192, 16384, 32768, CHUNK] and max(scanned) == CHUNK
    assert sum(scanned) - scanned[-1] <= expected < sum(scanned)
