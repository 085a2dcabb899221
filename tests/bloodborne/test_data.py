"""Bloodborne data: the shipped set loads with the box counts, broken overlays give one-line problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dsim.games.bloodborne.datasupport import BloodborneDataSupport
from dsim.games.bloodborne.loader import load_data
from dsim.games.bloodborne.schema import KINDS
from dsim.validation import DataError


def write(folder: Path, name: str, content: Any) -> Path:
    """Write one overlay file (text or YAML-dumped data)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False), encoding="utf-8")
    return path


def monster(**fields: Any) -> dict[str, Any]:
    """A valid overlay monster, with ``fields`` changed."""
    entry = {"id": "test_monster", "name": "Test", "health": 3, "die": "red", "trophy": "beast", "source": "test"}
    entry.update(fields)
    return entry


def problems(overlay: Path) -> list[str]:
    """The lines of the DataError the overlay causes (the test fails if it loads)."""
    with pytest.raises(DataError) as err:
        load_data(overlay)
    return str(err.value).splitlines()


def assert_line(lines: list[str], *fragments: str) -> None:
    """One problem line holds every fragment."""
    assert any(all(f in line for f in fragments) for line in lines), f"{fragments} not in {lines}"


def test_shipped_data_loads_and_every_kind_is_present() -> None:
    data = load_data()
    assert set(data.counts()) == set(KINDS)
    assert all(n > 0 for n in data.counts().values())


def test_BB_1_1_box_counts_match_facts() -> None:
    data = load_data()
    assert len(data.entries("monsters")) == 18
    assert len(data.entries("bosses")) == 7
    assert len(data.entries("final_bosses")) == 5
    assert data.copies("upgrades") == 32
    assert len(data.entries("starters")) == 5 and data.copies("starters") == 5  # BB-2.5: one of each
    assert len(data.entries("dice")) == 3
    assert set(data.entries("trophy_tracks")) == {"kin", "humanoid", "beast"}  # BB-2.4


def test_BB_3_1_scourge_beast_is_the_seed_figure() -> None:
    beast = load_data().entries("monsters")["scourge_beast"]
    assert (beast.health, beast.die) == (3, "red")
    assert [beast.health_for(p) for p in (3, 4, 5)] == [3, 4, 5]


def test_facts_4c_placeholder_set_spreads_dice_health_and_trophies() -> None:
    data = load_data()
    groups: dict[tuple[str, int], int] = {}
    for m in data.entries("monsters").values():
        groups[(m.die, m.health)] = groups.get((m.die, m.health), 0) + 1
    assert groups == {(d, h): 3 for d, h in [("green", 3), ("green", 4), ("yellow", 3), ("yellow", 4), ("red", 3), ("red", 5)]}
    trophies = [m.trophy for m in data.entries("monsters").values()]
    assert all(trophies.count(t) == 6 for t in ("beast", "kin", "humanoid"))
    assert sorted(b.health for b in data.entries("bosses").values()) == [6, 6, 7, 7, 7, 9, 9]
    assert sorted(f.health for f in data.entries("final_bosses").values()) == [10, 11, 12, 13, 14]


def test_BB_13_3_placeholder_trophy_bonus_is_triangular() -> None:
    track = load_data().entries("trophy_tracks")["kin"]
    assert [track.bonus_for(n) for n in range(12)] == [n * (n + 1) // 2 for n in range(12)]


def test_BB_3_5_a_boss_cannot_have_an_on_escape_effect(tmp_path: Path) -> None:
    boss = monster(id="b", effects=[{"when": "on_escape", "op": "damage_hunters", "amount": 1}])
    write(tmp_path, "bosses.yaml", {"bosses": [boss]})
    assert_line(problems(tmp_path), "bosses.yaml", 'boss "b"', 'field "effects[0].when"', "expected one of")


def test_wrong_type_names_file_entry_and_field(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(health="three")]})
    lines = problems(tmp_path)
    assert len(lines) == 1
    assert_line(lines, "monsters.yaml", 'monster "test_monster"', 'field "health"', "expected an integer", "'three'")


def test_out_of_range_value_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(health=2**40)]})
    assert_line(problems(tmp_path), 'monster "test_monster"', 'field "health"', "≤ 999")


def test_bad_die_face_and_all_combo_die(tmp_path: Path) -> None:
    dice = [{"id": "blue", "name": "B", "source": "t", "faces": [0, 1, "two", 1, 1, 1]},
            {"id": "black", "name": "K", "source": "t", "faces": ["1+"] * 6}]
    write(tmp_path, "dice.yaml", {"dice": dice})
    lines = problems(tmp_path)
    assert_line(lines, "dice.yaml", 'die "blue"', 'field "faces[2]"', "'2+' (combo)")
    assert_line(lines, 'die "black"', 'field "faces"', "plain face")


def test_unknown_reference_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(die="purple", trophy="insight")]})
    lines = problems(tmp_path)
    assert_line(lines, "monsters.yaml", 'monster "test_monster"', 'field "die"', "unknown die 'purple'", "'red'")
    assert_line(lines, 'field "trophy"', "unknown trophy track 'insight'")


