"""One whole-game cell made ready to play (:func:`prepare`): its settings checked, its tables compiled, its
strategy and battle policy found. Below ``game.py`` and the game's own commands (``cli.py``), which both use it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dsim.games.base import cell_settings
from dsim.text import unknown

if TYPE_CHECKING:  # numpy too: game.py imports this module, and a game object must stay cheap (`dsim --help`)
    import numpy as np

    from dsim.games.dstbg_game.compile import CompiledGame
    from dsim.policy import Policy

KNOWN_KEYS = {"party", "mini_boss", "main_boss", "scenario", "mode", "policy", "policy_params", "battle_policy",
              "battle_policy_params", "variants", "house_rules", "data"}
DEFAULT_PARTY = ["knight", "warrior"]
DEFAULT_MINI, DEFAULT_MAIN = "gargoyle", "ornstein_and_smough"
DEFAULT_BATTLE_POLICY = "tactician"
DEFAULT_STRATEGY = "balanced"  # the default policy between battles (policies/dstbg_game)
MODES = ("standard", "campaign")
MAX_PARTY = 4


@dataclass(frozen=True)
class Cell:
    """A whole-game cell ready to play: tables, strategy and battle policy with their parameter vectors."""

    compiled: CompiledGame
    strategy: Policy
    strategy_params: np.ndarray
    battle_policy: Policy
    battle_params: np.ndarray


def _party(value: Any, known: Any) -> list[str]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not items or not all(isinstance(i, str) and i.strip() for i in items):
        raise ValueError('setting "party" must be character ids, e.g. "knight,warrior" or a list of ids')
    names = [i.strip() for i in items]
    if len(names) > MAX_PARTY:
        raise ValueError(f"a party has 1 to {MAX_PARTY} characters (R-1.4), got {len(names)}")
    for name in names:
        if name not in known:
            raise ValueError(unknown("character", name, known))
    return names


@lru_cache(maxsize=64)
def _cell(key: str) -> Cell:
    from dsim.games.dstbg.game import game_data
    from dsim.games.dstbg.policy import get_policy
    from dsim.games.dstbg.searchers import BASES, SearchPolicy, searcher
    from dsim.games.dstbg_game.compile import compile_game
    from dsim.games.dstbg_game.searched import GAME_BASE, GAME_DECISIONS
    from dsim.games.dstbg_game.strategy import REGISTRY

    settings = cell_settings(key, KNOWN_KEYS)
    data = game_data(settings.get("data"))
    party = _party(settings.get("party", DEFAULT_PARTY), data.characters)
    mode = settings.get("mode", "campaign" if "scenario" in settings else "standard")
    if mode not in MODES:
        raise ValueError(f"setting 'mode' must be standard or campaign, got {mode!r}")
    compiled = compile_game(data, party, _areas(data, settings, mode), settings.get("variants"),
                            settings.get("house_rules"), mode == "campaign")
    _check_round_cap(settings.get("variants"))
    strategy = REGISTRY.get(settings.get("policy", DEFAULT_STRATEGY))
    battle_name = settings.get("battle_policy", DEFAULT_BATTLE_POLICY)
    battle = searcher(battle_name) or get_policy(battle_name)  # a searcher: every battle decision searched
    battle_params = settings.get("battle_policy_params")
    if isinstance(battle, SearchPolicy):  # in a game: the game's decisions, and the veteran's G_NEED in the rollouts
        battle_params = {"decisions": GAME_DECISIONS, "base": BASES.index(GAME_BASE), **(battle_params or {})}
    return Cell(compiled, strategy, strategy.vector(settings.get("policy_params")), battle,
                battle.vector(battle_params))


MIN_ROUND_CAP = 10  # as Bloodborne's max_rounds and Dark Maiden's max_turns


def _check_round_cap(variants: Mapping[str, Any] | None) -> None:
    """A whole game counts a battle still running at ``max_rounds`` as a defeat: under 10 rounds the cap, not the
    battle, decides every boss fight (``max_rounds=0`` lost every game and reported 0% with no word of timeouts)."""
    try:
        cap = int((variants or {})["max_rounds"])
    except (KeyError, TypeError, ValueError):  # not set (the default is 60), or a value compile_game refused
        return
    if cap < MIN_ROUND_CAP:
        raise ValueError(f"variant 'max_rounds' takes a whole number from {MIN_ROUND_CAP} to 10000 in a whole game, got "
                         f"{cap}: a battle still running at the cap is lost, so a lower cap decides the game instead "
                         "of its battles")


def _areas(data: Any, settings: Mapping[str, Any], mode: str) -> list[tuple[list[int], list[str]]]:
    """The game's areas: a campaign scenario's parts (R-13.10, R-13.11) or the mini boss's then the main boss's."""
    from dsim.games.dstbg_game.compile import standard_areas

    if "scenario" not in settings:
        return standard_areas(data, settings.get("mini_boss", DEFAULT_MINI), settings.get("main_boss", DEFAULT_MAIN))
    if "mini_boss" in settings or "main_boss" in settings:
        raise ValueError("a scenario names its own bosses: give --scenario or --mini-boss/--main-boss, not both")
    if mode != "campaign":
        raise ValueError("a scenario is a campaign (R-13.10): it plays with --mode campaign")
    scenarios = data.scenarios
    name = settings["scenario"]
    if name not in scenarios:
        raise ValueError(f"unknown scenario {name!r} (known: {', '.join(sorted(scenarios))})")
    return [(list(part.levels), list(part.bosses)) for part in scenarios[name].parts]


def prepare(settings: Mapping[str, Any]) -> Cell:
    """Validate and compile one cell (``ValueError`` with a one-line message)."""
    return _cell(json.dumps(settings, sort_keys=True, default=str))
