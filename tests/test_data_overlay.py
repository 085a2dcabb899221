"""A user data folder (``--data DIR``) overrides shipped entries by id and adds new ones."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dstbg.loader import load_game_data
from dsim.paths import game_data_dir

SHIPPED = game_data_dir("dstbg")
HOUSE_SWORD = {
    "id": "house_sword", "name": "House Sword", "kind": "weapon", "treasure": "boss", "boss_of": "gargoyle",
    "hands": 1, "requirements": {"strength": 12},
    "attacks": [{"stamina": 0, "dice": "UU"}, {"stamina": 3, "dice": "OO", "range": "inf"}],
    "source": "house rule",
}  # fmt: skip


def make_overlay(folder: Path) -> Path:
    """Gargoyle with 40 health whose treasure gains a new item defined in the overlay's items.yaml."""
    boss = yaml.safe_load((SHIPPED / "bosses" / "gargoyle.yaml").read_text(encoding="utf-8"))
    boss["figures"][0]["health"] = 40
    boss["treasure"].append("house_sword")
    (folder / "bosses").mkdir(parents=True)
    (folder / "bosses" / "gargoyle.yaml").write_text(yaml.safe_dump(boss), encoding="utf-8")
    (folder / "items.yaml").write_text(yaml.safe_dump({"items": [HOUSE_SWORD]}), encoding="utf-8")
    return folder


def test_overlay_replaces_a_boss_and_adds_an_item(tmp_path: Path) -> None:
    overlay = make_overlay(tmp_path)
    base, data = load_game_data(), load_game_data(overlay=overlay)
    assert data.bosses["gargoyle"].figures[0].health == 40
    assert base.bosses["gargoyle"].figures[0].health == 26
    sword = data.items["house_sword"]
    assert [line.dice for line in sword.attacks] == ["UU", "OO"]
    assert set(data.items) - set(base.items) == {"house_sword"}
    assert data.counts() == {**base.counts(), "items": base.counts()["items"] + 1}
    assert data.origin("bosses", "gargoyle") == overlay / "bosses" / "gargoyle.yaml"
    assert data.origin("items", "long_sword") == SHIPPED / "items.yaml"
    assert data.overlay == overlay and data.data_dir == SHIPPED


def test_overlay_entries_are_visible_to_the_cli(tmp_path: Path) -> None:
    overlay = make_overlay(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["data", "show", "house_sword", "--json", "--data", str(overlay)])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["boss_of"] == "gargoyle" and shown["attacks"][1]["range"] == "inf"
    result = runner.invoke(app, ["data", "validate", "--data", str(overlay)])
    assert result.exit_code == 0, result.output
    assert "134 items" in result.stdout and "overlay" in result.stdout
