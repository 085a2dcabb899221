"""The treasure deck as data (``data/dstbg/treasure.yaml``): shipped figures, overlay validation, ``dsim data``.

Overlays are written to ``tmp_path``; every broken one must give exit status 1 and one stderr line naming
the file, the entry ``treasure`` and the field, with no traceback (as for the other data files).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from click.testing import Result
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg import coverage
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.schema import EffectKind
from dsim.paths import game_data_dir
from dsim.validation import DataError

runner = CliRunner()
SHIPPED = game_data_dir("dstbg")
DECK = {"embers": 7, "legendary_added": 5, "source": "test"}


def write(path: Path, content: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False), encoding="utf-8")
    return path


def deck_overlay(folder: Path, **fields: Any) -> Path:
    """An overlay folder whose ``treasure.yaml`` holds the test deck with ``fields`` changed."""
    write(folder / "treasure.yaml", {"treasure": {**DECK, **fields}})
    return folder


def data_cli(*args: str, code: int = 0) -> Result:
    result = runner.invoke(app, ["data", *args])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def assert_reported(result: Result, *fragments: str) -> None:
    """Exit 1 without a traceback, and one stderr line holding every fragment."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert any(all(f in line for f in fragments) for line in lines), f"{fragments} not in:\n{result.stderr}"


# ---------------------------------------------------------------- shipped data


def test_R_1_8_R_1_12_shipped_deck_figures() -> None:
    data = load_game_data()
    deck = data.treasure
    assert (deck.embers, deck.legendary_added, deck.copies) == (7, 5, {})
    assert deck.placeholder and "GAP 4" in deck.placeholder and "53" in deck.placeholder
    assert data.origin("treasure", "treasure") == data.origin("treasure", "common") == SHIPPED / "treasure.yaml"


def test_R_1_8_groups_add_up_to_the_box() -> None:
    groups = load_game_data().treasure_groups()
    assert list(groups) == ["common", "class", "transposed", "legendary", "boss"]
    common = groups["common"]
    assert (common.items, common.copies, common.embers, common.cards) == (53, 53, 7, 60)  # 60 common cards
    assert groups["class"].cards + groups["transposed"].cards == 40  # 10 per class
    assert (groups["legendary"].cards, groups["boss"].cards) == (10, 18)
    assert "5 at random" in groups["legendary"].in_deck and "R-1.12" in groups["legendary"].in_deck
    assert "estoc" not in {i for g in groups.values() for i in g.item_ids}  # starting kit: never in the deck


# ---------------------------------------------------------------- overlays


def test_overlay_replaces_the_deck_whole(tmp_path: Path) -> None:
    overlay = deck_overlay(tmp_path, embers=3, copies={"heal": 2, "avelyn": 3})
    data = load_game_data(overlay=overlay)
    assert (data.treasure.embers, data.treasure.placeholder) == (3, None)
    groups = data.treasure_groups()
    assert (groups["common"].items, groups["common"].copies, groups["common"].cards) == (53, 54, 57)
    assert groups["legendary"].copies == 12
    assert data.origin("treasure", "treasure") == overlay / "treasure.yaml"


def test_overlay_without_a_treasure_file_keeps_the_shipped_deck(tmp_path: Path) -> None:
    write(tmp_path / "traps.yaml", {"traps": []})
    assert load_game_data(overlay=tmp_path).treasure == load_game_data().treasure


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"copies": {"no_such_item": 2}}, "copies.no_such_item", "unknown item 'no_such_item'; expected the id of"),
        ({"copies": {"estoc": 2}}, "copies.estoc", "starting equipment (R-1.7)"),
        ({"copies": {"heal": 0}}, "copies.heal", "expected a value ≥ 1, got 0"),
        ({"copies": {"heal": "two"}}, "copies.heal", "expected an integer, got 'two'"),
        ({"embers": -1}, "embers", "expected a value ≥ 0, got -1"),
        ({"embers": "seven"}, "embers", "expected an integer, got 'seven'"),
        ({"legendary_added": 11}, "legendary_added", "expected a value ≤ 10, got 11"),
        ({"copies": [1, 2]}, "copies", "expected a mapping"),
        ({"ember": 7}, "ember", "unknown field"),
    ],
)
def test_bad_deck_is_one_line_naming_file_entry_and_field(
    tmp_path: Path, fields: dict[str, Any], field: str, message: str
) -> None:
    result = data_cli("validate", "--data", str(deck_overlay(tmp_path, **fields)), code=1)
    assert_reported(result, str(tmp_path / "treasure.yaml"), ": treasure: ", f'field "{field}"', message)
    assert len(result.stderr.strip().splitlines()) == 2  # the problem and the count line


