"""Campaign scenarios as data (``data/dstbg/scenarios.yaml``, R-13.10, R-13.11): shipped parts, overlay
validation, ``dsim data``.

Overlays are written to ``tmp_path``; every broken one must give exit status 1 and one stderr line naming
the file, the entry and the field, with no traceback (as for the other data files).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg.loader import GameData, load_game_data
from dsim.paths import game_data_dir
from tests.test_data_errors import assert_reported, validate, write

runner = CliRunner()
SHIPPED = game_data_dir("dstbg")


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game_data()


def part(area: str, levels: list[Any], bosses: list[str]) -> dict[str, Any]:
    return {"area": area, "levels": levels, "bosses": bosses}


def overlay_scenario(folder: Path, *parts: dict[str, Any], scenario_id: str = "test_scenario") -> Path:
    """An overlay folder holding one extra scenario; the shipped scenarios stay."""
    entry = {"id": scenario_id, "name": "Test", "source": "test", "parts": list(parts)}
    return write(folder / "scenarios.yaml", {"scenarios": [entry]})


def data_cli(*args: str, code: int = 0) -> Result:
    result = runner.invoke(app, ["data", *args])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---------------------------------------------------------------- shipped data


def test_R_13_10_the_first_journey(data: GameData) -> None:
    scenario = data.scenarios["first_journey"]
    assert scenario.name == "The First Journey"
    assert [(p.area, p.levels, p.bosses) for p in scenario.parts] == [
        ("Undead Burg", [1, 1, 2], ["gargoyle", "gargoyle"]),  # two Gargoyles in a row
        ("Sen's Fortress", [1, 1, 2, 2], ["titanite_demon"]),
        ("Anor Londo", [2, 2, 3, 3, 3], ["ornstein_and_smough"]),
    ]
    assert "R-13.10" in scenario.source and scenario.decision is None


def test_R_13_11_the_spiral_sword_with_the_inferred_parts_noted(data: GameData) -> None:
    scenario = data.scenarios["spiral_sword"]
    assert scenario.name == "The Spiral Sword"
    assert [(p.levels, p.bosses) for p in scenario.parts] == [
        ([1, 1, 1, 2, 2], ["winged_knight"]),
        ([1, 1, 2, 2, 3], ["boreal_outrider_knight"]),
        ([2, 2, 3, 3, 3], ["dancer_of_the_boreal_valley"]),
    ]
    assert [p.area for p in scenario.parts[:2]] == ["High Wall of Lothric", "Undead Settlement"]
    assert "R-13.11" in scenario.source
    assert scenario.decision is not None and "inferred" in scenario.decision


def test_R_13_2_mini_bosses_end_the_first_parts_and_a_main_boss_the_last(data: GameData) -> None:
    for scenario in data.scenarios.values():
        *first, last = scenario.parts
        assert {data.bosses[b].kind for p in first for b in p.bosses} == {"mini"}, scenario.id
        assert [data.bosses[b].kind for b in last.bosses] == ["main"], scenario.id


def test_scenarios_come_from_their_file(data: GameData) -> None:
    assert data.origin("scenarios", "first_journey") == SHIPPED / "scenarios.yaml"
    assert data.counts()["scenarios"] == 2


# ---------------------------------------------------------------- overlays


def test_overlay_adds_and_replaces_scenarios(tmp_path: Path) -> None:
    path = overlay_scenario(tmp_path, part("Test Area", [1], ["gargoyle"]), part("Final", [3], ["ornstein_and_smough"]))
    overlay_data = load_game_data(overlay=tmp_path)
    assert list(overlay_data.scenarios) == ["first_journey", "spiral_sword", "test_scenario"]
    assert overlay_data.origin("scenarios", "test_scenario") == path
    short = part("Short", [1, 2], ["winged_knight", "ornstein_and_smough"])
    overlay_scenario(tmp_path, short, scenario_id="first_journey")
    replaced = load_game_data(overlay=tmp_path).scenarios["first_journey"]
    assert [(p.area, p.bosses) for p in replaced.parts] == [("Short", ["winged_knight", "ornstein_and_smough"])]


def test_unknown_boss_is_reported_with_the_expected_form(tmp_path: Path) -> None:
    end = part("End", [3], ["ornstein_and_smough"])
    path = overlay_scenario(tmp_path, part("Burg", [1], ["gargoyle", "gargoyl"]), end)
    assert_reported(validate(tmp_path), str(path), 'scenario "test_scenario"', 'field "parts[0].bosses[1]"',
                    "unknown boss 'gargoyl'", "expected the id of a boss file bosses/<id>.yaml", "gargoyle")


def test_level_4_is_reported(tmp_path: Path) -> None:
    path = overlay_scenario(tmp_path, part("Burg", [1, 4], ["gargoyle"]), part("End", [3], ["ornstein_and_smough"]))
    assert_reported(validate(tmp_path), str(path), 'scenario "test_scenario"', 'field "parts[0].levels[1]"',
                    "expected a value ≤ 3, got 4")


def test_main_boss_in_a_first_part_is_reported(tmp_path: Path) -> None:
    end = part("End", [3], ["dancer_of_the_boreal_valley"])
    path = overlay_scenario(tmp_path, part("Burg", [1], ["ornstein_and_smough"]), end)
    assert_reported(validate(tmp_path), str(path), 'scenario "test_scenario"', 'field "parts[0].bosses[0]"',
                    "'ornstein_and_smough' is a main boss; expected a mini boss")


def test_last_part_without_a_main_boss_is_reported(tmp_path: Path) -> None:
    path = overlay_scenario(tmp_path, part("Burg", [1], ["gargoyle"]), part("End", [3], ["titanite_demon"]))
    assert_reported(validate(tmp_path), str(path), 'scenario "test_scenario"', 'field "parts[1].bosses"',
                    "no main boss among titanite_demon")


@pytest.mark.parametrize(
    ("parts", "field"),
    [
        ([], "parts"),  # at least one part
        ([part("A", [1], ["gargoyle"])] * 3 + [part("B", [3], ["ornstein_and_smough"])], "parts"),  # at most 3
        ([part("A", [], ["ornstein_and_smough"])], "parts[0].levels"),
        ([part("A", [1] * 7, ["ornstein_and_smough"])], "parts[0].levels"),
        ([part("A", [1], [])], "parts[0].bosses"),
        ([part("A", [1], ["gargoyle"] * 3)], "parts[0].bosses"),
    ],
)
def test_schema_bounds_name_the_field(tmp_path: Path, parts: list[dict[str, Any]], field: str) -> None:
    overlay_scenario(tmp_path, *parts)
    assert_reported(validate(tmp_path), 'scenario "test_scenario"', f'field "{field}"')


def test_a_broken_scenario_file_is_one_problem_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path / "scenarios.yaml", {"scenarios": {"first_journey": {}}})
    assert_reported(validate(tmp_path), str(tmp_path / "scenarios.yaml"), 'field "scenarios"', "expected a list")


# ---------------------------------------------------------------- dsim data


def test_list_shows_both_scenarios_with_their_parts() -> None:
    out = runner.invoke(app, ["data", "list", "scenarios"], env={"COLUMNS": "300"}).stdout
    assert "first_journey" in out and "spiral_sword" in out
    assert "Undead Burg L1,L1,L2 → gargoyle ×2; Sen's Fortress L1,L1,L2,L2 → titanite_demon;" in out
    assert "Undead Settlement L1,L1,L2,L2,L3 → boreal_outrider_knight" in out
    rows = json.loads(data_cli("list", "scenarios", "--json").stdout)
    assert [r["id"] for r in rows] == ["first_journey", "spiral_sword"]
    assert rows[0]["parts"][0] == part("Undead Burg", [1, 1, 2], ["gargoyle", "gargoyle"])


def test_show_a_scenario() -> None:
    out = runner.invoke(app, ["data", "show", "scenarios", "first_journey"], env={"COLUMNS": "300"}).stdout
    assert "scenarios: first_journey" in out and "scenarios.yaml" in out and "Anor Londo" in out
    assert "3 parts: 12 exploration battles and 4 boss battles" in out
    assert json.loads(data_cli("show", "scenario", "spiral_sword", "--json").stdout)["parts"][2]["bosses"] == [
        "dancer_of_the_boreal_valley"
    ]
