"""Dark Maiden through the generic commands: `dsim data`, and the run table's heading (play: test_game.py)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()


def test_data_validate_list_and_coverage_name_the_dark_maiden_cards():
    ok = runner.invoke(app, ["data", "--game", "dark_maiden", "validate"])
    assert ok.exit_code == 0 and "3 heroes" in ok.stdout and "4 sites" in ok.stdout, ok.output
    heroes = json.loads(runner.invoke(app, ["data", "--game", "dark_maiden", "list", "heroes", "--json"]).stdout)
    assert {h["id"] for h in heroes} >= {"amazona", "barbara"}
    uses = json.loads(runner.invoke(app, ["data", "--game", "dark_maiden", "coverage", "--json"]).stdout)
    assert uses and all(u["text"] for u in uses)


def test_non_utf8_overlay_is_one_line_naming_the_file(tmp_path: Path):
    (tmp_path / "heroes.yaml").write_bytes(b"\xff\xfe\x00bad")
    out = runner.invoke(app, ["data", "--game", "dark_maiden", "validate", "--data", str(tmp_path)])
    assert out.exit_code == 1 and "heroes.yaml" in out.stderr and "Traceback" not in out.output


def test_run_plays_a_dark_maiden_cell_under_its_party_difficulty_and_lives():
    """The kernel plays the cell; the table's heading names the party, the difficulty and its lives (DM-2.6)."""
    out = runner.invoke(app, ["run", "--game", "dark_maiden", "--policy", "random_legal", "--party", "barbara",
                              "--difficulty", "easy", "--games", "10"], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "barbara — easy (15 lives)" in out.stdout and "win rate" in out.stdout, out.output


def test_a_dark_maiden_sweep_reports_and_plots_how_far_the_team_got(tmp_path: Path):
    """The sites cleared were internal columns: no report showed them and `plot --kind shares` refused (audit,
    session 12). They are the game's funnel now, with intervals."""
    experiment = tmp_path / "dm.toml"
    experiment.write_text('game = "dark_maiden"\nname = "dm"\nseed = 1\nbattles = 300\n[fixed]\n'
                          'policy = "random_legal"\n[grid]\nparty = [["amazona"], ["amazona", "barbara"]]\n', "utf-8")
    out = tmp_path / "out"
    assert runner.invoke(app, ["sweep", str(experiment), "--out", str(out)]).exit_code == 0
    cells = json.loads(runner.invoke(app, ["report", str(out), "--json"]).stdout)
    for cell in cells:
        cleared = [cell["mean"][f"cleared_site_{k}"] for k in range(1, 5)]
        assert cleared == sorted(cleared, reverse=True) and cleared[-1] == cell["win_rate"]  # a funnel to the win
        low, high = cell["rate_ci95"]["cleared_site_1"]
        assert low <= cleared[0] <= high
    figure = runner.invoke(app, ["plot", str(out), "--kind", "shares"])
    assert figure.exit_code == 0 and (out / "_plots" / "shares.png").stat().st_size > 0, figure.output


def test_DM_8_1_explain_seed_1_index_133_names_each_mount_taken_in_the_bonus_phase():
    """This replay raised IndexError: the bonus event stored the mount's slot in the middle, which the decoder read
    as a mount id. Each bonus 'mount' now names the mount the next event shows the hero riding."""
    out = runner.invoke(app, ["explain", "--game", "dark_maiden", "--seed", "1", "--index", "133", "--json"])
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in out.stdout.splitlines()]
    takes = [(e, after) for e, after in zip(events, events[1:]) if e["event"] == "bonus" and e["action"] == "mount"]
    assert takes and all(after["event"] == "mount_taken" and (after["seat"], after["mount"]) == (e["seat"], e["mount"])
                         for e, after in takes)
