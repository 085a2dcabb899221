"""``dsim dice`` commands through Typer's test runner: tables, JSON shape, --exact, errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()


def _json(*args: str) -> dict:
    """Run a ``dsim dice`` command with --json and parse its stdout."""
    result = runner.invoke(app, ["dice", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_R_4_8_roll_json_shape_and_values() -> None:
    payload = _json("roll", "3k-1")
    assert set(payload) == {"pool", "pmf", "mean"}
    assert payload["pool"] == "3K-1"
    assert [value for value, _ in payload["pmf"]] == [0, 1, 2, 3, 4, 5]
    assert all(isinstance(p, float) for _, p in payload["pmf"])
    assert payload["pmf"][0][1] == 10 / 216
    assert abs(sum(p for _, p in payload["pmf"]) - 1) < 1e-12
    assert payload["mean"] == float(Fraction(541, 216))


def test_roll_exact_json_uses_fraction_strings() -> None:
    payload = _json("roll", "2K", "--exact")
    assert payload["pmf"] == [[0, "1/36"], [1, "1/6"], [2, "13/36"], [3, "1/3"], [4, "1/9"]]
    assert payload["mean"] == "7/3"


def test_R_9_4_attack_json() -> None:
    payload = _json("attack", "3K-1", "--block", "2", "--exact")
    assert payload["pool"] == "3K-1"
    assert payload["block"] == 2
    assert payload["pmf"] == [[0, "53/108"], [1, "11/36"], [2, "1/6"], [3, "1/27"]]


def test_R_9_5_defend_json() -> None:
    payload = _json("defend", "K", "--damage", "3", "--exact")
    assert payload["damage"] == 3
    assert payload["pmf"] == [[1, "1/3"], [2, "1/2"], [3, "1/6"]]
    assert payload["mean"] == "11/6"


def test_F_9_3_dodge_json() -> None:
    payload = _json("dodge", "2", "--difficulty", "1")
    assert payload["pool"] == "2G"
    assert payload["pmf"] == [[0, 0.25], [1, 0.5], [2, 0.25]]
    assert payload["p_success"] == 0.75
    zero = _json("dodge", "0", "--difficulty", "1", "--exact")
    assert zero["p_success"] == "0"
    assert zero["pmf"] == [[0, "1"]]


def test_roll_table_lists_values_probabilities_and_mean() -> None:
    result = runner.invoke(app, ["dice", "roll", "2K", "--exact"])
    assert result.exit_code == 0, result.output
    assert "P(≥ value)" in result.stdout
    assert "13/36" in result.stdout
    assert "mean: 7/3" in result.stdout


def test_dodge_table_shows_success() -> None:
    result = runner.invoke(app, ["dice", "dodge", "1", "--difficulty", "1"])
    assert result.exit_code == 0, result.output
    assert "P(success): 0.5" in result.stdout


def test_bad_pool_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["dice", "roll", "3X"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: unknown die 'X' in pool '3X'; known dice: K, U, O, G"
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["attack", "2G", "--block", "1"], ["defend", "K+G", "--damage", "3"]])
def test_R_9_5_green_dodge_dice_are_not_attack_or_defence_dice(command: list[str]) -> None:
    """A dodge die's faces are dodge symbols, not damage or blocks (R-9.5): `dice attack 2G` was accepted."""
    result = runner.invoke(app, ["dice", *command])
    assert result.exit_code == 1 and "unknown die 'G'" in result.stderr and "known dice: K, U, O" in result.stderr


def test_negative_damage_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["dice", "defend", "K", "--damage", "-1"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: damage must be ≥ 0, got -1"


def test_data_overlay_changes_the_dice(tmp_path) -> None:
    (tmp_path / "dice.yaml").write_text(
        "dice:\n  - {id: black, letter: K, faces: [2, 2, 2, 2, 2, 2], source: house rule}\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["dice", "roll", "3K-1", "--json", "--exact", "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pmf"] == [[5, "1"]]


def test_missing_overlay_folder_exits_1(tmp_path) -> None:
    result = runner.invoke(app, ["dice", "roll", "K", "--data", str(tmp_path / "nowhere")])
    assert result.exit_code == 1
    assert "overlay folder not found" in result.stderr
    assert "Traceback" not in result.output


def test_a_huge_dodge_pool_is_refused_like_a_huge_roll() -> None:
    result = runner.invoke(app, ["dice", "dodge", "100000", "--difficulty", "3"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: 100000 dodge dice; at most 200 are supported"
