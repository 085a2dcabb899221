"""Dark Maiden data layer: the shipped data loads, matches facts.md, and bad data gives one-line errors."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from dsim.games.dark_maiden.datasupport import DarkMaidenDataSupport
from dsim.games.dark_maiden.loader import KINDS, DarkMaidenData, load_data
from dsim.games.data import GameDataSupport, LoadedData
from dsim.paths import game_data_dir
from dsim.validation import DataError, display_path

SHIPPED = game_data_dir("dark_maiden")


def shipped(kind: str) -> Any:
    """A deep copy of one shipped file's raw content."""
    return copy.deepcopy(yaml.safe_load((SHIPPED / f"{kind}.yaml").read_text(encoding="utf-8")))


def entry(raw: Any, kind: str, entry_id: str) -> dict[str, Any]:
    return next(e for e in raw[kind] if e["id"] == entry_id)


def write(path: Path, content: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems(overlay: Path) -> list[str]:
    """The problem lines of loading the shipped data with ``overlay`` (which must fail)."""
    with pytest.raises(DataError) as caught:
        load_data(overlay)
    return str(caught.value).splitlines()


def assert_line(lines: list[str], *fragments: str) -> None:
    """One line holds every fragment."""
    assert any(all(f in line for f in fragments) for line in lines), f"{fragments} not in {lines}"


def test_shipped_data_loads_and_satisfies_the_protocols() -> None:
    support: GameDataSupport = DarkMaidenDataSupport()
    data = support.load()
    assert isinstance(data, DarkMaidenData)
    loaded: LoadedData = data
    assert loaded.data_dir == SHIPPED
    assert tuple(support.kinds) == KINDS
    for kind in KINDS:
        for entry_id, model in data.entries(kind).items():
            assert data.origin(kind, entry_id) == SHIPPED / f"{kind}.yaml"
            assert len(support.row(kind, model)) == len(support.columns(kind))


def test_counts_per_kind_match_facts() -> None:
    assert load_data().counts() == {
        "heroes": 3, "enemies": 6, "bosses": 5, "mounts": 3, "goblins": 3, "sites": 4, "piles": 3,
        "difficulties": 3, "items": 2,
    }


def test_DM_2_6_difficulty_lives() -> None:
    data = load_data()
    assert {d.id: d.lives for d in data.difficulties.values()} == {"easy": 15, "normal": 12, "hard": 9}


def test_DM_2_5_piles_and_level_1_deck_of_facts() -> None:
    data = load_data()
    assert [data.piles[p].size() for p in ("level_1", "level_2", "level_3")] == [30, 5, 5]
    deck = {c.ref or c.kind: c.count for c in data.piles["level_1"].cards}
    assert deck == {
        "go": 6, "precipice": 3, "goblin_1": 3, "mount_1": 2, "asesino": 4, "mercenaria": 5, "amazona_jinete": 3,
        "esqueleto": 4,
    }


def test_seed_figures_of_facts() -> None:
    data = load_data()
    assert {h.id: (h.max_potions, h.success_faces) for h in data.heroes.values()} == {
        "amazona": (5, (1, 2, 3)), "barbara": (3, (2, 3, 4)), "guerrero": (4, (3, 4, 5)),
    }
    assert data.enemies["mercenaria"].success_faces == (1, 2) and data.enemies["amazona_jinete"].advance_points == 1
    armours = (data.bosses["armadura_2"], data.bosses["armadura_3"])
    assert [(b.copies, b.armour, b.sub_boss_points) for b in armours] == [(2, 1, 2), (1, 1, 3)]
    assert [(s.go_value, s.advance_target) for s in sorted(data.sites.values(), key=lambda s: s.order)] == [
        (1, 12), (2, 16), (3, 20), (4, 24),
    ]
    assert data.sites["bosque"].ability_go_value == -2


def test_coverage_lists_every_placeholder_and_text_only_effect() -> None:
    support = DarkMaidenDataSupport()
    data = support.load()
    items = support.coverage(data)
    placeholders = {(i.owner_kind, i.owner_id, i.where.rsplit(": ", 1)[-1]) for i in items if i.kind == "placeholder"}
    expected = set()
    for kind in KINDS:
        for model in data.entries(kind).values():
            if model.placeholder:
                expected.add((kind, model.id, display_path(SHIPPED / f"{kind}.yaml")))
            expected |= {(kind, model.id, name) for name in model.placeholders}
    assert placeholders == expected
    assert ("heroes", "amazona", "vitality") in placeholders
    assert ("piles", "level_1", display_path(SHIPPED / "piles.yaml")) in placeholders
    assert all(i.text for i in items)
    specials = {(i.owner_id, i.kind) for i in items if i.kind != "placeholder"}
    assert ("item_a", "text") in specials and ("bosque", "text") in specials
    assert ("barbara", "reroll_on_double") not in specials  # simulated by the kernel (DM-7.5)
    for kind in KINDS:
        for model in data.entries(kind).values():
            simulated = getattr(model, "special", None) is not None
            assert (getattr(model, "special_text", None) is not None and not simulated) == ((model.id, "text") in specials)


def test_overlay_replaces_an_entry_and_adds_one(tmp_path: Path) -> None:
    raw = {"heroes": [entry(shipped("heroes"), "heroes", "amazona")]}
    raw["heroes"][0]["vitality"] = 9
    raw["heroes"].append({**raw["heroes"][0], "id": "nueva", "name": "Nueva"})
    write(tmp_path / "heroes.yaml", raw)
    data = load_data(tmp_path)
    assert data.heroes["amazona"].vitality == 9 and "vitality" not in data.heroes["amazona"].placeholders
    assert data.origin("heroes", "amazona") == tmp_path / "heroes.yaml"
    assert data.counts()["heroes"] == 4 and data.origin("heroes", "barbara") == SHIPPED / "heroes.yaml"


def _hero_overlay(tmp_path: Path, **fields: Any) -> Path:
    raw = {"heroes": [entry(shipped("heroes"), "heroes", "amazona")]}
    raw["heroes"][0].update(fields)
    write(tmp_path / "heroes.yaml", raw)
    return tmp_path


def test_wrong_type_names_file_entry_and_field(tmp_path: Path) -> None:
    lines = problems(_hero_overlay(tmp_path, vitality="x"))
    assert len(lines) == 1
    expected = 'heroes.yaml: hero "amazona": field "vitality": expected an integer from 1 to 99, got \'x\''
    assert lines[0].endswith(expected)


def test_out_of_range_face_and_bool(tmp_path: Path) -> None:
    lines = problems(_hero_overlay(tmp_path, success_faces=[1, 2, 7], max_potions=True))
    assert_line(lines, 'hero "amazona"', 'field "success_faces[2]"', "from 1 to 6, got 7")
    assert_line(lines, 'hero "amazona"', 'field "max_potions"', "got True")


def test_DM_7_2_a_hero_has_three_success_faces(tmp_path: Path) -> None:
    assert_line(problems(_hero_overlay(tmp_path, success_faces=[1, 2])), 'field "success_faces"', "at least 3")


def test_placeholder_figure_needs_its_reason(tmp_path: Path) -> None:
    lines = problems(_hero_overlay(tmp_path, vitality={"value": 5, "placeholder": True}))
    assert_line(lines, 'hero "amazona"', 'field "vitality.placeholder_reason"', "required field is missing")


def test_unknown_references(tmp_path: Path) -> None:
    sites = shipped("sites")
    entry(sites, "sites", "aldea")["bosses"] = ["lordd"]
    entry(sites, "sites", "bosque")["goblin"] = "goblin_9"
    write(tmp_path / "sites.yaml", sites)
    piles = shipped("piles")
    entry(piles, "piles", "level_1")["cards"][4]["ref"] = "asesina"
    write(tmp_path / "piles.yaml", piles)
    lines = problems(tmp_path)
    assert_line(lines, "sites.yaml", 'site "aldea"', 'field "bosses[0]"', "unknown boss 'lordd'")
    assert_line(lines, "sites.yaml", 'site "bosque"', 'field "goblin"', "unknown goblin 'goblin_9'")
    assert_line(lines, "piles.yaml", 'pile "level_1"', 'field "cards[4].ref"', "unknown enemy 'asesina'")


def test_DM_2_5_level_2_pile_holds_five_cards(tmp_path: Path) -> None:
    piles = {"piles": [entry(shipped("piles"), "piles", "level_2")]}
    piles["piles"][0]["cards"][2]["count"] = 4
    write(tmp_path / "piles.yaml", piles)
    assert_line(problems(tmp_path), 'pile "level_2"', 'field "cards"', "holds 5 cards, got 6 (DM-2.5)")


def test_DM_5_3_5_site_prints_its_level_goblin(tmp_path: Path) -> None:
    sites = {"sites": [entry(shipped("sites"), "sites", "aldea")]}
    sites["sites"][0]["goblin"] = "goblin_2"
    write(tmp_path / "sites.yaml", sites)
    assert_line(problems(tmp_path), 'site "aldea"', 'field "goblin"', "DM-5.3.5")


def test_non_utf8_bytes(tmp_path: Path) -> None:
    (tmp_path / "enemies.yaml").write_bytes(b"enemies:\n  - id: caf\xe9\n")
    lines = problems(tmp_path)
    assert len(lines) == 1 and "enemies.yaml" in lines[0] and "not UTF-8" in lines[0]


def test_directory_named_like_a_data_file(tmp_path: Path) -> None:
    (tmp_path / "bosses.yaml").mkdir()
    lines = problems(tmp_path)
    assert len(lines) == 1 and "bosses.yaml: expected a YAML file, found a directory" in lines[0]


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    mounts = shipped("mounts")
    mounts["mounts"].append(copy.deepcopy(mounts["mounts"][0]))
    write(tmp_path / "mounts.yaml", mounts)
    assert_line(problems(tmp_path), "mounts.yaml", 'mount "mount_1"', 'field "id"', "duplicate id")


def test_syntax_error_unknown_file_and_missing_overlay(tmp_path: Path) -> None:
    write(tmp_path / "items.yaml", "items: [\n")
    write(tmp_path / "heros.yaml", "heroes: []\n")
    lines = problems(tmp_path)
    assert_line(lines, "items.yaml", "YAML syntax error")
    assert_line(lines, "heros.yaml", "unknown data file")
    assert_line(problems(tmp_path / "nowhere"), "overlay folder not found")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    _hero_overlay(tmp_path, vitality=0, max_potions=-1)
    easy = {"id": "easy", "name": "Easy", "lives": 0, "items": "kept", "source": "t"}
    write(tmp_path / "difficulties.yaml", {"difficulties": [easy]})
    lines = problems(tmp_path)
    assert len(lines) == 3
    assert_line(lines, 'difficulty "easy"', 'field "lives"', "got 0")


def test_pile_card_errors_name_the_pile(tmp_path: Path) -> None:
    piles = {"piles": [entry(shipped("piles"), "piles", "level_1")]}
    piles["piles"][0]["cards"][4] = {"kind": "enemyy", "ref": "asesino", "count": 4}
    piles["piles"][0]["cards"][5] = {"kind": "enemy", "count": 5}
    write(tmp_path / "piles.yaml", piles)
    lines = problems(tmp_path)
    assert_line(lines, 'pile "level_1"', 'field "cards[4].kind"', "expected one of")
    assert_line(lines, 'pile "level_1"', 'field "cards[5]"', "needs a ref")


@pytest.mark.parametrize("content", ["", "heroes: 3\n", "- 1\n", "heroes:\n  - 7\n", "heroes: []\nplaceholders: x\n"])
def test_malformed_files_are_problems_not_tracebacks(tmp_path: Path, content: str) -> None:
    write(tmp_path / "heroes.yaml", content)
    try:
        load_data(tmp_path)
    except DataError as err:
        assert all("heroes.yaml" in line for line in str(err).splitlines())


def test_placeholder_notes_written_as_a_non_mapping(tmp_path: Path) -> None:
    lines = problems(_hero_overlay(tmp_path, placeholders="x"))
    assert_line(lines, 'hero "amazona"', 'field "placeholders"', "mapping")


def test_invented_entry_needs_its_reason_and_special_needs_text(tmp_path: Path) -> None:
    items = {"items": [{"id": "item_c", "name": "C", "source": "t", "placeholder": True}]}
    write(tmp_path / "items.yaml", items)
    _hero_overlay(tmp_path, special_text=None)
    lines = problems(tmp_path)
    assert_line(lines, 'item "item_c"', "placeholder_reason go together")
    assert_line(lines, 'hero "amazona"', "needs its special_text")
