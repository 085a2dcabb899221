"""The shipped DS:TBG data holds every core card: counts from the rules, names and figures from the reference.

The reference part parses the tables of ``/work/shared/reference/dstbg/facts.md`` at test time, so a
card dropped or mistyped in the YAML fails here; it is skipped when that file is not present.
Values that the data deliberately decides differently carry a ``decision`` note and are skipped.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dsim.games.dstbg.loader import GameData, load_game_data
from dsim.games.dstbg.schema import INF_RANGE

FACTS = Path("/work/shared/reference/dstbg/facts.md")
needs_facts = pytest.mark.skipif(not FACTS.is_file(), reason=f"reference tables {FACTS} not available")


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game_data()


def ident(name: str) -> str:
    """snake_case id of an English card name (drop apostrophes, & → and)."""
    name = name.lower().replace("'", "").replace("&", "and")
    return re.sub(r"[^a-z0-9]+", "_", name).strip("_")


def table(start: str, stop: str) -> list[dict[str, str]]:
    """Rows (column name → cell) of the markdown table between the line starting ``start`` and ``stop``."""
    lines = FACTS.read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith(start))
    last = next(n for n in range(first + 1, len(lines)) if lines[n].startswith(stop))
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")] for line in lines[first:last] if line.startswith("|")
    ]
    header = rows[0]
    body = [row for row in rows[1:] if row != header and not all(set(cell) <= set("-:") for cell in row)]
    return [dict(zip(header, row, strict=True)) for row in body]


def dice(cell: str) -> str:
    return "" if cell in ("–", "-") else cell


def number(cell: str) -> int | None:
    return {"∞": INF_RANGE, "–": None}.get(cell, None if not cell[:1].isdigit() else int(cell.split()[0]))


# ---------------------------------------------------------------- hard expectations from the rules


def test_R_1_7_four_characters_with_kits_of_13_cards(data: GameData) -> None:
    assert set(data.characters) == {"assassin", "herald", "knight", "warrior"}
    kit_cards = sum(
        1 + len(c.starting_equipment.hands) + len(c.starting_equipment.backup) for c in data.characters.values()
    )
    assert kit_cards == 13  # 13 starting equipment cards


def test_R_1_6_thirty_six_encounters_twelve_per_level(data: GameData) -> None:
    assert len(data.encounters) == 36
    assert Counter(e.level for e in data.encounters.values()) == {1: 12, 2: 12, 3: 12}


def test_R_12_1_six_enemies_four_mini_and_two_main_bosses(data: GameData) -> None:
    assert len(data.enemies) == 6
    assert Counter(b.kind for b in data.bosses.values()) == {"mini": 4, "main": 2}
    assert set(data.bosses) == {
        "boreal_outrider_knight", "gargoyle", "titanite_demon", "winged_knight",
        "dancer_of_the_boreal_valley", "ornstein_and_smough",
    }  # fmt: skip


def test_R_1_8_treasure_groups(data: GameData) -> None:
    by_group = Counter(i.treasure for i in data.items.values())
    assert by_group["legendary"] == 10
    assert by_group["boss"] == 18
    per_class = Counter((i.class_of, i.treasure) for i in data.items.values() if i.class_of)
    for cid in data.characters:
        assert per_class[(cid, "class")] == 5 and per_class[(cid, "transposed")] == 5, cid


def test_F_12_1_titanite_demon_heats_up_at_10(data: GameData) -> None:
    assert data.bosses["titanite_demon"].figures[0].heat_up == 10


def test_R_7_7_twenty_trap_tokens(data: GameData) -> None:
    assert sum(t.count for t in data.traps.values()) == 20


def test_R_13_10_R_13_11_two_campaign_scenarios_of_three_parts(data: GameData) -> None:
    assert list(data.scenarios) == ["first_journey", "spiral_sword"]
    assert [len(s.parts) for s in data.scenarios.values()] == [3, 3]


def test_dice_have_six_faces_and_known_means(data: GameData) -> None:
    means = {d.letter: sum(d.faces) / 6 for d in data.dice.values()}
    assert means == pytest.approx({"K": 7 / 6, "U": 11 / 6, "O": 2.5, "G": 0.5})


# ---------------------------------------------------------------- reference tables (facts.md)


@needs_facts
def test_every_reference_hand_item_armour_and_upgrade_is_present(data: GameData) -> None:
    hand = [ident(r["Name"]) for r in table("### 3.1", "### 3.2")]
    armour = [ident(r["Name"]) for r in table("### 3.2", "### 3.3")]
    upgrades = [ident(r["Name"]) for r in table("### 3.3", "### 3.4")]
    missing_core = [ident(r["Name"]) for r in table("### 3.4", "---")]
    assert (len(hand), len(armour)) == (79, 26)  # the counts the section headings announce
    assert sorted(hand + armour + upgrades + missing_core) == sorted(data.items)
    assert {data.items[i].kind for i in armour} == {"armour"}
    assert {data.items[i].kind for i in upgrades} == {"weapon_upgrade", "armour_upgrade"}


def _requirements(cell: str) -> list[int]:
    return [0 if v == "–" else int(v) for v in cell.split("/")]


@needs_facts
def test_hand_item_and_armour_stats_match_the_reference(data: GameData) -> None:
    for row in table("### 3.1", "### 3.2") + table("### 3.2", "### 3.3"):
        item = data.items[ident(row["Name"])]
        expected = (_requirements(row["Req S/D/I/F"]), dice(row["Block"]), dice(row["Resist"]), int(row["Dodge"]))
        got = (list(item.requirements.model_dump().values()), item.block, item.resist, item.dodge)
        assert got == expected, item.id
        assert item.upgrade_slots == int(row["Slots"]), item.id
        if "Hands" in row:
            lines = row["Attack lines"]
            assert item.hands == int(row["Hands"]), item.id
            assert len(item.attacks) == (0 if lines == "–" else lines.count("L")), item.id
            if "CONFLICT: range" in row["Notes"]:
                assert item.decision and "range" in item.decision, item.id
            else:
                assert item.range == int(row["Range"]), item.id


@needs_facts
def test_character_stats_and_starting_kits_match_the_reference(data: GameData) -> None:
    stats = table("### 2.1", "Soul cost")
    kits = table("### 2.2", "\\* [S]")
    assert len(stats) == len(kits) == 4
    for row in stats:
        character = data.characters[ident(row["Class"])]
        for stat in ("Strength", "Dexterity", "Intelligence", "Faith"):
            values = [int(v) for v in row[stat].split(" / ")]
            assert getattr(character.stats, stat.lower()) == values, (character.id, stat)
    for row in kits:
        kit = data.characters[ident(row["Class"])].starting_equipment
        expected = sorted(ident(name) for name in row["Starting equipment"].rstrip("*").split(", "))
        assert sorted([kit.armour, *kit.hands, *kit.backup]) == expected, row["Class"]


def _groups(cell: str) -> dict[str, list[str]]:
    """``"Assassin: A, B. Herald: C"`` → ``{"assassin": ["a", "b"], "herald": ["c"]}`` (parentheses dropped)."""
    cell = re.sub(r"\s*\([^)]*\)", "", cell)
    return {
        ident(who): [ident(n) for n in names.split(", ")]
        for who, names in re.findall(r"([A-Z][\w&' /]+): ([^.:]+)", cell)
    }


@needs_facts
def test_R_1_8_treasure_groups_match_the_reference_deck(data: GameData) -> None:
    rows = {row["Group"].split(" (")[0]: row["Cards"] for row in table("### 7.2", "Notes:")}
    for group, treasure in (("Class treasure", "class"), ("Transposed", "transposed")):
        for character, ids in _groups(rows[group]).items():
            assert {(data.items[i].treasure, data.items[i].class_of) for i in ids} == {(treasure, character)}, ids
    for name, ids in _groups(rows["Boss treasure"]).items():
        boss = {"dancer": "dancer_of_the_boreal_valley"}.get(name, name)
        assert data.bosses[boss].treasure == ids
        assert {(data.items[i].treasure, data.items[i].boss_of) for i in ids} == {("boss", boss)}
    legendary = [ident(name) for name in rows["Legendary"].split(": ")[1].split(", ")]
    assert sorted(legendary) == sorted(i for i, item in data.items.items() if item.treasure == "legendary")
    generic = {i for ids in _groups(rows["Generic"]).values() for i in ids}
    ours = {i for i, item in data.items.items() if item.treasure == "generic"}
    assert ours - generic == {"titanite_shard"} and generic <= ours  # Titanite Shard: decided in items.yaml


@needs_facts
def test_enemy_data_cards_match_the_reference(data: GameData) -> None:
    rows = table("### 4.1", "Enemies activate")
    assert len(rows) == 6
    for row in rows:
        enemy = data.enemies[ident(row["Enemy"])]
        cells = ("Threat", "Health", "Block", "Resist", "Range", "Dodge diff.", "Models in box [E]")
        expected = tuple(number(row[cell]) for cell in cells)
        got = (enemy.threat, enemy.health, enemy.block, enemy.resist, enemy.range, enemy.dodge, enemy.models)
        assert got == expected, enemy.id


@needs_facts
def test_boss_data_cards_match_the_reference(data: GameData) -> None:
    rows = table("### 5.1", '"Encounter levels"')
    figures = {f.name: (b, f) for b in data.bosses.values() for f in b.figures}
    assert len(rows) == len(figures) == 7
    for row in rows:
        boss, figure = figures[row["Boss"]]
        assert boss.kind == row["Kind"].split()[0], figure.id
        assert (figure.block, figure.resist, figure.health) == (
            int(row["Block"]),
            int(row["Resist"]),
            number(row["Health"]),
        )
        assert figure.heat_up == number(row["Heat up at health ≤"]), figure.id
        levels = row["Encounter levels before it"]
        if levels != "(same)":
            expected = (number(row["Deck size"]), [int(v) for v in levels.split(", ")])
            assert (boss.deck_size, boss.encounter_levels) == expected, boss.id


ARC = {"F": "front", "L": "left", "R": "right", "B": "back"}


def _arcs(cell: str) -> list[str]:
    return [] if cell == "–" else [ARC[a.strip()] for a in cell.split(",")]


TARGET = {"A": "aggro", "N": "nearest"}
MOVE = re.compile(r"([FBLR])(\d)(?: \(([AN])\))?( push| with push-dmg (\d))?")


def _sequence(text: str, aoe: str) -> tuple[list[dict[str, Any]], int]:
    """Steps and repeat count from the facts.md card notation (e.g. ``F1 (N) push → P4 frostbite x2``)."""
    steps, repeat = [], 1
    for icon in text.removeprefix("(no move) ").split(" → "):
        if found := re.search(r",? x(\d)$", icon):
            repeat, icon = int(found[1]), icon[: found.start()]
        if move := MOVE.fullmatch(icon):
            direction = {"F": "forward", "B": "backward", "L": "left", "R": "right"}[move[1]]
            face = TARGET.get(move[3]) if move[3] else None
            push_damage = int(move[5]) if move[5] else 0
            steps.append({"op": "move", "direction": direction, "face": face, "distance": int(move[2]),
                          "push": bool(move[4]), "push_damage": push_damage})  # fmt: skip
        elif face := re.fullmatch(r"face ([AN]) \(move 0\)", icon):
            steps.append({"op": "move", "direction": "forward", "face": TARGET[face[1]], "distance": 0,
                          "push": False, "push_damage": 0})  # fmt: skip
        elif leap := re.fullmatch(r"leap→([AN]) push(?:-dmg (\d))?", icon):
            steps.append({"op": "leap", "target": TARGET[leap[1]], "push": True, "push_damage": int(leap[2] or 0)})
        elif turn := re.fullmatch(r"turn (90 CW|90 CCW|180)", icon):
            steps.append({"op": "turn", "degrees": {"90 CW": 90, "90 CCW": -90, "180": 180}[turn[1]]})
        else:
            kind, *flags = icon.split()
            target = next((TARGET[f[1]] for f in flags if f.startswith("@")), "area" if aoe != "–" else None)
            steps.append({
                "op": "attack", "type": {"P": "physical", "M": "magic"}[kind[0]], "damage": int(kind[1:]),
                "target": target, "node": "node" in flags, "push": "+push" in flags,
                "arcs": _arcs(aoe) if target == "area" else [], "conditions": [f for f in flags if f == "frostbite"],
            })  # fmt: skip
    return steps, repeat


BOSS_TABLES = {
    "boreal_outrider_knight": [("#### Boreal Outrider Knight", "####", None)],
    "gargoyle": [("#### Gargoyle", "####", None)],
    "titanite_demon": [("#### Titanite Demon", "####", None)],
    "winged_knight": [("#### Winged Knight", "####", None)],
    "dancer_of_the_boreal_valley": [("#### Dancer", "####", None)],
    "ornstein_and_smough": [
        ("#### Ornstein & Smough", "####", None),
        ("#### Ornstein heat-up", "####", "ornstein"),
        ("#### Smough heat-up", "Area size", "smough"),
    ],
}


@needs_facts
@pytest.mark.parametrize("boss_id", sorted(BOSS_TABLES))
def test_every_behaviour_card_matches_the_reference(data: GameData, boss_id: str) -> None:
    boss = data.bosses[boss_id]
    cards = {c.id: c for c in boss.cards}
    seen: list[str] = []
    for start, stop, owner in BOSS_TABLES[boss_id]:
        for row in table(start, stop):
            if row["Card"]:  # a dual card's second row (Smough's half) has an empty Card cell
                card = cards[ident(row["Card"])]
                seen.append(card.id)
            figure = row["Who"].lower() if "Who" in row else owner or boss.figures[0].id
            half = next(h for h in card.halves if h.figure == figure)
            assert card.heat_up == (row.get("HU") == "HU" or owner is not None), card.id
            assert card.figure == (owner if owner or "Who" in row else boss.figures[0].id), card.id
            expected = (number(row["Rng"]), int(row["Dodge"]), _arcs(row["Weak"]))
            assert (half.range, half.dodge, half.weak_arcs) == expected, card.id
            steps, repeat = _sequence(row["Sequence"], row["AoE"])
            assert [s.model_dump() for s in half.steps] == steps, card.id
            assert half.repeat == repeat, card.id
    assert sorted(seen) == sorted(cards)


SHORT = {
    "HS": "hollow_soldier", "CH": "crossbow_hollow", "LHS": "large_hollow_soldier",
    "SKS": "silver_knight_swordsman", "SKG": "silver_knight_greatbowman", "SEN": "sentinel",
}  # fmt: skip


@needs_facts
def test_encounter_cards_match_the_reference(data: GameData) -> None:
    rows = table("### 6.1", "Which physical node")
    assert len(rows) == 36
    for row in rows:
        e = data.encounters[ident(row["Encounter"])]
        spawns = [[SHORT[x] for x in row[c].split(", ")] if row[c] != "–" else [] for c in ("Spawn 1", "Spawn 2")]
        terrain = [None if row[c] == "–" else row[c] for c in ("Terrain 1", "Terrain 2")]
        expected = (int(row["Lvl"]), spawns, terrain, row["Traps"] == "yes")
        assert (e.level, [e.spawn_1, e.spawn_2], [e.terrain_1, e.terrain_2], e.traps) == expected, e.id
