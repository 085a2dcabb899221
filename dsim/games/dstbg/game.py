"""DS:TBG as a :class:`dsim.games.base.Game`: settings → compiled cell → outcome columns.

Settings of one cell: ``party`` (list of character ids), ``encounter`` or ``boss`` (id, with optional
``gravestones``), ``loadout`` (a loadout id from ``loadouts.yaml`` for every character, or a
table character id → loadout id; without it the starting equipment, R-1.7), ``policy`` (name or
``path.py:name``), ``policy_params`` (table), ``variants`` (table id → reading), ``house_rules``
(table id → value, :mod:`dsim.games.dstbg.house_rules`), ``data`` (overlay folder). Compiled
cells are cached per settings within a process.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from dsim.games.dstbg import engine
from dsim.games.dstbg.compile import Compiled, compile_boss, compile_encounter
from dsim.games.dstbg.house_rules import apply_house_rules
from dsim.games.dstbg.loader import GameData, load_game_data
from dsim.games.dstbg.policy import Policy, get_policy
from dsim.paths import game_data_dir

KNOWN_KEYS = {"party", "encounter", "boss", "gravestones", "policy", "policy_params", "variants", "house_rules", "data", "loadout"}


@dataclass(frozen=True)
class Cell:
    """A compiled cell ready to play: tables, policy and its parameter vector."""

    compiled: Compiled
    policy: Policy
    params: np.ndarray


def _canonical(settings: Mapping[str, Any]) -> str:
    return json.dumps(settings, sort_keys=True, default=str)


@lru_cache(maxsize=64)
def game_data(overlay: str | None = None) -> GameData:
    """The shipped game data, with the overlay folder's edits if given (loaded once per process)."""
    return load_game_data(overlay=Path(overlay) if overlay else None)


@lru_cache(maxsize=256)
def _cell(key: str) -> Cell:
    settings = json.loads(key)
    unknown = set(settings) - KNOWN_KEYS
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(KNOWN_KEYS))})")
    party = settings.get("party")
    if isinstance(party, str):
        party = [p.strip() for p in party.split(",") if p.strip()]
    if not party:
        raise ValueError("setting 'party' is required: a list of character ids such as [\"knight\", \"warrior\"]")
    loadout = settings.get("loadout")
    if loadout is not None and not isinstance(loadout, str | dict):
        raise ValueError("setting 'loadout' must be a loadout name or a table character id → loadout name")
    if ("encounter" in settings) == ("boss" in settings):
        raise ValueError("name exactly one of 'encounter' (see `dsim data list encounters`) or 'boss'")
    data = game_data(settings.get("data"))
    if "boss" in settings:
        compiled = compile_boss(
            data, list(party), settings["boss"], settings.get("gravestones"), settings.get("variants"), loadout
        )
    else:
        compiled = compile_encounter(data, list(party), settings["encounter"], settings.get("variants"), loadout)
    compiled = apply_house_rules(compiled, settings.get("house_rules"))
    policy = get_policy(settings.get("policy", "baseline"))
    params = policy.vector(settings.get("policy_params"))
    return Cell(compiled, policy, params)


def prepare(settings: Mapping[str, Any]) -> Cell:
    """Validate and compile one cell's settings (``ValueError`` with a user-facing message)."""
    return _cell(_canonical(settings))


class DSTBG:
    """The DS:TBG game for sweeps, executors and the CLI."""

    name = "dstbg"

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` if the cell cannot be compiled."""
        prepare(settings)

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Battles ``start .. start+count-1`` of the cell as outcome columns."""
        cell = prepare(settings)
        rows = engine.play_batch(cell.compiled.tables, cell.policy.decide, cell.params, seed, stream, start, count)
        return engine.outcome_columns(rows)

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """SHA-256 over the shipped data files and the overlay, so resumed sweeps refuse changed data."""
        digest = hashlib.sha256()
        folders = [game_data_dir("dstbg")] + ([Path(settings["data"])] if settings.get("data") else [])
        for folder in folders:
            for path in sorted(folder.rglob("*.yaml")):
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
        return digest.hexdigest()[:16]
