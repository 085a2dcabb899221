"""Hand-built battle scenarios for rule-variant tests, written as a data overlay (``--data DIR``).

Each scenario is an encounter card (and, where needed, a custom enemy or kit) that makes one
rule question come up often: a bleeding attacker for A-29, long-lived pushing brutes for
A-35..A-37, a barrel-and-trap room for A-23/A-24, and a Warrior whose "trial blades" repeat,
shift, stagger and frostbite (A-24, A-28, A-31) and an Assassin whose estoc frostbites (A-38).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from dsim.paths import game_data_dir

SHIPPED = game_data_dir("dstbg")


def _shipped(name: str, key: str) -> dict[str, dict[str, Any]]:
    rows = yaml.safe_load((SHIPPED / name).read_text(encoding="utf-8"))[key]
    return {row["id"]: row for row in rows}


def _encounter(eid: str, spawn_1: list[str], spawn_2: list[str], terrain: tuple[str | None, str | None] = (None, None),
               traps: bool = False) -> dict[str, Any]:
    return {"id": eid, "name": eid.replace("_", " ").title(), "level": 1, "spawn_1": spawn_1, "spawn_2": spawn_2,
            "terrain_1": terrain[0], "terrain_2": terrain[1], "traps": traps, "source": "test scenario"}


def write_overlay(folder: Path) -> Path:
    """Write the scenario overlay into ``folder`` and return it."""
    enemies = _shipped("enemies.yaml", "enemies")
    bleeder = copy.deepcopy(enemies["hollow_soldier"])
    bleeder.update(id="bleeder", name="Bleeder", health=30, source="test scenario")
    bleeder["behaviour"][1].update(damage=3, conditions=["bleed"])  # hits often fully blocked by the knight
    brute = copy.deepcopy(enemies["large_hollow_soldier"])
    brute.update(id="brute", name="Brute", health=40, source="test scenario")
    axe = _shipped("items.yaml", "items")["battle_axe"]
    blades = {**copy.deepcopy(axe), "id": "trial_blades", "name": "Trial Blades", "source": "test scenario", "attacks": [
        {"stamina": 1, "dice": "KK", "repeat": 2, "conditions": ["stagger"]},
        {"stamina": 2, "dice": "KK", "shift_before": 1, "conditions": ["frostbite"]},
    ]}
    estoc = _shipped("items.yaml", "items")["estoc"]
    frost = {**copy.deepcopy(estoc), "id": "frost_estoc", "name": "Frost Estoc", "source": "test scenario"}
    frost["attacks"] = [{**line, "conditions": ["frostbite"]} for line in estoc["attacks"]]
    chars = _shipped("characters.yaml", "characters")
    warrior, assassin = copy.deepcopy(chars["warrior"]), copy.deepcopy(chars["assassin"])
    warrior["starting_equipment"]["hands"] = ["trial_blades", warrior["starting_equipment"]["hands"][1]]
    assassin["starting_equipment"]["hands"] = ["frost_estoc", assassin["starting_equipment"]["hands"][1]]
    (folder / "items.yaml").write_text(yaml.safe_dump({"items": [blades, frost]}), encoding="utf-8")
    (folder / "characters.yaml").write_text(yaml.safe_dump({"characters": [warrior, assassin]}), encoding="utf-8")
    (folder / "enemies.yaml").write_text(yaml.safe_dump({"enemies": [bleeder, brute]}), encoding="utf-8")
    encounters = [
        _encounter("bleed_pit", ["bleeder"], []),
        _encounter("brute_pen", ["brute"], []),
        _encounter("two_brutes", ["brute"], ["brute"]),
        _encounter("trap_hall", ["hollow_soldier", "large_hollow_soldier"], ["silver_knight_swordsman"], ("barrel", "barrel"), True),
    ]
    (folder / "encounters.yaml").write_text(yaml.safe_dump({"encounters": encounters}), encoding="utf-8")
    return folder
