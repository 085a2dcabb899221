"""Dark Maiden through the generic commands: run, explain, compare, tune, sweep/report/plot, and one-line errors
(random_legal plays every hero; rule IDs refer to ``rules/dark_maiden.md``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim import results
from dsim.cli import app
from dsim.games import get_game
from dsim.play import cell_stream
from dsim.stats import wilson_interval

runner = CliRunner()
GAME = get_game("dark_maiden")
DM = ("--game", "dark_maiden", "--policy", "random_legal")


def invoke(*args: str) -> dict:
    out = runner.invoke(app, list(args))
    assert out.exit_code == 0, out.output + str(out.exception)
    return json.loads(out.stdout)


def test_run_reports_the_win_rate_with_its_interval_and_where_the_team_dies():
    """Two heroes on normal (12 lives, DM-2.6): the win rate is wins / games inside its Wilson interval; every game
    is won or lost at exactly one site; sites are cleared in order (DM-1.1)."""
    res = invoke("run", *DM, "--party", "amazona,barbara", "--difficulty", "normal", "--games", "2000", "--json")
    assert res["games"] == 2000 and res["settings"]["party"] == ["amazona", "barbara"]
    assert res["win_rate"] == res["wins"] / 2000
    assert res["ci95"] == pytest.approx([float(x) for x in wilson_interval(res["wins"], 2000)])
    assert res["lives_at_start"] == 12 and 0 <= res["lives_used"] <= 12 and res["deaths"] >= res["lives_used"]
    sites = ("aldea", "bosque", "montanas", "castillo")
    cleared = [res[f"cleared_{s}"] for s in sites]
    assert cleared == sorted(cleared, reverse=True) and cleared[-1] == pytest.approx(res["win_rate"])
    assert sum(res[f"lost_at_{s}"] for s in sites) + res["win_rate"] == pytest.approx(1)
    assert any(k.startswith("lost_to_") for k in res) and res["timeouts"] == 0 and res["mean_turns"] > 1 and "mean_rounds" not in res


@pytest.mark.parametrize(("difficulty", "lives"), [("easy", 15), ("hard", 9)])
def test_run_starts_each_difficulty_with_its_lives(difficulty, lives):
    res = invoke("run", *DM, "--difficulty", difficulty, "--games", "200", "--json")
    assert res["lives_at_start"] == lives  # DM-2.6


def test_explain_replays_the_game_that_run_played():
    """Game 3's replay cites a DM- rule at every event and ends as the batch kernel's game 3 (same stream)."""
    settings = invoke("run", *DM, "--games", "4", "--json")["settings"]
    text = runner.invoke(app, ["explain", *DM, "--index", "3"])
    assert text.exit_code == 0 and "(DM-7.1)" in text.stdout and "(DM-2)" in text.stdout, text.output
    out = runner.invoke(app, ["explain", *DM, "--index", "3", "--json"])
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert events[0]["event"] == "setup" and events[-1]["event"] == "end"
    assert events[0]["items"] == "none" and "items=none" in text.stdout  # DM-2.9 off: was "items=-1"
    assert all(e["rule"].startswith("DM-") or e["rule"] == "sim" for e in events)
    cols = GAME.play(settings, 1, cell_stream(settings), 3, 1)
    assert events[-1]["lives"] == cols["lives_left"][0]
    assert (events[-1]["over"] == "won") == cols["win"][0]
    assert sum(e["event"] == "death" for e in events) == cols["deaths"][0]


def test_a_replay_reuses_the_cached_kernel_in_every_process():
    """The replay entry took its policy as a dispatcher, which Numba cannot key: every process added a
    specialisation to the cache (and recompiled, ~40 s per `dsim explain`). One entry serves them all now."""
    from dsim.games.dark_maiden.kernel.jit import _COMPILER

    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "dsim", "explain", *DM, "--index", "1"], capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    assert len(list(Path(_COMPILER.folder).rglob("batch.play_one_impl-*.nbc"))) == 1


def test_explain_where_won_ends_with_the_final_boss_dead():
    out = runner.invoke(app, ["explain", *DM, "--where", "won", "--json"])
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in out.stdout.splitlines()]
    kills = [e for e in events if e["event"] == "kill"]
    assert events[-1]["over"] == "won" and events[-1]["site"] == "castillo"
    assert kills[-1]["role"] == "final boss"  # DM-1.2


def test_compare_the_final_boss_readings():
    """DM-9.5: each other reading of final_boss against the Dark Maiden on paired games. The reading only acts once
    the Castle's target is reached, and that fight ends the game (enemies left after the final boss fought on in
    the same turn, reading ``fight_on``; by default they get one round a turn, and the Dark Maiden's reinforcements
    can outlive her): the games last as long, and the sites cleared change only by the wins."""
    res = invoke("compare", *DM, "--variant", "final_boss", "--set", "leftover_enemies=fight_on", "--games", "3000",
                 "--json")
    cells = res["cells"]
    assert [c["b"]["variants"]["final_boss"] for c in cells] == ["paladin", "roll"]
    for c in cells:
        assert c["a"]["variants"]["final_boss"] == "dark_maiden" and c["measure"] == "win"
        assert c["diff"] == pytest.approx((c["won_only_b"] - c["won_only_a"]) / 3000)
        assert c["ci95"][0] <= c["diff"] <= c["ci95"][1]
        measures = c["measures"]
        assert measures["turns"]["diff"] == 0
        assert measures["sites_cleared"]["diff"] == pytest.approx(c["diff"])


def test_tune_the_lives_for_an_even_game():
    """DM-2.6 custom lives: the win rate grows with the lives (common random numbers) and tune brackets half the
    games between two neighbouring counts. One life moves random_legal's rate by about 6 points, more than twice
    the tolerance, so a count within it (``hit``) is luck, not a property."""
    res = invoke("tune", *DM, "--rule", "lives", "--target", "0.5", "--low", "0", "--high", "40", "--games", "2000",
                 "--json")
    assert res["rule"] == "lives" and res["bracketed"], res
    evaluations = sorted(res["evaluations"], key=lambda e: e["value"])
    rates = [e["win_rate"] for e in evaluations]
    assert rates == sorted(rates) and rates[0] < 0.5 < rates[-1]
    below = max(e["value"] for e in evaluations if e["win_rate"] < 0.5)
    above = min(e["value"] for e in evaluations if e["win_rate"] >= 0.5)
    assert above == below + 1 and below <= res["interpolated"] <= above
    assert res["value"] in (below, above) and 12 < res["value"] < 40
    assert res["hit"] == (abs(res["win_rate"] - 0.5) <= res["tolerance"])


def test_sweep_report_and_plot_a_dark_maiden_experiment(tmp_path: Path):
    """Two parties on easy and hard: 4 cells; with 15 lives the team gets farther than with 9 (DM-2.6)."""
    exp = tmp_path / "dm.toml"
    exp.write_text('game = "dark_maiden"\nname = "dm-small"\nseed = 3\nbattles = 2000\nchunk = 1000\n'
                   '[fixed]\npolicy = "random_legal"\n'
                   '[grid]\nparty = [["guerrero"], ["amazona", "barbara"]]\ndifficulty = ["easy", "hard"]\n',
                   encoding="utf-8")
    out = tmp_path / "res"
    done = runner.invoke(app, ["sweep", str(exp), "--out", str(out)])
    assert done.exit_code == 0, done.output
    cells = results.load(out)
    assert len(cells) == 4 and (cells["battles"] == 2000).all()
    assert (cells["ci_low"] <= cells["win_rate"]).all() and (cells["win_rate"] <= cells["ci_high"]).all()
    for party in (("guerrero",), ("amazona", "barbara")):
        mine = cells[cells["party"] == party].set_index("difficulty")
        assert mine.loc["easy", "sites_cleared_mean"] > mine.loc["hard", "sites_cleared_mean"]
    table = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "amazona+barbara" in table.stdout and "hard" in table.stdout, table.output
    for kind in ("heatmap", "forest", "survival"):
        png = tmp_path / f"{kind}.png"
        plotted = runner.invoke(app, ["plot", str(out), "--kind", kind, "--out", str(png)])
        assert plotted.exit_code == 0, plotted.output
        assert png.stat().st_size > 1000


@pytest.mark.parametrize(("args", "message"), [
    (["--party", "amazona,nadie"], "unknown hero 'nadie'"),
    (["--party", "amazona,barbara,guerrero,amazona,barbara"], "a party has 1 to 4 heroes (DM-1.4), got 5"),
    (["--difficulty", "nightmare"], "--difficulty: expected easy, normal or hard"),
    (["--set", "lives=1000"], "'lives' takes a whole number from 0 to 99"),
    (["--set", "life_counter=bogus"], "no reading 'bogus'"),
    (["--hunters", "4"], "not an option of dark_maiden"),
])
def test_bad_inputs_get_one_line_errors(args, message):
    out = runner.invoke(app, ["run", *DM, "--games", "10", *args])
    assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output, out.output
    assert len(out.output.strip().splitlines()) == 1


def test_the_card_that_ended_a_game_is_named_by_the_cells_own_data(tmp_path: Path):
    """An overlay enemy sorted first shifts every unit's index: the per-card tally follows the cell's data."""
    import yaml

    (tmp_path / "enemies.yaml").write_text(yaml.safe_dump({"enemies": [
        {"id": "a_brute", "name": "A brute", "level": 1, "vitality": 4, "success_faces": [6], "source": "test"}]}))
    game = get_game("dark_maiden")
    cell = {"party": ["amazona"], "difficulty": "hard", "policy": "random_legal", "data": str(tmp_path)}
    cols = game.play(cell, 1, 2, 0, 2000)
    ended = game.derive(cols, cell)
    from dsim.games.dark_maiden.game import prepare

    units = prepare(cell).compiled.unit_ids
    assert units[0] == "a_brute"
    for k in np.unique(cols["end_card"][cols["end_card"] >= 0]):
        assert (ended[f"ended_by_{units[k]}"] == (cols["end_card"] == k)).all()
    assert not ended["ended_by_a_brute"].any()  # not in any pile