def test_effect_op_timing_and_amount_are_checked(tmp_path: Path) -> None:
    effects = [{"when": "on_reveal", "op": "take_upgrade", "amount": 1}, {"when": "on_reveal", "op": "damage_hunters"}]
    write(tmp_path, "monsters.yaml", {"monsters": [monster(effects=effects)]})
    lines = problems(tmp_path)
    assert_line(lines, 'field "effects[0].op"', "applies only when ['dream_step']")
    assert_line(lines, 'field "effects[1].amount"', "needs an amount ≥ 1")


def test_placeholder_needs_a_reason(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(placeholder=True, placeholder_fields=["colour"])]})
    lines = problems(tmp_path)
    assert_line(lines, 'field "placeholder_reason"', "needs a placeholder_reason")
    assert_line(lines, 'field "placeholder_fields"', "unknown field(s) ['colour']")


def test_text_without_effects_must_say_what_is_unexpressed(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(text="Hunters cannot bank while it lives.")]})
    assert_line(problems(tmp_path), 'monster "test_monster"', 'field "unexpressed"', "the text has no effects")


def test_non_utf8_file_is_a_problem_not_a_traceback(tmp_path: Path) -> None:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "monsters.yaml").write_bytes(b"monsters:\n  - id: caf\xe9\n")
    assert_line(problems(tmp_path), "monsters.yaml", "not UTF-8", "0xe9")


def test_directory_named_like_a_data_file(tmp_path: Path) -> None:
    (tmp_path / "bosses.yaml").mkdir(parents=True)
    assert_line(problems(tmp_path), "bosses.yaml", "expected a YAML file, found a directory")


def test_duplicate_id_in_one_folder(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(), monster(name="Again")]})
    assert_line(problems(tmp_path), "monsters.yaml", 'monster "test_monster"', 'field "id"', "duplicate id")


def test_a_monster_and_a_boss_cannot_share_an_id(tmp_path: Path) -> None:
    write(tmp_path, "bosses.yaml", {"bosses": [monster(id="scourge_beast")]})
    assert_line(problems(tmp_path), "bosses.yaml", 'boss "scourge_beast"', 'field "id"', "also used by a monsters entry")


def test_syntax_error_and_unknown_file(tmp_path: Path) -> None:
    write(tmp_path, "dice.yaml", "dice: [unclosed\n")
    write(tmp_path, "runes.yaml", {"runes": []})
    lines = problems(tmp_path)
    assert_line(lines, "dice.yaml", "YAML syntax error at line")
    assert_line(lines, "runes.yaml", "unknown data file")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(health=0), monster(id="other", die="nope")]})
    write(tmp_path, "upgrades.yaml", {"upgrades": [{"id": "u", "name": "U", "source": "t", "type": "utility",
                                                    "resolves": "instant", "damage": 2}]})
    lines = problems(tmp_path)
    assert len(lines) == 3
    assert_line(lines, 'upgrade "u"', 'field "damage"', "utility card deals no damage")


def test_overlay_replaces_and_adds_entries(tmp_path: Path) -> None:
    write(tmp_path, "monsters.yaml", {"monsters": [monster(id="scourge_beast", name="Scourge Beast", health=4),
                                                   monster()]})
    data = load_data(tmp_path)
    assert data.entries("monsters")["scourge_beast"].health == 4
    assert data.origin("monsters", "scourge_beast") == tmp_path / "monsters.yaml"
    assert len(data.entries("monsters")) == 19
    assert len(data.entries("bosses")) == 7


def test_missing_overlay_folder(tmp_path: Path) -> None:
    assert_line(problems(tmp_path / "nowhere"), "overlay folder not found")


def test_coverage_lists_every_placeholder_and_unexpressed_text(tmp_path: Path) -> None:
    support = BloodborneDataSupport()
    data = support.load()
    items = support.coverage(data)
    expected = {(k, e.id) for k in KINDS for e in data.entries(k).values() if e.placeholder}
    assert {(i.owner_kind, i.owner_id) for i in items if i.kind == "placeholder"} == expected
    assert len(expected) == 44
    write(tmp_path, "monsters.yaml", {"monsters": [monster(text="Blinds one hunter.", unexpressed="Blinds one hunter.")]})
    items = support.coverage(support.load(tmp_path))
    assert any(i.kind == "unexpressed_text" and i.owner_id == "test_monster" for i in items)


def test_data_support_columns_fit_rows() -> None:
    support = BloodborneDataSupport()
    data = support.load()
    for kind in support.kinds:
        for entry in data.entries(kind).values():
            assert len(support.row(kind, entry)) == len(support.columns(kind))


def test_BB_3_6_final_boss_test_modifier_from_the_yaml_comment_loads(tmp_path: Path) -> None:
    boss = monster(id="final_boss_1", effects=[{"when": "whole_game", "op": "monster_attack_bonus", "amount": 1}])
    write(tmp_path, "final_bosses.yaml", {"final_bosses": [boss]})
    effect = load_data(tmp_path).entries("final_bosses")["final_boss_1"].effects[0]
    assert (effect.op, effect.amount) == ("monster_attack_bonus", 1)


def test_effect_vocabulary_is_documented() -> None:
    """Every op of the table is in the ``Op`` literal and in the schema docstring, and back."""
    from typing import get_args

    from dsim.games.bloodborne import schema

    assert set(get_args(schema.Op)) == set(schema.OPS)
    assert all(op in (schema.__doc__ or "") for op in schema.OPS)
    assert all(when in get_args(schema.Timing) for spec in schema.OPS.values() for when in spec.whens)
