"""Bloodborne through the generic data commands: `dsim data` and `dsim dice roll` (play: test_game.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()


def test_data_validate_list_and_coverage_name_the_bloodborne_cards():
    ok = runner.invoke(app, ["data", "--game", "bloodborne", "validate"])
    assert ok.exit_code == 0 and "18 monsters" in ok.stdout and "7 bosses" in ok.stdout
    monsters = json.loads(runner.invoke(app, ["data", "--game", "bloodborne", "list", "monsters", "--json"]).stdout)
    assert len(monsters) == 18
    uses = json.loads(runner.invoke(app, ["data", "--game", "bloodborne", "coverage", "--json"]).stdout)
    assert uses and all(u["kind"] == "placeholder" and u["text"] for u in uses)


def test_BB_8_2_dice_roll_prints_the_exact_combo_distribution():
    out = runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "red", "--json"])
    assert out.exit_code == 0, out.output
    res = json.loads(out.stdout)
    mass = sum(p for _, p in res["pmf"])
    assert 1 - 1e-11 < mass <= 1 and abs(res["mean"] - sum(v * p for v, p in res["pmf"])) < 1e-9
    bad = runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "purple"])
    assert bad.exit_code == 1 and "purple" in bad.stderr and "Traceback" not in bad.stderr
