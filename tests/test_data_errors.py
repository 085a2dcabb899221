"""Broken data is reported, not crashed on: ``dsim data validate --data DIR`` names file, entry and field.

Each test writes a small overlay folder in ``tmp_path`` (the shipped files under ``data/dstbg`` stay
untouched) and checks exit status 1, one stderr line naming the exact place, and no traceback.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import Result
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg.loader import load_game_data
from dsim.paths import game_data_dir
from dsim.validation import DataError, Problem

runner = CliRunner()
SHIPPED = game_data_dir("dstbg")


def shipped(name: str) -> Any:
    """A deep copy of one shipped data file's raw content."""
    return copy.deepcopy(yaml.safe_load((SHIPPED / name).read_text(encoding="utf-8")))


def write(path: Path, content: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False), encoding="utf-8")
    return path


def validate(overlay: Path) -> Result:
    return runner.invoke(app, ["data", "validate", "--data", str(overlay)])


def assert_reported(result: Result, *fragments: str) -> None:
    """Exit 1 without an uncaught exception, and one stderr line holding every fragment."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert any(all(f in line for f in fragments) for line in lines), f"{fragments} not in:\n{result.stderr}"


def new_item(**fields: Any) -> dict[str, Any]:
    item = {"id": "club", "name": "Club", "kind": "weapon", "treasure": "generic", "hands": 1, "source": "test"}
    item.update(fields)
    return item


def card(boss: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in boss["cards"] if c["id"] == card_id)


def test_bad_type_in_a_boss_card(tmp_path: Path) -> None:
    boss = shipped("bosses/gargoyle.yaml")
    card(boss, "tail_whip")["halves"][0]["dodge"] = "two"
    path = write(tmp_path / "bosses" / "gargoyle.yaml", boss)
    assert_reported(
        validate(tmp_path), str(path), 'card "tail_whip"', 'field "halves[0].dodge"', "expected an integer", "'two'"
    )


def test_unknown_step_op_names_the_op_field(tmp_path: Path) -> None:
    boss = shipped("bosses/gargoyle.yaml")
    card(boss, "halberd_thrust")["halves"][0]["steps"][0]["op"] = "lep"
    write(tmp_path / "bosses" / "gargoyle.yaml", boss)
    assert_reported(validate(tmp_path), 'card "halberd_thrust"', 'field "halves[0].steps[0].op"', "got 'lep'")


def test_area_attack_without_arcs_is_reported_on_its_step(tmp_path: Path) -> None:
    boss = shipped("bosses/gargoyle.yaml")
    card(boss, "tail_sweep")["halves"][0]["steps"][1]["arcs"] = []
    write(tmp_path / "bosses" / "gargoyle.yaml", boss)
    assert_reported(validate(tmp_path), 'card "tail_sweep"', 'field "halves[0].steps[1]"', "needs arcs")


def test_negative_and_misspelt_enemy_fields(tmp_path: Path) -> None:
    enemies = {"enemies": shipped("enemies.yaml")["enemies"][:2]}
    enemies["enemies"][0]["health"] = -1
    enemies["enemies"][1]["helth"] = 3
    path = write(tmp_path / "enemies.yaml", enemies)
    result = validate(tmp_path)
    assert_reported(result, str(path), 'enemy "crossbow_hollow"', 'field "health"', "≥ 1", "-1")
    assert_reported(result, str(path), 'enemy "silver_knight_greatbowman"', 'field "helth"', "unknown field")


def test_missing_field_and_entry_without_id(tmp_path: Path) -> None:
    item = new_item()
    del item["treasure"]
    path = write(tmp_path / "items.yaml", {"items": [item, {"name": "No Id"}]})
    result = validate(tmp_path)
    assert_reported(result, str(path), 'item "club"', 'field "treasure"', "required field is missing")
    assert_reported(result, str(path), "item #1", 'field "id"', "required field is missing")


def test_bad_dice_letters_and_range(tmp_path: Path) -> None:
    write(tmp_path / "items.yaml", {"items": [new_item(block="KX", range="far")]})
    result = validate(tmp_path)
    assert_reported(result, 'item "club"', 'field "block"', "expected dice letters", "'KX'")
    assert_reported(result, 'item "club"', 'field "range"', "expected an integer", "'far'")


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "items.yaml", "items:\n  - id: club\n    name: [Club\n")
    assert_reported(validate(tmp_path), str(path), "YAML syntax error at line 4")


def test_key_given_twice_is_a_yaml_error(tmp_path: Path) -> None:
    path = write(tmp_path / "traps.yaml", "traps:\n  - id: blank\n    damage: 0\n    damage: 1\n")
    assert_reported(validate(tmp_path), str(path), "line 4", "'damage' appears twice")


def test_duplicate_ids_name_both_entries(tmp_path: Path) -> None:
    path = write(tmp_path / "items.yaml", {"items": [new_item(), new_item(name="Other Club")]})
    assert_reported(validate(tmp_path), str(path), 'item "club"', 'field "id"', "duplicate id", "entry #0", "entry #1")


def test_unknown_references(tmp_path: Path) -> None:
    encounters = {"encounters": [{
        "id": "ambush", "name": "Ambush", "level": 1, "spawn_1": ["hollow_soldierr"], "spawn_2": [],
        "traps": False, "source": "test",
    }]}  # fmt: skip
    write(tmp_path / "encounters.yaml", encounters)
    write(tmp_path / "items.yaml", {"items": [new_item(treasure="class", class_of="wizard")]})
    boss = shipped("bosses/gargoyle.yaml")
    boss["treasure"].append("excalibur")
    card(boss, "tail_whip")["halves"][0]["figure"] = "gargoyle_2"
    write(tmp_path / "bosses" / "gargoyle.yaml", boss)
    result = validate(tmp_path)  # every problem of the run is reported, not only the first
    assert_reported(result, 'encounter "ambush"', 'field "spawn_1[0]"', "unknown enemy 'hollow_soldierr'")
    assert_reported(result, 'item "club"', 'field "class_of"', "unknown character 'wizard'")
    assert_reported(result, 'boss "gargoyle"', 'field "treasure[3]"', "unknown item 'excalibur'")
    assert_reported(result, 'card "tail_whip"', 'field "halves[0].figure"', "unknown figure 'gargoyle_2'")


def test_R_4_2_starting_kit_must_fit_the_hands(tmp_path: Path) -> None:
    characters = shipped("characters.yaml")
    knight = characters["characters"][2]
    knight["starting_equipment"]["hands"] = ["great_wooden_hammer", "kite_shield"]
    knight["starting_equipment"]["backup"] = ["no_such_sword"]
    path = write(tmp_path / "characters.yaml", characters)
    result = validate(tmp_path)
    assert_reported(result, str(path), 'character "knight"', 'field "starting_equipment.hands"', "3 hands")
    assert_reported(result, 'character "knight"', 'field "starting_equipment.hands[0]"', "strength 30", "(R-3.10)")
    assert_reported(
        result, 'character "knight"', 'field "starting_equipment.backup[0]"', "unknown item 'no_such_sword'"
    )


def test_R_7_7_trap_tokens_must_add_up_to_twenty(tmp_path: Path) -> None:
    traps = shipped("traps.yaml")
    traps["traps"][0]["count"] += 1
    write(tmp_path / "traps.yaml", traps)
    assert_reported(validate(tmp_path), 'field "traps"', "add up to 21", "(R-7.7)")


def test_R_7_8_spawn_nodes_are_never_entry_nodes(tmp_path: Path) -> None:
    tiles = shipped("tiles.yaml")
    tiles["tiles"][0]["spawn_1"] = [4, 2]
    tiles["tiles"][1]["boss_spawn"] = [1, 2]
    write(tmp_path / "tiles.yaml", tiles)
    result = validate(tmp_path)
    assert_reported(result, 'tile "exploration"', 'field "spawn_1"', "entry node of the bottom door")
    assert_reported(result, 'tile "mini_boss"', 'field "boss_spawn"', "row+col even", "[1, 2]")


def test_unknown_file_and_missing_overlay_folder(tmp_path: Path) -> None:
    write(tmp_path / "item.yaml", {"items": []})
    assert_reported(validate(tmp_path), str(tmp_path / "item.yaml"), "unknown data file")
    assert_reported(validate(tmp_path / "nowhere"), "overlay folder not found")


def test_an_overlay_names_links_folders_and_files_it_would_skip(tmp_path: Path) -> None:
    """A dangling link, a symlink loop and a misnamed boss folder were skipped without a word (audit, session 12)."""
    (tmp_path / "enemies.yaml").symlink_to(tmp_path / "gone.yaml")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    write(tmp_path / "boss" / "gargoyle.yaml", shipped("bosses/gargoyle.yaml"))
    write(tmp_path / "dstbg" / "bosses" / "gargoyle.yaml", shipped("bosses/gargoyle.yaml"))  # one folder too deep
    write(tmp_path / "bosses" / "gargoyle.yml", shipped("bosses/gargoyle.yaml"))
    (tmp_path / "notes.md").write_text("my house rules", "utf-8")
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "README.md").write_text("ideas", "utf-8")
    result = validate(tmp_path)
    for name in ("enemies.yaml", "a", "b"):
        assert_reported(result, f"{tmp_path / name}: a broken symbolic link")
    for name in ("boss", "dstbg"):
        assert_reported(result, f"{tmp_path / name}: data files in an unknown folder; expected one of", "'bosses/'")
    assert_reported(result, f"{tmp_path / 'bosses' / 'gargoyle.yml'}: not read: only <id>.yaml files")
    assert "notes.md" not in result.output and "drafts" not in result.output and "Traceback" not in result.output


def test_an_overlay_or_results_folder_that_is_a_symlink_loop_is_one_line(tmp_path: Path) -> None:
    """`--data LOOP` and `sweep --out LOOP` raised RuntimeError from Path.resolve (audit, session 12)."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert_reported(validate(tmp_path / "a"), f"{tmp_path / 'a'}: a broken symbolic link")
    experiment = tmp_path / "e.toml"
    experiment.write_text('game = "dstbg"\nname = "x"\nseed = 1\nbattles = 5\n[fixed]\nparty = ["knight"]\n'
                          'encounter = "the_forgotten"\n', "utf-8")
    result = CliRunner().invoke(app, ["sweep", str(experiment), "--out", str(tmp_path / "a")])
    assert result.exit_code == 1 and "cannot create the results folder" in result.stderr, result.output


def test_load_game_data_raises_one_error_with_structured_problems(tmp_path: Path) -> None:
    boss = shipped("bosses/gargoyle.yaml")
    card(boss, "tail_whip")["halves"][0]["dodge"] = "two"
    boss["figures"][0]["health"] = 0
    path = write(tmp_path / "bosses" / "gargoyle.yaml", boss)
    with pytest.raises(DataError) as caught:
        load_game_data(overlay=tmp_path)
    problems = caught.value.problems
    assert len(problems) == 2 and all(isinstance(p, Problem) for p in problems)
    dodge = next(p for p in problems if "dodge" in p.field)
    assert (dodge.entry, dodge.field) == ('card "tail_whip"', "halves[0].dodge")
    assert dodge.file.endswith(str(path.relative_to(tmp_path)))
    health = next(p for p in problems if "health" in p.field)
    assert (health.entry, health.field) == ('figure "gargoyle"', "health")
    assert str(caught.value).count("\n") == 1  # one line per problem
