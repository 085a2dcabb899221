"""DS:TBG played whole as a :class:`dsim.games.base.Game` (``--game dstbg_game``): the win rate of a game, not of
one battle.

Settings of one cell: ``party`` (1–4 character ids, seat order), ``mini_boss`` and ``main_boss`` (ids; default
gargoyle and ornstein_and_smough) or ``scenario`` (a campaign scenario's parts, R-13.10), ``mode`` (``standard`` or ``campaign``, R-13), ``policy`` and
``policy_params`` (the *strategy* between battles, ``policies/dstbg_game``), ``battle_policy`` and
``battle_policy_params`` (who plays the battles, ``policies/dstbg``, default tactician, or a searcher, ``expert`` or
``oracle``: :mod:`dsim.games.dstbg_game.searched`), ``variants`` (game
readings A-4 … A-56 and every battle reading), ``house_rules`` (battle-table edits, ``dsim variants list``),
``data`` (an overlay folder).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dsim.games.base import Game, Option, Outcome, RuleSwitch, SettingsError, Workload
from dsim.games.dstbg_game.cell import (DEFAULT_BATTLE_POLICY, DEFAULT_MAIN, DEFAULT_MINI, DEFAULT_PARTY,
                                        DEFAULT_STRATEGY, MAX_PARTY, MODES, prepare)
from dsim.paths import data_digest

if TYPE_CHECKING:  # numpy too: a game object is built to list options and must stay cheap (`dsim --help`)
    import numpy as np

    from dsim.policy import Policy


def _parse_mode(value: str) -> str:
    if value not in MODES:
        raise SettingsError(f"--mode: expected standard or campaign, got {value!r}")
    return value


STAGE_COLUMNS = ("reached_mini_boss", "beat_mini_boss", "reached_main_boss")
GEAR_COLUMNS = tuple(f"{b}_gear_{s}_{k}" for b in ("mini", "main") for s in range(MAX_PARTY)
                     for k in ("armour", "hand0", "hand1"))  # card indices: each slot's card at a boss's first fight


class DSTBGGame(Game):
    """Dark Souls: The Board Game played whole: explore, rest, buy, level, mini boss, main boss (R-1.1)."""

    name = "dstbg_game"
    title = "Dark Souls: The Board Game — whole games"
    default_policy = DEFAULT_STRATEGY
    # fresh clone, quiet host, 2026-12-08: 46 s CPU (after a DS:TBG run), less the 8% numba_start.quicker_compiles cut
    # since (63.1 -> 57.7 s side by side from an empty cache on a loaded host); another strategy compiles only
    # itself, taken as DS:TBG's 9 s a policy, not measured
    compile_cpu_s = (42.0, 9.0)
    rule_tables = ("variants", "house_rules")
    heatmap_axes = (("party",), ("mini_boss", "main_boss"))
    options = (
        Option("party", "Comma-separated character ids in seat order, e.g. knight,warrior (1–4; default "
                        f"{','.join(DEFAULT_PARTY)}).", "list"),
        Option("mini_boss", f"Mini boss id (default {DEFAULT_MINI}; `dsim data list bosses`)."),
        Option("main_boss", f"Main boss id (default {DEFAULT_MAIN})."),
        Option("scenario", "A campaign scenario instead of the two bosses (R-13.10, R-13.11; `dsim data list "
                           "scenarios`): first_journey, spiral_sword. Implies --mode campaign."),
        Option("mode", "standard (default) or campaign (R-13: prices, selling, bought sparks).", parse=_parse_mode),
        Option("battle_policy", f"Battle policy of the characters (default {DEFAULT_BATTLE_POLICY}; "
                                "`dsim policies list`), or a searcher deciding every battle decision: expert (fair "
                                "rollouts of the veteran, valuing the tokens kept for the boss), oracle (all-seeing "
                                "ceiling); about a second a game."),
    )
    outcome = Outcome(
        success="win", rounds="battles", unit="game", shares=STAGE_COLUMNS,
        means=("battles", "battles_lost", "souls_earned", "souls_spent", "treasure_drawn", "sparks_left"),
        internal=("result", "stage", "main_boss_health_left", "tiers_at_mini_boss", "tiers_at_main_boss",
                  "mini_boss_first_win", "main_boss_first_win", "souls_left", "embers_drawn", "rests", "retreats",
                  "mini_boss_fights", "main_boss_fights", "capped", *GEAR_COLUMNS),
        codes=("result", *GEAR_COLUMNS),  # an outcome code, card indices
    )
    workloads = (
        Workload("game-2p", "whole game, Knight + Warrior, Gargoyle then Ornstein & Smough, balanced strategy",
                 {"party": ["knight", "warrior"], "policy": "balanced"}),
        Workload("game-4p", "whole game, four characters, Gargoyle then Ornstein & Smough, balanced strategy",
                 {"party": ["knight", "warrior", "assassin", "herald"], "policy": "balanced"}),
        Workload("expert-game-2p", "whole game, Knight + Warrior, balanced strategy, every battle decision by the "
                 "expert searcher", {"party": ["knight", "warrior"], "policy": "balanced", "battle_policy": "expert"},
                 plays=32),
    )

    # ------------------------------------------------------------------ cells

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` if the cell cannot be played."""
        prepare(settings)

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Games ``start .. start+count-1`` of the cell as outcome columns."""
        from dsim.games.dstbg_game import engine

        cell = prepare(settings)
        rows, searched = _play_rows(cell, cell.strategy_params, seed, stream, start, count)
        cols = engine.outcome_columns(rows, len(cell.compiled.areas))
        return cols if searched is None else cols | {"searched_decisions": searched}  # a searcher's cost (`dsim bench`)

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """SHA-256 over the DS:TBG data files and the overlay."""
        return data_digest("dstbg", settings.get("data"))

    def label(self, settings: Mapping[str, Any]) -> str:
        """``knight+warrior: gargoyle → ornstein_and_smough``."""
        party = settings.get("party", DEFAULT_PARTY)
        party = party.split(",") if isinstance(party, str) else party
        if "scenario" in settings:
            return f"{'+'.join(party)}: campaign {settings['scenario']}"
        mode = " (campaign)" if settings.get("mode") == "campaign" else ""
        return f"{'+'.join(party)}: {settings.get('mini_boss', DEFAULT_MINI)} → " \
               f"{settings.get('main_boss', DEFAULT_MAIN)}{mode}"

    def heading(self, settings: Mapping[str, Any]) -> str:
        """The run table's heading."""
        return f"{self.label(settings)}, battles by {settings.get('battle_policy', DEFAULT_BATTLE_POLICY)}"

    def played_with(self, settings: Mapping[str, Any]) -> list[str]:
        """The strategy between battles and the battle policy (gear is won in play, R-1.1)."""
        strategy = str(settings.get("policy", self.default_policy))
        battles = str(settings.get("battle_policy", DEFAULT_BATTLE_POLICY))
        return [f"strategy: {strategy}{' (default)' * (strategy == self.default_policy)} · battle policy: {battles}"
                f"{' (default)' * (battles == DEFAULT_BATTLE_POLICY)} · gear: starting, then what each game wins"]

    def derive(self, columns: Mapping[str, np.ndarray], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Games cut off by the battle cap."""
        from dsim.games.dstbg_game import layout as G

        return {"capped": columns["result"] == G.RESULT_CAPPED}

    def summary(self, totals: Mapping[str, float], count: int, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Means per game and the funnel (share reaching and beating each stage)."""
        out = {f"mean_{c}": totals[c] / count for c in self.outcome.means}
        out |= {c: totals[c] / count for c in STAGE_COLUMNS}
        out["capped"] = int(totals["capped"])
        return out

    # ------------------------------------------------------------------ rules

    def rules(self) -> list[RuleSwitch]:
        """The game readings, then the battle readings and house rules (they apply to every battle)."""
        from dsim.games.dstbg.game import DSTBG
        from dsim.games.dstbg_game.variants import GAME_VARIANTS

        return [v.switch() for v in GAME_VARIANTS.listed()] + DSTBG().rules()

    def rules_not_simulated(self) -> dict[str, str]:
        """What a whole game does not play (yet)."""
        return dict(NOT_SIMULATED)

    def parse_set(self, key: str, value: str) -> tuple[str, str, Any]:
        """House rules go to ``house_rules``, every reading to ``variants``."""
        from dsim.games.dstbg import house_rules as H

        return ("house_rules" if key in H.BY_ID else "variants"), key, value

    # ------------------------------------------------------------------ capabilities

    search_chunk = 16  # games a chunk under a searching battle player: ~a minute of search, so the bar moves

    def searching(self, settings: Mapping[str, Any]) -> bool:
        """Whether the cell's battles are played by a searcher (``--battle-policy expert|oracle``)."""
        from dsim.games.dstbg.searchers import searcher

        return searcher(str(settings.get("battle_policy", DEFAULT_BATTLE_POLICY))) is not None

    def policies(self) -> Any:
        """The strategies (``policies/dstbg_game``): ``--policy`` picks one, ``tune-policy`` tunes it."""
        from dsim.games.dstbg_game.strategy import REGISTRY

        return REGISTRY

    def evaluator(self, settings: Mapping[str, Any], seed: int, measure: str | None = None) -> tuple[Policy, Any]:
        """The cell's strategy and a win (or ``measure``, e.g. ``beat_mini_boss``) evaluator whose stream ignores
        the strategy and its parameters."""
        import numpy as np
        from dsim.games.dstbg_game import engine
        from dsim.games.dstbg_game import layout as G
        from dsim.rng import stream_key

        cell = prepare(settings)
        games_id = {k: v for k, v in settings.items() if k not in self.policy_keys}
        stream = stream_key(json.dumps(games_id, sort_keys=True, default=str))

        def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
            rows = _play_rows(cell, np.asarray(vector, np.float64), seed, stream, start, count)[0]
            if measure is None:
                return rows[:, G.OUT_RESULT] == G.RESULT_WON
            return self.measured(engine.outcome_columns(rows, len(cell.compiled.areas)), measure)

        return cell.strategy, evaluate

    def data(self) -> Any:
        """The DS:TBG data (``data/dstbg``), the treasure deck included."""
        from dsim.games.dstbg.datasupport import DSTBGData

        return DSTBGData()

    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> list[dict[str, Any]]:
        """Every event of game ``index`` between battles, with the rule behind it."""
        from dsim.games.dstbg_game.trace import game_events

        return game_events(prepare(settings), seed, stream, index)

    def describe_event(self, event: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
        """One readable line of a game event (and under it the strategy's reason for the choice behind it)."""
        from dsim.games.dstbg_game.trace import explained

        return explained(dict(event), prepare(settings).compiled)

    def match_columns(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``won``, ``lost``, ``capped`` and ``stage`` for ``explain --where``."""
        from dsim.games.dstbg_game import layout as G

        return {"won": columns["result"] == G.RESULT_WON, "lost": columns["result"] == G.RESULT_LOST,
                "capped": columns["result"] == G.RESULT_CAPPED}

    def commands(self) -> list[tuple[str, Any]]:
        """``dsim game`` (whole games: the funnel, the gear at the bosses) and ``dsim area`` (the first area)."""
        from dsim.clikit import with_options
        from dsim.games.dstbg_game.cli import AREA_OPTIONS, area, game

        return [("game", with_options(game, self.options)),
                ("area", with_options(area, [o for o in self.options if o.name in AREA_OPTIONS]))]


def _play_rows(cell: Any, strategy_params: np.ndarray, seed: int, stream: int, start: int, count: int
               ) -> tuple[np.ndarray, np.ndarray | None]:
    """Outcome rows of games ``start .. start+count-1`` under the strategy's ``strategy_params``, and with a searching
    battle player (``--battle-policy expert|oracle``) the decisions it searched in each game (else ``None``)."""
    from dsim.games.dstbg.searchers import SearchPolicy
    from dsim.games.dstbg_game import engine

    if isinstance(cell.battle_policy, SearchPolicy):
        from dsim.games.dstbg_game.searched import play_searched

        return play_searched(dataclasses.replace(cell, strategy_params=strategy_params), seed, stream, start, count)
    return engine.play_batch(cell.compiled, cell.battle_policy.decide, cell.strategy.decide, cell.battle_params,
                             strategy_params, seed, stream, start, count), None


NOT_SIMULATED = {
    "A-4 boss_choice": "the cell names the mini and the main boss (D-1); the `random` reading is the average of a "
                       "sweep over them",
    "A-25 soul_retrieval_moves": "dropped souls come back when the party wins the tile's battle again (R-8.6 read "
                                 "as: a won battle reaches the node); which moves pick them up is not modelled",
    "A-26 multi_death_soul_node": "one death ends a battle here, so there is one node",
    "R-4.7 upgrades": "one upgrade per item (cards with two slots take one); an armour upgrade's effects on its "
                      "wearer's attacks (scope self, e.g. Hornet Ring) are not applied to the weapons",
    "R-13.3 joining and leaving": "the party is fixed for the whole game",
    "D-2, D-3 layout and card placement": "A-5 chain or star; cards of equal level are placed at random",
    "D-6 door": "the party enters every tile through the default door (tiles.yaml entry_door)",
    "battle timeouts": "a battle still running at the round cap (max_rounds) counts as a defeat",
}