def test_bad_file_shapes_are_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "treasure.yaml"
    for content, fragments in [
        ("treasure: [embers: 7\n", ("YAML syntax error at line",)),
        ({"treasure": [DECK]}, ("treasure: expected a mapping",)),
        ([DECK], ("expected a mapping with the key 'treasure'",)),
        ({"treasure": DECK, "embers": 3}, ('field "embers"', "unknown top-level key")),
        ({"treasure": {"embers": 7, "source": "x"}}, ('treasure: field "legendary_added"', "required field")),
    ]:
        write(path, content)
        assert_reported(data_cli("validate", "--data", str(tmp_path), code=1), str(path), *fragments)


def test_R_1_12_legendary_draw_must_fit_the_legendary_cards(tmp_path: Path) -> None:
    items = yaml.safe_load((SHIPPED / "items.yaml").read_text(encoding="utf-8"))["items"]
    avelyn = {**next(i for i in items if i["id"] == "avelyn"), "treasure": "generic"}
    write(tmp_path / "items.yaml", {"items": [avelyn]})
    deck_overlay(tmp_path, legendary_added=10)
    assert_reported(data_cli("validate", "--data", str(tmp_path), code=1),
                    'treasure: field "legendary_added"', "the items hold 9 (R-1.12)")  # fmt: skip


def test_shipped_folder_must_have_the_treasure_file(tmp_path: Path) -> None:
    folder = shutil.copytree(SHIPPED, tmp_path / "dstbg")
    (folder / "treasure.yaml").unlink()
    with pytest.raises(DataError) as caught:
        load_game_data(data_dir=folder)
    assert [(p.file, p.message) for p in caught.value.problems] == [(str(folder / "treasure.yaml"), "file not found")]


# ---------------------------------------------------------------- dsim data


def test_data_list_treasure_shows_the_groups() -> None:
    out = data_cli("list", "treasure").stdout
    assert "treasure (5)" in out
    for group in ("common", "class", "transposed", "legendary", "boss"):
        assert group in out
    common = next(line for line in out.splitlines() if "│ common" in line)
    assert [cell.strip() for cell in common.split("│")[2:6]] == ["53", "53", "7", "60"]
    rows = {g["id"]: g for g in json.loads(data_cli("list", "treasure", "--json").stdout)}
    assert (rows["common"]["cards"], rows["legendary"]["copies"]) == (60, 10)


def test_data_show_treasure_is_the_deck_and_a_group_by_id() -> None:
    deck = json.loads(data_cli("show", "treasure", "--json").stdout)
    assert (deck["embers"], deck["legendary_added"], deck["copies"]) == (7, 5, {})
    out = data_cli("show", "treasure", "legendary").stdout
    assert "treasure: legendary" in out and "treasure.yaml" in out and "avelyn" in out


def test_data_coverage_lists_the_deck_placeholder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    uses = json.loads(data_cli("coverage", "--json").stdout)
    deck = [u for u in uses if u["kind"] == "placeholder" and u["owner_kind"] == "treasure"]
    assert len(deck) == 1 and "GAP 4" in deck[0]["text"]
    assert deck[0]["where"].endswith("treasure.yaml")
    out = data_cli("coverage").stdout
    placeholders = sum(u["kind"] == "placeholder" for u in uses)  # the deck's and the entries' (test_data_cli)
    assert "Treasure deck" in out and f"placeholder figures: {placeholders}" in out
    overlay = deck_overlay(tmp_path)  # no placeholder: nothing about the deck to report
    monkeypatch.setattr(coverage, "SIMULATED_EFFECTS", frozenset(get_args(EffectKind)))
    left = json.loads(data_cli("coverage", "--json", "--data", str(overlay)).stdout)
    assert left and all(u["kind"] == "placeholder" and u["owner_kind"] != "treasure" for u in left)
